#pragma once
/// The steps of fit_pages (page_fit.hpp) that read text alone, apart so that
/// each can be tested: words put back into a page's text, the path template,
/// and the parts of the page template learnt from every page (the list of the
/// SMs a cell lacks, the text a row writes per target, the SM block, the tail).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "matrix/page_template.hpp"
#include "recipe/source_file.hpp"

namespace tailor {

/// \a t with each occurrence of \a value standing alone replaced by {word}: a number alone
/// has no digit beside it (nor "1." / "_1"); a name no letter, digit or '_'. Text inside a
/// word already put ("{…@…}") stays.
std::string put_word(std::string t, const std::string& value, const std::string& word, bool number);

/// \a t with the SM \a nodot ("86") put back as {word} where it is written as an SM: after
/// "SM", "sm", "sm_" or "SM " ("x86" is no SM).
std::string put_sm(std::string t, const std::string& nodot, const std::string& word);

/// \a t with the words of cell \a c put back ({version@cell}), longest value first (0.26.0
/// before 0.26); the driver floor only on a line that speaks of the driver, the team's first.
std::string put_cell(std::string t, const PageCell& c, const TeamFacts& team);

/// The path template over cell words ("docs/{version_mm}-cuda-{cuda}.md") and the cell of
/// \a cells each page names.
struct PathFit {
  std::string path;
  std::map<const recipe::SourceFile*, size_t> cell;  ///< a page -> the index of its cell
};
/// The template that names each of \a pages' own cell, one cell per page; of several, the
/// last in text order; nullopt when none does.
std::optional<PathFit> fit_path(const std::vector<const recipe::SourceFile*>& pages,
                                const std::vector<PageCell>& cells);

/// A line of a template being learnt: text, or the place of a block that is written once
/// every page is read.
struct TemplateLine {
  enum class Kind {
    text,          ///< the line's text
    target_rows,   ///< an SM's rows: the {#target} block
    missing_list,  ///< the line that lists the SMs a cell lacks: the {#missing} block
  } kind = Kind::text;
  std::string text;  ///< of a text line
  /// An empty text line (a blank line of the page).
  bool blank() const { return kind == Kind::text && text.empty(); }
  bool operator==(const TemplateLine&) const = default;
};
using TemplateLines = std::vector<TemplateLine>;

/// The items of the lists of missing SMs the pages write, by whether the SM is "later" (one
/// the cell's CUDA no longer builds): an item with the separator after it, and a last item
/// with the end of its line.
struct MissingItems {
  std::map<bool, std::string> nonlast, last;
};
/// The list of missing SMs as the template writes it.
struct MissingList {
  std::string before;                ///< the line's text before the list
  std::string sep;                   ///< between two items
  std::string line_end;              ///< after the last item
  std::map<bool, std::string> body;  ///< an item without what follows it, by "later"
};
/// The list learnt from \a items and the text \a before it; nullopt, with why in \a why, when
/// no two items tell the separator or the items read unlike each other.
std::optional<MissingList> missing_list(const MissingItems& items, std::string before, std::string& why);
/// The line of \a list: before, the {#missing} block, the line's end.
std::string missing_line(const MissingList& list);

/// Rows of a page's SM sections, words put back: kind of SM ("", "aarch64_only") -> CPU
/// target -> row.
using KindRows = std::map<std::string, std::map<std::string, std::string>>;
/// The row template per kind of SM: where a kind's rows differ, between what they share (or
/// what the first such kind's rows have around it), the text of the target, whose texts go
/// to \a targets ([layout.targets]: the first kind's "text", a second text "text_2"); nullopt,
/// with why in \a why, when rows differ in more than that text.
std::optional<std::map<std::string, std::string>> target_rows(const KindRows& rows,
                                                              std::map<std::string, std::vector<std::string>>& targets,
                                                              std::string& why);

/// The lines of the {#sm} block from the section learnt per kind of SM (\a sections, its rows
/// a target_rows line) and the row template per kind (\a rows): the sections as the others'
/// ("" or the first kind), or one kind's own under {#if KIND} where it differs (line by
/// line, where only text lines differ); nullopt, with why in \a why, when two kinds differ.
std::optional<std::vector<std::string>> sm_block(const std::map<std::string, TemplateLines>& sections,
                                                 const std::map<std::string, std::string>& rows, std::string& why);

/// The lines after the {#sm} block: \a tail, its missing_list line written by \a list, under
/// {#if missing} where there is a list; the file's final newline stays outside the condition.
std::vector<std::string> tail_block(TemplateLines tail, const std::optional<MissingList>& list);

}  // namespace tailor
