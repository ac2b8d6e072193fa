#include "import/page_fit.hpp"

#include <algorithm>
#include <optional>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "import/page_fit_steps.hpp"
#include "matrix/page_template.hpp"
#include "matrix/table_words.hpp"
#include "matrix/template_words.hpp"
#include "util/bounded_regex.hpp"
#include "util/diagnostic.hpp"
#include "util/quote.hpp"
#include "util/version_spelling.hpp"

namespace tailor {

namespace {

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  for (size_t nl; (nl = s.find('\n', i)) != std::string::npos; i = nl + 1) out.push_back(s.substr(i, nl - i));
  out.push_back(s.substr(i));
  return out;
}

std::string joined(const std::vector<std::string>& lines) { return fmt::format("{}", fmt::join(lines, "\n")); }

TemplateLine text_line(std::string text) { return {TemplateLine::Kind::text, std::move(text)}; }

const std::regex kSmHeading(R"re(^#+ .*\bSM([0-9]+)\b)re");

// The target a row names: the longest CPU target of the knowledge base standing alone on it.
const CpuIsa* row_target(const KnowledgeBase& kb, const std::string& line) {
  const CpuIsa* best = nullptr;
  for (const auto& isa : kb.isas)
    if (put_word(line, isa.name, "x@y", false) != line && (!best || isa.name.size() > best->name.size())) best = &isa;
  return best;
}

// The SM and CPU target pairs of a cell ("9.0", "avx2 x86_64").
std::set<std::pair<std::string, std::string>> sm_targets(const PageCell& c) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& s : c.sms)
    for (const auto& t : s.targets) out.insert({s.sm, t.isa + " " + t.arch});
  return out;
}

// An SM's section of a page: line indices of its start (the blank lines above its heading),
// its rows (one per CPU target) and its end.
struct Section {
  size_t head, rows, rows_end, end;
};

// One page read against its cell: its cell's SMs as the page lists them (team), its sections.
struct Page {
  const recipe::SourceFile* file;
  PageCell cell;
  std::vector<std::string> lines;
  std::vector<Section> sections;
};

// Fits a template to the pages of one folder, step by step (run); a step that finds no
// template says why (fail) and returns false.
class Fitter {
 public:
  Fitter(const Spec& spec, const Matrix& m, const KnowledgeBase& kb, const LayoutImport& li,
         const std::map<std::string, std::set<int>>& reported)
      : spec_(spec), m_(m), kb_(kb), li_(li), reported_(reported) {
    for (const auto& [cuda, d] : li.team_driver) team_["driver@" + cuda] = d;
    for (const auto& [key, names] : li.team_gpu_names) team_["gpu_names@" + key] = names;
    for (const auto& [sm, name] : li.team_arch) team_["arch_name@" + sm] = name;
  }

  PageFit run(const std::vector<const recipe::SourceFile*>& files) {
    if (files.size() < 2)
      fail("one page: nothing to fit a template to");
    else if (read_pages(files) && cut_pages() && learn_pages() && write_template())
      check_pages();
    return fit_;
  }

 private:
  bool fail(std::string why) {
    fit_.path.clear();
    fit_.why = std::move(why);
    return false;
  }

  // 1. The pages, each with its cell: the one path template that names each page's own cell.
  bool read_pages(const std::vector<const recipe::SourceFile*>& files) {
    cells_ = page_cells(spec_, m_, kb_);
    std::optional<PathFit> path = fit_path(files, cells_);
    if (!path) return fail("no path template over a cell's words names each page's own (version, CUDA) cell");
    path_ = path->path;
    for (const auto& [file, c] : path->cell) {
      Page p{file, cells_[c], lines_of(file->text), {}};
      p.cell.sms.clear();
      pages_.push_back(std::move(p));
    }
    std::sort(pages_.begin(), pages_.end(), [](const Page& a, const Page& b) { return a.file->rel < b.file->rel; });
    return true;
  }

  // 2. Each page cut into its head, its SM sections and its tail; the SMs and targets it lists, and those it lacks.
  bool cut_pages() {
    for (auto& p : pages_)
      if (!cut(p)) return false;
    if (!tail_n_) tail_n_ = 0;  // no page has two sections: a section ends with its rows
    for (auto& p : pages_) p.cell.missing = missing_of(p);
    return true;
  }

