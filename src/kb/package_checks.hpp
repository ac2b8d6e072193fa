#pragma once
/// Checks of the package definitions that need the whole knowledge base (the
/// packages a need names, dependency cycles, template placeholders), reported
/// as file:line:col errors at the definition that breaks them.

#include <map>
#include <string>
#include <string_view>

namespace tailor {

struct KnowledgeBase;

/// Throws DiagnosticError at the first broken definition. \a texts maps each
/// path the definitions were read from to its text.
void check_packages(const KnowledgeBase& kb, const std::map<std::string, std::string_view>& texts);

}  // namespace tailor
