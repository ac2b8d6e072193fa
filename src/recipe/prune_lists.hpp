#pragma once
/// The SM lists a recipe prunes its GPU code to, read from its text with its
/// other facts (check's rule TLR041 compares them with the name's SM).

#include <string>
#include <string_view>
#include <vector>

#include "nix/token.hpp"
#include "recipe/line_index.hpp"

namespace tailor::recipe {

struct PruneSmList {
  std::vector<std::string> sms;  ///< as written
  nix::Span span;                ///< the list's
};

/// Each `tailor prune … --sm LIST` on one line of \a text, and the `pruneSms = [ … ]`
/// of a tailor variant record, with the span of each list (\a lines: of \a text).
std::vector<PruneSmList> prune_sm_lists(std::string_view text, const LineIndex& lines);

}  // namespace tailor::recipe
