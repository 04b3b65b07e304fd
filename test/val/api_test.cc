// Tests of the validator's options and of the public validation APIs: the C++ API of
// include/coopspv/coopspv.hpp and the C API of include/coopspv/coopspv.h.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "include/coopspv/coopspv.h"
#include "include/coopspv/coopspv.hpp"
#include "test/val/val_test_util.h"

namespace coopspv {
namespace {

using val::testing::Dump;
using val::testing::RuleIds;

// A valid compute shader.
constexpr std::string_view kValid = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%two = OpIAdd %uint %uint_1 %uint_1
OpReturn
OpFunctionEnd
)";

// The same shader with one undefined operand (id.undefined on the OpIAdd).
constexpr std::string_view kUndefinedOperand = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %two "two"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%two = OpIAdd %uint %uint_1 %missing
OpReturn
OpFunctionEnd
)";

// Many independent errors: five duplicate integer types and an unknown extension (a warning).
constexpr std::string_view kManyErrors = R"(
OpCapability Shader
OpExtension "SPV_ACME_imaginary_feature"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_a = OpTypeInt 32 0
%uint_b = OpTypeInt 32 0
%uint_c = OpTypeInt 32 0
%uint_d = OpTypeInt 32 0
%uint_e = OpTypeInt 32 0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

// An otherwise valid shader that declares an extension no grammar entry names.
constexpr std::string_view kUnknownExtension = R"(
OpCapability Shader
OpExtension "SPV_ACME_imaginary_feature"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

std::vector<uint32_t> Words(std::string_view text) {
  std::vector<uint32_t> words;
  Problem problem;
  EXPECT_TRUE(Assemble(text, {}, &words, &problem)) << problem.ToString();
  return words;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> RuleIdsOf(const ValidationResult& r) {
  std::vector<std::string> ids;
  for (const auto& d : r.diagnostics) ids.push_back(d.rule_id);
  return ids;
}

std::string DumpOf(const ValidationResult& r) {
  std::string out;
  for (const auto& d : r.diagnostics) out += FormatDiagnostic(d);
  return out;
}

// ---------------------------------------------------------------- val::Options

TEST(ValidatorOptions, MaxErrorsTruncates) {
  val::Options options;
  EXPECT_EQ(val::testing::ValidateText(kManyErrors, options).num_errors, 5u);
  options.max_errors = 2;
  const val::Result r = val::testing::ValidateText(kManyErrors, options);
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.num_errors, 2u);
  // The warning comes first and does not count.
  EXPECT_EQ(RuleIds(r),
            (std::vector<std::string>{"layout.extension-unknown", "type.unique", "type.unique"}))
      << Dump(r);
}

TEST(ValidatorOptions, MaxErrorsZeroMeansNoLimit) {
  val::Options options;
  options.max_errors = 0;
  const val::Result r = val::testing::ValidateText(kManyErrors, options);
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.num_errors, 5u);
  EXPECT_EQ(r.num_warnings, 1u);
}

TEST(ValidatorOptions, MaxErrorsAboveTheCountDoesNotTruncate) {
  val::Options options;
  options.max_errors = 6;
  const val::Result r = val::testing::ValidateText(kManyErrors, options);
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.num_errors, 5u);
}

TEST(ValidatorOptions, SuppressedRuleIsDropped) {
  val::Options options;
  options.suppressed_rules = {"type.unique"};
  const val::Result r = val::testing::ValidateText(kManyErrors, options);
  EXPECT_TRUE(r.valid) << Dump(r);
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"layout.extension-unknown"}) << Dump(r);
  EXPECT_EQ(r.num_errors, 0u);
}

TEST(ValidatorOptions, SuppressedRuleLeavesOtherRules) {
  val::Options options;
  options.suppressed_rules = {"layout.extension-unknown"};
  const val::Result r = val::testing::ValidateText(kManyErrors, options);
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(r.num_warnings, 0u);
  EXPECT_EQ(r.num_errors, 5u);
  EXPECT_FALSE(val::testing::HasRule(r, "layout.extension-unknown")) << Dump(r);
}

