#pragma once
/// The comment lines of a Nix file, from the comments its lexer recorded
/// (nix/lexer.hpp): nothing scans the text a second time for them.

#include <string_view>
#include <vector>

#include "nix/lexer.hpp"
#include "recipe/fact.hpp"
#include "recipe/line_index.hpp"

namespace tailor::recipe {

/// Each line of each of \a comments of \a text, with the span of its text
/// after `#` / inside `/* */`; key "header" for the comments before the
/// file's first token (its header block), else "comment". A line longer than
/// kMaxRegexLine keeps only its first kMaxRegexLine + 1 bytes: still too long
/// for the rules that skip such lines, and a directive at its start still read.
std::vector<Fact> comment_lines(const std::vector<nix::Comment>& comments, std::string_view text,
                                const LineIndex& lines);

}  // namespace tailor::recipe
