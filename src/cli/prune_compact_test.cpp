// Compaction checked from outside, as CI can without a GPU: the nvcc-built
// compact.so pruned for one SM is smaller by whole pages, eu-elflint finds
// nothing, readelf reads its segments, it still loads and every fatbin it
// registers reads right (fatbin-registry-stub.c walks wrapper -> container ->
// entries); and so after patchelf, strip, a NAR round trip, a second prune and
// a wheel. A broken relocation makes that check fail.
#include <sys/stat.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden.hpp"
#include "support/inspected.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;
using test::have_program;
using test::run_command;
using test::run_tailor;
using test::source_path;

const std::string kCompact = source_path("tests/data/elf/compact.so");
const std::string kReduced = source_path("tests/data/elf/multi.so");  // objcopy'd: no dynamic relocations

class Compaction : public ::testing::Test {
 protected:
  void SetUp() override {
    TAILOR_SKIP_IF_TOOL_MISSING(!have_program("cc"), "cc not found");
    TAILOR_SKIP_IF_TOOL_MISSING(!have_program("python3"), "python3 not found");
    auto r =
        run_command("cc -shared -fPIC -o " + stub() + " " + source_path("tests/data/elf/fatbin-registry-stub.c"), true);
    ASSERT_EQ(r.status, 0) << r.out;
  }
  std::string stub() const { return dir_.path() + "/stub.so"; }
  std::string path(const std::string& name) const { return dir_.path() + "/" + name; }
  // "registered N sound M", and whether the check passed.
  test::RunResult registry(const std::string& lib) const {
    return run_command("python3 " + source_path("tests/data/elf/fatbin-registry-check.py") + " " + stub() + " " + lib,
                       true);
  }
  std::string pruned(const std::string& in, const std::string& name, const std::string& sm = "9.0") const {
    auto r = run_tailor({"prune", in, "--sm", sm, "-o", path(name), "--json"});
    EXPECT_EQ(r.status, 0) << r.err;
    last_ = nlohmann::json::parse(r.out.empty() ? "{}" : r.out);
    return path(name);
  }
  // A wheel of distribution \a dist 0.1 holding \a lib as \a member, with its RECORD.
  std::string one_library_wheel(const std::string& lib, const std::string& dist, const std::string& member) const {
    const std::string whl = path(dist + "-0.1-py3-none-linux_x86_64.whl"), script = path("make.py");
    std::ofstream(script)
        << "import base64,hashlib,sys,zipfile\n"
           "lib=open(sys.argv[1],'rb').read()\n"
           "d=sys.argv[3]\n"
           "m=[(sys.argv[4],lib),(f'{d}-0.1.dist-info/METADATA',f'Metadata-Version: 2.1\\nName: {d}\\nVersion: "
           "0.1\\n'.encode())]\n"
           "h=lambda b: base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b'=').decode()\n"
           "rec=''.join(f'{p},sha256={h(b)},{len(b)}\\n' for p,b in m)+f'{d}-0.1.dist-info/RECORD,,\\n'\n"
           "z=zipfile.ZipFile(sys.argv[2],'w',zipfile.ZIP_DEFLATED)\n"
           "[z.writestr(p,b) for p,b in m+[(f'{d}-0.1.dist-info/RECORD',rec.encode())]]\n";
    EXPECT_EQ(run_command("python3 " + script + " " + lib + " " + whl + " " + dist + " " + member, true).status, 0);
    return whl;
  }
  // The size of \a member of \a whl, after checking that RECORD names every member's hash and size.
  size_t recorded_member_size(const std::string& whl, const std::string& member) const {
    auto check = run_command("python3 " + source_path("tests/data/elf/verify-record.py") + " " + whl, true);
    EXPECT_EQ(check.status, 0) << check.out;
    auto size = run_command(
        "python3 -c \"import zipfile,sys; print(zipfile.ZipFile(sys.argv[1]).getinfo(sys.argv[2])"
        ".file_size)\" " +
        whl + " " + member);
    return size.status == 0 ? std::stoull(size.out) : 0;
  }
  test::TempDir dir_{"prune-compact"};
  mutable nlohmann::json last_;
};

std::string elflint(const std::string& f) { return run_command("eu-elflint --gnu-ld " + f, true).out; }

using test::inspected;