  // The sections of \a p: the blank lines above a heading open its section (a script writes them before each).
  bool cut(Page& p) {
    std::vector<size_t> heads;
    for (size_t i = 0; i < p.lines.size(); ++i) {
      std::smatch mt;
      if (bounded_search(p.lines[i], mt, kSmHeading) && gpu_of(mt[1])) heads.push_back(i);
    }
    if (heads.empty()) return fail(p.file->rel + " has no SM heading (\"## SM90 …\")");
    std::vector<size_t> starts;
    for (size_t k = 0; k < heads.size(); ++k) {
      size_t st = heads[k];
      while (st > (k ? heads[k - 1] + 1 : 0) && p.lines[st - 1].empty()) --st;
      if (!starts.empty() && heads[k] - st != heads[0] - starts[0])
        return fail(fmt::format("{}:{}: the SM headings stand unlike each other", p.file->rel, heads[k] + 1));
      starts.push_back(st);
    }
    for (size_t k = 0; k < heads.size(); ++k) {
      bool more = k + 1 < heads.size();
      if (!cut_section(p, heads[k], starts[k], more ? starts[k + 1] : p.lines.size(), more)) return false;
    }
    return true;
  }

  // The section of \a p headed at line \a head, from \a start to \a stop: its rows, the first
  // run of lines that name a CPU target; the lines after them alike in every section but the last.
  bool cut_section(Page& p, size_t head, size_t start, size_t stop, bool more) {
    std::smatch mt;
    bounded_search(p.lines[head], mt, kSmHeading);
    PageSm sm{gpu_of(mt[1])->sm, {}};
    Section s{start, 0, 0, stop};
    for (size_t i = head + 1; i < stop; ++i) {
      const CpuIsa* isa = row_target(kb_, p.lines[i]);
      if (!isa) {
        if (!sm.targets.empty()) break;
        continue;
      }
      if (sm.targets.empty()) s.rows = i;
      sm.targets.push_back({isa->name, isa->platform.substr(0, isa->platform.find('-'))});
      s.rows_end = i + 1;
    }
    if (sm.targets.empty())
      return fail(fmt::format("{}:{}: SM{} lists no CPU target", p.file->rel, head + 1, mt[1].str()));
    if (more) {
      size_t n = stop - s.rows_end;
      if (tail_n_ && *tail_n_ != n)
        return fail(fmt::format("{}:{}: the sections end unlike each other", p.file->rel, stop));
      tail_n_ = n;
    }
    p.cell.sms.push_back(std::move(sm));
    p.sections.push_back(s);
    return true;
  }

  // The missing SMs as the page has it: the SMs of its package and version it does not list, oldest first.
  std::vector<std::string> missing_of(const Page& p) const {
    std::set<std::string> listed;
    for (const auto& s : p.cell.sms) listed.insert(s.sm);
    std::vector<std::string> missing;
    for (const auto& c : cells_)
      if (c.package == p.cell.package && c.version == p.cell.version)
        for (const auto& s : c.sms)
          if (!listed.count(s.sm) && std::find(missing.begin(), missing.end(), s.sm) == missing.end())
            missing.push_back(s.sm);
    std::sort(missing.begin(), missing.end(),
              [](const std::string& a, const std::string& b) { return std::stod(a) < std::stod(b); });
    return missing;
  }

  // 3. Templates: the head, the section per kind (one_platform or not), the rows per target, the tail.
  bool learn_pages() {
    for (const auto& p : pages_) {
      if (!learn_head(p)) return false;
      for (size_t k = 0; k < p.sections.size(); ++k)
        if (!learn_section(p, k)) return false;
    }
    return true;
  }

  bool learn_head(const Page& p) {
    std::vector<std::string> h;
    for (size_t i = 0; i < p.sections.front().head; ++i) h.push_back(put_cell(p.lines[i], p.cell, team_));
    if (head_ && *head_ != h)
      return fail(fmt::format("{}: the lines before the SMs differ from {}'s", p.file->rel, pages_.front().file->rel));
    head_ = h;
    return true;
  }

  // Section \a k of \a p, its rows a block; after the last section, the tail.
  bool learn_section(const Page& p, size_t k) {
    const Section& s = p.sections[k];
    const PageSm& sm = p.cell.sms[k];
    std::string one = kind(p.cell, sm);
    bool last = k + 1 == p.sections.size();
    size_t end = last ? std::min(s.end, s.rows_end + *tail_n_) : s.end;
    TemplateLines t;
    for (size_t i = s.head; i < end; ++i) {
      if (i == s.rows) t.push_back({TemplateLine::Kind::target_rows, ""});
      if (i < s.rows || i >= s.rows_end)
        t.push_back(text_line(section_line(p, sm, p.lines[i])));
      else if (!learn_row(p, sm.sm, sm.targets[i - s.rows], one, i))
        return false;
    }
    auto [it, fresh] = sections_.emplace(one, t);
    if (!fresh && it->second != t)
      return fail(
          fmt::format("{}:{}: SM{}'s section differs from another SM's", p.file->rel, s.head + 1, nodot(sm.sm)));
    return !last || learn_tail(p, end);
  }

