// coopspv-opt: runs optimizer passes over a SPIR-V binary module, in the style of spirv-opt.
#include <cstdio>
#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "tools/io.h"

namespace {

// spirv-opt's convention: 0 on success, 1 on any failure.
constexpr int kExitFailure = 1;

void PrintHelp(const char* argv0) {
  std::printf(
      "Usage: %s [options] [passes] <input> -o <output>\n"
      "\n"
      "Runs the given passes, in order, over a SPIR-V binary module. The input is validated\n"
      "first and the output always validates. <input> may be '-' for standard input, and\n"
      "<output> '-' for standard output.\n"
      "\n"
      "Passes:\n",
      argv0);
  for (const auto& pass : coopspv::OptimizerPasses()) {
    std::string flag = "--" + pass.flag;
    if (!pass.argument.empty()) flag += (pass.argument[0] == '=' ? "" : " ") + pass.argument;
    std::printf("  %s\n      %s\n", flag.c_str(), pass.help.c_str());
  }
  std::printf(
      "\n"
      "Options:\n"
      "  -o <file>              Write the optimized module to <file> ('-': standard output).\n"
      "  -Oconfig=<file>        Read more flags from <file>, one per line ('#' starts a\n"
      "                         comment; quote arguments with spaces).\n"
      "  --target-env <env>     Validate for <env>: %s. Default: spv1.6.\n"
      "  --validate-after-each  Validate after every pass and name the pass that broke the\n"
      "                         module.\n"
      "  --skip-validation      Do not validate the input first.\n"
      "  --time-report          Print each pass (and the sub-passes a driver pass ran) with\n"
      "                         its status, time and instruction counts before and after, to\n"
      "                         standard error.\n"
      "  -h, --help             Print this help and exit.\n"
      "  --version              Print the version and exit.\n"
      "\n"
      "Exit status: 0 on success, 1 on any failure (bad flags, unreadable or invalid input, a\n"
      "failing pass), as spirv-opt.\n",
      coopspv::TargetEnvNames());
}

// Splits a config file into flags: whitespace separates, double quotes group, '#' comments.
bool SplitConfig(const std::string& text, std::vector<std::string>* args, std::string* error) {
  std::string current;
  bool in_word = false, quoted = false, comment = false;
  for (char c : text) {
    if (comment) {
      if (c == '\n') comment = false;
      continue;
    }
    if (quoted) {
      if (c == '"') {
        quoted = false;
      } else {
        current += c;
      }
      continue;
    }
    if (c == '#' && !in_word) {
      comment = true;
    } else if (c == '"') {
      quoted = in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) args->push_back(current);
      current.clear();
      in_word = false;
    } else {
      current += c;
      in_word = true;
    }
  }
  if (quoted) {
    *error = "unterminated quote";
    return false;
  }
  if (in_word) args->push_back(current);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace coopspv::tools;
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string input, output;
  bool have_input = false, have_output = false, time_report = false;
  coopspv::OptimizerOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string arg = args[i];
    if (TakeHelpOrVersion(arg, PrintHelp, argv[0])) return kExitOk;
    if (arg == "-o") {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "error: -o needs a file name\n");
        return kExitFailure;
      }
      output = args[++i];
      have_output = true;
    } else if (arg.rfind("-Oconfig=", 0) == 0) {
      std::string text, error;
      if (!ReadFile(arg.substr(9), &text)) return kExitFailure;
      std::vector<std::string> more;
      if (!SplitConfig(text, &more, &error)) {
        std::fprintf(stderr, "error: %s: %s\n", arg.substr(9).c_str(), error.c_str());
        return kExitFailure;
      }
      args.insert(args.begin() + static_cast<long>(i) + 1, more.begin(), more.end());
    } else if (arg == "--target-env" || arg.rfind("--target-env=", 0) == 0) {
      std::string env;
      if (arg == "--target-env") {
        if (i + 1 >= args.size()) {
          std::fprintf(stderr, "error: --target-env needs a value\n");
          return kExitFailure;
        }
        env = args[++i];
      } else {
        env = arg.substr(13);
      }
      if (!coopspv::SpirvVersionForTargetEnv(env)) {
        std::fprintf(stderr, "error: unknown target environment '%s' (expected one of %s)\n",
                     env.c_str(), coopspv::TargetEnvNames());
        return kExitFailure;
      }
      options.target_env = env;
    } else if (arg == "--validate-after-each") {
      options.validate_after_each = true;
    } else if (arg == "--skip-validation") {
      options.skip_validation = true;
    } else if (arg == "--time-report") {
      time_report = true;
    } else if (arg.rfind("--", 0) == 0) {
      coopspv::PassRequest pass;
      std::string error;
      if (!TakePassFlag(args, &i, &pass, &error)) {
        std::fprintf(stderr, "error: %s\n", error.c_str());
        return kExitFailure;
      }
      options.passes.push_back(pass);
    } else if (!TakeInputArgument(arg, &input, &have_input)) {
      return kExitFailure;
    }
  }
  if (!have_input) {
    std::fprintf(stderr, "error: no input file (see --help)\n");
    return kExitFailure;
  }
  if (!have_output) {
    std::fprintf(stderr, "error: no output file: use -o <file> ('-' for standard output)\n");
    return kExitFailure;
  }
  std::string bytes;
  if (!ReadFile(input, &bytes)) return kExitFailure;
  std::vector<uint32_t> words;
  coopspv::Problem problem;
  if (!coopspv::BytesToWords({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, &words,
                             &problem)) {
    std::fprintf(stderr, "error: %s\n", problem.message.c_str());
    return kExitFailure;
  }
  coopspv::OptimizeResult result;
  const bool ok = coopspv::Optimize(words, options, &result, &problem);
  if (time_report) {
    for (const auto& p : result.passes) {
      std::fprintf(stderr, "%-44s %-9s %10.3f ms %8llu -> %llu instructions\n",
                   ("--" + p.pass).c_str(), p.status.c_str(), p.milliseconds,
                   static_cast<unsigned long long>(p.instructions_before),
                   static_cast<unsigned long long>(p.instructions_after));
    }
  }
  if (!ok) {
    for (const auto& d : result.validation.diagnostics) {
      std::fputs(coopspv::FormatDiagnostic(d).c_str(), stderr);
    }
    std::fprintf(stderr, "error: %s\n", problem.message.c_str());
    return kExitFailure;
  }
  const std::vector<uint8_t> out = coopspv::WordsToBytes(result.words);
  if (!WriteFile(output, out.data(), out.size())) return kExitFailure;
  return kExitOk;
}
