#pragma once
/// What a fetch URL may hold of a GitHub source (github.com/OWNER/REPO/archive/REV.tar.gz):
/// "", "../../evil", "?#" or an escape would fetch something else, or nothing.

#include <string_view>

namespace tailor {

bool is_github_owner(std::string_view s);  ///< letters, digits, single hyphens (and _ .)
bool is_github_repo(std::string_view s);   ///< letters, digits, . _ -; not "." or ".."
bool is_git_rev(std::string_view s);       ///< a commit id, a tag or a branch, without ".."

}  // namespace tailor
