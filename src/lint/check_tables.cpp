// TLR035–TLR039: the metadata tables of trees that teams generate with their
// own scripts (an SM → facts table, a CUDA → facts table). The wrong fact is
// reported once, where the table writes it, with the number of variant files
// that reach it and one of them: the files are generated, the table is what
// to fix. Tables are found by what they hold, not by their names: a set whose
// keys are all SMs of the knowledge base, or all its CUDA toolkits. A field's
// meaning is read from its values (a field that names most SMs' architecture
// as NVIDIA does is the architecture name); a fact of the knowledge base under
// dispute is never reported. A generator script's arrays keyed by SMs or
// CUDA toolkits are a table too, a field per array, and a fact found there
// also stands for its findings in the docs the script writes.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kb/cuda_alias.hpp"
#include "kb/driver_rule.hpp"
#include "kb/gpu_arch.hpp"
#include "lint/checks.hpp"
#include "nix/eval.hpp"
#include "recipe/shell_arrays.hpp"

namespace tailor::lint {

namespace {

using nix::Evaluator;
using nix::ValueKind;
using nix::ValuePtr;

// "12_8" or "12.8" -> the toolkit; null when none.
// Whether \a text names \a path as a whole path or its last part: "docs/matrices" in
// `OUT="$ROOT/docs/matrices"` or `docs/matrices/`, not in `docs/matrices-old`.
bool names_path(std::string_view text, std::string_view path) {
  auto part = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; };
  for (size_t at = text.find(path); at != std::string_view::npos; at = text.find(path, at + 1)) {
    size_t end = at + path.size();
    if ((at == 0 || !part(text[at - 1])) && (end == text.size() || !part(text[end]))) return true;
  }
  return false;
}

const CudaToolkit* cuda_of(const KnowledgeBase& kb, std::string key) {
  std::replace(key.begin(), key.end(), '_', '.');
  return kb.cuda(key);
}

// "90", "sm90", "9.0" -> the GPU; null when none.
const GpuArch* gpu_of(const KnowledgeBase& kb, const std::string& key) {
  if (const GpuArch* g = kb.gpu(key)) return g;
  auto sm = sm_from_token(key);
  return sm ? kb.gpu(*sm) : nullptr;
}

// The GPU whose products include \a name; null when the knowledge base lists it under none.
const GpuArch* product_gpu(const KnowledgeBase& kb, const std::string& name) {
  for (const auto& g : kb.gpus)
    if (std::find(g.products.begin(), g.products.end(), name) != g.products.end()) return &g;
  return nullptr;
}

// Whether \a name is a known product, or how a table shortens or annotates one:
// "1080" after "GTX 1070" (a known product ends with it), "A100 (ARM)".
bool known_product(const KnowledgeBase& kb, std::string name) {
  if (size_t paren = name.find(" ("); paren != std::string::npos && name.ends_with(")")) name.resize(paren);
  if (name.empty()) return true;
  for (const auto& g : kb.gpus)
    for (const auto& p : g.products)
      if (p == name || p.ends_with(" " + name)) return true;
  return false;
}

// Where a table writes a value: a span of a Nix file, or a place in a script.
struct At {
  const NixFile* nix = nullptr;
  nix::Span span;
  const SourceFile* script = nullptr;
  int line = 0, column = 0;
};

// Its text is shared with the value it is read from, never copied: a list of one long string
// repeated is a list of views of that string (a copy per element took gigabytes).
struct Cell {
  std::shared_ptr<const std::string> shared;
  At at;
  const std::string& text() const { return *shared; }
};

// One fact of a table entry: a string (whole), or a list of strings. A
// script's string is a list too, split at commas (products) or blanks (words).
struct Field {
  std::optional<Cell> whole;
  std::vector<Cell> products, words;
};

// One key of a table (an SM, a CUDA toolkit) and its facts by field name.
struct Entry {
  std::string key;
  std::map<std::string, Field> fields;

  const Field* get(const std::string& name) const {
    auto it = fields.find(name);
    return it == fields.end() ? nullptr : &it->second;
  }
};

struct Tables {
  const LintTree& t;
  const KnowledgeBase& kb;
  Sink& sink;
  std::map<std::string_view, const NixFile*> files;  ///< by tree-relative path
  Evaluator ev;
  // The string arguments each variant file passes to its builder, by file.
  std::vector<std::pair<const NixFile*, std::set<std::string>>> calls;
  bool calls_read = false;
  // The script being read (null for a Nix table) and the docs it writes.
  const SourceFile* script = nullptr;
  std::vector<std::string> script_docs;

