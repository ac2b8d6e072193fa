// tailor kb probe-pin: measured against a stub nixpkgs made into a git checkout
// at test time, with the tarball hash computed independently (nix-hash over a
// plain copy of the files) and accepted by a fixed-output fetch.
#include "kb/pin_probe.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/disputed_kb.hpp"
#include "support/fake_processes.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace tailor {
namespace {

namespace fs = std::filesystem;

// The probe stub's two files, copied into \a dir.
void copy_stub(const std::string& dir) {
  fs::copy_file(test::source_path("tests/data/probe-pin/default.nix"), fs::path(dir) / "default.nix");
  fs::copy_file(test::source_path("tests/nix/stub-nixpkgs/default.nix"), fs::path(dir) / "stub.nix");
}

std::string sh(const std::string& command) {
  test::RunResult r = test::run_command(command);
  EXPECT_EQ(r.status, 0) << command;
  return r.out.substr(0, r.out.find('\n'));
}

// A git checkout of the probe stub; its HEAD.
std::string make_checkout(const std::string& dir) {
  copy_stub(dir);
  sh("cd '" + dir + "' && git init -q && git add . && git -c user.name=t -c user.email=t@example.org commit -qm stub");
  return sh("git -C '" + dir + "' rev-parse HEAD");
}

bool have_tools() {
  for (const char* p : {"nix-instantiate", "nix-hash", "git", "tar"})
    if (!test::have_program(p)) return false;
  return true;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (size_t k = text.find(from); k != std::string::npos; k = text.find(from, k + to.size()))
    text.replace(k, from.size(), to);
  return text;
}

TEST(PinProbe, MeasuresTheStubAndRecordsAHashFetchTarballAccepts) {
  TAILOR_SKIP_IF_TOOL_MISSING(!have_tools(), "needs nix-instantiate, nix-hash, git and tar");
  test::TempDir repo("probe-repo"), plain("probe-plain"), overlay("probe-kb");
  std::string rev = make_checkout(repo.path());
  // The hash as fetchTarball computes it, over the files alone.
  copy_stub(plain.path());
  std::string sha256 = sh("nix-hash --type sha256 --base32 '" + plain.path() + "'");
  ASSERT_EQ(sha256.size(), 52u);

  std::string out = overlay.path() + "/nixpkgs_pins.toml";
  test::RunResult r = test::run_tailor({"kb", "probe-pin", rev.substr(0, 10), "--nixpkgs", repo.path(), "-o", out});
  ASSERT_EQ(r.status, 0) << r.err;
  // Expected from the stub by hand: python310 and cudaPackages_9_2 are unknown to
  // the knowledge base, cudaPackages_11_0 throws, python3 is 3.13, cudaPackages is
  // cudaPackages_12_8 (cuDNN 9.8.0), python312Packages.torch is 2.8.0; its torch-bin
  // (tests/nix/stub-nixpkgs) is 2.9.1 from the cu128 wheel URL nixpkgs writes.
  EXPECT_EQ(r.err,
            "tailor: note: python310Packages (Python 3.10) is not in python_versions.toml: not recorded\n"
            "tailor: note: cudaPackages_9_2 is not in cuda_toolkits.toml: not recorded\n"
            "tailor: note: python312Packages.torch is 2.8.0, not 2.9.1 as in python313Packages\n"
            "tailor: note: python313Packages.torch-bin is 2.9.1 on x86_64-linux, from "
            "https://download.pytorch.org/whl/cu128/torch-2.9.1%2Bcu128-cp313-cp313-manylinux_2_28_x86_64.whl\n"
            "tailor: wrote " +
                out + " (pin " + rev.substr(0, 7) + ", sha256 " + sha256 + ")\n");
  std::string expected =
      replaced(replaced(test::read_file(test::source_path("tests/golden/probe-pin/stub.toml")), "@REV@", rev),
               "@SHA256@", sha256);
  expected = replaced(expected, "@SHORT@", rev.substr(0, 7));
  EXPECT_EQ(test::read_file(out), expected);

  // The overlay merges with the embedded knowledge base and passes its invariants.
  KnowledgeBase merged = KnowledgeBase::load(overlay.path());
  const NixpkgsPin* pin = merged.pin(rev.substr(0, 7));
  ASSERT_NE(pin, nullptr);
  EXPECT_TRUE(pin->is_complete("cuda"));
  EXPECT_EQ(pin->version_text("vllm"), "0.14.0");
  EXPECT_EQ(merged.pins.size(), embedded_kb().pins.size() + 1);

  // A fixed-output fetch of the revision's tarball accepts the recorded hash,
  // and what it fetched is the nixpkgs that was measured.
  std::string tarball = plain.path() + "/../" + fs::path(plain.path()).filename().string() + ".tar.gz";
  sh("git -C '" + repo.path() + "' archive --format=tar.gz --prefix=nixpkgs-" + rev + "/ -o '" + tarball + "' " + rev);
  std::string fetch = "builtins.fetchTarball { url = \"file://" + fs::canonical(tarball).string() + "\"; sha256 = \"" +
                      sha256 + "\"; }";
  test::RunResult eval =
      test::run_command("nix-instantiate --eval -E '(import (" + fetch + ") { }).python3.pythonVersion' 2>&1");
  fs::remove(tarball);
  EXPECT_NE(eval.out.find("\"3.13\""), std::string::npos) << eval.out;
}

TEST(PinProbe, ACheckoutAtAnotherRevisionIsRefused) {
  TAILOR_SKIP_IF_TOOL_MISSING(!have_tools(), "needs nix-instantiate, nix-hash, git and tar");
  test::TempDir repo("probe-repo");
  std::string first = make_checkout(repo.path());
  sh("cd '" + repo.path() +
     "' && echo '# later' >> default.nix && git -c user.name=t -c user.email=t@example.org "
     "commit -qam later");
  std::string head = sh("git -C '" + repo.path() + "' rev-parse HEAD");
  test::RunResult r = test::run_tailor({"kb", "probe-pin", first, "--nixpkgs", repo.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, repo.path() + ": error: the checkout is at " + head.substr(0, 12) + ", not at " + first +
                       "\nhint: check it out first: git -C " + repo.path() + " checkout " + first + "\n");
  r = test::run_tailor({"kb", "probe-pin", "0123456789abcdef", "--nixpkgs", repo.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, repo.path() +
                       ": error: 0123456789abcdef is not a commit of this checkout\n"
                       "hint: git -C PATH fetch origin 0123456789abcdef\n");
}

TEST(PinProbe, ADirectoryThatIsNoNixpkgsCheckoutIsRefused) {
  test::TempDir dir("probe-empty");
  test::RunResult r = test::run_tailor({"kb", "probe-pin", "abc1234", "--nixpkgs", dir.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, dir.path() +
                       ": error: not a nixpkgs checkout: it needs a default.nix and a .git directory\n"
                       "hint: clone it: git clone https://github.com/NixOS/nixpkgs PATH\n");
}

// With git answering as a checkout at REV would, a missing nix-instantiate is named.
TEST(PinProbe, AMissingNixInstantiateIsNamed) {
  test::TempDir dir("probe-fake");
  fs::create_directory(fs::path(dir.path()) / ".git");
  std::ofstream(fs::path(dir.path()) / "default.nix") << "{ }: { }\n";
  const std::string rev(40, 'a');
  test::FakeProcesses procs([&](const ProcessSpec& spec) {
    ProcessResult r;
    if (spec.argv[0] != "git") return r;  // not on PATH
    r.started = true;
    r.status = 0;
    r.out = spec.argv[3] == "status" ? "" : rev + "\n";
    return r;
  });
  try {
    probe_pin(procs, dir.path(), "aaaaaaa", embedded_kb());
    FAIL() << "no error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message, "nix-instantiate is not on PATH: probe-pin evaluates the checkout with it");
    EXPECT_EQ(e.diagnostic().hint, "install Nix and git");
  }
  ASSERT_EQ(procs.ran().size(), 4u);
  EXPECT_EQ(procs.ran()[3].argv[0], "nix-instantiate");
}

// Uncommitted changes would be measured, not REV: refused.
TEST(PinProbe, UncommittedChangesAreRefused) {
  test::TempDir dir("probe-fake");
  fs::create_directory(fs::path(dir.path()) / ".git");
  std::ofstream(fs::path(dir.path()) / "default.nix") << "{ }: { }\n";
  const std::string rev(40, 'b');
  test::FakeProcesses procs([&](const ProcessSpec& spec) {
    ProcessResult r{true, 0, spec.argv[3] == "status" ? " M pkgs/top-level/all-packages.nix\n" : rev + "\n", ""};
    return r;
  });
  try {
    probe_pin(procs, dir.path(), "bbbbbbb", embedded_kb());
    FAIL() << "no error";
  } catch (const DiagnosticError& e) {
    EXPECT_EQ(e.diagnostic().message, "the checkout has changes not committed at bbbbbbbbbbbb: they would be measured");
  }
}

// Measuring a pin settles its disputed facts: the overlay records them as measured
// and keeps the knowledge base's evidence of what it did not measure (a dispute too;
// the test overlay disputes 0182a36's torch).
TEST(PinProbe, AMeasurementSettlesADisputedVersion) {
  PinProbe p;
  p.pin = *test::disputed_kb().pin("0182a36");
  ASSERT_NE(p.pin.version_dispute("torch"), nullptr);
  p.known = true;
  p.pin.sha256 = "0p7d6pyr4l4cvdmwvql2rk0dj0c1prdnpcmh3k5fqmnqfsq1c3xs";
  p.measured = {"cuda", "python", "sha256", "versions.torch", "versions.vllm"};
  KnowledgeBase merged = KnowledgeBase::load_texts({{"nixpkgs_pins.toml", probe_overlay(p)}});
  const NixpkgsPin* m = merged.pin("0182a36");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->version_dispute("torch"), nullptr);
  ASSERT_NE(m->evidence_of("versions.torch"), nullptr);
  EXPECT_EQ(m->evidence_of("versions.torch")->kind, EvidenceKind::measured);
  EXPECT_EQ(
      m->evidence_of("versions.torch")->source,
      "tailor kb probe-pin: nix-instantiate --eval on a nixpkgs checkout at 0182a36; sha256: nix-hash of git archive "
      "0182a36");
  ASSERT_NE(m->evidence_of("cutlass"), nullptr);  // not measured: still documented
  EXPECT_EQ(m->evidence_of("cutlass")->kind, EvidenceKind::documented);
  EXPECT_EQ(m->evidence_of("torch_args")->source,
            "nixpkgs pkgs/development/python-modules/torch/source/default.nix at 6b516b42 (torch 2.9.1), which takes "
            "them: the pin ships torch 2.9.1; the file at this pin was not read");

  p.measured = {"cuda", "python", "sha256"};  // torch not measured: the dispute stays
  merged = KnowledgeBase::load_texts({{"nixpkgs_pins.toml", probe_overlay(p)}});
  const FactEvidence* d = merged.pin("0182a36")->version_dispute("torch");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->claims.size(), 2u);
}

}  // namespace
}  // namespace tailor
