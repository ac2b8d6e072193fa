#pragma once
/// One line of `tailor verify`: a named check, its outcome and why.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/check_status.hpp"

namespace tailor {

struct Check {
  std::string name;  ///< stable id, "fatbin-sm"
  CheckStatus status = CheckStatus::ok;
  std::string detail;  ///< what was measured, or why it was skipped
};

/// Whether no check failed (skipped ones do not count against).
bool all_passed(const std::vector<Check>& checks);

/// {"ok": bool, "checks": [{"name", "status": "ok"|"failed"|"skipped", "detail"}]}
nlohmann::ordered_json to_json(const std::vector<Check>& checks);

}  // namespace tailor
