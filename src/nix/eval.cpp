#include "nix/eval.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

namespace tailor::nix {

namespace fs = std::filesystem;

struct Evaluator::File {
  std::string name;  // tree-relative; Where::file points here
  std::string text;
  ParseResult parsed;
  ValuePtr value;
  bool busy = false;
};

namespace {

// Names Nix binds at the top level besides `builtins`.
bool top_level_builtin(std::string_view n) {
  static const char* const names[] = {"import", "map",    "toString",    "throw",        "abort",      "baseNameOf",
                                      "dirOf",  "isNull", "removeAttrs", "fetchTarball", "derivation", "placeholder"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* x) { return n == x; });
}

// Cuts a message to one line of sane length.
std::string brief(std::string s) {
  if (s.size() > 200) s = s.substr(0, 200) + "…";
  return s;
}

}  // namespace

Evaluator::Evaluator(std::string root, Reader read, EvalLimits limits)
    : root_(std::move(root)), read_(std::move(read)), limits_(limits) {}

Evaluator::Evaluator(std::string root, EvalLimits limits)
    : Evaluator(
          root,
          [root, limits](const std::string& rel) -> std::optional<std::string> {
            std::error_code ec;
            fs::path p = fs::path(root) / rel;
            if (!fs::is_regular_file(p, ec)) return std::nullopt;
            if (fs::file_size(p, ec) > limits.max_file_bytes) return std::nullopt;
            std::ifstream in(p, std::ios::binary);
            std::ostringstream ss;
            ss << in.rdbuf();
            return ss.str();
          },
          limits) {}

// Scopes and the thunks in them refer to each other (a rec set's values see
// the set): the evaluator owns every scope and breaks those cycles when it goes.
// Scopes hold thunks whose values and closures hold the scopes again (rec, let,
// a lambda's closure, `map f xs`): shared_ptr cannot free such cycles, so the
// evaluator cuts every link it made when it goes.
Evaluator::~Evaluator() {
  for (const auto& w : thunks_)
    if (ThunkPtr t = w.lock()) {
      t->value.reset();
      t->env.reset();
      t->lazy = nullptr;
      t->from.reset();
    }
  for (const auto& e : envs_) {
    e->vars.clear();
    e->with.reset();
    e->parent.reset();
  }
}

ThunkPtr Evaluator::new_thunk() {
  charge(sizeof(Thunk) + sizeof(std::weak_ptr<Thunk>));
  auto t = std::make_shared<Thunk>();
  thunks_.push_back(t);
  return t;
}

EnvPtr Evaluator::new_env() {
  charge(sizeof(Env) + sizeof(EnvPtr));
  auto e = std::make_shared<Env>();
  envs_.push_back(e);
  return e;
}

ThunkPtr Evaluator::ready(ValuePtr v) {
  auto t = std::make_shared<Thunk>();
  t->value = std::move(v);
  return t;
}

ThunkPtr Evaluator::thunk(const Expr* e, const EnvPtr& env) {
  auto t = new_thunk();
  t->expr = e;
  t->env = env;
  return t;
}

Where Evaluator::at(const Expr* e, const EnvPtr& env) const { return Where{env ? env->file : nullptr, e->span}; }

ValuePtr Evaluator::make(ValueKind k, const Where& at) {
  charge(sizeof(Value));
  auto v = std::make_shared<Value>();
  v->kind = k;
  v->where = at;
  return v;
}

ValuePtr Evaluator::unknown(const Where& at, std::string why, std::string name, ValuePtr base) {
  auto v = std::make_shared<Value>();
  v->where = at;
  v->text = brief(std::move(why));
  v->name = std::move(name);
  v->base = std::move(base);
  return v;
}

ValuePtr Evaluator::error(const Where& at, std::string what) {
  return unknown(at, fmt::format("{}: {}", location(at), brief(std::move(what))));
}

const Diagnostic* Evaluator::syntax_error(const std::string& rel) const {
  auto it = files_.find(rel);
  return it == files_.end() || !it->second->parsed.error ? nullptr : &*it->second->parsed.error;
}

const Expr* Evaluator::syntax(const std::string& rel) const {
  auto it = files_.find(rel);
  return it == files_.end() ? nullptr : it->second->parsed.expr.get();
}

ValuePtr Evaluator::eval_in_file(const Expr* e, const std::string& rel) {
  auto it = files_.find(rel);
  if (it == files_.end()) return unknown({}, fmt::format("{} was not read", rel));
  auto env = new_env();
  env->file = &it->second->name;
  return eval(e, env);
}

std::vector<std::pair<std::string, ValuePtr>> Evaluator::files_evaluated() const {
  std::vector<std::pair<std::string, ValuePtr>> out;
  for (const auto& [name, f] : files_)
    if (f->value && !f->busy) out.emplace_back(name, f->value);
  return out;
}

