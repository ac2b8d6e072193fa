#pragma once
/// The facts a [layout] writes that are no one word's: what the knowledge base
/// and the team's own tables ([layout.drivers], [layout.gpu_names],
/// [layout.arch_names]) give for a variant, a page's cell or a table's key.
/// Each has one home here: the word families (layout_words, table_words,
/// version_table, page_template) ask it for facts, not each other.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kb/knowledge_base.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec.hpp"

namespace tailor {

/// NVIDIA's minimum driver for \a t and \a gpus (kb/driver_rule.hpp), or the team's
/// floor for \a t ([layout.drivers]) where it meets it; nullopt without either.
std::optional<std::string> written_driver(const Spec& spec, const CudaToolkit& t,
                                          const std::vector<const GpuArch*>& gpus);

/// written_driver for \a v's CUDA and GPUs; nullopt without a CUDA the knowledge base knows.
std::optional<std::string> variant_driver(const Variant& v, const Spec& spec, const KnowledgeBase& kb);

/// The GPU names of \a sm: [layout.gpu_names] of "SM ARCH" (where \a arch is given),
/// else of the SM, else the knowledge base's products; nullopt for an SM neither names.
std::optional<std::string> gpu_names(const Spec& spec, const KnowledgeBase& kb, const std::string& sm,
                                     std::string_view arch);

/// gpu_names of a table's key "SM" or "SM ARCH" (ARCH x86_64 or aarch64); nullopt
/// for a key that is no SM of the knowledge base, or another arch.
std::optional<std::string> key_gpu_names(const Spec& spec, const KnowledgeBase& kb, const std::string& key);

/// [layout.targets] of \a isa for the word \a word ("text" the first text, "text_N" the Nth);
/// nullopt where the layout has none.
std::optional<std::string> target_text(const Spec& spec, const std::string& isa, std::string_view word);

/// [layout.sm_texts] of "SM ARCH", else of the SM, for the word \a word ("sm_text" the first text,
/// "sm_text_N" the Nth); nullopt where the layout has none.
std::optional<std::string> sm_text(const Spec& spec, const std::string& sm, std::string_view arch,
                                   std::string_view word);

/// [layout.arch_names] of \a sm, else its family ("Hopper"); nullopt for an SM the knowledge base lacks.
std::optional<std::string> arch_name(const Spec& spec, const KnowledgeBase& kb, const std::string& sm);

/// What \a v pairs with that names words: of the packages the knowledge base's
/// pairings name (paired_attributes), as (attribute, version).
std::vector<std::pair<std::string, std::string>> variant_paired(const Variant& v, const KnowledgeBase& kb);

/// The SMs of \a m's variants ("9.0"), oldest first.
std::vector<std::string> matrix_sms(const Matrix& m);

/// The CUDA versions of \a m's variants ("12.8"), oldest first.
std::vector<std::string> matrix_cudas(const Matrix& m, const KnowledgeBase& kb);

/// The value of the table word \a word (table_words.hpp lists them) for \a key, an SM
/// ("9.0", "9.0 aarch64"), a CUDA or a CPU target; nullopt when the word is unknown or
/// has no value there (no such SM or CUDA, no driver recorded). \a m: the spec's matrix.
std::optional<std::string> table_word(std::string_view word, std::string_view key, const Spec& spec, const Matrix& m,
                                      const KnowledgeBase& kb);

}  // namespace tailor
