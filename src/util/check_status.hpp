#pragma once
/// The outcome of one check of `tailor verify`, with its two spellings: the
/// report's lines and its JSON. Down here, below verify, so that the build
/// runner, which reads `tailor verify --json` from another process, parses the
/// same table verify writes with.

#include <string_view>

#include "util/enum_names.hpp"

namespace tailor {

enum class CheckStatus { ok, failed, skipped };
/// As the report's lines spell it, and as its JSON does.
inline constexpr EnumNames<CheckStatus, 3> kCheckStatusLines{
    {{{CheckStatus::ok, "ok"}, {CheckStatus::failed, "FAILED"}, {CheckStatus::skipped, "skipped"}}}};
inline constexpr EnumNames<CheckStatus, 3> kCheckStatusJson{
    {{{CheckStatus::ok, "ok"}, {CheckStatus::failed, "failed"}, {CheckStatus::skipped, "skipped"}}}};
constexpr std::string_view check_status_name(CheckStatus s) { return kCheckStatusLines.name(s); }

}  // namespace tailor
