#pragma once
/// One CPU instruction-set target of the knowledge base (avx2, armv9, ...).

#include <string>
#include <vector>

#include "util/toml_reader.hpp"

namespace tailor {

struct CpuIsa {
  std::string name;                ///< "avx512bf16"
  std::string word;                ///< its word in variant names: the name, or "" for a baseline named without one
  std::string display;             ///< "AVX-512 BF16"
  std::string platform;            ///< "x86_64-linux" or "aarch64-linux"
  std::vector<std::string> flags;  ///< compiler flags
  std::vector<std::string> requires_features;  ///< CPU features (cpuinfo names) needed to run
  std::string x86_64_level;                    ///< "v3"; empty on aarch64
  int rank = 0;                                ///< higher: more capable code on the same platform
  /// The lowest ATen CPU capability PyTorch dispatches to on a CPU that meets
  /// requires_features ("AVX2"); empty: not stated (the platform's lowest).
  std::string aten_capability;
  std::string workload;  ///< "general", "bf16-training", "int8-inference" or empty
  std::string use_case;  ///< one line for the docs' variant tables
  std::vector<std::string> examples;
  std::vector<std::string> aliases;  ///< other spellings in hand-written file names ("armv8.2")
  std::vector<std::string> disable;  ///< PyTorch features that must be off (FBGEMM, ...)
  std::string disable_reason;
  std::vector<std::string> cmake_force_off;  ///< cmake cache variables forced FALSE
  std::string cmake_force_off_reason;
  std::string notes;
  std::string source;

  /// "x86-64" or "aarch64" as a reader would say it.
  std::string arch_display() const;
  /// A baseline target: no flags, nothing required (the compiler's default for the platform).
  bool baseline() const { return flags.empty(); }
};

CpuIsa read_cpu_isa(TableReader& r);

}  // namespace tailor