TEST(ValidatorOptions, WarningsAsErrorsByRuleId) {
  val::Options options;
  EXPECT_TRUE(val::testing::ValidateText(kUnknownExtension, options).valid);
  options.warnings_as_errors = {"layout.extension-unknown"};
  const val::Result r = val::testing::ValidateText(kUnknownExtension, options);
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(r.num_errors, 1u);
  EXPECT_EQ(r.num_warnings, 0u);
  ASSERT_EQ(RuleIds(r), std::vector<std::string>{"layout.extension-unknown"}) << Dump(r);
  EXPECT_EQ(r.diagnostics[0].severity, val::Severity::kError);
}

TEST(ValidatorOptions, AllWarningsAsErrors) {
  val::Options options;
  options.warnings_as_errors = {"*"};
  const val::Result r = val::testing::ValidateText(kUnknownExtension, options);
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(r.num_errors, 1u);
}

TEST(ValidatorOptions, WarningsAsErrorsForAnotherRuleKeepsTheWarning) {
  val::Options options;
  options.warnings_as_errors = {"type.unique"};
  const val::Result r = val::testing::ValidateText(kUnknownExtension, options);
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(r.num_warnings, 1u);
}

// ---------------------------------------------------------------- the C++ API

TEST(CppApi, CorpusModuleIsValid) {
  const auto words = Words(ReadFile("test/data/corpus/khr_gemm_specdims.spvasm"));
  ValidatorOptions options;
  options.target_env = "vulkan1.3";
  ValidationResult result;
  Problem problem;
  ASSERT_TRUE(Validate(words, options, &result, &problem)) << problem.ToString();
  EXPECT_TRUE(result.valid) << DumpOf(result);
  EXPECT_EQ(result.errors, 0u);
  EXPECT_EQ(result.warnings, 0u);
  EXPECT_TRUE(result.diagnostics.empty()) << DumpOf(result);
  EXPECT_FALSE(result.truncated);
}

TEST(CppApi, DeviceProfileRunsTheDeviceRules) {
  const auto words = Words(ReadFile("test/data/corpus/khr_gemm_specdims.spvasm"));
  ValidatorOptions options;
  options.target_env = "vulkan1.3";
  Problem problem;
  ASSERT_TRUE(LoadDeviceProfile("lavapipe", &options.device_profile, &problem))
      << problem.ToString();
  ValidationResult result;
  ASSERT_TRUE(Validate(words, options, &result, &problem)) << problem.ToString();
  EXPECT_FALSE(result.valid);
  bool capability = false;
  for (const auto& d : result.diagnostics) capability |= d.rule_id == "device.capability";
  EXPECT_TRUE(capability) << DumpOf(result);
  EXPECT_FALSE(LoadDeviceProfile("no-such-device", &options.device_profile, &problem));
  EXPECT_NE(problem.message.find("neither a built-in device profile"), std::string::npos);
  EXPECT_FALSE(LoadDeviceProfile(R"({"format": "coopspv-device-profile", "version": 1, "x": 1})",
                                 &options.device_profile, &problem));
  EXPECT_EQ(problem.message, "device profile: x: unknown key");
}

TEST(CppApi, InvalidModuleIsASuccessfulValidation) {
  const auto words = Words(kUndefinedOperand);
  ValidationResult result;
  Problem problem;
  ASSERT_TRUE(Validate(words, {}, &result, &problem)) << problem.ToString();
  EXPECT_FALSE(result.valid);
  EXPECT_EQ(result.errors, 1u);
  ASSERT_EQ(RuleIdsOf(result), std::vector<std::string>{"id.undefined"}) << DumpOf(result);
  const ValidationDiagnostic& d = result.diagnostics[0];
  EXPECT_TRUE(d.is_error);
  EXPECT_FALSE(d.clause.empty());
  EXPECT_TRUE(d.has_instruction);
  EXPECT_EQ(d.opcode, static_cast<uint32_t>(spv::Op::IAdd));
  EXPECT_NE(d.result_id, 0u);
  EXPECT_NE(d.instruction.find("%two = OpIAdd %uint %uint_1"), std::string::npos) << d.instruction;
  EXPECT_EQ((words[d.word_offset] & 0xFFFF), static_cast<uint32_t>(spv::Op::IAdd));
  EXPECT_EQ(words[d.word_offset + 2], d.result_id);
}

