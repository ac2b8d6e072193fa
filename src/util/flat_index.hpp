#pragma once
/// A hash index by name over entries kept elsewhere (a vector of names, of
/// pairs, …): each slot holds an entry's position and 32 bits of its name's
/// hash, in one flat array probed linearly. std::unordered_map allocates a
/// node per entry and chases a pointer per probe; on inputs of a few hundred
/// thousand names (a let chain, a bash array) that table outgrew the caches
/// and the time per name kept rising with the count (issue 46). Here a lookup
/// touches one slot line and, when the hash bits match, the entry itself; the
/// entries may move (a vector reallocating) without the index changing, and
/// growing rehashes from the stored bits without reading a name.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace tailor {

class FlatIndex {
 public:
  static constexpr size_t npos = static_cast<size_t>(-1);

  /// The position of the entry named \a name, or npos; \a name_of(i) is
  /// entry i's name.
  template <class NameOf>
  size_t find(std::string_view name, NameOf&& name_of) const {
    if (slots_.empty()) return npos;
    const uint32_t h = hash(name);
    for (size_t s = h & mask(); slots_[s].entry != 0; s = (s + 1) & mask())
      if (slots_[s].hash == h && name_of(slots_[s].entry - 1) == name) return slots_[s].entry - 1;
    return npos;
  }

  /// Records \a entry under \a name unless a name equal to it is indexed:
  /// returns the entry found (second false) or \a entry (second true).
  template <class NameOf>
  std::pair<size_t, bool> insert(std::string_view name, size_t entry, NameOf&& name_of) {
    if ((count_ + 1) * 2 > slots_.size()) grow(count_ + 1);
    const uint32_t h = hash(name);
    size_t s = h & mask();
    for (; slots_[s].entry != 0; s = (s + 1) & mask())
      if (slots_[s].hash == h && name_of(slots_[s].entry - 1) == name) return {slots_[s].entry - 1, false};
    slots_[s] = {h, static_cast<uint32_t>(entry + 1)};
    ++count_;
    return {entry, true};
  }

  /// Room for \a n names without growing.
  void reserve(size_t n) {
    if (n * 2 > slots_.size()) grow(n);
  }
  /// Forgets every name; keeps the slots' memory for the next ones.
  void clear() {
    if (count_ == 0) return;
    std::fill(slots_.begin(), slots_.end(), Slot{});
    count_ = 0;
  }
  size_t size() const { return count_; }

 private:
  struct Slot {
    uint32_t hash = 0;
    uint32_t entry = 0;  ///< position + 1; 0: empty
  };
  std::vector<Slot> slots_;
  size_t count_ = 0;

  static uint32_t hash(std::string_view name) {
    const size_t h = std::hash<std::string_view>{}(name);
    return static_cast<uint32_t>(h ^ (h >> 32));
  }
  size_t mask() const { return slots_.size() - 1; }
  // At most half full: the next power of two at or above 2n slots, at least 16.
  void grow(size_t n) {
    size_t size = 16;
    while (size < n * 2) size *= 2;
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(size, Slot{});
    for (const Slot& o : old) {
      if (o.entry == 0) continue;
      size_t s = o.hash & mask();
      while (slots_[s].entry != 0) s = (s + 1) & mask();
      slots_[s] = o;
    }
  }
};

}  // namespace tailor
