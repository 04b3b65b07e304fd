// coopspv-run: runs AmberScript compute tests on a Vulkan device (docs/run.md).
#include "include/coopspv/run.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "tools/io.h"

namespace {

constexpr int kExitExpectFailed = 1;
// The device lacks what the script asks for (automake and meson read 77 as "skipped").
constexpr int kExitUnsupported = 77;

// What --lower runs: these passes, those of them that this build has (the registry is asked
// by flag name, so a pass joins --lower by existing).
constexpr const char* kLoweringPasses[] = {"lower-coop-matrix2", "lower-coop-matrix",
                                           "lower-coop-vector"};

void PrintHelp(const char* argv0) {
  std::printf(
      "Usage: %s [options] <script.amber|->\n"
      "\n"
      "Runs a compute test written in AmberScript (the subset of docs/run.md) on a Vulkan\n"
      "device: creates the buffers and pipelines, runs every RUN and checks every EXPECT.\n"
      "The Vulkan loader libvulkan.so.1 is opened at run time; VK_DRIVER_FILES selects drivers.\n"
      "\n"
      "Options:\n"
      "  --device <index|name>   The device: an index of --list-devices or a substring of its\n"
      "                          name (case-insensitive). Default: the first device.\n"
      "  --list-devices          Print the Vulkan devices and exit.\n"
      "  --write-profile <file>  Write the device's profile (docs/device_profile.md: extensions,\n"
      "                          features, limits, cooperative property lists) and exit.\n"
      "  --json                  Print the report as JSON: per EXPECT pass/fail, the first\n"
      "                          mismatching index, the largest absolute and ulp errors.\n"
      "  --timing[=<n>]          Time every RUN with timestamp queries: warm-up dispatches,\n"
      "                          then <n> timed ones (default 10); prints the median.\n"
      "  --warmup <n>            Warm-up dispatches before the timed ones (default 3).\n"
      "  --timeout-ms <n>        A RUN that takes longer is an error (default 10000).\n"
      "  --passes \"<flags>\"      Run the script twice: as written, then with every shader\n"
      "                          through these coopspv-opt passes, and compare every buffer\n"
      "                          bound as storage.\n"
      "  --lower                 --passes with --freeze-spec-const --fold-spec-const and the\n"
      "                          lowering passes this build has (%s);\n"
      "                          --lower-coop-matrix lowers for the device's subgroup size.\n"
      "                          Passes that freeze specialization constants get each\n"
      "                          pipeline's SPECIALIZE values as defaults first.\n"
      "  --passes-only           With --passes or --lower: run only the optimized shaders,\n"
      "                          without the cooperative extensions they no longer use\n"
      "                          (a lowered module on a driver that lacks them).\n"
      "  --tolerance <t>         Floats compared by --passes/--lower match within\n"
      "                          max(t, t * |value|); integers exactly. Default 1e-3.\n"
      "  --target-env <env>      Validate the modules the passes produce for <env>\n"
      "                          (default vulkan1.3).\n"
      "  --dump-buffers <file>   Write the buffers the shaders may have written, after the\n"
      "                          run as written, as AmberScript BUFFER ... DATA declarations\n"
      "                          named <buffer>_result (golden data for EQ_BUFFER).\n"
      "  --create-pipeline       The input is a SPIR-V module (binary): create a device with\n"
      "                          every feature it supports and its cooperative extensions,\n"
      "                          and a compute pipeline for the module (buffers for its\n"
      "                          descriptors); exit 0 when the driver accepts it, else 2.\n"
      "  --entry-point <name>    The entry point for --create-pipeline (default main).\n"
      "  --check                 No device: parse the script, assemble or compile its shaders\n"
      "                          and check the bindings against the modules.\n"
      "  --skip-validation       Hand the driver modules coopspv-val finds invalid for the\n"
      "                          device (driver bug hunting). By default each module, as\n"
      "                          written and after the passes, specialized by its pipeline,\n"
      "                          is validated with the live device's profile first and an\n"
      "                          error refuses the run (exit 2, naming the rule and VUID).\n"
      "  -h, --help              Print this help and exit.\n"
      "  --version               Print the version and exit.\n"
      "\n"
      "Exit status: 0 every EXPECT passed (and the buffers matched), 1 an EXPECT failed or a\n"
      "buffer differed, 2 a usage, parse or driver error, a module invalid for the device, or\n"
      "a RUN that timed out, 77 unsupported: the device lacks a DEVICE_EXTENSION,\n"
      "DEVICE_FEATURE or DEVICE_PROPERTY the script asks for (named).\n",
      argv0, "--lower-coop-matrix, --lower-coop-vector");
}

// Splits --passes "--a --b=1 --c arg" into pass requests, as coopspv-opt reads its flags.
bool ParsePasses(const std::string& text, std::vector<coopspv::PassRequest>* out) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i >= text.size()) break;
    std::string word;
    if (text[i] == '"') {
      const size_t end = text.find('"', i + 1);
      if (end == std::string::npos) {
        std::fprintf(stderr, "error: --passes: unterminated quote\n");
        return false;
      }
      word = text.substr(i + 1, end - i - 1);
      i = end + 1;
    } else {
      while (i < text.size() && text[i] != ' ' && text[i] != '\t') word += text[i++];
    }
    words.push_back(word);
  }
  for (size_t k = 0; k < words.size(); ++k) {
    if (words[k].rfind("--", 0) != 0) {
      std::fprintf(stderr, "error: --passes: '%s' is not a pass flag\n", words[k].c_str());
      return false;
    }
    coopspv::PassRequest pass;
    std::string error;
    if (!coopspv::tools::TakePassFlag(words, &k, &pass, &error)) {
      std::fprintf(stderr, "error: --passes: %s\n", error.c_str());
      return false;
    }
    out->push_back(pass);
  }
  if (out->empty()) {
    std::fprintf(stderr, "error: --passes names no pass\n");
    return false;
  }
  return true;
}

