#include "kb/cuda_library.hpp"

#include <fmt/format.h>

#include "kb/read_helpers.hpp"

namespace tailor {

CudaLibrary read_cuda_library(TableReader& r) {
  CudaLibrary l;
  l.attribute = require_nix_identifier(r.doc(), r.required_string("attribute"), "cudaPackages attribute");
  l.display = r.required_string("display").value;
  auto files = r.strings("files");
  if (!files || files->empty())
    throw r.doc().error_at(r.pos(), "a [[library]] lists the shared libraries it installs in 'files'");
  for (const auto& f : *files) {
    if (!f.value.starts_with("lib") || f.value.find(".so") == std::string::npos ||
        f.value.find('/') != std::string::npos)
      throw r.doc().error_at(f.pos, fmt::format("'{}' is not a shared library file name (libNAME.so)", f.value));
    l.files.push_back(f.value);
  }
  auto kind = r.required_string("kind");
  if (kind.value == "measured")
    l.kind = EvidenceKind::measured;
  else if (kind.value == "documented")
    l.kind = EvidenceKind::documented;
  else
    throw r.doc().error_at(kind.pos, fmt::format("kind '{}' is not \"measured\" or \"documented\"", kind.value),
                           "a library is pruned only on a fact as strong as the change: a disputed one is left out");
  l.source = r.required_string("source").value;
  if (l.source.empty()) throw r.doc().error_at(r.pos(), "a [[library]] names the source of its entry");
  l.notes = optional_text(r, "notes");
  return l;
}

}  // namespace tailor
