#pragma once
/// doc/rules.md: the rules of `tailor check` as a Markdown page, written from
/// the rule table (src/lint/rules.cpp) by `tailor-docs` beside the man page.
/// The committed page is compared with it by a test, so it cannot drift.

#include <string>

namespace tailor {

std::string rules_page();

}  // namespace tailor
