#pragma once
/// `tailor adopt`: the tables the team's builder reads (an SM -> facts table, a
/// CUDA -> facts table) and the pages its scripts wrote (docs/…/*.md), read
/// back into [layout.tables] templates: the team's text with each fact of the
/// knowledge base put back as a {word@key} (table_words.hpp). A file is taken
/// over only when the template, filled from the knowledge base, gives the
/// team's file back byte for byte except at lines `check --all-sites` reports
/// on it; else it stays as the team wrote it, and why is said.

#include <string>
#include <vector>

#include "import/layout_import.hpp"
#include "kb/knowledge_base.hpp"
#include "matrix/expand.hpp"
#include "recipe/source_file.hpp"

namespace tailor {

/// Learns the tables among \a li's kept files and the pages the tree's scripts
/// write (\a files, the tree at \a root), for \a spec (the spec with \a li's
/// layout) and its matrix \a m. Updates \a li: its layout's tables, pages,
/// target_text, keep and replaces (the pages' script); kept_why, page_why, the
/// team's architecture names and driver floors its tables write.
void import_tables(const std::vector<recipe::SourceFile>& files, const std::string& root, const Spec& spec,
                   const Matrix& m, const KnowledgeBase& kb, LayoutImport& li);

}  // namespace tailor
