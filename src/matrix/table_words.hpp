#pragma once
/// The words of a [layout.tables] template: one fact for one key, written
/// "{word@key}" ("{driver@12.8}", "{gpu_names@9.0 aarch64}"). A table the
/// builder reads, or a page the team's script wrote, is the team's text with
/// its facts put back as words: generate writes the facts from the knowledge
/// base (and [layout.gpu_names]), the rest of the text as the team wrote it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/expand.hpp"
#include "matrix/layout_facts.hpp"
#include "matrix/template_fill.hpp"

namespace tailor {

/// The words are the key scope of the word table (template_words.hpp):
/// gpu_names@SM[ platform]: [layout.gpu_names] (else the knowledge base's products);
/// arch_name@SM: the architecture's family ("Hopper"); cuda_underscore_list@SM:
/// the CUDA versions the matrix builds the SM with, as Nix list items
/// ("\"12_8\" \"12_9\""): none that nvcc cannot compile for it; driver@CUDA: NVIDIA's minimum driver, its major
/// ("570"); cuda_attr@CUDA: the nixpkgs package set ("cudaPackages_13_0"); isa_flags@ISA:
/// a CPU target's compiler flags, as Nix list items ("\"-mavx2\" \"-mfma\""); sm@SM, sm_nodot@SM
/// ("9.0", "90"), cuda@CUDA, cuda_underscore@CUDA ("12.8", "12_8"): the key itself, for the
/// entries of {#sm} and {#cuda} blocks (axis_table.hpp).

/// The pieces of \a tmpl: "{word@key}" (word of [a-z_], key of [0-9a-z_. ]) is
/// a word whose text is "word@key"; any other brace is literal.
std::vector<TemplatePiece> table_pieces(std::string_view tmpl);

/// \a tmpl with its words' values; throws DiagnosticError naming \a path for a word without one.
std::string render_table_template(std::string_view path, std::string_view tmpl, const Spec& spec, const Matrix& m,
                                  const KnowledgeBase& kb);

}  // namespace tailor
