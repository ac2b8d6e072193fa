#include "nix/lower.hpp"

#include <algorithm>

namespace tailor::nix {

namespace {

struct Failure {
  Span where;
  std::string message;
};

std::string show_path(const std::vector<AttrName>& path) {
  std::string s;
  for (const auto& a : path) {
    if (!s.empty()) s += '.';
    s += a.expr ? "${...}" : a.name;
  }
  return s;
}

std::string where(const Span& s) { return std::to_string(s.line) + ":" + std::to_string(s.column); }

class Lowerer {
 public:
  Lowerer(const PathContext& ctx, const SymbolTable& symbols, CoreTree& out) : ctx_(ctx), symbols_(symbols), t_(out) {}

  Core* lower(const Expr& e) {
    switch (e.kind) {
      case ExprKind::int_lit: {
        Core* c = t_.make(CoreKind::int_lit, e.span);
        c->int_value = static_cast<const IntLit&>(e).value;
        return c;
      }
      case ExprKind::float_lit: {
        Core* c = t_.make(CoreKind::float_lit, e.span);
        c->float_value = static_cast<const FloatLit&>(e).value;
        return c;
      }
      case ExprKind::string: return lower_string(static_cast<const String&>(e));
      case ExprKind::ind_string: return strip_indentation(static_cast<const String&>(e));
      case ExprKind::path: return lower_path(static_cast<const Path&>(e));
      case ExprKind::search_path: {
        Core* c = t_.make(CoreKind::call, e.span);
        c->kids = {var("__findFile", e.span), var("__nixPath", e.span),
                   string(static_cast<const Name&>(e).name, e.span)};
        return c;
      }
      case ExprKind::uri: return string(static_cast<const Name&>(e).name, e.span);
      case ExprKind::var: return var(static_cast<const Name&>(e).name, e.span);
      case ExprKind::cur_pos: return t_.make(CoreKind::cur_pos, e.span);
      case ExprKind::select:
      case ExprKind::has_attr: {
        const auto& s = static_cast<const Select&>(e);
        Core* c = t_.make(e.kind == ExprKind::select ? CoreKind::select : CoreKind::has_attr, e.span);
        c->kids.push_back(lower(*s.subject));
        lower_attrpath(s.path, c->path);
        if (s.fallback) c->kids.push_back(lower(*s.fallback));
        return c;
      }
      case ExprKind::attrs:
      case ExprKind::let:
      case ExprKind::legacy_let: return lower_attrs(static_cast<const Attrs&>(e));
      case ExprKind::list: {
        Core* c = t_.make(CoreKind::list, e.span);
        for (const auto& x : static_cast<const List&>(e).elems) c->kids.push_back(lower(*x));
        return c;
      }
      case ExprKind::lambda: return lower_lambda(static_cast<const Lambda&>(e));
      case ExprKind::call: {
        const auto& call = static_cast<const Call&>(e);
        Core* fn = lower(*call.fn);
        const bool or_call = call.or_keyword;
        // Nix appends arguments to a call it already has: (f a) b is (f a b).
        Core* c = fn;
        if (or_call || fn->kind != CoreKind::call) {
          c = t_.make(CoreKind::call, e.span);
          c->kids.push_back(fn);
        }
        for (const auto& a : call.args) c->kids.push_back(lower(*a));
        return c;
      }
      case ExprKind::with:
      case ExprKind::if_:
      case ExprKind::assert_: {
        const auto& t = static_cast<const Ternary&>(e);
        CoreKind k = e.kind == ExprKind::with  ? CoreKind::with
                     : e.kind == ExprKind::if_ ? CoreKind::if_
                                               : CoreKind::assert_;
        Core* c = t_.make(k, e.span);
        c->kids.push_back(lower(*t.first));
        c->kids.push_back(lower(*t.second));
        if (t.third) c->kids.push_back(lower(*t.third));
        return c;
      }
      case ExprKind::unary: {
        const auto& u = static_cast<const Unary&>(e);
        if (u.op == UnaryOp::not_) return make_not(lower(*u.operand), e.span);
        Core* zero = t_.make(CoreKind::int_lit, u.span);
        return builtin_call("__sub", zero, lower(*u.operand), e.span);
      }
      case ExprKind::binary: return lower_binary(static_cast<const Binary&>(e));
    }
    return nullptr;
  }

