#include "kb/pin_query.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tailor {

namespace {

// "2.9" matches 2.9.1: every component \a want gives is equal.
bool version_matches(const std::string& want, const std::string& have) {
  auto w = Version::parse(want), h = Version::parse(have);
  if (!w || !h) return want == have;
  for (size_t i = 0; i < w->size(); ++i)
    if (w->part(i) != h->part(i)) return false;
  return w->size() <= h->size() || *w == *h;
}

bool any_matches(const std::string& want, const std::vector<std::string>& have) {
  for (const auto& h : have)
    if (version_matches(want, h)) return true;
  return false;
}

// The knowledge base's source overrides build a version of an attribute on a pin.
bool builds_from_source(const NixpkgsPin& pin, const std::string& attribute, const std::string& version,
                        const KnowledgeBase& kb) {
  for (const auto& w : kb.workarounds) {
    const auto& o = w.source_override;
    bool on_pin = w.pins.empty() || std::find(w.pins.begin(), w.pins.end(), pin.short_rev) != w.pins.end();
    if (o && on_pin && o->attribute == attribute && version_matches(version, o->version)) return true;
  }
  return false;
}

}  // namespace

std::string PinQuery::version(std::string_view attribute) const {
  for (const auto& [a, v] : versions)
    if (a == attribute) return v;
  return {};
}

std::string PinQuery::describe() const {
  std::vector<std::string> parts;
  for (const auto& [a, v] : versions) parts.push_back(a + " " + v);
  if (!python.empty()) parts.push_back("Python " + python);
  if (!cuda.empty()) parts.push_back("CUDA " + cuda);
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string PinQuery::command() const {
  std::string c = "tailor kb --pins";
  for (const auto& [a, v] : versions) c += fmt::format(" --{} {}", a, v);
  if (!python.empty()) c += " --python " + python;
  if (!cuda.empty()) c += " --cuda " + cuda;
  return c;
}

bool pin_provides(const NixpkgsPin& pin, const PinQuery& q, const KnowledgeBase& kb) {
  // A version the pin's sources dispute is not known to be provided: no hint leans on it.
  for (const auto& [a, v] : q.versions)
    if (!(pin.version(a) && !pin.version_dispute(a) && version_matches(v, pin.version_text(a))) &&
        !builds_from_source(pin, a, v, kb))
      return false;
  if (!q.python.empty() && !any_matches(q.python, pin.python)) return false;
  if (!q.cuda.empty() && !any_matches(q.cuda, pin.cuda)) return false;
  return true;
}

std::vector<const NixpkgsPin*> pins_providing(const KnowledgeBase& kb, const PinQuery& q) {
  std::vector<const NixpkgsPin*> out;
  for (const auto& p : kb.pins)
    if (pin_provides(p, q, kb)) out.push_back(&p);
  return out;
}

std::string pin_hint(const KnowledgeBase& kb, const PinQuery& q) {
  std::vector<std::string> names;
  for (const NixpkgsPin* p : pins_providing(kb, q)) names.push_back(p->short_rev);
  if (q.empty())
    return fmt::format("pins of the knowledge base: {} ('tailor kb --pins' says what each provides)",
                       fmt::join(names, ", "));
  if (names.empty())
    return fmt::format("no pin of the knowledge base provides {}; 'tailor kb --pins' lists what each provides",
                       q.describe());
  return fmt::format("pin{} that provide{} {}: {} ('{}')", names.size() == 1 ? "" : "s", names.size() == 1 ? "s" : "",
                     q.describe(), fmt::join(names, ", "), q.command());
}

}  // namespace tailor
