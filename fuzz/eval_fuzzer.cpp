// Fuzz target for the evaluator: any bytes, read as a file and, after a NUL
// byte, a second file it may import (./lib.nix), must evaluate to a value or
// an unknown within the limits; never crash, hang or recurse past the stack.
#include <cstdint>
#include <map>
#include <string>

#include "nix/eval.hpp"
#include "resource_oracle.hpp"

namespace {

using namespace tailor::nix;

// Forces what a reader of tables forces: attributes, elements, a call with an
// empty set, a few levels down.
void walk(Evaluator& ev, const ValuePtr& v, int depth) {
  if (!v || depth > 6) return;
  if (v->is(ValueKind::attrs)) {
    for (const auto& [name, attr] : v->attrs) walk(ev, ev.force(attr.value), depth + 1);
  } else if (v->is(ValueKind::list)) {
    for (const auto& t : v->list) walk(ev, ev.force(t), depth + 1);
  } else if (v->is(ValueKind::lambda)) {
    auto empty = std::make_shared<Value>();
    empty->kind = ValueKind::attrs;
    walk(ev, ev.apply(v, Evaluator::ready(empty), v->where), depth + 1);
  } else if (!v->known()) {
    (void)ev.location(v->where);
    for (const auto& t : v->list) walk(ev, ev.force(t), depth + 1);
  }
}

}  // namespace

TAILOR_FUZZ_TARGET(data, size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string> files;
  size_t nul = text.find('\0');
  files["main.nix"] = text.substr(0, nul);
  if (nul != std::string::npos) files["lib.nix"] = text.substr(nul + 1);
  EvalLimits limits;
  limits.max_steps = 20000;
  limits.max_depth = 100;
  limits.max_string = 1 << 16;
  limits.max_list = 1 << 12;
  limits.max_bytes = 8u << 20;  // within the resource oracle's budget, with the evaluator's overheads
  Evaluator ev(
      "fuzz",
      [&](const std::string& rel) -> std::optional<std::string> {
        auto it = files.find(rel);
        if (it == files.end()) return std::nullopt;
        return it->second;
      },
      limits);
  walk(ev, ev.file("main.nix"), 0);
  return 0;
}