 private:
  // Text is assigned, not moved in: a reused node keeps its string's memory.
  Core* var(std::string_view name, Span s) {
    Core* c = t_.make(CoreKind::var, s);
    c->text = name;
    return c;
  }
  Core* string(std::string_view value, Span s) {
    Core* c = t_.make(CoreKind::string, s);
    c->text = value;
    return c;
  }
  Core* make_not(Core* operand, Span s) {
    Core* c = t_.make(CoreKind::not_, s);
    c->kids.push_back(operand);
    return c;
  }
  Core* builtin_call(const char* fn, Core* a, Core* b, Span s) {
    Core* c = t_.make(CoreKind::call, s);
    c->kids = {var(fn, s), a, b};
    return c;
  }

  Core* lower_binary(const Binary& b) {
    Core* l = lower(*b.lhs);
    Core* r = lower(*b.rhs);
    switch (b.op) {
      case BinaryOp::add: {
        Core* c = t_.make(CoreKind::concat, b.span);
        c->kids = {l, r};
        return c;
      }
      case BinaryOp::sub: return builtin_call("__sub", l, r, b.span);
      case BinaryOp::mul: return builtin_call("__mul", l, r, b.span);
      case BinaryOp::div: return builtin_call("__div", l, r, b.span);
      case BinaryOp::lt: return builtin_call("__lessThan", l, r, b.span);
      case BinaryOp::gt: return builtin_call("__lessThan", r, l, b.span);
      case BinaryOp::leq: return make_not(builtin_call("__lessThan", r, l, b.span), b.span);
      case BinaryOp::geq: return make_not(builtin_call("__lessThan", l, r, b.span), b.span);
      default: {
        Core* c = t_.make(CoreKind::binop, b.span);
        c->text = binary_op_text(b.op);
        c->kids = {l, r};
        return c;
      }
    }
  }

  Core* lower_string(const String& s) {
    if (s.parts.empty()) return string("", s.span);
    if (s.parts.size() == 1 && !s.parts[0].expr) return string(s.parts[0].text, s.span);
    Core* c = t_.make(CoreKind::concat, s.span);
    for (const auto& p : s.parts) c->kids.push_back(p.expr ? lower(*p.expr) : string(p.text, p.span));
    return c;
  }

  // Nix's stripIndentation (parser.y), step for step: the smallest
  // indentation of non-blank lines goes, escapes and interpolations end a
  // line's indentation, and a last line of spaces only is dropped.
  Core* strip_indentation(const String& s) {
    if (s.parts.empty()) return string("", s.span);
    bool at_line_start = true;
    size_t min_indent = 1000000;
    size_t cur_indent = 0;
    for (const auto& p : s.parts) {
      if (p.expr || !p.has_indentation) {
        if (at_line_start) {
          at_line_start = false;
          min_indent = std::min(min_indent, cur_indent);
        }
        continue;
      }
      const std::string& t = p.text;
      for (size_t k = 0; k < t.size();) {
        if (at_line_start) {
          const char c = t[k++];
          if (c == ' ')
            ++cur_indent;
          else if (c == '\n')
            cur_indent = 0;
          else {
            at_line_start = false;
            min_indent = std::min(min_indent, cur_indent);
          }
        } else {  // skip to the next line
          const size_t nl = t.find('\n', k);
          if (nl == std::string::npos) break;
          k = nl + 1;
          at_line_start = true;
          cur_indent = 0;
        }
      }
    }
    // Built in the concat node's list; a lone string piece is returned alone.
    Core* cat = t_.make(CoreKind::concat, s.span);
    at_line_start = true;
    size_t dropped = 0;
    for (size_t i = 0; i < s.parts.size(); ++i) {
      const auto& p = s.parts[i];
      if (p.expr) {
        at_line_start = false;
        dropped = 0;
        Core* e = lower(*p.expr);
        cat->kids.push_back(e);
        continue;
      }
      Core* piece = string("", p.span);
      std::string& s2 = piece->text;
      s2.reserve(p.text.size());
      const std::string& t = p.text;
      for (size_t k = 0; k < t.size();) {
        if (at_line_start) {
          // A run of spaces: those past the common indentation are kept.
          size_t e = t.find_first_not_of(' ', k);
          if (e == std::string::npos) e = t.size();
          const size_t n = e - k;
          const size_t skip = dropped >= min_indent ? 0 : std::min(n, min_indent - dropped);
          s2.append(n - skip, ' ');
          dropped += n;
          k = e;
          if (k == t.size()) break;
          if (t[k] == '\n') {
            dropped = 0;
            s2 += '\n';
            ++k;
          } else {
            at_line_start = false;  // the rest of the line is copied below
            dropped = 0;
          }
        } else {
          const size_t nl = t.find('\n', k);
          const size_t e = nl == std::string::npos ? t.size() : nl + 1;
          s2.append(t, k, e - k);
          k = e;
          if (nl != std::string::npos) at_line_start = true;
        }
      }
      if (i + 1 == s.parts.size()) {
        size_t nl = s2.find_last_of('\n');
        if (nl != std::string::npos && s2.find_first_not_of(' ', nl + 1) == std::string::npos) s2.resize(nl + 1);
      }
      cat->kids.push_back(piece);
    }
    if (cat->kids.size() == 1 && cat->kids[0]->kind == CoreKind::string) return cat->kids[0];
    return cat;
  }

