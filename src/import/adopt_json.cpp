#include "import/adopt_json.hpp"

namespace tailor {

nlohmann::ordered_json adoption_json(const AdoptionPlan& plan, bool write, bool done) {
  nlohmann::ordered_json files = nlohmann::ordered_json::array(), pages = nlohmann::ordered_json::array();
  for (const AdoptedFile& f : plan.files)
    files.push_back({{"path", f.path},
                     {"change", std::string(kChanges.name(f.change))},
                     {"table", f.table},
                     {"lines", f.lines},
                     {"reason", f.reason}});
  for (const auto& p : plan.pages) pages.push_back({{"path", p.path}, {"folder", p.folder}, {"why", p.why}});
  return {{"tree", plan.dir},
          {"spec", plan.spec_path()},
          {"write", write},
          {"files", files},
          {"corrected", plan.corrected},
          {"pages", pages},
          {"replaces", plan.replaces},
          {"written", done ? plan.written() : 0},
          {"removed", done ? plan.impossible.size() : 0}};
}

}  // namespace tailor