TEST(CppApi, FormatDiagnostic) {
  ValidationResult result;
  Problem problem;
  ASSERT_TRUE(Validate(Words(kUndefinedOperand), {}, &result, &problem));
  ASSERT_EQ(result.diagnostics.size(), 1u);
  const std::string text = FormatDiagnostic(result.diagnostics[0]);
  EXPECT_EQ(text.rfind("error: id.undefined: ", 0), 0u) << text;
  EXPECT_NE(text.find("[" + result.diagnostics[0].clause + "]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  %two = OpIAdd"), std::string::npos) << text;
}

TEST(CppApi, FormatDiagnosticOfAWarningWithoutInstruction) {
  ValidationDiagnostic d;
  d.is_error = false;
  d.rule_id = "layout.entry-point";
  d.message = "m";
  d.clause = "c";
  EXPECT_EQ(FormatDiagnostic(d), "warning: layout.entry-point: m [c]\n");
}

TEST(CppApi, FormatJson) {
  ValidationResult result;
  Problem problem;
  ASSERT_TRUE(Validate(Words(kUndefinedOperand), {}, &result, &problem));
  const std::string json = FormatJson(result);
  EXPECT_EQ(json.rfind("{\"valid\": false, \"errors\": 1, \"warnings\": 0", 0), 0u) << json;
  EXPECT_NE(json.find("\"rule\": \"id.undefined\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"severity\": \"error\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"opcode\": " + std::to_string(static_cast<uint32_t>(spv::Op::IAdd))),
            std::string::npos)
      << json;
}

TEST(CppApi, FormatJsonOfAValidModule) {
  ValidationResult result;
  Problem problem;
  ASSERT_TRUE(Validate(Words(kValid), {}, &result, &problem));
  EXPECT_EQ(FormatJson(result),
            "{\"valid\": true, \"errors\": 0, \"warnings\": 0, \"truncated\": false, "
            "\"diagnostics\": []}\n");
}

