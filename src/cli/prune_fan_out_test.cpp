// Issue 59: `tailor prune --each` writes one output per target from one pass,
// wheels as PEP 825 variant wheels. Checked from outside: each output against
// the single prune of its target (byte for byte up to its variant metadata),
// the single prune against the wheel tailor wrote before fan-out existed, and
// the variant metadata against a validator written from PEP 825's text, not
// from tailor's reader (src/kb/wheel_variant.hpp).
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/inspected.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::inspected;
using test::run_command;
using test::run_tailor;
using test::source_path;

const std::string kWheel = source_path("tests/data/elf/prunefix-0.1-py3-none-linux_x86_64.whl");
const std::string kMulti = source_path("tests/data/elf/multi.so");
const std::string kPlain = "prunefix-0.1-py3-none-linux_x86_64";

std::string bytes_of(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// The members of a wheel and their contents, read by Python's zipfile (not tailor's reader).
std::map<std::string, std::string> members_of(const std::string& wheel) {
  auto r = run_command(
      "python3 -c \"import zipfile,sys,json; z=zipfile.ZipFile(sys.argv[1]); "
      "print(json.dumps({n: z.read(n).decode('latin-1') for n in z.namelist()}))\" " +
          wheel,
      true);
  EXPECT_EQ(r.status, 0) << r.out;
  std::map<std::string, std::string> out;
  if (r.status != 0) return out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const auto& [k, v] : j.items()) out[k] = v.get<std::string>();
  return out;
}

// A validator written from PEP 825's text (peps/pep-0825.rst): the filename grammar
// "{distribution}-{version}(-{build tag})?-{python tag}-{abi tag}-{platform tag}(-{variant label})?.whl",
// the label "^[0-9a-z_.]+$" (reserved "null": zero properties), namespace and feature
// "^[a-z0-9_]+$", value "^[a-z0-9_.]+$", the metadata "$schema" (a URL with a version),
// "default-priorities" with a REQUIRED "namespace" list containing every namespace used,
// "variants" mapping label -> namespace -> feature -> list of values. Returns the problems.
std::vector<std::string> pep825_problems(const nlohmann::json& j, const std::string& what) {
  std::vector<std::string> p;
  static const std::regex key("^[a-z0-9_]+$"), value("^[a-z0-9_.]+$"), label("^[0-9a-z_.]+$"),
      schema("^https://.*[0-9]+\\.[0-9]+\\.[0-9]+\\.json$");
  if (!j.is_object()) return {what + ": not an object"};
  for (const auto& [k, v] : j.items())
    if (k != "$schema" && k != "default-priorities" && k != "variants") p.push_back(what + ": key " + k);
  if (!j.contains("$schema") || !j["$schema"].is_string() || !std::regex_match(j["$schema"].get<std::string>(), schema))
    p.push_back(what + ": $schema");
  std::set<std::string> namespaces;
  if (!j.contains("default-priorities") || !j["default-priorities"].contains("namespace") ||
      !j["default-priorities"]["namespace"].is_array() || j["default-priorities"]["namespace"].empty())
    p.push_back(what + ": default-priorities.namespace");
  else
    for (const auto& n : j["default-priorities"]["namespace"]) {
      if (!n.is_string() || !std::regex_match(n.get<std::string>(), key)) p.push_back(what + ": namespace name");
      if (!namespaces.insert(n.get<std::string>()).second) p.push_back(what + ": namespace twice");
    }
  if (!j.contains("variants") || !j["variants"].is_object()) return p.push_back(what + ": variants"), p;
  for (const auto& [l, props] : j["variants"].items()) {
    if (!std::regex_match(l, label)) p.push_back(what + ": label " + l);
    if (l == "null" && !props.empty()) p.push_back(what + ": null has properties");
    for (const auto& [ns, features] : props.items()) {
      if (!std::regex_match(ns, key)) p.push_back(what + ": namespace " + ns);
      if (!namespaces.count(ns)) p.push_back(what + ": namespace not in default-priorities " + ns);
      for (const auto& [f, values] : features.items()) {
        if (!std::regex_match(f, key)) p.push_back(what + ": feature " + f);
        if (!values.is_array() || values.empty()) p.push_back(what + ": values of " + f);
        std::set<std::string> seen;
        for (const auto& v : values) {
          std::string text = v.get<std::string>();
          // The property serialized as the PEP writes it.
          std::string property = ns + " :: " + f + " :: " + text;
          if (!std::regex_match(property, std::regex("^[a-z0-9_]+ :: [a-z0-9_]+ :: [a-z0-9_.]+$")))
            p.push_back(what + ": property " + property);
          if (!std::regex_match(text, value)) p.push_back(what + ": value " + text);
          if (!seen.insert(text).second) p.push_back(what + ": value twice " + text);
        }
      }
    }
  }
  return p;
}

