#include "repin/repin.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "nix/parser.hpp"
#include "recipe/line_index.hpp"
#include "recipe/recipe_facts.hpp"
#include "repin/doc_tables.hpp"
#include "repin/pin_sites.hpp"
#include "repin/python_sites.hpp"
#include "repin/toml_strings.hpp"
#include "repin/torch_on_pin.hpp"
#include "util/diagnostic.hpp"
#include "util/read_file.hpp"
#include "util/toml_reader.hpp"

namespace tailor::repin {

using recipe::display_path;

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
  recipe::LineIndex lines(text);
  for (auto [b, e] : toml_string_ranges(text)) {
    std::string_view str = text.substr(b, e - b);
    for (auto [i, j] : revision_runs(str)) {
      bool after_nixpkgs = str.substr(0, i).ends_with("nixpkgs/") || str.substr(0, i).ends_with("nixpkgs/archive/");
      if (after_nixpkgs)
        out.push_back({index, b + i, b + j, std::string(str.substr(i, j - i)), lines.span(b + i, b + j)});
    }
  }
  return out;
}

std::string plural(size_t n, std::string_view word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

}  // namespace

namespace {

// plan_repin's phases, in order, over the state they share.
class Repinner {
 public:
  Repinner(const std::string& root, std::vector<recipe::SourceFile> files, const RepinOptions& o,
           const KnowledgeBase& kb)
      : root_(root), o_(o), kb_(kb) {
    plan_.root = root;
    plan_.target = parse_rev(o.rev, kb);
    if (o.sha256) given_hash_ = parse_sha256(*o.sha256);
    if (o.python_set) plan_.python = parse_python_set(*o.python_set);
    plan_.before = std::move(files);
  }

  RepinPlan run() {
    parse_recipes();
    read_toml_pins();
    collect_pins();
    choose_hash();
    plan_.after = plan_.before;
    note_torch_versions();
    for (auto& p : parsed_) rewrite_recipe(p);
    rewrite_toml_files();
    note_versions();
    rewrite_docs();
    std::sort(plan_.changes.begin(), plan_.changes.end(),
              [](const FileChange& a, const FileChange& b) { return a.rel < b.rel; });
    check_versioned_names();
    add_verify_notes();
    return std::move(plan_);
  }

 private:
  std::string result_path(const std::string& rel) const {
    return display_path(o_.output_root.empty() ? root_ : o_.output_root, rel);
  }

  // Every recipe first: one that does not parse stops the run before any edit.
  void parse_recipes() {
    for (size_t i = 0; i < plan_.before.size(); ++i) {
      const auto& f = plan_.before[i];
      if (!f.rel.ends_with(".nix")) continue;
      require_text(display_path(root_, f.rel), f.text);  // a binary file: "not a text file", not its bytes
      nix::ParseResult r = nix::parse(display_path(root_, f.rel), f.text, symbols_);
      if (r.error) {
        Diagnostic d = *r.error;
        d.hint = "repin rewrites only files that parse; fix this one first (tailor check shows every syntax error)";
        throw DiagnosticError(d);
      }
      ParsedFile p{i, std::move(r.expr), {}};
      p.pins = find_pins(f.text, *p.root);
      parsed_.push_back(std::move(p));
    }
  }

  // TOML files (Flox manifests): they must parse, before and after.
  void read_toml_pins() {
    for (size_t i = 0; i < plan_.before.size(); ++i) {
      const auto& f = plan_.before[i];
      if (!f.rel.ends_with(".toml") || f.text.empty()) continue;
      TomlDocument check(display_path(root_, f.rel), f.text);
      for (auto& t : toml_pins(i, f.text)) toml_.push_back(std::move(t));
    }
  }

