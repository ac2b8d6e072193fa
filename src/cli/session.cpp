#include "cli/session.hpp"

#include <stdexcept>

#include "cli/options.hpp"
#include "matrix/spec_loader.hpp"

namespace tailor {

void Session::warn(std::string message, std::string path) {
  Diagnostic d;
  d.severity = Severity::warning;
  d.path = std::move(path);
  d.message = std::move(message);
  err << d.render();
}

const KnowledgeBase& Session::facts() {
  if (!kb_) kb_.emplace(load_kb(kb_dir));
  return *kb_;
}

const HostTables& Session::hosts() {
  if (!hosts_) hosts_.emplace(load_host_tables(kb_dir));
  return *hosts_;
}

Expanded& Session::matrix(const std::string& spec_arg) {
  auto& slot = matrices_[spec_arg];
  if (!slot) {
    Spec spec = load_spec_arg(spec_arg, facts());
    Matrix m = expand(spec, facts());
    for (const auto& w : m.warnings) warn(w);
    slot = std::make_unique<Expanded>(Expanded{std::move(spec), std::move(m)});
  }
  return *slot;
}

InputTree& Session::tree() {
  if (!tree_) throw std::logic_error("no recipe tree was opened: the command's row does not declare kTree");
  return *tree_;
}

const Artifact& Session::artifact() {
  if (!artifact_) throw std::logic_error("no artifact was opened: the command's row does not declare kArtifact");
  return *artifact_;
}

void Session::open_tree(const std::string& dir, std::string message, std::string hint) {
  if (!tree_ || tree_->dir() != dir) tree_.emplace(dir, std::move(message), std::move(hint));
}

void Session::open_artifact(const std::string& path) {
  if (!artifact_ || artifact_->path != path) artifact_ = tailor::open_artifact(path);
}

}  // namespace tailor
