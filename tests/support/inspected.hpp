#pragma once
/// What `tailor inspect --json` finds in a built artifact, as one line for assertions.

#include <string>

namespace tailor::test {

/// The architectures `tailor inspect --json` lists for \a path, with counts: "sm_86×3 sm_90×3".
std::string inspected(const std::string& path);

}  // namespace tailor::test
