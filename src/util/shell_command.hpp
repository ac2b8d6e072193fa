#pragma once
/// A shell command line built from data (feature names, variant names, an org), the one gate
/// for every command a page or file shows.

#include <string>
#include <vector>

namespace tailor {

/// Each word through shell_word (util/quote.hpp), the commands of a pipeline joined by " | ":
/// a word can never end its quotes and start a command of its own.
std::string shell_command(const std::vector<std::vector<std::string>>& pipeline);

}  // namespace tailor
