// Python package-set and interpreter names, shared by check and repin.
#include "recipe/python_names.hpp"

#include <gtest/gtest.h>

namespace tailor::recipe {
namespace {

TEST(PythonNames, SetsAndInterpreters) {
  for (std::string_view n : {"python3", "python313", "python3Packages", "python313Packages", "python31Packages"})
    EXPECT_TRUE(is_python_set(n)) << n;
  for (std::string_view n : {"", "python", "python2Packages", "python3Packages_", "python313packages", "python3.13",
                             "py313Packages", "python3XPackages", "mypython3"})
    EXPECT_FALSE(is_python_set(n)) << n;
}

TEST(PythonNames, VersionOfAName) {
  EXPECT_EQ(python_minor("python313Packages"), "13");
  EXPECT_EQ(python_version("python313Packages"), "3.13");
  EXPECT_EQ(python_version("python312"), "3.12");
  EXPECT_EQ(python_version("python3Packages"), "");  // the pin's default
  EXPECT_EQ(python_version("python3"), "");
  EXPECT_EQ(python_minor("cudaPackages_12_9"), "");
  EXPECT_EQ(python_version("python2Packages"), "");
}

}  // namespace
}  // namespace tailor::recipe
