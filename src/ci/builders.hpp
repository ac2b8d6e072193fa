#pragma once
/// Remote builders for CUDA builds: a Nix machines file (and the NixOS
/// nix.buildMachines form) with the features the recipes require, and the
/// job settings that keep nvcc out of swap.

#include <string>
#include <vector>

#include "kb/platform.hpp"

namespace tailor {

struct BuilderHost {
  std::string uri;     ///< ssh-ng://user@host
  std::string system;  ///< x86_64-linux, aarch64-linux
  int cores = 0;
  int memory_gb = 0;
};

/// Parses "user@host:system:cores:memGB", the system one of \a platforms that
/// may be a remote builder; throws DiagnosticError if malformed.
BuilderHost parse_builder_host(const std::string& text, const PlatformTable& platforms);

/// One build at a time per machine: a single torch/vLLM build already uses
/// every core it is given, and two would double the memory peak.
inline constexpr int kBuilderMaxJobs = 1;
/// The features tailor's recipes require of a CUDA builder.
inline constexpr const char* kBuilderFeatures[] = {"big-parallel", "kvm", "nixos-test"};

/// The host's line of a Nix machines file.
std::string machines_line(const BuilderHost& h);

/// nix.conf `cores` for \a h: its cores, bounded by its memory / \a gb_per_job.
int build_cores(const BuilderHost& h, int gb_per_job);

/// The machines file, the NixOS fragment and the explanation, as one text.
std::string builders_text(const std::vector<BuilderHost>& hosts, int gb_per_job);

}  // namespace tailor