  // The tree's pins, revisions that abbreviate one another merged.
  void collect_pins() {
    std::vector<std::pair<size_t, PinSite>> all_sites;
    for (const auto& p : parsed_)
      for (const auto& s : p.pins) all_sites.emplace_back(p.index, s);
    for (const auto& t : toml_) {
      PinSite s;
      s.rev = t.rev;
      s.span = t.span;
      all_sites.emplace_back(t.index, s);
    }
    for (const auto& [index, s] : all_sites) add_pin_site(index, s);
    if (pins_.empty()) throw no_pin();
    if (!o_.from.empty()) {  // one pin of several moves; the files of the others stay as they are
      std::string from = o_.from;
      if (const NixpkgsPin* known = find_pin(kb_, from)) from = known->rev;
      std::vector<std::string> had;
      for (const auto& p : pins_) had.push_back(short_rev(p.rev));
      std::erase_if(pins_, [&](const OldPin& p) { return !p.rev.starts_with(from) && !from.starts_with(p.rev); });
      if (pins_.empty()) {
        Diagnostic d;
        d.path = root_;
        d.message = fmt::format("repin: --from {}: the tree has no such pin", o_.from);
        d.hint = fmt::format("its pins: {}", fmt::join(had, ", "));
        throw DiagnosticError(d);
      }
      // The sites of the other pins are not rewritten.
      auto moves = [&](const std::string& rev) {
        std::string full = rev;
        if (const NixpkgsPin* known = find_pin(kb_, rev)) full = known->rev;
        return std::any_of(pins_.begin(), pins_.end(),
                           [&](const OldPin& x) { return x.rev.starts_with(full) || full.starts_with(x.rev); });
      };
      for (auto& p : parsed_) std::erase_if(p.pins, [&](const PinSite& site) { return !moves(site.rev); });
      std::erase_if(toml_, [&](const auto& t) { return !moves(t.rev); });
    }
    if (pins_.size() > 1 && !o_.all_pins) throw several_pins();
    for (const auto& p : pins_) plan_.old_pins[p.rev] = static_cast<int>(p.files.size());
  }

  void add_pin_site(size_t index, const PinSite& s) {
    std::string full = s.rev;
    if (const NixpkgsPin* known = find_pin(kb_, s.rev)) full = known->rev;
    auto it = std::find_if(pins_.begin(), pins_.end(),
                           [&](const OldPin& x) { return x.rev.starts_with(full) || full.starts_with(x.rev); });
    if (it == pins_.end()) it = pins_.insert(pins_.end(), OldPin{full, {}, {}});
    if (full.size() > it->rev.size()) it->rev = full;
    it->files.insert(plan_.before[index].rel);
    it->sites.emplace_back(display_path(root_, plan_.before[index].rel), s.span);
  }

  DiagnosticError no_pin() const {
    Diagnostic d;
    d.path = root_;
    d.message = "repin: no nixpkgs pin found in this tree";
    d.hint =
        "repin rewrites github.com/NixOS/nixpkgs/archive/REV.tar.gz urls, fetchGit / fetchFromGitHub revisions "
        "of NixOS/nixpkgs, github:NixOS/nixpkgs/REV and the let-bound revisions they use";
    return DiagnosticError(d);
  }

  DiagnosticError several_pins() {
    std::sort(pins_.begin(), pins_.end(),
              [](const OldPin& a, const OldPin& b) { return a.files.size() > b.files.size(); });
    std::vector<std::string> list;
    for (const auto& p : pins_)
      list.push_back(fmt::format("{} ({})", short_rev(p.rev), plural(p.files.size(), "file")));
    const auto& [path, span] = pins_[1].sites.front();
    Diagnostic d;
    d.path = path;
    d.pos = {span.line, span.column};
    for (const auto& f : plan_.before)
      if (display_path(root_, f.rel) == path) d.line_text = std::string(line_of(f.text, span.line));
    d.message = fmt::format("repin: the tree has {} nixpkgs pins: {} [TLR004]", pins_.size(), fmt::join(list, ", "));
    d.hint = fmt::format("pass --all-pins to move every one of them to {}, or --from OLD to move one of them",
                         short_rev(plan_.target.rev));
    for (const auto& p : pins_)
      d.notes.push_back(fmt::format("{} first at {}:{}:{}", short_rev(p.rev), p.sites.front().first,
                                    p.sites.front().second.line, p.sites.front().second.column));
    return DiagnosticError(d);
  }

  // The hash of the new pin: given, or known to the knowledge base.
  void choose_hash() {
    if (given_hash_) {
      plan_.hash = *given_hash_;
      plan_.hash_source = "--sha256";
    } else if (plan_.target.known && !plan_.target.known->sha256.empty()) {
      plan_.hash = plan_.target.known->sha256;
      plan_.hash_source = "knowledge base";
    }
  }

