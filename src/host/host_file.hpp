#pragma once
/// The facts of another machine, for planning what to install there: read
/// back from what `tailor detect --json` wrote on it, or made from a GPU
/// compute capability and a CPU ISA target (`--sm 9.0 --isa avx512`).

#include <string>
#include <string_view>

#include "host/host_facts.hpp"

namespace tailor {

/// Parses `tailor detect --json` output (\a source names it in diagnostics):
/// cpu.arch and cpu.features are required, gpus and os optional. Throws
/// DiagnosticError (with line:col for JSON syntax errors) when it is not that.
HostFacts parse_host_json(std::string_view text, std::string_view source, const KnowledgeBase& kb, const HostTables& t);

/// Reads and parses the file \a path.
HostFacts read_host_file(const std::string& path, const KnowledgeBase& kb, const HostTables& t);

/// A machine with the CPU features ISA \a isa and the lower-ranked targets of
/// its platform need and, unless \a sm is
/// empty, one GPU of compute capability \a sm (driver unknown). Throws
/// DiagnosticError for an ISA or SM the knowledge base does not have.
HostFacts host_from_targets(const std::string& sm, const std::string& isa, const KnowledgeBase& kb,
                            const HostTables& t);

}  // namespace tailor
