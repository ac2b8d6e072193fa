#pragma once
/// Golden files: expected output kept in the tree. Set TAILOR_UPDATE_GOLDEN=1
/// to rewrite them from the actual output (then review the diff).

#include <string>
#include <vector>

namespace tailor::test {

/// Absolute path of \a relative inside the source tree.
std::string source_path(const std::string& relative);

/// Reads a whole file; fails the test if it cannot.
std::string read_file(const std::string& path);

/// Compares \a actual with the golden file at \a relative (source tree).
void expect_golden(const std::string& actual, const std::string& relative);

}  // namespace tailor::test

namespace tailor::test {
/// Every example spec, as the built-in names tailor accepts ("build-pytorch/main"),
/// found by globbing examples/ so that a new example is tested without a list to keep.
std::vector<std::string> example_specs();
}  // namespace tailor::test
