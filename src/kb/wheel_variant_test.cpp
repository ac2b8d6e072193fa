// PEP 825 names and metadata, with expectations taken from the PEP's own text
// (peps/pep-0825.rst: "Variant label", "Variant properties", "Variant metadata",
// "Backwards Compatibility") and NVIDIA's provider's property names.
#include "kb/wheel_variant.hpp"

#include <gtest/gtest.h>

#include "util/diagnostic.hpp"

namespace tailor {
namespace {

// The PEP's own examples.
TEST(WheelVariant, FileNamesOfThePep) {
  auto plain = parse_wheel_name("numpy-2.3.2-cp313-cp313t-musllinux_1_2_x86_64.whl");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->label, "");
  EXPECT_EQ(plain->platform, "musllinux_1_2_x86_64");
  auto v3 = parse_wheel_name("numpy-2.3.2-cp313-cp313t-musllinux_1_2_x86_64-x86_64_v3.whl");
  ASSERT_TRUE(v3);
  EXPECT_EQ(v3->label, "x86_64_v3");
  EXPECT_EQ(v3->build, "");
  EXPECT_EQ(v3->python, "cp313");
  auto null = parse_wheel_name("numpy-2.3.2-cp313-cp313t-musllinux_1_2_x86_64-null.whl");
  ASSERT_TRUE(null);
  EXPECT_EQ(null->label, "null");
  // Both a build tag and a label: seven components.
  auto both = parse_wheel_name("numpy-2.3.2-1-cp313-cp313t-musllinux_1_2_x86_64-x86_64_v3.whl");
  ASSERT_TRUE(both);
  EXPECT_EQ(both->build, "1");
  EXPECT_EQ(both->label, "x86_64_v3");
  // Six components with a third that starts with a digit: a build tag, no label.
  auto build = parse_wheel_name("numpy-2.3.2-1-cp313-cp313t-musllinux_1_2_x86_64.whl");
  ASSERT_TRUE(build);
  EXPECT_EQ(build->build, "1");
  EXPECT_EQ(build->label, "");
  EXPECT_EQ(both->file_name(), "numpy-2.3.2-1-cp313-cp313t-musllinux_1_2_x86_64-x86_64_v3.whl");
  EXPECT_EQ(v3->variants_index_name(), "numpy-2.3.2-variants.json");
  EXPECT_FALSE(parse_wheel_name("numpy-2.3.2-cp313-cp313t-musllinux_1_2_x86_64-X86.whl"));  // upper case
  EXPECT_FALSE(parse_wheel_name("numpy-2.3.2-cp313.whl"));
  EXPECT_FALSE(parse_wheel_name("numpy--2.3.2-cp313-cp313t-linux_x86_64.whl"));
  EXPECT_FALSE(parse_wheel_name("numpy-2.3.2-cp313-cp313t-linux_x86_64.zip"));
}

TEST(WheelVariant, LabelKeyAndValueCharacters) {
  EXPECT_TRUE(valid_variant_label("x8664v3_openblas"));
  EXPECT_TRUE(valid_variant_label("sm86_89"));
  EXPECT_TRUE(valid_variant_label("a.b"));
  EXPECT_FALSE(valid_variant_label(""));
  EXPECT_FALSE(valid_variant_label("sm-90"));
  EXPECT_FALSE(valid_variant_label("SM90"));
  EXPECT_TRUE(valid_variant_key("cuda_version_lower_bound"));
  EXPECT_FALSE(valid_variant_key("sm.arch"));  // no dot in a namespace or feature name
  EXPECT_TRUE(valid_variant_value("12.8"));
  EXPECT_FALSE(valid_variant_value("12,8"));
}

// NVIDIA's provider: `nvidia :: sm_arch :: 90_real`, `nvidia :: cuda_version_lower_bound :: 12.8`.
TEST(WheelVariant, NvidiaPropertiesOfATargetSet) {
  EXPECT_EQ(variant_label_of({90}), "sm90");
  EXPECT_EQ(variant_label_of({89, 86, 89}), "sm86_89");
  EXPECT_EQ(property_lines(nvidia_properties({121, 90}, "")),
            (std::vector<std::string>{"nvidia :: sm_arch :: 121_real", "nvidia :: sm_arch :: 90_real"}));
  EXPECT_EQ(property_lines(nvidia_properties({90}, "13.0")),
            (std::vector<std::string>{"nvidia :: cuda_version_lower_bound :: 13.0", "nvidia :: sm_arch :: 90_real"}));
  EXPECT_EQ(cuda_of_wheel_version("2.11.0+cu130"), "13.0");
  EXPECT_EQ(cuda_of_wheel_version("2.9.1+cu128"), "12.8");
  EXPECT_EQ(cuda_of_wheel_version("2.9.1+cu128.post2"), "12.8");
  EXPECT_EQ(cuda_of_wheel_version("2.9.1"), "");
  EXPECT_EQ(cuda_of_wheel_version("2.9.1+cpu"), "");
  EXPECT_EQ(cuda_of_wheel_version("2.9.1+cu1"), "");
}

TEST(WheelVariant, JsonRoundTrip) {
  VariantMetadata m;
  m.namespaces = {"nvidia"};
  m.variants["sm90"] = nvidia_properties({90}, "12.8");
  std::string text = variant_json_text(m);
  EXPECT_EQ(text,
            "{\n"
            "  \"$schema\": \"https://variants-schema.wheelnext.dev/peps/825/v0.1.1.json\",\n"
            "  \"default-priorities\": {\n"
            "    \"namespace\": [\n"
            "      \"nvidia\"\n"
            "    ]\n"
            "  },\n"
            "  \"variants\": {\n"
            "    \"sm90\": {\n"
            "      \"nvidia\": {\n"
            "        \"cuda_version_lower_bound\": [\n"
            "          \"12.8\"\n"
            "        ],\n"
            "        \"sm_arch\": [\n"
            "          \"90_real\"\n"
            "        ]\n"
            "      }\n"
            "    }\n"
            "  }\n"
            "}\n");
  VariantMetadata back = parse_variant_json(text, "v.json");
  EXPECT_EQ(back.namespaces, m.namespaces);
  EXPECT_EQ(back.variants, m.variants);
}

std::string error_of(const std::string& text) {
  try {
    parse_variant_json(text, "x-1.0-variants.json");
  } catch (const DiagnosticError& e) {
    return e.diagnostic().render();
  }
  return "";
}

constexpr const char* kHead =
    "{\"$schema\": \"https://variants-schema.wheelnext.dev/peps/825/v0.1.1.json\",\n"
    " \"default-priorities\": {\"namespace\": [\"nvidia\"]},\n";

TEST(WheelVariant, BadMetadataIsRefusedWithItsPlace) {
  EXPECT_EQ(error_of(std::string(kHead) + " \"variants\": {\"sm90\": {\"x86_64\": {\"level\": [\"v3\"]}}}}"),
            "x-1.0-variants.json:3:24: error: namespace 'x86_64' is missing from default-priorities.namespace\n"
            " \"variants\": {\"sm90\": {\"x86_64\": {\"level\": [\"v3\"]}}}}\n"
            "                       ^\n"
            "hint: PEP 825 (wheel variants, package format) says what variant.json and *-variants.json hold\n");
  EXPECT_NE(error_of(std::string(kHead) + " \"variants\": {\"SM90\": {}}}")
                .find("error: variant label 'SM90' is not ^[0-9a-z_.]+$"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kHead) + " \"variants\": {\"null\": {\"nvidia\": {\"sm_arch\": [\"90_real\"]}}}}")
                .find("error: the null variant has no properties"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kHead) + " \"variants\": {\"a\": {\"nvidia\": {\"sm_arch\": []}}}}")
                .find("error: 'nvidia :: sm_arch' needs a list of at least one value"),
            std::string::npos);
  EXPECT_NE(
      error_of(std::string(kHead) + " \"variants\": {\"a\": {\"nvidia\": {\"sm_arch\": [\"90_real\", \"90_real\"]}}}}")
          .find("error: 'nvidia :: sm_arch :: 90_real' listed twice"),
      std::string::npos);
  EXPECT_NE(error_of(std::string(kHead) + " \"variants\": {}, \"providers\": {}}")
                .find("error: 'providers' is no key of variant metadata"),
            std::string::npos);
  EXPECT_NE(error_of("{\"$schema\": \"https://variants-schema.wheelnext.dev/v0.0.3.json\", "
                     "\"default-priorities\": {\"namespace\": [\"a\"]}, \"variants\": {}}")
                .find("error: unknown variant metadata format 'https://variants-schema.wheelnext.dev/v0.0.3.json'"),
            std::string::npos);
  EXPECT_EQ(error_of("{\"variants\": "),
            "x-1.0-variants.json:1:14: error: not JSON: syntax error while parsing value - unexpected end of input; "
            "expected '[', '{', or a literal\n"
            "{\"variants\": \n"
            "             ^\n");
}

TEST(WheelVariant, MergeKeepsOneLabelOneSetOfProperties) {
  VariantMetadata a, b;
  a.namespaces = b.namespaces = {"nvidia"};
  a.variants["sm90"] = nvidia_properties({90}, "");
  b.variants["sm80"] = nvidia_properties({80}, "");
  merge_variant_metadata(a, b, "i.json");
  EXPECT_EQ(a.variants.size(), 2u);
  VariantMetadata c;
  c.namespaces = {"nvidia"};
  c.variants["sm90"] = nvidia_properties({90, 100}, "");
  try {
    merge_variant_metadata(a, c, "i.json");
    FAIL() << "a label of other properties merged";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message,
              "variant 'sm90' has other properties here (nvidia :: sm_arch :: 90_real) than the wheels' "
              "(nvidia :: sm_arch :: 100_real, nvidia :: sm_arch :: 90_real)");
  }
  VariantMetadata d;
  d.namespaces = {"x86_64"};
  EXPECT_THROW(merge_variant_metadata(a, d, "i.json"), DiagnosticError);
}

}  // namespace
}  // namespace tailor