  void rewrite_recipe(ParsedFile& p) {
    const auto& f = plan_.before[p.index];
    FileChange fc;
    fc.rel = f.rel;
    std::vector<PinSite> sites = p.pins;
    for (const auto& old : pins_)
      if (old.rev.size() == 40)
        for (auto& extra : find_rev_literals(f.text, *p.root, old.rev, sites)) sites.push_back(std::move(extra));
    std::set<size_t> hashes_done;
    for (const auto& s : sites) repin_site(f, s, hashes_done, fc);
    if (plan_.python)
      rename_python_sets(f, *p.root, fc);
    else
      for (const auto& n : find_python_names(f.text, *p.root))  // the Pythons the tree keeps on the new pin
        if (auto py = python_name(n.name); py && !py->version.empty()) {
          std::string& seen = kept_pythons_[py->version];
          if (seen.empty() || n.name.ends_with("Packages")) seen = n.name;
        }
    rewrite_torch_mentions(f, fc);
    // The package sets the new pin must provide: those of the files it reaches (with --from,
    // a file of another pin stays on it).
    if (o_.from.empty() || !sites.empty()) count_cuda_sets(f.text);
    if (fc.edits.empty()) return;
    normalize_edits(fc.edits);
    std::sort(fc.changes.begin(), fc.changes.end(),
              [](const Change& a, const Change& b) { return std::tie(a.line, a.column) < std::tie(b.line, b.column); });
    std::string after = apply_edits(f.text, fc.edits);
    // Validate before anything is written: the rewritten file must still parse.
    const std::string shown = display_path(root_, f.rel);
    nix::ParseResult check = nix::parse(shown, after, symbols_);
    if (check.error)
      throw DiagnosticError(
          Diagnostic{Severity::error,
                     shown,
                     check.error->pos,
                     check.error->line_text,
                     "repin: internal error: the rewritten file does not parse: " + check.error->message,
                     "please report this with the file; nothing was written",
                     {}});
    plan_.after[p.index].text = std::move(after);
    plan_.changes.push_back(std::move(fc));
  }

  // One pin site: the revision, then its hash (rewritten, faked, inserted or left to the user).
  void repin_site(const recipe::SourceFile& f, const PinSite& s, std::set<size_t>& hashes_done, FileChange& fc) {
    if (s.rev == plan_.target.rev) return;
    fc.edits.push_back({s.begin, s.end, plan_.target.rev, "pin"});
    fc.changes.push_back({"pin", s.span.line, s.span.column, short_rev(s.rev), short_rev(plan_.target.rev)});
    std::string where = fmt::format("{}:{}:{}", result_path(f.rel), s.span.line, s.span.column);
    if (s.hash) {
      if (hashes_done.insert(s.hash->begin).second) rehash(f, *s.hash, fc);
    } else if (!plan_.hash.empty() && !s.insert_attr.empty()) {
      if (s.insert_attr == "hash" && hash_format(plan_.hash) != HashFormat::sri) {
        hand_hash_.push_back(where);
        return;
      }
      fc.edits.push_back({s.insert_at, s.insert_at,
                          fmt::format("{}{} = \"{}\";", s.insert_prefix, s.insert_attr, plan_.hash), s.insert_attr});
      fc.changes.push_back({s.insert_attr, s.span.line, s.span.column, "", plan_.hash});
    } else if (!s.insert_attr.empty()) {  // fetchGit needs none; a bare url string cannot take one
      no_hash_.push_back(where);
    }
  }

  void rehash(const recipe::SourceFile& f, const HashSite& h, FileChange& fc) {
    std::string where_hash = fmt::format("{}:{}:{}", result_path(f.rel), h.span.line, h.span.column);
    if (!plan_.hash.empty()) {
      if (h.attr == "hash" && hash_format(plan_.hash) != HashFormat::sri) {
        Diagnostic d = diagnostic_at(display_path(root_, f.rel), f.text, {h.span.line, h.span.column},
                                     fmt::format("repin: `hash` takes an SRI hash (sha256-…), not '{}'", plan_.hash),
                                     "convert it: nix hash to-sri --type sha256 HASH");
        throw DiagnosticError(d);
      }
      if (h.literal && h.value == plan_.hash) {
        // Already the new hash: nothing to change.
      } else if (h.literal || h.is_null) {
        std::string text = h.is_null ? "\"" + plan_.hash + "\"" : plan_.hash;
        fc.edits.push_back({h.begin, h.end, text, h.attr});
        fc.changes.push_back({h.attr, h.span.line, h.span.column, h.is_null ? "null" : h.value, plan_.hash});
      } else {
        hand_hash_.push_back(where_hash);
      }
    } else if (h.literal && hash_format(h.value)) {
      std::string fake = fake_hash(*hash_format(h.value));
      if (fake != h.value) {
        fc.edits.push_back({h.begin, h.end, fake, h.attr});
        fc.changes.push_back({h.attr, h.span.line, h.span.column, h.value, "fake (" + fake.substr(0, 10) + "…)"});
      }
      fake_hashes_.push_back(where_hash);
    } else if (!h.is_null) {
      hand_hash_.push_back(where_hash);
    }
  }

