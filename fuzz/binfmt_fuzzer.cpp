// Fuzz target for the binary readers: any byte string must be read as ELF
// (with its fatbins), as a bare fatbin, or as a wheel, or be rejected with a
// DiagnosticError; never crash, hang or read out of bounds.
#include <cstdint>

#include "binfmt/fatbin.hpp"
#include "inspect/inspection.hpp"
#include "inspect/inspection_json.hpp"
#include "inspect/inspection_svg.hpp"
#include "resource_oracle.hpp"
#include "util/diagnostic.hpp"

TAILOR_FUZZ_TARGET(data, size) {
  tailor::ByteSlice bytes(data, size);
  try {
    tailor::Inspection in = tailor::inspect_bytes("fuzz", bytes);
    (void)tailor::to_json(in, tailor::project(in, "9.0", 90))
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)tailor::to_svg(in);
  } catch (const tailor::DiagnosticError& e) {
    (void)e.diagnostic().render();
  }
  try {
    if (auto fb = tailor::try_open_fatbin(bytes)) (void)tailor::tally(fb->entries);
  } catch (const tailor::DiagnosticError& e) {
    (void)e.diagnostic().render();
  }
  return 0;
}
