// TLR009 sm-unsupported, TLR010 cuda-mismatch, TLR011 sm-mismatch,
// TLR012 platform-mismatch, TLR013 isa-flags-extra, TLR014 isa-flags-missing,
// TLR015 gpu-targets-only, TLR026 gpu-target-invalid, TLR030 name-impossible,
// TLR041 prune-sm-mismatch.
#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/checks.hpp"
#include "recipe/line_index.hpp"

namespace tailor::lint {

namespace {

/// "cudaPackages_12_8" -> "12.8".
std::string overlay_cuda(const std::string& attr) {
  if (!attr.starts_with("cudaPackages_")) return "";
  std::string rest = attr.substr(13);
  size_t u = rest.find('_');
  auto digits = [](std::string_view d) {
    return !d.empty() && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (u == std::string::npos || !digits(std::string_view(rest).substr(0, u)) ||
      !digits(std::string_view(rest).substr(u + 1)))
    return "";
  return rest.substr(0, u) + "." + rest.substr(u + 1);
}

/// "sm_89", "89", "8.9", "9.0a", "8.9+PTX" -> "8.9"; empty if not an SM.
std::string normal_sm(std::string s) {
  if (s.size() > kMaxRegexName) return "";
  if (auto p = s.find("+PTX"); p != std::string::npos) s = s.substr(0, p);
  while (!s.empty() && std::isalpha(static_cast<unsigned char>(s.back())) && s.find('.') != std::string::npos)
    s.pop_back();
  static const std::regex dotted(R"(\d+\.\d+)");
  if (std::regex_match(s, dotted)) return s;
  if (auto sm = sm_from_token(s)) return *sm;
  return "";
}

/// Whether \a e is an X.Y entry: digits, '.', digits, then an optional letter ("9.0a", "10.0f").
bool dotted_capability(std::string_view e) {
  size_t dot = e.find('.');
  auto digits = [](std::string_view d) {
    return !d.empty() && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (dot == std::string_view::npos || !digits(e.substr(0, dot))) return false;
  std::string_view minor = e.substr(dot + 1);
  if (!minor.empty() && std::islower(static_cast<unsigned char>(minor.back()))) minor.remove_suffix(1);
  return digits(minor);
}

/// Whether TORCH_CUDA_ARCH_LIST accepts \a e: X.Y, X.Ya, X.Y(Z.W), each with an
/// optional suffix (+PTX), or a generation name (both lists from the knowledge base).
bool torch_arch_entry(std::string_view e, const KnowledgeBase& kb) {
  auto list = [&](const char* key) -> const std::vector<std::string>& {
    static const std::vector<std::string> none;
    auto it = kb.torch_arch_list.find(key);
    return it == kb.torch_arch_list.end() ? none : it->second;
  };
  for (const auto& name : list("generation_names"))
    if (e == name) return true;
  for (const auto& suffix : list("suffixes"))
    if (e.ends_with(suffix)) {
      e.remove_suffix(suffix.size());
      break;
    }
  if (size_t open = e.find('('); open != std::string_view::npos && e.ends_with(")"))
    return dotted_capability(e.substr(0, open)) && dotted_capability(e.substr(open + 1, e.size() - open - 2));
  return dotted_capability(e);
}

/// What \a bad should have been written as ("sm_89" -> "8.9"), or empty.
std::string arch_entry_fix(const std::string& bad) {
  std::string digits = bad;
  for (std::string_view prefix : {"sm_", "compute_", "sm", "SM"})
    if (digits.starts_with(prefix)) {
      digits = digits.substr(prefix.size());
      break;
    }
  if (auto sm = sm_from_token(digits)) return *sm;
  return "";
}

/// The --fix of a gpuTargets entry: "sm_89", "sm89" or "89" written as "8.9", at the literal
/// (in the list, or its let binding when every use of that variable is a gpuTargets entry).
/// "compute_90" (PTX only) has none: "9.0" would build SASS instead.
void fix_gpu_target(const NixFile& f, const Fact& e, const std::string& var, Problem& p) {
  if (e.text.starts_with("compute_")) return;
  std::string fixed = arch_entry_fix(e.text);
  if (fixed.empty()) return;
  if (!var.empty()) {
    int in_targets = static_cast<int>(std::count(f.facts.gpu_target_vars.begin(), f.facts.gpu_target_vars.end(), var));
    auto uses = f.facts.string_var_uses.find(var);
    if (uses == f.facts.string_var_uses.end() || uses->second != in_targets) return;
  }
  if (auto edit = rename_at(f.text(), e.span, e.text, fixed)) {
    p.fix.push_back(*edit);
    p.fix_summary =
        fmt::format("gpuTargets entry \"{}\" → \"{}\"{}", e.text, fixed, var.empty() ? "" : " (binding " + var + ")");
  }
}

Problem* gpu_target_problem(const NixFile& f, const Fact& e, const KnowledgeBase& kb, Sink& sink,
                            const std::string& via) {
  bool caps = e.key == "cudaCapabilities";
  if (caps ? dotted_capability(e.text) : torch_arch_entry(e.text, kb)) return nullptr;
  std::string fix = arch_entry_fix(e.text);
  std::string what =
      caps ? fmt::format(
                 "cudaCapabilities entry \"{}\" is not a compute capability (X.Y): nixpkgs' CUDA setup "
                 "rejects it when the package set is evaluated",
                 e.text)
           : fmt::format(
                 "gpuTargets entry \"{}\"{} is not in TORCH_CUDA_ARCH_LIST's grammar (X.Y, X.Ya, X.Y(Z.W), "
                 "+PTX, or a generation name): the build stops at CMake with \"Unknown CUDA Architecture "
                 "Name {}\"",
                 e.text, via, e.text);
  Problem& p = sink.add(f, "TLR026", e.span, what,
                        fix.empty() ? "write the compute capability, like \"9.0\"" : fmt::format("write \"{}\"", fix));
  return p.rule ? &p : nullptr;
}

/// The CPU features "-march=armv9-a+sve2" lets the compiler use: what the base
/// implies and each extension enables (data/cpu_isas.toml); nullopt for other
/// flags or a base or extension the knowledge base does not model.
std::optional<std::vector<std::string>> march_features(const std::string& flag, const KnowledgeBase& kb) {
  if (!flag.starts_with("-march=")) return std::nullopt;
  std::string spec = flag.substr(7);
  size_t plus = spec.find('+');
  auto base = kb.march_implies.find(spec.substr(0, plus));
  if (base == kb.march_implies.end()) return std::nullopt;
  std::vector<std::string> out = base->second;
  while (plus != std::string::npos) {
    size_t next = spec.find('+', plus + 1);
    auto ext = kb.march_extensions.find(
        spec.substr(plus + 1, next == std::string::npos ? std::string::npos : next - plus - 1));
    if (ext == kb.march_extensions.end()) return std::nullopt;
    out.insert(out.end(), ext->second.begin(), ext->second.end());
    plus = next;
  }
  return out;
}

/// The dash-separated tokens of a file name that name a toolkit, an SM and an ISA.
struct NameTokens {
  std::optional<Version> cuda;  ///< any cudaX_Y, a toolkit of the knowledge base or not
  const GpuArch* gpu = nullptr;
  const CpuIsa* isa = nullptr;
};

NameTokens name_tokens(const std::string& stem, const KnowledgeBase& kb) {
  NameTokens out;
  for (size_t b = 0; b <= stem.size();) {
    size_t e = stem.find('-', b);
    if (e == std::string::npos) e = stem.size();
    std::string tok = stem.substr(b, e - b);
    if (tok.starts_with("cuda") && tok.find('_') != std::string::npos) {
      std::string dotted = tok.substr(4);
      dotted[dotted.find('_')] = '.';
      if (auto v = Version::parse(dotted)) out.cuda = v;
    }
    for (const auto& g : kb.gpus)
      if (g.name_token() == tok) out.gpu = &g;
    if (const CpuIsa* i = kb.isa(tok)) out.isa = i;
    b = e + 1;
  }
  return out;
}

/// TLR030: a name that is no variant name of a known package (a Flox-catalog
/// recipe) but still promises an SM, a toolkit and an ISA that cannot go together.
void check_name_promises(const NixFile& f, const KnowledgeBase& kb, Sink& sink) {
  if (f.helper || f.package || f.variant || !f.parsed) return;
  NameTokens n = name_tokens(f.stem, kb);
  if (!n.gpu) return;
  if (n.cuda && !n.gpu->supported_by(*n.cuda)) {
    std::string range = n.gpu->max_cuda ? fmt::format("CUDA {} to {}", n.gpu->min_cuda.str(), n.gpu->max_cuda->str())
                                        : fmt::format("CUDA {} or newer", n.gpu->min_cuda.str());
    sink.add(
        f, "TLR030", name_span(f),
        fmt::format("{}.nix promises {} ({}) built with CUDA {}, which nvcc cannot do: it compiles {} with {}; "
                    "the build stops at nvcc",
                    f.stem, n.gpu->display(), fmt::join(n.gpu->products, ", "), n.cuda->str(), n.gpu->display(), range),
        "rename the variant to a toolkit that supports the SM, or drop it");
  }
  if (n.isa && std::find(n.gpu->platforms.begin(), n.gpu->platforms.end(), n.isa->platform) == n.gpu->platforms.end())
    sink.add(f, "TLR030", name_span(f),
             fmt::format("{}.nix promises {} ({}) with the {} ISA, but those GPUs only sit in {} hosts: the "
                         "package can never run where it is installed",
                         f.stem, n.gpu->display(), fmt::join(n.gpu->products, ", "), n.isa->name,
                         fmt::join(n.gpu->platforms, ", ")),
             fmt::format("use an ISA of {}", fmt::join(n.gpu->platforms, ", ")));
}

}  // namespace

std::string effective_cuda(const NixFile& f) {
  for (const auto& o : f.facts.cuda_overlays)
    if (auto c = overlay_cuda(o.text); !c.empty()) return c;
  return f.variant ? f.variant->cuda : "";
}

namespace {

/// An AMDGPU processor name ("gfx90a"): a ROCm target (torch_arch_list.rocm_target_prefixes).
bool rocm_target(std::string_view e, const KnowledgeBase& kb) {
  auto it = kb.torch_arch_list.find("rocm_target_prefixes");
  if (it == kb.torch_arch_list.end()) return false;
  for (const auto& p : it->second)
    if (e.size() > p.size() && e.starts_with(p)) return true;
  return false;
}

/// A ROCm build's gpuTargets: every entry a ROCm target, in a file that builds
/// with no CUDA toolkit. A ROCm target beside CUDA entries, or in a CUDA
/// variant, reaches TORCH_CUDA_ARCH_LIST and stays an error.
bool rocm_list(const NixFile& f, const KnowledgeBase& kb) {
  if (f.facts.gpu_targets.empty() || !effective_cuda(f).empty()) return false;
  return std::all_of(f.facts.gpu_targets.begin(), f.facts.gpu_targets.end(),
                     [&](const Fact& e) { return rocm_target(e.text, kb); });
}

}  // namespace

/// TLR026 for every file: literal entries, and string arguments a caller passes
/// to a builder that puts them in gpuTargets (reported at the caller's value).
/// A ROCm build's list (rocm_list) is AMDGPU processor names, not TORCH_CUDA_ARCH_LIST.
void check_gpu_target_grammar(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  for (const auto& f : t.nix) {
    if (!f.parsed) continue;
    const bool rocm = rocm_list(f, kb);
    for (size_t i = 0; !rocm && i < f.facts.gpu_targets.size(); ++i)
      if (Problem* p = gpu_target_problem(f, f.facts.gpu_targets[i], kb, sink, "")) {
        fix_gpu_target(f, f.facts.gpu_targets[i], i < f.facts.gpu_target_vars.size() ? f.facts.gpu_target_vars[i] : "",
                       *p);
        if (rocm_target(f.facts.gpu_targets[i].text, kb))
          p->notes.push_back(fmt::format(
              "{} is a ROCm (AMDGPU) target, valid only in a ROCm build's list; this "
              "list builds {}",
              f.facts.gpu_targets[i].text,
              effective_cuda(f).empty() ? std::string("CUDA entries too") : "with CUDA " + effective_cuda(f)));
      }
    for (const auto& e : f.facts.cuda_capabilities) gpu_target_problem(f, e, kb, sink, "");
    for (const auto& call : f.facts.calls) {
      const NixFile* builder = imported_file(t, f, call.path);
      if (!builder || !builder->parsed) continue;
      std::string target = import_target(f, call.path);
      for (const auto& param : builder->facts.gpu_target_params)
        for (const auto& arg : call.args)
          if (arg.key == param.text)
            gpu_target_problem(f, {"gpuTargets", arg.text, arg.span}, kb, sink,
                               fmt::format(" (argument {} of {}, which puts it in gpuTargets at line {})", arg.key,
                                           target, param.span.line));
    }
  }
}

namespace {

/// An arch-list entry a Markdown code block writes, where it stands on its page.
struct BlockEntry {
  std::string key, text;  ///< "gpuTargets", "cudaCapabilities", "TORCH_CUDA_ARCH_LIST"
  int line = 0, column = 0;
  int list = 0;  ///< which list of the page (one per assignment)
};

/// The arch lists that fenced code blocks (``` or ~~~) of \a text set, as a recipe
/// or a shell would: `gpuTargets = [ "sm_90" ];` (a list may span lines),
/// `cudaCapabilities = [ "8.6" ]`, `TORCH_CUDA_ARCH_LIST="8.0;8.6+PTX"`.
std::vector<BlockEntry> block_entries(const std::string& text) {
  std::vector<BlockEntry> out;
  bool fenced = false;
  std::string open_key;  // a list still open from an earlier line
  int lists = 0;
  size_t start = 0;
  for (int n = 1; start < text.size(); ++n) {
    size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = std::string_view(text).substr(start, end - start);
    start = end + 1;
    std::string_view bare = line.substr(std::min(line.find_first_not_of(' '), line.size()));
    if (bare.starts_with("```") || bare.starts_with("~~~")) {
      fenced = !fenced;
      open_key.clear();
      continue;
    }
    if (!fenced || line.size() > kMaxRegexLine) continue;
    auto quoted = [&](size_t from, size_t to, const std::string& key) {  // "…" entries of [from, to)
      for (size_t q = line.find('"', from); q < to; q = line.find('"', q + 1)) {
        size_t close = line.find('"', q + 1);
        if (close >= to) break;
        out.push_back({key, std::string(line.substr(q + 1, close - q - 1)), n, static_cast<int>(q) + 2, lists});
        q = close;
      }
    };
    size_t from = 0;
    if (!open_key.empty()) {
      size_t close = line.find(']');
      quoted(0, std::min(close, line.size()), open_key);
      if (close == std::string_view::npos) continue;
      open_key.clear();
      from = close + 1;
    }
    for (std::string_view key : {"gpuTargets", "cudaCapabilities", "TORCH_CUDA_ARCH_LIST"})
      for (size_t k = line.find(key, from); k != std::string_view::npos; k = line.find(key, k + 1)) {
        if (k > 0 && (std::isalnum(static_cast<unsigned char>(line[k - 1])) || line[k - 1] == '_')) continue;
        size_t i = k + key.size();
        while (i < line.size() && line[i] == ' ') ++i;
        if (i >= line.size() || line[i] != '=') continue;
        ++i;
        while (i < line.size() && line[i] == ' ') ++i;
        ++lists;
        if (i < line.size() && line[i] == '[' && key != "TORCH_CUDA_ARCH_LIST") {
          size_t close = line.find(']', i);
          quoted(i, std::min(close, line.size()), std::string(key));
          if (close == std::string_view::npos) open_key = key;
        } else if (key == "TORCH_CUDA_ARCH_LIST") {  // "8.0;8.6", '8.0 8.6' or bare
          char q = i < line.size() && (line[i] == '"' || line[i] == '\'') ? line[i] : 0;
          if (q) ++i;
          size_t stop = q ? line.find(q, i) : line.find_first_of(" \t`", i);
          stop = std::min(stop, line.size());
          for (size_t a = i; a < stop;) {
            size_t b = std::min(line.find_first_of("; ", a), stop);
            if (b > a)
              out.push_back({std::string(key), std::string(line.substr(a, b - a)), n, static_cast<int>(a) + 1, lists});
            a = b + 1;
          }
        }
      }
  }
  return out;
}

/// TLR026 in a guide: a code block's arch list is checked as a recipe's is, at
/// its line in the page (a `gpuTargets = [ "sm_90" ]` taught in a guide is copied
/// into recipes). A list of ROCm targets alone is a ROCm build's.
void check_doc_arch_lists(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  for (const auto& doc : t.docs) {
    const std::vector<BlockEntry> entries = block_entries(doc.text);
    std::set<int> cuda_lists;  // gpuTargets lists with an entry that is no ROCm target
    for (const auto& e : entries)
      if (!rocm_target(e.text, kb)) cuda_lists.insert(e.list);
    for (const auto& e : entries) {
      if (e.text.find('$') != std::string::npos) continue;  // "${gpuArch}": a value the block does not give
      bool caps = e.key == "cudaCapabilities";
      if (caps ? dotted_capability(e.text) : torch_arch_entry(e.text, kb)) continue;
      if (e.key == "gpuTargets" && !cuda_lists.count(e.list)) continue;
      std::string fix = e.text.starts_with("compute_") ? "" : arch_entry_fix(e.text);
      std::string what =
          caps ? fmt::format(
                     "{}'s code block sets cudaCapabilities entry \"{}\", not a compute capability (X.Y): "
                     "nixpkgs' CUDA setup rejects a recipe copied from it",
                     doc.rel, e.text)
               : fmt::format(
                     "{}'s code block sets {} entry \"{}\", not in TORCH_CUDA_ARCH_LIST's grammar (X.Y, "
                     "X.Ya, X.Y(Z.W), +PTX, or a generation name): a build copied from it stops at CMake with "
                     "\"Unknown CUDA Architecture Name {}\"",
                     doc.rel, e.key, e.text, e.text);
      sink.add_doc(t, doc, "TLR026", e.line, e.column, what,
                   fix.empty() ? "write the compute capability, like \"9.0\"" : fmt::format("write \"{}\"", fix));
    }
  }
}

/// TLR010, TLR009: the overlay's toolkit vs the name, and vs the SM.
void check_toolkit(const NixFile& f, const GpuArch* gpu, const KnowledgeBase& kb, Sink& sink) {
  const Variant& v = *f.variant;
  const RecipeFacts& x = f.facts;
  const Fact* overlay = nullptr;
  for (const auto& o : x.cuda_overlays)
    if (!overlay_cuda(o.text).empty()) {
      overlay = &o;
      break;
    }
  if (overlay && !v.cuda.empty() && overlay_cuda(overlay->text) != v.cuda)
    sink.add(f, "TLR010", overlay->span,
             fmt::format("{} is CUDA {}, but the name says cuda{}", overlay->text, overlay_cuda(overlay->text),
                         fmt::format("{}", std::regex_replace(v.cuda, std::regex("\\."), "_"))),
             fmt::format("use cudaPackages_{}", std::regex_replace(v.cuda, std::regex("\\."), "_")));
  std::string cuda = effective_cuda(f);
  auto cuda_version = Version::parse(cuda);
  auto unsupported = [&](const GpuArch& g, nix::Span at, const std::string& hint) {
    if (!cuda_version || g.supported_by(*cuda_version)) return;
    std::string range = g.max_cuda ? fmt::format("CUDA {} to {}", g.min_cuda.str(), g.max_cuda->str())
                                   : fmt::format("CUDA {} or newer", g.min_cuda.str());
    sink.add(f, "TLR009", at,
             fmt::format("{} ({}) cannot be compiled by CUDA {}{}: nvcc supports it from {}", g.display(),
                         fmt::join(g.products, ", "), cuda, overlay ? " of " + overlay->text : "", range),
             hint);
  };
  if (gpu)
    unsupported(*gpu, overlay ? overlay->span : name_span(f),
                "drop this variant or build it with a toolkit that supports the SM");
  // A set variant ("…-all-…"): each SM of the set, at its gpuTargets entry; one
  // the toolkit cannot compile stops the whole build at nvcc.
  for (const auto& sm : v.sm_set) {
    const GpuArch* g = kb.gpu(sm);
    if (!g) continue;
    nix::Span at = overlay ? overlay->span : name_span(f);
    for (const auto& e : x.gpu_targets)
      if (normal_sm(e.text) == sm) {
        at = e.span;
        break;
      }
    unsupported(*g, at, fmt::format("remove {} from the set, or build the set with a toolkit that supports it", sm));
  }
}

/// TLR011, TLR015: gpuTargets / cudaCapabilities vs the name's SM.
void check_target_lists(const NixFile& f, const GpuArch& gpu, Sink& sink) {
  const RecipeFacts& x = f.facts;
  for (const auto* list : {&x.gpu_targets, &x.cuda_capabilities})
    for (const auto& e : *list) {
      std::string sm = normal_sm(e.text);
      if (sm.empty() || sm == gpu.sm) continue;
      sink.add(f, "TLR011", e.span,
               fmt::format("{} entry \"{}\" is SM {}, but the name says {}", e.key, e.text, sm, gpu.name_token()),
               fmt::format("use \"{}\"", gpu.sm));
    }
  // A Flox-catalog recipe has no nixpkgs import to give a config: its companions
  // are the catalog's, built (and cached) for every default SM.
  if (x.has_gpu_targets && !x.has_cuda_capabilities && !recipe::sets_from_caller(f.facts))
    sink.add(f, "TLR015", x.gpu_targets_span,
             "gpuTargets without config.cudaCapabilities: only torch is built for this SM",
             fmt::format("magma, torchvision, torchaudio and vLLM follow config.cudaCapabilities; import nixpkgs "
                         "with config.cudaCapabilities = [ \"{}\" ] as well",
                         gpu.sm));
}

/// TLR041: what the recipe prunes to must be the name's SM: code for any other
/// SM alone leaves the named GPU with "no kernel image".
void check_prune_sms(const NixFile& f, const GpuArch& gpu, Sink& sink) {
  for (const auto& [sms, span] : f.facts.prune_sm_lists) {
    std::vector<std::string> normal;
    for (const auto& sm : sms) normal.push_back(normal_sm(sm).empty() ? sm : normal_sm(sm));
    if (normal == std::vector<std::string>{gpu.sm}) continue;
    sink.add(f, "TLR041", span,
             fmt::format("the recipe prunes its GPU code to SM {}, but the name says {}: {}", fmt::join(normal, ","),
                         gpu.name_token(),
                         std::find(normal.begin(), normal.end(), gpu.sm) == normal.end()
                             ? fmt::format("the result has no code for SM {}", gpu.sm)
                             : "the result keeps code for other GPUs, which the name does not promise (tailor "
                               "verify's fatbin-only-sm fails)"),
             fmt::format("prune to --sm {}", gpu.sm));
  }
}

/// TLR012: platforms, the ISA's (or darwin's) and the GPU's.
void check_platforms(const NixFile& f, const GpuArch* gpu, Sink& sink) {
  const Variant& v = *f.variant;
  const RecipeFacts& x = f.facts;
  if (v.platform.empty()) return;
  for (const auto& p : x.platforms) {
    if (p.text == v.platform || p.text.find('-') == std::string::npos) continue;
    std::string why =
        v.isa.empty() ? "an Apple Silicon (MPS) variant" : fmt::format("{} is an {} ISA", v.isa, v.platform);
    sink.add(f, "TLR012", p.span,
             fmt::format("{} {} {}, but {}", p.key, p.key == "platforms" ? "lists" : "is", p.text, why),
             fmt::format("use \"{}\"", v.platform));
  }
  if (gpu && std::find(gpu->platforms.begin(), gpu->platforms.end(), v.platform) == gpu->platforms.end())
    sink.add(f, "TLR012", name_span(f),
             fmt::format("{} ({}) GPUs are not found in {} hosts, but the name's ISA {} is {}", gpu->display(),
                         fmt::join(gpu->products, ", "), v.platform, v.isa, v.platform),
             fmt::format("{} runs on {}", gpu->display(), fmt::join(gpu->platforms, ", ")));
}

/// TLR013, TLR014: CPU flags vs the name's ISA.
void check_cpu_flags(const NixFile& f, const KnowledgeBase& kb, Sink& sink) {
  const Variant& v = *f.variant;
  const RecipeFacts& x = f.facts;
  const CpuIsa* isa = v.isa.empty() ? nullptr : kb.isa(v.isa);
  if (!isa || x.cpu_flags.empty()) return;
  // What the name promises: the ISA's required features, and all its -march bases imply.
  std::vector<std::string> promise = isa->requires_features;
  for (const auto& fl : isa->flags)
    if (auto m = march_features(fl, kb)) promise.insert(promise.end(), m->begin(), m->end());
  auto promised = [&](const std::string& feature) {
    return std::find(promise.begin(), promise.end(), feature) != promise.end();
  };
  std::vector<std::string> seen;
  for (const auto& fl : x.cpu_flags) {
    seen.push_back(fl.text);
    if (std::find(isa->flags.begin(), isa->flags.end(), fl.text) != isa->flags.end()) continue;
    if (fl.text.starts_with("-mno-")) continue;
    auto known = kb.flag_features.find(fl.text);
    std::vector<std::string> beyond;
    if (auto m = march_features(fl.text, kb)) {
      for (const auto& feat : *m)
        if (!promised(feat) && std::find(beyond.begin(), beyond.end(), feat) == beyond.end()) beyond.push_back(feat);
    } else if (known != kb.flag_features.end()) {
      for (const auto& feat : known->second)
        if (!promised(feat)) beyond.push_back(feat);
    } else if (fl.text.starts_with("-march=")) {
      beyond.push_back(fl.text.substr(7));
    }
    if (beyond.empty()) continue;
    sink.add(f, "TLR013", fl.span,
             fmt::format("{} makes the compiler use {}, which the {} ISA of the name does not promise: the "
                         "package dies with SIGILL (illegal instruction) on {} CPUs that lack it",
                         fl.text, fmt::join(beyond, ", "), isa->name, isa->display),
             fmt::format("{} uses {}", isa->name, fmt::join(isa->flags, " ")));
  }
  // A -march of the ISA's base covers the ISA's -march: its optional extensions
  // are never suggested, as each one more is a SIGILL risk.
  auto has_base = [&](const std::string& want) {
    std::string base = want.substr(0, want.find('+'));
    return std::any_of(seen.begin(), seen.end(),
                       [&](const std::string& s) { return s.substr(0, s.find('+')) == base; });
  };
  std::vector<std::string> missing;
  for (const auto& want : isa->flags)
    if (std::find(seen.begin(), seen.end(), want) == seen.end() && !(want.starts_with("-march=") && has_base(want)))
      missing.push_back(want);
  if (!missing.empty())
    sink.add(f, "TLR014", x.cpu_flags.front().span,
             fmt::format("CPU flags lack {} of the {} ISA: the build runs, but slower code than the name promises",
                         fmt::join(missing, " "), isa->name),
             fmt::format("{} uses {}", isa->name, fmt::join(isa->flags, " ")));
}

}  // namespace

void check_targets(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  check_gpu_target_grammar(t, kb, sink);
  check_doc_arch_lists(t, kb, sink);
  for (const auto& f : t.nix) check_name_promises(f, kb, sink);
  for (const auto& f : t.nix) {
    if (!f.parsed || !f.variant) continue;
    const GpuArch* gpu = f.variant->sm.empty() ? nullptr : kb.gpu(f.variant->sm);
    check_toolkit(f, gpu, kb, sink);
    if (gpu) check_target_lists(f, *gpu, sink);
    if (gpu) check_prune_sms(f, *gpu, sink);
    check_platforms(f, gpu, sink);
    check_cpu_flags(f, kb, sink);
  }
}

}  // namespace tailor::lint