  void rename_python_sets(const recipe::SourceFile& f, const nix::Expr& root, FileChange& fc) {
    for (const auto& n : find_python_names(f.text, root)) {
      plan_.old_python_names.insert(n.name);
      auto cur = python_name(n.name);
      std::string want = n.name.ends_with("Packages") ? plan_.python->set : plan_.python->interpreter;
      if (!cur || n.name == want) continue;
      fc.edits.push_back({n.begin, n.end, want, "python set"});
      bool key = n.role == "binding" || n.role == "inherit";
      fc.changes.push_back({key ? "attribute name" : "python set", n.span.line, n.span.column, n.name, want});
      if (key) renamed_keys_.push_back(fmt::format("{}:{}:{}", result_path(f.rel), n.span.line, n.span.column));
    }
  }

  // cudaPackages_12_9 -> "12.9" (a plain scan: std::regex over whole files is the slow part of a large tree)
  void count_cuda_sets(const std::string& text) {
    constexpr std::string_view kCuda = "cudaPackages_";
    for (size_t k = text.find(kCuda); k != std::string::npos; k = text.find(kCuda, k + 1)) {
      size_t a = k + kCuda.size(), b = a;
      while (b < text.size() && std::isdigit(static_cast<unsigned char>(text[b]))) ++b;
      if (b == a || b >= text.size() || text[b] != '_') continue;
      size_t c = b + 1, d = c;
      while (d < text.size() && std::isdigit(static_cast<unsigned char>(text[d]))) ++d;
      if (d > c) cuda_sets_[text.substr(a, b - a) + "." + text.substr(c, d - c)]++;
    }
  }

  // TOML pins, and package-set names inside their strings (flake#python3Packages.torch).
  void rewrite_toml_files() {
    for (size_t i = 0; i < plan_.before.size(); ++i) {
      const auto& f = plan_.before[i];
      if (!f.rel.ends_with(".toml") || f.text.empty()) continue;
      FileChange fc;
      fc.rel = f.rel;
      for (const auto& t : toml_)
        if (t.index == i && t.rev != plan_.target.rev) {
          std::string to = t.rev.size() == 40 ? plan_.target.rev : plan_.target.rev.substr(0, t.rev.size());
          fc.edits.push_back({t.begin, t.end, to, "pin"});
          fc.changes.push_back({"pin", t.span.line, t.span.column, t.rev.substr(0, 7), to.substr(0, 7)});
        }
      if (plan_.python) rename_toml_python_sets(f.text, fc);
      if (fc.edits.empty()) continue;
      normalize_edits(fc.edits);
      std::string after = apply_edits(f.text, fc.edits);
      TomlDocument check(display_path(root_, f.rel), after);  // still TOML
      plan_.after[i].text = std::move(after);
      plan_.changes.push_back(std::move(fc));
    }
  }

  void rename_toml_python_sets(const std::string& text, FileChange& fc) {
    static const std::regex set_re(R"((^|[^A-Za-z0-9_])(python3\d*Packages)(?![A-Za-z0-9_]))");
    recipe::LineIndex lines(text);
    for (auto [b, e] : toml_string_ranges(text)) {
      std::string str = text.substr(b, e - b);
      if (str.size() > recipe::kMaxRegexLine) continue;
      for (auto it = std::sregex_iterator(str.begin(), str.end(), set_re); it != std::sregex_iterator(); ++it) {
        std::string name = (*it).str(2);
        if (name == plan_.python->set) continue;
        size_t at = b + static_cast<size_t>((*it).position(2));
        nix::Span sp = lines.span(at, at + name.size());
        fc.edits.push_back({at, at + name.size(), plan_.python->set, "python set"});
        fc.changes.push_back({"python set", sp.line, sp.column, name, plan_.python->set});
      }
    }
  }