ValuePtr Evaluator::file(const std::string& rel) {
  auto it = files_.find(rel);
  if (it == files_.end()) {
    if (files_.size() >= limits_.max_files) return unknown({}, "too many files imported");
    std::optional<std::string> text = read_(rel);
    auto f = std::make_unique<File>();
    f->name = rel;
    if (!text) {
      f->value = unknown({}, fmt::format("{}: no such file in the tree", rel));
    } else if (text->size() > limits_.max_file_bytes) {
      f->value = unknown({}, fmt::format("{}: larger than {} bytes, not read", rel, limits_.max_file_bytes));
    } else {
      f->text = std::move(*text);
      f->parsed = parse(rel, f->text, symbols_);
      if (f->parsed.error)
        f->value = unknown({&f->name, {}}, fmt::format("{}: does not parse: {}", rel, f->parsed.error->message));
    }
    it = files_.emplace(rel, std::move(f)).first;
  }
  File& f = *it->second;
  if (f.value) return f.value;
  if (f.busy) return unknown({&f.name, {}}, fmt::format("{} imports itself", f.name));
  f.busy = true;
  auto env = new_env();
  env->file = &f.name;
  ValuePtr v = eval(f.parsed.expr.get(), env);
  f.busy = false;
  // An evaluation cut short by the step budget is not cached: a later one may finish.
  if (steps_ <= limits_.max_steps && !out_of_memory()) f.value = v;
  return v;
}

ValuePtr Evaluator::force(const ThunkPtr& t) {
  if (!t) return unknown({}, "no value");
  if (t->value) return t->value;
  if (t->busy) {
    Where w = t->expr ? at(t->expr, t->env) : t->attr_at;
    return unknown(w, fmt::format("{}: infinite recursion", location(w)));
  }
  t->busy = true;
  ValuePtr v;
  if (t->lazy) {
    v = t->lazy();
    t->lazy = nullptr;
  } else if (t->from) {
    ValuePtr src = force(t->from);
    const Where& w = t->attr_at;
    if (src->is(ValueKind::attrs)) {
      auto it = src->attrs.find(t->attr);
      v = it != src->attrs.end() ? force(it->second.value)
          : src->partial ? unknown(w, fmt::format("'{}' may be in a set of unknown names", t->attr), t->attr, src)
                         : error(w, fmt::format("attribute '{}' missing", t->attr));
    } else if (!src->known()) {
      v = unknown(w, src->text, (src->name.empty() ? "?" : src->name) + "." + t->attr, src);
    } else {
      v = error(w, fmt::format("inherit from {}, not a set", kind_name(src->kind)));
    }
    t->from.reset();
  } else {
    v = eval(t->expr, t->env);
  }
  t->busy = false;
  // Limits make a value unknown for this run only; an exhausted budget stays exhausted.
  t->value = v;
  t->env.reset();
  return v;
}

ValuePtr Evaluator::get(const ValuePtr& set, std::string_view name) {
  if (!set || !set->is(ValueKind::attrs)) return nullptr;
  auto it = set->attrs.find(name);
  return it == set->attrs.end() ? nullptr : force(it->second.value);
}

ValuePtr Evaluator::over_budget(const Where& w) {
  if (steps_ > limits_.max_steps) return unknown(w, "evaluation step limit reached");
  if (out_of_memory())
    return unknown(w, fmt::format("evaluation memory limit reached ({} MiB of values)", limits_.max_bytes >> 20));
  return nullptr;
}

ValuePtr Evaluator::eval(const Expr* e, const EnvPtr& env) {
  if (!e) return unknown({}, "no expression");
  ++steps_;
  if (ValuePtr over = over_budget(at(e, env))) return over;
  if (depth_ >= limits_.max_depth) return unknown(at(e, env), "evaluation nested too deeply");
  ++depth_;
  ValuePtr v = eval_inner(e, env);
  --depth_;
  return v;
}

ValuePtr Evaluator::global(const std::string& name, const Where& w) {
  if (name == "true" || name == "false") {
    auto v = make(ValueKind::boolean, w);
    std::const_pointer_cast<Value>(v)->boolean = name == "true";
    return v;
  }
  if (name == "null") return make(ValueKind::null, w);
  if (name == "builtins") {
    if (!builtins_) {
      auto b = std::make_shared<Value>();
      b->kind = ValueKind::attrs;
      for (const auto& n : builtin_names()) {
        auto f = std::make_shared<Value>();
        f->kind = ValueKind::builtin;
        f->text = n;
        b->attrs[n] = Attr{ready(f), {}};
      }
      for (const char* n : {"currentSystem", "currentTime", "nixPath", "storeDir", "nixVersion", "langVersion"})
        b->attrs[n] = Attr{
            ready(unknown({}, fmt::format("builtins.{} depends on the host", n), fmt::format("builtins.{}", n))), {}};
      b->partial = true;  // builtins tailor does not evaluate are unknown, not missing
      builtins_ = b;
    }
    return builtins_;
  }
  if (top_level_builtin(name)) {
    auto f = make(ValueKind::builtin, w);
    std::const_pointer_cast<Value>(f)->text = name;
    return f;
  }
  return error(w, fmt::format("undefined variable '{}'", name));
}

