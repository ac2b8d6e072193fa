#include "nix/symbols.hpp"

#include "nix/builtin_names.hpp"

namespace tailor::nix {

namespace {
constexpr uint64_t kFreshBase = uint64_t{1} << 20;
constexpr uint64_t kLateBase = uint64_t{1} << 40;
}  // namespace

SymbolTable::SymbolTable() : next_fresh_(kFreshBase) {
  uint64_t i = 0;
  for (auto n : kEarlySymbols) add(n, i++);
  i = kLateBase;
  for (auto n : kLateSymbols) add(n, i++);
}

bool SymbolTable::add(std::string_view name, uint64_t rank) {
  // A name seen before keeps its first rank: its place is fixed when first seen.
  auto name_of = [this](size_t k) -> std::string_view { return ranks_[k].first; };
  if (!index_.insert(name, ranks_.size(), name_of).second) return false;
  ranks_.emplace_back(std::string(name), rank);
  return true;
}

void SymbolTable::intern(std::string_view name) {
  if (record_ && add(name, next_fresh_)) ++next_fresh_;
}

uint64_t SymbolTable::rank(std::string_view name) const {
  size_t k = index_.find(name, [this](size_t i) -> std::string_view { return ranks_[i].first; });
  return k == FlatIndex::npos ? UINT64_MAX : ranks_[k].second;
}

}  // namespace tailor::nix
