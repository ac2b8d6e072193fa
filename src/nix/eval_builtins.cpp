// The built-in functions of tailor's evaluator: the pure ones metadata tables
// and builders call, as Nix 2.x defines them; the impure ones (downloads, the
// host, the store) are unknown values that keep their arguments, so a reader
// can see what was fetched and how.
#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "nix/eval.hpp"

namespace tailor::nix {

namespace {

const std::map<std::string, int, std::less<>>& pure_builtins() {
  static const std::map<std::string, int, std::less<>> m = {
      {"head", 1},       {"tail", 1},         {"length", 1},      {"attrNames", 1},      {"attrValues", 1},
      {"toString", 1},   {"isString", 1},     {"isAttrs", 1},     {"isList", 1},         {"isInt", 1},
      {"isBool", 1},     {"isFunction", 1},   {"isNull", 1},      {"isFloat", 1},        {"isPath", 1},
      {"typeOf", 1},     {"stringLength", 1}, {"concatLists", 1}, {"throw", 1},          {"abort", 1},
      {"baseNameOf", 1}, {"dirOf", 1},        {"import", 1},      {"listToAttrs", 1},    {"elem", 2},
      {"hasAttr", 2},    {"getAttr", 2},      {"map", 2},         {"filter", 2},         {"concatStringsSep", 2},
      {"elemAt", 2},     {"match", 2},        {"removeAttrs", 2}, {"intersectAttrs", 2}, {"mapAttrs", 2},
      {"trace", 2},      {"seq", 2},          {"deepSeq", 2},     {"genList", 2},        {"catAttrs", 2},
      {"all", 2},        {"any", 2},          {"concatMap", 2},   {"lessThan", 2},       {"replaceStrings", 3},
      {"substring", 3},  {"foldl'", 3},
  };
  return m;
}

// Their value needs a download, the host or the store.
const std::map<std::string, int, std::less<>>& impure_builtins() {
  static const std::map<std::string, int, std::less<>> m = {
      {"fetchTarball", 1}, {"fetchurl", 1},  {"fetchGit", 1},    {"fetchTree", 1},    {"fetchMercurial", 1},
      {"getEnv", 1},       {"readFile", 1},  {"pathExists", 1},  {"readDir", 1},      {"path", 1},
      {"derivation", 1},   {"storePath", 1}, {"placeholder", 1}, {"toFile", 2},       {"findFile", 2},
      {"fromJSON", 1},     {"toJSON", 1},    {"hashString", 2},  {"filterSource", 2}, {"getFlake", 1},
  };
  return m;
}

// Longer inputs to `match` are unknown: std::regex backtracks on the stack.
constexpr size_t kMaxMatchInput = 4096;
constexpr size_t kMaxPattern = 512;
// libstdc++'s default matcher backtracks: "(a+)+b" would take exponential
// time on untrusted input. Its breadth-first matcher is polynomial (POSIX
// extended expressions have no back-references for it to refuse).
#ifdef __GLIBCXX__
constexpr auto kMatchFlags = std::regex::extended | std::regex_constants::__polynomial;
#else
constexpr auto kMatchFlags = std::regex::extended;
#endif

}  // namespace

const std::vector<std::string>& builtin_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& [n, _] : pure_builtins()) v.push_back(n);
    for (const auto& [n, _] : impure_builtins()) v.push_back(n);
    return v;
  }();
  return names;
}

ThunkPtr Evaluator::lazy(std::function<ValuePtr()> f) {
  auto t = new_thunk();
  t->lazy = std::move(f);
  return t;
}

