#pragma once

#include <string>
#include <vector>

namespace tailor::test {

// Where the tailor binary and the source tree are. Only paths.cpp is compiled with these absolute paths,
// so every other test object is the same in every checkout and a shared compiler cache hits across them.
const std::string& tailor_binary();
const std::string& source_dir();

// The example specs every example-wide test loads with the embedded knowledge
// base: examples/**/*.toml, less the examples that bring their own overlay
// (examples/X/kb/: its files are no specs, and X's specs need it), which
// their own tests load with it (src/generate/sglang_example_test.cpp).
std::vector<std::string> plain_example_specs();

}  // namespace tailor::test