ValuePtr Evaluator::lookup(const std::string& name, const EnvPtr& env, const Where& w) {
  for (Env* e = env.get(); e; e = e->parent.get())
    if (auto it = e->vars.find(name); it != e->vars.end()) return force(it->second);
  // Not bound lexically: the innermost `with` that has it.
  for (Env* e = env.get(); e; e = e->parent.get()) {
    if (!e->with) continue;
    ValuePtr set = force(e->with);
    if (!set->known()) return unknown(w, fmt::format("'{}' may come from an unknown 'with' set", name), name, set);
    if (set->is(ValueKind::attrs)) {
      if (auto it = set->attrs.find(name); it != set->attrs.end()) return force(it->second.value);
      if (set->partial)
        return unknown(w, fmt::format("'{}' may come from a 'with' set of unknown names", name), name, set);
    }
  }
  return global(name, w);
}

std::optional<std::string> Evaluator::attr_name(const AttrName& n, const EnvPtr& env, ValuePtr* why, Where* from) {
  if (!n.expr) return n.name;
  ValuePtr v = eval(n.expr.get(), env);
  if (from) *from = v->where;
  if (v->is(ValueKind::string)) return v->text;
  if (v->is(ValueKind::null)) return std::string("\0null", 5);  // `${null} = …` binds nothing
  *why = v->known()
             ? error(Where{env->file, n.span}, fmt::format("an attribute name is {}, not a string", kind_name(v->kind)))
             : v;
  return std::nullopt;
}

ValuePtr Evaluator::make_attrs(const Attrs* a, const EnvPtr& env, EnvPtr* scope) {
  auto set = std::make_shared<Value>();
  set->kind = ValueKind::attrs;
  set->where = at(a, env);
  // rec sets and let: the values see the set's own names.
  const bool self = a->recursive || a->kind == ExprKind::let || a->kind == ExprKind::legacy_let;
  EnvPtr inner = env;
  if (self) {
    inner = new_env();
    inner->parent = env;
    inner->file = env->file;
  }
  // `a.b.c = v;` makes nested sets; a later `a.d = w;` adds to the same one.
  std::map<const void*, std::shared_ptr<Value>> nested;
  for (const Binding& b : a->bindings) {
    if (b.is_inherit) {
      for (const AttrName& n : b.path) {
        if (n.expr) continue;  // Nix refuses dynamic inherits
        ThunkPtr t;
        if (b.from) {
          // inherit (from) n; is from.n, selected when used; in let and rec, from sees their names.
          t = new_thunk();
          t->from = thunk(b.from.get(), inner);
          t->attr = n.name;
          t->attr_at = Where{env->file, n.span};
        } else {
          // inherit n; shares the scope's own thunk (never the set's: that would be itself).
          for (Env* s = env.get(); s && !t; s = s->parent.get())
            if (auto it = s->vars.find(n.name); it != s->vars.end()) t = it->second;
          if (!t) t = ready(lookup(n.name, env, Where{env->file, n.span}));
        }
        set->attrs[n.name] = Attr{t, Where{env->file, n.span}};
        if (self) inner->vars[n.name] = t;
      }
      continue;
    }
    // Walk the path, making nested sets as needed.
    std::shared_ptr<Value> cur = set;
    bool skip = false;
    for (size_t i = 0; i < b.path.size(); ++i) {
      ValuePtr why;
      std::optional<std::string> name = attr_name(b.path[i], self && i == 0 ? env : env, &why);
      if (!name) {
        cur->partial = true;
        skip = true;
        break;
      }
      if (name->size() == 5 && (*name)[0] == '\0') {
        skip = true;
        break;
      }
      Where name_at{env->file, b.path[i].span};
      if (i + 1 == b.path.size()) {
        ThunkPtr t = thunk(b.value.get(), inner);
        auto [it, fresh] = cur->attrs.emplace(*name, Attr{t, name_at});
        if (!fresh) {
          // `a = { x = 1; }; a.y = 2;` merges two literal sets; anything else Nix refuses.
          it->second.value = ready(error(name_at, fmt::format("attribute '{}' already defined", *name)));
        }
        if (self && cur == set) inner->vars[*name] = cur->attrs[*name].value;
      } else {
        auto it = cur->attrs.find(*name);
        if (it == cur->attrs.end()) {
          auto sub = std::make_shared<Value>();
          sub->kind = ValueKind::attrs;
          sub->where = name_at;
          nested[sub.get()] = sub;
          it = cur->attrs.emplace(*name, Attr{ready(sub), name_at}).first;
          if (self && cur == set) inner->vars[*name] = it->second.value;
        } else if (!nested.count(it->second.value->value.get())) {
          // A path into a set written whole (`a = { … }; a.b = …;`): merge into it.
          ValuePtr existing = force(it->second.value);
          if (!existing->is(ValueKind::attrs)) {
            it->second.value = ready(error(name_at, fmt::format("attribute '{}' already defined", *name)));
            skip = true;
            break;
          }
          charge(copy_bytes(*existing));
          auto sub = std::make_shared<Value>(*existing);
          nested[sub.get()] = sub;
          it->second.value = ready(sub);
          if (self && cur == set) inner->vars[*name] = it->second.value;
        }
        cur = nested.at(it->second.value->value.get());
      }
    }
    (void)skip;
  }
  if (scope) *scope = inner;
  return set;
}

