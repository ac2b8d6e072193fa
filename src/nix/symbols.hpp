#pragma once
/// Nix 2.8 orders `let` bindings and function formals by its Symbol type,
/// which compares the addresses of interned strings: names that Nix interns
/// while starting up come first, the rest in the order the parser interns
/// them. This table reproduces that order as far as it is predictable; it
/// lives as long as one `tailor parse` run, as Nix's lives for one process.
///
/// Where it is not predictable (measured with an LD_PRELOAD malloc tracer and
/// gdb on Debian's nix-bin 2.8.0): Nix 2.8's SymbolTable is an
/// unordered_map<string_view, Symbol> over a std::list<std::string>, and a
/// Symbol is the address of a list node's string, i.e. a glibc malloc(48)
/// (64-byte chunk) taken when the name is first created. Addresses rise with
/// interning order while malloc carves from the top of the heap, but not
/// when it reuses freed memory. The case that matters: when the map's
/// element count passes its bucket count (257 buckets: the 258th symbol of
/// the process; then 541, 1109, ...) it rehashes and frees the old bucket
/// array (2064 bytes for 257), which lies below the file's earlier symbols,
/// among the start-up ones. The next small allocations of the parser
/// (symbols, Expr nodes, vectors, strings) are carved from that hole until it
/// is used up, so the few names first seen just after the rehash sort before
/// names seen earlier in the file. How many depends on the byte count of
/// every allocation Nix's bison parser makes in between, and where the hole
/// lies on the heap left by start-up (Nix reads nix.conf, the store settings
/// and $NIX_PATH first), so it is not reproduced here. Example: in
/// data/builders/custom-torch.nix the 258th symbol is
/// `effectiveMagma`; `baseTorch`, `isCuda` and `p`, first seen a little
/// later, land in the hole, so `isCuda` comes first among the let bindings
/// in Nix's output. Even comments move the hole's contents (Nix copies the
/// file onto the heap): the file cut after its `let` prints `base` first,
/// and the same cut file without its comments `isCuda`.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/flat_index.hpp"

namespace tailor::nix {

class SymbolTable {
 public:
  /// A table preloaded with the names Nix 2.8 interns before parsing.
  SymbolTable();

  /// Records \a name if it is new (the parser calls this where Nix's
  /// grammar actions call `symbols.create`).
  void intern(std::string_view name);

  /// The sort key of \a name; names never interned sort last.
  uint64_t rank(std::string_view name) const;

  /// Whether Nix orders \a a before \a b.
  bool less(std::string_view a, std::string_view b) const { return by_name_ ? a < b : rank(a) < rank(b); }

  /// Sorts \a items into Nix's order of their names, key(item), names of one
  /// rank (never interned) by their text: the order does not depend on the
  /// order they come in. One rank lookup per item instead of two per comparison.
  template <class T, class Key>
  void sort(std::vector<T>& items, Key key) const {
    const size_t n = items.size();
    if (n < 2) return;
    if (by_name_) {
      std::stable_sort(items.begin(), items.end(), [&](const T& a, const T& b) { return key(a) < key(b); });
      return;
    }
    if (n <= 16) {  // insertion sort, ranks on the stack
      uint64_t r[16];
      for (size_t i = 0; i < n; ++i) r[i] = rank(key(items[i]));
      for (size_t i = 1; i < n; ++i)
        for (size_t j = i; j > 0 && (r[j - 1] > r[j] || (r[j - 1] == r[j] && key(items[j]) < key(items[j - 1]))); --j) {
          std::swap(r[j - 1], r[j]);
          std::swap(items[j - 1], items[j]);
        }
      return;
    }
    std::vector<std::pair<uint64_t, size_t>> order(n);  // (rank, position): sorted, it is stable
    for (size_t i = 0; i < n; ++i) order[i] = {rank(key(items[i])), i};
    std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      std::string_view ka = key(items[a.second]), kb = key(items[b.second]);
      return ka != kb ? ka < kb : a.second < b.second;
    });
    std::vector<T> sorted;
    sorted.reserve(n);
    for (const auto& o : order) sorted.push_back(std::move(items[o.second]));
    items = std::move(sorted);
  }

  /// A table that orders all names by their text: a canonical order, for
  /// comparing outputs whose order of bindings cannot be predicted.
  static SymbolTable by_name() {
    SymbolTable t;
    t.by_name_ = true;
    return t;
  }

  /// A table that records nothing, for readers of syntax trees that are never
  /// lowered or printed in Nix's order (check): interning costs a hash lookup per name.
  static SymbolTable unrecorded() {
    SymbolTable t(Unrecorded{});
    t.by_name_ = true;
    return t;
  }

 private:
  struct Unrecorded {};
  explicit SymbolTable(Unrecorded) : next_fresh_(0), record_(false) {}

  bool add(std::string_view name, uint64_t rank);  // false: known already

  // Each name once with its rank, found through a flat index (a node-based map's
  // inserts were most of `parse`'s time on a let of 400k names).
  std::vector<std::pair<std::string, uint64_t>> ranks_;
  FlatIndex index_;
  uint64_t next_fresh_;
  bool by_name_ = false;
  bool record_ = true;
};

}  // namespace tailor::nix
