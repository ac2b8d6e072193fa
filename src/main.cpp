// tailor: hardware-tailored PyTorch builds as a data problem. All logic lives
// in the library; this only hands over the arguments, standard output (as a
// stream that keeps the reason of a failed write) and the signal handlers that
// remove temporary files.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "util/fd_output.hpp"
#include "util/temp_files.hpp"

int main(int argc, char** argv) {
  tailor::install_temp_file_cleanup();
  std::vector<std::string> args(argv + 1, argv + argc);
  tailor::FdOutput stdout_buf(STDOUT_FILENO);
  std::ostream out(&stdout_buf);
  return tailor::run_cli(args, out, std::cerr);
}
