// data/platforms.toml: its facts checked against their sources, the
// invariants every entry keeps, and the closed schema's errors.
#include "kb/platform.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "kb/invariants.hpp"
#include "kb/knowledge_base.hpp"

namespace tailor {
namespace {

// e_machine from Linux include/uapi/linux/elf-em.h: EM_X86_64 62, EM_AARCH64 183;
// macOS binaries are Mach-O.
TEST(Platforms, ElfMachinesAreTheAbiNumbers) {
  ASSERT_NE(find_platform("x86_64-linux"), nullptr);
  ASSERT_NE(find_platform("aarch64-linux"), nullptr);
  ASSERT_NE(find_platform("aarch64-darwin"), nullptr);
  EXPECT_EQ(find_platform("x86_64-linux")->elf_machine, 62);
  EXPECT_EQ(find_platform("aarch64-linux")->elf_machine, 183);
  EXPECT_EQ(find_platform("aarch64-darwin")->elf_machine, std::nullopt);
  EXPECT_EQ(find_platform("riscv64-linux"), nullptr);
}

// Properties of every entry, whatever entries are added.
TEST(Platforms, EveryEntryKeepsTheInvariants) {
  for (const auto& p : platform_table().platforms) {
    EXPECT_EQ(p.system, p.arch + "-" + std::string(name_of(p.os))) << "a Nix system double is ARCH-OS";
    EXPECT_EQ(p.elf_machine.has_value(), p.os == Os::gnu_linux)
        << p.system << ": Linux binaries are ELF, macOS ones Mach-O";
    EXPECT_FALSE(p.github_runs_on.empty()) << p.system;
    EXPECT_FALSE(p.gitlab_tags.empty()) << p.system;
    // A runner of the platform's OS: GitHub's and GitLab's labels name it.
    std::string os_label = p.os == Os::darwin ? "macos" : "linux";
    EXPECT_TRUE(std::count(p.github_runs_on.begin(), p.github_runs_on.end(), os_label)) << p.system;
    EXPECT_TRUE(std::count(p.gitlab_tags.begin(), p.gitlab_tags.end(), os_label)) << p.system;
    if (p.remote_builder) {
      EXPECT_EQ(p.os, Os::gnu_linux) << p.system << ": nix remote builders are Linux machines here";
    }
  }
  EXPECT_EQ(known_platforms(), platform_systems());
}

// Every platform the knowledge base names (GPUs, ISAs) is one of platforms.toml.
TEST(Platforms, TheKnowledgeBaseNamesOnlyThese) {
  const KnowledgeBase& kb = embedded_kb();
  for (const auto& g : kb.gpus)
    for (const auto& p : g.platforms) EXPECT_NE(find_platform(p), nullptr) << "SM " << g.sm << ": " << p;
  for (const auto& i : kb.isas) EXPECT_NE(find_platform(i.platform), nullptr) << "ISA " << i.name;
  for (const auto& [platform, caps] : kb.aten_capabilities) EXPECT_NE(find_platform(platform), nullptr) << platform;
}

std::string error_of(const std::string& text) {
  try {
    PlatformTable::parse("platforms.toml", text);
  } catch (const DiagnosticError& e) {
    return e.diagnostic().render();
  }
  return "(no error)";
}

constexpr const char* kDrift = "[drift_job]\ngithub_runs_on = [\"linux\"]\ngitlab_tags = [\"linux\"]\n";

TEST(Platforms, TheSchemaIsClosed) {
  const std::string ok =
      "[[platform]]\nsystem = \"x86_64-linux\"\nos = \"linux\"\narch = \"x86_64\"\ndisplay = \"Linux, x86-64\"\n"
      "elf_machine = 62\n"
      "github_runs_on = [\"linux\"]\ngitlab_tags = [\"linux\"]\n";
  EXPECT_EQ(PlatformTable::parse("platforms.toml", ok + kDrift).platforms.size(), 1u);
  EXPECT_EQ(
      error_of(ok + "runner = \"x\"\n" + kDrift),
      "platforms.toml:9:1: error: unknown key 'runner' in [[platform]]\n"
      "runner = \"x\"\n"
      "^\n"
      "hint: allowed keys: arch, display, elf_machine, github_runs_on, gitlab_tags, os, remote_builder, system\n");
  EXPECT_EQ(error_of("[[platform]]\nsystem = \"x86_64-linux\"\nos = \"darwin\"\narch = \"x86_64\"\ndisplay = \"x\"\n"
                     "github_runs_on = [\"linux\"]\ngitlab_tags = [\"linux\"]\n" +
                     std::string(kDrift)),
            "platforms.toml:2:10: error: system 'x86_64-linux' is not its arch and os, 'x86_64-darwin'\n"
            "system = \"x86_64-linux\"\n"
            "         ^\n");
  std::string twice = error_of(ok + ok + kDrift);
  EXPECT_EQ(twice.substr(0, twice.find('\n')),
            "platforms.toml:9:1: error: duplicate [[platform]] entry 'x86_64-linux'");
  EXPECT_EQ(error_of("[[platform]]\nsystem = \"x86_64-linux\"\nos = \"linux\"\narch = \"x86_64\"\ndisplay = \"x\"\n"
                     "github_runs_on = [\"linux\", \"big parallel\"]\ngitlab_tags = [\"linux\"]\n" +
                     std::string(kDrift)),
            "platforms.toml:6:28: error: runner label 'big parallel' is not a plain word\n"
            "github_runs_on = [\"linux\", \"big parallel\"]\n"
            "                           ^\n"
            "hint: labels hold letters, digits, '_', '.' and '-'\n");
  // The OS is a closed set: tailor's code knows how to detect and plan for these alone.
  EXPECT_EQ(error_of("[[platform]]\nsystem = \"x86_64-windows\"\nos = \"windows\"\narch = \"x86_64\"\n"
                     "display = \"x\"\ngithub_runs_on = [\"w\"]\ngitlab_tags = [\"w\"]\n" +
                     std::string(kDrift)),
            "platforms.toml:3:6: error: unknown os 'windows'\n"
            "os = \"windows\"\n"
            "     ^\n"
            "hint: known: linux, darwin\n");
  EXPECT_NE(error_of(ok).find("error: platforms.toml needs 'drift_job'\n"), std::string::npos) << error_of(ok);
}

}  // namespace
}  // namespace tailor
