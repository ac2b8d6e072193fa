#pragma once
/// How diagnostics and rule tables name a severity.

#include "util/diagnostic.hpp"

namespace tailor {

/// "error", "warning" or "note".
const char* severity_name(Severity s);

}  // namespace tailor
