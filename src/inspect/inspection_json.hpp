#pragma once
/// `tailor inspect --json`:
///   {"path", "kind", "files": [{"path", "size", "machine", "fatbin_bytes",
///     "outside_fatbin_bytes", "fatbin_overhead_bytes", "containers",
///     "entries": [{"arch", "kind": "sass"|"ptx", "count", "bytes",
///                  "uncompressed_bytes", "compressed"}]}],
///    "other_files", "other_bytes", "total": {... the same sums ...},
///    "projection": {...} (with --target)}

#include <optional>

#include <nlohmann/json.hpp>

#include "inspect/inspection.hpp"

namespace tailor {

nlohmann::ordered_json to_json(const Inspection& in, const std::optional<Projection>& projection);

}  // namespace tailor
