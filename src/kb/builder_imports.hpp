#pragma once
/// Which builders a tree needs: the builders its recipes import, and those
/// these import in turn. A builder is written only into trees that use it.

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kb/knowledge_base.hpp"

namespace tailor {

/// The literal relative Nix files \a text imports (`./common.nix`,
/// `./lib/torch.nix`), as tree paths resolved against \a dir ("lib/" for a
/// builder, "" for a recipe): "lib/common.nix". Computed paths
/// (`./.. + "/${v.torchVariant}.nix"`) are recipes, not builders: not listed.
std::vector<std::string> relative_nix_imports(std::string_view text, std::string_view dir);

/// The builders (keys of kb.builder_files) that \a roots (builder names such
/// as "lib/torch.nix") and \a recipes (texts of recipes at the tree's root)
/// use, closed over the builders' own imports.
std::set<std::string> builders_used(const std::vector<std::string>& roots, const std::vector<std::string_view>& recipes,
                                    const KnowledgeBase& kb);

}  // namespace tailor