TEST_F(Compaction, TheFileShrinksByWholePagesAndStillLoads) {
  ASSERT_EQ(registry(kCompact).out, "registered 3 sound 3\n");  // the original, for reference
  std::string out = pruned(kCompact, "lib.so");
  const uint64_t before = fs::file_size(kCompact), after = fs::file_size(out);
  // 5 SASS per container, 1 kept: about 4/5 of the 127 KiB of fatbins goes.
  EXPECT_LT(after, before - 0x10000) << before << " -> " << after;
  EXPECT_EQ((before - after) % 0x1000, 0u);  // whole segment alignments
  EXPECT_EQ(last_["files"][0]["size_after"].get<uint64_t>(), after);
  EXPECT_EQ(last_["size"]["after"].get<uint64_t>(), after);
  EXPECT_FALSE(last_["files"][0].contains("not_compacted"));
  EXPECT_EQ(inspected(out), "sm_90×3");
  auto reg = registry(out);
  EXPECT_EQ(reg.status, 0) << reg.out;
  EXPECT_EQ(reg.out, "registered 3 sound 3\n");
}

// --no-compact keeps every file's size and prunes all the same: a file, a copy
// of a folder, in place and in a wheel (it once wrote every such file empty).
TEST_F(Compaction, NoCompactKeepsTheSizeAndPrunes) {
  const uint64_t size = fs::file_size(kCompact);
  auto r = run_tailor({"prune", kCompact, "--sm", "9.0", "--no-compact", "-o", path("file.so")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::file_size(path("file.so")), size);
  EXPECT_EQ(inspected(path("file.so")), "sm_90×3");
  EXPECT_EQ(registry(path("file.so")).out, "registered 3 sound 3\n");
  fs::create_directories(path("dir"));
  fs::copy_file(kCompact, path("dir/lib.so"));
  r = run_tailor({"prune", path("dir"), "--sm", "9.0", "--no-compact", "-o", path("copy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::file_size(path("copy/lib.so")), size);
  EXPECT_EQ(inspected(path("copy/lib.so")), "sm_90×3");
  r = run_tailor({"prune", path("dir"), "--sm", "9.0", "--no-compact", "--in-place"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::file_size(path("dir/lib.so")), size);
  EXPECT_EQ(inspected(path("dir/lib.so")), "sm_90×3");
  const std::string wheel = source_path("tests/data/elf/prunefix-0.1-py3-none-linux_x86_64.whl");
  r = run_tailor({"prune", wheel, "--sm", "9.0", "--no-compact", "-o", path("prunefix-0.1-py3-none-linux_x86_64.whl")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(inspected(path("prunefix-0.1-py3-none-linux_x86_64.whl")), "sm_90×3");
}

TEST_F(Compaction, ElflintAndReadelfFindNothingWrong) {
  TAILOR_SKIP_IF_TOOL_MISSING(!have_program("eu-elflint"), "eu-elflint (elfutils) not found");
  ASSERT_EQ(elflint(kCompact), "No errors\n");
  std::string out = pruned(kCompact, "lib.so");
  EXPECT_EQ(elflint(out), "No errors\n");
  auto segs = run_command("readelf -lW " + out);
  EXPECT_EQ(segs.err, "");
  // .nv_fatbin ends its segment; the tail (.eh_frame...) joined the writable one under RELRO.
  EXPECT_NE(segs.out.find("   02     .rodata __nv_module_id .nv_fatbin \n"), std::string::npos) << segs.out;
  EXPECT_NE(segs.out.find("   03     .eh_frame_hdr .eh_frame .gcc_except_table .init_array"), std::string::npos)
      << segs.out;
  EXPECT_NE(segs.out.find("   08     .eh_frame_hdr .eh_frame .gcc_except_table .init_array"), std::string::npos)
      << segs.out;  // GNU_RELRO
}

// The check is no formality: one relocation's addend off by 8 bytes fails it.
TEST_F(Compaction, ABrokenRelocationFailsTheRegistryCheck) {
  std::string out = pruned(kCompact, "lib.so");
  std::string broken = path("broken.so");
  fs::copy_file(out, broken);
  // The second R_X86_64_RELATIVE whose addend points into .nv_fatbin (readelf's columns).
  auto relocs = run_command("readelf -rW " + broken + " | awk '$3==\"R_X86_64_RELATIVE\"'");
  const std::string sections = "readelf -SW " + broken + " | sed 's/\\[ */[/' | awk ";
  auto fatbin = run_command(sections + "'$2==\".nv_fatbin\"{print $4}'");
  auto fatbin_size = run_command(sections + "'$2==\".nv_fatbin\"{print $6}'");
  ASSERT_FALSE(fatbin.out.empty());
  const uint64_t start = std::stoull(fatbin.out, nullptr, 16), size = std::stoull(fatbin_size.out, nullptr, 16);
  auto rela = run_command(sections + "'$2==\".rela.dyn\"{print $5}'");
  const uint64_t rela_off = std::stoull(rela.out, nullptr, 16);
  // Entries are 24 bytes: find one whose addend (at +16) is a container of .nv_fatbin past the first.
  std::fstream f(broken, std::ios::in | std::ios::out | std::ios::binary);
  bool done = false;
  for (uint64_t at = rela_off; !done && at < rela_off + 24 * 64; at += 24) {
    uint64_t addend = 0;
    f.seekg(static_cast<std::streamoff>(at + 16));
    f.read(reinterpret_cast<char*>(&addend), 8);
    if (addend > start && addend < start + size) {  // not the first container: one that moved
      addend += 8;
      f.seekp(static_cast<std::streamoff>(at + 16));
      f.write(reinterpret_cast<const char*>(&addend), 8);
      done = true;
    }
  }
  f.close();
  ASSERT_TRUE(done) << relocs.out;
  auto reg = registry(broken);
  EXPECT_NE(reg.status, 0) << reg.out;
  EXPECT_EQ(reg.out, "registered 3 sound 2\n");
}

TEST_F(Compaction, SurvivesPatchelfStripANarAndASecondPrune) {
  std::string out = pruned(kCompact, "lib.so", "8.6,9.0");
  const uint64_t size = fs::file_size(out);
  TAILOR_SKIP_IF_TOOL_MISSING(!have_program("patchelf"), "patchelf not found");
  // torch-bin's order: patchelf before the prune (here after a first one), prune, patchelf again.
  ASSERT_EQ(run_command("patchelf --set-rpath '$ORIGIN/a' " + out, true).status, 0);
  std::string again = pruned(out, "again.so");  // a second prune: 8.6 goes now
  EXPECT_LT(fs::file_size(again), size + 0x2000);
  EXPECT_EQ(inspected(again), "sm_90×3");
  auto add = run_command("patchelf --add-rpath '/nix/store/some-long-path-for-the-driver/lib' " + again, true);
  ASSERT_EQ(add.status, 0) << add.out;
  EXPECT_EQ(run_command("patchelf --print-rpath " + again).out,
            "$ORIGIN/a:/nix/store/some-long-path-for-the-driver/lib\n");
  EXPECT_EQ(registry(again).out, "registered 3 sound 3\n");
  // patchelf's own findings (its moved .dynamic) are the same on the original: nothing new.
  if (have_program("eu-elflint")) {
    std::string original = path("original.so");
    fs::copy_file(kCompact, original);
    ASSERT_EQ(run_command("patchelf --set-rpath '$ORIGIN/a' " + original +
                              " && patchelf --add-rpath '/nix/store/some-long-path-for-the-driver/lib' " + original,
                          true)
                  .status,
              0);
    EXPECT_EQ(elflint(again), elflint(original));
  }
  // strip as a recipe's fixup does.
  std::string stripped = path("stripped.so");
  ASSERT_EQ(run_command("strip -o " + stripped + " " + out, true).status, 0);
  EXPECT_EQ(registry(stripped).out, "registered 3 sound 3\n");
  EXPECT_EQ(inspected(stripped), "sm_86×3 sm_90×3");
  if (have_program("eu-elflint")) {
    EXPECT_EQ(elflint(stripped), "No errors\n");
  }
  // A NAR keeps no holes: what comes back is the same file, size and bytes.
  if (have_program("nix-store")) {
    std::string nar = path("lib.nar"), back = path("back.so");
    ASSERT_EQ(
        run_command("nix-store --dump " + out + " > " + nar + " && nix-store --restore " + back + " < " + nar, true)
            .status,
        0);
    EXPECT_EQ(run_command("cmp " + out + " " + back).status, 0);
  }
}

// A layout compaction cannot rewrite safely keeps the file's size, and says why:
// here the wrappers' pointers have no relocation to move with them.
TEST_F(Compaction, FallsBackToHolesAndSaysWhy) {
  std::string out = pruned(kReduced, "reduced.so");
  EXPECT_EQ(fs::file_size(out), fs::file_size(kReduced));
  ASSERT_TRUE(last_["files"][0].contains("not_compacted")) << last_.dump();
  EXPECT_EQ(last_["files"][0]["not_compacted"].get<std::string>(),
            "wrapper 0 of .nvFatBinSegment has no RELA relocation");
  auto text = run_tailor({"prune", kReduced, "--sm", "9.0", "--dry-run"});
  EXPECT_NE(text.out.find("kept its size (freed bytes would be zeros): "), std::string::npos) << text.out;
}

TEST_F(Compaction, DryRunReportsTheBytesCompactionFrees) {
  auto r = run_tailor({"prune", kCompact, "--sm", "9.0", "--dry-run", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  std::string out = pruned(kCompact, "lib.so");
  EXPECT_EQ(j["size"]["after"].get<uint64_t>(), fs::file_size(out));
  auto text = run_tailor({"prune", kCompact, "--sm", "9.0", "--dry-run"});
  EXPECT_NE(text.out.find("apparent size of the libraries (would be): "), std::string::npos) << text.out;
  // Compressed: an estimate (the removed entries deflated), near what deflating
  // the file before and after really gives (zlib level 6, as a wheel's members).
  EXPECT_NE(text.out.find("deflated (a wheel, a compressed NAR or image layer): about "), std::string::npos)
      << text.out;
  auto deflated = [](const std::string& f) {
    std::ifstream in(f, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    uLongf n = compressBound(static_cast<uLong>(bytes.size()));
    std::vector<Bytef> buf(n);
    EXPECT_EQ(compress2(buf.data(), &n, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size(), 6), Z_OK);
    return static_cast<double>(n);
  };
  const double real = deflated(kCompact) - deflated(out), estimate = j["removed_deflated_estimate"].get<double>();
  EXPECT_EQ(j["files"][0]["removed_deflated_estimate"].get<double>(), estimate);
  EXPECT_GT(real, 0);
  EXPECT_NEAR(estimate, real, 0.25 * real) << "estimated " << estimate << ", deflating the files gave " << real;
}

// In a wheel the member is rewritten smaller, RECORD names its new hash and size.
TEST_F(Compaction, WheelMembersShrinkAndTheRecordIsExact) {
  std::string whl = one_library_wheel(kCompact, "cfix", "cfix/libcompact.so");
  std::string out = pruned(whl, "out.whl");
  EXPECT_EQ(recorded_member_size(out, "cfix/libcompact.so"), fs::file_size(pruned(kCompact, "lib.so")));
}

// --reuse-note-header (issue 59): rdc.so, laid out as libnccl.so.2 (__nv_relfatbin, the
// .nvHR* sections, .nv_fatbin, the tail, in one read-only PT_LOAD), loses both sections'
// freed bytes: 57,656 -> 41,272 (src/prune/elf_compact_test.cpp has the arithmetic), where
// without the option only __nv_relfatbin's leave: 49,464. The output passes what nixpkgs'
// fixup and a loader do to it: eu-elflint, strip, objcopy, patchelf, dlopen with every
// fatbin registered and sound; inspect sees what the prune without the option keeps.
const std::string kRdc = source_path("tests/data/elf/rdc.so");

TEST_F(Compaction, ReusingTheNoteHeaderCutsBothFatbinSectionsAndTheFileStillWorks) {
  ASSERT_EQ(registry(kRdc).out, "registered 1 sound 1\n");  // the original: the device link registers
  const std::string plain = pruned(kRdc, "plain.so");
  EXPECT_EQ(fs::file_size(plain), 49464u);
  EXPECT_FALSE(last_["files"][0].contains("note_header_reused")) << last_.dump();
  auto r = run_tailor({"prune", kRdc, "--sm", "9.0", "--reuse-note-header", "-o", path("lib.so"), "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string out = path("lib.so");
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(fs::file_size(out), 41272u);
  EXPECT_EQ(j["files"][0]["size_after"].get<uint64_t>(), 41272u);
  EXPECT_EQ(j["files"][0]["note_header_reused"], true);
  EXPECT_FALSE(j["files"][0].contains("not_compacted"));
  EXPECT_EQ(inspected(out), "sm_90×3");
  EXPECT_EQ(inspected(out), inspected(plain));
  EXPECT_EQ(registry(out).out, "registered 1 sound 1\n");
  auto text = run_tailor({"prune", kRdc, "--sm", "9.0", "--reuse-note-header", "--dry-run"});
  EXPECT_NE(text.out.find("rdc.so: both fatbin sections cut out; its PT_NOTE program header is a PT_LOAD now"),
            std::string::npos)
      << text.out;
  auto segs = run_command("readelf -lW " + out);
  EXPECT_EQ(segs.err, "");
  EXPECT_EQ(segs.out.find("NOTE"), std::string::npos) << segs.out;
  EXPECT_NE(segs.out.find("   02     .rodata __nv_module_id __nv_relfatbin \n"), std::string::npos) << segs.out;
  EXPECT_NE(segs.out.find("   03     .nvHRKI .nvHRKE .nvHRDI .nvHRDE .nvHRCI .nvHRCE .nv_fatbin \n"), std::string::npos)
      << segs.out;
  if (have_program("eu-elflint")) {
    EXPECT_EQ(elflint(out), "No errors\n");
  }
  // strip and objcopy (binutils) rewrite the file; both keep it loadable and sound.
  const std::string stripped = path("stripped.so"), copied = path("copied.so");
  auto st = run_command("strip -o " + stripped + " " + out, true);
  ASSERT_EQ(st.status, 0) << st.out;
  EXPECT_EQ(registry(stripped).out, "registered 1 sound 1\n");
  EXPECT_EQ(inspected(stripped), "sm_90×3");
  if (have_program("eu-elflint")) {
    EXPECT_EQ(elflint(stripped), "No errors\n");
  }
  auto oc = run_command("objcopy " + out + " " + copied, true);
  ASSERT_EQ(oc.status, 0) << oc.out;
  EXPECT_EQ(registry(copied).out, "registered 1 sound 1\n");
  TAILOR_SKIP_IF_TOOL_MISSING(!have_program("patchelf"), "patchelf not found");
  const std::string patched = path("patched.so"), original = path("original.so");
  fs::copy_file(out, patched);
  fs::copy_file(kRdc, original);
  ASSERT_EQ(run_command("patchelf --set-rpath '$ORIGIN/a' " + patched, true).status, 0);
  ASSERT_EQ(run_command("patchelf --set-rpath '$ORIGIN/a' " + original, true).status, 0);
  EXPECT_EQ(run_command("patchelf --print-rpath " + patched).out, "$ORIGIN/a\n");
  EXPECT_EQ(registry(patched).out, "registered 1 sound 1\n");
  if (have_program("eu-elflint")) {
    EXPECT_EQ(elflint(patched), elflint(original));  // patchelf's own findings (its moved .dynamic), nothing new
  }
}

// The option reaches every form: a folder's copy (and its record), a wheel (its member and
// record), and each output of --each, which is that target's single prune byte for byte.
TEST_F(Compaction, ReusingTheNoteHeaderReachesFoldersWheelsAndEachOutput) {
  fs::create_directories(path("dir"));
  fs::copy_file(kRdc, path("dir/librdc.so"));
  auto r = run_tailor({"prune", path("dir"), "--sm", "9.0", "--reuse-note-header", "-o", path("copy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::file_size(path("copy/librdc.so")), 41272u);
  std::ifstream rec(path("copy/tailor-prune.json"));
  auto record = nlohmann::json::parse(rec);
  ASSERT_EQ(record["files"].size(), 1u);
  EXPECT_EQ(record["files"][0]["note_header_reused"], true);

  const std::string whl = one_library_wheel(kRdc, "rfix", "rfix/librdc.so");
  fs::create_directories(path("w"));
  r = run_tailor(
      {"prune", whl, "--sm", "9.0", "--reuse-note-header", "-o", path("w/rfix-0.1-py3-none-linux_x86_64.whl")});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string out = path("w/rfix-0.1-py3-none-linux_x86_64.whl");
  EXPECT_EQ(recorded_member_size(out, "rfix/librdc.so"), 41272u);
  auto wheel_record = run_command(
      "python3 -c \"import zipfile,sys; "
      "print(zipfile.ZipFile(sys.argv[1]).read('rfix-0.1.dist-info/tailor-prune.json').decode())\" " +
      out);
  ASSERT_EQ(wheel_record.status, 0) << wheel_record.err;
  EXPECT_EQ(nlohmann::json::parse(wheel_record.out)["files"][0]["note_header_reused"], true);

  r = run_tailor({"prune", kRdc, "--each", "9.0,12.0", "--reuse-note-header", "-o", path("each"), "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto fan = nlohmann::json::parse(r.out);
  EXPECT_EQ(fan["outputs"][0]["files"][0]["note_header_reused"], true);
  for (const auto& [label, sm] : std::vector<std::pair<std::string, std::string>>{{"sm90", "9.0"}, {"sm120", "12.0"}}) {
    SCOPED_TRACE(label);
    auto one = run_tailor({"prune", kRdc, "--sm", sm, "--reuse-note-header", "-o", path(label + ".so")});
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_EQ(run_command("cmp " + path("each/" + label + "/rdc.so") + " " + path(label + ".so")).status, 0);
  }
  EXPECT_EQ(fs::file_size(path("each/sm90/rdc.so")), 41272u);
}

// --no-compact turns compaction off, so the option has nothing to shape: a usage error.
TEST_F(Compaction, ReusingTheNoteHeaderWithoutCompactionIsAUsageError) {
  auto r = run_tailor({"prune", kRdc, "--sm", "9.0", "--no-compact", "--reuse-note-header", "-o", path("x.so")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--reuse-note-header shapes compaction, which --no-compact turns off"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(path("x.so")));
}

}  // namespace
}  // namespace tailor
