#pragma once
/// The GPUs `tailor prune` keeps code for. What it keeps of each container is
/// the driver's choice (binfmt/driver_choice.hpp) under the one runs-on rule
/// (kb/runs_on.hpp), which verify and recommend use too.

#include <string_view>

#include "binfmt/driver_choice.hpp"
#include "kb/runs_on.hpp"

namespace tailor {

struct KnowledgeBase;

/// A GPU to prune for.
using PruneTarget = GpuTarget;

/// The target for \a sm ("9.0", "sm_90", "90"). Throws DiagnosticError when it
/// is no compute capability of the knowledge base.
PruneTarget prune_target(const KnowledgeBase& kb, std::string_view sm);

}  // namespace tailor
