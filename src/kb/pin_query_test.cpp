// Which pins provide a torch/Python/CUDA/vLLM, against data/nixpkgs_pins.toml
// (what each pin ships) and data/workarounds.toml (torch built from source).
#include "kb/pin_query.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run.hpp"

namespace tailor {
namespace {

// torch, Python, CUDA, vLLM: empty ones ask for nothing.
PinQuery query(std::string torch, std::string python, std::string cuda, std::string vllm) {
  PinQuery q{{}, std::move(python), std::move(cuda)};
  if (!torch.empty()) q.versions.emplace_back("torch", torch);
  if (!vllm.empty()) q.versions.emplace_back("vllm", vllm);
  return q;
}

std::vector<std::string> names(const PinQuery& q) {
  std::vector<std::string> out;
  for (const NixpkgsPin* p : pins_providing(embedded_kb(), q)) out.push_back(p->short_rev);
  return out;
}

using Names = std::vector<std::string>;

TEST(PinQuery, TorchAndPython) {
  // torch 2.9.1 with Python 3.12: every 2.9.1 pin (0182a36 and ed142ab provide 3.12 and 3.13 only, so they count).
  EXPECT_EQ(names(query("2.9.1", "3.12", "", "")), (Names{"6a030d5", "46336d4", "0182a36", "2017d6d", "ed142ab"}));
  // Python 3.11: 0182a36 and ed142ab lack it.
  EXPECT_EQ(names(query("2.9.1", "3.11", "", "")), (Names{"6a030d5", "46336d4", "2017d6d"}));
}

TEST(PinQuery, AShortVersionMatchesItsReleases) {
  EXPECT_EQ(names(query("2.9", "", "", "")), names(query("2.9.1", "", "", "")));
  EXPECT_EQ(names(query("2.9", "", "", "")), (Names{"6a030d5", "46336d4", "0182a36", "2017d6d", "ed142ab"}));
  EXPECT_EQ(names(query("2.91", "", "", "")), Names{}) << "components, not a text prefix";
}

TEST(PinQuery, TorchBuiltFromSourceByAWorkaroundCounts) {
  // No pin ships 2.10.0; workaround torch-2.10.0-from-source builds it on 6a030d5, 0182a36 and 2017d6d.
  EXPECT_EQ(names(query("2.10.0", "", "", "")), (Names{"6a030d5", "0182a36", "2017d6d"}));
}

TEST(PinQuery, CudaAndVllm) {
  EXPECT_EQ(names(query("", "", "13.1", "")), (Names{"2017d6d"}));
  EXPECT_EQ(names(query("", "", "12.9", "0.14.0")), (Names{"46336d4"}));
  EXPECT_EQ(names(query("", "", "", "0.16")), Names{});
}

TEST(PinQuery, HintNamesThePinsAndTheCommand) {
  EXPECT_EQ(pin_hint(embedded_kb(), query("2.9.1", "3.12", "", "")),
            "pins that provide torch 2.9.1, Python 3.12: 6a030d5, 46336d4, 0182a36, 2017d6d, ed142ab "
            "('tailor kb --pins --torch 2.9.1 --python 3.12')");
  EXPECT_EQ(pin_hint(embedded_kb(), query("", "", "13.1", "")),
            "pin that provides CUDA 13.1: 2017d6d ('tailor kb --pins --cuda 13.1')");
  EXPECT_EQ(pin_hint(embedded_kb(), query("2.7.0", "", "", "")),
            "no pin of the knowledge base provides torch 2.7.0; 'tailor kb --pins' lists what each provides");
}

TEST(KbPins, FiltersOnTheCommandLine) {
  auto r = test::run_tailor({"kb", "--pins", "--torch", "2.9.1", "--python", "3.11", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  Names got;
  for (const auto& p : j) got.push_back(p["short"]);
  EXPECT_EQ(got, (Names{"6a030d5", "46336d4", "2017d6d"}));
  auto text = test::run_tailor({"kb", "--pins", "--cuda", "13.1"});
  EXPECT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("2017d6d"), std::string::npos);
  EXPECT_EQ(text.out.find("6a030d5"), std::string::npos);
  auto none = test::run_tailor({"kb", "--pins", "--torch", "2.7.0"});
  EXPECT_EQ(none.status, 1);
  EXPECT_EQ(none.err, "tailor: no pin of the knowledge base provides torch 2.7.0\n");
  EXPECT_EQ(test::run_tailor({"kb", "--torch", "2.9.1"}).status, 2) << "the filters need --pins";
}

}  // namespace
}  // namespace tailor
