#include "nix/printer.hpp"

#include <algorithm>
#include <sstream>

namespace tailor::nix {

namespace {

void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  size_t run = 0;  // start of the bytes not yet copied: copied in one go
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const char* esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '$' ? "\\$" : c == '\n' ? "\\n"
                    : c == '\r' ? "\\r" : c == '\t' ? "\\t" : nullptr;
    if (!esc) continue;
    out.append(s.data() + run, i - run);
    out += esc;
    run = i + 1;
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

}  // namespace

std::string quote_string(std::string_view s) {
  std::string out;
  append_quoted(out, s);
  return out;
}

std::string quote_identifier(std::string_view s) {
  // Nix 2.8's printIdentifier: only "if" among the keywords is quoted.
  if (s.empty()) return "\"\"";
  if (s == "if") return "\"if\"";
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return quote_string(s);
  for (char c : s)
    if (!(alpha(c) || (c >= '0' && c <= '9') || c == '\'' || c == '-')) return quote_string(s);
  return std::string(s);
}

namespace {

class Printer {
 public:
  explicit Printer(const SymbolTable& symbols) : symbols_(symbols) {}

  void print(const Core& e) {
    switch (e.kind) {
      case CoreKind::int_lit: out_ += std::to_string(e.int_value); break;
      case CoreKind::float_lit: {
        std::ostringstream s;  // Nix streams the double with default formatting (%g, 6 digits)
        s << e.float_value;
        out_ += s.str();
        break;
      }
      case CoreKind::string: append_quoted(out_, e.text); break;
      case CoreKind::path: out_ += e.text; break;
      case CoreKind::var: out_ += e.text; break;
      case CoreKind::cur_pos: out_ += "__curPos"; break;
      case CoreKind::select:
        out_ += '(';
        print(*e.kids[0]);
        out_ += ").";
        print_path(e.path);
        if (e.kids.size() > 1) {
          out_ += " or (";
          print(*e.kids[1]);
          out_ += ')';
        }
        break;
      case CoreKind::has_attr:
        out_ += "((";
        print(*e.kids[0]);
        out_ += ") ? ";
        print_path(e.path);
        out_ += ')';
        break;
      case CoreKind::attrs: print_attrs(*e.attrs); break;
      case CoreKind::list:
        out_ += "[ ";
        for (const Core* x : e.kids) {
          out_ += '(';
          print(*x);
          out_ += ") ";
        }
        out_ += ']';
        break;
      case CoreKind::lambda: print_lambda(e); break;
      case CoreKind::call:
        out_ += '(';
        for (size_t i = 0; i < e.kids.size(); ++i) {
          if (i) out_ += ' ';
          print(*e.kids[i]);
        }
        out_ += ')';
        break;
      case CoreKind::let: print_let(e); break;
      case CoreKind::with: wrap("(with ", e.kids[0], "; ", e.kids[1], ")"); break;
      case CoreKind::assert_: wrap("assert ", e.kids[0], "; ", e.kids[1], ""); break;
      case CoreKind::if_:
        wrap("(if ", e.kids[0], " then ", e.kids[1], " else ");
        print(*e.kids[2]);
        out_ += ')';
        break;
      case CoreKind::not_:
        out_ += "(! ";
        print(*e.kids[0]);
        out_ += ')';
        break;
      case CoreKind::binop: wrap("(", e.kids[0], " " + e.text + " ", e.kids[1], ")"); break;
      case CoreKind::concat:
        out_ += '(';
        for (size_t i = 0; i < e.kids.size(); ++i) {
          if (i) out_ += " + ";
          print(*e.kids[i]);
        }
        out_ += ')';
        break;
    }
  }

  std::string take() { return std::move(out_); }

 private:
  void wrap(std::string_view open, const Core* a, std::string_view mid, const Core* b, std::string_view close) {
    out_ += open;
    print(*a);
    out_ += mid;
    print(*b);
    out_ += close;
  }

  void print_path(const std::vector<CoreAttrName>& path) {
    for (size_t i = 0; i < path.size(); ++i) {
      if (i) out_ += '.';
      print_attr_name(path[i]);
    }
  }

  void print_attr_name(const CoreAttrName& a) {
    if (a.expr) {
      out_ += "\"${";
      print(*a.expr);
      out_ += "}\"";
    } else {
      out_ += quote_identifier(a.name);
    }
  }

  void print_attrs(const CoreAttrs& a) {
    if (a.recursive) out_ += "rec ";
    out_ += "{ ";
    for (const auto& [name, def] : a.attrs) {  // std::map: sorted by name, as Nix sorts for printing
      if (def.inherited) {
        out_ += "inherit " + quote_identifier(name) + " ; ";
      } else {
        out_ += quote_identifier(name) + " = ";
        print(*def.value);
        out_ += "; ";
      }
    }
    for (const auto& d : a.dynamic) {
      out_ += "\"${";
      print(*d.name);
      out_ += "}\" = ";
      print(*d.value);
      out_ += "; ";
    }
    out_ += '}';
  }

  void print_let(const Core& e) {
    // Nix iterates its map of Symbols here: interning order, not name order.
    std::vector<const std::pair<const std::string, CoreAttrDef>*> defs;
    for (const auto& d : e.attrs->attrs) defs.push_back(&d);
    std::stable_sort(defs.begin(), defs.end(),
                     [&](auto* x, auto* y) { return symbols_.less(x->first, y->first); });
    out_ += "(let ";
    for (const auto* d : defs) {
      if (d->second.inherited) {
        out_ += "inherit " + quote_identifier(d->first) + "; ";
      } else {
        out_ += quote_identifier(d->first) + " = ";
        print(*d->second.value);
        out_ += "; ";
      }
    }
    out_ += "in ";
    print(*e.kids[0]);
    out_ += ')';
  }

  void print_lambda(const Core& e) {
    out_ += '(';
    if (e.has_formals) {
      out_ += "{ ";
      bool first = true;
      for (const auto& [name, def] : e.formals) {
        if (!first) out_ += ", ";
        first = false;
        out_ += name;
        if (def) {
          out_ += " ? ";
          print(*def);
        }
      }
      if (e.ellipsis) {
        if (!first) out_ += ", ";
        out_ += "...";
      }
      out_ += " }";
      if (!e.arg.empty()) out_ += " @ ";
    }
    out_ += e.arg;
    out_ += ": ";
    print(*e.kids[0]);
    out_ += ')';
  }

  const SymbolTable& symbols_;
  std::string out_;
};

}  // namespace

std::string print_normal_form(const Core& root, const SymbolTable& symbols) {
  Printer p(symbols);
  p.print(root);
  return p.take();
}

}  // namespace tailor::nix
