// Fuzzes the optimizer passes (source/opt) through the C++ API: input words -> pass(es) ->
// validate. A pass may refuse an input (a failed pass names why), but on a module that validates
// it must neither crash nor produce a module that does not validate or cannot be rebuilt; on a
// module that does not validate (run with skip_validation) it must not crash.
//
// The words are the module; a tail of 1-3 bytes picks one pass configuration, no tail runs them
// all (so the reader's word-aligned seeds exercise every pass).
// fuzz-corpus: test/fuzz/corpus/reader_fuzz
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "test/fuzz/fuzz_util.h"

namespace {

using namespace coopspv;

struct Configuration {
  std::vector<PassRequest> passes;
  // Whether the passes must keep a valid module valid. New spec-constant values may make it
  // invalid (a matrix dimension of 0): that is the user's request, refused by Optimize.
  bool keeps_valid;
};

const std::vector<Configuration>& Configurations() {
  static const std::vector<Configuration> all = {
      {{{"freeze-spec-const", ""}}, true},
      {{{"fold-spec-const", ""}}, true},
      {{{"fold-coop-length", "32"}}, true},
      {{{"fold-coop-length", "1"}}, true},
      {{{"lower-coop-matrix", "8"}}, true},
      {{{"lower-coop-matrix", "32"}}, true},
      {{{"lower-coop-matrix2", "8"}}, true},
      {{{"lower-coop-matrix2", "16"}, {"lower-coop-matrix", "16"}}, true},
      {{{"eliminate-dead", ""}}, true},
      {{{"compact-ids", ""}}, true},
      {{{"lower-coop-vector", "atomic-float16-add,atomic-float32-add"}}, true},
      {{{"strip-decode-vector", ""}}, true},
      {{{"coop-matrix-nv-to-khr", ""}}, true},
      {{{"coop-matrix-nv-to-khr", ""}, {"lower-coop-matrix", "8"}}, true},
      {{{"set-spec-const-default-value", "0:16 1:8 2:1 3:0"}}, false},
      {{{"freeze-spec-const", ""},
        {"fold-spec-const", ""},
        {"eliminate-dead", ""},
        {"compact-ids", ""}},
       true},
      {{{"set-spec-const-default-value", "0:32"},
        {"fold-spec-const", ""},
        {"fold-coop-length", "16"},
        {"eliminate-dead", ""}},
       false},
  };
  return all;
}

bool Contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

void Run(const std::vector<uint32_t>& words, const Configuration& configuration, bool input_valid,
         const std::string& env) {
  OptimizerOptions options;
  options.target_env = env;
  options.passes = configuration.passes;
  options.skip_validation = !input_valid;
  OptimizeResult result;
  Problem problem;
  const bool ok = Optimize(words, options, &result, &problem);
  if (!input_valid || !configuration.keeps_valid) return;  // Only crashes, leaks, UB count.
  if (ok) {
    FUZZ_CHECK(result.validation.valid);
    return;
  }
  // A valid module may be refused by a pass (e.g. no such SpecId), never broken by one.
  if (Contains(problem.message, "optimized module is invalid") ||
      Contains(problem.message, "could not rebuild")) {
    std::fprintf(stderr, "pass broke a valid module: %s\n", problem.message.c_str());
    for (const auto& d : result.validation.diagnostics) {
      std::fprintf(stderr, "  %s: %s\n", d.rule_id.c_str(), d.message.c_str());
    }
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint32_t> words = fuzz::WordsOf(data, size);
  const size_t tail = size % 4;
  // The environment the module is valid in decides whether the passes must keep it valid.
  const char* env = tail != 0 && (data[size - 1] & 0x80) ? "vulkan1.3" : "spv1.6";
  ValidatorOptions validator;
  validator.target_env = env;
  ValidationResult validation;
  Problem problem;
  const bool input_valid = Validate(words, validator, &validation, &problem) && validation.valid;
  const auto& configurations = Configurations();
  if (tail == 0) {
    for (const auto& c : configurations) Run(words, c, input_valid, env);
  } else {
    Run(words, configurations[data[size - 1] % configurations.size()], input_valid, env);
  }
  return 0;
}
