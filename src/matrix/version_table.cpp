#include "matrix/version_table.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/template_fill.hpp"
#include "matrix/template_words.hpp"
#include "util/diagnostic.hpp"
#include "util/version.hpp"
#include "util/version_spelling.hpp"

namespace tailor {

namespace {

std::string full_rev(const std::string& pin, const KnowledgeBase& kb) {
  const NixpkgsPin* p = pin.empty() ? nullptr : kb.pin(pin);
  return p ? p->rev : pin;
}

[[noreturn]] void fail(std::string_view path, const std::string& message, const std::string& hint = "") {
  Diagnostic d;
  d.message = fmt::format("[layout.tables] {}: {}", path, message);
  d.hint = !hint.empty() ? hint
                         : fmt::format("words of {{#version}}: {}; of {{#cuda_pin}}: {}",
                                       fmt::join(scope_words(WordScope::version, {}), ", "),
                                       fmt::join(scope_words(WordScope::cuda_pin, {}), ", "));
  throw DiagnosticError(d);
}

// The words "{word@KEY}" of \a text replaced by \a value(word); others left as they are.
template <class F>
std::string fill(std::string_view path, std::string_view text, std::string_view key, F value) {
  std::string out;
  std::string tail = "@" + std::string(key) + "}";
  size_t i = 0;
  while (true) {
    size_t close = text.find(tail, i);
    if (close == std::string_view::npos) break;
    size_t open = text.rfind('{', close);
    if (open == std::string_view::npos || open < i) {
      out += text.substr(i, close + tail.size() - i);
      i = close + tail.size();
      continue;
    }
    std::string word(text.substr(open + 1, close - open - 1));
    std::optional<std::string> v = value(word);
    if (!v) fail(path, fmt::format("{{{}@{}}} has no value", word, key));
    out += std::string(text.substr(i, open - i)) + *v;
    i = close + tail.size();
  }
  return out + std::string(text.substr(i));
}

std::string entry(std::string_view path, std::string_view body, const VersionRow& row, const KnowledgeBase& kb) {
  std::string out;
  size_t i = 0;
  while (true) {
    auto [at, start] = find_marker(body, "{#cuda_pin}", i);
    if (at == std::string_view::npos) break;
    auto [close, end] = find_marker(body, "{/cuda_pin}", start);
    if (close == std::string_view::npos) fail(path, "{#cuda_pin} is not closed by {/cuda_pin}");
    out += body.substr(i, at - i);
    std::string_view inner = body.substr(start, close - start);
    for (const auto& cuda : row.cudas) {
      const std::string& pin = row.cuda_pin.at(cuda);
      if (pin == row.pin()) continue;
      out += fill(path, inner, "cuda_pin", [&](const std::string& w) {
        return word_value(WordScope::cuda_pin, w, [&](const TemplateWord& row) -> std::optional<std::string> {
          if (row.fact == WordFact::cuda) return cuda;
          if (row.fact == WordFact::pin) return full_rev(pin, kb);
          return std::nullopt;
        });
      });
    }
    i = end;
  }
  out += body.substr(i);
  return fill(path, out, "version", [&](const std::string& w) { return version_word(w, row, kb); });
}

}  // namespace

std::string VersionRow::pin() const { return cudas.empty() ? cpu_pin : cuda_pin.at(cudas.front()); }

std::vector<VersionRow> version_rows(const Spec& spec, const Matrix& m, const KnowledgeBase& kb) {
  std::map<std::string, VersionRow> rows;
  for (const auto& v : m.variants) {
    if (v.version.empty()) continue;
    VersionRow& r = rows[v.version + " " + (v.paired.empty() ? "" : v.paired.front().second)];
    r.version = v.version;
    if (r.python.empty()) r.python = v.python;
    if (r.paired.empty() && !v.paired.empty()) r.paired = v.paired.front().second;
    if (r.pairing.empty()) r.pairing = v.pairing;
    if (v.cuda.empty()) {
      if (r.cpu_pin.empty()) r.cpu_pin = v.pin;
    } else if (!r.cuda_pin.count(v.cuda)) {
      r.cuda_pin[v.cuda] = v.pin;
      r.cudas.push_back(v.cuda);
    }
    if (!r.source)
      for (const auto& f : spec.families)
        if (f.name == v.family && v.version_index >= 0 && v.version_index < static_cast<int>(f.versions.size()) &&
            f.versions[v.version_index].source)
          r.source = f.versions[v.version_index].source->fetch;
  }
  // A version's CUDAs, pins and CPU pin, in each of its rows (own pins first).
  for (auto& [key, r] : rows)
    for (const auto& [other_key, other] : rows) {
      if (other_key == key || other.version != r.version) continue;
      for (const auto& cuda : other.cudas)
        if (!r.cuda_pin.count(cuda)) r.cuda_pin[cuda] = other.cuda_pin.at(cuda), r.cudas.push_back(cuda);
      if (r.cpu_pin.empty()) r.cpu_pin = other.cpu_pin;
    }
  std::vector<VersionRow> out;
  for (auto& [version, r] : rows) {
    std::sort(r.cudas.begin(), r.cudas.end(), [&](const std::string& a, const std::string& b) {
      const CudaToolkit* x = kb.cuda(a);
      const CudaToolkit* y = kb.cuda(b);
      return x && y ? x->version < y->version : a < b;
    });
    out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(), [](const VersionRow& a, const VersionRow& b) {
    auto x = Version::parse(a.version), y = Version::parse(b.version);
    if (x && y && *x != *y) return *x < *y;
    if (!x || !y) return a.version < b.version;
    auto p = Version::parse(a.paired), q = Version::parse(b.paired);
    return p && q ? *p < *q : a.paired < b.paired;
  });
  return out;
}

std::optional<std::string> version_word(std::string_view word, const VersionRow& row, const KnowledgeBase& kb) {
  auto some = [](const std::string& s) { return s.empty() ? std::nullopt : std::optional<std::string>(s); };
  return word_value(WordScope::version, word, [&](const TemplateWord& w) -> std::optional<std::string> {
    switch (w.fact) {
      case WordFact::version: return row.version;
      case WordFact::paired: return some(row.paired);
      case WordFact::pairing: return some(row.pairing);
      case WordFact::python: return some(row.python);
      case WordFact::pin: return some(full_rev(row.pin(), kb));
      case WordFact::cpu_pin: return some(full_rev(row.cpu_pin, kb));
      case WordFact::cuda_list: {
        std::vector<std::string> items;
        for (const auto& c : row.cudas) items.push_back("\"" + underscored(c) + "\"");
        return fmt::format("{}", fmt::join(items, " "));
      }
      case WordFact::source_rev: return row.source ? some(row.source->rev) : std::nullopt;
      case WordFact::source_hash: return row.source ? some(row.source->hash) : std::nullopt;
      default: return std::nullopt;
    }
  });
}

std::string render_version_blocks(std::string_view path, std::string_view tmpl, const Spec& spec, const Matrix& m,
                                  const KnowledgeBase& kb) {
  if (tmpl.find("{#version") == std::string_view::npos) return std::string(tmpl);
  std::string out;
  std::map<std::string, std::string> own;
  std::string body, between;
  size_t generic_at = std::string::npos;
  size_t i = 0;
  while (true) {
    size_t at = tmpl.find("{#version", i);
    if (at == std::string_view::npos) break;
    size_t close_brace = tmpl.find('}', at);
    std::string key(tmpl.substr(at + 9, close_brace - at - 9));
    if (!key.empty() && key.front() != ' ') {  // "{#versions}": text
      out += tmpl.substr(i, at + 1 - i);
      i = at + 1;
      continue;
    }
    auto [open, start] = find_marker(tmpl, tmpl.substr(at, close_brace + 1 - at), at);
    auto [close, end] = find_marker(tmpl, "{/version}", start);
    if (close == std::string_view::npos) fail(path, "{#version} is not closed by {/version}");
    out += tmpl.substr(i, open - i);
    std::string_view inner = tmpl.substr(start, close - start);
    if (key.empty()) {
      if (generic_at != std::string::npos) fail(path, "two {#version} blocks");
      generic_at = out.size();
      auto [sep, after] = find_marker(inner, "{#between}", 0);
      body = std::string(inner.substr(0, sep));
      if (sep != std::string_view::npos) between = std::string(inner.substr(after));
    } else {
      own[key.substr(1)] = std::string(inner);
    }
    i = end;
  }
  out += tmpl.substr(i);
  if (generic_at == std::string::npos) fail(path, "a version's own {#version X} block without the common {#version}");
  std::string entries;
  std::vector<VersionRow> rows = version_rows(spec, m, kb);
  for (size_t k = 0; k < rows.size(); ++k) {
    auto it = own.find(rows[k].version + " " + rows[k].paired);  // one of two builds of a version
    if (it == own.end()) it = own.find(rows[k].version);
    const std::string& text = it != own.end() ? it->second : body;
    // A tagged pairing written by a text that never names its tag would be keyed as the version's first.
    if (!rows[k].pairing.empty() && text.find("pairing@version}") == std::string::npos)
      fail(path,
           fmt::format("{} built against {} has the pairing tag '{}', which its entry never writes: it would "
                       "be keyed as {}'s first pairing",
                       rows[k].version, rows[k].paired, rows[k].pairing, rows[k].version),
           "write {dash_pairing@version} (\"-" + rows[k].pairing +
               "\", empty for a first pairing) where the entry's key takes the tag, or give it its own {#version " +
               rows[k].version + " " + rows[k].paired + "} block");
    entries += entry(path, text, rows[k], kb);
    if (k + 1 < rows.size()) entries += between;
  }
  return out.insert(generic_at, entries);
}

}  // namespace tailor