ValuePtr Evaluator::select(const Select* s, const EnvPtr& env) {
  ValuePtr cur = eval(s->subject.get(), env);
  for (const AttrName& n : s->path) {
    ValuePtr why;
    Where from{env->file, n.span};
    std::optional<std::string> name = attr_name(n, env, &why, &from);
    if (!name) return why;
    Where w{env->file, n.span};
    // What `pkgs.${table.attr}` selects is unknown; the name it selects is a
    // fact, written where the dynamic name's string is.
    if (!cur->known()) return unknown(from, cur->text, (cur->name.empty() ? "?" : cur->name) + "." + *name, cur);
    if (cur->is(ValueKind::attrs)) {
      if (auto it = cur->attrs.find(*name); it != cur->attrs.end()) {
        cur = force(it->second.value);
        continue;
      }
      if (cur->partial && !s->fallback)
        return unknown(w, fmt::format("'{}' may be in a set of unknown names", *name), *name, cur);
    }
    if (s->fallback) return eval(s->fallback.get(), env);
    if (cur->is(ValueKind::attrs)) return error(w, fmt::format("attribute '{}' missing", *name));
    return error(w, fmt::format("'{}' selected from {}, not a set", *name, kind_name(cur->kind)));
  }
  return cur;
}

std::optional<std::string> Evaluator::coerce(const ValuePtr& v, bool to_string_rules, ValuePtr* why) {
  switch (v->kind) {
    case ValueKind::string: return v->text;
    case ValueKind::unknown: *why = v; return std::nullopt;
    case ValueKind::path:
      // Interpolating a path copies it to the store: a store path tailor does not compute.
      *why = unknown(v->where, fmt::format("the store path of {}", v->text), "path", v);
      return std::nullopt;
    default: break;
  }
  if (to_string_rules) {
    switch (v->kind) {
      case ValueKind::integer: return std::to_string(v->integer);
      case ValueKind::boolean: return v->boolean ? "1" : "";
      case ValueKind::null: return "";
      case ValueKind::list: {
        std::string out;
        for (size_t i = 0; i < v->list.size(); ++i) {
          auto s = coerce(force(v->list[i]), true, why);
          if (!s) return std::nullopt;
          if (i) out += ' ';
          out += *s;
        }
        return out;
      }
      default: break;
    }
  }
  *why = error(v->where, fmt::format("cannot coerce {} to a string", kind_name(v->kind)));
  return std::nullopt;
}

ValuePtr Evaluator::string_of(const String* s, const EnvPtr& env) {
  Where w = at(s, env);
  // The pieces; an indented string's common indentation is then stripped as Nix does.
  std::vector<std::pair<std::string, bool>> pieces;  // text, literal with indentation
  for (size_t i = 0; i < s->parts.size(); ++i) {
    const StringPart& p = s->parts[i];
    if (!p.expr) {
      pieces.emplace_back(p.text, s->kind == ExprKind::ind_string && p.has_indentation);
      continue;
    }
    ValuePtr v = eval(p.expr.get(), env);
    ValuePtr why;
    auto text = coerce(v, false, &why);
    if (!text) {
      if (why->known()) return why;
      auto u = std::const_pointer_cast<Value>(unknown(w, why->text, why->name.empty() ? "string" : why->name, why));
      // "${root}/.flox/pkgs/${name}.nix": an unknown root and a known rest, which
      // says which file of that root is meant.
      if (pieces.empty() && s->kind == ExprKind::string) {
        std::string rest;
        for (size_t j = i + 1; j < s->parts.size(); ++j) {
          if (!s->parts[j].expr) {
            rest += s->parts[j].text;
            continue;
          }
          ValuePtr ignored;
          auto t = coerce(eval(s->parts[j].expr.get(), env), false, &ignored);
          if (!t) return u;
          rest += *t;
        }
        u->suffix = std::move(rest);
      }
      return u;
    }
    pieces.emplace_back(std::move(*text), false);
  }
  std::string out;
  if (s->kind == ExprKind::ind_string) {
    size_t min_indent = SIZE_MAX, cur = 0;
    bool line_start = true;
    for (const auto& [t, lit] : pieces) {
      if (!lit) {
        if (line_start) line_start = false, min_indent = std::min(min_indent, cur);
        continue;
      }
      for (char c : t) {
        if (line_start) {
          if (c == ' ')
            ++cur;
          else if (c == '\n')
            cur = 0;
          else
            line_start = false, min_indent = std::min(min_indent, cur);
        } else if (c == '\n') {
          line_start = true, cur = 0;
        }
      }
    }
    if (min_indent == SIZE_MAX) min_indent = 0;
    line_start = true;
    size_t dropped = 0;
    for (const auto& [t, lit] : pieces) {
      if (!lit) {
        line_start = false;
        out += t;
        continue;
      }
      for (char c : t) {
        if (line_start && c == ' ' && dropped < min_indent) {
          ++dropped;
          continue;
        }
        if (c == '\n')
          line_start = true, dropped = 0;
        else
          line_start = false;
        out += c;
      }
    }
    size_t nl = out.find_last_of('\n');
    if (nl != std::string::npos && out.find_first_not_of(' ', nl + 1) == std::string::npos) out.resize(nl + 1);
  } else {
    for (const auto& [t, lit] : pieces) out += t;
  }
  if (out.size() > limits_.max_string) return unknown(w, "a string longer than the evaluator's limit");
  charge(out.size());
  auto v = make(ValueKind::string, w);
  std::const_pointer_cast<Value>(v)->text = std::move(out);
  return v;
}

