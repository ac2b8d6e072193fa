#pragma once
/// The [layout]'s tables of texts the team writes per key ([layout.targets] per CPU target,
/// [layout.sm_texts] per SM): which column a place's texts fill, and the words a key's texts give.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tailor {

/// The column of \a table that \a texts (key -> text) fill: the first whose texts agree where
/// set (or have none: Layout::kNoText), else a new one; its word: \a stem for the first, STEM_N
/// for the Nth. Nullopt past the ninth.
std::optional<std::string> record_texts(const std::map<std::string, std::string>& texts,
                                        std::map<std::string, std::vector<std::string>>& table,
                                        const std::string& stem);

/// The words of \a table's texts of \a key into \a words: {stem}, {stem_2}, … (none where a
/// column has no text).
void text_words(const std::map<std::string, std::vector<std::string>>& table, const std::string& key,
                const std::string& stem, std::map<std::string, std::string>& words);

}  // namespace tailor
