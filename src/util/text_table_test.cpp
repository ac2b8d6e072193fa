#include "util/text_table.hpp"

#include <gtest/gtest.h>

namespace tailor {
namespace {

TEST(TextTable, AlignsColumnsWithoutTrailingSpaces) {
  TextTable t({"name", "sm"});
  t.add_row({"pytorch-python313-cpu-avx2", "-"});
  t.add_row({"x", "10.3"});
  EXPECT_EQ(t.render(),
            "name                        sm\n"
            "--------------------------  ----\n"
            "pytorch-python313-cpu-avx2  -\n"
            "x                           10.3\n");
  EXPECT_EQ(t.rows(), 2u);
}

TEST(TextTable, CountsUtf8CodePoints) {
  TextTable t({"a", "b"});
  t.add_row({"—", "x"});
  EXPECT_EQ(t.render(), "a  b\n-  -\n—  x\n");
}

TEST(TextTable, RejectsRaggedRows) { EXPECT_THROW(TextTable({"a"}).add_row({"1", "2"}), std::logic_error); }

}  // namespace
}  // namespace tailor
