// coopspv-dis: disassembles a binary module into the text syntax of spirv-dis.
#include <cstdio>
#include <string>

#include "include/coopspv/coopspv.hpp"
#include "tools/io.h"

namespace {

void PrintHelp(const char* argv0) {
  std::printf(
      "Usage: %s [options] [<file> | -]\n"
      "\n"
      "Disassembles a SPIR-V binary module into text that coopspv-as and spirv-as accept.\n"
      "The input is <file>, or standard input for '-' or when no file is given.\n"
      "\n"
      "Options:\n"
      "  -o <file>      Write the text to <file> instead of standard output.\n"
      "  --raw-id       Print ids as %%<number>, without friendly names.\n"
      "  --no-header    Do not print the '; SPIR-V' header comment block.\n"
      "  --no-indent    Do not align opcodes in a column.\n"
      "  -h, --help     Print this help and exit.\n"
      "  --version      Print the version and exit.\n"
      "\n"
      "Exit status: 0 on success, 1 when the binary is malformed, 2 on a usage or I/O error.\n",
      argv0);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace coopspv::tools;
  std::string input, output = "-";
  bool have_input = false;
  coopspv::DisassembleOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (TakeHelpOrVersion(arg, PrintHelp, argv[0])) return kExitOk;
    if (arg == "-o") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: -o needs a value\n");
        return kExitUsage;
      }
      output = argv[++i];
    } else if (arg == "--raw-id") {
      options.friendly_names = false;
    } else if (arg == "--no-header") {
      options.header = false;
    } else if (arg == "--no-indent") {
      options.indent = false;
    } else if (!TakeInputArgument(arg, &input, &have_input)) {
      return kExitUsage;
    }
  }
  if (!have_input) input = "-";
  std::string bytes;
  if (!ReadFile(input, &bytes)) return kExitUsage;
  const char* name = input == "-" ? "<stdin>" : input.c_str();
  std::vector<uint32_t> words;
  coopspv::Problem problem;
  if (!coopspv::BytesToWords({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, &words,
                             &problem)) {
    std::fprintf(stderr, "%s: error: %s\n", name, problem.ToString().c_str());
    return kExitInvalid;
  }
  std::string text;
  if (!coopspv::Disassemble(words, options, &text, &problem)) {
    std::fprintf(stderr, "%s: error: %s\n", name, problem.ToString().c_str());
    return kExitInvalid;
  }
  if (!WriteFile(output, text.data(), text.size())) return kExitUsage;
  return kExitOk;
}
