// Helpers for validator tests: assemble a small program, validate it, and look at the rule ids
// of what came back.
#ifndef COOPSPV_TEST_VAL_VAL_TEST_UTIL_H_
#define COOPSPV_TEST_VAL_VAL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "source/common/target_env.h"
#include "source/text/assembler.h"
#include "source/val/validator.h"

namespace coopspv::val::testing {

// A minimal compute-shader preamble: Shader capability, GLSL450 memory model, one entry point
// %main with LocalSize 1 1 1. Tests append their types and the body of %main (which must define
// %main as a function).
inline constexpr std::string_view kShaderPreamble = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
)";

// Assembles `text` (failing the test if it does not assemble) and validates it.
inline Result ValidateText(std::string_view text, Options options = {}) {
  std::vector<uint32_t> words;
  coopspv::Diagnostic d;
  text::AssembleOptions assemble;
  assemble.version = options.env.spirv_version;
  if (!text::Assemble(text, assemble, &words, &d)) {
    ADD_FAILURE() << "test program does not assemble: " << d.ToString() << "\n" << text;
    return {};
  }
  return Validate(words, options);
}

inline Result ValidateText(std::string_view text, std::string_view env) {
  Options options;
  options.env = *ParseTargetEnv(env);
  return ValidateText(text, options);
}

// The rule ids of all diagnostics, in order.
inline std::vector<std::string> RuleIds(const Result& r) {
  std::vector<std::string> ids;
  for (const auto& d : r.diagnostics) ids.push_back(d.rule->id);
  return ids;
}

// All diagnostics, one per line, for failure messages.
inline std::string Dump(const Result& r) {
  std::string out;
  for (const auto& d : r.diagnostics) {
    out += std::string(d.severity == Severity::kError ? "error: " : "warning: ") + d.rule->id +
           ": " + d.message + "\n";
    if (d.has_instruction) out += "  " + d.instruction_text + "\n";
  }
  return out;
}

inline bool HasRule(const Result& r, std::string_view rule_id) {
  for (const auto& d : r.diagnostics) {
    if (rule_id == d.rule->id) return true;
  }
  return false;
}

}  // namespace coopspv::val::testing

// The module is valid and produced no diagnostics at all.
#define EXPECT_CLEAN(result)                                                             \
  do {                                                                                   \
    const auto& r_ = (result);                                                           \
    EXPECT_TRUE(r_.valid && r_.diagnostics.empty()) << ::coopspv::val::testing::Dump(r_); \
  } while (0)

// The module is invalid and `rule` is among the rules reported.
#define EXPECT_RULE(result, rule)                                                             \
  do {                                                                                        \
    const auto& r_ = (result);                                                                \
    EXPECT_TRUE(::coopspv::val::testing::HasRule(r_, rule))                                   \
        << "expected rule " << (rule) << ", got:\n" << ::coopspv::val::testing::Dump(r_);     \
  } while (0)

#endif  // COOPSPV_TEST_VAL_VAL_TEST_UTIL_H_
