// Helpers for validator tests: assemble a small program, validate it, and look at the rule ids
// of what came back.
#ifndef COOPSPV_TEST_VAL_VAL_TEST_UTIL_H_
#define COOPSPV_TEST_VAL_VAL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
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

// Passes when some diagnostic of `rule` is about an instruction whose text contains `where` and
// its message contains `says`.
inline ::testing::AssertionResult RuleAt(const Result& r, std::string_view rule,
                                         std::string_view where, std::string_view says = "") {
  for (const Diagnostic& d : r.diagnostics) {
    if (rule == d.rule->id && d.has_instruction &&
        d.instruction_text.find(where) != std::string::npos &&
        d.message.find(says) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure() << "no " << rule << " diagnostic on an instruction like '"
                                       << where << "' saying '" << says << "'; got:\n"
                                       << Dump(r);
}

// Every diagnostic is of `rule` (and there is at least one).
inline void ExpectOnly(const Result& r, std::string_view rule) {
  EXPECT_FALSE(r.diagnostics.empty());
  for (const std::string& id : RuleIds(r)) EXPECT_EQ(id, rule) << Dump(r);
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  const size_t e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// `text` with the first occurrence of `from` (anywhere, not only a whole line) replaced by `to`;
// a missing `from` fails the test.
inline std::string Replace(std::string text, std::string_view from, std::string_view to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Replaces the line whose trimmed text is `anchor` with `replacement` (which may hold several
// lines, e.g. the anchor plus an inserted instruction). Fails the test when the anchor is absent.
inline std::string Mutate(const std::string& text, const std::string& anchor,
                          const std::string& replacement) {
  std::istringstream in(text);
  std::string line, out;
  bool found = false;
  while (std::getline(in, line)) {
    if (!found && Trim(line) == anchor) {
      out += replacement + "\n";
      found = true;
    } else {
      out += line + "\n";
    }
  }
  EXPECT_TRUE(found) << "anchor not found: " << anchor;
  return out;
}

// A one-line mutation of a realistic module and the rule it must trigger ("" for a mutation
// that keeps the module valid).
struct Mutation {
  const char* name;
  const char* anchor;
  const char* replacement;
  const char* rule;
};

}  // namespace coopspv::val::testing

// The module is valid and produced no diagnostics at all.
#define EXPECT_CLEAN(result)                                                             \
  do {                                                                                   \
    const auto& r_ = (result);                                                           \
    EXPECT_TRUE(r_.valid&& r_.diagnostics.empty()) << ::coopspv::val::testing::Dump(r_); \
  } while (0)

// The module is invalid and `rule` is among the rules reported.
#define EXPECT_RULE(result, rule)                           \
  do {                                                      \
    const auto& r_ = (result);                              \
    EXPECT_TRUE(::coopspv::val::testing::HasRule(r_, rule)) \
        << "expected rule " << (rule) << ", got:\n"         \
        << ::coopspv::val::testing::Dump(r_);               \
  } while (0)

// The module is invalid, and `rule` is reported on the instruction whose text contains the first
// extra argument, with a message containing the second (optional).
#define EXPECT_RULE_AT(result, rule, ...)                                 \
  do {                                                                    \
    const auto& rr_ = (result);                                           \
    EXPECT_FALSE(rr_.valid) << ::coopspv::val::testing::Dump(rr_);        \
    EXPECT_RULE(rr_, rule);                                               \
    EXPECT_TRUE(::coopspv::val::testing::RuleAt(rr_, rule, __VA_ARGS__)); \
  } while (0)

namespace coopspv::val::testing {

// One instruction of a test module, the environment, and the rule it must trigger ("" when the
// module stays valid): the parameter of table-driven rule tests.
struct InstructionCase {
  const char* instruction;
  const char* env;
  const char* rule;
};

// Checks an InstructionCase's result: clean when `rule` is "", otherwise `rule` is reported (on
// the instruction whose text contains `at`, when given).
inline void ExpectCase(const Result& r, const char* rule, const char* at = nullptr) {
  if (rule[0] == '\0') {
    EXPECT_CLEAN(r);
  } else if (at != nullptr) {
    EXPECT_RULE_AT(r, rule, at);
  } else {
    EXPECT_RULE(r, rule);
  }
}

}  // namespace coopspv::val::testing

#endif  // COOPSPV_TEST_VAL_VAL_TEST_UTIL_H_
