#include "inspect/inspection_svg.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "util/html_quote.hpp"

namespace tailor {

namespace {

struct Bar {
  std::string label;
  std::string detail;
  uint64_t bytes;
  const char* colour;
};

}  // namespace

std::string to_svg(const Inspection& in) {
  std::vector<Bar> bars;
  for (const auto& t : tally(in.all_entries())) {
    const char* colour = t.kind == FatbinKind::sass ? "#4c78a8" : t.kind == FatbinKind::ptx ? "#f58518" : "#9d755d";
    bars.push_back(
        {t.arch, fmt::format("{} {}, {}", t.count, t.kind == FatbinKind::ptx ? "PTX" : "cubins", human_bytes(t.bytes)),
         t.bytes, colour});
  }
  uint64_t outside = in.total_bytes() - in.fatbin_bytes();
  bars.push_back({"outside fatbins", human_bytes(outside), outside, "#bab0ac"});
  uint64_t max = 1;
  for (const auto& b : bars) max = std::max(max, b.bytes);

  constexpr int kLabel = 150, kBarMax = 520, kRow = 26, kTop = 64, kWidth = kLabel + kBarMax + 190;
  const int height = kTop + static_cast<int>(bars.size()) * kRow + 40;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "font-family=\"sans-serif\" font-size=\"13\">\n",
      kWidth, height, kWidth, height);
  s += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"white\"/>\n", kWidth, height);
  s += fmt::format("<text x=\"12\" y=\"24\" font-size=\"16\" font-weight=\"bold\">{}</text>\n",
                   html_text("CUDA fatbin bytes per architecture: " + in.root));
  double pct =
      in.total_bytes() ? 100.0 * static_cast<double>(in.fatbin_bytes()) / static_cast<double>(in.total_bytes()) : 0;
  s += fmt::format("<text x=\"12\" y=\"46\" fill=\"#555\">{} ELF file{}, {} in all; {} in fatbins ({:.1f}%)</text>\n",
                   in.files.size(), in.files.size() == 1 ? "" : "s", human_bytes(in.total_bytes()),
                   human_bytes(in.fatbin_bytes()), pct);
  int y = kTop;
  for (const auto& b : bars) {
    int w = static_cast<int>(static_cast<double>(b.bytes) * kBarMax / static_cast<double>(max));
    if (b.bytes > 0 && w < 1) w = 1;
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", kLabel - 8, y + 15, html_text(b.label));
    s += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {} bytes</title></rect>\n", kLabel,
        y + 2, w, kRow - 6, b.colour, html_text(b.label), b.bytes);
    s += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#333\">{}</text>\n", kLabel + w + 6, y + 15, html_text(b.detail));
    y += kRow;
  }
  s += fmt::format(
      "<text x=\"12\" y=\"{}\" fill=\"#555\"><tspan fill=\"#4c78a8\">■</tspan> SASS cubins  "
      "<tspan fill=\"#f58518\">■</tspan> PTX  <tspan fill=\"#bab0ac\">■</tspan> outside fatbins</text>\n",
      y + 24);
  s += "</svg>\n";
  return s;
}

}  // namespace tailor
