// TLR018 gpu-product-sm, TLR019 cuda-version-text, TLR020 driver-text: what
// descriptions, longDescriptions and comments claim, against the knowledge base.
#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "lint/checks.hpp"

namespace tailor::lint {

namespace {

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

/// Offsets of \a word in \a line where it stands alone (not inside L40S or GB200).
std::vector<size_t> find_word(const std::string& line, const std::string& word) {
  std::vector<size_t> out;
  for (size_t p = line.find(word); p != std::string::npos; p = line.find(word, p + 1)) {
    bool left = p == 0 || !alnum(line[p - 1]);
    bool right = p + word.size() >= line.size() || !alnum(line[p + word.size()]);
    if (left && right) out.push_back(p);
  }
  return out;
}

/// The SMs a line mentions: SM90, sm_90, "compute capability 9.0".
std::set<std::string> sms_in(const std::string& line) {
  static const std::regex sm_re(R"((?:^|[^A-Za-z0-9])[Ss][Mm]_?(\d{2,3})(?![0-9]))");
  static const std::regex cc_re(R"(compute capability (\d+\.\d+))");
  std::set<std::string> out;
  if (line.find("SM") == std::string::npos && line.find("sm") == std::string::npos &&
      line.find("capability") == std::string::npos)
    return out;
  for (auto it = std::sregex_iterator(line.begin(), line.end(), sm_re); it != std::sregex_iterator(); ++it)
    if (auto sm = sm_from_token((*it).str(1))) out.insert(*sm);
  for (auto it = std::sregex_iterator(line.begin(), line.end(), cc_re); it != std::sregex_iterator(); ++it)
    out.insert((*it).str(1));
  return out;
}

/// A span inside a fact's text (exact when the fact's text is on one source line).
nix::Span inside(const Fact& f, size_t offset, size_t length) {
  nix::Span s = f.span;
  if (s.end - s.begin != f.text.size() || f.text.find('\n') != std::string::npos) return s;
  s.begin += static_cast<uint32_t>(offset);
  s.end = s.begin + static_cast<uint32_t>(length);
  s.column += static_cast<int>(offset);
  return s;
}

}  // namespace

void check_text(const LintTree& t, const KnowledgeBase& kb, Sink& sink) {
  static const std::regex cuda_re(R"(\bCUDA:?\s+(\d+\.\d+)(?:\.\d+)?)");
  static const std::regex driver_re(R"([Dd]river\D{0,12}?(\d{3}(?:\.\d+){0,2})(\+?))");
  for (const auto& f : t.nix) {
    if (!f.parsed || !f.variant) continue;
    std::vector<const Fact*> texts;
    for (const auto& d : f.facts.descriptions) texts.push_back(&d);
    for (const auto& c : f.facts.comments) texts.push_back(&c);
    std::string cuda = effective_cuda(f);
    for (const Fact* tx : texts) {
      const std::string& line = tx->text;
      if (line.size() > kMaxRegexLine) continue;
      std::string where = tx->key == "header" || tx->key == "comment" ? "comment" : tx->key;
      // Products named under an SM they do not have.
      std::set<std::string> sms = sms_in(line);
      if (!sms.empty()) {
        std::set<std::string> reported;
        for (const auto& g : kb.gpus)
          for (const auto& product : g.products) {
            if (reported.count(product)) continue;
            auto at = find_word(line, product);
            if (at.empty()) continue;
            std::vector<const GpuArch*> homes;
            for (const auto& h : kb.gpus)
              if (std::find(h.products.begin(), h.products.end(), product) != h.products.end()) homes.push_back(&h);
            bool agrees = false;
            for (const GpuArch* h : homes) agrees = agrees || sms.count(h->sm);
            if (agrees) continue;
            reported.insert(product);
            std::string listed;
            for (const auto& s : sms)
              listed += (listed.empty() ? "" : ", ") + (kb.gpu(s) ? kb.gpu(s)->display() : "SM " + s);
            sink.add(f, "TLR018", inside(*tx, at.front(), product.size()),
                     fmt::format("{} names {} under {}, but {} is {} ({}, compute capability {})", where, product,
                                 listed.empty() ? "another SM" : listed, product, homes.front()->display(),
                                 homes.front()->family, homes.front()->sm),
                     fmt::format("list {} under {}", product, homes.front()->display()));
          }
      }
      // CUDA versions and driver requirements.
      if (cuda.empty()) continue;
      std::smatch m;
      std::string stated = cuda;
      if (line.find("CUDA") != std::string::npos && std::regex_search(line, m, cuda_re)) {
        stated = m.str(1);
        if (stated != cuda)
          sink.add(f, "TLR019", inside(*tx, m.position(1), m.length(1)),
                   fmt::format("{} says CUDA {}, but this recipe builds with CUDA {}", where, stated, cuda),
                   fmt::format("say CUDA {}", cuda));
        std::smatch d;
        if (line.find("river") != std::string::npos && std::regex_search(line, d, driver_re)) {
          const CudaToolkit* tk = kb.cuda(stated);
          auto driver = Version::parse(d.str(1));
          if (tk && driver && *driver < tk->min_driver) {
            Problem& p = sink.add(
                f, "TLR020", inside(*tx, d.position(1), d.length(1) + d.length(2)),
                fmt::format("{} says driver {}{} for CUDA {}, but NVIDIA's minimum for CUDA {} is {}", where, d.str(1),
                            d.str(2), stated, stated, tk->min_driver.str()),
                fmt::format("say driver {}+", tk->min_driver.str()));
            if (p.rule && tk->minor_compat_driver)
              p.notes.push_back(fmt::format("drivers from {} run CUDA {}.x only through minor-version compatibility "
                                            "(no JIT of newer PTX)",
                                            tk->minor_compat_driver->str(), tk->version.major()));
          }
        }
      }
    }
  }
}

}  // namespace tailor::lint