ValuePtr Evaluator::call_builtin(const ValuePtr& fn, const Where& w) {
  const std::string& name = fn->text;
  int arity = 0;
  bool impure = false;
  if (auto it = pure_builtins().find(name); it != pure_builtins().end())
    arity = it->second;
  else if (auto jt = impure_builtins().find(name); jt != impure_builtins().end())
    arity = jt->second, impure = true;
  const auto& args = fn->list;
  if (arity == 0 || impure) {
    if (arity && static_cast<int>(args.size()) < arity) return fn;
    auto v = std::make_shared<Value>();
    v->where = w;
    v->text = impure ? fmt::format("builtins.{} needs a download, the host or the store", name)
                     : fmt::format("builtins.{} is not evaluated by tailor", name);
    v->name = "builtins." + name;
    v->list = args;
    return v;
  }
  if (static_cast<int>(args.size()) < arity) return fn;

  auto arg = [&](size_t i) { return force(args[i]); };
  auto unknown_arg = [&](const ValuePtr& v) { return unknown(w, v->text, "builtins." + name, v); };
  auto wrong = [&](const ValuePtr& v, const char* want) {
    return error(w, fmt::format("builtins.{}: {} was expected, got {}", name, want, kind_name(v->kind)));
  };
  auto boolean = [&](bool b) {
    auto v = make(ValueKind::boolean, w);
    std::const_pointer_cast<Value>(v)->boolean = b;
    return v;
  };
  auto integer = [&](int64_t i) {
    auto v = make(ValueKind::integer, w);
    std::const_pointer_cast<Value>(v)->integer = i;
    return v;
  };
  auto string = [&](std::string s) {
    charge(s.size());
    auto v = make(ValueKind::string, w);
    std::const_pointer_cast<Value>(v)->text = std::move(s);
    return v;
  };
  auto list = [&](std::vector<ThunkPtr> xs) {
    charge(sizeof(Value) + xs.size() * sizeof(ThunkPtr));
    auto v = std::make_shared<Value>();
    v->kind = ValueKind::list;
    v->where = w;
    v->list = std::move(xs);
    return ValuePtr(v);
  };
  // The argument \a i, forced, when it is known and of kind \a k.
#define TAILOR_NEED(var, i, k, want)          \
  ValuePtr var = arg(i);                      \
  if (!var->known()) return unknown_arg(var); \
  if (!var->is(k)) return wrong(var, want);

  if (name == "throw" || name == "abort") {
    ValuePtr m = arg(0);
    return error(w, fmt::format("{}: {}", name, m->is(ValueKind::string) ? m->text : "(a message tailor cannot tell)"));
  }
  if (name == "import") return import_value(arg(0), w);
  if (name == "trace" || name == "seq" || name == "deepSeq") return arg(1);
  if (name.starts_with("is") || name == "typeOf") {
    ValuePtr x = arg(0);
    if (!x->known()) return unknown_arg(x);
    if (name == "typeOf") {
      static const std::map<ValueKind, const char*> t = {{ValueKind::null, "null"},     {ValueKind::boolean, "bool"},
                                                         {ValueKind::integer, "int"},   {ValueKind::floating, "float"},
                                                         {ValueKind::string, "string"}, {ValueKind::path, "path"},
                                                         {ValueKind::list, "list"},     {ValueKind::attrs, "set"},
                                                         {ValueKind::lambda, "lambda"}, {ValueKind::builtin, "lambda"}};
      return string(t.at(x->kind));
    }
    static const std::map<std::string, std::vector<ValueKind>, std::less<>> is = {
        {"isString", {ValueKind::string}},
        {"isAttrs", {ValueKind::attrs}},
        {"isList", {ValueKind::list}},
        {"isInt", {ValueKind::integer}},
        {"isBool", {ValueKind::boolean}},
        {"isNull", {ValueKind::null}},
        {"isFloat", {ValueKind::floating}},
        {"isPath", {ValueKind::path}},
        {"isFunction", {ValueKind::lambda, ValueKind::builtin}}};
    const auto& kinds = is.at(name);
    return boolean(std::find(kinds.begin(), kinds.end(), x->kind) != kinds.end());
  }
  if (name == "head" || name == "tail") {
    TAILOR_NEED(l, 0, ValueKind::list, "a list");
    if (l->list.empty()) return error(w, fmt::format("builtins.{} of an empty list", name));
    if (name == "head") return force(l->list.front());
    return list(std::vector<ThunkPtr>(l->list.begin() + 1, l->list.end()));
  }
  if (name == "length") {
    TAILOR_NEED(l, 0, ValueKind::list, "a list");
    return integer(static_cast<int64_t>(l->list.size()));
  }
  if (name == "elemAt") {
    TAILOR_NEED(l, 0, ValueKind::list, "a list");
    TAILOR_NEED(i, 1, ValueKind::integer, "an integer");
    if (i->integer < 0 || static_cast<size_t>(i->integer) >= l->list.size())
      return error(w,
                   fmt::format("builtins.elemAt: index {} out of bounds of a list of {}", i->integer, l->list.size()));
    return force(l->list[static_cast<size_t>(i->integer)]);
  }
  if (name == "attrNames" || name == "attrValues") {
    TAILOR_NEED(s, 0, ValueKind::attrs, "a set");
    if (s->partial) return unknown(w, "a set with names tailor cannot tell", "builtins." + name, s);
    std::vector<ThunkPtr> out;
    for (const auto& [k, a] : s->attrs) {
      if (name == "attrValues") {
        out.push_back(a.value);
        continue;
      }
      charge(sizeof(Value) + k.size());
      auto v = std::make_shared<Value>();
      v->kind = ValueKind::string;
      v->where = a.name_at.file ? a.name_at : w;
      v->text = k;
      out.push_back(ready(v));
    }
    return list(std::move(out));
  }
  if (name == "hasAttr" || name == "getAttr") {
    TAILOR_NEED(n, 0, ValueKind::string, "a string");
    TAILOR_NEED(s, 1, ValueKind::attrs, "a set");
    auto it = s->attrs.find(n->text);
    if (it == s->attrs.end()) {
      if (s->partial) return unknown(w, fmt::format("'{}' may be in a set of unknown names", n->text), n->text, s);
      return name == "hasAttr" ? boolean(false) : error(w, fmt::format("attribute '{}' missing", n->text));
    }
    return name == "hasAttr" ? boolean(true) : force(it->second.value);
  }
  if (name == "toString") {
    ValuePtr x = arg(0);
    if (x->is(ValueKind::path))
      return unknown(w, fmt::format("the absolute path of {}", x->text), "builtins.toString", x);
    ValuePtr why;
    auto s = coerce(x, true, &why);
    if (!s) return why->known() ? why : unknown_arg(why);
    return string(std::move(*s));
  }
  if (name == "stringLength") {
    TAILOR_NEED(s, 0, ValueKind::string, "a string");
    return integer(static_cast<int64_t>(s->text.size()));
  }
  if (name == "baseNameOf" || name == "dirOf") {
    ValuePtr x = arg(0);
    if (!x->known()) return unknown_arg(x);
    if (!x->is(ValueKind::string) && !x->is(ValueKind::path)) return wrong(x, "a string or a path");
    std::string t = x->text;
    while (t.size() > 1 && t.back() == '/') t.pop_back();
    size_t slash = t.rfind('/');
    std::string out = name == "baseNameOf" ? (slash == std::string::npos ? t : t.substr(slash + 1))
                                           : (slash == std::string::npos ? "."
                                              : slash == 0               ? "/"
                                                                         : t.substr(0, slash));
    charge(out.size());
    auto v = make(x->kind, w);
    std::const_pointer_cast<Value>(v)->text = out;
    return v;
  }
  if (name == "concatLists" || name == "concatMap") {
    const size_t li = name == "concatLists" ? 0 : 1;
    TAILOR_NEED(l, li, ValueKind::list, "a list");
    std::vector<ThunkPtr> out;
    for (const auto& x : l->list) {
      ValuePtr sub = name == "concatLists" ? force(x) : apply(arg(0), x, w);
      if (!sub->known()) return unknown_arg(sub);
      if (!sub->is(ValueKind::list)) return wrong(sub, "a list");
      if (out.size() + sub->list.size() > limits_.max_list)
        return unknown(w, "a list longer than the evaluator's limit");
      out.insert(out.end(), sub->list.begin(), sub->list.end());
    }
    return list(std::move(out));
  }
  if (name == "map") {
    ValuePtr f = arg(0);
    TAILOR_NEED(l, 1, ValueKind::list, "a list");
    std::vector<ThunkPtr> out;
    for (const auto& x : l->list) out.push_back(lazy([this, f, x, w] { return apply(f, x, w); }));
    return list(std::move(out));
  }
  if (name == "genList") {
    ValuePtr f = arg(0);
    TAILOR_NEED(n, 1, ValueKind::integer, "an integer");
    if (n->integer < 0 || static_cast<size_t>(n->integer) > limits_.max_list)
      return unknown(w, "a list longer than the evaluator's limit");
    std::vector<ThunkPtr> out;
    for (int64_t i = 0; i < n->integer; ++i) {
      auto iv = std::make_shared<Value>();
      iv->kind = ValueKind::integer;
      iv->integer = i;
      iv->where = w;
      ThunkPtr it = ready(iv);
      out.push_back(lazy([this, f, it, w] { return apply(f, it, w); }));
    }
    return list(std::move(out));
  }
  if (name == "filter" || name == "all" || name == "any") {
    ValuePtr f = arg(0);
    TAILOR_NEED(l, 1, ValueKind::list, "a list");
    std::vector<ThunkPtr> out;
    for (const auto& x : l->list) {
      ValuePtr keep = apply(f, x, w);
      if (!keep->known()) return unknown_arg(keep);
      if (!keep->is(ValueKind::boolean)) return wrong(keep, "a Boolean");
      if (name == "all" && !keep->boolean) return boolean(false);
      if (name == "any" && keep->boolean) return boolean(true);
      if (keep->boolean) out.push_back(x);
    }
    if (name == "all") return boolean(true);
    if (name == "any") return boolean(false);
    return list(std::move(out));
  }
  if (name == "foldl'") {
    ValuePtr op = arg(0);
    TAILOR_NEED(l, 2, ValueKind::list, "a list");
    ValuePtr acc = arg(1);
    for (const auto& x : l->list) {
      ValuePtr partial = apply(op, ready(acc), w);
      acc = apply(partial, x, w);
      if (!acc->known()) return acc;
    }
    return acc;
  }
  if (name == "elem") {
    ValuePtr x = arg(0);
    TAILOR_NEED(l, 1, ValueKind::list, "a list");
    bool unsure = false;
    for (const auto& y : l->list) {
      std::optional<bool> e;
      if (!equal(x, force(y), e, 0))
        unsure = true;
      else if (*e)
        return boolean(true);
    }
    if (unsure) return unknown(w, "an element compared with an unknown value", "builtins.elem", x);
    return boolean(false);
  }
  if (name == "lessThan") {
    ValuePtr a = arg(0), b = arg(1);
    if (!a->known()) return unknown_arg(a);
    if (!b->known()) return unknown_arg(b);
    if (a->is(ValueKind::integer) && b->is(ValueKind::integer)) return boolean(a->integer < b->integer);
    if (a->is(ValueKind::string) && b->is(ValueKind::string)) return boolean(a->text < b->text);
    return error(w, fmt::format("cannot compare {} with {}", kind_name(a->kind), kind_name(b->kind)));
  }
  if (name == "concatStringsSep") {
    TAILOR_NEED(sep, 0, ValueKind::string, "a string");
    TAILOR_NEED(l, 1, ValueKind::list, "a list");
    std::string out;
    for (size_t i = 0; i < l->list.size(); ++i) {
      ValuePtr why;
      auto s = coerce(force(l->list[i]), false, &why);
      if (!s) return why->known() ? why : unknown_arg(why);
      if (i) out += sep->text;
      out += *s;
      if (out.size() > limits_.max_string) return unknown(w, "a string longer than the evaluator's limit");
    }
    return string(std::move(out));
  }
  if (name == "replaceStrings") {
    TAILOR_NEED(from, 0, ValueKind::list, "a list");
    TAILOR_NEED(to, 1, ValueKind::list, "a list");
    TAILOR_NEED(s, 2, ValueKind::string, "a string");
    if (from->list.size() != to->list.size()) return error(w, "builtins.replaceStrings: lists of different lengths");
    std::vector<std::string> f, t;
    for (const auto& x : from->list) {
      ValuePtr v = force(x);
      if (!v->known()) return unknown_arg(v);
      if (!v->is(ValueKind::string)) return wrong(v, "a string");
      f.push_back(v->text);
    }
    for (const auto& x : to->list) {
      ValuePtr v = force(x);
      if (!v->known()) return unknown_arg(v);
      if (!v->is(ValueKind::string)) return wrong(v, "a string");
      t.push_back(v->text);
    }
    // Nix's rule: at each position the first pattern that matches is replaced;
    // an empty pattern matches at every position, and the byte after it is kept.
    std::string out;
    const std::string& in = s->text;
    size_t p = 0;
    while (p <= in.size()) {
      bool found = false;
      for (size_t k = 0; k < f.size(); ++k) {
        if (in.compare(p, f[k].size(), f[k]) != 0) continue;
        found = true;
        out += t[k];
        if (f[k].empty()) {
          if (p < in.size()) out += in[p];
          ++p;
        } else {
          p += f[k].size();
        }
        break;
      }
      if (!found) {
        if (p < in.size()) out += in[p];
        ++p;
      }
      if (out.size() > limits_.max_string) return unknown(w, "a string longer than the evaluator's limit");
    }
    return string(std::move(out));
  }
  if (name == "substring") {
    TAILOR_NEED(start, 0, ValueKind::integer, "an integer");
    TAILOR_NEED(len, 1, ValueKind::integer, "an integer");
    TAILOR_NEED(s, 2, ValueKind::string, "a string");
    if (start->integer < 0) return error(w, "builtins.substring: negative start position");
    size_t b = std::min<size_t>(static_cast<size_t>(start->integer), s->text.size());
    size_t n = len->integer < 0 ? std::string::npos : static_cast<size_t>(len->integer);
    return string(s->text.substr(b, n));
  }
  if (name == "match") {
    TAILOR_NEED(re, 0, ValueKind::string, "a string");
    TAILOR_NEED(s, 1, ValueKind::string, "a string");
    if (re->text.size() > kMaxPattern || s->text.size() > kMaxMatchInput)
      return unknown(w, "a regular expression or input longer than tailor matches", "builtins.match", s);
    try {
      std::regex r(re->text, kMatchFlags);
      std::smatch m;
      if (!std::regex_match(s->text, m, r)) return make(ValueKind::null, w);
      std::vector<ThunkPtr> groups;
      for (size_t i = 1; i < m.size(); ++i) {
        if (!m[i].matched) {
          groups.push_back(ready(make(ValueKind::null, w)));
          continue;
        }
        charge(sizeof(Value) + static_cast<size_t>(m[i].length()));
        auto v = std::make_shared<Value>();
        v->kind = ValueKind::string;
        v->where = w;
        v->text = m[i].str();
        groups.push_back(ready(v));
      }
      return list(std::move(groups));
    } catch (const std::exception& e) {
      return error(w, fmt::format("builtins.match: invalid regular expression '{}'", re->text));
    }
  }
  if (name == "listToAttrs") {
    TAILOR_NEED(l, 0, ValueKind::list, "a list");
    auto out = std::make_shared<Value>();
    out->kind = ValueKind::attrs;
    out->where = w;
    for (const auto& x : l->list) {
      ValuePtr item = force(x);
      if (!item->known()) return unknown_arg(item);
      ValuePtr n = get(item, "name");
      if (!n || !item->attrs.count("value"))
        return error(w, "builtins.listToAttrs: an element without 'name' and 'value'");
      if (!n->known()) {
        out->partial = true;
        continue;
      }
      if (!n->is(ValueKind::string)) return wrong(n, "a string");
      out->attrs.emplace(n->text, Attr{item->attrs.at("value").value, n->where});  // the first one wins
    }
    return out;
  }
  if (name == "removeAttrs") {
    TAILOR_NEED(s, 0, ValueKind::attrs, "a set");
    TAILOR_NEED(l, 1, ValueKind::list, "a list");
    charge(copy_bytes(*s));
    auto out = std::make_shared<Value>(*s);
    out->where = w;
    for (const auto& x : l->list) {
      ValuePtr n = force(x);
      if (!n->known()) return unknown_arg(n);
      if (!n->is(ValueKind::string)) return wrong(n, "a string");
      out->attrs.erase(n->text);
    }
    return out;
  }
  if (name == "intersectAttrs") {
    TAILOR_NEED(a, 0, ValueKind::attrs, "a set");
    TAILOR_NEED(b, 1, ValueKind::attrs, "a set");
    if (a->partial || b->partial)
      return unknown(w, "a set with names tailor cannot tell", "builtins.intersectAttrs", a);
    auto out = std::make_shared<Value>();
    out->kind = ValueKind::attrs;
    out->where = w;
    for (const auto& [k, v] : b->attrs)
      if (a->attrs.count(k)) out->attrs.emplace(k, v);
    return out;
  }
  if (name == "catAttrs") {
    TAILOR_NEED(n, 0, ValueKind::string, "a string");
    TAILOR_NEED(l, 1, ValueKind::list, "a list");
    std::vector<ThunkPtr> out;
    for (const auto& x : l->list) {
      ValuePtr item = force(x);
      if (!item->known()) return unknown_arg(item);
      if (!item->is(ValueKind::attrs)) return wrong(item, "a set");
      if (auto it = item->attrs.find(n->text); it != item->attrs.end())
        out.push_back(it->second.value);
      else if (item->partial)
        return unknown(w, "a set with names tailor cannot tell", "builtins.catAttrs", item);
    }
    return list(std::move(out));
  }
  if (name == "mapAttrs") {
    ValuePtr f = arg(0);
    TAILOR_NEED(s, 1, ValueKind::attrs, "a set");
    charge(copy_bytes(*s));
    auto out = std::make_shared<Value>(*s);
    out->where = w;
    for (auto& [k, a] : out->attrs) {
      charge(sizeof(Value) + k.size());
      auto key = std::make_shared<Value>();
      key->kind = ValueKind::string;
      key->text = k;
      key->where = a.name_at;
      ThunkPtr kt = ready(key), vt = a.value;
      a.value = lazy([this, f, kt, vt, w] { return apply(apply(f, kt, w), vt, w); });
    }
    return out;
  }
#undef TAILOR_NEED
  return unknown(w, fmt::format("builtins.{} is not evaluated by tailor", name), "builtins." + name, fn);
}

}  // namespace tailor::nix