  // The torch the old pins ship (when they agree) and the one the new pin ships.
  void note_torch_versions() {
    std::set<std::string> old_torches;
    for (const auto& p : pins_)
      if (const NixpkgsPin* k = find_pin(kb_, p.rev)) old_torches.insert(k->version_text(headline_.attribute));
    if (old_torches.size() == 1) old_torch_ = *old_torches.begin();
    target_ = plan_.target.known;
    new_torch_ = target_ ? target_->version_text(headline_.attribute) : "";
    if (!target_) return;
    torch_ = torch_on_pin(*target_, old_torch_, kb_, false);
    if (!torch_.may_rewrite) new_torch_ = old_torch_;  // the new pin's torch is disputed: no text moves on it
  }

  // Header comments and descriptions that name the old pin's torch ("PyTorch
  // 2.9.1") name what the recipe builds: after the swap that is the new pin's.
  void rewrite_torch_mentions(const recipe::SourceFile& f, FileChange& fc) {
    if (old_torch_.empty() || new_torch_.empty() || old_torch_ == new_torch_) return;
    recipe::LineIndex lines(f.text);
    for (size_t k : find_torch_mentions(f.text, old_torch_, headline_.attribute)) {
      nix::Span sp = lines.span(k, k + old_torch_.size());
      fc.edits.push_back({k, k + old_torch_.size(), new_torch_, headline_.attribute});
      fc.changes.push_back({headline_.attribute, sp.line, sp.column, old_torch_, new_torch_});
    }
  }

  // What the old and new pins provide, from the knowledge base.
  void note_versions() {
    std::set<std::string> old_versions;
    for (const auto& n : plan_.old_python_names) {
      auto s = python_name(n);
      std::string v = s->version;
      if (v.empty())  // python3Packages: the old pin's default, if the KB records it
        for (const auto& p : pins_)
          if (const NixpkgsPin* k = find_pin(kb_, p.rev)) v = k->python_default;
      old_versions.insert(v);
    }
    if (old_versions.size() == 1) old_python_ = *old_versions.begin();
    new_python_ = plan_.python ? plan_.python->version : "";
    if (plan_.python && new_python_.empty() && target_) new_python_ = target_->python_default;

    if (!target_) {
      plan_.knowledge.push_back(fmt::format(
          "{} is not in the knowledge base: tailor cannot tell which PyTorch, Python and CUDA versions it provides",
          short_rev(plan_.target.rev)));
    } else {
      note_target_knowledge();
    }
    if (!cuda_sets_.empty())
      plan_.cuda = std::max_element(cuda_sets_.begin(), cuda_sets_.end(), [](auto& a, auto& b) {
                     return a.second < b.second;
                   })->first;
  }

  void note_target_knowledge() {
    const std::string& attr = headline_.attribute;
    std::vector<std::string> provides{fmt::format("{} {}", headline_.display, target_->version_text(attr))};
    if (!target_->python.empty()) provides.push_back(fmt::format("Python {}", fmt::join(target_->python, ", ")));
    if (!target_->cuda.empty()) provides.push_back(fmt::format("CUDA {}", fmt::join(target_->cuda, ", ")));
    plan_.knowledge.push_back(fmt::format("{} provides {}", short_rev(target_->rev), fmt::join(provides, "; ")));
    for (const auto& p : pins_)
      if (const NixpkgsPin* k = find_pin(kb_, p.rev); k && k->rev != target_->rev)
        plan_.knowledge.push_back(
            fmt::format("{} provided {} {}{}", short_rev(k->rev), headline_.display, k->version_text(attr),
                        k->version_text(attr) == target_->version_text(attr) ? " (unchanged)" : ""));
      else if (!k)
        plan_.knowledge.push_back(fmt::format("{} (the old pin) is not in the knowledge base", short_rev(p.rev)));
    plan_.knowledge.insert(plan_.knowledge.end(), torch_.knowledge.begin(), torch_.knowledge.end());
    std::string want_python = plan_.python ? plan_.python->version : "";
    if (!want_python.empty() && !target_->provides_python(want_python))
      plan_.verify.push_back(
          fmt::format("{} does not provide Python {} per the knowledge base (it has {}): {} may be "
                      "missing on the new pin",
                      short_rev(target_->rev), want_python, fmt::join(target_->python, ", "), plan_.python->set));
    for (const auto& [version, name] : kept_pythons_)
      if (!target_->python.empty() && !target_->provides_python(version))
        plan_.verify.push_back(
            fmt::format("{} does not provide Python {} per the knowledge base (it has {}), but the recipes use {}: "
                        "they fail to evaluate on the new pin unless it has it; move them with --python-set",
                        short_rev(target_->rev), version, fmt::join(target_->python, ", "), name));
    for (const auto& [cuda, n] : cuda_sets_)
      if (!target_->provides_cuda(cuda))
        plan_.verify.push_back(
            fmt::format("{} does not provide CUDA {} per the knowledge base (it has {}), but the "
                        "recipes use cudaPackages_{}",
                        short_rev(target_->rev), cuda, fmt::join(target_->cuda, ", "),
                        cuda.substr(0, cuda.find('.')) + "_" + cuda.substr(cuda.find('.') + 1)));
    plan_.verify.insert(plan_.verify.end(), torch_.verify.begin(), torch_.verify.end());
  }

