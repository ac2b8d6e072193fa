// Fuzz target for the Nix front end: any byte string must parse, lower,
// scope-check and print, or be rejected with a diagnostic; never crash,
// hang or leak.
#include <cstdint>
#include <string>

#include "nix/normal_form.hpp"
#include "resource_oracle.hpp"

TAILOR_FUZZ_TARGET(data, size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  tailor::nix::SymbolTable symbols;
  tailor::nix::PathContext ctx{"/fuzz", "/home/fuzz"};
  tailor::nix::NormalForm r = tailor::nix::normal_form("fuzz.nix", text, ctx, symbols);
  if (r.error) (void)r.error->render();
  return 0;
}
