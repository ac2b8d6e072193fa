#pragma once
/// The core form of a Nix expression: the tree Nix 2.8 itself builds while
/// parsing, after its desugarings (operators as calls to `__sub`,
/// `__lessThan`…, nested attribute paths merged into nested sets, `inherit`
/// expanded, strings split into concatenations). `nix-instantiate --parse`
/// prints this form; lower.hpp builds it from the surface tree.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nix/token.hpp"
#include "util/flat_index.hpp"
#include "util/permute.hpp"

namespace tailor::nix {

enum class CoreKind : uint8_t {
  int_lit,
  float_lit,
  string,
  path,
  var,
  cur_pos,
  select,
  has_attr,
  attrs,
  list,
  lambda,
  call,
  let,
  with,
  if_,
  assert_,
  not_,
  binop,
  concat,
};

struct Core;
struct CoreAttrs;

/// A function's head: `arg: …`, `{ a, b ? d, … } @ arg: …`.
struct CoreLambda {
  std::string arg;
  bool has_formals = false;
  bool ellipsis = false;
  std::vector<std::pair<std::string, Core*>> formals;  ///< in Nix's (symbol) order; default may be null
};

/// An attribute path element: a static name or a dynamic expression.
struct CoreAttrName {
  std::string name;
  Core* expr = nullptr;  ///< set: dynamic
};

/// One node. Fields are used according to `kind` (see lower.cpp). Every node
/// of a file is one of these, so what only some kinds need is held apart
/// (attrs, lambda) or shared (the number): 128 bytes, not 192.
struct Core {
  CoreKind kind;
  Span span;
  std::string text;  ///< var name, string/path value, binop operator
  union {
    int64_t int_value = 0;  ///< int_lit
    double float_value;     ///< float_lit
  };
  std::vector<Core*> kids;  ///< children: call (fn, args…), list, concat, if/with/assert, binop, select (subject[, or])
  std::vector<CoreAttrName> path;  ///< select, has_attr
  CoreAttrs* attrs = nullptr;      ///< attrs, let
  CoreLambda* lambda = nullptr;    ///< lambda
};

struct CoreAttrDef {
  Core* value = nullptr;
  bool inherited = false;
  Span span;  ///< where it was defined, for duplicate diagnostics
};

struct CoreDynamicAttr {
  Core* name;
  Core* value;
  Span span;
};

/// Static attributes sorted by name, in a vector: sets are small, and a
/// node made again keeps the vector's memory (std::map allocates per entry).
/// The subset of std::map's interface the passes use.
class CoreAttrMap {
 public:
  using value_type = std::pair<std::string, CoreAttrDef>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  // Iteration is in name order. emplace appends and iteration sorts what was
  // appended since (a merge), so a set of n attributes costs n log n, not the
  // n^2 of inserting into a sorted vector; past kIndexFrom names a hash index
  // finds duplicates in O(1).
  // begin() sorts; end() does not (sorting in place moves no end iterator),
  // so `find(x) != end()` after each emplace stays O(1).
  iterator begin() { return settle(), v_.begin(); }
  iterator end() { return v_.end(); }
  const_iterator begin() const { return settle(), v_.cbegin(); }
  const_iterator end() const { return v_.cend(); }
  /// The entries in no particular order, without sorting them: for a reader
  /// that orders them its own way (a let's printer, by symbol) or not at all.
  const std::vector<value_type>& unordered() const { return v_; }
  size_t size() const { return v_.size(); }
  bool empty() const { return v_.empty(); }
  void clear() {
    v_.clear();
    sorted_ = 0;
    index_.clear();
  }

  iterator find(std::string_view name) const {  // const: v_ is mutable
    if (v_.size() > kIndexFrom) {
      const size_t hit = index_.find(name, name_of());
      return hit == FlatIndex::npos ? v_.end() : v_.begin() + static_cast<std::ptrdiff_t>(hit);
    }
    auto sorted_end = v_.begin() + static_cast<std::ptrdiff_t>(sorted_);
    auto it = std::lower_bound(v_.begin(), sorted_end, name,
                               [](const value_type& e, std::string_view n) { return std::string_view(e.first) < n; });
    if (it != sorted_end && it->first == name) return it;
    for (it = sorted_end; it != v_.end(); ++it)  // at most kIndexFrom appended names
      if (it->first == name) return it;
    return v_.end();
  }
  /// Room for \a n names: a set's size is known from its bindings (at least one name each, a
  /// nested path's set taking one for all of them), and regrowth would copy the entries and leave
  /// half the capacity unused.
  void reserve(size_t n) {
    v_.reserve(n);
    if (n > kIndexFrom) index_.reserve(n);
  }
  bool contains(std::string_view name) const { return find(name) != v_.end(); }
  /// Inserts unless \a name is there; like std::map::emplace.
  std::pair<iterator, bool> emplace(std::string_view name, const CoreAttrDef& def) {
    if (v_.size() > kIndexFrom) {  // indexed: one probe finds the name or records where it goes
      auto [at, fresh] = index_.insert(name, v_.size(), name_of());
      if (!fresh) return {v_.begin() + static_cast<std::ptrdiff_t>(at), false};
      if (sorted_ == v_.size() && std::string_view(v_.back().first) < name) ++sorted_;
      v_.emplace_back(std::string(name), def);
      return {v_.end() - 1, true};
    }
    if (auto it = find(name); it != v_.end()) return {it, false};
    if (sorted_ == v_.size() && (v_.empty() || std::string_view(v_.back().first) < name)) ++sorted_;  // in order
    v_.emplace_back(std::string(name), def);
    if (v_.size() > kIndexFrom) reindex();  // from here on indexed
    return {v_.end() - 1, true};
  }
  CoreAttrDef& operator[](std::string_view name) { return emplace(name, CoreAttrDef{}).first->second; }

