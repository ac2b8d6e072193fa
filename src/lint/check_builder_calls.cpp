// TLR040 builder-argument: `import ./lib/custom-torch.nix { sm = …; }` where
// the builder's function has a closed set pattern without `sm`. Nix refuses the
// call ("called with unexpected argument"), so every recipe calling it fails to
// evaluate: a team's builder with another interface, or a generated recipe
// left beside a hand-written builder.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/checks.hpp"
#include "util/edit_distance.hpp"

namespace tailor::lint {

void check_builder_calls(const LintTree& t, const KnowledgeBase& /*kb*/, Sink& sink) {
  for (const auto& f : t.nix) {
    if (!f.parsed) continue;
    for (const auto& call : f.facts.calls) {
      const NixFile* builder = imported_file(t, f, call.path);
      if (!builder || !builder->parsed || !builder->facts.takes_set) continue;
      std::vector<std::string> takes;
      for (const auto& fm : builder->facts.closed_formals) takes.push_back(fm.text);
      for (const auto& arg : call.names) {
        if (std::find(takes.begin(), takes.end(), arg.text) != takes.end()) continue;
        std::string hint = did_you_mean(arg.text, takes);
        if (hint.empty())
          hint = fmt::format("pass only what {} takes, or add {} to its arguments", call.path, arg.text);
        sink.add(f, "TLR040", arg.span,
                 fmt::format("{} does not take an argument '{}' (it takes {}): Nix stops the evaluation with "
                             "\"called with unexpected argument\"",
                             import_target(f, call.path), arg.text,
                             takes.empty() ? std::string("none") : fmt::format("{}", fmt::join(takes, ", "))),
                 hint);
      }
    }
  }
}

}  // namespace tailor::lint
