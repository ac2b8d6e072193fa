#pragma once
/// A knowledge base in which a pin fact is disputed, for the tests of the
/// dispute mechanism (warn, name every source, point at `tailor kb probe-pin`,
/// decide nothing): the embedded data has no dispute left since pin 0182a36's
/// torch was settled as 2.9.1 (flox/build-vllm commit 6e05100b), so the tests
/// restore the dispute as it stood before, from tests/data/kb-disputed/.

#include <string>

#include "kb/knowledge_base.hpp"

namespace tailor::test {

/// The overlay directory, relative to the source tree (the tests run there): pass it as `--kb`.
const std::string& disputed_kb_dir();

/// The embedded knowledge base with that overlay: pin 0182a36's torch disputed
/// between 2.9.1 and 2.10.0.
const KnowledgeBase& disputed_kb();

}  // namespace tailor::test
