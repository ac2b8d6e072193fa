#include "migrate/repin.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/recipe_facts.hpp"
#include "migrate/doc_tables.hpp"
#include "migrate/pin_sites.hpp"
#include "migrate/python_sites.hpp"
#include "migrate/toml_strings.hpp"
#include "util/toml_reader.hpp"
#include "nix/parser.hpp"
#include "util/diagnostic.hpp"

namespace tailor::migrate {

namespace {

bool is_doc(const std::string& rel) { return rel == "README.md" || rel == "BUILD_MATRIX.md"; }

std::string short_rev(const std::string& rev) { return rev.substr(0, 7); }

/// One pin of the tree: revisions that abbreviate each other count as one.
struct OldPin {
  std::string rev;  ///< the longest form written (the KB's full revision when it knows the pin)
  std::set<std::string> files;
  std::vector<std::pair<std::string, nix::Span>> sites;  ///< display path, span
};

struct ParsedFile {
  size_t index;  ///< into plan.before
  nix::ExprPtr root;
  std::vector<PinSite> pins;
};

/// A pin written in a TOML file of the tree (a Flox manifest's flake reference).
struct TomlPin {
  size_t index;  ///< into plan.before
  size_t begin, end;
  std::string rev;
  nix::Span span;
};

/// Revisions in the strings of \a text after "nixpkgs/": flake references and archive urls.
std::vector<TomlPin> toml_pins(size_t index, std::string_view text) {
  std::vector<TomlPin> out;
  lint::LineIndex lines(text);
  for (auto [b, e] : toml_string_ranges(text)) {
    std::string_view str = text.substr(b, e - b);
    for (auto [i, j] : revision_runs(str)) {
      bool after_nixpkgs = str.substr(0, i).ends_with("nixpkgs/") || str.substr(0, i).ends_with("nixpkgs/archive/");
      if (after_nixpkgs) out.push_back({index, b + i, b + j, std::string(str.substr(i, j - i)), lines.span(b + i, b + j)});
    }
  }
  return out;
}

std::string plural(size_t n, std::string_view word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

}  // namespace

std::string display_path(const std::string& root, const std::string& rel) {
  if (root.empty() || root == ".") return rel;
  return root.back() == '/' ? root + rel : root + "/" + rel;
}

RepinPlan plan_repin(const std::string& root, std::vector<lint::SourceFile> files, const RepinOptions& o,
                     const KnowledgeBase& kb) {
  RepinPlan plan;
  plan.root = root;
  plan.target = parse_rev(o.rev, kb);
  std::optional<std::string> given_hash;
  if (o.sha256) given_hash = parse_sha256(*o.sha256);
  if (o.python_set) plan.python = parse_python_set(*o.python_set);
  plan.before = std::move(files);

  // Parse every recipe first: one that does not parse stops the run before any edit.
  nix::SymbolTable symbols;
  std::vector<ParsedFile> parsed;
  for (size_t i = 0; i < plan.before.size(); ++i) {
    const auto& f = plan.before[i];
    if (!f.rel.ends_with(".nix")) continue;
    nix::ParseResult r = nix::parse(display_path(root, f.rel), f.text, symbols);
    if (r.error) {
      Diagnostic d = *r.error;
      d.hint = "repin rewrites only files that parse; fix this one first (tailor check shows every syntax error)";
      throw DiagnosticError(d);
    }
    ParsedFile p{i, std::move(r.expr), {}};
    p.pins = find_pins(f.text, *p.root);
    parsed.push_back(std::move(p));
  }

  // TOML files (Flox manifests): they must parse, before and after.
  std::vector<TomlPin> toml;
  for (size_t i = 0; i < plan.before.size(); ++i) {
    const auto& f = plan.before[i];
    if (!f.rel.ends_with(".toml") || f.text.empty()) continue;
    TomlDocument check(display_path(root, f.rel), f.text);
    for (auto& t : toml_pins(i, f.text)) toml.push_back(std::move(t));
  }

  // The tree's pins, revisions that abbreviate one another merged.
  std::vector<OldPin> pins;
  std::vector<std::pair<size_t, PinSite>> all_sites;
  for (const auto& p : parsed)
    for (const auto& s : p.pins) all_sites.emplace_back(p.index, s);
  for (const auto& t : toml) {
    PinSite s;
    s.rev = t.rev;
    s.span = t.span;
    all_sites.emplace_back(t.index, s);
  }
  for (const auto& [index, s] : all_sites) {
    {
      std::string full = s.rev;
      if (const NixpkgsPin* known = find_pin(kb, s.rev)) full = known->rev;
      auto it = std::find_if(pins.begin(), pins.end(), [&](const OldPin& x) {
        return x.rev.starts_with(full) || full.starts_with(x.rev);
      });
      if (it == pins.end()) it = pins.insert(pins.end(), OldPin{full, {}, {}});
      if (full.size() > it->rev.size()) it->rev = full;
      it->files.insert(plan.before[index].rel);
      it->sites.emplace_back(display_path(root, plan.before[index].rel), s.span);
    }
  }
  if (pins.empty()) {
    Diagnostic d;
    d.path = root;
    d.message = "repin: no nixpkgs pin found in this tree";
    d.hint = "repin rewrites github.com/NixOS/nixpkgs/archive/REV.tar.gz urls, fetchGit / fetchFromGitHub revisions "
             "of NixOS/nixpkgs, github:NixOS/nixpkgs/REV and the let-bound revisions they use";
    throw DiagnosticError(d);
  }
  if (pins.size() > 1 && !o.all_pins) {
    std::sort(pins.begin(), pins.end(), [](const OldPin& a, const OldPin& b) { return a.files.size() > b.files.size(); });
    std::vector<std::string> list;
    for (const auto& p : pins) list.push_back(fmt::format("{} ({})", short_rev(p.rev), plural(p.files.size(), "file")));
    const auto& [path, span] = pins[1].sites.front();
    Diagnostic d;
    d.path = path;
    d.pos = {span.line, span.column};
    for (const auto& f : plan.before)
      if (display_path(root, f.rel) == path) d.line_text = std::string(line_of(f.text, span.line));
    d.message = fmt::format("repin: the tree has {} nixpkgs pins: {} [TLR004]", pins.size(), fmt::join(list, ", "));
    d.hint = fmt::format("pass --all-pins to move every one of them to {}, or repin the files of one pin on their own",
                         short_rev(plan.target.rev));
    for (const auto& p : pins)
      d.notes.push_back(fmt::format("{} first at {}:{}:{}", short_rev(p.rev), p.sites.front().first,
                                    p.sites.front().second.line, p.sites.front().second.column));
    throw DiagnosticError(d);
  }
  for (const auto& p : pins) plan.old_pins[p.rev] = static_cast<int>(p.files.size());

  // The hash of the new pin: given, or known to the knowledge base.
  if (given_hash) {
    plan.hash = *given_hash;
    plan.hash_source = "--sha256";
  } else if (plan.target.known && !plan.target.known->sha256.empty()) {
    plan.hash = plan.target.known->sha256;
    plan.hash_source = "knowledge base";
  }

  std::vector<std::string> fake_hashes, no_hash, hand_hash, renamed_keys;
  std::map<std::string, int> cuda_sets;
  plan.after = plan.before;
  for (auto& p : parsed) {
    const auto& f = plan.before[p.index];
    const std::string shown = display_path(root, f.rel);
    const std::string result = display_path(o.output_root.empty() ? root : o.output_root, f.rel);
    FileChange fc;
    fc.rel = f.rel;
    std::vector<PinSite> sites = p.pins;
    for (const auto& old : pins)
      if (old.rev.size() == 40)
        for (auto& extra : find_rev_literals(f.text, *p.root, old.rev, sites)) sites.push_back(std::move(extra));
    std::set<size_t> hashes_done;
    for (const auto& s : sites) {
      if (s.rev == plan.target.rev) continue;
      fc.edits.push_back({s.begin, s.end, plan.target.rev, "pin"});
      fc.changes.push_back({"pin", s.span.line, s.span.column, short_rev(s.rev), short_rev(plan.target.rev)});
      std::string where = fmt::format("{}:{}:{}", result, s.span.line, s.span.column);
      if (s.hash) {
        const HashSite& h = *s.hash;
        if (!hashes_done.insert(h.begin).second) continue;
        std::string where_hash = fmt::format("{}:{}:{}", result, h.span.line, h.span.column);
        if (!plan.hash.empty()) {
          if (h.attr == "hash" && hash_format(plan.hash) != HashFormat::sri) {
            Diagnostic d = diagnostic_at(shown, f.text, {h.span.line, h.span.column},
                                         fmt::format("repin: `hash` takes an SRI hash (sha256-…), not '{}'", plan.hash),
                                         "convert it: nix hash to-sri --type sha256 HASH");
            throw DiagnosticError(d);
          }
          if (h.literal && h.value == plan.hash) {
            // Already the new hash: nothing to change.
          } else if (h.literal || h.is_null) {
            std::string text = h.is_null ? "\"" + plan.hash + "\"" : plan.hash;
            fc.edits.push_back({h.begin, h.end, text, h.attr});
            fc.changes.push_back({h.attr, h.span.line, h.span.column, h.is_null ? "null" : h.value, plan.hash});
          } else {
            hand_hash.push_back(where_hash);
          }
        } else if (h.literal && hash_format(h.value)) {
          std::string fake = fake_hash(*hash_format(h.value));
          if (fake != h.value) {
            fc.edits.push_back({h.begin, h.end, fake, h.attr});
            fc.changes.push_back({h.attr, h.span.line, h.span.column, h.value, "fake (" + fake.substr(0, 10) + "…)"});
          }
          fake_hashes.push_back(where_hash);
        } else if (!h.is_null) {
          hand_hash.push_back(where_hash);
        }
      } else if (!plan.hash.empty() && !s.insert_attr.empty()) {
        if (s.insert_attr == "hash" && hash_format(plan.hash) != HashFormat::sri) {
          hand_hash.push_back(where);
          continue;
        }
        fc.edits.push_back({s.insert_at, s.insert_at,
                            fmt::format("{}{} = \"{}\";", s.insert_prefix, s.insert_attr, plan.hash), s.insert_attr});
        fc.changes.push_back({s.insert_attr, s.span.line, s.span.column, "", plan.hash});
      } else if (!s.insert_attr.empty()) {  // fetchGit needs none; a bare url string cannot take one
        no_hash.push_back(where);
      }
    }
    if (plan.python) {
      for (const auto& n : find_python_names(f.text, *p.root)) {
        plan.old_python_names.insert(n.name);
        auto cur = python_name(n.name);
        std::string want = n.name.ends_with("Packages") ? plan.python->set : plan.python->interpreter;
        if (!cur || n.name == want) continue;
        fc.edits.push_back({n.begin, n.end, want, "python set"});
        bool key = n.role == "binding" || n.role == "inherit";
        fc.changes.push_back({key ? "attribute name" : "python set", n.span.line, n.span.column, n.name, want});
        if (key) renamed_keys.push_back(fmt::format("{}:{}:{}", result, n.span.line, n.span.column));
      }
    }
    // cudaPackages_12_9 -> "12.9" (a plain scan: std::regex over whole files is the slow part of a large tree)
    constexpr std::string_view kCuda = "cudaPackages_";
    for (size_t k = f.text.find(kCuda); k != std::string::npos; k = f.text.find(kCuda, k + 1)) {
      size_t a = k + kCuda.size(), b = a;
      while (b < f.text.size() && std::isdigit(static_cast<unsigned char>(f.text[b]))) ++b;
      if (b == a || b >= f.text.size() || f.text[b] != '_') continue;
      size_t c = b + 1, d = c;
      while (d < f.text.size() && std::isdigit(static_cast<unsigned char>(f.text[d]))) ++d;
      if (d > c) cuda_sets[f.text.substr(a, b - a) + "." + f.text.substr(c, d - c)]++;
    }
    if (fc.edits.empty()) continue;
    normalize_edits(fc.edits);
    std::sort(fc.changes.begin(), fc.changes.end(),
              [](const Change& a, const Change& b) { return std::tie(a.line, a.column) < std::tie(b.line, b.column); });
    std::string after = apply_edits(f.text, fc.edits);
    // Validate before anything is written: the rewritten file must still parse.
    nix::ParseResult check = nix::parse(shown, after, symbols);
    if (check.error)
      throw DiagnosticError(Diagnostic{Severity::error, shown, check.error->pos, check.error->line_text,
                                       "repin: internal error: the rewritten file does not parse: " + check.error->message,
                                       "please report this with the file; nothing was written", {}});
    plan.after[p.index].text = std::move(after);
    plan.changes.push_back(std::move(fc));
  }

  // TOML pins, and package-set names inside their strings (flake#python3Packages.torch).
  static const std::regex set_re(R"((^|[^A-Za-z0-9_])(python3\d*Packages)(?![A-Za-z0-9_]))");
  for (size_t i = 0; i < plan.before.size(); ++i) {
    const auto& f = plan.before[i];
    if (!f.rel.ends_with(".toml") || f.text.empty()) continue;
    FileChange fc;
    fc.rel = f.rel;
    for (const auto& t : toml)
      if (t.index == i && t.rev != plan.target.rev) {
        std::string to = t.rev.size() == 40 ? plan.target.rev : plan.target.rev.substr(0, t.rev.size());
        fc.edits.push_back({t.begin, t.end, to, "pin"});
        fc.changes.push_back({"pin", t.span.line, t.span.column, t.rev.substr(0, 7), to.substr(0, 7)});
      }
    if (plan.python) {
      lint::LineIndex lines(f.text);
      for (auto [b, e] : toml_string_ranges(f.text)) {
        std::string str = f.text.substr(b, e - b);
        if (str.size() > lint::kMaxRegexLine) continue;
        for (auto it = std::sregex_iterator(str.begin(), str.end(), set_re); it != std::sregex_iterator(); ++it) {
          std::string name = (*it).str(2);
          if (name == plan.python->set) continue;
          size_t at = b + static_cast<size_t>((*it).position(2));
          nix::Span sp = lines.span(at, at + name.size());
          fc.edits.push_back({at, at + name.size(), plan.python->set, "python set"});
          fc.changes.push_back({"python set", sp.line, sp.column, name, plan.python->set});
        }
      }
    }
    if (fc.edits.empty()) continue;
    normalize_edits(fc.edits);
    std::string after = apply_edits(f.text, fc.edits);
    TomlDocument check(display_path(root, f.rel), after);  // still TOML
    plan.after[i].text = std::move(after);
    plan.changes.push_back(std::move(fc));
  }

  // What the pins provide, from the knowledge base.
  std::string old_torch, old_python;
  std::set<std::string> old_torches;
  for (const auto& p : pins)
    if (const NixpkgsPin* k = find_pin(kb, p.rev)) old_torches.insert(k->torch.str());
  if (old_torches.size() == 1) old_torch = *old_torches.begin();
  const NixpkgsPin* target = plan.target.known;
  std::string new_torch = target ? target->torch.str() : "";
  std::set<std::string> old_versions;
  for (const auto& n : plan.old_python_names) {
    auto s = python_name(n);
    std::string v = s->version;
    if (v.empty())  // python3Packages: the old pin's default, if the KB records it
      for (const auto& p : pins)
        if (const NixpkgsPin* k = find_pin(kb, p.rev)) v = k->python_default;
    old_versions.insert(v);
  }
  if (old_versions.size() == 1) old_python = *old_versions.begin();
  std::string new_python = plan.python ? plan.python->version : "";
  if (plan.python && new_python.empty() && target) new_python = target->python_default;

  if (!target) {
    plan.knowledge.push_back(fmt::format(
        "{} is not in the knowledge base: tailor cannot tell which PyTorch, Python and CUDA versions it provides",
        short_rev(plan.target.rev)));
  } else {
    std::vector<std::string> provides{fmt::format("PyTorch {}", target->torch.str())};
    if (!target->python.empty()) provides.push_back(fmt::format("Python {}", fmt::join(target->python, ", ")));
    if (!target->cuda.empty()) provides.push_back(fmt::format("CUDA {}", fmt::join(target->cuda, ", ")));
    plan.knowledge.push_back(fmt::format("{} provides {}", short_rev(target->rev), fmt::join(provides, "; ")));
    for (const auto& p : pins)
      if (const NixpkgsPin* k = find_pin(kb, p.rev); k && k->rev != target->rev)
        plan.knowledge.push_back(fmt::format("{} provided PyTorch {}{}", short_rev(k->rev), k->torch.str(),
                                             k->torch == target->torch ? " (unchanged)" : ""));
      else if (!k)
        plan.knowledge.push_back(fmt::format("{} (the old pin) is not in the knowledge base", short_rev(p.rev)));
    std::string want_python = plan.python ? plan.python->version : "";
    if (!want_python.empty() && !target->provides_python(want_python))
      plan.verify.push_back(fmt::format("{} does not provide Python {} per the knowledge base (it has {}): {} may be "
                                        "missing on the new pin",
                                        short_rev(target->rev), want_python, fmt::join(target->python, ", "),
                                        plan.python->set));
    for (const auto& [cuda, n] : cuda_sets)
      if (!target->provides_cuda(cuda))
        plan.verify.push_back(fmt::format("{} does not provide CUDA {} per the knowledge base (it has {}), but the "
                                          "recipes use cudaPackages_{}",
                                          short_rev(target->rev), cuda, fmt::join(target->cuda, ", "),
                                          cuda.substr(0, cuda.find('.')) + "_" + cuda.substr(cuda.find('.') + 1)));
  }
  if (!cuda_sets.empty())
    plan.cuda = std::max_element(cuda_sets.begin(), cuda_sets.end(), [](auto& a, auto& b) { return a.second < b.second; })
                    ->first;

  // Docs: revisions everywhere, versions in table cells.
  DocRepin dr;
  for (const auto& p : pins) dr.old_revs.push_back(p.rev);
  dr.new_rev = plan.target.rev;
  dr.old_torch = old_torch;
  dr.new_torch = new_torch;
  if (plan.python) {
    dr.old_python = old_python;
    dr.new_python = new_python;
  }
  std::vector<std::string> torch_left;
  for (size_t i = 0; i < plan.before.size(); ++i) {
    const auto& f = plan.before[i];
    if (!is_doc(f.rel)) continue;
    std::vector<Mention> left;
    FileChange fc;
    fc.rel = f.rel;
    fc.edits = plan_doc(f.text, dr, left);
    for (const auto& m : left)
      torch_left.push_back(
          fmt::format("{}:{}:{}", display_path(o.output_root.empty() ? root : o.output_root, f.rel), m.line, m.column));
    if (fc.edits.empty()) continue;
    lint::LineIndex lines(f.text);
    for (const auto& e : fc.edits) {
      nix::Span s = lines.span(e.begin, e.end);
      std::string from = f.text.substr(e.begin, e.end - e.begin);
      fc.changes.push_back({e.what, s.line, s.column, from, e.text});
    }
    plan.after[i].text = apply_edits(f.text, fc.edits);
    plan.changes.push_back(std::move(fc));
  }
  std::sort(plan.changes.begin(), plan.changes.end(), [](const FileChange& a, const FileChange& b) { return a.rel < b.rel; });

  // Names that carry a torch version (the pytorch210- pname prefix of flox/build-pytorch's CUDA 13 branch)
  // must agree with what the new pin ships.
  if (target) {
    static const std::regex prefix(R"(\bpytorch(\d)(\d{1,2})-)");
    std::map<std::string, std::string> claims;  // "2.10" -> first place
    for (const auto& p : parsed) {
      const auto& f = plan.after[p.index];
      if (f.text.size() > (1u << 22)) continue;
      for (auto it = std::sregex_iterator(f.text.begin(), f.text.end(), prefix); it != std::sregex_iterator(); ++it) {
        std::string v = (*it).str(1) + "." + (*it).str(2);
        nix::Span sp = lint::span_of(f.text, static_cast<size_t>((*it).position(0)), static_cast<size_t>((*it).position(0)));
        claims.emplace(v, fmt::format("{}:{}:{}", display_path(o.output_root.empty() ? root : o.output_root, f.rel),
                                      sp.line, sp.column));
      }
    }
    for (const auto& [v, where] : claims)
      if (!(target->torch.str() + ".").starts_with(v + "."))
        plan.verify.push_back(fmt::format("names claim PyTorch {} (pytorch{}- at {}), but {} ships PyTorch {}", v,
                                          v.substr(0, 1) + v.substr(2), where, short_rev(target->rev),
                                          target->torch.str()));
  }

  // Mentions of the old torch version in recipes: comments and descriptions stay as written.
  if (!old_torch.empty() && old_torch != new_torch)
    for (const auto& p : parsed) {
      const auto& f = plan.before[p.index];
      lint::LineIndex lines(f.text);
      for (size_t k : find_torch_mentions(f.text, old_torch)) {
        nix::Span s = lines.span(k, k + old_torch.size());
        torch_left.push_back(fmt::format("{}:{}:{}", display_path(o.output_root.empty() ? root : o.output_root, f.rel),
                                         s.line, s.column));
      }
    }
  std::sort(torch_left.begin(), torch_left.end());

  if (!plan.changes.empty() || !pins.empty()) {
    if (!fake_hashes.empty())
      plan.verify.push_back(fmt::format(
          "{} replaced by a fake hash (the old one belongs to the old tarball): fill in the new one, e.g. from "
          "the 'got:' line of the failing fetch or from nix-prefetch-url --unpack {}; first at {}",
          plural(fake_hashes.size(), "sha256"), target ? target->tarball_url()
                                                       : "https://github.com/NixOS/nixpkgs/archive/" + plan.target.rev + ".tar.gz",
          fake_hashes.front()));
    if (!no_hash.empty() && plan.target.rev != pins.front().rev)
      plan.verify.push_back(fmt::format("{} fetched without a hash (impure; tailor check warns TLR005): pass --sha256 "
                                        "to write one; first at {}",
                                        plural(no_hash.size(), "pin"), no_hash.front()));
    if (!hand_hash.empty())
      plan.verify.push_back(fmt::format("{} not a string literal tailor can rewrite: set by hand; first at {}",
                                        hand_hash.size() == 1 ? "1 hash is" : fmt::format("{} hashes are", hand_hash.size()), hand_hash.front()));
    if (!renamed_keys.empty())
      plan.verify.push_back(fmt::format("{} renamed with the package set: whatever reads {} (an overlay, a callPackage "
                                        "argument) must expect the new name; first at {}",
                                        plural(renamed_keys.size(), "attribute name"),
                                        renamed_keys.size() == 1 ? "it" : "them", renamed_keys.front()));
    if (!torch_left.empty())
      plan.verify.push_back(fmt::format("PyTorch {} (the old pin's) is still named in {}: comments and descriptions "
                                        "are not rewritten; first at {}",
                                        old_torch, plural(torch_left.size(), "place"), torch_left.front()));
  }
  return plan;
}

}  // namespace tailor::migrate
