#include "repin/torch_on_pin.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/quote.hpp"

namespace tailor::repin {

namespace {

bool same_version(const std::string& a, const std::string& b) {
  auto va = Version::parse(a), vb = Version::parse(b);
  return va && vb ? *va == *vb : a == b;
}

bool claimed(const FactEvidence& d, const std::string& version) {
  for (const auto& c : d.claims)
    if (same_version(c.value, version)) return true;
  return false;
}

}  // namespace

std::string nix_source_override(const SourceOverride& o, const std::string& indent) {
  const GitHubSource& f = o.fetch;
  std::vector<std::string> l;
  l.push_back(fmt::format("{}.overrideAttrs (old: {{", o.attribute));
  l.push_back(fmt::format("  version = {};", nix_string(o.version)));
  l.push_back("  src = fetchFromGitHub {");
  l.push_back(fmt::format("    owner = {};", nix_string(f.owner)));
  l.push_back(fmt::format("    repo = {};", nix_string(f.repo)));
  l.push_back(fmt::format("    rev = {};", nix_string(f.rev)));
  l.push_back(fmt::format("    hash = {};", nix_string(f.hash)));
  if (f.fetch_submodules) l.push_back("    fetchSubmodules = true;");
  l.push_back("  };");
  if (o.clear_patches) l.push_back("  patches = [ ];");
  if (!o.cmake_flags.empty()) {
    std::vector<std::string> flags;
    for (const auto& c : o.cmake_flags) flags.push_back(nix_string(c));
    l.push_back(fmt::format("  cmakeFlags = (old.cmakeFlags or [ ]) ++ [ {} ];", fmt::join(flags, " ")));
  }
  for (const auto& e : o.env) {  // NAME=value; the name is a shell variable name (checked when read)
    size_t eq = e.find('=');
    l.push_back(fmt::format("  {} = {};", nix_attr_name(e.substr(0, eq)), nix_string(e.substr(eq + 1))));
  }
  if (!o.version_txt.empty())
    l.push_back(fmt::format("  postPatch = (old.postPatch or \"\") + {};",
                            nix_string("\necho " + shell_word(o.version_txt) + " > version.txt\n")));
  l.push_back("})");
  std::string out;
  for (size_t i = 0; i < l.size(); ++i) out += (i ? "\n" : "") + indent + l[i];
  return out;
}

TorchOnPin torch_on_pin(const NixpkgsPin& target, const std::string& old_torch, const KnowledgeBase& kb,
                        bool for_spec) {
  TorchOnPin t;
  // The headline package's attribute (packages.toml): the torch of a PyTorch tree.
  const std::string& attribute = kb.headline_package().attribute;
  std::string now = target.version_text(attribute);
  const FactEvidence* dispute = target.version_dispute(attribute);
  std::string stays;
  if (!old_torch.empty() && !now.empty() && (same_version(old_torch, now) || (dispute && claimed(*dispute, old_torch))))
    stays = old_torch;
  if (dispute) {
    t.may_rewrite = false;
    t.verify.push_back(dispute_warning(
        target, *dispute,
        old_torch.empty() ? std::string("repin rewrites no torch version")
                          : fmt::format("repin keeps torch {} and rewrites no torch version", old_torch)));
  }
  if (!stays.empty())
    t.knowledge.push_back(fmt::format("torch stays {}: {} ships PyTorch {}{}", stays, target.short_rev, now,
                                      dispute ? " (as recorded; the sources disagree, see below)" : ""));
  // The versions the knowledge base builds from source on the new pin.
  std::string built = stays.empty() ? now : stays;
  for (const auto& w : kb.workarounds) {
    const auto& o = w.source_override;
    bool on_pin = w.pins.empty() || std::find(w.pins.begin(), w.pins.end(), target.short_rev) != w.pins.end();
    if (!o || o->attribute != attribute || !on_pin || same_version(o->version, built)) continue;
    std::string head = fmt::format("to build PyTorch {} on {} instead, build it from source (workaround {}: {})",
                                   o->version, target.short_rev, w.id, w.source);
    if (for_spec)
      t.knowledge.push_back(
          fmt::format("{}: set [branch] torch = \"{}\"; the workaround's source override "
                      "(pytorch/pytorch {}) applies to every variant on {}",
                      head, o->version, o->fetch.rev, target.short_rev));
    else
      t.knowledge.push_back(
          fmt::format("{}: override torch's source in each recipe:\n{}", head, nix_source_override(*o, "    ")));
  }
  return t;
}

}  // namespace tailor::repin
