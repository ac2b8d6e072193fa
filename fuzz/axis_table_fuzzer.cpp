// Fuzz target for the {#sm} / {#cuda} blocks of a [layout.tables] template
// (matrix/axis_table.cpp). Input: a template. The oracle: it is refused with a
// diagnostic, or written with each key's entry at most once per key (no output
// longer than the template once per key and once more), and a template with no
// block of the axis comes back as it is.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "matrix/axis_table.hpp"
#include "resource_oracle.hpp"
#include "util/diagnostic.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

TAILOR_FUZZ_TARGET(data, size) {
  std::string tmpl(reinterpret_cast<const char*>(data), size);
  for (const auto& [axis, keys] :
       {std::pair<std::string, std::vector<std::string>>{"sm", {"6.1", "9.0", "12.0"}}, {"cuda", {"12.8", "13.2"}}}) {
    try {
      std::string out = tailor::render_axis_blocks("fuzz.nix", tmpl, axis, keys);
      if (tmpl.find("{#" + axis) == std::string::npos) check(out == tmpl);
      // Each key's entry is the key's text, its words keyed ("@sm" -> "@12.0": 2 bytes more per word).
      check(out.size() <= (keys.size() + 1) * tmpl.size() * 2 + 1);
    } catch (const tailor::DiagnosticError&) {}
  }
  return 0;
}