TEST(CppApi, FormatJsonEscapesQuotes) {
  // entry-point.duplicate's message quotes the entry point's name.
  const auto words = Words(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  ValidationResult result;
  Problem problem;
  ASSERT_TRUE(Validate(words, {}, &result, &problem));
  const std::string json = FormatJson(result);
  EXPECT_NE(json.find("\"rule\": \"entry-point.duplicate\""), std::string::npos) << json;
  EXPECT_NE(json.find("named \\\"main\\\""), std::string::npos) << json;
}

TEST(CppApi, UnknownTargetEnvironmentIsAProblem) {
  ValidatorOptions options;
  options.target_env = "vulkan9.9";
  ValidationResult result;
  Problem problem;
  EXPECT_FALSE(Validate(Words(kValid), options, &result, &problem));
  EXPECT_NE(problem.message.find("unknown target environment 'vulkan9.9'"), std::string::npos)
      << problem.message;
}

TEST(CppApi, UnknownRuleIdIsAProblem) {
  ValidatorOptions options;
  options.suppressed_rules = {"id.undefined", "id.no-such-rule"};
  ValidationResult result;
  Problem problem;
  EXPECT_FALSE(Validate(Words(kValid), options, &result, &problem));
  EXPECT_NE(problem.message.find("unknown rule id 'id.no-such-rule'"), std::string::npos)
      << problem.message;

  options.suppressed_rules.clear();
  options.warnings_as_errors = {"layout.unknown-thing"};
  problem = {};
  EXPECT_FALSE(Validate(Words(kValid), options, &result, &problem));
  EXPECT_NE(problem.message.find("layout.unknown-thing"), std::string::npos) << problem.message;

  options.warnings_as_errors = {"*"};
  EXPECT_TRUE(Validate(Words(kValid), options, &result, &problem)) << problem.message;
}

TEST(CppApi, OptionsReachTheValidator) {
  ValidatorOptions options;
  options.max_errors = 2;
  ValidationResult result;
  Problem problem;
  ASSERT_TRUE(Validate(Words(kManyErrors), options, &result, &problem));
  EXPECT_TRUE(result.truncated);
  EXPECT_EQ(result.errors, 2u);
  EXPECT_EQ(result.warnings, 1u);

  options = {};
  options.suppressed_rules = {"type.unique"};
  options.warnings_as_errors = {"layout.extension-unknown"};
  ASSERT_TRUE(Validate(Words(kManyErrors), options, &result, &problem));
  EXPECT_FALSE(result.valid);
  ASSERT_EQ(RuleIdsOf(result), std::vector<std::string>{"layout.extension-unknown"})
      << DumpOf(result);
  EXPECT_TRUE(result.diagnostics[0].is_error);

  options = {};
  options.target_env = "vulkan1.1";  // The module is SPIR-V 1.6.
  ASSERT_TRUE(Validate(Words(kValid), options, &result, &problem));
  EXPECT_EQ(RuleIdsOf(result), std::vector<std::string>{"layout.version"}) << DumpOf(result);
}

TEST(CppApi, RuleListMatchesTheRegistry) {
  const std::vector<RuleInfo> rules = ValidationRules();
  ASSERT_EQ(rules.size(), val::AllRules().size());
  std::set<std::string> ids;
  for (const RuleInfo& r : rules) {
    ids.insert(r.id);
    EXPECT_TRUE(r.severity == "error" || r.severity == "warning") << r.id;
    EXPECT_FALSE(r.clause.empty()) << r.id;
    EXPECT_FALSE(r.summary.empty()) << r.id;
    if (r.id == "layout.extension-unknown") {
      EXPECT_EQ(r.severity, "warning");
    }
  }
  for (const char* id : {"binary.malformed", "id.undefined", "ssa.phi", "constant.spec-op"}) {
    EXPECT_TRUE(ids.count(id)) << id;
  }
}

// ---------------------------------------------------------------- binary.malformed

TEST(BinaryMalformed, GarbageWordsAreMalformed) {
  const std::vector<uint32_t> garbage = {0xDEADBEEF, 0x12345678, 0x0BADF00D};
  ValidationResult result;
  Problem problem;
  ASSERT_TRUE(Validate(garbage, {}, &result, &problem));
  EXPECT_FALSE(result.valid);
  ASSERT_EQ(RuleIdsOf(result), std::vector<std::string>{"binary.malformed"}) << DumpOf(result);
  EXPECT_FALSE(result.diagnostics[0].has_instruction);
  EXPECT_NE(result.diagnostics[0].message.find("truncated header"), std::string::npos)
      << result.diagnostics[0].message;
}

TEST(BinaryMalformed, WrongMagicNumber) {
  auto words = Words(kValid);
  words[0] = 0x07230204;
  ValidationResult result;
  Problem problem;
  ASSERT_TRUE(Validate(words, {}, &result, &problem));
  ASSERT_EQ(RuleIdsOf(result), std::vector<std::string>{"binary.malformed"}) << DumpOf(result);
  EXPECT_NE(result.diagnostics[0].message.find("magic"), std::string::npos);
}

TEST(BinaryMalformed, TruncatedInstruction) {
  auto words = Words(kValid);
  // The last instruction promises five words; the module ends after its first.
  words.push_back(0x00050000 | static_cast<uint32_t>(spv::Op::IAdd));
  ValidationResult result;
  Problem problem;
  ASSERT_TRUE(Validate(words, {}, &result, &problem));
  EXPECT_FALSE(result.valid);
  EXPECT_EQ(RuleIdsOf(result), std::vector<std::string>{"binary.malformed"}) << DumpOf(result);
}

TEST(BinaryMalformed, ByteSwappedModuleIsNotMalformed) {
  auto words = Words(kValid);
  for (uint32_t& w : words) w = __builtin_bswap32(w);
  ValidationResult result;
  Problem problem;
  ASSERT_TRUE(Validate(words, {}, &result, &problem));
  EXPECT_TRUE(result.valid) << DumpOf(result);
  EXPECT_TRUE(result.diagnostics.empty()) << DumpOf(result);
}

// ---------------------------------------------------------------- the C API

// Owns a context or result; destroys it at scope exit.
struct ContextDeleter {
  void operator()(coopspv_context* c) const { coopspv_context_destroy(c); }
};
struct ResultDeleter {
  void operator()(coopspv_result* r) const { coopspv_result_destroy(r); }
};
using Context = std::unique_ptr<coopspv_context, ContextDeleter>;
using CResult = std::unique_ptr<coopspv_result, ResultDeleter>;

std::vector<std::string> RuleIdsOf(const coopspv_result* r) {
  std::vector<std::string> ids;
  for (size_t i = 0; i < coopspv_result_diagnostic_count(r); ++i) {
    ids.push_back(coopspv_result_diagnostic(r, i)->rule_id);
  }
  return ids;
}

TEST(CApi, Version) {
  ASSERT_NE(coopspv_version(), nullptr);
  EXPECT_EQ(std::string(coopspv_version()).rfind("coopspv ", 0), 0u);
}

TEST(CApi, ValidModule) {
  Context ctx(coopspv_context_create("vulkan1.3"));
  ASSERT_NE(ctx, nullptr);
  const auto words = Words(kValid);
  CResult r(coopspv_validate(ctx.get(), words.data(), words.size()));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(coopspv_result_valid(r.get()), 1);
  EXPECT_EQ(coopspv_result_diagnostic_count(r.get()), 0u);
  EXPECT_EQ(coopspv_result_diagnostic(r.get(), 0), nullptr);
}

TEST(CApi, DeviceProfile) {
  Context ctx(coopspv_context_create("vulkan1.3"));
  ASSERT_NE(ctx, nullptr);
  const auto words = Words(ReadFile("test/data/corpus/khr_gemm_specdims.spvasm"));
  EXPECT_EQ(coopspv_context_set_device_profile(ctx.get(), "lavapipe"), 0);
  CResult r(coopspv_validate(ctx.get(), words.data(), words.size()));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(coopspv_result_valid(r.get()), 0);
  const auto ids = RuleIdsOf(r.get());
  EXPECT_NE(std::find(ids.begin(), ids.end(), "device.extension"), ids.end());
  // Off again: the module is valid SPIR-V for Vulkan 1.3.
  EXPECT_EQ(coopspv_context_set_device_profile(ctx.get(), nullptr), 0);
  CResult clean(coopspv_validate(ctx.get(), words.data(), words.size()));
  EXPECT_EQ(coopspv_result_valid(clean.get()), 1);
  EXPECT_EQ(coopspv_context_set_device_profile(ctx.get(), "no-such-device"), -1);
  EXPECT_EQ(coopspv_context_set_device_profile(ctx.get(), "{\"format\": 1}"), -1);
  EXPECT_EQ(coopspv_context_set_device_profile(nullptr, "lavapipe"), -1);
}

TEST(CApi, InvalidModuleDiagnostics) {
  Context ctx(coopspv_context_create("spv1.6"));
  ASSERT_NE(ctx, nullptr);
  const auto words = Words(kUndefinedOperand);
  CResult r(coopspv_validate(ctx.get(), words.data(), words.size()));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(coopspv_result_valid(r.get()), 0);
  ASSERT_EQ(coopspv_result_diagnostic_count(r.get()), 1u);
  const coopspv_diagnostic* d = coopspv_result_diagnostic(r.get(), 0);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->severity, COOPSPV_SEVERITY_ERROR);
  ASSERT_NE(d->rule_id, nullptr);
  ASSERT_NE(d->message, nullptr);
  ASSERT_NE(d->clause, nullptr);
  ASSERT_NE(d->instruction, nullptr);
  EXPECT_STREQ(d->rule_id, "id.undefined");
  EXPECT_NE(std::strstr(d->message, "is not defined"), nullptr) << d->message;
  EXPECT_GT(std::strlen(d->clause), 0u);
  EXPECT_EQ(d->has_instruction, 1);
  EXPECT_EQ(d->opcode, static_cast<uint32_t>(spv::Op::IAdd));
  EXPECT_EQ(words[d->word_offset + 2], d->result_id);
  EXPECT_NE(std::strstr(d->instruction, "OpIAdd"), nullptr) << d->instruction;
  EXPECT_EQ(coopspv_result_diagnostic(r.get(), 1), nullptr);
}

