#include "nix/ast.hpp"

#include <algorithm>
#include <cstddef>
#include <new>

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
int h(const ExprPtr& e) { return e ? e->height : 0; }
int h(const std::vector<StringPart>& parts) {
  int m = 0;
  for (const auto& p : parts) m = std::max(m, h(p.expr));
  return m;
}
// Attribute paths count their length: lowering turns `a.b.c = v` into nested sets.
int h(const std::vector<AttrName>& path) {
  int m = 0;
  for (const auto& a : path) m = std::max(m, h(a.expr));
  return m + static_cast<int>(path.size());
}
}  // namespace

void update_height(Expr& e) {
  int m = 0;
  switch (e.kind) {
    case ExprKind::string:
    case ExprKind::ind_string: m = h(static_cast<String&>(e).parts); break;
    case ExprKind::path: m = h(static_cast<Path&>(e).parts); break;
    case ExprKind::select:
    case ExprKind::has_attr: {
      auto& s = static_cast<Select&>(e);
      m = std::max({h(s.subject), h(s.path), h(s.fallback)});
      break;
    }
    case ExprKind::attrs:
    case ExprKind::let:
    case ExprKind::legacy_let: {
      auto& a = static_cast<Attrs&>(e);
      m = h(a.body);
      for (const auto& b : a.bindings) m = std::max({m, h(b.path), h(b.value), h(b.from)});
      break;
    }
    case ExprKind::list:
      for (const auto& x : static_cast<List&>(e).elems) m = std::max(m, h(x));
      break;
    case ExprKind::lambda: {
      auto& l = static_cast<Lambda&>(e);
      m = h(l.body);
      for (const auto& f : l.formals) m = std::max(m, h(f.fallback));
      break;
    }
    case ExprKind::call: {
      auto& c = static_cast<Call&>(e);
      m = h(c.fn);
      for (const auto& x : c.args) m = std::max(m, h(x));
      break;
    }
    case ExprKind::with:
    case ExprKind::if_:
    case ExprKind::assert_: {
      auto& t = static_cast<Ternary&>(e);
      m = std::max({h(t.first), h(t.second), h(t.third)});
      break;
    }
    case ExprKind::unary: m = h(static_cast<Unary&>(e).operand); break;
    case ExprKind::binary: {
      auto& b = static_cast<Binary&>(e);
      m = std::max(h(b.lhs), h(b.rhs));
      break;
    }
    default: break;
  }
  e.height = m + 1;
}

}  // namespace tailor::nix
