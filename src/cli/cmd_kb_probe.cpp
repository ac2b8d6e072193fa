// tailor kb probe-pin REV --nixpkgs PATH [-o OVERLAY.toml]: measure a nixpkgs
// revision's facts on a local checkout and write them as a knowledge-base overlay.
#include <ostream>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "kb/pin_probe.hpp"
#include "util/atomic_write.hpp"
#include "util/exit_status.hpp"

namespace tailor {

namespace {

struct ProbePinRun final : CommandRun {
  std::string rev, nixpkgs, output;

  void define(CLI::App& app) override {
    app.description(
        "Measure a nixpkgs revision on a local checkout (nix-instantiate --eval, nothing built) and write "
        "its facts as a knowledge-base overlay (nixpkgs_pins.toml).");
    app.add_option("REV", rev, "the revision (full or abbreviated) the checkout is at")->required();
    app.add_option("--nixpkgs", nixpkgs, "the nixpkgs checkout, at REV")->required()->type_name("PATH");
    app.add_option("-o,--output", output,
                   "write the overlay here (a --kb directory's nixpkgs_pins.toml); default: stdout")
        ->type_name("OVERLAY.toml");
  }
  int run(Session& s) override;
};

int ProbePinRun::run(Session& s) {
  PinProbe p = probe_pin(system_processes(), nixpkgs, rev, s.facts());
  std::string overlay = probe_overlay(p);
  for (const auto& n : p.notes) s.err << "tailor: note: " << n << "\n";
  if (output.empty()) {
    s.out << overlay;
  } else {
    write_file_atomically(output, overlay);
    s.err << fmt::format("tailor: wrote {} (pin {}, sha256 {})\n", output, p.pin.short_rev, p.pin.sha256);
  }
  return kExitOk;
}

}  // namespace

std::unique_ptr<CommandRun> make_kb_probe_pin() { return std::make_unique<ProbePinRun>(); }

}  // namespace tailor