struct WheelFileName {
  std::string distribution, version, label;
};

std::optional<WheelFileName> variant_file_name(const std::string& name) {
  static const std::regex grammar("^([^-]+)-([^-]+)(-[0-9][^-]*)?-([^-0-9][^-]*)-([^-]+)-([^-]+)-([0-9a-z_.]+)\\.whl$");
  std::smatch m;
  if (!std::regex_match(name, m, grammar)) return std::nullopt;
  return WheelFileName{m[1], m[2], m[7]};
}

class PruneFanOut : public ::testing::Test {
 protected:
  void SetUp() override { TAILOR_SKIP_IF_TOOL_MISSING(!test::have_program("python3"), "python3 not found"); }
  std::string path(const std::string& name) const { return dir_.path() + "/" + name; }
  test::TempDir dir_{"prune-fan-out"};
};

// With one target and no label, the wheel is byte for byte the one tailor wrote
// before fan-out existed. The sha256 is of `tailor prune
// prunefix-0.1-py3-none-linux_x86_64.whl --sm 9.0 -o out.whl` run in the wheel's
// folder by the binary of commit 6d0bee5 (zlib 1.2.13; another zlib deflates
// differently). The record names the input as given, so it is given so here too.
TEST_F(PruneFanOut, OneTargetIsTheWheelOfBeforeByteForByte) {
  if (std::string(zlibVersion()) != "1.2.13") GTEST_SKIP() << "the golden was deflated by zlib 1.2.13";
  fs::copy_file(kWheel, path(kPlain + ".whl"));
  const fs::path was = fs::current_path();
  fs::current_path(dir_.path());
  auto r = run_tailor({"prune", kPlain + ".whl", "--sm", "9.0", "-o", "out.whl"});
  fs::current_path(was);
  ASSERT_EQ(r.status, 0) << r.err;
  auto sum = run_command("sha256sum " + path("out.whl"));
  EXPECT_EQ(sum.out.substr(0, 64), "b3f03c9e0c09414d64fdf53119754dbc3763d1bdf372ff18960872f49beaf7b3");
}

