#include "support/paths.hpp"

namespace tailor::test {

const std::string& tailor_binary() {
  static const std::string path = TAILOR_BINARY;
  return path;
}

const std::string& source_dir() {
  static const std::string path = TAILOR_SOURCE_DIR;
  return path;
}

}  // namespace tailor::test
