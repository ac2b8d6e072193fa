// The built-in functions of tailor's evaluator: the pure ones metadata tables
// and builders call, as Nix 2.x defines them; the impure ones (downloads, the
// host, the store) are unknown values that keep their arguments, so a reader
// can see what was fetched and how. One table row a builtin: its name, how
// many arguments it takes before it runs, and the function that runs it.
#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "nix/eval.hpp"
#include "util/flat_index.hpp"

namespace tailor::nix {

/// One call of a builtin with all its arguments given, at \a w: what a row's
/// function reads its arguments through and makes its value with.
struct BuiltinCall {
  Evaluator& ev;
  const std::string& name;
  const std::vector<ThunkPtr>& args;
  const Where& w;

  ValuePtr arg(size_t i) { return ev.force(args[i]); }
  ValuePtr apply(const ValuePtr& f, const ThunkPtr& x) { return ev.apply(f, x, w); }
  ValuePtr unknown(std::string why, std::string what = {}, ValuePtr base = nullptr) {
    return ev.unknown(w, std::move(why), std::move(what), std::move(base));
  }
  /// The unknown argument \a v made this call unknown.
  ValuePtr unknown_arg(const ValuePtr& v) { return unknown(v->text, "builtins." + name, v); }
  /// \a base is a set whose names cannot all be told.
  ValuePtr names_unknown(const ValuePtr& base) {
    return unknown("a set with names tailor cannot tell", "builtins." + name, base);
  }
  ValuePtr too_long(const char* what) { return unknown(fmt::format("a {} longer than the evaluator's limit", what)); }
  ValuePtr error(std::string what) { return ev.error(w, std::move(what)); }
  ValuePtr wrong(const ValuePtr& v, const char* want) {
    return error(fmt::format("builtins.{}: {} was expected, got {}", name, want, kind_name(v->kind)));
  }
  ValuePtr make(ValueKind k) { return ev.make(k, w); }
  ValuePtr boolean(bool b) {
    auto v = make(ValueKind::boolean);
    std::const_pointer_cast<Value>(v)->boolean = b;
    return v;
  }
  ValuePtr integer(int64_t i) {
    auto v = make(ValueKind::integer);
    std::const_pointer_cast<Value>(v)->integer = i;
    return v;
  }
  ValuePtr string(std::string s) {
    ev.charge(s.size());
    auto v = make(ValueKind::string);
    std::const_pointer_cast<Value>(v)->text = std::move(s);
    return v;
  }
  /// A string value for an element of a list (an attribute's name, a match group), written at \a at.
  ThunkPtr element_string(std::string s, const Where& at) {
    ev.charge(sizeof(Value) + s.size());
    auto v = std::make_shared<Value>();
    v->kind = ValueKind::string;
    v->where = at;
    v->text = std::move(s);
    return Evaluator::ready(v);
  }
  ValuePtr list(std::vector<ThunkPtr> xs) {
    ev.charge(sizeof(Value) + xs.size() * sizeof(ThunkPtr));
    auto v = std::make_shared<Value>();
    v->kind = ValueKind::list;
    v->where = w;
    v->list = std::move(xs);
    return ValuePtr(v);
  }
  /// A set like \a s (copied, charged) written here.
  std::shared_ptr<Value> copy_set(const ValuePtr& s) {
    ev.charge(copy_bytes(*s));
    auto out = std::make_shared<Value>(*s);
    out->where = w;
    return out;
  }
  std::shared_ptr<Value> empty_set() {
    auto out = std::make_shared<Value>();
    out->kind = ValueKind::attrs;
    out->where = w;
    return out;
  }
  ThunkPtr lazy(std::function<ValuePtr()> f) { return ev.lazy(std::move(f)); }
  const EvalLimits& limits() const { return ev.limits(); }
  std::optional<std::string> coerce(const ValuePtr& v, bool to_string_rules, ValuePtr* why) {
    return ev.coerce(v, to_string_rules, why);
  }
  bool equal(const ValuePtr& a, const ValuePtr& b, std::optional<bool>& out) { return ev.equal(a, b, out, 0); }
  ValuePtr import_value(const ValuePtr& path) { return ev.import_value(path, w); }
};

namespace {

// The argument \a i, forced, when it is known and of kind \a k; else the call returns.
#define TAILOR_NEED(var, i, k, want)            \
  ValuePtr var = c.arg(i);                      \
  if (!var->known()) return c.unknown_arg(var); \
  if (!var->is(k)) return c.wrong(var, want);

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

// An impure builtin: its value needs a download, the host or the store.
ValuePtr needs_outside(BuiltinCall& c) {
  auto v = std::make_shared<Value>();
  v->where = c.w;
  v->text = fmt::format("builtins.{} needs a download, the host or the store", c.name);
  v->name = "builtins." + c.name;
  v->list = c.args;
  return v;
}

ValuePtr throw_message(BuiltinCall& c) {
  ValuePtr m = c.arg(0);
  return c.error(fmt::format("{}: {}", c.name, m->is(ValueKind::string) ? m->text : "(a message tailor cannot tell)"));
}

ValuePtr import_file(BuiltinCall& c) { return c.import_value(c.arg(0)); }

// trace, seq, deepSeq: the second argument (the first is not shown nor forced).
ValuePtr second_argument(BuiltinCall& c) { return c.arg(1); }

ValuePtr type_of(BuiltinCall& c) {
  ValuePtr x = c.arg(0);
  if (!x->known()) return c.unknown_arg(x);
  static const std::map<ValueKind, const char*> t = {{ValueKind::null, "null"},     {ValueKind::boolean, "bool"},
                                                     {ValueKind::integer, "int"},   {ValueKind::floating, "float"},
                                                     {ValueKind::string, "string"}, {ValueKind::path, "path"},
                                                     {ValueKind::list, "list"},     {ValueKind::attrs, "set"},
                                                     {ValueKind::lambda, "lambda"}, {ValueKind::builtin, "lambda"}};
  return c.string(t.at(x->kind));
}

// isString, isAttrs, …: whether the argument is of one of \a Kinds.
template <ValueKind... Kinds>
ValuePtr is_kind(BuiltinCall& c) {
  ValuePtr x = c.arg(0);
  if (!x->known()) return c.unknown_arg(x);
  return c.boolean(((x->kind == Kinds) || ...));
}

ValuePtr head(BuiltinCall& c) {
  TAILOR_NEED(l, 0, ValueKind::list, "a list");
  if (l->list.empty()) return c.error("builtins.head of an empty list");
  return c.ev.force(l->list.front());
}

ValuePtr tail(BuiltinCall& c) {
  TAILOR_NEED(l, 0, ValueKind::list, "a list");
  if (l->list.empty()) return c.error("builtins.tail of an empty list");
  return c.list(std::vector<ThunkPtr>(l->list.begin() + 1, l->list.end()));
}

ValuePtr length(BuiltinCall& c) {
  TAILOR_NEED(l, 0, ValueKind::list, "a list");
  return c.integer(static_cast<int64_t>(l->list.size()));
}

ValuePtr elem_at(BuiltinCall& c) {
  TAILOR_NEED(l, 0, ValueKind::list, "a list");
  TAILOR_NEED(i, 1, ValueKind::integer, "an integer");
  if (i->integer < 0 || static_cast<size_t>(i->integer) >= l->list.size())
    return c.error(fmt::format("builtins.elemAt: index {} out of bounds of a list of {}", i->integer, l->list.size()));
  return c.ev.force(l->list[static_cast<size_t>(i->integer)]);
}

ValuePtr attr_names(BuiltinCall& c) {
  TAILOR_NEED(s, 0, ValueKind::attrs, "a set");
  if (s->partial) return c.names_unknown(s);
  std::vector<ThunkPtr> out;
  for (const auto& [k, a] : s->attrs) out.push_back(c.element_string(k, a.name_at.file ? a.name_at : c.w));
  return c.list(std::move(out));
}

ValuePtr attr_values(BuiltinCall& c) {
  TAILOR_NEED(s, 0, ValueKind::attrs, "a set");
  if (s->partial) return c.names_unknown(s);
  std::vector<ThunkPtr> out;
  for (const auto& [k, a] : s->attrs) out.push_back(a.value);
  return c.list(std::move(out));
}

// hasAttr and getAttr of a name a set may hold among names tailor cannot tell.
ValuePtr maybe_in(BuiltinCall& c, const ValuePtr& n, const ValuePtr& s) {
  return c.unknown(fmt::format("'{}' may be in a set of unknown names", n->text), n->text, s);
}

ValuePtr has_attr(BuiltinCall& c) {
  TAILOR_NEED(n, 0, ValueKind::string, "a string");
  TAILOR_NEED(s, 1, ValueKind::attrs, "a set");
  if (s->attrs.count(n->text)) return c.boolean(true);
  return s->partial ? maybe_in(c, n, s) : c.boolean(false);
}

ValuePtr get_attr(BuiltinCall& c) {
  TAILOR_NEED(n, 0, ValueKind::string, "a string");
  TAILOR_NEED(s, 1, ValueKind::attrs, "a set");
  if (auto it = s->attrs.find(n->text); it != s->attrs.end()) return c.ev.force(it->second.value);
  return s->partial ? maybe_in(c, n, s) : c.error(fmt::format("attribute '{}' missing", n->text));
}

ValuePtr to_string(BuiltinCall& c) {
  ValuePtr x = c.arg(0);
  if (x->is(ValueKind::path)) return c.unknown(fmt::format("the absolute path of {}", x->text), "builtins.toString", x);
  ValuePtr why;
  auto s = c.coerce(x, true, &why);
  if (!s) return why->known() ? why : c.unknown_arg(why);
  return c.string(std::move(*s));
}

ValuePtr string_length(BuiltinCall& c) {
  TAILOR_NEED(s, 0, ValueKind::string, "a string");
  return c.integer(static_cast<int64_t>(s->text.size()));
}

// baseNameOf's part of \a t, a path without a trailing slash; \a slash: its last one.
std::string base_name(const std::string& t, size_t slash) {
  return slash == std::string::npos ? t : t.substr(slash + 1);
}
std::string dir_name(const std::string& t, size_t slash) {
  return slash == std::string::npos ? "." : slash == 0 ? "/" : t.substr(0, slash);
}

// baseNameOf and dirOf: \a Part of a string or a path, of the same kind.
template <std::string (*Part)(const std::string&, size_t)>
ValuePtr path_part(BuiltinCall& c) {
  ValuePtr x = c.arg(0);
  if (!x->known()) return c.unknown_arg(x);
  if (!x->is(ValueKind::string) && !x->is(ValueKind::path)) return c.wrong(x, "a string or a path");
  std::string t = x->text;
  while (t.size() > 1 && t.back() == '/') t.pop_back();
  std::string out = Part(t, t.rfind('/'));
  c.ev.charge(out.size());
  auto v = c.make(x->kind);
  std::const_pointer_cast<Value>(v)->text = out;
  return v;
}

// The lists \a sub_of gives for the elements of \a l, end to end.
template <class SubList>
ValuePtr concat(BuiltinCall& c, const ValuePtr& l, SubList&& sub_of) {
  std::vector<ThunkPtr> out;
  for (const auto& x : l->list) {
    ValuePtr sub = sub_of(x);
    if (!sub->known()) return c.unknown_arg(sub);
    if (!sub->is(ValueKind::list)) return c.wrong(sub, "a list");
    if (out.size() + sub->list.size() > c.limits().max_list) return c.too_long("list");
    out.insert(out.end(), sub->list.begin(), sub->list.end());
  }
  return c.list(std::move(out));
}

ValuePtr concat_lists(BuiltinCall& c) {
  TAILOR_NEED(l, 0, ValueKind::list, "a list");
  return concat(c, l, [&](const ThunkPtr& x) { return c.ev.force(x); });
}

ValuePtr concat_map(BuiltinCall& c) {
  TAILOR_NEED(l, 1, ValueKind::list, "a list");
  return concat(c, l, [&](const ThunkPtr& x) { return c.apply(c.arg(0), x); });
}

ValuePtr map(BuiltinCall& c) {
  ValuePtr f = c.arg(0);
  TAILOR_NEED(l, 1, ValueKind::list, "a list");
  std::vector<ThunkPtr> out;
  Evaluator* ev = &c.ev;
  const Where w = c.w;
  for (const auto& x : l->list) out.push_back(c.lazy([ev, f, x, w] { return ev->apply(f, x, w); }));
  return c.list(std::move(out));
}

ValuePtr gen_list(BuiltinCall& c) {
  ValuePtr f = c.arg(0);
  TAILOR_NEED(n, 1, ValueKind::integer, "an integer");
  if (n->integer < 0 || static_cast<size_t>(n->integer) > c.limits().max_list) return c.too_long("list");
  std::vector<ThunkPtr> out;
  Evaluator* ev = &c.ev;
  const Where w = c.w;
  for (int64_t i = 0; i < n->integer; ++i) {
    auto iv = std::make_shared<Value>();
    iv->kind = ValueKind::integer;
    iv->integer = i;
    iv->where = w;
    ThunkPtr it = Evaluator::ready(iv);
    out.push_back(c.lazy([ev, f, it, w] { return ev->apply(f, it, w); }));
  }
  return c.list(std::move(out));
}

// The predicate \a f on \a x: a Boolean, or the unknown value or error the call returns.
ValuePtr test(BuiltinCall& c, const ValuePtr& f, const ThunkPtr& x) {
  ValuePtr keep = c.apply(f, x);
  if (!keep->known()) return c.unknown_arg(keep);
  if (!keep->is(ValueKind::boolean)) return c.wrong(keep, "a Boolean");
  return keep;
}

ValuePtr filter(BuiltinCall& c) {
  ValuePtr f = c.arg(0);
  TAILOR_NEED(l, 1, ValueKind::list, "a list");
  std::vector<ThunkPtr> out;
  for (const auto& x : l->list) {
    ValuePtr keep = test(c, f, x);
    if (!keep->is(ValueKind::boolean)) return keep;
    if (keep->boolean) out.push_back(x);
  }
  return c.list(std::move(out));
}

// any (\a Found true) and all (false): whether the predicate gives \a Found on some element.
template <bool Found>
ValuePtr quantifier(BuiltinCall& c) {
  ValuePtr f = c.arg(0);
  TAILOR_NEED(l, 1, ValueKind::list, "a list");
  for (const auto& x : l->list) {
    ValuePtr keep = test(c, f, x);
    if (!keep->is(ValueKind::boolean)) return keep;
    if (keep->boolean == Found) return c.boolean(Found);
  }
  return c.boolean(!Found);
}

ValuePtr foldl(BuiltinCall& c) {
  ValuePtr op = c.arg(0);
  TAILOR_NEED(l, 2, ValueKind::list, "a list");
  ValuePtr acc = c.arg(1);
  for (const auto& x : l->list) {
    ValuePtr partial = c.apply(op, Evaluator::ready(acc));
    acc = c.apply(partial, x);
    if (!acc->known()) return acc;
  }
  return acc;
}

ValuePtr elem(BuiltinCall& c) {
  ValuePtr x = c.arg(0);
  TAILOR_NEED(l, 1, ValueKind::list, "a list");
  bool unsure = false;
  for (const auto& y : l->list) {
    std::optional<bool> e;
    if (!c.equal(x, c.ev.force(y), e))
      unsure = true;
    else if (*e)
      return c.boolean(true);
  }
  if (unsure) return c.unknown("an element compared with an unknown value", "builtins.elem", x);
  return c.boolean(false);
}

ValuePtr less_than(BuiltinCall& c) {
  ValuePtr a = c.arg(0), b = c.arg(1);
  if (!a->known()) return c.unknown_arg(a);
  if (!b->known()) return c.unknown_arg(b);
  if (a->is(ValueKind::integer) && b->is(ValueKind::integer)) return c.boolean(a->integer < b->integer);
  if (a->is(ValueKind::string) && b->is(ValueKind::string)) return c.boolean(a->text < b->text);
  return c.error(fmt::format("cannot compare {} with {}", kind_name(a->kind), kind_name(b->kind)));
}

ValuePtr concat_strings_sep(BuiltinCall& c) {
  TAILOR_NEED(sep, 0, ValueKind::string, "a string");
  TAILOR_NEED(l, 1, ValueKind::list, "a list");
  std::string out;
  for (size_t i = 0; i < l->list.size(); ++i) {
    ValuePtr why;
    auto s = c.coerce(c.ev.force(l->list[i]), false, &why);
    if (!s) return why->known() ? why : c.unknown_arg(why);
    if (i) out += sep->text;
    out += *s;
    if (out.size() > c.limits().max_string) return c.too_long("string");
  }
  return c.string(std::move(out));
}

// The strings of the list \a l into \a out; else the unknown value or error the call returns.
ValuePtr strings_of(BuiltinCall& c, const ValuePtr& l, std::vector<std::string>& out) {
  for (const auto& x : l->list) {
    ValuePtr v = c.ev.force(x);
    if (!v->known()) return c.unknown_arg(v);
    if (!v->is(ValueKind::string)) return c.wrong(v, "a string");
    out.push_back(v->text);
  }
  return nullptr;
}

// Nix's rule: at each position the first pattern that matches is replaced;
// an empty pattern matches at every position, and the byte after it is kept.
ValuePtr replace_strings(BuiltinCall& c) {
  TAILOR_NEED(from, 0, ValueKind::list, "a list");
  TAILOR_NEED(to, 1, ValueKind::list, "a list");
  TAILOR_NEED(s, 2, ValueKind::string, "a string");
  if (from->list.size() != to->list.size()) return c.error("builtins.replaceStrings: lists of different lengths");
  std::vector<std::string> f, t;
  if (ValuePtr bad = strings_of(c, from, f)) return bad;
  if (ValuePtr bad = strings_of(c, to, t)) return bad;
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
    if (out.size() > c.limits().max_string) return c.too_long("string");
  }
  return c.string(std::move(out));
}

ValuePtr substring(BuiltinCall& c) {
  TAILOR_NEED(start, 0, ValueKind::integer, "an integer");
  TAILOR_NEED(len, 1, ValueKind::integer, "an integer");
  TAILOR_NEED(s, 2, ValueKind::string, "a string");
  if (start->integer < 0) return c.error("builtins.substring: negative start position");
  size_t b = std::min<size_t>(static_cast<size_t>(start->integer), s->text.size());
  size_t n = len->integer < 0 ? std::string::npos : static_cast<size_t>(len->integer);
  return c.string(s->text.substr(b, n));
}

ValuePtr match(BuiltinCall& c) {
  TAILOR_NEED(re, 0, ValueKind::string, "a string");
  TAILOR_NEED(s, 1, ValueKind::string, "a string");
  if (re->text.size() > kMaxPattern || s->text.size() > kMaxMatchInput)
    return c.unknown("a regular expression or input longer than tailor matches", "builtins.match", s);
  try {
    std::regex r(re->text, kMatchFlags);
    std::smatch m;
    if (!std::regex_match(s->text, m, r)) return c.make(ValueKind::null);
    std::vector<ThunkPtr> groups;
    for (size_t i = 1; i < m.size(); ++i)
      groups.push_back(m[i].matched ? c.element_string(m[i].str(), c.w) : Evaluator::ready(c.make(ValueKind::null)));
    return c.list(std::move(groups));
  } catch (const std::exception& e) {
    return c.error(fmt::format("builtins.match: invalid regular expression '{}'", re->text));
  }
}

ValuePtr list_to_attrs(BuiltinCall& c) {
  TAILOR_NEED(l, 0, ValueKind::list, "a list");
  auto out = c.empty_set();
  for (const auto& x : l->list) {
    ValuePtr item = c.ev.force(x);
    if (!item->known()) return c.unknown_arg(item);
    ValuePtr n = c.ev.get(item, "name");
    if (!n || !item->attrs.count("value"))
      return c.error("builtins.listToAttrs: an element without 'name' and 'value'");
    if (!n->known()) {
      out->partial = true;
      continue;
    }
    if (!n->is(ValueKind::string)) return c.wrong(n, "a string");
    out->attrs.emplace(n->text, Attr{item->attrs.at("value").value, n->where});  // the first one wins
  }
  return out;
}

ValuePtr remove_attrs(BuiltinCall& c) {
  TAILOR_NEED(s, 0, ValueKind::attrs, "a set");
  TAILOR_NEED(l, 1, ValueKind::list, "a list");
  auto out = c.copy_set(s);
  for (const auto& x : l->list) {
    ValuePtr n = c.ev.force(x);
    if (!n->known()) return c.unknown_arg(n);
    if (!n->is(ValueKind::string)) return c.wrong(n, "a string");
    out->attrs.erase(n->text);
  }
  return out;
}

ValuePtr intersect_attrs(BuiltinCall& c) {
  TAILOR_NEED(a, 0, ValueKind::attrs, "a set");
  TAILOR_NEED(b, 1, ValueKind::attrs, "a set");
  if (a->partial || b->partial) return c.names_unknown(a);
  auto out = c.empty_set();
  for (const auto& [k, v] : b->attrs)
    if (a->attrs.count(k)) out->attrs.emplace(k, v);
  return out;
}

ValuePtr cat_attrs(BuiltinCall& c) {
  TAILOR_NEED(n, 0, ValueKind::string, "a string");
  TAILOR_NEED(l, 1, ValueKind::list, "a list");
  std::vector<ThunkPtr> out;
  for (const auto& x : l->list) {
    ValuePtr item = c.ev.force(x);
    if (!item->known()) return c.unknown_arg(item);
    if (!item->is(ValueKind::attrs)) return c.wrong(item, "a set");
    if (auto it = item->attrs.find(n->text); it != item->attrs.end())
      out.push_back(it->second.value);
    else if (item->partial)
      return c.names_unknown(item);
  }
  return c.list(std::move(out));
}

ValuePtr map_attrs(BuiltinCall& c) {
  ValuePtr f = c.arg(0);
  TAILOR_NEED(s, 1, ValueKind::attrs, "a set");
  auto out = c.copy_set(s);
  Evaluator* ev = &c.ev;
  const Where w = c.w;
  for (auto& [k, a] : out->attrs) {
    ThunkPtr kt = c.element_string(k, a.name_at), vt = a.value;
    a.value = c.lazy([ev, f, kt, vt, w] { return ev->apply(ev->apply(f, kt, w), vt, w); });
  }
  return out;
}

#undef TAILOR_NEED

struct Builtin {
  std::string_view name;
  size_t arity;  ///< arguments taken before it runs
  ValuePtr (*run)(BuiltinCall&);
};

// clang-format off
constexpr Builtin kBuiltins[] = {
    {"abort", 1, throw_message},
    {"all", 2, quantifier<false>},
    {"any", 2, quantifier<true>},
    {"attrNames", 1, attr_names},
    {"attrValues", 1, attr_values},
    {"baseNameOf", 1, path_part<base_name>},
    {"catAttrs", 2, cat_attrs},
    {"concatLists", 1, concat_lists},
    {"concatMap", 2, concat_map},
    {"concatStringsSep", 2, concat_strings_sep},
    {"deepSeq", 2, second_argument},
    {"dirOf", 1, path_part<dir_name>},
    {"elem", 2, elem},
    {"elemAt", 2, elem_at},
    {"filter", 2, filter},
    {"foldl'", 3, foldl},
    {"genList", 2, gen_list},
    {"getAttr", 2, get_attr},
    {"hasAttr", 2, has_attr},
    {"head", 1, head},
    {"import", 1, import_file},
    {"intersectAttrs", 2, intersect_attrs},
    {"isAttrs", 1, is_kind<ValueKind::attrs>},
    {"isBool", 1, is_kind<ValueKind::boolean>},
    {"isFloat", 1, is_kind<ValueKind::floating>},
    {"isFunction", 1, is_kind<ValueKind::lambda, ValueKind::builtin>},
    {"isInt", 1, is_kind<ValueKind::integer>},
    {"isList", 1, is_kind<ValueKind::list>},
    {"isNull", 1, is_kind<ValueKind::null>},
    {"isPath", 1, is_kind<ValueKind::path>},
    {"isString", 1, is_kind<ValueKind::string>},
    {"length", 1, length},
    {"lessThan", 2, less_than},
    {"listToAttrs", 1, list_to_attrs},
    {"map", 2, map},
    {"mapAttrs", 2, map_attrs},
    {"match", 2, match},
    {"removeAttrs", 2, remove_attrs},
    {"replaceStrings", 3, replace_strings},
    {"seq", 2, second_argument},
    {"stringLength", 1, string_length},
    {"substring", 3, substring},
    {"tail", 1, tail},
    {"throw", 1, throw_message},
    {"toString", 1, to_string},
    {"trace", 2, second_argument},
    {"typeOf", 1, type_of},
    // Their value needs a download, the host or the store.
    {"derivation", 1, needs_outside},
    {"fetchGit", 1, needs_outside},
    {"fetchMercurial", 1, needs_outside},
    {"fetchTarball", 1, needs_outside},
    {"fetchTree", 1, needs_outside},
    {"fetchurl", 1, needs_outside},
    {"filterSource", 2, needs_outside},
    {"findFile", 2, needs_outside},
    {"fromJSON", 1, needs_outside},
    {"getEnv", 1, needs_outside},
    {"getFlake", 1, needs_outside},
    {"hashString", 2, needs_outside},
    {"path", 1, needs_outside},
    {"pathExists", 1, needs_outside},
    {"placeholder", 1, needs_outside},
    {"readDir", 1, needs_outside},
    {"readFile", 1, needs_outside},
    {"storePath", 1, needs_outside},
    {"toFile", 2, needs_outside},
    {"toJSON", 1, needs_outside},
};
// clang-format on

// The row named \a name; null for a builtin tailor does not know.
const Builtin* find_builtin(std::string_view name) {
  static const FlatIndex index = [] {
    FlatIndex ix;
    for (size_t i = 0; i < std::size(kBuiltins); ++i)
      ix.insert(kBuiltins[i].name, i, [](size_t j) { return kBuiltins[j].name; });
    return ix;
  }();
  size_t i = index.find(name, [](size_t j) { return kBuiltins[j].name; });
  return i == FlatIndex::npos ? nullptr : &kBuiltins[i];
}

}  // namespace

const std::vector<std::string>& builtin_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Builtin& b : kBuiltins) v.emplace_back(b.name);
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
  const Builtin* b = find_builtin(fn->text);
  if (!b) {
    auto v = std::make_shared<Value>();
    v->where = w;
    v->text = fmt::format("builtins.{} is not evaluated by tailor", fn->text);
    v->name = "builtins." + fn->text;
    v->list = fn->list;
    return v;
  }
  if (fn->list.size() < b->arity) return fn;
  BuiltinCall call{*this, fn->text, fn->list, w};
  return b->run(call);
}

}  // namespace tailor::nix
