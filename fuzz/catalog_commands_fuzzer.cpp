// Fuzz target for the catalog page's "Check on Linux/macOS" commands: any feature names (the
// input's lines; an overlay may name a feature anything) give commands that a POSIX shell
// splits into exactly the words meant: the pattern is one word, and nothing outside quotes
// ends a command or starts another (issue 46 #6: `x' /dev/null; touch …` ran touch).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/feature_checks.hpp"

#include "resource_oracle.hpp"

namespace {

// The words of \a line as sh reads them: bare runs of safe characters, '…' quotes and \x escapes
// joined to their neighbours, " | " as its own word. Anything else outside quotes is a finding.
std::vector<std::string> words_of(std::string_view line) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == ' ') {
      if (in_word) out.push_back(word), word.clear(), in_word = false;
    } else if (c == '\'') {
      size_t end = line.find('\'', i + 1);
      if (end == std::string_view::npos) __builtin_trap();  // an unterminated quote
      word.append(line.substr(i + 1, end - i - 1));
      in_word = true;
      i = end;
    } else if (c == '\\' && i + 1 < line.size()) {  // a backslash outside quotes: the next character, literally
      word += line[++i];
      in_word = true;
    } else if (c == '|' && !in_word) {
      out.push_back("|");
    } else if (std::string_view("_./:=+@%,-").find(c) != std::string_view::npos || (c >= 'a' && c <= 'z') ||
               (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
      word += c;
      in_word = true;
    } else {
      __builtin_trap();  // a character the shell would read as syntax
    }
  }
  if (in_word) out.push_back(word);
  return out;
}

}  // namespace

TAILOR_FUZZ_TARGET(data, size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> features;
  for (size_t at = 0; at <= text.size();) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    features.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  if (features.size() > 64) return 0;
  std::string pattern;
  for (size_t i = 0; i < features.size(); ++i) pattern += (i ? "|" : "") + features[i];  // an empty name too
  for (const char* arch : {"x86_64", "aarch64"}) {
    tailor::FeatureCheck c = tailor::feature_check(features, arch, tailor::embedded_host_tables());
    if (c.linux_command.find('\0') != std::string::npos) return 0;  // NUL is no shell word at all
    std::vector<std::string> w = words_of(c.linux_command);
    std::vector<std::string> want = {"grep", "-o", "-w", "-E", pattern, "/proc/cpuinfo", "|", "sort", "-u"};
    if (w != want) __builtin_trap();
    if (!c.macos_command.empty()) (void)words_of(c.macos_command);
  }
  return 0;
}
