#include "support/inspected.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run.hpp"

namespace tailor::test {

std::string inspected(const std::string& path) {
  auto r = run_tailor({"inspect", path, "--json"});
  EXPECT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  std::string s;
  for (const auto& f : j["files"])
    for (const auto& e : f["entries"])
      s += fmt::format("{}{}×{}", s.empty() ? "" : " ", e["arch"].get<std::string>(), e["count"].get<int>());
  return s;
}

}  // namespace tailor::test
