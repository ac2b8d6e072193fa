#pragma once
/// Reads a matrix spec (TOML) against a closed schema and the knowledge base:
/// unknown keys, unknown SM/ISA/CUDA/pin/Python values and wrong types are
/// reported with file, line and column.

#include <string>

#include "kb/knowledge_base.hpp"
#include "matrix/spec.hpp"

namespace tailor {

/// Parses \a text (the content of \a path). Throws DiagnosticError.
Spec load_spec(std::string path, std::string text, const KnowledgeBase& kb);

/// Reads a spec from a file, or from the embedded examples when \a arg names
/// one ("build-pytorch/main", "examples/build-vllm/vllm-0.14.0.toml").
Spec load_spec_arg(const std::string& arg, const KnowledgeBase& kb);

/// How generated output names the spec at \a path, the same however it was
/// spelled (relative, absolute, with `..`): relative to \a tree when inside it
/// (empty: no tree), else relative to the working directory when inside that,
/// else its file name. An embedded example ("examples/…") is named as it is.
std::string spec_source(const std::string& path, const std::string& tree = "");

/// The embedded example spec used when a command is given none.
inline constexpr const char* kDefaultSpec = "examples/build-pytorch/main.toml";

}  // namespace tailor
