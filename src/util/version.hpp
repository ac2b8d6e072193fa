#pragma once
/// Dotted version numbers: CUDA toolkits ("12.8"), drivers ("575.51.03"),
/// compute capabilities ("9.0"), Python ("3.13"), packages ("2.9.1").

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tailor {

class Version {
 public:
  Version() = default;
  /// Parses "12.8", "575.51.03", "2.9.1"; nullopt unless all parts are decimal.
  static std::optional<Version> parse(std::string_view text);

  int major() const { return part(0); }
  int minor() const { return part(1); }
  int part(size_t i) const { return i < parts_.size() ? parts_[i] : 0; }
  size_t size() const { return parts_.size(); }
  const std::string& str() const { return text_; }

  /// Compares numerically, missing parts count as 0 ("12.9" == "12.9.0").
  std::strong_ordering operator<=>(const Version& o) const;
  bool operator==(const Version& o) const { return (*this <=> o) == 0; }

 private:
  std::vector<int> parts_;
  std::string text_;
};

}  // namespace tailor