  // A line of \a sm's section outside its rows, \a sm's words put back.
  std::string section_line(const Page& p, const PageSm& sm, const std::string& line) const {
    std::string l = put_word(line, team_value("arch_name", sm.sm), "arch_name@sm", false);
    l = put_word(l, names(sm.sm, sm.targets.front().arch), "gpu_names@sm", false);
    l = put_sm(l, nodot(sm.sm), "sm_nodot@sm");
    return put_cell(l, p.cell, team_);
  }

  // Line \a i of \a p, the row of \a target under \a sm: it reads alike under every SM of its kind \a one.
  bool learn_row(const Page& p, const std::string& sm, const PageTarget& target, const std::string& one, size_t i) {
    std::string r = p.lines[i];
    if (const CpuIsa* isa = kb_.isa(target.isa)) r = put_word(r, isa->display, "isa_display@target", false);
    r = put_word(r, names(sm, target.arch), "gpu_names@target", false);
    r = put_word(r, target.isa, "isa@target", false);
    r = put_sm(r, nodot(sm), "sm_nodot@sm");
    r = put_cell(r, p.cell, team_);
    auto [it, fresh] = rows_[one].emplace(target.isa, r);
    if (!fresh && it->second != r)
      return fail(fmt::format("{}:{}: the row of {} reads '{}', under another SM '{}'", p.file->rel, i + 1, target.isa,
                              comment_text(r), comment_text(it->second)));
    return true;
  }

  // The tail of \a p from line \a from: the list of the SMs the page lacks, on one line, a block.
  bool learn_tail(const Page& p, size_t from) {
    TemplateLines tl;
    for (size_t i = from; i < p.lines.size(); ++i) {
      std::vector<size_t> starts = missing_starts(p, p.lines[i]);
      if (p.cell.missing.empty() || starts.size() != p.cell.missing.size()) {
        tl.push_back(text_line(put_cell(p.lines[i], p.cell, team_)));
        continue;
      }
      if (!learn_list(p, i, starts)) return false;
      tl.push_back({TemplateLine::Kind::missing_list, ""});
    }
    return merge_tail(p, tl);
  }

  // Where each SM \a p lacks starts on \a line ("SM100"), in order; fewer where the line lists not all.
  static std::vector<size_t> missing_starts(const Page& p, const std::string& line) {
    std::vector<size_t> starts;
    size_t from = 0;
    for (const auto& ms : p.cell.missing) {
      std::string marked = put_sm(line.substr(from), nodot(ms), "@");
      size_t at = marked.find("{@}");
      if (at == std::string::npos) break;
      at += from;
      size_t st = at;
      while (st > 0 && std::isalpha(static_cast<unsigned char>(line[st - 1]))) --st;
      starts.push_back(st);
      from = at + nodot(ms).size();
    }
    return starts;
  }

  // Line \a i of \a p, the list of the SMs it lacks (each at \a starts): its items and what
  // comes before them read alike on every page.
  bool learn_list(const Page& p, size_t i, const std::vector<size_t>& starts) {
    const std::string& line = p.lines[i];
    for (size_t j = 0; j < starts.size(); ++j) {
      const std::string& ms = p.cell.missing[j];
      bool late = later(p.cell, ms);
      std::string item = missing_item(
          p, ms, late, line.substr(starts[j], (j + 1 < starts.size() ? starts[j + 1] : line.size()) - starts[j]));
      auto& slot = j + 1 < starts.size() ? items_.nonlast : items_.last;
      auto [at, fresh] = slot.emplace(late, item);
      if (!fresh && at->second != item) return fail(list_unlike(p, i));
    }
    std::string before = put_cell(line.substr(0, starts[0]), p.cell, team_);
    if (list_before_ && *list_before_ != before) return fail(list_unlike(p, i));
    list_before_ = before;
    return true;
  }

