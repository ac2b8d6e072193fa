#pragma once
/// The words a [layout] wrapper template may name, "{version_mm}", and the
/// split of a template into literal text and words. A brace not followed by a
/// word and its closing brace is literal text ("{ pkgs ? … {} }:" of a Nix wrapper).

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/spec.hpp"
#include "matrix/variant.hpp"

namespace tailor {

/// version, version_mm: the package's version and its major.minor ("0.25.0", "0.25");
/// torch, torch_mm: the torch it pairs with; pairing: its version's pairing tag
/// ("pt212", [[family.version]] pairing); python ("3.13"), python_nodot ("313");
/// cuda ("12.8"), cuda_underscore ("12_8"), driver (NVIDIA's minimum driver for
/// that CUDA, its major: "570"); sm ("9.0"), sm_nodot ("90"), gpu_names
/// (Layout::gpu_names, else the knowledge base's products); isa, isa_display
/// ("AVX-512"), arch ("x86_64", "aarch64").
inline constexpr std::array<std::string_view, 16> kLayoutWords = {
    "version",         "version_mm", "torch", "torch_mm", "pairing",   "python", "python_nodot", "cuda",
    "cuda_underscore", "driver",     "sm",    "sm_nodot", "gpu_names", "isa",    "isa_display",  "arch"};

struct TemplatePiece {
  bool word = false;  ///< text is a word's name, else literal text
  std::string text;
};

/// Where a word that opens at \a open (a '{') ends: the index of its '}', or
/// npos when no word starts there.
using WordEnd = size_t (*)(std::string_view tmpl, size_t open);
/// The pieces of \a tmpl: the words \a word_end finds, between literal text (a
/// brace that opens no word is text).
std::vector<TemplatePiece> split_template(std::string_view tmpl, WordEnd word_end);

/// The pieces of \a tmpl: "{name}" with name of [a-z_] is a word (known or
/// not: the caller says which it accepts), anything else literal.
std::vector<TemplatePiece> template_pieces(std::string_view tmpl);

/// The first word of \a tmpl that kLayoutWords lacks; nullopt when none.
std::optional<std::string> unknown_layout_word(std::string_view tmpl);

/// The words of \a v a wrapper template may name (kLayoutWords), as \a spec and
/// the knowledge base give them; a word that has no value for \a v is absent.
std::map<std::string, std::string> layout_words(const Variant& v, const Spec& spec, const KnowledgeBase& kb);

/// \a tmpl with its words replaced; throws DiagnosticError naming \a v when
/// the template uses a word \a v has no value for.
std::string render_layout_template(std::string_view tmpl, const Variant& v,
                                   const std::map<std::string, std::string>& words);

}  // namespace tailor
