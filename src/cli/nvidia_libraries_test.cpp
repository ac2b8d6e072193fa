// inspect, prune (with and without compaction) and verify --static on NVIDIA's
// own libraries, from the CUDA toolkit every machine of the project has
// (located from nvcc's prefix), and on a library nvcc builds here. Each result
// is judged by tools that share no code with tailor: cuobjdump (the toolkit's,
// else NVIDIA's PyPI wheel in .tools/venv) lists the cubins and PTX;
// tests/elf/compare_sections.py compares every section with the original (only
// the fatbin and what points into it may change); eu-elflint --gnu-ld finds
// nothing the original did not have; patchelf reads and sets the rpath.
// Without the toolkit the tests skip, except under CI=true, where they fail.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::have_program;
using test::run_command;
using test::run_tailor;
using test::source_path;

// The toolkit's prefix: nvcc's (CUDA_HOME's, PATH's, /usr/local/cuda's) two folders up; "" without one.
std::string toolkit() {
  std::vector<std::string> nvccs;
  if (const char* home = std::getenv("CUDA_HOME")) nvccs.push_back(std::string(home) + "/bin/nvcc");
  auto found = run_command("command -v nvcc");
  if (found.status == 0) nvccs.push_back(found.out.substr(0, found.out.find('\n')));
  nvccs.push_back("/usr/local/cuda/bin/nvcc");
  for (const auto& n : nvccs) {
    std::error_code ec;
    fs::path real = fs::canonical(n, ec);
    if (!ec) return real.parent_path().parent_path().string();
  }
  return {};
}

// A library of the toolkit, in lib64/ or targets/*/lib/; "" when not there.
std::string library(const std::string& name) {
  const std::string prefix = toolkit();
  if (prefix.empty()) return {};
  if (fs::exists(prefix + "/lib64/" + name)) return prefix + "/lib64/" + name;
  std::error_code ec;
  for (const auto& t : fs::directory_iterator(prefix + "/targets", ec))
    if (fs::exists(t.path() / "lib" / name)) return (t.path() / "lib" / name).string();
  return {};
}

// The toolkit's cuobjdump, else the one NVIDIA ships on PyPI (nvidia-cuda-cuobjdump, in .tools/venv).
std::string cuobjdump() {
  const std::string prefix = toolkit();
  if (!prefix.empty() && fs::exists(prefix + "/bin/cuobjdump")) return prefix + "/bin/cuobjdump";
  std::error_code ec;
  for (const auto& lib : fs::directory_iterator(source_path(".tools/venv/lib"), ec))
    if (fs::exists(lib.path() / "site-packages/nvidia/cu13/bin/cuobjdump"))
      return (lib.path() / "site-packages/nvidia/cu13/bin/cuobjdump").string();
  return {};
}

// What is missing to run these tests here; empty when nothing is.
std::string missing() {
  if (toolkit().empty()) return "the CUDA toolkit (nvcc)";
  if (cuobjdump().empty()) return "cuobjdump (the toolkit's or .tools/venv's)";
  if (test::pypi_tool("python").empty()) return "the tools' Python (.tools/venv)";
  for (const char* p : {"eu-elflint", "patchelf"})
    if (!have_program(p)) return p;
  return {};
}
#define SKIP_WITHOUT_TOOLKIT() \
  TAILOR_SKIP_IF_TOOL_MISSING(!missing().empty(), missing() + " is missing: NVIDIA's libraries are not tested")

