#include "kb/python_version.hpp"

#include <algorithm>

#include "kb/read_helpers.hpp"
#include "util/version_spelling.hpp"

namespace tailor {

std::string PythonVersion::name_token() const { return "python" + nodot(version); }

PythonVersion read_python_version(TableReader& r) {
  PythonVersion p;
  p.version = r.required_string("version").value;
  p.end_of_life = optional_text(r, "end_of_life");
  return p;
}

}  // namespace tailor
