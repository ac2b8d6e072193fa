// TLR035–TLR039: the metadata tables of trees that teams generate with their
// own scripts (an SM → facts table, a CUDA → facts table). The wrong fact is
// reported once, where the table writes it, with the number of variant files
// that reach it and one of them: the files are generated, the table is what
// to fix. Tables are found by what they hold, not by their names: a set whose
// keys are all SMs of the knowledge base, or all its CUDA toolkits. A field's
// meaning is read from its values (a field that names most SMs' architecture
// as NVIDIA does is the architecture name); a fact of the knowledge base under
// dispute is never reported.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "kb/cuda_alias.hpp"
#include "kb/gpu_arch.hpp"
#include "lint/checks.hpp"
#include "nix/eval.hpp"

namespace tailor::lint {

namespace {

using nix::Evaluator;
using nix::ValueKind;
using nix::ValuePtr;

// "12_8" or "12.8" -> the toolkit; null when none.
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

// Whether \a name is how NVIDIA names \a g's architecture: its family
// ("Blackwell" also for "Blackwell (GB10)"), or a name the knowledge base records for it.
bool names_family(const GpuArch& g, const std::string& name) {
  if (name.empty()) return false;
  if (g.family == name || g.family.starts_with(name + " ")) return true;
  return std::find(g.also_called.begin(), g.also_called.end(), name) != g.also_called.end();
}

std::vector<ValuePtr> strings_of(Evaluator& ev, const ValuePtr& list) {
  std::vector<ValuePtr> out;
  if (!list || !list->is(ValueKind::list)) return out;
  for (const auto& t : list->list) {
    ValuePtr v = ev.force(t);
    if (!v->is(ValueKind::string)) return {};
    out.push_back(v);
  }
  return out;
}

struct Tables {
  const LintTree& t;
  const KnowledgeBase& kb;
  Sink& sink;
  std::map<std::string, const std::string*, std::less<>> texts;
  Evaluator ev;
  // The string arguments each variant file passes to its builder, by file.
  std::vector<std::pair<const NixFile*, std::set<std::string>>> calls;

  Tables(const LintTree& tree, const KnowledgeBase& k, Sink& s)
      : t(tree), kb(k), sink(s), ev(tree.root, [this](const std::string& rel) -> std::optional<std::string> {
          auto it = texts.find(rel);
          if (it == texts.end()) return std::nullopt;
          return *it->second;
        }) {
    for (const auto& f : t.nix) texts[f.src.rel] = &f.src.text;
  }

  const NixFile* file(const nix::Where& w) const {
    if (!w.file) return nullptr;
    for (const auto& f : t.nix)
      if (f.src.rel == *w.file) return &f;
    return nullptr;
  }

  // `import ./lib/mkX.nix { sm = "90"; … }`: the strings of the set.
  void read_calls() {
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
        if (ValuePtr v = ev.force(attr.value); v->is(ValueKind::string)) values.insert(v->text);
      calls.emplace_back(&f, std::move(values));
    }
  }

  std::vector<const NixFile*> files_with(std::initializer_list<std::string> keys) const {
    std::vector<const NixFile*> hit;
    for (const auto& call : calls) {
      const auto& values = call.second;  // a named reference: clang 14 cannot capture a structured binding
      if (std::all_of(keys.begin(), keys.end(), [&](const std::string& k) { return values.count(k) > 0; })) hit.push_back(call.first);
    }
    return hit;
  }

  // Folds the findings of \a rule naming \a text in the files that pass \a keys into \a p.
  static void fold(Problem* p, const char* rule, std::string text, const std::vector<const NixFile*>& files) {
    if (!p) return;
    p->fold_rule = rule;
    p->fold_text = std::move(text);
    for (const NixFile* f : files) p->fold_files.insert(f->src.rel);
  }

  // "; N variant files build with it, e.g. F" for the files whose call passes every one of \a keys.
  std::string reach(std::initializer_list<std::string> keys) const {
    std::vector<const NixFile*> hit = files_with(keys);
    if (hit.empty()) return "";
    return fmt::format("; {} variant file{} build{} with it, e.g. {}", hit.size(), hit.size() == 1 ? "" : "s",
                       hit.size() == 1 ? "s" : "", hit.front()->src.rel);
  }

