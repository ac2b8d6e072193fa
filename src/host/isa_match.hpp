#pragma once
/// Which ISA targets of the knowledge base a CPU can run: a target runs when
/// every CPU feature it `requires` is present (anything else can die with
/// SIGILL). Also the x86-64 psABI micro-architecture level.

#include <string>
#include <string_view>
#include <vector>

#include "host/cpu_info.hpp"
#include "kb/knowledge_base.hpp"

namespace tailor {

/// "x86_64-linux", "aarch64-darwin": the platform string of variants.
std::string host_platform(std::string_view arch, std::string_view os);

/// The features \a isa requires that \a cpu lacks, in the order the KB lists them.
std::vector<std::string> missing_features(const CpuIsa& isa, const CpuInfo& cpu);

/// The targets of \a platform that \a cpu can run, most capable first
/// (higher rank first; equal ranks in knowledge-base order).
std::vector<const CpuIsa*> runnable_isas(const CpuInfo& cpu, std::string_view platform, const KnowledgeBase& kb);

/// The x86-64 psABI level ("v1" to "v4") whose feature set \a cpu has in
/// full; empty for other architectures or when even v1 is incomplete.
std::string x86_64_level(const CpuInfo& cpu, const HostTables& t);

/// The features of psABI level \a level ("v1".."v4") that \a cpu lacks.
std::vector<std::string> missing_for_level(const CpuInfo& cpu, std::string_view level, const HostTables& t);

}  // namespace tailor
