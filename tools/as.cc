// coopspv-as: assembles SPIR-V text (the syntax of spirv-as / spirv-dis) into a binary module.
#include <cstdio>
#include <cstring>
#include <string>

#include "include/coopspv/coopspv.hpp"
#include "tools/io.h"

namespace {

void PrintHelp(const char* argv0) {
  std::printf(
      "Usage: %s [options] [<file> | -]\n"
      "\n"
      "Assembles SPIR-V text, as spirv-dis prints it, into a binary module.\n"
      "The input is <file>, or standard input for '-' or when no file is given.\n"
      "\n"
      "Options:\n"
      "  -o <file>                Write the binary to <file> ('-' for standard output).\n"
      "                           Default: out.spv.\n"
      "  --target-env <env>       Set the header's SPIR-V version to what <env> allows:\n"
      "                           %s.\n"
      "                           Default: the text's '; Version:' comment, else 1.6.\n"
      "  --preserve-numeric-ids   Keep %%<number> ids as written instead of renumbering.\n"
      "  -h, --help               Print this help and exit.\n"
      "  --version                Print the version and exit.\n"
      "\n"
      "Exit status: 0 on success, 1 when the text does not assemble, 2 on a usage or I/O "
      "error.\n",
      argv0, coopspv::TargetEnvNames());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace coopspv::tools;
  std::string input, output = "out.spv";
  bool have_input = false;
  coopspv::AssembleOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* flag) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", flag);
        return nullptr;
      }
      return argv[++i];
    };
    if (TakeHelpOrVersion(arg, PrintHelp, argv[0])) return kExitOk;
    if (arg == "-o") {
      const char* v = value("-o");
      if (!v) return kExitUsage;
      output = v;
    } else if (arg == "--target-env" || arg.rfind("--target-env=", 0) == 0) {
      const char* v = arg == "--target-env" ? value("--target-env") : argv[i] + 13;
      if (!v) return kExitUsage;
      options.version = coopspv::SpirvVersionForTargetEnv(v);
      if (!options.version) {
        std::fprintf(stderr, "error: unknown target environment '%s' (expected one of %s)\n", v,
                     coopspv::TargetEnvNames());
        return kExitUsage;
      }
    } else if (arg == "--preserve-numeric-ids") {
      options.preserve_numeric_ids = true;
    } else if (!TakeInputArgument(arg, &input, &have_input)) {
      return kExitUsage;
    }
  }
  if (!have_input) input = "-";
  std::string text;
  if (!ReadFile(input, &text)) return kExitUsage;
  std::vector<uint32_t> words;
  coopspv::Problem problem;
  if (!coopspv::Assemble(text, options, &words, &problem)) {
    const char* name = input == "-" ? "<stdin>" : input.c_str();
    if (problem.line != 0) {
      std::fprintf(stderr, "%s:%u:%u: error: %s\n", name, problem.line, problem.column,
                   problem.message.c_str());
    } else {
      std::fprintf(stderr, "%s: error: %s\n", name, problem.message.c_str());
    }
    return kExitInvalid;
  }
  const std::vector<uint8_t> bytes = coopspv::WordsToBytes(words);
  if (!WriteFile(output, bytes.data(), bytes.size())) return kExitUsage;
  return kExitOk;
}
