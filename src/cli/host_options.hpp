#pragma once
/// The options `detect` and `recommend` share: where the host facts come from
/// (--cpuinfo FILE, --gpus SPEC, --os darwin|linux, --arch), and --no-cache.

#include <CLI/CLI.hpp>

#include "host/host_facts.hpp"

namespace tailor {

/// Command-line values, turned into HostOptions after parsing.
struct HostArgs {
  std::string cpuinfo, gpus, os, arch;
  bool no_cache = false;
  HostOptions options() const;
};

/// Adds --cpuinfo, --gpus, --os and --no-cache to \a app.
void add_host_options(CLI::App& app, HostArgs& args);

}  // namespace tailor
