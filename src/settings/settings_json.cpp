#include "settings/settings_json.hpp"

#include "matrix/matrix_json.hpp"

namespace tailor {

nlohmann::ordered_json to_json(const BuildSettings& s, const KnowledgeBase& kb) {
  using json = nlohmann::ordered_json;
  auto opt = [](const std::string& x) { return x.empty() ? json(nullptr) : json(x); };
  json j;
  j["variant"] = to_json(s.variant, kb);
  j["pname"] = s.pname;
  j["versions"] = json::object();
  for (const auto& [package, version] : s.variant.versions) j["versions"][package] = version;
  j["nixpkgs"] = {
      {"rev", s.pin_rev},
      {"url", s.pin_url},
      {"sha256", opt(s.pin_sha256)},
      {"config", {{"allowUnfree", true}, {"cudaSupport", s.cuda_support}, {"cudaCapabilities", s.cuda_capabilities}}},
      {"cudaPackages", opt(s.cuda_packages)},
      {"pythonPackages", opt(s.python_packages)}};
  json args = json::object();
  for (const auto& [k, v] : s.override_args) args[k] = v;
  j["override"] = args;
  json env = json::object();
  for (const auto& [k, v] : s.env) env[k] = v;
  j["env"] = env;
  j["cmake_flags"] = s.cmake_flags;
  j["cpu_flags"] = s.cpu_flags;
  j["nvcc_flags"] = s.nvcc_flags;
  j["disabled"] = json::array();
  for (const auto& d : s.disabled) j["disabled"].push_back({{"feature", d.feature}, {"reason", d.reason}});
  j["workarounds"] = json::array();
  for (const auto& w : s.workarounds) j["workarounds"].push_back(w.id);
  j["dependencies"] = json::object();  // recipe key -> variant it imports or builds inline
  for (const auto& [key, name] : s.dependency_variants) j["dependencies"][key] = name;
  for (const auto& [key, name] : s.substituted) j["dependencies"][key] = name;
  j["blas_provider"] = s.blas_provider;
  j["platforms"] = s.platforms;
  j["required_system_features"] = s.required_system_features;
  j["build"] = {{"gb_per_job", s.gb_per_job},
                {"max_jobs", s.max_jobs ? json(*s.max_jobs) : json(nullptr)},
                {"strip_toolchain", s.strip_toolchain},
                {"metadata_rev", s.metadata_rev}};
  j["meta"] = {{"description", s.description}, {"longDescription", s.long_description}, {"header", s.header_comment}};
  j["driver"] = s.driver ? json{{"cuda", s.driver->cuda},
                                {"min_driver", opt(s.driver->min_driver)},
                                {"minor_compat_driver", opt(s.driver->minor_compat_driver)}}
                         : json(nullptr);
  j["because"] = json::array();
  for (const auto& e : s.trail)
    j["because"].push_back({{"group", e.group}, {"key", e.key}, {"value", e.value}, {"because", e.because}});
  return j;
}

}  // namespace tailor