ValuePtr Evaluator::path_of(const Path* p, const EnvPtr& env) {
  Where w = at(p, env);
  if (p->is_home) return unknown(w, "a path in the home directory", p->first);
  std::string text = p->first;
  for (const StringPart& part : p->parts) {
    if (!part.expr) {
      text += part.text;
      continue;
    }
    ValuePtr why;
    auto s = coerce(eval(part.expr.get(), env), false, &why);
    if (!s) return unknown(w, why->text, "path", why);
    text += *s;
  }
  if (!text.empty() && text[0] == '/') {
    auto v = make(ValueKind::path, w);
    std::const_pointer_cast<Value>(v)->text = fs::path(text).lexically_normal().string();
    return v;
  }
  fs::path dir = env->file ? fs::path(*env->file).parent_path() : fs::path();
  std::string rel = (dir / text).lexically_normal().generic_string();
  while (rel.size() > 1 && rel.back() == '/') rel.pop_back();
  if (rel.empty()) rel = ".";
  auto v = make(ValueKind::path, w);
  std::const_pointer_cast<Value>(v)->text = rel;
  return v;
}

ValuePtr Evaluator::import_value(const ValuePtr& path, const Where& w) {
  if (!path->known()) return unknown(w, fmt::format("an import of {}", path->text), "import", path);
  if (!path->is(ValueKind::path)) {
    if (path->is(ValueKind::string))
      return unknown(w, fmt::format("an import of the string \"{}\"", brief(path->text)), "import", path);
    return error(w, fmt::format("import of {}", kind_name(path->kind)));
  }
  const std::string& rel = path->text;
  if (rel.starts_with("/") || rel.starts_with(".."))
    return unknown(w, fmt::format("an import of {}, outside the tree", rel), "import", path);
  if (auto f = read_(rel)) {
    (void)f;
    return file(rel);
  }
  std::string dflt = rel == "." ? "default.nix" : rel + "/default.nix";
  if (read_(dflt)) return file(dflt);
  return error(w, fmt::format("import of {}, which the tree does not have", rel));
}

ValuePtr Evaluator::apply(const ValuePtr& fn, const ThunkPtr& arg, const Where& w) {
  ++steps_;
  if (ValuePtr over = over_budget(w)) return over;
  if (depth_ >= limits_.max_depth) return unknown(w, "evaluation nested too deeply");
  ++depth_;
  struct Down {
    int& d;
    ~Down() { --d; }
  } down{depth_};
  if (fn->is(ValueKind::lambda)) {
    const Lambda* l = fn->lambda;
    auto env = new_env();
    env->parent = fn->env;
    env->file = fn->env ? fn->env->file : nullptr;
    if (!l->arg.empty()) env->vars[l->arg] = arg;
    if (l->has_formals) {
      ValuePtr a = force(arg);
      if (a->is(ValueKind::attrs)) {
        if (!l->ellipsis)
          for (const auto& entry : a->attrs) {
            const auto& name = entry.first;  // a named reference: clang 14 cannot capture a structured binding
            if (std::none_of(l->formals.begin(), l->formals.end(), [&](const Formal& f) { return f.name == name; }))
              return error(w, fmt::format("the function at {} called with unexpected argument '{}'",
                                          location(Where{env->file, l->span}), name));
          }
        for (const Formal& f : l->formals) {
          if (auto it = a->attrs.find(f.name); it != a->attrs.end())
            env->vars[f.name] = it->second.value;
          else if (f.fallback)
            env->vars[f.name] = thunk(f.fallback.get(), env);
          else if (a->partial)
            env->vars[f.name] =
                ready(unknown(w, fmt::format("argument '{}' may be in a set of unknown names", f.name), f.name, a));
          else
            env->vars[f.name] = ready(error(w, fmt::format("the function at {} called without required argument '{}'",
                                                           location(Where{env->file, l->span}), f.name)));
        }
      } else if (!a->known()) {
        for (const Formal& f : l->formals)
          env->vars[f.name] = ready(unknown(w, a->text, (a->name.empty() ? "?" : a->name) + "." + f.name, a));
      } else {
        return error(w, fmt::format("a function expecting a set called with {}", kind_name(a->kind)));
      }
    }
    return eval(l->body.get(), env);
  }
  if (fn->is(ValueKind::builtin)) {
    charge(copy_bytes(*fn));
    auto partial = std::make_shared<Value>(*fn);
    partial->where = w;
    partial->list.push_back(arg);
    return call_builtin(partial, w);
  }
  if (!fn->known()) {
    auto v = std::make_shared<Value>();
    v->where = w;
    v->text = fn->text;
    v->name = fn->name;
    v->base = fn;
    v->list.push_back(arg);
    return v;
  }
  return error(w, fmt::format("attempt to call {}", kind_name(fn->kind)));
}

