#pragma once
/// The tables a team's builder reads keyed by SM or by CUDA version (a GPU table,
/// a CUDA table), written per SM / CUDA of the matrix as blocks of a
/// [layout.tables] template, so that a GPU or a CUDA added to the spec gets its
/// entry and one dropped loses it:
///
///   {#sm}            the common text of an entry, written per SM the matrix
///   …                builds (oldest first) that has no own block; its words
///   {/sm}            "{word@sm}" ("{gpu_names@sm x86_64}") take that SM
///   {#sm 6.1}        an SM's own text (written instead of the common one for
///   …                that SM, where the matrix builds it; nothing where it
///   {/sm}            stands)
///
/// and likewise {#cuda} … {/cuda}, {#cuda 12.8} … {/cuda} per CUDA version
/// ("{word@cuda}"). A marker alone on its line takes the line's end with it.

#include <string>
#include <string_view>
#include <vector>

namespace tailor {

/// \a tmpl with its {#AXIS} blocks ("sm" or "cuda") written out for \a keys (in
/// that order); the text around them as it is. Throws DiagnosticError naming
/// \a path for an unclosed block or an own block without the common one.
std::string render_axis_blocks(std::string_view path, std::string_view tmpl, std::string_view axis,
                               const std::vector<std::string>& keys);

}  // namespace tailor