  Tables(const LintTree& tree, const KnowledgeBase& k, Sink& s)
      : t(tree), kb(k), sink(s), ev(tree.root, [this](const std::string& rel) -> std::optional<std::string> {
          auto it = files.find(rel);  // read again only for the files evaluated (NixFile::text)
          if (it == files.end()) return std::nullopt;
          return it->second->text();
        }) {
    for (const auto& f : t.nix) {
      files[f.src.rel] = &f;
    }
  }

  const NixFile* file(const nix::Where& w) const {
    if (!w.file) return nullptr;
    auto it = files.find(*w.file);
    return it == files.end() ? nullptr : it->second;
  }

  // `import ./lib/mkX.nix { sm = "90"; … }`: the strings of the set.
  void read_calls() {
    if (calls_read) return;
    calls_read = true;
    for (const auto& f : t.nix) {
      if (!f.is_recipe()) continue;
      ev.file(f.src.rel);
      const nix::Expr* e = ev.syntax(f.src.rel);
      if (e && e->kind == nix::ExprKind::lambda) e = static_cast<const nix::Lambda*>(e)->body.get();
      if (!e || e->kind != nix::ExprKind::call) continue;
      auto c = static_cast<const nix::Call*>(e);
      if (c->args.size() != 2 || c->args[1]->kind != nix::ExprKind::attrs) continue;
      ValuePtr args = ev.eval_in_file(c->args[1].get(), f.src.rel);
      std::set<std::string> values;
      for (const auto& [name, attr] : args->attrs)
        if (ValuePtr v = ev.force(attr.value); v->is(ValueKind::string) && ev.charge(v->text.size()))
          values.insert(v->text);
      calls.emplace_back(&f, std::move(values));
    }
  }

  std::vector<const NixFile*> files_with(std::initializer_list<std::string> keys) const {
    std::vector<const NixFile*> hit;
    for (const auto& call : calls) {
      const auto& values = call.second;  // a named reference: clang 14 cannot capture a structured binding
      if (std::all_of(keys.begin(), keys.end(), [&](const std::string& k) { return values.count(k) > 0; }))
        hit.push_back(call.first);
    }
    return hit;
  }

  // Folds the findings of \a rule naming \a text in \a files into \a p, and
  // in the docs the script writes when the fact is a script's.
  void fold(Problem* p, const char* rule, std::string text, const std::vector<const NixFile*>& files) const {
    if (!p) return;
    p->fold_rule = rule;
    p->fold_text = std::move(text);
    for (const NixFile* f : files) p->fold_files.insert(f->src.rel);
    if (script && !p->fold_text.empty()) p->fold_files.insert(script_docs.begin(), script_docs.end());
  }

  // "; N variant files build with it, e.g. F" for the files whose call passes every one of \a keys.
  std::string reach(std::initializer_list<std::string> keys) const {
    std::vector<const NixFile*> hit = files_with(keys);
    if (hit.empty()) return "";
    if (script)  // the script writes the variant files, their headers and docs from its arrays
      return fmt::format("; it applies to {} variant file{} the script writes, e.g. {}", hit.size(),
                         hit.size() == 1 ? "" : "s", hit.front()->src.rel);
    return fmt::format("; {} variant file{} build{} with it, e.g. {}", hit.size(), hit.size() == 1 ? "" : "s",
                       hit.size() == 1 ? "s" : "", hit.front()->src.rel);
  }

  Problem* report(const Cell& c, std::string_view code, std::string message, std::string hint,
                  std::vector<std::string> notes) {
    Problem* p = nullptr;
    if (c.at.nix)
      p = &sink.add(*c.at.nix, code, c.at.span, std::move(message), std::move(hint));
    else if (c.at.script)
      p = &sink.add_doc(t, *c.at.script, code, c.at.line, c.at.column, std::move(message), std::move(hint));
    if (p) p->notes = std::move(notes);
    return p;
  }

