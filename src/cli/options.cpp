#include "cli/options.hpp"
#include "cli/wheel_limit_options.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "host/host_tables.hpp"
#include "util/diagnostic.hpp"
#include "util/edit_distance.hpp"
#include "util/exit_status.hpp"
#include "util/quote.hpp"
#include "util/read_file.hpp"
#include "util/safe_name.hpp"

namespace tailor {

void add_kb_option(CLI::App& app, std::string& dir) {
  app.add_option("--kb", dir, "overlay the knowledge base with the TOML files in DIR (default: $TAILOR_KB)")
      ->type_name("DIR");
}

std::string overlay_dir(const std::string& dir) {
  if (!dir.empty()) return dir;
  const char* env = std::getenv("TAILOR_KB");
  return env ? env : "";
}

KnowledgeBase load_kb(const std::string& dir) {
  std::string d = overlay_dir(dir);
  return d.empty() ? KnowledgeBase::load() : KnowledgeBase::load(std::filesystem::path(d));
}

HostTables load_host_tables(const std::string& dir) {
  std::string d = overlay_dir(dir);
  return d.empty() ? HostTables::load() : HostTables::load(std::filesystem::path(d));
}

CLI::Validator safe_name_check() {
  return CLI::Validator(
      [](const std::string& v) {
        auto why = unsafe_name_reason(v);
        return why ? fmt::format("'{}' {} (letters, digits and . _ + -, starting with a letter or a digit)",
                                 comment_text(v), *why)
                   : std::string();
      },
      "NAME");
}

CLI::Validator nonempty_check() {
  return CLI::Validator(
      [](const std::string& v) { return v.empty() ? std::string("must not be empty") : std::string(); }, "");
}

CLI::Validator positive_whole_number() {
  return CLI::Validator(
      [](const std::string& v) {
        size_t used = 0;
        long long n = 0;
        try {
          n = std::stoll(v, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        return used == v.size() && n >= 1 && n <= 1'000'000
                   ? std::string()
                   : fmt::format("'{}' must be a whole number from 1 to 1000000", v);
      },
      "from 1 to 1000000");
}

CLI::Validator non_negative_number() {
  return CLI::Validator(
      [](const std::string& v) {
        size_t used = 0;
        double x = -1;
        try {
          x = std::stod(v, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        return used == v.size() && std::isfinite(x) && x >= 0 ? std::string()
                                                              : fmt::format("'{}' must be a number of 0 or more", v);
      },
      "0 or more");
}

void add_spec_arg(CLI::App& app, SpecArg& spec, const std::string& help) {
  app.add_option("SPEC", spec.positional, help);
  app.add_option("--spec", spec.option, "the same as SPEC (give one of them)")->type_name("SPEC");
}

namespace {
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return a == b || std::filesystem::equivalent(a, b, ec);
}
}  // namespace

std::string chosen_spec(const SpecArg& spec, const std::string& command, const std::string& fallback) {
  const std::string& p = spec.positional;
  const std::string& o = spec.option;
  if (!p.empty() && !o.empty() && !same_file(p, o)) {
    Diagnostic d;
    d.message = fmt::format("{}: two specs: '{}' and --spec '{}'", command, comment_text(p), comment_text(o));
    d.hint = "SPEC and --spec SPEC are the same argument: give one of them";
    throw DiagnosticError(d);
  }
  if (!o.empty()) return o;
  if (!p.empty()) return p;
  if (fallback.empty()) {
    Diagnostic d;
    d.message = fmt::format("{}: a spec is required", command);
    d.hint = fmt::format("tailor {} SPEC (or --spec SPEC): a spec file or a built-in spec such as build-pytorch/main",
                         command);
    throw DiagnosticError(d);
  }
  return fallback;
}

std::string chosen_spec_with_names(SpecArg& spec, std::vector<std::string>& names, const std::string& command) {
  if (!spec.option.empty() && !spec.positional.empty() && !same_file(spec.positional, spec.option)) {
    names.insert(names.begin(), spec.positional);
    spec.positional.clear();
  }
  return chosen_spec(spec, command, "");
}

namespace {
// "1048576", "64M", "2G": a byte count for --max-input-size.
std::optional<uint64_t> byte_count(const std::string& s) {
  if (s.empty() || s[0] < '0' || s[0] > '9') return std::nullopt;
  size_t used = 0;
  uint64_t n = 0;
  try {
    n = std::stoull(s, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string unit = s.substr(used);
  int shift = unit.empty() ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : -1;
  if (shift < 0 || n > (UINT64_MAX >> shift)) return std::nullopt;
  return n << shift;
}

}  // namespace

void add_wheel_limit_options(CLI::App& app, WheelLimits& limits) {
  app.add_option_function<std::string>(
         "--max-unpacked",
         [&limits](const std::string& v) {
           auto n = byte_count(v);
           if (!n || *n == 0)
             throw CLI::ValidationError("--max-unpacked", fmt::format("'{}' is not a byte count (64G)", v));
           limits.max_unpacked = *n;
         },
         fmt::format("refuse a wheel whose members unpack to more than this (default {}G)", kDefaultMaxUnpacked >> 30))
      ->type_name("BYTES");
  app.add_option("--max-ratio", limits.max_ratio,
                 fmt::format("refuse a wheel member that inflates more than N times its compressed size (default {})",
                             kDefaultMaxRatio))
      ->type_name("N")
      ->check(positive_whole_number());
}

namespace {
// --max-input-size BYTES, taken by every command before its own options: the
// cap on any file read whole (util/read_file.hpp). Returns false (reported)
// when its value is bad.
bool take_input_size_limit(CommandContext& ctx) {
  set_input_size_limit(kDefaultInputSizeLimit);  // commands run in one process (tests) start alike
  for (size_t i = 0; i < ctx.args.size(); ++i) {
    const std::string& a = ctx.args[i];
    if (a == "--") break;
    std::string value;
    size_t count = 1;
    if (a == "--max-input-size") {
      if (i + 1 < ctx.args.size()) {
        value = ctx.args[i + 1];
        count = 2;
      }
    } else if (a.starts_with("--max-input-size=")) {
      value = a.substr(std::string_view("--max-input-size=").size());
    } else {
      continue;
    }
    auto n = byte_count(value);
    if (!n || *n == 0) {
      Diagnostic d;
      d.message = fmt::format("--max-input-size: '{}' is not a byte count", value);
      d.hint = "a positive number of bytes, or one with K, M or G (64M)";
      ctx.err << d.render();
      return false;
    }
    set_input_size_limit(*n);
    ctx.args.erase(ctx.args.begin() + static_cast<std::ptrdiff_t>(i),
                   ctx.args.begin() + static_cast<std::ptrdiff_t>(i + count));
    --i;
  }
  return true;
}
}  // namespace

void usage_error(std::string message, std::string hint) {
  Diagnostic d;
  d.message = std::move(message);
  d.hint = std::move(hint);
  throw DiagnosticError(d);
}

std::string command_help(const CLI::App& app) {
  // CLI11 knows the subcommand's name only: say the whole command line to type.
  std::string help = app.help(), usage = "Usage: " + app.get_name();
  if (size_t at = help.find(usage); at != std::string::npos) help.insert(at + 7, "tailor ");
  return help;
}

std::optional<int> parse_args(CLI::App& app, CommandContext& ctx) {
  if (!take_input_size_limit(ctx)) return kExitBadInput;
  std::vector<std::string> reversed(ctx.args.rbegin(), ctx.args.rend());  // CLI11 wants them reversed
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    ctx.out << command_help(app);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    Diagnostic d;
    d.message = fmt::format("{}: {}", app.get_name(), e.what());
    // Suggest the closest option for a mistyped --flag.
    std::vector<std::string> names;
    for (const CLI::Option* o : app.get_options())
      for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& a : ctx.args) {
      if (!a.starts_with("--")) continue;
      std::string flag = a.substr(0, a.find('='));
      if (std::find(names.begin(), names.end(), flag) != names.end()) continue;
      d.hint = did_you_mean(flag, names);
      break;
    }
    if (d.hint.empty()) d.hint = fmt::format("run 'tailor {} --help' for its options", app.get_name());
    ctx.err << d.render();
    return kExitBadInput;
  }
  return std::nullopt;
}

std::string tree_branch_name(const std::string& dir, const std::string& given) {
  std::string name = given.empty() ? std::filesystem::weakly_canonical(dir).filename().string() : given;
  if (auto why = unsafe_name_reason(name)) {
    Diagnostic d;
    d.message = fmt::format("branch name '{}' {}", comment_text(name), *why);
    d.hint = !given.empty() ? "names are letters, digits and . _ + -, starting with a letter or a digit"
                            : "the name comes from the directory's name: give one with --name";
    throw DiagnosticError(d);
  }
  return name;
}

}  // namespace tailor
