#pragma once
/// Where a variant's build stands, and what `tailor verify` said of its
/// result: closed sets that the state file, the table, --json and the log
/// spell by the names here.

#include <string_view>

#include "util/enum_names.hpp"

namespace tailor {

enum class BuildStatus { pending, running, succeeded, reused, failed, blocked, not_started, interrupted };
inline constexpr EnumNames<BuildStatus, 8> kBuildStatuses{{{{BuildStatus::pending, "pending"},
                                                            {BuildStatus::running, "running"},
                                                            {BuildStatus::succeeded, "succeeded"},
                                                            {BuildStatus::reused, "reused"},
                                                            {BuildStatus::failed, "failed"},
                                                            {BuildStatus::blocked, "blocked"},
                                                            {BuildStatus::not_started, "not-started"},
                                                            {BuildStatus::interrupted, "interrupted"}}}};
constexpr std::string_view name_of(BuildStatus e) { return kBuildStatuses.name(e); }

/// A result there is (built now or earlier).
constexpr bool has_result(BuildStatus s) { return s == BuildStatus::succeeded || s == BuildStatus::reused; }
/// A build that will not give a result in this run.
constexpr bool went_wrong(BuildStatus s) {
  return s == BuildStatus::failed || s == BuildStatus::blocked || s == BuildStatus::not_started ||
         s == BuildStatus::interrupted;
}

/// none: no result to judge (a build that did not succeed).
enum class Verdict { none, ok, failed, error, not_run };
inline constexpr EnumNames<Verdict, 5> kVerdicts{{{{Verdict::none, ""},
                                                   {Verdict::ok, "ok"},
                                                   {Verdict::failed, "FAILED"},
                                                   {Verdict::error, "error"},
                                                   {Verdict::not_run, "not run"}}}};
constexpr std::string_view name_of(Verdict e) { return kVerdicts.name(e); }

}  // namespace tailor