bool Evaluator::equal(const ValuePtr& a, const ValuePtr& b, std::optional<bool>& out, int depth) {
  if (!a->known() || !b->known() || depth > 32) return false;
  auto num = [](const Value& v) { return v.is(ValueKind::integer) ? static_cast<double>(v.integer) : v.floating; };
  const bool an = a->is(ValueKind::integer) || a->is(ValueKind::floating);
  const bool bn = b->is(ValueKind::integer) || b->is(ValueKind::floating);
  if (an && bn)
    return out =
               (a->is(ValueKind::integer) && b->is(ValueKind::integer)) ? a->integer == b->integer : num(*a) == num(*b),
           true;
  if (a->kind != b->kind) return out = false, true;
  switch (a->kind) {
    case ValueKind::null: return out = true, true;
    case ValueKind::boolean: return out = a->boolean == b->boolean, true;
    case ValueKind::string:
    case ValueKind::path: return out = a->text == b->text, true;
    case ValueKind::list:
      if (a->list.size() != b->list.size()) return out = false, true;
      for (size_t i = 0; i < a->list.size(); ++i) {
        std::optional<bool> e;
        if (!equal(force(a->list[i]), force(b->list[i]), e, depth + 1)) return false;
        if (!*e) return out = false, true;
      }
      return out = true, true;
    case ValueKind::attrs:
      if (a->partial || b->partial) return false;
      if (a->attrs.size() != b->attrs.size()) return out = false, true;
      for (auto i = a->attrs.begin(), j = b->attrs.begin(); i != a->attrs.end(); ++i, ++j) {
        if (i->first != j->first) return out = false, true;
        std::optional<bool> e;
        if (!equal(force(i->second.value), force(j->second.value), e, depth + 1)) return false;
        if (!*e) return out = false, true;
      }
      return out = true, true;
    default: return out = false, true;  // functions are never equal
  }
}