  Core* lower_path(const Path& p) {
    std::string head;
    if (p.is_home) {
      head = ctx_.home + p.first.substr(1);
    } else {
      head = canon_path(p.first.front() == '/' ? p.first : ctx_.base_dir + "/" + p.first);
      if (p.first.size() > 1 && p.first.back() == '/') head += '/';
    }
    Core* first = t_.make(CoreKind::path, p.span);
    first->text = std::move(head);
    if (p.parts.empty()) return first;
    Core* c = t_.make(CoreKind::concat, p.span);
    c->kids.push_back(first);
    for (const auto& part : p.parts) c->kids.push_back(part.expr ? lower(*part.expr) : string(part.text, part.span));
    return c;
  }

  void lower_attrpath(const std::vector<AttrName>& path, std::vector<CoreAttrName>& out) {
    for (const auto& a : path) {
      Core* e = a.expr ? lower(*a.expr) : nullptr;
      // Nix takes a dynamic name that is a plain string literal, `${"a"}`, as static.
      if (e && e->kind == CoreKind::string)
        out.push_back(CoreAttrName{e->text, nullptr});
      else
        out.push_back(CoreAttrName{a.name, e});
    }
  }

  // An attribute path as lowered: a path of plain names (the common case) is
  // read in place instead of being copied.
  struct LoweredPath {
    const std::vector<AttrName>& source;
    std::vector<CoreAttrName> dynamic;  // the lowered path, if it has a dynamic part
    bool is_dynamic;
    size_t size() const { return source.size(); }
    const std::string& name(size_t i) const { return is_dynamic ? dynamic[i].name : source[i].name; }
    Core* expr(size_t i) const { return is_dynamic ? dynamic[i].expr : nullptr; }
  };

  LoweredPath lower_path_of(const std::vector<AttrName>& path) {
    LoweredPath p{path, {}, std::any_of(path.begin(), path.end(), [](const AttrName& a) { return a.expr != nullptr; })};
    if (p.is_dynamic) lower_attrpath(path, p.dynamic);
    return p;
  }

  [[noreturn]] void duplicate(const std::string& name, Span at, Span first) {
    throw Failure{at, "attribute '" + name + "' is already defined (first at " + where(first) + ")"};
  }

  // Nix's addAttr: walks/creates nested sets for a.b.c = v, merging into
  // sets written out earlier; the last element may merge two plain sets.
  void add_attr(CoreAttrs* attrs, const Binding& b, Core* value) {
    const LoweredPath path = lower_path_of(b.path);
    for (size_t i = 0; i + 1 < path.size(); ++i) {
      if (!path.expr(i)) {
        auto j = attrs->attrs.find(path.name(i));
        if (j != attrs->attrs.end()) {
          if (j->second.inherited || j->second.value->kind != CoreKind::attrs)
            duplicate(show_path(b.path), b.span, j->second.span);
          attrs = j->second.value->attrs;
        } else {
          Core* nested = t_.make(CoreKind::attrs, b.span);
          nested->attrs = t_.make_attrs();
          attrs->attrs[path.name(i)] = CoreAttrDef{nested, false, b.span};
          attrs = nested->attrs;
        }
      } else {
        Core* nested = t_.make(CoreKind::attrs, b.span);
        nested->attrs = t_.make_attrs();
        attrs->dynamic.push_back(CoreDynamicAttr{path.expr(i), nested, b.span});
        attrs = nested->attrs;
      }
    }
    const size_t last = path.size() - 1;
    if (Core* e = path.expr(last)) {
      attrs->dynamic.push_back(CoreDynamicAttr{e, value, b.span});
      return;
    }
    const std::string& last_name = path.name(last);
    auto [j, fresh] = attrs->attrs.emplace(last_name, CoreAttrDef{value, false, b.span});  // one lookup
    if (fresh) return;
    // Both plain sets: merge the new one's static attributes (Nix drops its
    // dynamic ones here).
    if (!j->second.inherited && j->second.value->kind == CoreKind::attrs && value->kind == CoreKind::attrs) {
      CoreAttrs* into = j->second.value->attrs;
      for (auto& [name, def] : value->attrs->attrs) {
        if (auto k = into->attrs.find(name); k != into->attrs.end()) duplicate(name, def.span, k->second.span);
        into->attrs.emplace(name, def);
      }
      return;
    }
    duplicate(show_path(b.path), b.span, j->second.span);
  }