  static std::string list_unlike(const Page& p, size_t i) {
    return fmt::format("{}:{}: the list of the SMs it lacks reads unlike another page's", p.file->rel, i + 1);
  }

  // An \a item of the list: the SM \a ms and the CUDA range it is built in put back; a later
  // SM's last CUDA first.
  std::string missing_item(const Page& p, const std::string& ms, bool late, std::string item) const {
    auto [first, last] = sm_cuda_range(m_, kb_, p.cell.package, ms);
    item = put_sm(item, nodot(ms), "sm_nodot@missing");
    return late ? put_word(put_word(item, last, "last_cuda@missing", true), first, "first_cuda@missing", true)
                : put_word(put_word(item, first, "first_cuda@missing", true), last, "last_cuda@missing", true);
  }

  // The pages' tails alike; a page that lacks no SM may end where the others' list begins.
  bool merge_tail(const Page& p, const TemplateLines& tl) {
    if (!tail_ || *tail_ == tl) {
      tail_ = tl;
      return true;
    }
    bool bare = p.cell.missing.empty() && (tl.empty() || (tl.size() == 1 && tl[0].blank()));
    bool others_bare = std::all_of(tail_->begin(), tail_->end(), [](const TemplateLine& l) { return l.blank(); });
    if (!bare && !others_bare) return fail(fmt::format("{}: its end differs from another page's", p.file->rel));
    if (!bare) tail_ = tl;
    return true;
  }

  // 4. The template: the head, the SM block, the tail; it must parse.
  bool write_template() {
    std::string why;
    std::optional<MissingList> list;
    if (list_before_) {
      list = missing_list(items_, *list_before_, why);
      if (!list) return fail(why);
    }
    std::optional<std::map<std::string, std::string>> rows = target_rows(rows_, fit_.targets, why);
    if (!rows) return fail(why);
    std::optional<std::vector<std::string>> sms = sm_block(sections_, *rows, why);
    if (!sms) return fail(why);
    std::vector<std::string> t = *head_;
    t.push_back("{#sm}");
    t.insert(t.end(), sms->begin(), sms->end());
    t.push_back("{/sm}");
    if (tail_)
      for (auto& l : tail_block(*tail_, list)) t.push_back(std::move(l));
    fit_.path = path_;
    fit_.text = joined(t);
    try {
      nodes_ = parse_page_template(fit_.text, paired_attributes(kb_));
    } catch (const PageTemplateError& e) {
      return fail(fmt::format("the template does not parse: {}", e.what()));
    }
    return true;
  }

  // 5. Each page: given back with the SMs it lists, except at lines check reports or facts a
  // table corrects; what the matrix builds differs from what it lists only by what nvcc cannot.
  void check_pages() {
    Spec with = spec_;
    if (!with.layout) with.layout.emplace();
    with.layout->target_text = fit_.targets;
    with.layout->arch_names = li_.arch_names;
    for (const auto& p : pages_) {
      if (std::optional<std::string> why = misfit(p, with))
        fit_.unfit[p.file->rel] = std::move(*why);
      else
        fit_.fitted.push_back(p.file->rel);
    }
    if (fit_.fitted.empty()) fail("the template gives no page back");
  }

  // Why the template written for \a with does not give \a p back; nullopt when it does.
  std::optional<std::string> misfit(const Page& p, const Spec& with) const {
    std::string as_team, as_kb;
    try {
      as_team = render_page(path_, nodes_, p.cell, with, m_, kb_, &team_);
      as_kb = render_page(path_, nodes_, p.cell, with, m_, kb_);
    } catch (const DiagnosticError& e) {
      return e.diagnostic().message;
    }
    auto team_lines = lines_of(as_team), kb_lines = lines_of(as_kb);
    if (team_lines.size() != p.lines.size() || kb_lines.size() != p.lines.size())
      return "the template gives another number of lines";
    if (auto why = changed_line(p, team_lines, kb_lines)) return why;
    return unlike_matrix(p);
  }

  // The first line the template gives unlike \a p where check reports none: as the team's
  // facts, then the knowledge base's (a fact the page writes unlike it changes only where check reports it).
  std::optional<std::string> changed_line(const Page& p, const std::vector<std::string>& team_lines,
                                          const std::vector<std::string>& kb_lines) const {
    const auto r = reported_.find(p.file->rel);
    auto is_reported = [&](size_t i) { return r != reported_.end() && r->second.count(static_cast<int>(i + 1)); };
    for (size_t i = 0; i < p.lines.size(); ++i)
      if (team_lines[i] != p.lines[i] && !is_reported(i))
        return fmt::format("the template gives line {} as '{}'", i + 1, comment_text(team_lines[i]));
    for (size_t i = 0; i < p.lines.size(); ++i)
      if (kb_lines[i] != p.lines[i] && !is_reported(i))
        return fmt::format("tailor would write line {} as '{}', a change check does not ask for", i + 1,
                           comment_text(kb_lines[i]));
    return std::nullopt;
  }