ValuePtr Evaluator::binary(const Binary* b, const EnvPtr& env) {
  Where w = at(b, env);
  auto boolean = [&](bool x) {
    auto v = make(ValueKind::boolean, w);
    std::const_pointer_cast<Value>(v)->boolean = x;
    return v;
  };
  // && || -> evaluate their right side only when needed.
  if (b->op == BinaryOp::and_ || b->op == BinaryOp::or_ || b->op == BinaryOp::impl) {
    ValuePtr l = eval(b->lhs.get(), env);
    if (!l->known()) return l;
    if (!l->is(ValueKind::boolean)) return error(w, fmt::format("a Boolean was expected, got {}", kind_name(l->kind)));
    const bool decided = b->op == BinaryOp::and_ ? !l->boolean : b->op == BinaryOp::or_ ? l->boolean : !l->boolean;
    if (decided) return boolean(b->op != BinaryOp::and_);
    ValuePtr r = eval(b->rhs.get(), env);
    if (!r->known()) return r;
    if (!r->is(ValueKind::boolean)) return error(w, fmt::format("a Boolean was expected, got {}", kind_name(r->kind)));
    return boolean(r->boolean);
  }
  ValuePtr l = eval(b->lhs.get(), env);
  ValuePtr r = eval(b->rhs.get(), env);
  if (b->op == BinaryOp::eq || b->op == BinaryOp::neq) {
    std::optional<bool> e;
    if (!equal(l, r, e, 0)) return unknown(w, "a comparison with an unknown value", "==", l->known() ? r : l);
    return boolean(b->op == BinaryOp::eq ? *e : !*e);
  }
  // `(old.cmakeFlags or []) ++ fixups.extraCmakeFlags`, `(old.preConfigure or "") + fixups.extra`,
  // `{ pname = …; } // (lib.optionalAttrs …)`: unknown, yet what the known side adds is kept (in list) for readers of
  // what a builder sets, and a path's known tail (`fetchTarball { … } + "/recipes/torch.nix"`) as the suffix.
  if ((b->op == BinaryOp::concat || b->op == BinaryOp::add || b->op == BinaryOp::update) && l->known() != r->known()) {
    const ValuePtr& u = l->known() ? r : l;
    const ValuePtr& k = l->known() ? l : r;
    auto v = std::make_shared<Value>();
    v->where = w;
    v->text = u->text;
    v->name = binary_op_text(b->op);
    v->base = u;
    v->list.push_back(ready(k));
    if (b->op == BinaryOp::add && !l->known() && r->is(ValueKind::string)) v->suffix = l->suffix + r->text;
    charge(sizeof(Value) + v->text.size() + v->suffix.size());
    return v;
  }
  if (!l->known()) return l;
  if (!r->known()) return r;
  switch (b->op) {
    case BinaryOp::update: {
      if (!l->is(ValueKind::attrs) || !r->is(ValueKind::attrs))
        return error(w, fmt::format("'//' of {} and {}", kind_name(l->kind), kind_name(r->kind)));
      charge(copy_bytes(*l) + copy_bytes(*r));
      auto v = std::make_shared<Value>(*l);
      v->where = w;
      for (const auto& [k, a] : r->attrs) v->attrs[k] = a;
      v->partial = l->partial || r->partial;
      return v;
    }
    case BinaryOp::concat: {
      if (!l->is(ValueKind::list) || !r->is(ValueKind::list))
        return error(w, fmt::format("'++' of {} and {}", kind_name(l->kind), kind_name(r->kind)));
      if (l->list.size() + r->list.size() > limits_.max_list)
        return unknown(w, "a list longer than the evaluator's limit");
      charge(sizeof(Value) + (l->list.size() + r->list.size()) * sizeof(ThunkPtr));
      auto v = std::make_shared<Value>(*l);
      v->where = w;
      v->list.insert(v->list.end(), r->list.begin(), r->list.end());
      return v;
    }
    case BinaryOp::add:
      if (l->is(ValueKind::string) || l->is(ValueKind::path)) {
        ValuePtr why;
        auto rs = r->is(ValueKind::path) && l->is(ValueKind::path) ? std::optional<std::string>(r->text)
                                                                   : coerce(r, false, &why);
        if (!rs) return why;
        if (l->text.size() + rs->size() > limits_.max_string)
          return unknown(w, "a string longer than the evaluator's limit");
        charge(l->text.size() + rs->size());
        auto v = make(l->kind, w);
        std::const_pointer_cast<Value>(v)->text = l->text + *rs;
        if (l->is(ValueKind::path))
          std::const_pointer_cast<Value>(v)->text = fs::path(l->text + *rs).lexically_normal().generic_string();
        return v;
      }
      [[fallthrough]];
    case BinaryOp::sub:
    case BinaryOp::mul:
    case BinaryOp::div: {
      const bool li = l->is(ValueKind::integer), ri = r->is(ValueKind::integer);
      if (!(li || l->is(ValueKind::floating)) || !(ri || r->is(ValueKind::floating)))
        return error(w,
                     fmt::format("'{}' of {} and {}", binary_op_text(b->op), kind_name(l->kind), kind_name(r->kind)));
      if (li && ri) {
        int64_t x = l->integer, y = r->integer, z = 0;
        bool overflow = false;
        switch (b->op) {
          case BinaryOp::add: overflow = __builtin_add_overflow(x, y, &z); break;
          case BinaryOp::sub: overflow = __builtin_sub_overflow(x, y, &z); break;
          case BinaryOp::mul: overflow = __builtin_mul_overflow(x, y, &z); break;
          default:
            if (y == 0) return error(w, "division by zero");
            if (x == INT64_MIN && y == -1)
              overflow = true;
            else
              z = x / y;
        }
        if (overflow) return error(w, "integer overflow");
        auto v = make(ValueKind::integer, w);
        std::const_pointer_cast<Value>(v)->integer = z;
        return v;
      }
      double x = li ? static_cast<double>(l->integer) : l->floating,
             y = ri ? static_cast<double>(r->integer) : r->floating;
      if (b->op == BinaryOp::div && y == 0) return error(w, "division by zero");
      auto v = make(ValueKind::floating, w);
      std::const_pointer_cast<Value>(v)->floating = b->op == BinaryOp::add   ? x + y
                                                    : b->op == BinaryOp::sub ? x - y
                                                    : b->op == BinaryOp::mul ? x * y
                                                                             : x / y;
      return v;
    }
    case BinaryOp::lt:
    case BinaryOp::leq:
    case BinaryOp::gt:
    case BinaryOp::geq: {
      int c;
      const bool ln = l->is(ValueKind::integer) || l->is(ValueKind::floating);
      const bool rn = r->is(ValueKind::integer) || r->is(ValueKind::floating);
      if (ln && rn) {
        double x = l->is(ValueKind::integer) ? static_cast<double>(l->integer) : l->floating;
        double y = r->is(ValueKind::integer) ? static_cast<double>(r->integer) : r->floating;
        if (l->is(ValueKind::integer) && r->is(ValueKind::integer))
          c = l->integer < r->integer ? -1 : l->integer > r->integer;
        else
          c = x < y ? -1 : x > y;
      } else if ((l->is(ValueKind::string) && r->is(ValueKind::string)) ||
                 (l->is(ValueKind::path) && r->is(ValueKind::path))) {
        c = l->text.compare(r->text);
        c = c < 0 ? -1 : c > 0;
      } else {
        return error(w, fmt::format("cannot compare {} with {}", kind_name(l->kind), kind_name(r->kind)));
      }
      bool x = b->op == BinaryOp::lt ? c < 0 : b->op == BinaryOp::leq ? c <= 0 : b->op == BinaryOp::gt ? c > 0 : c >= 0;
      return boolean(x);
    }
    default: return error(w, "an operator tailor does not evaluate");
  }
}