// Every output of a fan-out is its target's single prune, apart from the variant
// metadata: the archive's bytes up to the variant.json member are the same, every
// member but variant.json and RECORD is the same, and RECORD differs by that one line.
TEST_F(PruneFanOut, EachOutputIsItsSinglePruneApartFromTheVariantMetadata) {
  auto r = run_tailor({"prune", kWheel, "--each", "7.5,8.0,8.6+8.9,9.0,10.0,12.0", "-o", path("fan")});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::pair<std::string, std::string>> targets = {
      {"sm75", "7.5"}, {"sm80", "8.0"}, {"sm86_89", "8.6,8.9"}, {"sm90", "9.0"}, {"sm100", "10.0"}, {"sm120", "12.0"}};
  const std::map<std::string, std::string> kept = {{"sm75", "sm_75×3"}, {"sm80", "sm_80×3"},   {"sm86_89", "sm_86×3"},
                                                   {"sm90", "sm_90×3"}, {"sm100", "sm_100×3"}, {"sm120", "sm_120×3"}};
  for (const auto& [label, sm] : targets) {
    SCOPED_TRACE(label);
    std::string fan = path("fan/" + kPlain + "-" + label + ".whl");
    std::string single = path(label + ".whl");
    auto s = run_tailor({"prune", kWheel, "--sm", sm, "-o", single});
    ASSERT_EQ(s.status, 0) << s.err;
    EXPECT_EQ(inspected(fan), kept.at(label));
    std::string a = bytes_of(single), b = bytes_of(fan);
    size_t name = b.find("prunefix-0.1.dist-info/variant.json");
    ASSERT_NE(name, std::string::npos);
    size_t header = name - 30;  // the local header's fixed part precedes the name
    ASSERT_EQ(b.substr(header, 4), std::string("PK\x03\x04", 4));
    EXPECT_EQ(a.substr(0, header), b.substr(0, header));
    auto ma = members_of(single), mb = members_of(fan);
    ASSERT_EQ(mb.size(), ma.size() + 1);
    for (const auto& [n, content] : ma)
      if (n != "prunefix-0.1.dist-info/RECORD") {
        EXPECT_EQ(mb[n], content) << n;
      }
    std::string variant_line = mb["prunefix-0.1.dist-info/RECORD"];
    std::string record_a = ma["prunefix-0.1.dist-info/RECORD"];
    size_t at = variant_line.find("prunefix-0.1.dist-info/variant.json,sha256=");
    ASSERT_NE(at, std::string::npos);
    variant_line.erase(at, variant_line.find('\n', at) + 1 - at);
    EXPECT_EQ(variant_line, record_a);
    auto check = run_command("python3 " + source_path("tests/data/elf/verify-record.py") + " " + fan, true);
    EXPECT_EQ(check.out, "RECORD verifies: 8 files\n");  // 6 members, tailor-prune.json, variant.json
  }
  EXPECT_NE(r.out.find("variants index (PEP 825; an installer reads it beside the wheels): " +
                       path("fan/prunefix-0.1-variants.json") + " (6 variants)"),
            std::string::npos)
      << r.out;
}

// The variant metadata validates by PEP 825's rules, and says what each wheel runs on.
TEST_F(PruneFanOut, VariantMetadataFollowsPep825) {
  auto r = run_tailor({"prune", kWheel, "--each", "8.0,8.6+8.9,9.0", "-o", path("fan")});
  ASSERT_EQ(r.status, 0) << r.err;
  // Written by hand from NVIDIA's provider: `nvidia :: sm_arch :: {major}{minor}_real`.
  const std::map<std::string, nlohmann::json> expected = {
      {"sm80", {{"nvidia", {{"sm_arch", {"80_real"}}}}}},
      {"sm86_89", {{"nvidia", {{"sm_arch", {"86_real", "89_real"}}}}}},
      {"sm90", {{"nvidia", {{"sm_arch", {"90_real"}}}}}}};
  std::set<std::string> labels;
  nlohmann::json priorities;
  for (const auto& e : fs::directory_iterator(path("fan"))) {
    std::string file = e.path().filename().string();
    if (file.ends_with(".json")) continue;
    auto n = variant_file_name(file);
    ASSERT_TRUE(n) << file << " is not a variant wheel's name";
    EXPECT_EQ(n->distribution + "-" + n->version, "prunefix-0.1");
    labels.insert(n->label);
    auto m = members_of(e.path().string());
    std::vector<std::string> metadata;
    for (const auto& [name, content] : m)
      if (name.ends_with(".dist-info/variant.json")) metadata.push_back(name);
    ASSERT_EQ(metadata, std::vector<std::string>{"prunefix-0.1.dist-info/variant.json"});
    auto j = nlohmann::json::parse(m[metadata[0]]);
    EXPECT_EQ(pep825_problems(j, file), std::vector<std::string>{});
    ASSERT_EQ(j["variants"].size(), 1u);  // in variant.json, only its own label
    EXPECT_EQ(j["variants"].begin().key(), n->label);
    EXPECT_EQ(j["variants"][n->label], expected.at(n->label));
    EXPECT_EQ(j["default-priorities"]["namespace"], nlohmann::json{"nvidia"});
    priorities = j["default-priorities"];
  }
  EXPECT_EQ(labels, (std::set<std::string>{"sm80", "sm86_89", "sm90"}));
  // The index: the same structure, every label of the version, consistent with the wheels.
  auto index = nlohmann::json::parse(bytes_of(path("fan/prunefix-0.1-variants.json")));
  EXPECT_EQ(pep825_problems(index, "index"), std::vector<std::string>{});
  EXPECT_EQ(index["default-priorities"], priorities);
  ASSERT_EQ(index["variants"].size(), 3u);
  for (const auto& [label, props] : expected) EXPECT_EQ(index["variants"][label], props) << label;
}