TEST(CApi, WarningSeverity) {
  Context ctx(coopspv_context_create("spv1.6"));
  const auto words = Words(kUnknownExtension);
  CResult r(coopspv_validate(ctx.get(), words.data(), words.size()));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(coopspv_result_valid(r.get()), 1);
  ASSERT_EQ(coopspv_result_diagnostic_count(r.get()), 1u);
  EXPECT_EQ(coopspv_result_diagnostic(r.get(), 0)->severity, COOPSPV_SEVERITY_WARNING);
  EXPECT_STREQ(coopspv_result_diagnostic(r.get(), 0)->rule_id, "layout.extension-unknown");
}

TEST(CApi, SuppressRule) {
  Context ctx(coopspv_context_create("spv1.6"));
  ASSERT_NE(ctx, nullptr);
  EXPECT_EQ(coopspv_context_suppress_rule(ctx.get(), "id.no-such-rule"), -1);
  EXPECT_EQ(coopspv_context_suppress_rule(ctx.get(), "id.undefined"), 0);
  const auto words = Words(kUndefinedOperand);
  CResult r(coopspv_validate(ctx.get(), words.data(), words.size()));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(coopspv_result_valid(r.get()), 1);
  EXPECT_EQ(coopspv_result_diagnostic_count(r.get()), 0u);
}

