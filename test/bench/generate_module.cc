// Writes a generated benchmark module as assembly text to standard output, to reproduce a
// benchmark's input with the tools:
//   bazel run -c opt //test/bench:generate_module -- 25000 > big.spvasm
#include <cstdio>
#include <cstdlib>
#include <string>

#include "test/bench/module_generator.h"

int main(int argc, char** argv) {
  if (argc != 2 || std::atol(argv[1]) <= 0) {
    std::fprintf(stderr, "usage: generate_module <repetitions> (about 40 instructions each)\n");
    return 2;
  }
  const std::string text = coopspv::bench::GenerateModuleText(std::strtoul(argv[1], nullptr, 10));
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}
