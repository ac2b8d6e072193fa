#pragma once
/// The words of a [layout] wrapper template, "{version_mm}": the variant scope
/// of the word table (template_words.hpp), its values for one variant, and the
/// wrapper written from them.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/spec.hpp"
#include "matrix/template_fill.hpp"
#include "matrix/variant.hpp"

namespace tailor {

/// The first word of \a tmpl the variant scope lacks (\a paired: the paired
/// attributes, paired_attributes); nullopt when none.
std::optional<std::string> unknown_layout_word(std::string_view tmpl, const std::vector<std::string>& paired);

/// The words of \a v a wrapper template may name, as \a spec and the knowledge
/// base give them; a word that has no value for \a v is absent.
std::map<std::string, std::string> layout_words(const Variant& v, const Spec& spec, const KnowledgeBase& kb);

/// \a tmpl with its words replaced; throws DiagnosticError naming \a v when
/// the template uses a word \a v has no value for.
std::string render_layout_template(std::string_view tmpl, const Variant& v,
                                   const std::map<std::string, std::string>& words);

}  // namespace tailor
