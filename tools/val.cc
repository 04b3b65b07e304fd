// coopspv-val: validates a SPIR-V binary module, with every rule of the cooperative family.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>

#include "include/coopspv/coopspv.hpp"
#include "tools/io.h"

namespace {

std::string BuiltInProfiles() {
  std::string names;
  for (const std::string& n : coopspv::DeviceProfileNames()) {
    names += (names.empty() ? "" : ", ") + n;
  }
  return names.empty() ? "none in this build" : names;
}

void PrintHelp(const char* argv0) {
  std::printf(
      "Usage: %s [options] [<file> | -]\n"
      "\n"
      "Validates a SPIR-V binary module: its structure, ids, types, capabilities, and the rules\n"
      "of cooperative matrices and vectors. The input is <file>, or standard input for '-' or\n"
      "when no file is given.\n"
      "\n"
      "Options:\n"
      "  --target-env <env>         Validate for <env>: %s.\n"
      "                             Default: spv1.6.\n"
      "  --max-errors <n>           Stop after n errors (0: no limit). Default: 100.\n"
      "  --json                     Print the result as JSON on standard output.\n"
      "  -q, --quiet                Print nothing; only the exit status tells.\n"
      "  --suppress=<rule-id>       Drop the diagnostics of a rule (repeatable).\n"
      "  --warn-as-error[=<rule-id>]\n"
      "                             Report a warning rule (or all warnings) as errors.\n"
      "  --list-rules               Print every rule id with its severity and clause.\n"
      "  --device-profile=<file|name>\n"
      "                             Check the device rules too (family \"device\"), for the\n"
      "                             device a profile describes: a JSON file\n"
      "                             (docs/device_profile.md) or a built-in profile (%s).\n"
      "  --relax-logical-pointer    Allow pointers as operands of any instruction.\n"
      "  --before-hlsl-legalization Relax the rules HLSL front ends rely on before\n"
      "                             legalization (implies --relax-logical-pointer).\n"
      "  --relax-block-layout       Relaxed vector placement in blocks (the default from\n"
      "                             vulkan1.1).\n"
      "  --uniform-buffer-standard-layout\n"
      "                             Uniform Blocks take base alignment, as storage blocks.\n"
      "  --scalar-block-layout      Scalar alignment in every block.\n"
      "  --workgroup-scalar-block-layout\n"
      "                             Scalar alignment in Workgroup blocks.\n"
      "  --skip-block-layout        No block layout check.\n"
      "  --allow-vulkan-32-bit-bitwise  Bit-field instructions on other than 32-bit integers\n"
      "                             in Vulkan (a device with maintenance9).\n"
      "  --max-id-bound=<n>         Limits, as in spirv-val; defaults are SPIR-V's universal\n"
      "  --max-struct-members=<n>   limits.\n"
      "  --max-function-args=<n>\n"
      "  --max-control-flow-nesting-depth=<n>\n"
      "  --max-access-chain-indexes=<n>\n"
      "  -h, --help                 Print this help and exit.\n"
      "  --version                  Print the version and exit.\n"
      "\n"
      "Exit status: 0 when the module is valid (warnings allowed), 1 when it is invalid, 2 on a\n"
      "usage or I/O error.\n",
      argv0, coopspv::TargetEnvNames(), BuiltInProfiles().c_str());
}

bool ParseCount(const std::string& text, uint32_t* out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
      text.size() > 10) {
    return false;
  }
  const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (v > 0xFFFFFFFFull) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace coopspv::tools;
  std::string input;
  bool have_input = false, json = false, quiet = false;
  coopspv::ValidatorOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    // "--flag value" or "--flag=value".
    auto value_of = [&](const std::string& flag, std::string* value) {
      if (arg == flag) {
        if (i + 1 >= argc) return false;
        *value = argv[++i];
        return true;
      }
      if (arg.rfind(flag + "=", 0) == 0) {
        *value = arg.substr(flag.size() + 1);
        return true;
      }
      return false;
    };
    auto count_flag = [&](const std::string& flag, uint32_t* out) -> int {
      if (arg != flag && arg.rfind(flag + "=", 0) != 0) return 0;
      std::string v;
      if (!value_of(flag, &v) || !ParseCount(v, out)) {
        std::fprintf(stderr, "error: %s needs a non-negative integer\n", flag.c_str());
        return -1;
      }
      return 1;
    };
    std::string value;
    int counted = 0;
    if (TakeHelpOrVersion(arg, PrintHelp, argv[0])) return kExitOk;
    if (arg == "--list-rules") {
      for (const auto& rule : coopspv::ValidationRules()) {
        std::printf("%-36s %-8s %s\n", rule.id.c_str(), rule.severity.c_str(), rule.clause.c_str());
      }
      return kExitOk;
    } else if (arg == "--target-env" || arg.rfind("--target-env=", 0) == 0) {
      if (!value_of("--target-env", &value)) {
        std::fprintf(stderr, "error: --target-env needs a value\n");
        return kExitUsage;
      }
      if (!coopspv::SpirvVersionForTargetEnv(value)) {
        std::fprintf(stderr, "error: unknown target environment '%s' (expected one of %s)\n",
                     value.c_str(), coopspv::TargetEnvNames());
        return kExitUsage;
      }
      options.target_env = value;
    } else if ((counted = count_flag("--max-errors", &options.max_errors)) ||
               (counted = count_flag("--max-id-bound", &options.max_id_bound)) ||
               (counted = count_flag("--max-struct-members", &options.max_struct_members)) ||
               (counted = count_flag("--max-function-args", &options.max_function_args)) ||
               (counted = count_flag("--max-control-flow-nesting-depth",
                                     &options.max_control_flow_nesting_depth)) ||
               (counted =
                    count_flag("--max-access-chain-indexes", &options.max_access_chain_indexes))) {
      if (counted < 0) return kExitUsage;
    } else if (arg == "--json") {
      json = true;
    } else if (arg == "-q" || arg == "--quiet") {
      quiet = true;
    } else if (arg.rfind("--suppress=", 0) == 0) {
      options.suppressed_rules.push_back(arg.substr(11));
    } else if (arg == "--warn-as-error") {
      options.warnings_as_errors.push_back("*");
    } else if (arg.rfind("--warn-as-error=", 0) == 0) {
      options.warnings_as_errors.push_back(arg.substr(16));
    } else if (arg == "--device-profile" || arg.rfind("--device-profile=", 0) == 0) {
      if (!value_of("--device-profile", &value) || value.empty()) {
        std::fprintf(stderr, "error: --device-profile needs a file or a built-in profile name\n");
        return kExitUsage;
      }
      // A built-in name, else a file.
      bool built_in = false;
      for (const std::string& n : coopspv::DeviceProfileNames()) built_in |= n == value;
      std::string text = value;
      if (!built_in && !ReadFile(value, &text)) {
        std::fprintf(stderr, "note: --device-profile: the built-in profiles are %s\n",
                     BuiltInProfiles().c_str());
        return kExitUsage;
      }
      coopspv::Problem profile_problem;
      if (!coopspv::LoadDeviceProfile(text, &options.device_profile, &profile_problem)) {
        std::fprintf(stderr, "error: %s: %s\n", value.c_str(), profile_problem.message.c_str());
        return kExitUsage;
      }
    } else if (arg == "--relax-logical-pointer") {
      options.relax_logical_pointer = true;
    } else if (arg == "--before-hlsl-legalization") {
      options.before_hlsl_legalization = true;
    } else if (arg == "--relax-block-layout") {
      options.relax_block_layout = true;
    } else if (arg == "--uniform-buffer-standard-layout") {
      options.uniform_buffer_standard_layout = true;
    } else if (arg == "--scalar-block-layout") {
      options.scalar_block_layout = true;
    } else if (arg == "--workgroup-scalar-block-layout") {
      options.workgroup_scalar_block_layout = true;
    } else if (arg == "--skip-block-layout") {
      options.skip_block_layout = true;
    } else if (arg == "--allow-vulkan-32-bit-bitwise") {
      options.allow_vulkan_32_bit_bitwise = true;
    } else if (!TakeInputArgument(arg, &input, &have_input)) {
      return kExitUsage;
    }
  }
  if (!have_input) input = "-";
  const char* name = input == "-" ? "<stdin>" : input.c_str();
  // A module file is read straight into its words; anything else (standard input, a size that is
  // not a multiple of four) through bytes, which BytesToWords checks.
  std::unique_ptr<uint32_t[]> file_words;
  size_t num_words = 0;
  std::vector<uint32_t> words;
  std::span<const uint32_t> module;
  coopspv::Problem problem;
  coopspv::ValidationResult result;
  bool converted = true;
  if (ReadWordsOfRegularFile(input, &file_words, &num_words)) {
    module = {file_words.get(), num_words};
  } else {
    std::string bytes;
    if (!ReadFile(input, &bytes)) return kExitUsage;
    converted = coopspv::BytesToWords(
        {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, &words, &problem);
    module = words;
  }
  if (!converted) {
    result.valid = false;
    result.errors = 1;
    coopspv::ValidationDiagnostic d;
    d.rule_id = "binary.malformed";
    d.message = problem.message;
    d.clause = "SPIR-V 2.3 Physical Layout of a SPIR-V Module and Instruction";
    result.diagnostics.push_back(d);
  } else if (!coopspv::Validate(module, options, &result, &problem)) {
    std::fprintf(stderr, "error: %s\n", problem.message.c_str());
    return kExitUsage;
  }
  if (json) {
    std::fputs(coopspv::FormatJson(result).c_str(), stdout);
  } else if (!quiet) {
    for (const auto& d : result.diagnostics) {
      std::fputs(coopspv::FormatDiagnostic(d).c_str(), stderr);
    }
    if (!result.valid) {
      std::fprintf(stderr, "%s: invalid: %u error(s), %u warning(s)%s\n", name, result.errors,
                   result.warnings, result.truncated ? " (stopped at --max-errors)" : "");
    }
  }
  return result.valid ? kExitOk : kExitInvalid;
}
