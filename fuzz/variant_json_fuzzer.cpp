// Fuzz target for PEP 825 metadata that `recommend --wheels` reads from a folder
// (kb/wheel_variant.hpp): a *-variants.json, and a wheel's file name. The text
// either parses or is refused with a DiagnosticError; what parses writes back as
// text that parses to the same metadata, and merges with itself.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "kb/wheel_variant.hpp"
#include "resource_oracle.hpp"
#include "util/diagnostic.hpp"

TAILOR_FUZZ_TARGET(data, size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (auto n = tailor::parse_wheel_name(text)) {
    if (tailor::parse_wheel_name(n->file_name())->file_name() != n->file_name()) std::abort();
  }
  try {
    tailor::VariantMetadata m = tailor::parse_variant_json(text, "fuzz-variants.json");
    tailor::VariantMetadata back = tailor::parse_variant_json(tailor::variant_json_text(m), "written");
    if (back.namespaces != m.namespaces || back.variants != m.variants) std::abort();
    tailor::merge_variant_metadata(back, m, "fuzz");
    (void)tailor::property_lines(m.variants.empty() ? tailor::VariantProperties{} : m.variants.begin()->second);
  } catch (const tailor::DiagnosticError& e) {
    (void)e.diagnostic().render();
  }
  return 0;
}