  // The field of the entries whose facts most often satisfy \a fits (at least
  // half the entries): what the table calls that fact. Empty when none.
  template <class Fits>
  std::string field_where(const std::vector<Entry>& entries, Fits fits) const {
    std::map<std::string, int> score;
    for (const Entry& entry : entries)
      for (const auto& [name, field] : entry.fields)
        if (fits(entry.key, field)) ++score[name];
    std::string best;
    for (const auto& [name, n] : score)
      if (2 * n >= static_cast<int>(entries.size()) && (best.empty() || n > score[best])) best = name;
    return best;
  }

  static const std::vector<Cell>& items(const Entry& entry, const std::string& field, bool products) {
    static const std::vector<Cell> none;
    const Field* f = field.empty() ? nullptr : entry.get(field);
    if (!f) return none;
    return products ? f->products : f->words;
  }

  void gpu_table(const std::vector<Entry>& entries) {
    std::string family = field_where(entries, [&](const std::string& key, const Field& f) {
      return f.whole && gpu_of(kb, key)->names_family(f.whole->text());
    });
    std::string products = field_where(entries, [&](const std::string&, const Field& f) {
      return std::any_of(f.products.begin(), f.products.end(),
                         [&](const Cell& s) { return product_gpu(kb, s.text()); });
    });
    std::string cudas = field_where(entries, [&](const std::string&, const Field& f) {
      return !f.words.empty() &&
             std::all_of(f.words.begin(), f.words.end(), [&](const Cell& s) { return cuda_of(kb, s.text()); });
    });
    for (const Entry& entry : entries) {
      const std::string& key = entry.key;
      const GpuArch& g = *gpu_of(kb, key);
      const std::string products_text = fmt::format("{}", fmt::join(g.products, ", "));
      for (const Cell& c : items(entry, cudas, false)) {
        const CudaToolkit* cuda = cuda_of(kb, c.text());
        if (!cuda || g.supported_by(cuda->version)) continue;
        std::string range = g.max_cuda ? fmt::format("CUDA {} to {}", g.min_cuda.str(), g.max_cuda->str())
                                       : fmt::format("CUDA {} on", g.min_cuda.str());
        Problem* p = report(
            c, "TLR035",
            fmt::format("{} is allowed with CUDA {} here, but nvcc of CUDA {} cannot compile for it (it builds with "
                        "{}){}",
                        g.display(), cuda->version.str(), cuda->version.str(), range, reach({key, c.text()})),
            fmt::format("remove \"{}\" from '{}' of \"{}\"", c.text(), cudas, key),
            {fmt::format("source: {}", g.source)});
        fold(p, "TLR009", "", files_with({key, c.text()}));
      }
      for (const Cell& c : items(entry, products, true)) {
        const GpuArch* own = product_gpu(kb, c.text());
        // A product the knowledge base lists under several SMs (DRIVE Thor: 10.1, renamed 11.0 by CUDA 13) is at home
        // under each.
        if (!own || g.lists_product(c.text())) continue;
        Problem* found =
            report(c, "TLR036",
                   fmt::format("{} is listed under {}, but {} is {} ({}, compute capability {}){}", c.text(),
                               g.display(), c.text(), own->display(), own->family, own->sm, reach({key})),
                   fmt::format("list {} under \"{}\"", c.text(), own->name_token().substr(2)),
                   {fmt::format("source: {}", own->source)});
        fold(found, "TLR018", c.text() + " under " + g.display(), files_with({key}));
      }
      for (const Cell& c : items(entry, products, true)) {
        if (known_product(kb, c.text())) continue;
        report(c, "TLR043",
               fmt::format("{} is listed under {}, but the knowledge base knows no GPU named {}: nothing confirms "
                           "that it is {} ({}){}",
                           c.text(), g.display(), c.text(), g.display(), products_text, reach({key})),
               fmt::format("check {}'s compute capability in NVIDIA's CUDA GPUs list, then list it there or remove it",
                           c.text()),
               {"source: https://developer.nvidia.com/cuda-gpus"});
      }
      const Field* name = family.empty() ? nullptr : entry.get(family);
      // A product of the SM is a fair label too ("DRIVE Thor" for 11.0).
      if (name && name->whole && !g.names_family(name->whole->text()) && !g.lists_product(name->whole->text())) {
        std::vector<std::string> notes;
        // GPUs the entry lists that are no product of any SM the knowledge base knows.
        std::vector<std::string> strangers;
        for (const Cell& c : items(entry, products, true))
          if (!product_gpu(kb, c.text())) strangers.push_back(c.text());
        if (!strangers.empty())
          notes.push_back(fmt::format("its GPUs ({}) are none of {}'s: {}", fmt::join(strangers, ", "), g.display(),
                                      products_text));
        notes.push_back(fmt::format("source: {}", g.source));
        Problem* p = report(*name->whole, "TLR037",
                            fmt::format("{} is named \"{}\" here, but {} is {} ({}){}", g.display(),
                                        name->whole->text(), g.display(), g.family, products_text, reach({key})),
                            fmt::format("name it \"{}\"", g.family), std::move(notes));
        // A label that is another SM's product ("Vera Rubin" under SM120) reaches
        // the generated pages as that product under this SM (TLR018), any other as
        // the same label in a page's heading (TLR037): one finding, here.
        if (product_gpu(kb, name->whole->text()))
          fold(p, "TLR018", name->whole->text() + " under " + g.display(), files_with({key}));
        else
          fold(p, "TLR037", fmt::format("{} \"{}\"", g.display(), name->whole->text()), files_with({key}));
      }
    }
  }

