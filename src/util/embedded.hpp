#pragma once
/// Files compiled into the binary (see cmake/EmbedFiles.cmake): the knowledge
/// base under "data/" and the example specs under "examples/".

#include <optional>
#include <span>
#include <string_view>

namespace tailor {

struct EmbeddedFile {
  std::string_view path;  ///< relative to the source tree, e.g. "data/cpu_isas.toml"
  std::string_view content;
};

std::span<const EmbeddedFile> embedded_files();

/// The content of the embedded file at \a path, if there is one.
std::optional<std::string_view> embedded_file(std::string_view path);

}  // namespace tailor
