#include "repin/doc_tables.hpp"

#include <gtest/gtest.h>

namespace tailor::repin {
namespace {

DocRepin move() {
  DocRepin r;
  r.attribute = "torch";
  r.name = "pytorch";
  r.old_revs = {"6a030d535719c5190187c4cec156f335e95e3211"};
  r.new_rev = "0182a361324364ae3f436a63005877674cf45efb";
  r.old_torch = "2.9.1";
  r.new_torch = "2.10.0";
  r.old_python = "3.12";
  r.new_python = "3.13";
  return r;
}

TEST(DocTables, RevisionsKeepTheirLengthVersionsChangeInTheirColumnsOnly) {
  std::string doc =
      "PyTorch 2.9.1 on 6a030d5.\n\n"
      "| Branch | Pin | PyTorch | Python | Notes |\n"
      "|---|---|---|---|---|\n"
      "| x | `6a030d535719c5190187c4cec156f335e95e3211` | 2.9.1 | 3.12 | was 2.9.10 |\n\n"
      "| Component | Version |\n|---|---|\n| PyTorch | 2.9.1 |\n| Python | 3.12 |\n| CUDA | 12.9 |\n";
  std::vector<Mention> left;
  std::string out = apply_edits(doc, plan_doc(doc, move(), left));
  EXPECT_EQ(out,
            "PyTorch 2.9.1 on 0182a36.\n\n"
            "| Branch | Pin | PyTorch | Python | Notes |\n"
            "|---|---|---|---|---|\n"
            "| x | `0182a361324364ae3f436a63005877674cf45efb` | 2.10.0 | 3.13 | was 2.9.10 |\n\n"
            "| Component | Version |\n|---|---|\n| PyTorch | 2.10.0 |\n| Python | 3.13 |\n| CUDA | 12.9 |\n");
  ASSERT_EQ(left.size(), 1u);  // the prose mention, for the user
  EXPECT_EQ(left[0].line, 1);
  EXPECT_EQ(left[0].column, 9);
}

TEST(DocTables, HexThatIsNotTheOldPinStays) {
  std::string doc = "commit 6a030d5f0 and deadbeef12 and x6a030d5\n";
  std::vector<Mention> left;
  EXPECT_TRUE(plan_doc(doc, move(), left).empty());
}

TEST(DocTables, TorchMentions) {
  EXPECT_EQ(find_torch_mentions("# PyTorch 2.9.1 for x, torch-2.9.1, numpy 2.9.1, torch 2.9.10", "2.9.1", "torch"),
            (std::vector<size_t>{10, 29}));
}

}  // namespace
}  // namespace tailor::repin
