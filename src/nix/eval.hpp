#pragma once
/// A pure, bounded evaluator for the subset of Nix that recipe trees use to
/// hold their facts: sets (rec too), lists, strings with interpolation,
/// numbers, let, inherit, with, `import` of a relative path, //, ++, if,
/// select with `or`, dynamic names, lambdas with set patterns, and the pure
/// builtins such tables call (replaceStrings, match, head, elem, attrNames, …).
///
/// It never guesses: what needs a build, a download or the host (fetchTarball,
/// <nixpkgs>, pkgs.*, getEnv, an unknown builtin) is an unknown value that says
/// why; an error (a missing attribute, a type error, `throw`) is an unknown
/// value that says what went wrong and where. It is lazy (an unknown branch
/// that is never looked at costs nothing) and bounded in steps, depth and file
/// size: it reads untrusted trees.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nix/parser.hpp"
#include "nix/value.hpp"

namespace tailor::nix {

struct EvalLimits {
  size_t max_steps = 4'000'000;      ///< expressions evaluated, over the evaluator's life (reset_steps)
  int max_depth = 200;               ///< nested evaluations (each costs C++ stack)
  size_t max_file_bytes = 4u << 20;  ///< a bigger file is not read
  size_t max_files = 4096;           ///< files parsed
  size_t max_string = 1u << 20;      ///< a longer string is unknown
  size_t max_list = 1u << 16;        ///< a longer list (map, concat, genList) is unknown
  /// Bytes of values (strings, list cells, thunks, scopes) made over the evaluator's life, and of
  /// what its readers expand them to (charge()): past it every evaluation is unknown. A list of
  /// one shared string costs a cell per element here, but the string's length per element to a
  /// reader that reads each element's text.
  size_t max_bytes = 128u << 20;
};

/// The names under `builtins` tailor knows: pure ones it evaluates, impure ones it makes unknown.
const std::vector<std::string>& builtin_names();

struct BuiltinCall;

/// Values refer to the evaluator's scopes: use them while it lives.
class Evaluator {
 public:
  /// Reads a tree-relative file ("lib/x.nix"); nullopt when there is none.
  using Reader = std::function<std::optional<std::string>(const std::string& rel)>;

  /// \a root is shown before file names in locations ("tree" → "tree/lib/x.nix:3:5").
  Evaluator(std::string root, Reader read, EvalLimits limits = {});
  /// Reads files from the directory \a root on disk.
  explicit Evaluator(std::string root, EvalLimits limits = {});
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  /// The value of the file \a rel (cached: a file is parsed and evaluated once).
  ValuePtr file(const std::string& rel);
  /// The values of the files evaluated so far (the tables a builder read), by name.
  std::vector<std::pair<std::string, ValuePtr>> files_evaluated() const;
  /// The syntax error of \a rel, after file() met one.
  const Diagnostic* syntax_error(const std::string& rel) const;

  /// The syntax tree of \a rel, after file() read it; null when it does not parse.
  const Expr* syntax(const std::string& rel) const;
  /// \a e, a node of file \a rel, evaluated in the file's top-level scope (no
  /// names bound but the built-ins): a part of a file read on its own.
  ValuePtr eval_in_file(const Expr* e, const std::string& rel);

  ValuePtr force(const ThunkPtr& t);
  /// \a fn applied to \a arg (forced as needed).
  ValuePtr apply(const ValuePtr& fn, const ThunkPtr& arg, const Where& at);
  /// The forced attribute \a name of \a set; null when \a set is no set or lacks it.
  ValuePtr get(const ValuePtr& set, std::string_view name);
  /// A thunk holding \a v already.
  static ThunkPtr ready(ValuePtr v);

  /// "root/file:line:col".
  std::string location(const Where& w) const { return where_text(w, root_); }
  const std::string& root() const { return root_; }
  size_t steps() const { return steps_; }
  /// Starts a new step budget (per wrapper evaluated, say).
  void reset_steps() { steps_ = 0; }
  /// Charges \a bytes that a reader of values expands them to (a table's cells, say) to the
  /// memory budget; false once it is spent, as for the evaluator's own values.
  bool charge(size_t bytes) {
    bytes_ += bytes;
    return bytes_ <= limits_.max_bytes;
  }
  /// Whether the memory budget is spent: every later evaluation is unknown.
  bool out_of_memory() const { return bytes_ > limits_.max_bytes; }
  const EvalLimits& limits() const { return limits_; }

 private:
  friend struct BuiltinCall;  // the built-in functions make values as the evaluator does
  struct File;
  ValuePtr eval(const Expr* e, const EnvPtr& env);
  ValuePtr eval_inner(const Expr* e, const EnvPtr& env);
  ValuePtr lookup(const std::string& name, const EnvPtr& env, const Where& at);
  ValuePtr global(const std::string& name, const Where& at);
  ValuePtr make_attrs(const Attrs* a, const EnvPtr& env, EnvPtr* scope);
  ValuePtr select(const Select* s, const EnvPtr& env);
  ValuePtr string_of(const String* s, const EnvPtr& env);
  ValuePtr path_of(const Path* p, const EnvPtr& env);
  ValuePtr binary(const Binary* b, const EnvPtr& env);
  ValuePtr call_builtin(const ValuePtr& fn, const Where& at);
  ThunkPtr lazy(std::function<ValuePtr()> f);
  EnvPtr new_env();
  ValuePtr import_value(const ValuePtr& path, const Where& at);
  /// \a from: set to where a dynamic name's string is written.
  std::optional<std::string> attr_name(const AttrName& n, const EnvPtr& env, ValuePtr* unknown, Where* from = nullptr);
  ValuePtr unknown(const Where& at, std::string why, std::string name = {}, ValuePtr base = nullptr);
  ValuePtr error(const Where& at, std::string what);
  ValuePtr make(ValueKind k, const Where& at);
  ThunkPtr thunk(const Expr* e, const EnvPtr& env);
  Where at(const Expr* e, const EnvPtr& env) const;
  /// The string of \a v as interpolation coerces it; nullopt: \a v is unknown or cannot be.
  std::optional<std::string> coerce(const ValuePtr& v, bool to_string_rules, ValuePtr* why);
  bool equal(const ValuePtr& a, const ValuePtr& b, std::optional<bool>& out, int depth);

  std::string root_;
  Reader read_;
  EvalLimits limits_;
  SymbolTable symbols_;
  std::map<std::string, std::unique_ptr<File>, std::less<>> files_;
  ValuePtr builtins_;
  std::vector<EnvPtr> envs_;  ///< every scope made, see ~Evaluator
  /// every thunk that is forced later (its value, closure or lazy function can
  /// close a cycle back to it), see ~Evaluator
  std::vector<std::weak_ptr<Thunk>> thunks_;
  ThunkPtr new_thunk();
  size_t steps_ = 0;
  size_t bytes_ = 0;  ///< charged against limits_.max_bytes
  int depth_ = 0;
  /// The step and memory budgets: an unknown value when one is spent, else null.
  ValuePtr over_budget(const Where& w);
};

}  // namespace tailor::nix
