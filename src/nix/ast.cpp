#include "nix/ast.hpp"

#include <algorithm>
#include <cstddef>
#include <new>
#include <string_view>

#include "nix/visit.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define TAILOR_NIX_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TAILOR_NIX_POOL 0
#endif
#endif
#ifndef TAILOR_NIX_POOL
#define TAILOR_NIX_POOL 1
#endif

namespace tailor::nix {

namespace {

// Free lists of slots by size (16-byte steps up to kLargest), carved from
// 64 KiB chunks that are never given back: a slot stays valid whichever
// thread frees it and however late (static trees), and the state is
// trivially destructible, so no thread_local guard is paid per call.
struct NodePool {
  static constexpr size_t kStep = 16;
  static constexpr size_t kLargest = 256;
  static constexpr size_t kChunk = 64 * 1024;
  struct Slot {
    Slot* next;
  };

  void* take(size_t size) {
    const size_t c = (size + kStep - 1) / kStep;
    if (Slot* s = free[c]) {
      free[c] = s->next;
      return s;
    }
    const size_t bytes = c * kStep;
    if (left < bytes) {
      cur = static_cast<std::byte*>(::operator new(kChunk));  // aligned for any node
      left = kChunk;
    }
    void* p = cur;
    cur += bytes;
    left -= bytes;
    return p;
  }

  void give(void* p, size_t size) noexcept {
    const size_t c = (size + kStep - 1) / kStep;
    auto* s = static_cast<Slot*>(p);
    s->next = free[c];
    free[c] = s;
  }

  Slot* free[kLargest / kStep + 1];
  std::byte* cur;
  size_t left;
};

thread_local NodePool node_pool{};

}  // namespace

void* Expr::operator new(size_t size) {
  if (!TAILOR_NIX_POOL || size > NodePool::kLargest) return ::operator new(size);
  return node_pool.take(size);
}

void Expr::operator delete(void* p, size_t size) noexcept {
  // Unsized: clang (the fuzz build) declares the sized global delete only with -fsized-deallocation.
  if (!TAILOR_NIX_POOL || size > NodePool::kLargest) return ::operator delete(p);
  node_pool.give(p, size);
}

const char* binary_op_text(BinaryOp op) {
  switch (op) {
    case BinaryOp::eq: return "==";
    case BinaryOp::neq: return "!=";
    case BinaryOp::lt: return "<";
    case BinaryOp::leq: return "<=";
    case BinaryOp::gt: return ">";
    case BinaryOp::geq: return ">=";
    case BinaryOp::and_: return "&&";
    case BinaryOp::or_: return "||";
    case BinaryOp::impl: return "->";
    case BinaryOp::update: return "//";
    case BinaryOp::concat: return "++";
    case BinaryOp::add: return "+";
    case BinaryOp::sub: return "-";
    case BinaryOp::mul: return "*";
    case BinaryOp::div: return "/";
  }
  return "?";
}

namespace {
// Attribute paths count their length: lowering turns `a.b.c = v` into nested sets.
int path_height(const std::vector<AttrName>& path) {
  int m = 0;
  for (const auto& a : path)
    if (a.expr) m = std::max(m, a.expr->height);
  return m + static_cast<int>(path.size());
}
}  // namespace

void update_height(Expr& e) {
  int m = 0;
  for_each_child(e, {}, [&](const Expr& child, std::string_view) { m = std::max(m, child.height); });
  if (e.kind == ExprKind::select || e.kind == ExprKind::has_attr) {
    m = std::max(m, path_height(static_cast<const Select&>(e).path));
  } else if (e.kind == ExprKind::attrs || e.kind == ExprKind::let || e.kind == ExprKind::legacy_let) {
    for (const auto& b : static_cast<const Attrs&>(e).bindings) m = std::max(m, path_height(b.path));
  }
  e.height = m + 1;
}

}  // namespace tailor::nix