  Problem* report(const ValuePtr& at, std::string_view code, std::string message, std::string hint,
                  std::vector<std::string> notes) {
    const NixFile* f = file(at->where);
    if (!f) return nullptr;
    Problem& p = sink.add(*f, code, at->where.span, std::move(message), std::move(hint));
    p.notes = std::move(notes);
    return &p;
  }

  // The field of the entries whose values most often satisfy \a fits (at least
  // half the entries): what the table calls that fact. Empty when none.
  template <class Fits>
  std::string field_where(const std::vector<std::pair<std::string, ValuePtr>>& entries, Fits fits) {
    std::map<std::string, int> score;
    for (const auto& [key, entry] : entries)
      for (const auto& [name, attr] : entry->attrs)
        if (fits(key, ev.force(attr.value))) ++score[name];
    std::string best;
    for (const auto& [name, n] : score)
      if (2 * n >= static_cast<int>(entries.size()) && (best.empty() || n > score[best])) best = name;
    return best;
  }

  void gpu_table(const std::vector<std::pair<std::string, ValuePtr>>& entries) {
    std::string family = field_where(entries, [&](const std::string& key, const ValuePtr& v) {
      return v->is(ValueKind::string) && names_family(*gpu_of(kb, key), v->text);
    });
    std::string products = field_where(entries, [&](const std::string&, const ValuePtr& v) {
      auto items = strings_of(ev, v);
      return !items.empty() && std::any_of(items.begin(), items.end(), [&](const ValuePtr& s) { return product_gpu(kb, s->text); });
    });
    std::string cudas = field_where(entries, [&](const std::string&, const ValuePtr& v) {
      auto items = strings_of(ev, v);
      return !items.empty() && std::all_of(items.begin(), items.end(), [&](const ValuePtr& s) { return cuda_of(kb, s->text); });
    });
    for (const auto& [key, entry] : entries) {
      const GpuArch& g = *gpu_of(kb, key);
      const std::string products_text = fmt::format("{}", fmt::join(g.products, ", "));
      if (!cudas.empty())
        for (const ValuePtr& c : strings_of(ev, ev.get(entry, cudas))) {
          const CudaToolkit* cuda = cuda_of(kb, c->text);
          if (!cuda || g.supported_by(cuda->version)) continue;
          std::string range = g.max_cuda ? fmt::format("CUDA {} to {}", g.min_cuda.str(), g.max_cuda->str())
                                          : fmt::format("CUDA {} on", g.min_cuda.str());
          Problem* p = report(c, "TLR035",
                 fmt::format("{} is allowed with CUDA {} here, but nvcc of CUDA {} cannot compile for it (it builds with "
                             "{}){}",
                             g.display(), cuda->version.str(), cuda->version.str(), range, reach({key, c->text})),
                 fmt::format("remove \"{}\" from '{}' of \"{}\"", c->text, cudas, key),
                 {fmt::format("source: {}", g.source)});
          fold(p, "TLR009", "", files_with({key, c->text}));
        }
      if (!products.empty())
        for (const ValuePtr& p : strings_of(ev, ev.get(entry, products))) {
          const GpuArch* own = product_gpu(kb, p->text);
          if (!own || own == &g) continue;
          Problem* found = report(p, "TLR036",
                 fmt::format("{} is listed under {}, but {} is {} ({}, compute capability {}){}", p->text, g.display(),
                             p->text, own->display(), own->family, own->sm, reach({key})),
                 fmt::format("list {} under \"{}\"", p->text, own->name_token().substr(2)),
                 {fmt::format("source: {}", own->source)});
          fold(found, "TLR018", p->text + " under " + g.display(), files_with({key}));
        }
      if (!family.empty()) {
        ValuePtr name = ev.get(entry, family);
        if (name && name->is(ValueKind::string) && !names_family(g, name->text)) {
          std::vector<std::string> notes;
          // GPUs the entry lists that are no product of any SM the knowledge base knows.
          std::vector<std::string> strangers;
          if (!products.empty())
            for (const ValuePtr& p : strings_of(ev, ev.get(entry, products)))
              if (!product_gpu(kb, p->text)) strangers.push_back(p->text);
          if (!strangers.empty())
            notes.push_back(fmt::format("its GPUs ({}) are none of {}'s: {}", fmt::join(strangers, ", "), g.display(),
                                        products_text));
          notes.push_back(fmt::format("source: {}", g.source));
          report(name, "TLR037",
                 fmt::format("{} is named \"{}\" here, but {} is {} ({}){}", g.display(), name->text, g.display(),
                             g.family, products_text, reach({key})),
                 fmt::format("name it \"{}\"", g.family), std::move(notes));
        }
      }
    }
  }

