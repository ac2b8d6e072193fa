#pragma once
/// The recipe tree a command reads (kTree rows): the dispatcher opens it before
/// the command runs, checking that it is a directory; its files are listed and
/// read on first use, once, however many steps of the run read them.

#include <optional>
#include <string>
#include <vector>

#include "recipe/source_file.hpp"

namespace tailor {

class InputTree {
 public:
  /// Throws DiagnosticError "DIR: error: MESSAGE" with \a hint when \a dir is
  /// no directory: the words are the command's (repin says which option a spec goes to).
  InputTree(std::string dir, std::string message, std::string hint);

  const std::string& dir() const { return dir_; }
  /// Every file, texts not read (recipe::list_tree): check parses them one by one.
  const std::vector<recipe::SourceFile>& listing();
  /// Every file, with the texts of its recipes, docs and scripts (recipe::read_tree).
  const std::vector<recipe::SourceFile>& files();
  /// The run wrote into the tree (check --fix): the next listing() and files() read it again.
  void changed();

 private:
  std::string dir_;
  std::optional<std::vector<recipe::SourceFile>> listing_, files_;
};

}  // namespace tailor