TEST(CApi, MaxErrors) {
  Context ctx(coopspv_context_create("spv1.6"));
  ASSERT_NE(ctx, nullptr);
  const auto words = Words(kManyErrors);
  EXPECT_EQ(coopspv_context_set_max_errors(ctx.get(), 2), 0);
  CResult r(coopspv_validate(ctx.get(), words.data(), words.size()));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(RuleIdsOf(r.get()),
            (std::vector<std::string>{"layout.extension-unknown", "type.unique", "type.unique"}));
  EXPECT_EQ(coopspv_context_set_max_errors(ctx.get(), 0), 0);
  CResult all(coopspv_validate(ctx.get(), words.data(), words.size()));
  EXPECT_EQ(coopspv_result_diagnostic_count(all.get()), 6u);
}

TEST(CApi, UnknownEnvironmentGivesNoContext) {
  EXPECT_EQ(coopspv_context_create("vulkan9.9"), nullptr);
  EXPECT_EQ(coopspv_context_create(""), nullptr);
  EXPECT_EQ(coopspv_context_create(nullptr), nullptr);
}

TEST(CApi, NullHandlesAreSafe) {
  coopspv_context_destroy(nullptr);
  coopspv_result_destroy(nullptr);
  EXPECT_EQ(coopspv_context_set_max_errors(nullptr, 1), -1);
  EXPECT_EQ(coopspv_context_suppress_rule(nullptr, "id.undefined"), -1);
  EXPECT_EQ(coopspv_result_valid(nullptr), 0);
  EXPECT_EQ(coopspv_result_diagnostic_count(nullptr), 0u);
  EXPECT_EQ(coopspv_result_diagnostic(nullptr, 0), nullptr);
  const auto words = Words(kValid);
  EXPECT_EQ(coopspv_validate(nullptr, words.data(), words.size()), nullptr);

  Context ctx(coopspv_context_create("spv1.6"));
  ASSERT_NE(ctx, nullptr);
  EXPECT_EQ(coopspv_context_suppress_rule(ctx.get(), nullptr), -1);
  EXPECT_EQ(coopspv_validate(ctx.get(), nullptr, 5), nullptr);
  // No words at all: a malformed (empty) module, not a crash.
  CResult empty(coopspv_validate(ctx.get(), nullptr, 0));
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(coopspv_result_valid(empty.get()), 0);
  EXPECT_EQ(RuleIdsOf(empty.get()), std::vector<std::string>{"binary.malformed"});
}

TEST(CApi, GarbageWordsAreMalformedNotACrash) {
  Context ctx(coopspv_context_create("vulkan1.3"));
  ASSERT_NE(ctx, nullptr);
  const std::vector<std::vector<uint32_t>> inputs = {
      {0xDEADBEEF, 0x12345678, 0x0BADF00D},                 // Three random words.
      {0x07230203, 0x00010600, 0, 10, 0, 0xFFFFFFFF},       // A word count past the end.
      {0x07230203, 0x00010600, 0, 0, 0},                    // Id bound 0.
      {0x07230204, 0x00010600, 0, 10, 0},                   // Wrong magic.
      {0x07230203, 0x00010600, 0, 10, 0, 0x00000000},       // A zero word count.
      {0x07230203, 0x00010600, 0, 10, 0, 0x0002FFFF, 0x1},  // An unknown opcode.
  };
  for (const auto& words : inputs) {
    SCOPED_TRACE(::testing::PrintToString(words));
    CResult r(coopspv_validate(ctx.get(), words.data(), words.size()));
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(coopspv_result_valid(r.get()), 0);
    ASSERT_GE(coopspv_result_diagnostic_count(r.get()), 1u);
    const coopspv_diagnostic* d = coopspv_result_diagnostic(r.get(), 0);
    EXPECT_STREQ(d->rule_id, "binary.malformed");
    EXPECT_NE(d->message, nullptr);
    EXPECT_NE(d->instruction, nullptr);
  }
  // A valid module cut anywhere is malformed or invalid, never a crash.
  const auto words = Words(kValid);
  for (size_t n = 0; n < words.size(); ++n) {
    CResult r(coopspv_validate(ctx.get(), words.data(), n));
    ASSERT_NE(r, nullptr) << n;
    EXPECT_EQ(coopspv_result_valid(r.get()), 0) << n;
  }
}

