#pragma once
/// The human-facing text of a variant: meta.description, longDescription and
/// the three-line header comment. Built only from knowledge-base facts, so a
/// description cannot name a GPU under the wrong architecture.

#include "settings/build_settings.hpp"

namespace tailor {

/// Fills description, long_description and header_comment of \a s.
void describe(BuildSettings& s, const KnowledgeBase& kb);

}  // namespace tailor