  void cuda_table(const std::vector<std::pair<std::string, ValuePtr>>& entries) {
    // A driver floor: a number like 575 or 575.51.03 (Linux drivers are 3xx and up).
    std::string driver = field_where(entries, [&](const std::string&, const ValuePtr& v) {
      if (!v->is(ValueKind::string)) return false;
      auto d = Version::parse(v->text);
      return d && d->major() >= 300 && d->major() < 1000;
    });
    for (const auto& [key, entry] : entries) {
      const CudaToolkit& cuda = *cuda_of(kb, key);
      if (!driver.empty())
        if (ValuePtr d = ev.get(entry, driver); d && d->is(ValueKind::string)) {
          auto floor = Version::parse(d->text);
          // "575" means the 575 series: compared by its major number alone.
          bool below = floor && (d->text.find('.') == std::string::npos ? floor->major() < cuda.min_driver.major()
                                                                         : *floor < cuda.min_driver);
          if (below) {
            Problem* p = report(d, "TLR038",
                   fmt::format("the driver floor of CUDA {} is {} here, below NVIDIA's minimum {} for CUDA {}: a user with "
                               "driver {} gets a build that fails to start{}",
                               cuda.version.str(), d->text, cuda.min_driver.str(), cuda.version.str(), d->text,
                               reach({key})),
                   fmt::format("make it \"{}\"", d->text.find('.') == std::string::npos
                                                     ? std::to_string(cuda.min_driver.major())
                                                     : cuda.min_driver.str()),
                   {fmt::format("source: {}", cuda.source)});
            fold(p, "TLR020", "driver " + d->text + "+", files_with({key}));
          }
        }
      for (const auto& [name, attr] : entry->attrs) {
        ValuePtr v = ev.force(attr.value);
        if (!v->is(ValueKind::string) || !is_alias_of(v->text, cuda)) continue;
        report(v, "TLR039",
               fmt::format("CUDA {} selects {} here, an alias that follows the default CUDA of whatever pin the tree "
                           "moves to, not CUDA {}{}",
                           cuda.version.str(), v->text, cuda.version.str(), reach({key})),
               fmt::format("select \"{}\"", cuda.nixpkgs_attr()),
               {fmt::format("nixpkgs defines {} as an alias of the pin's default package set of that major version",
                            v->text)});
      }
    }
  }

  void run() {
    bool any = false;
    for (const auto& f : t.nix) {
      if (!f.helper || !f.parsed) continue;
      ValuePtr v = ev.file(f.src.rel);
      if (!v->is(ValueKind::attrs) || v->attrs.size() < 2) continue;
      std::vector<std::pair<std::string, ValuePtr>> entries;
      bool gpus = true, cudas = true;
      for (const auto& [key, attr] : v->attrs) {
        gpus = gpus && gpu_of(kb, key);
        cudas = cudas && cuda_of(kb, key);
        if (!gpus && !cudas) break;
        ValuePtr e = ev.force(attr.value);
        if (!e->is(ValueKind::attrs)) {
          gpus = cudas = false;
          break;
        }
        entries.emplace_back(key, e);
      }
      if (!gpus && !cudas) continue;
      if (!any) read_calls(), any = true;
      if (gpus) gpu_table(entries);
      else cuda_table(entries);
    }
  }
};

}  // namespace

void check_tables(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  Tables tables(t, kb, sink);
  tables.run();
}

}  // namespace tailor::lint
