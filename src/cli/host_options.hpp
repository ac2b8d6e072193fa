#pragma once
/// The options `detect` and `recommend` share: where the host facts come from
/// (--cpuinfo FILE, --gpus SPEC, --os darwin|linux).

#include <CLI/CLI.hpp>

#include "host/host_facts.hpp"

namespace tailor {

/// Command-line values, turned into HostOptions after parsing.
struct HostArgs {
  std::string cpuinfo, gpus, os;
  HostOptions options() const;
};

/// Adds --cpuinfo, --gpus and --os to \a app.
void add_host_options(CLI::App& app, HostArgs& args);

}  // namespace tailor
