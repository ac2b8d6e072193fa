#include "kb/version_pairing.hpp"

#include <fmt/format.h>

#include "util/version.hpp"

namespace tailor {

PairedRelease paired_release(const PackageDef& p, std::string_view version, std::string_view with_attribute,
                             const KnowledgeBase& kb) {
  std::string mine = major_minor(version);
  for (const auto& t : p.pairings) {
    const PackageDef* with = kb.package(t.with);
    if (!with || with->attribute != with_attribute) continue;
    for (const auto& [a, b] : t.pairs)
      if (a == mine) {
        bool plus = !b.empty() && b.back() == '+';
        return {plus ? b.substr(0, b.size() - 1) : b, plus, &t};
      }
  }
  return {};
}

bool off_table(const PackageDef& p, std::string_view version, std::string_view with_attribute,
               std::string_view with_version, const KnowledgeBase& kb) {
  PairedRelease r = paired_release(p, version, with_attribute, kb);
  if (r.release.empty()) return false;
  if (!r.or_newer) return r.release != major_minor(with_version);
  auto base = Version::parse(r.release), other = Version::parse(major_minor(with_version));
  return !base || !other || *other < *base;
}

}  // namespace tailor