  // Docs: revisions everywhere, versions in table cells.
  void rewrite_docs() {
    DocRepin dr;
    for (const auto& p : pins_) dr.old_revs.push_back(p.rev);
    dr.new_rev = plan_.target.rev;
    dr.attribute = headline_.attribute;
    dr.name = headline_.name;
    dr.old_torch = old_torch_;
    dr.new_torch = new_torch_;
    dr.branch = o_.branch;
    if (plan_.python) {
      dr.old_python = old_python_;
      dr.new_python = new_python_;
    }
    for (size_t i = 0; i < plan_.before.size(); ++i) {
      const auto& f = plan_.before[i];
      if (!is_doc(f.rel)) continue;
      std::vector<Mention> left;
      FileChange fc;
      fc.rel = f.rel;
      std::vector<Mention> others;
      fc.edits = plan_doc(f.text, dr, left, &others);
      for (const auto& m : others)
        plan_.other_branches.push_back(fmt::format("{}:{}: mentions branch {}: left", f.rel, m.line, m.text));
      for (const auto& m : left) torch_left_.push_back(fmt::format("{}:{}:{}", result_path(f.rel), m.line, m.column));
      if (fc.edits.empty()) continue;
      recipe::LineIndex lines(f.text);
      for (const auto& e : fc.edits) {
        nix::Span s = lines.span(e.begin, e.end);
        std::string from = f.text.substr(e.begin, e.end - e.begin);
        fc.changes.push_back({e.what, s.line, s.column, from, e.text});
      }
      plan_.after[i].text = apply_edits(f.text, fc.edits);
      plan_.changes.push_back(std::move(fc));
    }
  }

  // Names that carry a torch version (the pytorch210- pname prefix of
  // flox/build-pytorch's CUDA 13 branch) must agree with what the new pin ships.
  void check_versioned_names() {
    if (!target_) return;
    static const std::regex prefix(R"(\bpytorch(\d)(\d{1,2})-)");
    std::map<std::string, std::string> claims;  // "2.10" -> first place
    for (const auto& p : parsed_) {
      const auto& f = plan_.after[p.index];
      if (f.text.size() > (1u << 22) || (!o_.from.empty() && p.pins.empty())) continue;  // --from: its files only
      for (auto it = std::sregex_iterator(f.text.begin(), f.text.end(), prefix); it != std::sregex_iterator(); ++it) {
        std::string v = (*it).str(1) + "." + (*it).str(2);
        nix::Span sp =
            recipe::span_of(f.text, static_cast<size_t>((*it).position(0)), static_cast<size_t>((*it).position(0)));
        claims.emplace(v, fmt::format("{}:{}:{}", result_path(f.rel), sp.line, sp.column));
      }
    }
    const FactEvidence* dispute = target_->version_dispute(headline_.attribute);
    auto claimed = [&](const std::string& v) {  // a disputed torch: the dispute is reported once, not per name
      return dispute && std::any_of(dispute->claims.begin(), dispute->claims.end(),
                                    [&](const FactClaim& c) { return (c.value + ".").starts_with(v + "."); });
    };
    for (const auto& [v, where] : claims)
      if (!(target_->version_text(headline_.attribute) + ".").starts_with(v + ".") && !claimed(v))
        plan_.verify.push_back(fmt::format("names claim {0} {1} (pytorch{2}- at {3}), but {4} ships {0} {5}",
                                           headline_.display, v, v.substr(0, 1) + v.substr(2), where,
                                           short_rev(target_->rev), target_->version_text(headline_.attribute)));
  }

