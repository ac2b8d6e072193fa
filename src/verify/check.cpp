#include "verify/check.hpp"

namespace tailor {

bool all_passed(const std::vector<Check>& checks) {
  for (const auto& c : checks)
    if (c.status == CheckStatus::failed) return false;
  return true;
}

nlohmann::ordered_json to_json(const std::vector<Check>& checks) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& c : checks) {
    a.push_back({{"name", c.name}, {"status", kCheckStatusJson.name(c.status)}, {"detail", c.detail}});
  }
  return {{"ok", all_passed(checks)}, {"checks", a}};
}

}  // namespace tailor
