#include "cli/input_tree.hpp"

#include <filesystem>

#include "recipe/recipe_tree.hpp"
#include "util/file_error.hpp"

namespace tailor {

InputTree::InputTree(std::string dir, std::string message, std::string hint) : dir_(std::move(dir)) {
  if (std::error_code ec; !std::filesystem::is_directory(dir_, ec))
    throw_file_error(dir_, std::move(message), std::move(hint));
}

const std::vector<recipe::SourceFile>& InputTree::listing() {
  if (!listing_) listing_ = recipe::list_tree(dir_);
  return *listing_;
}

const std::vector<recipe::SourceFile>& InputTree::files() {
  if (!files_) {
    std::vector<recipe::SourceFile> read = listing();
    recipe::read_texts(dir_, read);
    files_ = std::move(read);
  }
  return *files_;
}

void InputTree::changed() {
  listing_.reset();
  files_.reset();
}

}  // namespace tailor