ValuePtr Evaluator::eval_inner(const Expr* e, const EnvPtr& env) {
  Where w = at(e, env);
  switch (e->kind) {
    case ExprKind::int_lit: {
      auto v = make(ValueKind::integer, w);
      std::const_pointer_cast<Value>(v)->integer = static_cast<const IntLit*>(e)->value;
      return v;
    }
    case ExprKind::float_lit: {
      auto v = make(ValueKind::floating, w);
      std::const_pointer_cast<Value>(v)->floating = static_cast<const FloatLit*>(e)->value;
      return v;
    }
    case ExprKind::string:
    case ExprKind::ind_string: return string_of(static_cast<const String*>(e), env);
    case ExprKind::path: return path_of(static_cast<const Path*>(e), env);
    case ExprKind::search_path:
      return unknown(w, fmt::format("<{}> is found on the host's NIX_PATH", static_cast<const Name*>(e)->name),
                     "<" + static_cast<const Name*>(e)->name + ">");
    case ExprKind::uri: {
      auto v = make(ValueKind::string, w);
      std::const_pointer_cast<Value>(v)->text = static_cast<const Name*>(e)->name;
      return v;
    }
    case ExprKind::var: return lookup(static_cast<const Name*>(e)->name, env, w);
    case ExprKind::cur_pos: return unknown(w, "__curPos");
    case ExprKind::select: return select(static_cast<const Select*>(e), env);
    case ExprKind::has_attr: {
      auto s = static_cast<const Select*>(e);
      ValuePtr cur = eval(s->subject.get(), env);
      auto boolean = [&](bool x) {
        auto v = make(ValueKind::boolean, w);
        std::const_pointer_cast<Value>(v)->boolean = x;
        return v;
      };
      for (const AttrName& n : s->path) {
        ValuePtr why;
        auto name = attr_name(n, env, &why);
        if (!name) return why;
        if (!cur->known()) return unknown(w, cur->text, "?", cur);
        if (!cur->is(ValueKind::attrs)) return boolean(false);
        auto it = cur->attrs.find(*name);
        if (it == cur->attrs.end())
          return cur->partial ? unknown(w, fmt::format("'{}' may be in a set of unknown names", *name))
                              : boolean(false);
        cur = force(it->second.value);
      }
      return boolean(true);
    }
    case ExprKind::attrs: return make_attrs(static_cast<const Attrs*>(e), env, nullptr);
    case ExprKind::let: {
      auto a = static_cast<const Attrs*>(e);
      EnvPtr scope;
      make_attrs(a, env, &scope);
      return eval(a->body.get(), scope);
    }
    case ExprKind::legacy_let: {
      EnvPtr scope;
      ValuePtr set = make_attrs(static_cast<const Attrs*>(e), env, &scope);
      if (auto body = get(set, "body")) return body;
      return error(w, "let { } without 'body'");
    }
    case ExprKind::list: {
      auto l = static_cast<const List*>(e);
      auto v = std::make_shared<Value>();
      v->kind = ValueKind::list;
      v->where = w;
      charge(sizeof(Value) + l->elems.size() * sizeof(ThunkPtr));
      for (const auto& x : l->elems) v->list.push_back(thunk(x.get(), env));
      return v;
    }
    case ExprKind::lambda: {
      auto v = std::make_shared<Value>();
      v->kind = ValueKind::lambda;
      v->where = w;
      v->lambda = static_cast<const Lambda*>(e);
      v->env = env;
      return v;
    }
    case ExprKind::call: {
      auto c = static_cast<const Call*>(e);
      ValuePtr fn = eval(c->fn.get(), env);
      for (const auto& a : c->args) fn = apply(fn, thunk(a.get(), env), w);
      return fn;
    }
    case ExprKind::with: {
      auto t = static_cast<const Ternary*>(e);
      auto scope = new_env();
      scope->parent = env;
      scope->file = env->file;
      scope->with = thunk(t->first.get(), env);
      return eval(t->second.get(), scope);
    }
    case ExprKind::if_: {
      auto t = static_cast<const Ternary*>(e);
      ValuePtr c = eval(t->first.get(), env);
      if (!c->known()) return unknown(w, fmt::format("a condition that is unknown: {}", c->text), "if", c);
      if (!c->is(ValueKind::boolean))
        return error(w, fmt::format("an if condition is {}, not a Boolean", kind_name(c->kind)));
      return eval(c->boolean ? t->second.get() : t->third.get(), env);
    }
    case ExprKind::assert_: {
      auto t = static_cast<const Ternary*>(e);
      ValuePtr c = eval(t->first.get(), env);
      if (!c->known()) return unknown(w, fmt::format("an assertion that is unknown: {}", c->text), "assert", c);
      if (!c->is(ValueKind::boolean) || !c->boolean) return error(w, "assertion failed");
      return eval(t->second.get(), env);
    }
    case ExprKind::unary: {
      auto u = static_cast<const Unary*>(e);
      ValuePtr x = eval(u->operand.get(), env);
      if (!x->known()) return x;
      if (u->op == UnaryOp::not_) {
        if (!x->is(ValueKind::boolean)) return error(w, fmt::format("'!' of {}", kind_name(x->kind)));
        auto v = make(ValueKind::boolean, w);
        std::const_pointer_cast<Value>(v)->boolean = !x->boolean;
        return v;
      }
      if (x->is(ValueKind::integer)) {
        if (x->integer == INT64_MIN) return error(w, "integer overflow");
        auto v = make(ValueKind::integer, w);
        std::const_pointer_cast<Value>(v)->integer = -x->integer;
        return v;
      }
      if (x->is(ValueKind::floating)) {
        auto v = make(ValueKind::floating, w);
        std::const_pointer_cast<Value>(v)->floating = -x->floating;
        return v;
      }
      return error(w, fmt::format("'-' of {}", kind_name(x->kind)));
    }
    case ExprKind::binary: return binary(static_cast<const Binary*>(e), env);
  }
  return error(w, "an expression tailor does not evaluate");
}

}  // namespace tailor::nix
