#pragma once
/// --max-ratio N and --max-unpacked BYTES, taken by the commands that open
/// wheels (inspect, prune): how far a wheel may unpack before it is taken for
/// a zip bomb (binfmt/wheel.hpp).

#include <CLI/CLI.hpp>

#include "binfmt/wheel.hpp"

namespace tailor {

/// Adds both options to \a app; they write into \a limits.
void add_wheel_limit_options(CLI::App& app, WheelLimits& limits);

}  // namespace tailor