// PEP 825's backwards compatibility: a tool without variant support refuses the
// label in the file name; under its plain name the wheel installs with pip.
TEST_F(PruneFanOut, PipRefusesTheVariantNameAndInstallsThePlainOne) {
  TAILOR_SKIP_IF_TOOL_MISSING(run_command("python3 -m pip --version").status != 0, "pip not found");
  auto r = run_tailor({"prune", kWheel, "--each", "9.0", "-o", path("fan")});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string pip =
      "python3 -m pip install -q --no-deps --no-index --no-compile --disable-pip-version-check --target ";
  auto refused = run_command(pip + path("a") + " " + path("fan/" + kPlain + "-sm90.whl"), true);
  EXPECT_NE(refused.status, 0) << refused.out;
  EXPECT_NE(refused.out.find("is not a valid wheel filename"), std::string::npos) << refused.out;
  fs::copy_file(path("fan/" + kPlain + "-sm90.whl"), path(kPlain + ".whl"));
  auto installed = run_command(pip + path("b") + " " + path(kPlain + ".whl"), true);
  ASSERT_EQ(installed.status, 0) << installed.out;
  EXPECT_EQ(inspected(path("b/prunefix/lib/libmulti.so")), "sm_90×3");
  EXPECT_TRUE(fs::exists(path("b/prunefix-0.1.dist-info/variant.json")));
}