  // TLR038: a CUDA entry's driver floor, judged per GPU the variants built with it serve
  // (kb/driver_rule.hpp); without variant files, by the CUDA major's floor alone.
  void driver_floor_finding(const Entry& entry, const CudaToolkit& cuda, const Cell& d) {
    // The SMs the variant files of this CUDA pass, as the files write them ("100"), by GPU.
    std::map<const GpuArch*, std::string> served;
    for (const auto& call : calls) {
      const auto& values = call.second;  // a named reference: clang 14 cannot capture a structured binding
      if (!values.count(entry.key)) continue;
      for (const auto& v : values)
        if (const GpuArch* g = v.size() <= 3 ? gpu_of(kb, v) : nullptr) served.emplace(g, v);
    }
    std::vector<std::pair<const GpuArch*, std::string>> judged(served.begin(), served.end());
    std::sort(judged.begin(), judged.end(),
              [](const auto& x, const auto& y) { return x.first->capability < y.first->capability; });
    if (judged.empty()) judged.emplace_back(nullptr, "");
    std::vector<DriverFloor> wrong;
    std::vector<const NixFile*> hit;
    for (const auto& [g, token] : judged) {
      auto f = driver_floor(cuda, g);
      if (!f || written_floor_meets(d.text(), f->floor)) continue;
      if (g)
        for (const NixFile* file : files_with({entry.key, token})) hit.push_back(file);
      else
        hit = files_with({entry.key});
      wrong.push_back(std::move(*f));
    }
    if (wrong.empty()) return;
    const DriverFloor* top = &wrong.front();
    std::vector<std::string> whys, sources;
    for (const auto& w : wrong) {
      if (top->floor < w.floor) top = &w;
      whys.push_back(w.why);
      if (std::find(sources.begin(), sources.end(), "source: " + w.source) == sources.end())
        sources.push_back("source: " + w.source);
    }
    std::string reach_text;
    if (!hit.empty())
      reach_text = fmt::format("; {} variant file{} {} for {}, e.g. {}", hit.size(), hit.size() == 1 ? "" : "s",
                               script ? "the script writes are" : (hit.size() == 1 ? "is" : "are"),
                               top->gpu ? (wrong.size() == 1 ? "that GPU" : "those GPUs") : "it", hit.front()->src.rel);
    bool major_only = d.text().find('.') == std::string::npos;
    Problem* p =
        report(d, "TLR038",
               fmt::format("the driver floor of CUDA {} is {} here, but {}: older drivers do not run {}{}",
                           cuda.version.str(), d.text(), fmt::join(whys, "; "),
                           top->gpu ? (wrong.size() == 1 ? "that GPU" : "those GPUs") : "the build", reach_text),
               fmt::format("make it \"{}\"", major_only ? std::to_string(top->floor.major()) : top->floor.str()),
               std::move(sources));
    if (p && top->gpu && wrong.size() < judged.size()) {
      p->notes.push_back(
          fmt::format("the other GPUs it serves run CUDA {}.x from {} on through minor-version "
                      "compatibility",
                      cuda.version.major(), cuda_floor(cuda) ? driver_text(*cuda_floor(cuda)) : std::string("?")));
    }
    if (!p) return;
    p->fold_rule = "TLR020";
    p->fold_text = "driver " + d.text() + "+";
    for (const NixFile* f : hit) p->fold_files.insert(f->src.rel);
    if (script) p->fold_files.insert(script_docs.begin(), script_docs.end());
  }

