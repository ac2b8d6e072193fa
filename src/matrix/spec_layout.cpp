#include "matrix/spec_sections.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/github_names.hpp"
#include "kb/gpu_names.hpp"
#include "kb/invariants.hpp"
#include "kb/pin_query.hpp"
#include "kb/read_helpers.hpp"
#include "kb/version_pairing.hpp"
#include "matrix/layout_words.hpp"
#include "matrix/page_template.hpp"
#include "matrix/rules.hpp"
#include "matrix/spec_sections.hpp"
#include "matrix/spec_values.hpp"
#include "matrix/table_words.hpp"
#include "matrix/template_words.hpp"
#include "matrix/version_table.hpp"
#include "util/edit_distance.hpp"
#include "util/embedded.hpp"
#include "util/quote.hpp"
#include "util/read_file.hpp"
#include "util/safe_name.hpp"
#include "util/toml_reader.hpp"

namespace tailor {

namespace {

// A path of the tree a [layout] names: relative, without "..", no dot-dot tricks.
std::string layout_path(const TomlDocument& doc, const Located<std::string>& p, std::string_view what) {
  std::filesystem::path fp(p.value);
  bool ok = !p.value.empty() && fp.is_relative() && p.value.find('\\') == std::string::npos &&
            std::none_of(fp.begin(), fp.end(), [](const std::filesystem::path& part) { return part == ".."; }) &&
            std::none_of(p.value.begin(), p.value.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (!ok)
    throw doc.error_at(p.pos, fmt::format("{} '{}' is no path inside the tree", what, comment_text(p.value)),
                       "a relative path such as \".flox/pkgs/lib/builder.nix\", without .. or a leading /");
  return std::filesystem::path(p.value).lexically_normal().generic_string();
}

// Where byte \a offset of the string \a value is written: exact in a literal ('…' or
// '''…'''), whose text is the file's; at the string's start when escapes may shift it.
Pos string_pos(const TomlDocument& doc, const toml::node& value, size_t offset) {
  Pos p = pos_of(value);
  const std::string& text = doc.text();
  size_t line_begin = 0;
  for (int line = 1; line < p.line; ++line) {
    line_begin = text.find('\n', line_begin);
    if (line_begin == std::string::npos) return p;
    ++line_begin;
  }
  size_t at = line_begin + static_cast<size_t>(p.column - 1);
  if (at >= text.size() || text[at] != '\'') return p;
  bool multi = text.compare(at, 3, "'''") == 0;
  at += multi ? 3 : 1;
  if (multi && at < text.size() && text[at] == '\n') ++at;  // TOML trims the newline after '''
  Pos out = p;
  for (size_t i = line_begin; i < at + offset && i < text.size(); ++i)
    if (text[i] == '\n') ++out.line, line_begin = i + 1;
  out.column = static_cast<int>(at + offset - line_begin) + 1;
  return out;
}

// [layout.wrapper] backend (or family) = "text with {words}".
void read_wrappers(const TomlDocument& doc, TableReader& r, const Spec& spec, const KnowledgeBase& kb,
                   const std::vector<std::string>& paired, Layout& l) {
  const toml::table* w = r.table("wrapper");
  if (!w || w->empty())
    throw doc.error_at(
        l.pos, "[layout] needs [layout.wrapper]: the text of a variant's file per backend",
        "cuda = \"{ pkgs ? import <nixpkgs> {} }:\\nimport ./lib/build.nix { sm = \\\"{sm_nodot}\\\"; }\\n\"");
  for (const auto& [key, value] : *w) {
    std::string backend(key.str());  // a backend, or a family whose wrappers have their own text
    if (!kb.backend(backend) && !spec.family(backend))
      throw doc.error_at(value, fmt::format("'{}' is no backend of the knowledge base and no family of the spec",
                                            comment_text(backend)));
    if (!value.is_string()) throw doc.error_at(value, "a wrapper is the text of the file, a string");
    const std::string& text = value.as_string()->get();
    if (auto bad = unknown_layout_word(text, paired))
      throw doc.error_at(value, fmt::format("'{{{}}}' is no word of a wrapper", *bad),
                         fmt::format("words: {}", fmt::join(scope_words(WordScope::variant, paired), ", ")));
    l.wrapper[backend] = text;
  }
}

// A key of [layout.gpu_names] or [layout.sm_texts]: "9.0" or "9.0 aarch64".
void check_sm_key(const TomlDocument& doc, const toml::node& value, const std::string& k, const KnowledgeBase& kb) {
  std::string sm = k.substr(0, k.find(' '));
  std::string platform = k.size() > sm.size() ? k.substr(sm.size() + 1) : "";
  if (!kb.gpu(sm) || (!platform.empty() && platform != "x86_64" && platform != "aarch64"))
    throw doc.error_at(value,
                       fmt::format("'{}' is not an SM of the knowledge base, optionally followed by "
                                   "x86_64 or aarch64",
                                   comment_text(k)),
                       "\"9.0\" or \"9.0 aarch64\"");
}

// [layout.gpu_names] "9.0" or "9.0 aarch64" = "names": the GPU names the wrappers write.
void read_gpu_names(const TomlDocument& doc, TableReader& r, const KnowledgeBase& kb, Layout& l) {
  if (const toml::table* g = r.table("gpu_names")) {
    for (const auto& [key, value] : *g) {
      std::string k(key.str());
      check_sm_key(doc, value, k, kb);
      if (!value.is_string()) throw doc.error_at(value, "GPU names are one string, as the wrappers write them");
      l.gpu_names[k] = value.as_string()->get();
    }
  }
}

// A list of one to nine texts ([layout.targets], [layout.sm_texts]): {text} … {text_9}; false
// where there is none (Layout::kNoText).
std::vector<std::string> read_texts(const TomlDocument& doc, const toml::node& value, std::string_view what,
                                    std::string_view example) {
  const toml::array* a = value.as_array();
  auto text_or_none = [](const toml::node& n) { return n.is_string() || (n.is_boolean() && !n.as_boolean()->get()); };
  if (!a || a->empty() || a->size() > 9 || !std::all_of(a->begin(), a->end(), text_or_none))
    throw doc.error_at(value, fmt::format("{} texts are a list of one to nine strings", what), std::string(example));
  std::vector<std::string> out;
  for (const auto& s : *a) out.push_back(s.is_string() ? s.as_string()->get() : std::string(Layout::kNoText));
  return out;
}

// [layout.sm_texts] "9.0" or "9.0 aarch64" = ["text", …]: what the wrappers write per SM beside its GPU names.
void read_sm_texts(const TomlDocument& doc, TableReader& r, const KnowledgeBase& kb, Layout& l) {
  if (const toml::table* g = r.table("sm_texts")) {
    for (const auto& [key, value] : *g) {
      std::string k(key.str());
      check_sm_key(doc, value, k, kb);
      l.sm_texts[k] = read_texts(doc, value, "an SM's", "\"9.0\" = [\"Hopper H100\"]");
    }
  }
}

void read_drivers(const TomlDocument& doc, TableReader& r, const KnowledgeBase& kb, Layout& l) {
  // [layout.drivers] "12.8" = "550": the team's driver floor per CUDA.
  if (const toml::table* d = r.table("drivers")) {
    for (const auto& [key, value] : *d) {
      std::string k(key.str());
      if (!kb.cuda(k))
        throw doc.error_at(value, fmt::format("'{}' is not a CUDA toolkit of the knowledge base", comment_text(k)));
      auto v = value.is_string() ? Version::parse(value.as_string()->get()) : std::nullopt;
      if (!v || v->major() < 300 || v->major() >= 1000)
        throw doc.error_at(value, "a driver floor is a Linux driver version as a string", "\"550\" or \"570.26\"");
      l.drivers[k] = value.as_string()->get();
    }
  }
}

void read_tables(const TomlDocument& doc, TableReader& r, Layout& l) {
  // [layout.tables] "path" = "text with {word@key}": the words are checked here,
  // their values when the matrix is known (generate).
  if (const toml::table* tables = r.table("tables")) {
    for (const auto& [key, value] : *tables) {
      std::string path = layout_path(doc, Located<std::string>{std::string(key.str()), pos_of(value)}, "a table");
      if (!value.is_string()) throw doc.error_at(value, "a table is the text of the file, a string");
      for (const auto& p : table_pieces(value.as_string()->get())) {
        std::string_view word = std::string_view(p.text).substr(0, p.text.find('@'));
        std::string_view key = std::string_view(p.text).substr(p.text.find('@') + 1);
        // A version table's entry ({#version} blocks, version_table.hpp) has words of its own.
        bool entry_word = (key == "version" && find_word(WordScope::version, word, {})) ||
                          (key == "cuda_pin" && find_word(WordScope::cuda_pin, word, {}));
        if (p.word && !entry_word && !find_word(WordScope::key, word, {}))
          throw doc.error_at(value, fmt::format("'{{{}}}' is no word of a table", comment_text(p.text)),
                             fmt::format("words: {}, each followed by @ and its SM or CUDA",
                                         fmt::join(scope_words(WordScope::key, {}), ", ")));
      }
      if (path == l.dir || std::find(l.keep.begin(), l.keep.end(), path) != l.keep.end())
        throw doc.error_at(
            value, fmt::format("'{}' is kept and written: a table is written, a kept file never", comment_text(path)));
      l.tables[path] = value.as_string()->get();
    }
  }
}

void read_pages(const TomlDocument& doc, TableReader& r, const std::vector<std::string>& paired, Layout& l) {
  // [layout.pages] "path with {cell words}" = "text with blocks and words": parsed here, so
  // an unknown word or block is an error at its place.
  if (const toml::table* pages = r.table("pages")) {
    for (const auto& [key, value] : *pages) {
      std::string path = layout_path(doc, Located<std::string>{std::string(key.str()), pos_of(value)}, "a page");
      if (!value.is_string()) throw doc.error_at(value, "a page is the text of the file, a string");
      for (const auto& p : template_pieces(path))
        if (p.word && !find_word(WordScope::path, p.text, paired))
          throw doc.error_at(value, fmt::format("'{{{}}}' is no word of a page's path", comment_text(p.text)),
                             fmt::format("words: {}", fmt::join(scope_words(WordScope::path, paired), ", ")));
      const std::string& text = value.as_string()->get();
      try {
        parse_page_template(text, paired);
      } catch (const PageTemplateError& e) {
        throw doc.error_at(string_pos(doc, value, e.offset), e.what());
      }
      l.pages[path] = text;
    }
  }
}

void read_arch_names(const TomlDocument& doc, TableReader& r, const KnowledgeBase& kb, Layout& l) {
  // [layout.arch_names] "11.0" = "DRIVE Thor": the team's name of an architecture.
  if (const toml::table* names = r.table("arch_names")) {
    for (const auto& [key, value] : *names) {
      if (!kb.gpu(std::string(key.str())))
        throw doc.error_at(value, fmt::format("'{}' is not an SM of the knowledge base", comment_text(key.str())));
      if (!value.is_string()) throw doc.error_at(value, "an architecture's name is a string");
      l.arch_names[std::string(key.str())] = value.as_string()->get();
    }
  }
}

void read_targets(const TomlDocument& doc, TableReader& r, const KnowledgeBase& kb, Layout& l) {
  // [layout.targets] isa = ["text", …]: the words a page's rows write per CPU target.
  if (const toml::table* targets = r.table("targets")) {
    for (const auto& [key, value] : *targets) {
      std::string isa(key.str());
      if (!kb.isa(isa))
        throw doc.error_at(value, fmt::format("'{}' is no CPU target of the knowledge base", comment_text(isa)));
      l.target_text[isa] = read_texts(doc, value, "a target's", "avx2 = [\"broad x86 compatibility\"]");
    }
  }
}

}  // namespace

Layout read_layout(const TomlDocument& doc, const toml::table& t, const Spec& spec, const KnowledgeBase& kb) {
  TableReader r(doc, t, "[layout]");
  r.expect_keys({"dir", "keep", "replaces", "wrapper", "gpu_names", "drivers", "tables", "pages", "targets",
                 "arch_names", "sm_texts"});
  Layout l;
  l.pos = pos_of(t);
  const std::vector<std::string> paired = paired_attributes(kb);  // the words {torch}, {torch_mm} are the pairing's
  if (auto d = r.string("dir")) l.dir = layout_path(doc, *d, "the wrappers' directory");
  if (auto keep = r.strings("keep"))
    for (const auto& k : *keep) l.keep.push_back(layout_path(doc, k, "a kept file"));
  // One script, or the list of them (the wrappers' and the pages').
  if (const toml::node* rep = t.get("replaces"); rep && rep->is_array()) {
    if (auto scripts = r.strings("replaces"))
      for (const auto& s : *scripts) l.replaces.push_back(layout_path(doc, s, "the script"));
  } else if (auto s = r.string("replaces")) {
    l.replaces.push_back(layout_path(doc, *s, "the script"));
  }
  read_wrappers(doc, r, spec, kb, paired, l);
  read_gpu_names(doc, r, kb, l);
  read_sm_texts(doc, r, kb, l);
  read_drivers(doc, r, kb, l);
  read_tables(doc, r, l);
  read_pages(doc, r, paired, l);
  read_arch_names(doc, r, kb, l);
  read_targets(doc, r, kb, l);
  r.finish();
  return l;
}

}  // namespace tailor
