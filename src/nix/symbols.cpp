#include "nix/symbols.hpp"

#include "nix/builtin_names.hpp"

namespace tailor::nix {

namespace {
constexpr uint64_t kFreshBase = uint64_t{1} << 20;
constexpr uint64_t kLateBase = uint64_t{1} << 40;
}  // namespace

SymbolTable::SymbolTable() : next_fresh_(kFreshBase) {
  uint64_t i = 0;
  for (auto n : kEarlySymbols) ranks_.emplace(std::string(n), i++);
  i = kLateBase;
  for (auto n : kLateSymbols) ranks_.emplace(std::string(n), i++);
}

void SymbolTable::intern(std::string_view name) {
  if (!record_) return;
  // try_emplace keeps the first rank: a name's place is fixed when first seen.
  if (ranks_.find(name) != ranks_.end()) return;
  ranks_.emplace(std::string(name), next_fresh_++);
}

uint64_t SymbolTable::rank(std::string_view name) const {
  auto it = ranks_.find(name);
  return it == ranks_.end() ? UINT64_MAX : it->second;
}

}  // namespace tailor::nix
