// tailor: hardware-tailored PyTorch builds as a data problem. All logic lives
// in the library; this only hands over the arguments.
#include <iostream>
#include <string>
#include <vector>

#include "cli/cli.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return tailor::run_cli(args, std::cout, std::cerr);
}
