// tailor kb probe-pin REV --nixpkgs PATH [-o OVERLAY.toml]: measure a nixpkgs
// revision's facts on a local checkout and write them as a knowledge-base overlay.
#include <ostream>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "kb/pin_probe.hpp"
#include "util/atomic_write.hpp"
#include "util/exit_status.hpp"

namespace tailor {

int cmd_kb_probe_pin(CommandContext& ctx) {
  CLI::App app{
      "Measure a nixpkgs revision on a local checkout (nix-instantiate --eval, nothing built) and write "
      "its facts as a knowledge-base overlay (nixpkgs_pins.toml).",
      "kb probe-pin"};
  std::string rev, nixpkgs, output, kb_dir;
  app.add_option("REV", rev, "the revision (full or abbreviated) the checkout is at")->required();
  app.add_option("--nixpkgs", nixpkgs, "the nixpkgs checkout, at REV")->required()->type_name("PATH");
  app.add_option("-o,--output", output,
                 "write the overlay here (a --kb directory's nixpkgs_pins.toml); default: stdout")
      ->type_name("OVERLAY.toml");
  add_kb_option(app, kb_dir);
  if (auto rc = parse_args(app, ctx)) return *rc;
  KnowledgeBase kb = load_kb(kb_dir);
  migrate::PinProbe p = migrate::probe_pin(system_processes(), nixpkgs, rev, kb);
  std::string overlay = migrate::probe_overlay(p);
  for (const auto& n : p.notes) ctx.err << "tailor: note: " << n << "\n";
  if (output.empty()) {
    ctx.out << overlay;
  } else {
    write_file_atomically(output, overlay);
    ctx.err << fmt::format("tailor: wrote {} (pin {}, sha256 {})\n", output, p.pin.short_rev, p.pin.sha256);
  }
  return kExitOk;
}

}  // namespace tailor
