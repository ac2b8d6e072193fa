#pragma once
/// The core form of a Nix expression: the tree Nix 2.8 itself builds while
/// parsing, after its desugarings (operators as calls to `__sub`,
/// `__lessThan`…, nested attribute paths merged into nested sets, `inherit`
/// expanded, strings split into concatenations). `nix-instantiate --parse`
/// prints this form; lower.hpp builds it from the surface tree.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nix/token.hpp"

namespace tailor::nix {

enum class CoreKind : uint8_t {
  int_lit, float_lit, string, path, var, cur_pos, select, has_attr, attrs, list, lambda, call, let,
  with, if_, assert_, not_, binop, concat,
};

struct Core;
struct CoreAttrs;

/// An attribute path element: a static name or a dynamic expression.
struct CoreAttrName {
  std::string name;
  Core* expr = nullptr;  ///< set: dynamic
};

/// One node. Fields are used according to `kind` (see lower.cpp).
struct Core {
  CoreKind kind;
  Span span;
  std::string text;         ///< var name, string/path value, binop operator
  int64_t int_value = 0;
  double float_value = 0;
  std::vector<Core*> kids;  ///< children: call (fn, args…), list, concat, if/with/assert, binop, select (subject[, or])
  std::vector<CoreAttrName> path;  ///< select, has_attr
  CoreAttrs* attrs = nullptr;      ///< attrs, let
  // lambda
  std::string arg;
  bool has_formals = false;
  bool ellipsis = false;
  std::vector<std::pair<std::string, Core*>> formals;  ///< in Nix's (symbol) order; default may be null
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

/// A set's attributes: static ones by name, dynamic ones in source order.
struct CoreAttrs {
  bool recursive = false;
  std::map<std::string, CoreAttrDef> attrs;
  std::vector<CoreDynamicAttr> dynamic;
};

/// Owns all nodes of one core tree, allocated in blocks (a node is large:
/// std::deque would allocate one block per two of them); nodes never move.
struct CoreTree {
  Core* root = nullptr;

  Core* make(CoreKind kind, Span span) {
    Core& c = nodes_.next();
    c.kind = kind;
    c.span = span;
    return &c;
  }
  CoreAttrs* make_attrs() { return &sets_.next(); }

 private:
  template <class T>
  struct Blocks {
    static constexpr size_t kBlock = 16;
    std::vector<std::unique_ptr<T[]>> blocks;
    size_t used = kBlock;
    T& next() {
      if (used == kBlock) {
        blocks.push_back(std::make_unique<T[]>(kBlock));
        used = 0;
      }
      return blocks.back()[used++];
    }
  };
  Blocks<Core> nodes_;
  Blocks<CoreAttrs> sets_;
};

}  // namespace tailor::nix
