#include "matrix/table_words.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/axis_table.hpp"
#include "matrix/layout_facts.hpp"
#include "matrix/template_words.hpp"
#include "matrix/version_table.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

std::vector<TemplatePiece> table_pieces(std::string_view tmpl) {
  return split_template(tmpl, [](std::string_view t, size_t open) {
    auto word_char = [](char c) { return std::islower(static_cast<unsigned char>(c)) || c == '_'; };
    auto key_char = [](char c) {
      return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_' ||
             c == '.' || c == ' ';
    };
    size_t j = open + 1;
    while (j < t.size() && word_char(t[j])) ++j;
    if (j == open + 1 || j >= t.size() || t[j] != '@') return std::string_view::npos;
    size_t at = j++;
    while (j < t.size() && key_char(t[j])) ++j;
    return j > at + 1 && j < t.size() && t[j] == '}' ? j : std::string_view::npos;
  });
}

namespace {

std::pair<std::string_view, std::string_view> split_word(std::string_view text) {
  size_t at = text.find('@');
  return {text.substr(0, at), text.substr(at + 1)};
}

}  // namespace

std::string render_table_template(std::string_view path, std::string_view tmpl, const Spec& spec, const Matrix& m,
                                  const KnowledgeBase& kb) {
  std::string expanded = render_version_blocks(path, tmpl, spec, m, kb);       // the version table's entries
  expanded = render_axis_blocks(path, expanded, "sm", matrix_sms(m));          // a GPU table's
  expanded = render_axis_blocks(path, expanded, "cuda", matrix_cudas(m, kb));  // a CUDA table's
  auto value = [&](const std::string& text) {
    auto [word, key] = split_word(text);
    return table_word(word, key, spec, m, kb);
  };
  QuotedFill how{
      language_of(path), [&](const std::string& text) { return fmt::format("[layout.tables] {}: {{{}}}", path, text); },
      [&](const std::string& text) {
        Diagnostic d;
        d.message = fmt::format("[layout.tables] {}: {{{}}} has no value", path, text);
        d.hint = fmt::format("words: {}; an SM (\"9.0\") or CUDA (\"12.8\") of the knowledge base after the @",
                             fmt::join(scope_words(WordScope::key, {}), ", "));
        throw DiagnosticError(d);
      }};
  return fill(table_pieces(expanded), value, how);
}

}  // namespace tailor
