#pragma once

#include <string>

namespace tailor::test {

// Where the tailor binary and the source tree are. Only paths.cpp is compiled with these absolute paths,
// so every other test object is the same in every checkout and a shared compiler cache hits across them.
const std::string& tailor_binary();
const std::string& source_dir();

}  // namespace tailor::test