  void cuda_table(const std::vector<Entry>& entries) {
    // A driver floor: a number like 575 or 575.51.03 (Linux drivers are 3xx and up).
    std::string driver = field_where(entries, [&](const std::string&, const Field& f) {
      if (!f.whole) return false;
      auto d = Version::parse(f.whole->text());
      return d && d->major() >= 300 && d->major() < 1000;
    });
    for (const Entry& entry : entries) {
      const CudaToolkit& cuda = *cuda_of(kb, entry.key);
      const Field* floor_field = driver.empty() ? nullptr : entry.get(driver);
      if (floor_field && floor_field->whole) driver_floor_finding(entry, cuda, *floor_field->whole);
      for (const auto& [name, field] : entry.fields) {
        if (!field.whole || !is_alias_of(field.whole->text(), cuda)) continue;
        report(*field.whole, "TLR039",
               fmt::format("CUDA {} selects {} here, an alias that follows the default CUDA of whatever pin the tree "
                           "moves to, not CUDA {}{}",
                           cuda.version.str(), field.whole->text(), cuda.version.str(), reach({entry.key})),
               fmt::format("select \"{}\"", cuda.nixpkgs_attr()),
               {fmt::format("nixpkgs defines {} as an alias of the pin's default package set of that major version",
                            field.whole->text())});
      }
    }
  }

  // The comma-separated items of a string cell, each at its own column where
  // the literal is written plainly on one line (else at the string's).
  static std::vector<Cell> string_items(const Cell& whole) {
    std::vector<Cell> out;
    std::string_view source;
    if (whole.at.nix && whole.at.span.end <= whole.at.nix->text().size())
      source =
          std::string_view(whole.at.nix->text()).substr(whole.at.span.begin, whole.at.span.end - whole.at.span.begin);
    const std::string& text = whole.text();
    for (size_t b = 0; b <= text.size();) {
      size_t e = std::min(text.find(',', b), text.size());
      size_t i = text.find_first_not_of(" \t", b);
      size_t j = text.find_last_not_of(" \t", e == 0 ? 0 : e - 1);
      if (i != std::string::npos && i < e && j != std::string::npos && j >= i) {
        Cell c{std::make_shared<const std::string>(text.substr(i, j - i + 1)), whole.at};
        // Written plainly: the literal is the text in quotes, so the item is at 1 + i.
        bool plain = source.size() == text.size() + 2 && source.substr(1, text.size()) == text;
        size_t k = 1 + i;
        if (plain) {
          c.at.span.begin = whole.at.span.begin + static_cast<uint32_t>(k);
          c.at.span.end = c.at.span.begin + static_cast<uint32_t>(c.text().size());
          c.at.span.column = whole.at.span.column + static_cast<int>(k);
        }
        out.push_back(std::move(c));
      }
      b = e + 1;
    }
    return out;
  }

  // A Nix value as a table fact: a string, or a list of strings.
  Field nix_field(const ValuePtr& v) {
    Field f;
    auto cell = [&](const ValuePtr& s) {
      return Cell{std::shared_ptr<const std::string>(s, &s->text), At{file(s->where), s->where.span, nullptr, 0, 0}};
    };
    // Reading a cell costs its text's length in the rules that compare it: charged to the
    // evaluator's budget as what the value expands to, so a table cannot make check read gigabytes.
    auto within_budget = [&](const ValuePtr& s) { return ev.charge(s->text.size() + 2 * sizeof(Cell)); };
    if (v->is(ValueKind::string)) {
      if (!within_budget(v)) return {};
      f.whole = cell(v);
      f.products = string_items(*f.whole);  // gpuNames = "H100, H200, L40S": a builder writes it into descriptions
    } else if (v->is(ValueKind::list)) {
      std::vector<Cell> items;
      for (const auto& thunk : v->list) {
        ValuePtr s = ev.force(thunk);
        if (!s->is(ValueKind::string) || !within_budget(s)) return {};
        items.push_back(cell(s));
      }
      f.products = items;
      f.words = std::move(items);
    }
    return f;
  }

