// The core never names a package: packages are rows of data/packages.toml, so
// C++ outside the tests holds no string literal that is a package's name or
// nixpkgs attribute ("torch"), a word made of one ("torch_mm"), a flag
// ("--torch") or a TOML table named by one ("[[torch]]",
// "[family.external.torch]"). The few left are named below, each with why.
#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "support/source_scan.hpp"

namespace tailor {
namespace {

// The package a literal names, or "" when none: "--torch", "[[torch]]",
// "[family.external.torch]" and "torch_mm" all name "torch".
std::string named_package(std::string t, const std::set<std::string>& names) {
  if (t.starts_with("--")) t.erase(0, 2);
  while (!t.empty() && t.front() == '[') t.erase(0, 1);
  while (!t.empty() && t.back() == ']') t.pop_back();
  if (auto dot = t.rfind('.'); dot != std::string::npos && !t.empty() && t.front() != '.') t.erase(0, dot + 1);
  if (t.ends_with("_mm")) t.resize(t.size() - 3);
  return names.contains(t) ? t : "";
}

std::set<std::string> package_names() {
  std::set<std::string> names;
  for (const auto& p : embedded_kb().packages) {
    names.insert(p.name);
    names.insert(p.attribute);
  }
  return names;
}

TEST(PackageNames, TheScanFindsEachForm) {
  std::set<std::string> names = {"pytorch", "torch", "vllm"};
  auto literals = test::string_literals(
      "// \"torch\" in a comment\n"
      "auto a = \"torch\"; auto b = \"--vllm\";\n"
      "auto c = \"[[torch]]\"; /* \"vllm\" */ auto d = \"[family.external.torch]\";\n"
      "auto e = \"torch_mm\"; auto f = \"torchvision\"; auto g = \"torch {}\"; char h = '\"';\n"
      "auto i = R\"x(pytorch)x\"; auto j = \"v\\\"llm\";\n");
  std::vector<std::string> found;
  for (const auto& l : literals)
    if (std::string p = named_package(l.text, names); !p.empty()) found.push_back(fmt::format("{}:{}", l.line, l.text));
  EXPECT_EQ(found, (std::vector<std::string>{"2:torch", "2:--vllm", "3:[[torch]]", "3:[family.external.torch]",
                                             "4:torch_mm", "5:pytorch"}));
}

TEST(PackageNames, NoSourceOutsideTheTestsNamesAPackage) {
  std::set<std::string> names = package_names();
  ASSERT_TRUE(names.contains("torch") && names.contains("vllm")) << "the knowledge base's packages";
  std::vector<std::string> found;
  auto files = test::sources("");
  for (const auto& [path, text] : files)
    for (const auto& l : test::string_literals(text))
      if (!named_package(l.text, names).empty()) found.push_back(fmt::format("{}: \"{}\"", path, l.text));
  EXPECT_GT(files.size(), 300u) << "the scan found too few sources to mean anything";
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::string>{
                       // `tailor kb --pins`' shorthand flags, part of the command line: --torch V is --version torch=V.
                       "src/cli/cmd_kb.cpp: \"--torch\"",
                       "src/cli/cmd_kb.cpp: \"--vllm\"",
                       // The key of `recommend --format uv --json` (doc/json.md).
                       "src/cli/cmd_recommend.cpp: \"torch\"",
                       // nixpkgs_pins.toml's torch_args: the file format's key for torch's arguments.
                       "src/kb/nixpkgs_pin.cpp: \"torch\"",
                   }));
}

}  // namespace
}  // namespace tailor
