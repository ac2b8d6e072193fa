// `tailor kb --json` prints packages.toml's entries key for key: each package
// and backend it lists, written back as TOML under a new name, loads as an
// overlay's entry and reads back the same. A new name, so that nothing is
// read over the embedded entry: a field the JSON left out would be missing
// (an error when required) or differ, not inherited.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kb/kb_json.hpp"
#include "util/quote.hpp"

namespace tailor {
namespace {

using json = nlohmann::ordered_json;

// A JSON value as a TOML inline value (strings, booleans, lists, tables).
std::string toml_value(const json& v) {
  if (v.is_string()) return toml_string(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  std::string out;
  if (v.is_array()) {
    for (const auto& e : v) out += (out.empty() ? "" : ", ") + toml_value(e);
    return "[" + out + "]";
  }
  for (const auto& [k, e] : v.items()) out += (out.empty() ? "" : ", ") + toml_key(k) + " = " + toml_value(e);
  return "{ " + out + " }";
}

// One [[table]] entry: plain keys, then each list of tables as [[table.key]].
std::string toml_entry(const std::string& table, const json& entry) {
  std::string out = "[[" + table + "]]\n", subtables;
  for (const auto& [k, v] : entry.items()) {
    bool tables = v.is_array() && !v.empty() && v.front().is_object();
    // An absent list of tables reads as none.
    if (v.is_array() && v.empty() && (k == "argument" || k == "cmake_flag" || k == "needs")) continue;
    if (!tables) {
      out += toml_key(k) + " = " + toml_value(v) + "\n";
      continue;
    }
    for (const auto& t : v) {
      subtables += "[[" + table + "." + k + "]]\n";
      for (const auto& [tk, tv] : t.items()) subtables += toml_key(tk) + " = " + toml_value(tv) + "\n";
    }
  }
  return out + subtables + "\n";
}

TEST(KbJson, PackagesAndBackendsLoadBackAsAnOverlay) {
  KnowledgeBase kb = KnowledgeBase::load();
  json j = to_json(kb);
  ASSERT_FALSE(j["packages"].empty());
  std::string overlay;
  for (json b : j["backends"]) {
    b["name"] = b["name"].get<std::string>() + "-copy";
    overlay += toml_entry("backend", b);
  }
  for (json p : j["packages"]) {
    p["name"] = p["name"].get<std::string>() + "-copy";
    // A builder that builds the attribute named like the package ("{package}")
    // builds the copy's name: the copy is that attribute.
    if (j["builds"].value(p["builder"].get<std::string>(), "") == "{package}") p["attribute"] = p["name"];
    overlay += toml_entry("package", p);
  }
  KnowledgeBase copy = KnowledgeBase::load_texts({{"packages.toml", overlay}});
  json again = to_json(copy);
  auto find = [&](const char* list, const std::string& name) {
    for (const auto& e : again[list])
      if (e["name"] == name) return e;
    return json();
  };
  for (const auto& b : j["backends"]) {
    json c = find("backends", b["name"].get<std::string>() + "-copy");
    ASSERT_FALSE(c.is_null()) << b["name"];
    c["name"] = b["name"];
    EXPECT_EQ(c, b);
  }
  for (const auto& p : j["packages"]) {
    json c = find("packages", p["name"].get<std::string>() + "-copy");
    ASSERT_FALSE(c.is_null()) << p["name"];
    c["name"] = p["name"];
    if (j["builds"].value(p["builder"].get<std::string>(), "") == "{package}") c["attribute"] = p["attribute"];
    EXPECT_EQ(c, p);
  }
  EXPECT_EQ(again["builds"], j["builds"]);
}

// The fields packages.toml requires of a package's needs, arguments and flags
// are in the JSON (the loader refuses an entry without them).
TEST(KbJson, PackageEntriesCarryEveryRequiredField) {
  json j = to_json(KnowledgeBase::load());
  for (const auto& p : j["packages"]) {
    for (const auto& n : p["needs"])
      for (const char* k : {"package", "strategy", "argument", "recipe_key", "because"})
        EXPECT_TRUE(n.contains(k)) << k;
    for (const auto& a : p["argument"])
      for (const char* k : {"backend", "name", "value", "because"}) EXPECT_TRUE(a.contains(k)) << k;
    for (const auto& f : p["cmake_flag"])
      for (const char* k : {"backend", "flag", "because"}) EXPECT_TRUE(f.contains(k)) << k;
  }
}

}  // namespace
}  // namespace tailor