  // A Nix file whose value is a set keyed by SMs or by CUDA toolkits, each an attribute set of facts.
  void nix_table(const NixFile& f) {
    ValuePtr v = ev.file(f.src.rel);
    if (!v->is(ValueKind::attrs) || v->attrs.size() < 2) return;
    std::vector<Entry> entries;
    bool gpus = true, cudas = true;
    for (const auto& [key, attr] : v->attrs) {
      gpus = gpus && gpu_of(kb, key);
      cudas = cudas && cuda_of(kb, key);
      if (!gpus && !cudas) return;
      ValuePtr e = ev.force(attr.value);
      if (!e->is(ValueKind::attrs)) return;
      Entry& entry = entries.emplace_back();
      entry.key = key;
      for (const auto& [name, fact] : e->attrs) entry.fields[name] = nix_field(ev.force(fact.value));
    }
    read_calls();
    if (gpus)
      gpu_table(entries);
    else
      cuda_table(entries);
  }

  // A script's arrays keyed by SMs (or by CUDA toolkits) read as one table
  // with a field per array: `declare -A GPU_NAMES=([90]="H100, H200" …)`.
  void script_tables(const SourceFile& s) {
    std::vector<recipe::ShellArray> arrays = recipe::read_shell_arrays(s.text);
    LineIndex lines(s.text);
    script = &s;
    script_docs.clear();
    for (const SourceFile& doc : t.docs) {
      size_t slash = doc.rel.rfind('/');
      if (names_path(s.text, slash == std::string::npos ? doc.rel : doc.rel.substr(0, slash)))
        script_docs.push_back(doc.rel);
    }
    auto cell = [&](const recipe::ShellWord& w) {
      nix::Span at = lines.span(w.offset(0), w.offset(0) + 1);
      return Cell{std::make_shared<const std::string>(w.text), At{nullptr, {}, &s, at.line, at.column}};
    };
    auto cells = [&](const recipe::ShellWord& w, std::string_view separators) {
      std::vector<Cell> out;
      for (const auto& item : recipe::shell_items(w, separators)) out.push_back(cell(item));
      return out;
    };
    for (bool gpus : {true, false}) {
      std::vector<Entry> entries;
      for (const auto& a : arrays) {
        if (a.entries.size() < 2) continue;
        bool keyed = std::all_of(a.entries.begin(), a.entries.end(), [&](const auto& e) {
          return gpus ? gpu_of(kb, e.first) != nullptr : cuda_of(kb, e.first) != nullptr;
        });
        if (!keyed) continue;
        for (const auto& element : a.entries) {
          const std::string& key = element.first;  // named: clang 14 cannot capture a structured binding
          const recipe::ShellWord& value = element.second;
          if (!value.literal) continue;  // an expansion: its value is not written here
          auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.key == key; });
          Entry& entry = it != entries.end() ? *it : entries.emplace_back();
          entry.key = key;
          Field& f = entry.fields[a.name];
          if (!value.text.empty()) f.whole = cell(value);
          f.products = cells(value, ",");
          f.words = cells(value, ", \t");
        }
      }
      if (entries.size() < 2) continue;
      read_calls();
      if (gpus)
        gpu_table(entries);
      else
        cuda_table(entries);
    }
    script = nullptr;
  }

  void run() {
    const NixFile* spent = nullptr;  // the file whose reading spent the evaluator's memory budget
    for (const auto& f : t.nix) {
      if (!f.helper || !f.parsed) continue;
      nix_table(f);
      if (!ev.out_of_memory()) continue;
      // Unread, said so: a table that expands to gigabytes is not checked, and not silently.
      sink.add(f, "TLR042", {},
               spent ? fmt::format("not read as a metadata table: check's budget for evaluating tables was spent "
                                   "reading {}",
                                   spent->display)
                     : fmt::format("not read as a metadata table: its values expand to more than check's budget "
                                   "for evaluating tables ({} MiB)",
                                   ev.limits().max_bytes >> 20),
               "build the table from fewer or shorter values");
      if (!spent) spent = &f;
    }
    for (const SourceFile& s : t.scripts) script_tables(s);
  }
};

}  // namespace

void check_tables(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  Tables tables(t, kb, sink);
  tables.run();
}

}  // namespace tailor::lint