  Core* lower_attrs(const Attrs& a) {
    CoreAttrs* attrs = t_.make_attrs();
    attrs->recursive = a.recursive;
    attrs->attrs.reserve(a.bindings.size());
    for (const auto& b : a.bindings) {
      if (!b.is_inherit) {
        add_attr(attrs, b, lower(*b.value));
        continue;
      }
      Core* from = b.from ? lower(*b.from) : nullptr;
      const LoweredPath names = lower_path_of(b.path);
      for (size_t i = 0; i < names.size(); ++i) {
        const std::string& name = names.name(i);
        const Span span = b.path[i].span;
        if (names.expr(i)) throw Failure{span, "dynamic attributes are not allowed in 'inherit'"};
        if (auto j = attrs->attrs.find(name); j != attrs->attrs.end()) duplicate(name, span, j->second.span);
        if (from) {
          Core* sel = t_.make(CoreKind::select, span);
          sel->kids.push_back(from);
          sel->path.push_back(CoreAttrName{name, nullptr});
          attrs->attrs.emplace(name, CoreAttrDef{sel, false, span});
        } else {
          attrs->attrs.emplace(name, CoreAttrDef{var(name, span), true, span});
        }
      }
    }
    Core* set = t_.make(CoreKind::attrs, a.span);
    set->attrs = attrs;
    if (a.kind == ExprKind::attrs) return set;
    if (a.kind == ExprKind::legacy_let) {  // let { …; body = e; } is (rec { … }).body
      Core* sel = t_.make(CoreKind::select, a.span);
      sel->kids.push_back(set);
      sel->path.push_back(CoreAttrName{"body", nullptr});
      return sel;
    }
    if (!attrs->dynamic.empty()) throw Failure{a.span, "dynamic attributes are not allowed in 'let'"};
    set->kind = CoreKind::let;
    set->kids.push_back(lower(*a.body));
    return set;
  }

  Core* lower_lambda(const Lambda& l) {
    Core* c = t_.make(CoreKind::lambda, l.span);
    CoreLambda& head = *(c->lambda = t_.make_lambda());
    head.arg = l.arg;
    head.has_formals = l.has_formals;
    head.ellipsis = l.ellipsis;
    for (const auto& f : l.formals) head.formals.emplace_back(f.name, f.fallback ? lower(*f.fallback) : nullptr);
    // Nix sorts formals by Symbol, i.e. by interning order (symbols.hpp).
    symbols_.sort(head.formals, [](const auto& f) -> std::string_view { return f.first; });
    c->kids.push_back(lower(*l.body));
    return c;
  }

  const PathContext& ctx_;
  const SymbolTable& symbols_;
  CoreTree& t_;
};

}  // namespace

std::string canon_path(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view seg = path.substr(i, j - i);
    if (seg == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!seg.empty() && seg != ".") {
      parts.push_back(seg);
    }
    i = j + 1;
  }
  if (parts.empty()) return "/";
  std::string out;
  for (auto p : parts) {
    out += '/';
    out += p;
  }
  return out;
}

std::optional<Diagnostic> lower(const Expr& e, const PathContext& ctx, const SymbolTable& symbols,
                                std::string_view path, std::string_view text, CoreTree& out) {
  Lowerer l(ctx, symbols, out);
  try {
    out.root = l.lower(e);
  } catch (const Failure& f) {
    return diagnostic_at(path, text, Pos{f.where.line, f.where.column}, f.message);
  }
  return std::nullopt;
}

}  // namespace tailor::nix
