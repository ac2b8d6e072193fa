#pragma once
/// The values of tailor's pure Nix evaluator (eval.hpp). Every value remembers
/// where it is written (file, span), so a fact read from a metadata table is
/// reported at that table's line. A value tailor cannot know without building
/// or fetching (a tarball's contents, `<nixpkgs>`, `pkgs.*`, an unknown
/// builtin) is `unknown`: it says why, and what it stands for, so a reader can
/// still see that a fetch was asked for and with which arguments.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nix/ast.hpp"

namespace tailor::nix {

struct Value;
struct Thunk;
struct Env;
using ValuePtr = std::shared_ptr<const Value>;
using ThunkPtr = std::shared_ptr<Thunk>;
using EnvPtr = std::shared_ptr<Env>;

/// Where a value is written: a file (tree-relative; owned by the Evaluator) and a span.
struct Where {
  const std::string* file = nullptr;
  Span span;
};

enum class ValueKind : uint8_t {
  unknown,
  null,
  boolean,
  integer,
  floating,
  string,
  path,
  list,
  attrs,
  lambda,
  builtin
};

/// "a string", "a set", … for messages.
const char* kind_name(ValueKind k);

struct Attr {
  ThunkPtr value;
  Where name_at;  ///< where the name is written
};

struct Value {
  ValueKind kind = ValueKind::unknown;
  Where where;
  bool boolean = false;
  int64_t integer = 0;
  double floating = 0;
  /// string: its text; path: tree-relative ("lib/x.nix") or absolute; builtin:
  /// its name; unknown: why it is unknown.
  std::string text;
  std::vector<ThunkPtr> list;                      ///< list elements; builtin/unknown: the arguments applied
  std::map<std::string, Attr, std::less<>> attrs;  ///< attrs
  /// attrs: a dynamic name (`${e} = …`) could not be told, so a missing name
  /// may yet be there: looking it up is unknown, not an error.
  bool partial = false;
  // lambda: its node and closure
  const Lambda* lambda = nullptr;
  EnvPtr env;
  // unknown: what it stands for ("pkgs.fetchFromGitHub", "builtins.fetchTarball",
  // "<nixpkgs>"), and the unknown it was made from by a select, call or interpolation.
  std::string name;
  ValuePtr base;
  /// unknown: a string made of an unknown start and a known rest, that rest
  /// ("${root}/recipes/torch.nix" -> "/recipes/torch.nix").
  std::string suffix;

  bool is(ValueKind k) const { return kind == k; }
  bool known() const { return kind != ValueKind::unknown; }
};

/// A value not yet computed: an expression in its scope, evaluated once.
struct Thunk {
  const Expr* expr = nullptr;
  EnvPtr env;
  ValuePtr value;     ///< set once forced (or made ready)
  bool busy = false;  ///< being forced: a cycle is infinite recursion
  /// A deferred computation (an element of `map f xs`), run once when forced.
  std::function<ValuePtr()> lazy;
  // `inherit (from) attr;`: the attribute of another thunk, selected when forced.
  ThunkPtr from;
  std::string attr;
  Where attr_at;
};

/// A scope: names bound by let / rec / a lambda, or a `with` set.
struct Env {
  EnvPtr parent;
  std::map<std::string, ThunkPtr, std::less<>> vars;
  ThunkPtr with;                      ///< `with e;`: e, consulted after every lexical name
  const std::string* file = nullptr;  ///< the file the scope is written in (paths resolve against it)
};

/// About what a copy of \a v costs in memory (its text, list cells, attribute map nodes), which the
/// evaluator charges to its budget: a set copied by `//` in a loop is a copy each time.
inline size_t copy_bytes(const Value& v) {
  constexpr size_t kAttrNode = 96;  // a std::map node: links, key and Attr
  return sizeof(Value) + v.text.size() + v.list.size() * sizeof(ThunkPtr) + v.attrs.size() * kAttrNode;
}

/// "file:line:col" of \a w under \a root ("" or "dir"): root + "/" + file.
std::string where_text(const Where& w, std::string_view root = {});

}  // namespace tailor::nix
