#include "recipe/shell_arrays.hpp"

#include <gtest/gtest.h>

namespace tailor::recipe {
namespace {

const ShellArray* find(const std::vector<ShellArray>& arrays, std::string_view name) {
  for (const auto& a : arrays)
    if (a.name == name) return &a;
  return nullptr;
}

std::vector<std::string> keys(const ShellArray& a) {
  std::vector<std::string> out;
  for (const auto& e : a.entries) out.push_back(e.first);
  return out;
}

TEST(ShellArrays, AssociativeArraysAsGeneratorScriptsWriteThem) {
  // The shapes of a team's generator: declare -A on one line, values quoted or not.
  std::string script =
      "#!/usr/bin/env bash\n"
      "set -euo pipefail\n"
      "declare -A ARCH_NAMES=([70]=\"Volta\" [89]=\"Ada Lovelace\" [120]='Blackwell')\n"
      "declare -A CUDA_DRIVER=([12_8]=570 [\"12_9\"]=\"575\")\n";
  auto arrays = read_shell_arrays(script);
  ASSERT_EQ(arrays.size(), 2u);
  const ShellArray& arch = arrays[0];
  EXPECT_EQ(arch.name, "ARCH_NAMES");
  EXPECT_EQ(keys(arch), (std::vector<std::string>{"70", "89", "120"}));
  EXPECT_EQ(arch.entries[1].second.text, "Ada Lovelace");
  EXPECT_EQ(arch.entries[2].second.text, "Blackwell");
  // Each byte points back at the script: "Ada" starts after `[89]="`.
  size_t ada = script.find("Ada");
  EXPECT_EQ(arch.entries[1].second.offset(0), ada);
  EXPECT_EQ(arch.entries[1].second.offset(4), ada + 4);  // the L of Lovelace
  const ShellArray& driver = arrays[1];
  EXPECT_EQ(keys(driver), (std::vector<std::string>{"12_8", "12_9"}));
  EXPECT_EQ(driver.entries[0].second.text, "570");
  EXPECT_EQ(driver.entries[1].second.text, "575");
  EXPECT_TRUE(driver.entries[1].second.literal);
}

TEST(ShellArrays, IndexedArraysAppendsAndElementAssignments) {
  std::string script =
      "SMS=(70 80\n"
      "     # Hopper\n"
      "     90)\n"
      "SMS+=(120)\n"
      "  GPU_NAMES[90]=\"H100, H200\"\n"
      "GPU_NAMES[120]=RTX\\ 5090\n"
      "local -a EMPTY=()\n";
  auto arrays = read_shell_arrays(script);
  const ShellArray* sms = find(arrays, "SMS");
  ASSERT_TRUE(sms);
  EXPECT_EQ(keys(*sms), (std::vector<std::string>{"0", "1", "2", "3"}));
  EXPECT_EQ(sms->entries[2].second.text, "90");
  EXPECT_EQ(sms->entries[3].second.text, "120");
  const ShellArray* gpus = find(arrays, "GPU_NAMES");
  ASSERT_TRUE(gpus);
  EXPECT_EQ(keys(*gpus), (std::vector<std::string>{"90", "120"}));
  EXPECT_EQ(gpus->entries[1].second.text, "RTX 5090");  // the escaped blank is part of the value
  const ShellArray* empty = find(arrays, "EMPTY");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->entries.empty());
}

TEST(ShellArrays, ExpansionsAreNotLiteralAndHeredocsAreNotRead) {
  std::string script =
      "declare -A PIN=([12_8]=\"$(git rev-parse HEAD)\" [12_9]=\"${BASE}-x\" [13_0]=fixed)\n"
      "cat > out.nix <<NIX\n"
      "FAKE=(not an array)\n"
      "NIX\n"
      "cat <<-'EOF'\n"
      "\tALSO=(not read)\n"
      "\tEOF\n"
      "echo \"a quoted\n"
      "NOT=(read either)\"\n"
      "REAL=(yes)\n";
  auto arrays = read_shell_arrays(script);
  const ShellArray* pin = find(arrays, "PIN");
  ASSERT_TRUE(pin);
  ASSERT_EQ(pin->entries.size(), 3u);
  EXPECT_FALSE(pin->entries[0].second.literal);
  EXPECT_FALSE(pin->entries[1].second.literal);
  EXPECT_TRUE(pin->entries[2].second.literal);
  EXPECT_FALSE(find(arrays, "FAKE"));
  EXPECT_FALSE(find(arrays, "ALSO"));
  EXPECT_FALSE(find(arrays, "NOT"));
  EXPECT_TRUE(find(arrays, "REAL"));
}

// Issue 46 #3: each element was looked up among all before it (320k elements: 88 s). A key
// assigned again keeps its first place with the last value, as bash's arrays do, also after a
// reassignment of the whole array and across arrays that share keys.
TEST(ShellArrays, AKeyAssignedAgainKeepsItsPlaceWithTheLastValue) {
  std::string script = "A=([1]=a [2]=b [1]=c)\nB=([2]=x)\nA[2]=d\nA[3]=e\nB=([5]=y [5]=z)\nB[6]=w\n";
  std::string big = "C=(";
  for (int i = 0; i < 50000; ++i) big += "[" + std::to_string(i % 25000) + "]=v" + std::to_string(i) + " ";
  big += ")\n";
  auto arrays = read_shell_arrays(script + big);
  const ShellArray* a = find(arrays, "A");
  ASSERT_TRUE(a);
  EXPECT_EQ(keys(*a), (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(a->entries[0].second.text, "c");
  EXPECT_EQ(a->entries[1].second.text, "d");
  const ShellArray* b = find(arrays, "B");
  ASSERT_TRUE(b);
  EXPECT_EQ(keys(*b), (std::vector<std::string>{"5", "6"}));
  EXPECT_EQ(b->entries[0].second.text, "z");
  const ShellArray* c = find(arrays, "C");
  ASSERT_TRUE(c);
  ASSERT_EQ(c->entries.size(), 25000u);
  EXPECT_EQ(c->entries[0].first, "0");
  EXPECT_EQ(c->entries[0].second.text, "v25000");
  EXPECT_EQ(c->entries[24999].second.text, "v49999");
}

TEST(ShellArrays, ItemsSplitAtTheSeparatorsGiven) {
  std::string script = "declare -A A=([90]=\"H100,  GH200 , DGX Spark\" [70]=\"12_8 12_9\t13_0\")\n";
  auto arrays = read_shell_arrays(script);
  ASSERT_EQ(arrays.size(), 1u);
  auto products = shell_items(arrays[0].entries[0].second, ",");
  ASSERT_EQ(products.size(), 3u);
  EXPECT_EQ(products[1].text, "GH200");
  EXPECT_EQ(products[1].offset(0), script.find("GH200"));
  EXPECT_EQ(products[2].text, "DGX Spark");
  auto cudas = shell_items(arrays[0].entries[1].second, ", \t");
  ASSERT_EQ(cudas.size(), 3u);
  EXPECT_EQ(cudas[2].text, "13_0");
  EXPECT_EQ(cudas[2].offset(0), script.find("13_0"));
}

TEST(ShellArrays, UnterminatedInputEndsCleanly) {
  for (std::string_view s : {"A=(", "A=(\"x", "declare -A B=([k", "C[", "D=($(", "E=(${", "F=('", "x <<", "y <<E\nE=("})
    EXPECT_NO_THROW(read_shell_arrays(s)) << s;
  auto arrays = read_shell_arrays("A=(\"x");
  ASSERT_EQ(arrays.size(), 1u);
  EXPECT_EQ(arrays[0].entries.size(), 1u);
}

}  // namespace
}  // namespace tailor::recipe