bool ParseCount(const std::string& flag, const std::string& text, uint32_t min, uint32_t* value) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < min || v > 1000000) {
    std::fprintf(stderr, "error: %s needs a number from %u to 1000000\n", flag.c_str(), min);
    return false;
  }
  *value = static_cast<uint32_t>(v);
  return true;
}

int ListDevices(bool json) {
  std::vector<coopspv::VulkanDeviceInfo> devices;
  std::string error;
  if (!coopspv::ListVulkanDevices(&devices, &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return coopspv::tools::kExitUsage;
  }
  if (json) std::printf("[");
  for (const auto& d : devices) {
    std::string coop;
    for (const auto& e : d.cooperative_extensions) coop += (coop.empty() ? "" : " ") + e;
    if (json) {
      std::string list;
      for (const auto& e : d.cooperative_extensions)
        list += (list.empty() ? "\"" : ",\"") + e + "\"";
      std::printf(
          "%s{\"index\":%u,\"name\":\"%s\",\"type\":\"%s\",\"api_version\":\"%s\","
          "\"subgroup_size\":%u,\"min_subgroup_size\":%u,\"max_subgroup_size\":%u,"
          "\"cooperative_extensions\":[%s]}",
          d.index ? "," : "", d.index, d.name.c_str(), d.type.c_str(), d.api_version.c_str(),
          d.subgroup_size, d.min_subgroup_size, d.max_subgroup_size, list.c_str());
    } else {
      std::printf("%u: %s (%s, Vulkan %s, %s)\n   subgroup size %u (%u to %u)%s%s\n", d.index,
                  d.name.c_str(), d.type.c_str(), d.api_version.c_str(), d.driver.c_str(),
                  d.subgroup_size, d.min_subgroup_size, d.max_subgroup_size,
                  coop.empty() ? "" : "; ", coop.c_str());
    }
  }
  if (json) std::printf("]\n");
  return coopspv::tools::kExitOk;
}

void PrintText(const coopspv::RunReport& report) {
  for (const auto& e : report.expects) {
    if (e.passed) continue;
    std::fprintf(stderr, "FAIL line %u%s: %s\n  %s (first mismatch at index %llu, %llu %s)\n",
                 e.line, e.variant == "passes" ? " (with the passes)" : "", e.command.c_str(),
                 e.message.c_str(), static_cast<unsigned long long>(e.first_mismatch.value_or(0)),
                 static_cast<unsigned long long>(e.mismatches),
                 e.mismatches == 1 ? "mismatch" : "mismatches");
  }
  for (const auto& c : report.comparisons) {
    if (c.equal) continue;
    std::fprintf(stderr,
                 "FAIL buffer '%s' differs after the passes: first mismatch at index %llu, %llu "
                 "mismatches, max abs error %g, max ulp error %g\n",
                 c.buffer.c_str(), static_cast<unsigned long long>(c.first_mismatch.value_or(0)),
                 static_cast<unsigned long long>(c.mismatches), c.max_abs_error, c.max_ulp_error);
  }
  for (const auto& t : report.timings) {
    std::printf("RUN %s (line %u)%s: median %.3f us over %u runs (min %.3f, max %.3f)\n",
                t.pipeline.c_str(), t.line, t.variant == "passes" ? " with the passes" : "",
                t.median_us, t.runs, t.min_us, t.max_us);
  }
  if (report.status == coopspv::RunReport::kError) {
    std::fprintf(stderr, "error: %s\n", report.error.c_str());
    return;
  }
  if (report.status == coopspv::RunReport::kUnsupported) {
    std::printf("UNSUPPORTED: %s\n", report.error.c_str());
    return;
  }
  size_t passed = 0;
  for (const auto& e : report.expects) passed += e.passed;
  std::string compared;
  if (!report.passes_applied.empty() && report.comparisons.empty()) {
    compared = " with the passes alone";
  } else if (!report.passes_applied.empty()) {
    size_t equal = 0;
    for (const auto& c : report.comparisons) equal += c.equal;
    compared = ", " + std::to_string(equal) + " of " + std::to_string(report.comparisons.size()) +
               " buffers equal after the passes";
  }
  std::printf("%s: %zu of %zu EXPECT passed on %s%s\n",
              report.status == coopspv::RunReport::kPassed ? "PASS" : "FAIL", passed,
              report.expects.size(), report.device_name.c_str(), compared.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace coopspv::tools;
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string input, dump, write_profile;
  bool have_input = false, json = false, list = false, check = false, lower = false;
  bool create_pipeline = false;
  std::string entry_point = "main";
  coopspv::RunOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string arg = args[i];
    // Flags with a value: "--flag value" or "--flag=value".
    auto value = [&](const char* flag, std::string* out) {
      const std::string f(flag);
      if (arg == f) {
        if (i + 1 >= args.size()) {
          std::fprintf(stderr, "error: %s needs a value\n", flag);
          return -1;
        }
        *out = args[++i];
        return 1;
      }
      if (arg.rfind(f + "=", 0) == 0) {
        *out = arg.substr(f.size() + 1);
        return 1;
      }
      return 0;
    };
    std::string v;
    int got;
    if (TakeHelpOrVersion(arg, PrintHelp, argv[0])) return kExitOk;
    if (arg == "--json") {
      json = true;
    } else if (arg == "--list-devices") {
      list = true;
    } else if (arg == "--check") {
      check = true;
    } else if (arg == "--create-pipeline") {
      create_pipeline = true;
    } else if ((got = value("--entry-point", &v)) != 0) {
      if (got < 0) return kExitUsage;
      entry_point = v;
    } else if (arg == "--lower") {
      lower = true;
    } else if (arg == "--passes-only") {
      options.passes_only = true;
    } else if (arg == "--skip-validation") {
      options.skip_validation = true;
    } else if (arg == "--timing") {
      options.timing_runs = 10;
    } else if ((got = value("--timing", &v)) != 0) {
      if (got < 0 || !ParseCount("--timing", v, 1, &options.timing_runs)) return kExitUsage;
    } else if ((got = value("--warmup", &v)) != 0) {
      if (got < 0 || !ParseCount("--warmup", v, 0, &options.warmup_runs)) return kExitUsage;
    } else if ((got = value("--timeout-ms", &v)) != 0) {
      if (got < 0 || !ParseCount("--timeout-ms", v, 1, &options.fence_timeout_ms)) {
        return kExitUsage;
      }
    } else if ((got = value("--device", &v)) != 0) {
      if (got < 0) return kExitUsage;
      options.device = v;
    } else if ((got = value("--passes", &v)) != 0) {
      if (got < 0 || !ParsePasses(v, &options.passes)) return kExitUsage;
    } else if ((got = value("--write-profile", &v)) != 0) {
      if (got < 0) return kExitUsage;
      write_profile = v;
    } else if ((got = value("--dump-buffers", &v)) != 0) {
      if (got < 0) return kExitUsage;
      dump = v;
    } else if ((got = value("--tolerance", &v)) != 0) {
      char* end = nullptr;
      options.tolerance = got > 0 ? std::strtod(v.c_str(), &end) : -1;
      if (got < 0 || v.empty() || *end != '\0' || !(options.tolerance >= 0)) {
        std::fprintf(stderr, "error: --tolerance needs a number >= 0\n");
        return kExitUsage;
      }
    } else if ((got = value("--target-env", &v)) != 0) {
      if (got < 0) return kExitUsage;
      if (!coopspv::SpirvVersionForTargetEnv(v)) {
        std::fprintf(stderr, "error: unknown target environment '%s' (expected one of %s)\n",
                     v.c_str(), coopspv::TargetEnvNames());
        return kExitUsage;
      }
      options.target_env = v;
    } else if (!TakeInputArgument(arg, &input, &have_input)) {
      return kExitUsage;
    }
  }
  if (list) return ListDevices(json);
  if (!write_profile.empty()) {
    std::string text, error;
    std::vector<std::string> notes;
    if (!coopspv::QueryDeviceProfileJson(options.device, &text, &notes, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return kExitUsage;
    }
    for (const std::string& n : notes) std::fprintf(stderr, "note: %s\n", n.c_str());
    return WriteFile(write_profile, text.data(), text.size()) ? kExitOk : kExitUsage;
  }
  if (!have_input) {
    std::fprintf(stderr, "error: no script (see --help)\n");
    return kExitUsage;
  }
  if (lower) {
    if (!options.passes.empty()) {
      std::fprintf(stderr, "error: --lower and --passes: give one of them\n");
      return kExitUsage;
    }
    // Specialization constants first: the lowering passes need constant dimensions and
    // layouts (coopspv-run bakes each pipeline's SPECIALIZE values in before freezing).
    options.passes.push_back({"freeze-spec-const", ""});
    options.passes.push_back({"fold-spec-const", ""});
    for (const auto& p : coopspv::OptimizerPasses()) {
      for (const char* name : kLoweringPasses) {
        if (p.flag != name) continue;
        // A subgroup-size argument is the device's; an optional one ("=[...]") is left out.
        const bool subgroup = p.argument.find("subgroup size") != std::string::npos;
        options.passes.push_back({p.flag, subgroup ? coopspv::kDeviceSubgroupSize : ""});
      }
    }
    if (options.passes.size() == 2) {
      std::fprintf(
          stderr,
          "error: --lower: this build has none of the lowering passes "
          "(--lower-coop-matrix2, --lower-coop-matrix, --lower-coop-vector); use --passes\n");
      return kExitUsage;
    }
  }
  if (options.passes_only && options.passes.empty()) {
    std::fprintf(stderr, "error: --passes-only needs --passes or --lower\n");
    return kExitUsage;
  }
  std::string text;
  if (!ReadFile(input, &text)) return kExitUsage;
  if (create_pipeline) {
    // The input is a SPIR-V binary module.
    if (text.size() % 4 != 0 || text.size() < 20) {
      std::fprintf(stderr, "error: %s is not a SPIR-V binary (%zu bytes)\n", input.c_str(),
                   text.size());
      return kExitUsage;
    }
    std::vector<uint32_t> words(text.size() / 4);
    std::memcpy(words.data(), text.data(), text.size());
    if (words[0] != 0x07230203u) {
      std::fprintf(stderr, "error: %s is not a SPIR-V binary (magic 0x%08x)\n", input.c_str(),
                   words[0]);
      return kExitUsage;
    }
    const coopspv::RunReport report = coopspv::CreatePipelineForModule(words, entry_point, options);
    if (json) {
      std::fputs(coopspv::FormatRunJson(report).c_str(), stdout);
    } else if (report.status == coopspv::RunReport::kPassed) {
      std::printf("PASS: %s created a compute pipeline for %s\n", report.device_name.c_str(),
                  input.c_str());
    } else {
      std::fprintf(stderr, "error: %s\n", report.error.c_str());
    }
    return report.status == coopspv::RunReport::kPassed ? kExitOk : kExitUsage;
  }
  if (input != "-") {
    const size_t slash = input.rfind('/');
    if (slash != std::string::npos) options.script_directory = input.substr(0, slash);
  }
  const coopspv::RunReport report =
      check ? coopspv::CheckAmberScript(text, options) : coopspv::RunAmberScript(text, options);
  if (json) {
    std::fputs(coopspv::FormatRunJson(report).c_str(), stdout);
  } else if (check) {
    if (report.status == coopspv::RunReport::kError) {
      std::fprintf(stderr, "error: %s\n", report.error.c_str());
    } else if (report.status == coopspv::RunReport::kUnsupported) {
      std::printf("UNSUPPORTED: %s\n", report.error.c_str());
    }
  } else {
    PrintText(report);
  }
  if (!dump.empty() && !check && !report.buffers.empty()) {
    const std::string text = coopspv::FormatBuffersAsAmber(report);
    if (!WriteFile(dump, text.data(), text.size()) && report.status != coopspv::RunReport::kError) {
      return kExitUsage;
    }
  }
  std::fflush(stdout);
  std::fflush(stderr);
  // A RUN that timed out may still be running on the device (a CPU driver's threads spin on):
  // leave without the exit-time teardown that would wait for it.
  if (report.hung) std::_Exit(kExitUsage);
  return report.status == coopspv::RunReport::kPassed        ? kExitOk
         : report.status == coopspv::RunReport::kFailed      ? kExitExpectFailed
         : report.status == coopspv::RunReport::kUnsupported ? kExitUnsupported
                                                             : kExitUsage;
}