// cuobjdump --list-elf --list-ptx as "sm_86×3 sm_90×3 compute_90×1": its names end ".sm_86.cubin" / ".sm_90.ptx".
std::string listed(const std::string& path) {
  auto r = run_command(cuobjdump() + " --list-elf --list-ptx " + path + " 2>&1");
  EXPECT_EQ(r.status, 0) << r.out;
  std::map<int, std::map<std::string, int>> by_kind;  // 0 SASS, 1 PTX: cubins first, as inspect orders them
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const bool ptx = line.rfind("PTX file", 0) == 0;
    if (!ptx && line.rfind("ELF file", 0) != 0) continue;
    const size_t end = line.rfind('.'), dot = line.rfind('.', end - 1);
    std::string arch = line.substr(dot + 1, end - dot - 1);
    if (ptx) arch.replace(0, 2, "compute");
    by_kind[ptx ? 1 : 0][arch]++;
  }
  std::string s;
  for (const auto& [kind, archs] : by_kind) {
    // sm_75 < sm_80 < sm_100 < sm_100a: by number, then suffix.
    std::vector<std::pair<std::string, int>> sorted(archs.begin(), archs.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      auto key = [](const std::string& n) {
        const size_t u = n.find('_') + 1;
        size_t digits = u;
        while (digits < n.size() && isdigit(static_cast<unsigned char>(n[digits]))) ++digits;
        return std::pair{std::stoi(n.substr(u, digits - u)), n.substr(digits)};
      };
      return key(a.first) < key(b.first);
    });
    for (const auto& [arch, n] : sorted) s += fmt::format("{}{}×{}", s.empty() ? "" : " ", arch, n);
  }
  return s;
}

// tailor inspect --json in the same form.
std::string inspected(const std::string& path) {
  auto r = run_tailor({"inspect", path, "--json"});
  EXPECT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out.empty() ? "{}" : r.out);
  std::string sass, ptx;
  for (const auto& f : j["files"])
    for (const auto& e : f["entries"]) {
      std::string& s = e["kind"] == "ptx" ? ptx : sass;
      s += fmt::format("{}{}×{}", s.empty() ? "" : " ", e["arch"].get<std::string>(), e["count"].get<int>());
    }
  return sass + (sass.empty() || ptx.empty() ? "" : " ") + ptx;
}

// tests/elf/compare_sections.py: the sections, and with \a sm each container against NVIDIA's rule.
test::RunResult compare(const std::string& original, const std::string& pruned, const std::string& sm = "") {
  return run_command(test::pypi_tool("python") + " " + source_path("tests/elf/compare_sections.py") + " " + original +
                         " " + pruned + (sm.empty() ? "" : " --sm " + sm),
                     true);
}

// eu-elflint's complaints, less the file's name: the pruned file may have only the original's.
std::string elflint(const std::string& f) {
  std::string out = run_command("eu-elflint --gnu-ld " + f, true).out;
  for (size_t at; (at = out.find(f)) != std::string::npos;) out.replace(at, f.size(), "FILE");
  return out;
}

// inspect lists what cuobjdump lists, entry kind by entry kind and arch by arch.
TEST(NvidiaLibraries, InspectAgreesWithCuobjdump) {
  SKIP_WITHOUT_TOOLKIT();
  for (const char* name : {"libcudnn_cnn.so.9", "libcurand.so.10", "libcublas.so.13", "libcusparse.so.12"}) {
    const std::string lib = library(name);
    ASSERT_FALSE(lib.empty()) << name << " is not in the toolkit at " << toolkit();
    const std::string listing = listed(lib);
    EXPECT_NE(listing, "") << name;
    // cuobjdump's names leave out the family suffix inspect reads from the entry's flags (sm_100f: 0x200000).
    std::string seen = inspected(lib);
    for (size_t at; (at = seen.find("f×")) != std::string::npos;) seen.erase(at, 1);
    EXPECT_EQ(seen, listing) << name;
  }
  // Read by hand from cuobjdump 13.5 --list-elf/--list-ptx of CUDA 13.0's libcurand: 11 cubins for each of
  // nine SMs, 10 PTX.
  EXPECT_EQ(
      listed(library("libcurand.so.10"))
          .rfind("sm_75×11 sm_80×11 sm_86×11 sm_89×11 sm_90×11 sm_100×11 sm_103×11 sm_120×11 sm_121×11 compute_", 0),
      0u);
}

