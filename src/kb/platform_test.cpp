// data/platforms.toml: its facts checked against their sources, the
// invariants every entry keeps, the closed schema's errors, and an overlay's
// platforms.toml read over the embedded one field by field.
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
  const KnowledgeBase& kb = embedded_kb();
  ASSERT_NE(kb.platform("x86_64-linux"), nullptr);
  ASSERT_NE(kb.platform("aarch64-linux"), nullptr);
  ASSERT_NE(kb.platform("aarch64-darwin"), nullptr);
  EXPECT_EQ(kb.platform("x86_64-linux")->elf_machine, 62);
  EXPECT_EQ(kb.platform("aarch64-linux")->elf_machine, 183);
  EXPECT_EQ(kb.platform("aarch64-darwin")->elf_machine, std::nullopt);
  EXPECT_EQ(kb.platform("riscv64-linux"), nullptr);
}

// Properties of every entry, whatever entries are added.
TEST(Platforms, EveryEntryKeepsTheInvariants) {
  const KnowledgeBase& kb = embedded_kb();
  for (const auto& p : kb.platforms.platforms) {
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
  EXPECT_EQ(kb.platforms.systems(), (std::vector<std::string>{"x86_64-linux", "aarch64-linux", "aarch64-darwin"}));
  EXPECT_FALSE(kb.platforms.drift_github_runs_on.empty());
  EXPECT_FALSE(kb.platforms.drift_gitlab_tags.empty());
}

// Every platform the knowledge base names (GPUs, ISAs) is one of platforms.toml.
TEST(Platforms, TheKnowledgeBaseNamesOnlyThese) {
  const KnowledgeBase& kb = embedded_kb();
  for (const auto& g : kb.gpus)
    for (const auto& p : g.platforms) EXPECT_NE(kb.platform(p), nullptr) << "SM " << g.sm << ": " << p;
  for (const auto& i : kb.isas) EXPECT_NE(kb.platform(i.platform), nullptr) << "ISA " << i.name;
  for (const auto& [platform, caps] : kb.aten_capabilities) EXPECT_NE(kb.platform(platform), nullptr) << platform;
}

KnowledgeBase overlaid(const std::string& text) { return KnowledgeBase::load_texts({{"platforms.toml", text}}); }

std::string error_of(const std::string& text) {
  try {
    overlaid(text);
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
  EXPECT_EQ(overlaid(ok + kDrift).platforms.platforms.size(), 3u);  // read over the embedded entry
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
  EXPECT_EQ(error_of("[drift_job]\ngithub_runs_on = []\n"),
            "platforms.toml:2:18: error: 'github_runs_on' names no label\n"
            "github_runs_on = []\n"
            "                 ^\n");
}

// A site's overlay names its own runners: the fields it writes replace the
// embedded ones, the others (the ELF machine, the display name) stay.
TEST(Platforms, AnOverlayGivesASiteItsOwnRunners) {
  KnowledgeBase kb = overlaid(
      "[[platform]]\nsystem = \"x86_64-linux\"\ngithub_runs_on = [\"self-hosted\", \"linux\", \"gpu-farm\"]\n"
      "[drift_job]\ngitlab_tags = [\"linux\", \"small\"]\n");
  const Platform* x86 = kb.platform("x86_64-linux");
  ASSERT_NE(x86, nullptr);
  EXPECT_EQ(x86->github_runs_on, (std::vector<std::string>{"self-hosted", "linux", "gpu-farm"}));
  EXPECT_EQ(x86->gitlab_tags, embedded_kb().platform("x86_64-linux")->gitlab_tags);
  EXPECT_EQ(x86->elf_machine, 62);
  EXPECT_EQ(x86->display, embedded_kb().platform("x86_64-linux")->display);
  EXPECT_EQ(kb.platforms.drift_gitlab_tags, (std::vector<std::string>{"linux", "small"}));
  EXPECT_EQ(kb.platforms.drift_github_runs_on, embedded_kb().platforms.drift_github_runs_on);
  // A new platform is the whole entry, checked against the invariants (an ISA's platform must be Linux).
  EXPECT_EQ(overlaid("[[platform]]\nsystem = \"riscv64-linux\"\nos = \"linux\"\narch = \"riscv64\"\n"
                     "display = \"Linux, RISC-V\"\nelf_machine = 243\ngithub_runs_on = [\"linux\"]\n"
                     "gitlab_tags = [\"linux\"]\n")
                .platforms.systems()
                .back(),
            "riscv64-linux");
}

}  // namespace
}  // namespace tailor
