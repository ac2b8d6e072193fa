#pragma once
/// What the dispatcher loads for a command, once: the knowledge base (with
/// the --kb overlay), each spec's expanded matrix, and the recipe tree or
/// built artifact the command reads. Expanding prints the matrix's warnings
/// (relied-on disputes, unrecorded CUDA sets, unhashed recipes) the same way
/// for every command, once per spec.

#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "binfmt/artifact.hpp"
#include "cli/input_tree.hpp"
#include "host/host_tables.hpp"
#include "kb/knowledge_base.hpp"
#include "matrix/expand.hpp"
#include "matrix/spec.hpp"
#include "util/diagnostic.hpp"

namespace tailor {

/// A spec and its matrix.
struct Expanded {
  Spec spec;
  Matrix matrix;
};

class Session {
 public:
  Session(std::ostream& out, std::ostream& err) : out(out), err(err) {}
  std::ostream& out;
  std::ostream& err;
  std::string kb_dir;  ///< --kb DIR (empty: $TAILOR_KB, else the built-in one)

  /// "PATH: warning: MESSAGE" (or "tailor: warning: …" without a path) on err:
  /// every warning a command prints is a Diagnostic.
  void warn(std::string message, std::string path = {});
  /// \a d on err: an error that stops this file, not the run.
  void report(const Diagnostic& d) { err << d.render(); }

  /// The knowledge base, loaded on first use (a command may start a GPU query first).
  const KnowledgeBase& facts();
  /// The spec \a spec_arg names (a file or a built-in spec), loaded and expanded
  /// on first use, its warnings written to err as "tailor: warning: …".
  Expanded& matrix(const std::string& spec_arg);
  /// The tables that read a CPU and name whole machines, loaded on first use
  /// with the same overlay as facts().
  const HostTables& hosts();

  /// The recipe tree a kTree row reads, opened by the dispatcher before the
  /// run. Throws std::logic_error when none was opened (a row without kTree).
  InputTree& tree();
  /// The library, folder or wheel a kArtifact row reads, its kind read by the
  /// dispatcher before the run. Throws std::logic_error when none was opened.
  const Artifact& artifact();

  /// The dispatcher's: opens the tree at \a dir (InputTree says how it refuses
  /// one); the same directory again keeps what was read of it.
  void open_tree(const std::string& dir, std::string message, std::string hint);
  /// The dispatcher's: reads \a path's kind; "PATH: error: no such file or directory" when it is missing.
  void open_artifact(const std::string& path);

 private:
  std::optional<KnowledgeBase> kb_;
  std::optional<HostTables> hosts_;
  std::optional<InputTree> tree_;
  std::optional<Artifact> artifact_;
  std::map<std::string, std::unique_ptr<Expanded>> matrices_;
};

}  // namespace tailor