struct Case {
  const char* library;
  const char* sm;
  const char* kept;  // what cuobjdump lists in the pruned file, worked out by hand from the original's listing
};

class PrunedLibrary : public testing::TestWithParam<Case> {};

// Pruned with compaction: smaller by whole pages, what the GPU loads and nothing
// else, every section but the fatbin's the same, elflint and patchelf content,
// and verify --static passes it as a build for that SM.
TEST_P(PrunedLibrary, CompactsAndOnlyTheFatbinChanges) {
  SKIP_WITHOUT_TOOLKIT();
  const Case& c = GetParam();
  const std::string lib = library(c.library);
  ASSERT_FALSE(lib.empty()) << c.library;
  test::TempDir dir("nvidia-prune");
  const std::string out = dir.path() + "/" + c.library;
  auto r = run_tailor({"prune", lib, "--sm", c.sm, "-o", out, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto report = nlohmann::json::parse(r.out);
  EXPECT_FALSE(report["files"][0].contains("not_compacted")) << report["files"][0]["not_compacted"];
  const uint64_t before = fs::file_size(lib), after = fs::file_size(out);
  EXPECT_LT(after, before);
  EXPECT_EQ((before - after) % 0x1000, 0u) << "whole pages leave the file";
  EXPECT_EQ(report["size"]["after"].get<uint64_t>(), after);

  EXPECT_EQ(listed(out), c.kept);
  EXPECT_EQ(inspected(out), c.kept);
  auto same = compare(lib, out, c.sm);
  EXPECT_EQ(same.status, 0) << same.out;
  EXPECT_NE(same.out.find(" removed; "), std::string::npos) << same.out;
  EXPECT_EQ(elflint(out), elflint(lib));

  // verify --static passes it as a build for that SM, and fails the original (code the GPU never loads).
  std::string sm_digits = c.sm;
  sm_digits.erase(sm_digits.find('.'), 1);
  std::ofstream(dir.path() + "/promise.json") << nlohmann::json{
      {"name", "pytorch-bin-python313-cuda13_0-sm" + sm_digits},
      {"package", "pytorch-bin"},
      {"backend", "cuda"},
      {"python", "3.13"},
      {"cuda", "13.0"},
      {"sm", c.sm},
      {"isa", "x86_64"},
      {"platform", "x86_64-linux"}}.dump();
  auto verified = run_tailor({"verify", out, "--variant-json", dir.path() + "/promise.json", "--static"});
  EXPECT_EQ(verified.status, 0) << verified.out << verified.err;
  auto original = run_tailor({"verify", lib, "--variant-json", dir.path() + "/promise.json", "--static"});
  EXPECT_EQ(original.status, 1) << original.out << original.err;
  EXPECT_NE(original.out.find("FAILED   fatbin-only-sm  also carries "), std::string::npos) << original.out;

  // patchelf reads the same rpath, sets another, and the fatbin is still what it was.
  const std::string rpath = run_command("patchelf --print-rpath " + lib).out;
  EXPECT_EQ(run_command("patchelf --print-rpath " + out).out, rpath);
  // The original gets the same patchelf, whose own layout eu-elflint judges the same in both.
  const std::string untouched = dir.path() + "/original.so";
  fs::copy_file(lib, untouched);
  for (const std::string& f : {out, untouched}) {
    auto set = run_command("patchelf --set-rpath '$ORIGIN/../lib' " + f, true);
    ASSERT_EQ(set.status, 0) << set.out;
    EXPECT_EQ(run_command("patchelf --print-rpath " + f).out, "$ORIGIN/../lib\n");
  }
  EXPECT_EQ(listed(out), c.kept);
  EXPECT_EQ(elflint(out), elflint(untouched));
}

// What cuobjdump lists after the prune. Per container, compare_sections.py
// --sm checks it against the rule from the original's entries; these totals say
// the same in short: curand has an sm_89 cubin in each of its 11 containers;
// cuBLAS has no sm_89, so 8.9 keeps sm_86 where a container has it, else sm_80;
// of the two containers with code for neither, sm_75 alone stays as it is and
// sm_120 + compute_120 keeps its smallest entry, sm_120 (143,832 bytes against
// 316,872); cuSPARSE's 114 sm_120 cubins stay, and the 20 containers without
// major-12 code hold one cubin each (sm_75, sm_80 or sm_86): nothing to cut.
INSTANTIATE_TEST_SUITE_P(Toolkit, PrunedLibrary,
                         testing::Values(Case{"libcurand.so.10", "8.9", "sm_89×11"},
                                         Case{"libcublas.so.13", "8.9", "sm_75×1 sm_80×77 sm_86×114 sm_120×1"},
                                         Case{"libcusparse.so.12", "12.0", "sm_75×4 sm_80×8 sm_86×8 sm_120×114"}),
                         [](const auto& info) {
                           std::string n = std::string(info.param.library) + "_sm" + info.param.sm;
                           for (char& ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

// --no-compact: the same size, the same pruning, the same sections.
TEST(NvidiaLibraries, NoCompactKeepsTheSize) {
  SKIP_WITHOUT_TOOLKIT();
  const std::string lib = library("libcurand.so.10");
  test::TempDir dir("nvidia-nocompact");
  const std::string out = dir.path() + "/libcurand.so.10";
  auto r = run_tailor({"prune", lib, "--sm", "7.5", "--no-compact", "-o", out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::file_size(out), fs::file_size(lib));
  EXPECT_EQ(listed(out), "sm_75×11");
  auto same = compare(lib, out, "7.5");
  EXPECT_EQ(same.status, 0) << same.out;
  EXPECT_EQ(elflint(out), elflint(lib));
  // cuDNN's cnn library frees 0.4 MB, less than its 2 MiB segment alignment: it keeps its size and says why;
  // two containers with sm_75 code only stay whole, the ten others keep their sm_90a cubin.
  const std::string cnn = library("libcudnn_cnn.so.9");
  r = run_tailor({"prune", cnn, "--sm", "9.0", "-o", dir.path() + "/cnn.so", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(nlohmann::json::parse(r.out)["files"][0]["not_compacted"].get<std::string>().find(
                "less than the segment alignment 0x200000"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(fs::file_size(dir.path() + "/cnn.so"), fs::file_size(cnn));
  EXPECT_EQ(listed(dir.path() + "/cnn.so"), "sm_75×2 sm_90a×10");
  same = compare(cnn, dir.path() + "/cnn.so", "9.0");
  EXPECT_EQ(same.status, 0) << same.out;
}

// The section check is no formality: a compacted library broken in one byte,
// in a section after the fatbin or in a kept cubin, fails it and says where; so
// does a library judged by the wrong SM.
TEST(NvidiaLibraries, TheSectionCheckCatchesABrokenCompaction) {
  SKIP_WITHOUT_TOOLKIT();
  const std::string lib = library("libcurand.so.10");
  test::TempDir dir("nvidia-broken");
  const std::string out = dir.path() + "/good.so";
  ASSERT_EQ(run_tailor({"prune", lib, "--sm", "8.9", "-o", out}).status, 0);
  ASSERT_EQ(compare(lib, out, "8.9").status, 0);
  // Section offsets in the pruned file, from readelf (no code of tailor's).
  auto offset = [&](const std::string& section) {
    auto r = run_command("readelf -SW " + out + " | sed 's/\\[ */[/' | awk '$2==\"" + section + "\"{print $5}'");
    return std::stoull(r.out, nullptr, 16);
  };
  auto broken = [&](const std::string& name, uint64_t at) {
    const std::string b = dir.path() + "/" + name + ".so";
    fs::copy_file(out, b);
    std::fstream f(b, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(at));
    char byte = 0;
    f.read(&byte, 1);
    byte = static_cast<char>(byte ^ 0x40);
    f.seekp(static_cast<std::streamoff>(at));
    f.write(&byte, 1);
    f.close();
    return compare(lib, b, "8.9");
  };
  auto eh = broken("eh_frame", offset(".eh_frame") + 100);
  EXPECT_EQ(eh.status, 1);
  EXPECT_NE(eh.out.find("/eh_frame.so: .eh_frame: contents differ (first at byte 0x64 of the section)\n"),
            std::string::npos)
      << eh.out;
  // 0x700 into .nv_fatbin: the payload of the first container's one cubin (the container is 0x7b8 bytes;
  // no wrapper points at it, so the check that every entry is one of the original's catches it).
  auto cubin = broken("cubin", offset(".nv_fatbin") + 0x700);
  EXPECT_EQ(cubin.status, 1);
  EXPECT_NE(cubin.out.find(".nv_fatbin: entry 0 of the container at 0x0 is in no container of the original\n"),
            std::string::npos)
      << cubin.out;
  // Pruned for the wrong GPU: the SM 8.9 library judged as SM 9.0's.
  auto wrong = compare(lib, out, "9.0");
  EXPECT_EQ(wrong.status, 1);
  EXPECT_NE(wrong.out.find("/good.so: .nv_fatbin: the container at 0x7b8 does not hold what SM 9.0 loads of the "
                           "container at 0x4890 in the original\n"),
            std::string::npos)
      << wrong.out;
}

// A library nvcc builds here: a kernel for sm_75, sm_86 and sm_90 with
// compute_90 PTX; pruned for 8.9 it keeps sm_86 (the newest of major 8 not above
// 8.9); for 10.0 (no SASS of major 10) the PTX of k.cu's container, and the
// container without PTX, where nothing runs on 10.0, keeps its smallest entry:
// sm_75 (1,528 bytes with nvcc 13.0.88, first of two equal; sm_90 1,608).
TEST(NvidiaLibraries, AnNvccBuiltLibrary) {
  SKIP_WITHOUT_TOOLKIT();
  test::TempDir dir("nvidia-nvcc");
  std::ofstream(dir.path() + "/k.cu")
      << "__global__ void scale(float* x, float a, int n) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) x[i] *= a;\n"
         "}\n"
         "extern \"C\" void launch(float* x, float a, int n) { scale<<<(n + 255) / 256, 256>>>(x, a, n); }\n";
  auto built = run_command("cd " + dir.path() + " && " + toolkit() +
                               "/bin/nvcc -shared -Xcompiler -fPIC -o k.so k.cu -gencode arch=compute_75,code=sm_75 "
                               "-gencode arch=compute_86,code=sm_86 -gencode arch=compute_90,code=[sm_90,compute_90]",
                           true);
  ASSERT_EQ(built.status, 0) << built.out;
  const std::string lib = dir.path() + "/k.so";
  // Two containers (k.cu's, and the one nvcc links in), each with sm_75, sm_86 and sm_90; PTX in one.
  EXPECT_EQ(listed(lib), "sm_75×2 sm_86×2 sm_90×2 compute_90×1");
  EXPECT_EQ(inspected(lib), listed(lib));
  for (auto [sm, kept] : {std::pair{"8.9", "sm_86×2"}, std::pair{"10.0", "sm_75×1 compute_90×1"}}) {
    const std::string out = dir.path() + "/k-" + sm + ".so";
    auto r = run_tailor({"prune", lib, "--sm", sm, "-o", out});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(listed(out), kept) << sm;
    auto same = compare(lib, out, sm);
    EXPECT_EQ(same.status, 0) << same.out;
    EXPECT_EQ(elflint(out), elflint(lib)) << sm;
  }
}

}  // namespace
}  // namespace tailor
