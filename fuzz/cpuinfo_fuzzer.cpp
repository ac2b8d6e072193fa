// Fuzz target for `detect --cpuinfo FILE` (and recommend's): any bytes, written to a file and
// read as the command reads it (the one input reader, /proc/cpuinfo or sysctl text, the ISAs
// the knowledge base derives), give host facts or a DiagnosticError; never a crash, and never
// memory or time out of proportion to the file (the resource oracles).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "host/host_facts.hpp"
#include "kb/knowledge_base.hpp"
#include "util/diagnostic.hpp"

#include "resource_oracle.hpp"

TAILOR_FUZZ_TARGET(data, size) {
  static const tailor::KnowledgeBase kb = tailor::KnowledgeBase::load();
  static const std::string path = [] {
    char name[] = "/tmp/tailor-cpuinfo-fuzz-XXXXXX";
    int fd = ::mkstemp(name);
    if (fd >= 0) ::close(fd);
    return std::string(name);
  }();
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  tailor::HostOptions options;
  options.cpuinfo_path = path;
  options.gpus = "none";
  options.os = tailor::Os::gnu_linux;
  try {
    tailor::HostFacts facts = tailor::detect_host(options, kb, tailor::embedded_host_tables());
    (void)facts;
  } catch (const tailor::DiagnosticError& e) {
    (void)e.diagnostic().render();
  }
  return 0;
}