// --variant-label: one target, one variant wheel, added to the folder's index.
TEST_F(PruneFanOut, AVariantLabelJoinsTheIndexOfTheFolder) {
  auto r = run_tailor({"prune", kWheel, "--each", "8.0", "-o", path("fan")});
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_tailor({"prune", kWheel, "--sm", "9.0", "--variant-label", "hopper", "-o", path("fan")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(inspected(path("fan/" + kPlain + "-hopper.whl")), "sm_90×3");
  auto index = nlohmann::json::parse(bytes_of(path("fan/prunefix-0.1-variants.json")));
  EXPECT_EQ(index["variants"], (nlohmann::json{{"sm80", {{"nvidia", {{"sm_arch", {"80_real"}}}}}},
                                               {"hopper", {{"nvidia", {{"sm_arch", {"90_real"}}}}}}}));
  // The same label for other GPUs: refused before anything is written.
  r = run_tailor({"prune", kWheel, "--sm", "10.0", "--variant-label", "sm80", "-o", path("fan")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, path("fan/prunefix-0.1-variants.json") +
                       ": error: variant 'sm80' has other properties here (nvidia :: sm_arch :: 80_real) than the "
                       "wheels' (nvidia :: sm_arch :: 100_real)\n"
                       "hint: PEP 825: one label stands for one set of properties within a package version\n");
  EXPECT_EQ(inspected(path("fan/" + kPlain + "-sm80.whl")), "sm_80×3");
}

// A library fans out into a folder per label, each its target's single prune.
TEST_F(PruneFanOut, ALibraryFansOutIntoAFolderPerLabel) {
  auto r = run_tailor({"prune", kMulti, "--each", "9.0,10.0", "-o", path("fan")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(inspected(path("fan/sm90/multi.so")), "sm_90×3");
  EXPECT_EQ(inspected(path("fan/sm100/multi.so")), "sm_100×3");
  auto s = run_tailor({"prune", kMulti, "--sm", "10.0", "-o", path("single.so")});
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(bytes_of(path("single.so")), bytes_of(path("fan/sm100/multi.so")));
  auto j = run_tailor({"prune", kMulti, "--each", "9.0,10.0", "--dry-run", "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  auto report = nlohmann::json::parse(j.out);
  ASSERT_EQ(report["outputs"].size(), 2u);
  EXPECT_EQ(report["outputs"][1]["sm"], nlohmann::json{"10.0"});
  EXPECT_TRUE(report["variants_index"].is_null());
  // A wheel's fan-out says what it deflated: each output's changed library (75,816 B, the
  // fixture's multi.so), less than one 1 MiB block each, so nothing shared.
  auto w = run_tailor({"prune", kWheel, "--each", "9.0,10.0", "-o", path("w"), "--json"});
  ASSERT_EQ(w.status, 0) << w.err;
  auto wj = nlohmann::json::parse(w.out);
  EXPECT_EQ(wj["deflated"], (nlohmann::json{{"bytes", 2 * 75816}, {"once_for_several", 0}}));
  EXPECT_EQ(wj["variants_index"], path("w/prunefix-0.1-variants.json"));
}

TEST_F(PruneFanOut, UsageErrorsAreReportedVerbatim) {
  auto r = run_tailor({"prune", kWheel, "-o", path("x")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "tailor: error: prune: say which GPUs to keep code for\nhint: --sm SM[,SM] for one output (a mixed "
            "host's SMs), --each SM,SM for one output each\n");
  r = run_tailor({"prune", kWheel, "--sm", "9.0", "--each", "8.0", "-o", path("x")});
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')), "tailor: error: prune: --sm and --each exclude each other");
  r = run_tailor({"prune", kWheel, "--each", "8.0", "--variant-label", "a", "-o", path("x")});
  EXPECT_EQ(r.err,
            "tailor: error: prune: --variant-label labels one output\nhint: --each labels its outputs by their SMs "
            "(sm90)\n");
  r = run_tailor({"prune", kMulti, "--each", "8.0", "--in-place"});
  EXPECT_EQ(r.err,
            "tailor: error: prune: --each writes new outputs, not in place\nhint: give -o DIR, the folder they go "
            "to\n");
  r = run_tailor({"prune", kWheel, "--each", "9.0,9.0", "-o", path("x")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "tailor: error: prune: two outputs would be labelled 'sm90'\nhint: a PEP 825 variant label is one or more "
            "of 0-9, a-z, _ and . (\"sm90\"), one per output\n");
  r = run_tailor({"prune", kWheel, "--sm", "9.0", "--variant-label", "H100", "-o", path("x")});
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')), "tailor: error: prune: 'H100' is no variant label");
  EXPECT_FALSE(fs::exists(path("x")));
  // A variant wheel is not fanned out again.
  ASSERT_EQ(run_tailor({"prune", kWheel, "--each", "9.0", "-o", path("fan")}).status, 0);
  r = run_tailor({"prune", path("fan/" + kPlain + "-sm90.whl"), "--each", "9.0", "-o", path("again")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, path("fan/" + kPlain + "-sm90.whl") +
                       ": error: already a variant wheel (label 'sm90')\nhint: prune the wheel it was made from\n");
}

}  // namespace
}  // namespace tailor