  // The matrix's cell: the SMs and targets \a p lists, but those nvcc cannot compile for.
  std::optional<std::string> unlike_matrix(const Page& p) const {
    const PageCell& built = *std::find_if(cells_.begin(), cells_.end(), [&](const PageCell& c) {
      return c.package == p.cell.package && c.version == p.cell.version && c.cuda == p.cell.cuda;
    });
    auto listed = sm_targets(p.cell), matrix = sm_targets(built);
    for (const auto& x : matrix)
      if (!listed.count(x))
        return fmt::format("it lacks SM {} with {}, which the matrix builds", x.first,
                           x.second.substr(0, x.second.find(' ')));
    const CudaToolkit* t = kb_.cuda(p.cell.cuda);
    for (const auto& x : listed) {
      const GpuArch* g = kb_.gpu(x.first);
      if (!matrix.count(x) && (!g || !t || g->supported_by(t->version)))
        return fmt::format("it lists SM {} with {}, which the matrix does not build", x.first,
                           x.second.substr(0, x.second.find(' ')));
    }
    return std::nullopt;
  }

  // Facts of the knowledge base, the team's first.
  const GpuArch* gpu_of(const std::string& nd) const {
    for (const auto& g : kb_.gpus)
      if (nodot(g.sm) == nd) return &g;
    return nullptr;
  }
  std::string team_value(const std::string& word, const std::string& key) const {
    if (auto it = team_.find(word + "@" + key); it != team_.end()) return it->second;
    return table_word(word, key, spec_, m_, kb_).value_or("");
  }
  std::string names(const std::string& sm, const std::string& arch) const {
    if (auto it = team_.find("gpu_names@" + sm + " " + arch); it != team_.end()) return it->second;
    if (auto it = team_.find("gpu_names@" + sm); it != team_.end()) return it->second;
    return table_word("gpu_names", sm + " " + arch, spec_, m_, kb_).value_or("");
  }
  // "aarch64_only" / "x86_64_only": the SM built for one platform where the cell builds for
  // both; "" for the others.
  static std::string kind(const PageCell& c, const PageSm& s) {
    std::set<std::string> all, own;
    for (const auto& x : c.sms)
      for (const auto& t : x.targets) all.insert(t.arch);
    for (const auto& t : s.targets) own.insert(t.arch);
    return own.size() == 1 && all.size() > 1 ? *own.begin() + "_only" : "";
  }
  // Whether the cell's CUDA is past the last CUDA that builds \a sm.
  bool later(const PageCell& c, const std::string& sm) const {
    auto [first, last] = sm_cuda_range(m_, kb_, c.package, sm);
    const CudaToolkit* a = kb_.cuda(last);
    const CudaToolkit* b = kb_.cuda(c.cuda);
    return a && b && a->version < b->version;
  }

  const Spec& spec_;
  const Matrix& m_;
  const KnowledgeBase& kb_;
  const LayoutImport& li_;
  const std::map<std::string, std::set<int>>& reported_;
  TeamFacts team_;
  std::vector<PageCell> cells_;
  // Read from the pages.
  std::string path_;
  std::vector<Page> pages_;
  std::optional<size_t> tail_n_;  // lines after a section's rows, before the next heading
  // Learnt from the pages.
  std::optional<std::vector<std::string>> head_;
  std::optional<TemplateLines> tail_;
  std::map<std::string, TemplateLines> sections_;  // kind -> lines
  KindRows rows_;                                  // kind -> isa -> row
  MissingItems items_;
  std::optional<std::string> list_before_;  // the tail's line of the list: what comes before it
  std::vector<PageNode> nodes_;             // the template
  PageFit fit_;
};

}  // namespace

PageFit fit_pages(const std::vector<const recipe::SourceFile*>& files, const Spec& spec, const Matrix& m,
                  const KnowledgeBase& kb, const LayoutImport& li,
                  const std::map<std::string, std::set<int>>& reported) {
  return Fitter(spec, m, kb, li, reported).run(files);
}

}  // namespace tailor