 private:
  static constexpr size_t kIndexFrom = 32;

  void settle() const {
    if (sorted_ == v_.size()) return;
    auto by_name = [](const value_type& a, const value_type& b) { return a.first < b.first; };
    auto mid = v_.begin() + static_cast<std::ptrdiff_t>(sorted_);
    if (v_.size() - sorted_ <= kIndexFrom)
      std::sort(mid, v_.end(), by_name);
    else
      sort_appended();
    std::inplace_merge(v_.begin(), mid, v_.end(), by_name);
    sorted_ = v_.size();
    if (v_.size() > kIndexFrom) reindex();
  }
  // Sorts v_[sorted_, end) by name through (first 8 bytes, position) keys: a
  // comparison of two integers instead of two strings' bytes, and 16-byte
  // swaps instead of 64-byte ones; then each entry moves once. A let of 400k
  // names spent a fifth of `parse` sorting them directly.
  void sort_appended() const {
    auto prefix = [](std::string_view n) {
      uint64_t k = 0;
      for (size_t i = 0; i < 8; ++i) k = (k << 8) | (i < n.size() ? static_cast<unsigned char>(n[i]) : 0u);
      return k;  // big-endian, zero-padded: k(a) < k(b) implies a < b
    };
    std::vector<std::pair<uint64_t, size_t>> keys;
    keys.reserve(v_.size() - sorted_);
    for (size_t i = sorted_; i < v_.size(); ++i) keys.emplace_back(prefix(v_[i].first), i);
    std::sort(keys.begin(), keys.end(), [this](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : v_[a.second].first < v_[b.second].first;
    });
    std::vector<size_t> from(keys.size());
    for (size_t j = 0; j < keys.size(); ++j) from[j] = keys[j].second - sorted_;
    apply_order(v_.data() + sorted_, from);
  }
  void reindex() const {
    index_.clear();
    index_.reserve(v_.size());
    for (size_t i = 0; i < v_.size(); ++i) index_.insert(v_[i].first, i, name_of());
  }
  struct NameOf {
    const std::vector<value_type>* v;
    std::string_view operator()(size_t i) const { return (*v)[i].first; }
  };
  NameOf name_of() const { return {&v_}; }

  // Mutable: sorting on a const begin() changes no observable content.
  mutable std::vector<value_type> v_;
  mutable size_t sorted_ = 0;  ///< v_[0, sorted_) is in name order
  // Positions in v_ by name: they stay true when v_ reallocates, and are
  // rebuilt when it is reordered (settle).
  mutable FlatIndex index_;
};

/// A set's attributes: static ones by name, dynamic ones in source order.
struct CoreAttrs {
  bool recursive = false;
  CoreAttrMap attrs;
  std::vector<CoreDynamicAttr> dynamic;
};

/// Owns all nodes of one core tree, allocated in blocks (a node is large:
/// std::deque would allocate one block per two of them); nodes never move.
/// clear() keeps the nodes for the next tree: a node made again starts
/// empty but keeps its vectors' and strings' memory, so lowering a file
/// after the first allocates little.
struct CoreTree {
  Core* root = nullptr;

  Core* make(CoreKind kind, Span span) {
    Core& c = nodes_.next();
    if (nodes_.reused()) {
      c.text.clear();
      c.int_value = 0;
      c.kids.clear();
      c.path.clear();
      c.attrs = nullptr;
      c.lambda = nullptr;
    }
    c.kind = kind;
    c.span = span;
    return &c;
  }
  CoreAttrs* make_attrs() {
    CoreAttrs& a = sets_.next();
    if (sets_.reused()) {
      a.recursive = false;
      a.attrs.clear();
      a.dynamic.clear();
    }
    return &a;
  }

  CoreLambda* make_lambda() {
    CoreLambda& l = lambdas_.next();
    if (lambdas_.reused()) {
      l.arg.clear();
      l.has_formals = false;
      l.ellipsis = false;
      l.formals.clear();
    }
    return &l;
  }

  /// Forgets the tree; its nodes are made again by the next one.
  void clear() {
    root = nullptr;
    nodes_.rewind();
    sets_.rewind();
    lambdas_.rewind();
  }

 private:
  template <class T>
  struct Blocks {
    static constexpr size_t kBlock = 16;
    std::vector<std::unique_ptr<T[]>> blocks;
    size_t n = 0;     // slots handed out for this tree
    size_t high = 0;  // slots ever handed out: these hold an earlier tree's nodes
    bool last_reused = false;
    T& next() {
      const size_t b = n / kBlock;
      if (b == blocks.size()) blocks.push_back(std::make_unique<T[]>(kBlock));
      last_reused = n < high;
      T& t = blocks[b][n % kBlock];
      if (++n > high) high = n;
      return t;
    }
    bool reused() const { return last_reused; }
    void rewind() { n = 0; }
  };
  Blocks<Core> nodes_;
  Blocks<CoreAttrs> sets_;
  Blocks<CoreLambda> lambdas_;
};

}  // namespace tailor::nix
