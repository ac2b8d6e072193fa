#pragma once
/// `tailor inspect --svg FILE`: a horizontal bar chart of fatbin bytes per
/// architecture (SASS and PTX in two colours), plus one bar for the bytes
/// outside fatbins, so a reader sees at a glance what a build carries.

#include <string>

#include "inspect/inspection.hpp"

namespace tailor {

/// A standalone SVG document; deterministic for the same inspection.
std::string to_svg(const Inspection& in);

}  // namespace tailor
