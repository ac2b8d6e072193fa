#pragma once
/// Looking a program up on PATH, as a shell would, without running a shell.

#include <filesystem>
#include <string_view>

namespace tailor {

/// The first executable regular file called \a name in a PATH directory;
/// empty when there is none (or PATH is unset).
std::filesystem::path find_program(std::string_view name);

}  // namespace tailor