  void add_verify_notes() {
    if (plan_.changes.empty() && pins_.empty()) return;
    if (!fake_hashes_.empty())
      plan_.verify.push_back(fmt::format(
          "{} replaced by a fake hash (the old one belongs to the old tarball): fill in the new one, e.g. from "
          "the 'got:' line of the failing fetch or from nix-prefetch-url --unpack {}; first at {}",
          plural(fake_hashes_.size(), "sha256"),
          target_ ? target_->tarball_url() : "https://github.com/NixOS/nixpkgs/archive/" + plan_.target.rev + ".tar.gz",
          fake_hashes_.front()));
    if (!no_hash_.empty() && plan_.target.rev != pins_.front().rev)
      plan_.verify.push_back(
          fmt::format("{} fetched without a hash (impure; tailor check warns TLR005): pass --sha256 "
                      "to write one; first at {}",
                      plural(no_hash_.size(), "pin"), no_hash_.front()));
    if (!hand_hash_.empty())
      plan_.verify.push_back(fmt::format(
          "{} not a string literal tailor can rewrite: set by hand; first at {}",
          hand_hash_.size() == 1 ? "1 hash is" : fmt::format("{} hashes are", hand_hash_.size()), hand_hash_.front()));
    if (!renamed_keys_.empty())
      plan_.verify.push_back(
          fmt::format("{} renamed with the package set: whatever reads {} (an overlay, a callPackage "
                      "argument) must expect the new name; first at {}",
                      plural(renamed_keys_.size(), "attribute name"), renamed_keys_.size() == 1 ? "it" : "them",
                      renamed_keys_.front()));
    note_python_names_left();
    std::sort(torch_left_.begin(), torch_left_.end());
    if (!torch_left_.empty())
      plan_.verify.push_back(
          fmt::format("PyTorch {} (the old pin's) is still named in {} of the documentation, "
                      "outside its version tables; first at {}",
                      old_torch_, plural(torch_left_.size(), "place"), torch_left_.front()));
  }

  // After a move to python3XPackages, file names (and the pnames and
  // descriptions written from them) that name another Python: repin does not
  // rename files, so it lists them (tailor check reports each as TLR007).
  void note_python_names_left() {
    if (!plan_.python || plan_.python->version.empty()) return;
    std::string want = "python" + plan_.python->version.substr(0, 1) + plan_.python->version.substr(2);
    static const std::regex word(R"((^|[-/])(python3\d+)-)");
    std::vector<std::string> left;
    std::set<std::string> words;
    for (const auto& p : parsed_) {
      const std::string& rel = plan_.before[p.index].rel;
      std::smatch m;
      if (std::regex_search(rel, m, word) && m.str(2) != want) {
        left.push_back(rel);
        words.insert(m.str(2));
      }
    }
    if (left.empty()) return;
    plan_.verify.push_back(
        fmt::format("{} still name{} {} while the package set is now {} (tailor check reports each as TLR007): rename "
                    "them, with their pnames and descriptions, to {}, or repin without --python-set; first: {}",
                    plural(left.size(), "file"), left.size() == 1 ? "s" : "", fmt::join(words, ", "), plan_.python->set,
                    want, result_path(left.front())));
  }

  RepinPlan plan_;
  std::string root_;
  const RepinOptions& o_;
  const KnowledgeBase& kb_;
  const PackageDef& headline_ = kb_.headline_package();  // its version moves with the pin
  std::optional<std::string> given_hash_;
  nix::SymbolTable symbols_;
  std::vector<ParsedFile> parsed_;
  std::vector<TomlPin> toml_;
  std::vector<OldPin> pins_;
  std::vector<std::string> fake_hashes_, no_hash_, hand_hash_, renamed_keys_, torch_left_;
  std::map<std::string, int> cuda_sets_;
  std::map<std::string, std::string> kept_pythons_;  ///< "3.11" -> a name using it (python311Packages)
  const NixpkgsPin* target_ = nullptr;
  std::string old_torch_, new_torch_, old_python_, new_python_;
  TorchOnPin torch_;
};

}  // namespace

RepinPlan plan_repin(const std::string& root, std::vector<recipe::SourceFile> files, const RepinOptions& o,
                     const KnowledgeBase& kb) {
  return Repinner(root, std::move(files), o, kb).run();
}

}  // namespace tailor::repin
