#include "nix/printer.hpp"

#include <algorithm>
#include <array>
#include <sstream>

namespace tailor::nix {

namespace {

// The escape of each byte in a printed string; null: printed as is.
constexpr std::array<const char*, 256> make_escapes() {
  std::array<const char*, 256> t{};
  t['"'] = "\\\"";
  t['\\'] = "\\\\";
  t['$'] = "\\$";
  t['\n'] = "\\n";
  t['\r'] = "\\r";
  t['\t'] = "\\t";
  return t;
}
constexpr std::array<const char*, 256> kEscapes = make_escapes();

void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  size_t run = 0;  // start of the bytes not yet copied: copied in one go
  for (size_t i = 0; i < s.size(); ++i) {
    const char* esc = kEscapes[static_cast<unsigned char>(s[i])];
    if (!esc) continue;
    out.append(s.data() + run, i - run);
    out.append(esc, 2);
    run = i + 1;
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

bool is_plain_identifier(std::string_view s) {
  // Nix 2.8's printIdentifier: only "if" among the keywords is quoted.
  if (s.empty() || s == "if") return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s)
    if (!(alpha(c) || (c >= '0' && c <= '9') || c == '\'' || c == '-')) return false;
  return true;
}

void append_identifier(std::string& out, std::string_view s) {
  if (is_plain_identifier(s))
    out += s;
  else
    append_quoted(out, s);
}

}  // namespace

std::string quote_string(std::string_view s) {
  std::string out;
  append_quoted(out, s);
  return out;
}

std::string quote_identifier(std::string_view s) {
  std::string out;
  append_identifier(out, s);
  return out;
}

namespace {

class Printer {
 public:
  Printer(const SymbolTable& symbols, size_t size_hint) : symbols_(symbols) { out_.reserve(size_hint); }

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
      case CoreKind::binop:
        out_ += '(';
        print(*e.kids[0]);
        out_ += ' ';
        out_ += e.text;
        out_ += ' ';
        print(*e.kids[1]);
        out_ += ')';
        break;
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
      append_identifier(out_, a.name);
    }
  }

  void print_attrs(const CoreAttrs& a) {
    if (a.recursive) out_ += "rec ";
    out_ += "{ ";
    for (const auto& [name, def] : a.attrs) {  // sorted by name, as Nix sorts for printing
      if (def.inherited) {
        out_ += "inherit ";
        append_identifier(out_, name);
        out_ += " ; ";
      } else {
        append_identifier(out_, name);
        out_ += " = ";
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
    // Nix iterates its map of Symbols here: interning order, not name order (the sort
    // orders them whatever order they come in: a let's names need no sorting by name).
    std::vector<const CoreAttrMap::value_type*> defs;
    defs.reserve(e.attrs->attrs.size());
    for (const auto& d : e.attrs->attrs.unordered()) defs.push_back(&d);
    symbols_.sort(defs, [](const CoreAttrMap::value_type* d) -> std::string_view { return d->first; });
    out_ += "(let ";
    for (const auto* d : defs) {
      if (d->second.inherited) {
        out_ += "inherit ";
        append_identifier(out_, d->first);
        out_ += "; ";
      } else {
        append_identifier(out_, d->first);
        out_ += " = ";
        print(*d->second.value);
        out_ += "; ";
      }
    }
    out_ += "in ";
    print(*e.kids[0]);
    out_ += ')';
  }

  void print_lambda(const Core& e) {
    const CoreLambda& l = *e.lambda;
    out_ += '(';
    if (l.has_formals) {
      out_ += "{ ";
      bool first = true;
      for (const auto& [name, def] : l.formals) {
        if (!first) out_ += ", ";
        first = false;
        out_ += name;
        if (def) {
          out_ += " ? ";
          print(*def);
        }
      }
      if (l.ellipsis) {
        if (!first) out_ += ", ";
        out_ += "...";
      }
      out_ += " }";
      if (!l.arg.empty()) out_ += " @ ";
    }
    out_ += l.arg;
    out_ += ": ";
    print(*e.kids[0]);
    out_ += ')';
  }

  const SymbolTable& symbols_;
  std::string out_;
};

}  // namespace

std::string print_normal_form(const Core& root, const SymbolTable& symbols, size_t size_hint) {
  Printer p(symbols, size_hint);
  p.print(root);
  return p.take();
}

}  // namespace tailor::nix
