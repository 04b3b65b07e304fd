// Runs optimizer passes on assembly text the way the pass tests need: assemble, optimize with
// validation after each pass, disassemble without header or indentation.
#ifndef COOPSPV_TEST_UTIL_PASS_RUN_H_
#define COOPSPV_TEST_UTIL_PASS_RUN_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"

namespace coopspv::testing {

struct PassRun {
  bool ok = false;
  std::string text;   // Disassembly without header.
  std::string error;  // When !ok.
  size_t words = 0;   // Of the optimized module.
};

inline PassRun RunPasses(const std::string& assembly, const std::vector<PassRequest>& passes,
                         const std::string& env = "vulkan1.3") {
  PassRun run;
  std::vector<uint32_t> words;
  Problem problem;
  if (!Assemble(assembly, {}, &words, &problem)) {
    ADD_FAILURE() << "does not assemble: " << problem.ToString() << "\n" << assembly;
    return run;
  }
  OptimizerOptions options;
  options.target_env = env;
  options.passes = passes;
  options.validate_after_each = true;
  OptimizeResult result;
  if (!coopspv::Optimize(words, options, &result, &problem)) {
    run.error = problem.message;
    for (const auto& d : result.validation.diagnostics) run.error += "\n" + FormatDiagnostic(d);
    return run;
  }
  DisassembleOptions dis;
  dis.header = false;
  dis.indent = false;
  EXPECT_TRUE(Disassemble(result.words, dis, &run.text, &problem)) << problem.message;
  run.words = result.words.size();
  run.ok = true;
  return run;
}

}  // namespace coopspv::testing

#endif  // COOPSPV_TEST_UTIL_PASS_RUN_H_
