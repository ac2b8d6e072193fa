#include "verify/check.hpp"

namespace tailor {

std::string_view check_status_name(CheckStatus s) {
  switch (s) {
    case CheckStatus::ok: return "ok";
    case CheckStatus::failed: return "FAILED";
    case CheckStatus::skipped: break;
  }
  return "skipped";
}

bool all_passed(const std::vector<Check>& checks) {
  for (const auto& c : checks)
    if (c.status == CheckStatus::failed) return false;
  return true;
}

nlohmann::ordered_json to_json(const std::vector<Check>& checks) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& c : checks) {
    std::string status = c.status == CheckStatus::ok ? "ok" : c.status == CheckStatus::failed ? "failed" : "skipped";
    a.push_back({{"name", c.name}, {"status", status}, {"detail", c.detail}});
  }
  return {{"ok", all_passed(checks)}, {"checks", a}};
}

}  // namespace tailor