TEST(CApi, MutatedCorpusModulesDoNotCrash) {
  // Deterministic mutations (one to three words replaced) of a realistic module: every result
  // is a result, and every diagnostic names a rule.
  const auto original = Words(ReadFile("test/data/corpus/khr_arith_funcs.spvasm"));
  ASSERT_GT(original.size(), 100u);
  Context ctx(coopspv_context_create("vulkan1.3"));
  ASSERT_NE(ctx, nullptr);
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state >> 33);
  };
  for (int i = 0; i < 3000; ++i) {
    auto words = original;
    const int edits = 1 + next() % 3;
    for (int e = 0; e < edits; ++e) {
      const size_t at = 5 + next() % (words.size() - 5);
      switch (next() % 4) {
        case 0:
          words[at] = next();
          break;
        case 1:
          words[at] = next() % 256;  // Small values hit ids and enumerants.
          break;
        case 2:
          words[at] ^= 1u << (next() % 32);
          break;
        default:
          words[at] = (words[at] & 0xFFFF0000u) | (next() % 400);  // Another opcode.
          break;
      }
    }
    CResult r(coopspv_validate(ctx.get(), words.data(), words.size()));
    ASSERT_NE(r, nullptr) << "mutation " << i;
    for (size_t k = 0; k < coopspv_result_diagnostic_count(r.get()); ++k) {
      const coopspv_diagnostic* d = coopspv_result_diagnostic(r.get(), k);
      ASSERT_NE(d->rule_id, nullptr);
      ASSERT_NE(d->message, nullptr);
    }
  }
}

TEST(CApi, OneContextValidatesConcurrently) {
  const auto valid = Words(ReadFile("test/data/corpus/khr_gemm_specdims.spvasm"));
  const auto invalid = Words(kManyErrors);
  Context ctx(coopspv_context_create("vulkan1.3"));
  ASSERT_NE(ctx, nullptr);
  ASSERT_EQ(coopspv_context_set_max_errors(ctx.get(), 0), 0);

  struct Outcome {
    std::vector<int> valid;
    std::vector<std::vector<std::string>> rules;
  };
  constexpr int kThreads = 4;
  constexpr int kRounds = 25;
  std::vector<Outcome> outcomes(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRounds; ++i) {
        const auto& words = (i + t) % 2 ? invalid : valid;
        coopspv_result* r = coopspv_validate(ctx.get(), words.data(), words.size());
        outcomes[t].valid.push_back(coopspv_result_valid(r));
        outcomes[t].rules.push_back(r ? RuleIdsOf(r) : std::vector<std::string>{"<null>"});
        coopspv_result_destroy(r);
      }
    });
  }
  for (auto& thread : threads) thread.join();

  CResult valid_alone(coopspv_validate(ctx.get(), valid.data(), valid.size()));
  CResult invalid_alone(coopspv_validate(ctx.get(), invalid.data(), invalid.size()));
  ASSERT_EQ(coopspv_result_valid(valid_alone.get()), 1);
  ASSERT_EQ(coopspv_result_valid(invalid_alone.get()), 0);
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kRounds; ++i) {
      const bool is_invalid = (i + t) % 2;
      const coopspv_result* alone = is_invalid ? invalid_alone.get() : valid_alone.get();
      EXPECT_EQ(outcomes[t].valid[i], coopspv_result_valid(alone)) << t << " " << i;
      EXPECT_EQ(outcomes[t].rules[i], RuleIdsOf(alone)) << t << " " << i;
    }
  }
}

}  // namespace
}  // namespace coopspv
