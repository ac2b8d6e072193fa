#include "kb/python_version.hpp"

#include <algorithm>

#include "kb/read_helpers.hpp"

namespace tailor {

std::string PythonVersion::name_token() const {
  std::string digits = version;
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  return "python" + digits;
}

PythonVersion read_python_version(TableReader& r) {
  PythonVersion p;
  p.version = r.required_string("version").value;
  p.end_of_life = optional_text(r, "end_of_life");
  return p;
}

}  // namespace tailor
