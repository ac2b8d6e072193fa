#include "matrix/matrix_json.hpp"

namespace tailor {

namespace {
nlohmann::ordered_json opt(const std::string& s) { return s.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s); }
}  // namespace

nlohmann::ordered_json to_json(const Variant& v, const KnowledgeBase& kb) {
  return {{"name", v.name},
          {"package", package_name(v.package)},
          {"backend", backend_name(v.backend)},
          {"python", opt(v.python)},
          {"cuda", opt(v.cuda)},
          {"sm", opt(v.sm)},
          {"isa", opt(v.isa)},
          {"platform", v.platform},
          {"pin", kb.pin(v.pin)->rev},
          {"pin_short", v.pin},
          {"family", v.family},
          {"torch", opt(v.torch)},
          {"vllm", opt(v.vllm)}};
}

nlohmann::ordered_json to_json(const DroppedCell& d, const KnowledgeBase& kb) {
  auto j = to_json(d.candidate, kb);
  j["rule"] = d.rule;
  j["reason"] = d.reason;
  j["policy"] = d.policy;
  return j;
}

}  // namespace tailor
