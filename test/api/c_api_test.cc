// The C API's growth for drivers: reusable results (counted allocations), validation in place,
// the optimizer with a pass list, the version. The basic C API is tested in test/val/api_test.cc.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "include/coopspv/coopspv.h"
#include "include/coopspv/coopspv.hpp"
#include "source/val/validator.h"

// Every allocation of this test binary is counted, so that a test can tell how many a call made.
namespace {
size_t g_allocations = 0;
}  // namespace

void* operator new(size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept {
  return operator new(size, tag);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace {

struct ContextDeleter {
  void operator()(coopspv_context* c) const { coopspv_context_destroy(c); }
};
struct ResultDeleter {
  void operator()(coopspv_result* r) const { coopspv_result_destroy(r); }
};
struct OptimizedDeleter {
  void operator()(coopspv_optimized* o) const { coopspv_optimized_destroy(o); }
};
using Context = std::unique_ptr<coopspv_context, ContextDeleter>;
using Result = std::unique_ptr<coopspv_result, ResultDeleter>;
using Optimized = std::unique_ptr<coopspv_optimized, OptimizedDeleter>;

std::vector<uint32_t> Assemble(std::string_view text) {
  std::vector<uint32_t> words;
  coopspv::Problem problem;
  EXPECT_TRUE(coopspv::Assemble(text, {}, &words, &problem)) << problem.ToString();
  return words;
}

std::vector<uint32_t> AssembleFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << path;
  return Assemble(text.str());
}

// Two id.undefined errors.
constexpr char kTwoErrors[] = "test/api/data/undefined_operands.spvasm";

TEST(CApi, VersionMatchesTheHeader) {
  char expected[64];
  std::snprintf(expected, sizeof(expected), "coopspv %d.%d.%d", COOPSPV_VERSION_MAJOR,
                COOPSPV_VERSION_MINOR, COOPSPV_VERSION_PATCH);
  EXPECT_STREQ(coopspv_version(), expected);
}

TEST(CApi, ResultCreatedEmptyIsNotValid) {
  Result r(coopspv_result_create());
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(coopspv_result_valid(r.get()), 0);
  EXPECT_EQ(coopspv_result_diagnostic_count(r.get()), 0u);
}

TEST(CApi, ValidateIntoReplacesWhatTheResultHeld) {
  Context ctx(coopspv_context_create("vulkan1.3"));
  const std::vector<uint32_t> bad = AssembleFile(kTwoErrors);
  const std::vector<uint32_t> good = AssembleFile("examples/tiled_gemm.spvasm");
  Result r(coopspv_result_create());
  ASSERT_EQ(coopspv_validate_into(ctx.get(), bad.data(), bad.size(), r.get()), 0);
  EXPECT_EQ(coopspv_result_valid(r.get()), 0);
  ASSERT_EQ(coopspv_result_diagnostic_count(r.get()), 2u);
  EXPECT_STREQ(coopspv_result_diagnostic(r.get(), 1)->rule_id, "id.undefined");
  ASSERT_EQ(coopspv_validate_into(ctx.get(), good.data(), good.size(), r.get()), 0);
  EXPECT_EQ(coopspv_result_valid(r.get()), 1);
  EXPECT_EQ(coopspv_result_diagnostic_count(r.get()), 0u);
  EXPECT_EQ(coopspv_result_diagnostic(r.get(), 0), nullptr);
  // Bad arguments fail and leave an invalid, empty result.
  EXPECT_EQ(coopspv_validate_into(nullptr, good.data(), good.size(), r.get()), -1);
  EXPECT_EQ(coopspv_result_valid(r.get()), 0);
  EXPECT_EQ(coopspv_validate_into(ctx.get(), nullptr, 5, r.get()), -1);
  EXPECT_EQ(coopspv_validate_into(ctx.get(), good.data(), good.size(), nullptr), -1);
}

// A PushConstant Block whose vec3 member sits at offset 8: std430 needs 16, relaxed layout (the
// default from Vulkan 1.1) rejects a vec3 across a 16-byte boundary, scalar layout needs 4.
constexpr char kPackedPushConstant[] = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpMemberDecorate %S 0 Offset 0
               OpMemberDecorate %S 1 Offset 8
               OpDecorate %S Block
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
         %v3 = OpTypeVector %float 3
          %S = OpTypeStruct %float %v3
          %p = OpTypePointer PushConstant %S
          %v = OpVariable %p PushConstant
       %main = OpFunction %void None %fn
          %l = OpLabel
               OpReturn
               OpFunctionEnd
)";

TEST(CApi, BlockLayoutFlags) {
  Context ctx(coopspv_context_create("vulkan1.3"));
  const std::vector<uint32_t> words = Assemble(kPackedPushConstant);
  auto first_rule = [&]() -> std::string {
    Result r(coopspv_validate(ctx.get(), words.data(), words.size()));
    if (r == nullptr || coopspv_result_diagnostic_count(r.get()) == 0) return "";
    return coopspv_result_diagnostic(r.get(), 0)->rule_id;
  };
  EXPECT_EQ(first_rule(), "block-layout.offset");
  ASSERT_EQ(coopspv_context_set_block_layout(ctx.get(), COOPSPV_BLOCK_LAYOUT_SCALAR), 0);
  EXPECT_EQ(first_rule(), "");
  // Relaxed layout is already the default in Vulkan 1.3 and still rejects the straddling vec3.
  ASSERT_EQ(coopspv_context_set_block_layout(ctx.get(), COOPSPV_BLOCK_LAYOUT_RELAX), 0);
  EXPECT_EQ(first_rule(), "block-layout.offset");
  ASSERT_EQ(coopspv_context_set_block_layout(ctx.get(), COOPSPV_BLOCK_LAYOUT_SKIP), 0);
  EXPECT_EQ(first_rule(), "");
  // Flags replace those set before; an unknown bit or a NULL context fails and changes nothing.
  ASSERT_EQ(coopspv_context_set_block_layout(ctx.get(), COOPSPV_BLOCK_LAYOUT_DEFAULT), 0);
  EXPECT_EQ(first_rule(), "block-layout.offset");
  EXPECT_EQ(coopspv_context_set_block_layout(ctx.get(), COOPSPV_BLOCK_LAYOUT_SCALAR | (1u << 9)),
            -1);
  EXPECT_EQ(first_rule(), "block-layout.offset");
  EXPECT_EQ(coopspv_context_set_block_layout(nullptr, COOPSPV_BLOCK_LAYOUT_SCALAR), -1);
}

// The validator's own allocations for a module (its working state and the diagnostics it
// builds), counted on the internal entry point.
size_t ValidatorAllocations(const std::vector<uint32_t>& words, std::string_view env) {
  coopspv::val::Options options;
  options.env = *coopspv::ParseTargetEnv(env);
  const size_t before = g_allocations;
  const coopspv::val::Result r = coopspv::val::Validate(words, options);
  return g_allocations - before;
}

// test/api:reuse_test checks the whole corpus; this is the short story on one module each way.
TEST(CApi, ReusedResultAllocatesNothingTheSecondTime) {
  Context ctx(coopspv_context_create("vulkan1.3"));
  for (const bool invalid : {false, true}) {
    SCOPED_TRACE(invalid ? "invalid module" : "valid module");
    const std::vector<uint32_t> words =
        invalid ? AssembleFile(kTwoErrors) : AssembleFile("examples/tiled_gemm.spvasm");
    const size_t validator = ValidatorAllocations(words, "vulkan1.3");
    ASSERT_GT(validator, 0u);

    Result r(coopspv_result_create());
    size_t before = g_allocations;
    ASSERT_EQ(coopspv_validate_into(ctx.get(), words.data(), words.size(), r.get()), 0);
    const size_t first = g_allocations - before;
    const std::string message = invalid ? coopspv_result_diagnostic(r.get(), 0)->message : "";

    before = g_allocations;
    ASSERT_EQ(coopspv_validate_into(ctx.get(), words.data(), words.size(), r.get()), 0);
    const size_t second = g_allocations - before;
    EXPECT_EQ(second, 0u) << "first call: " << first;
    std::printf(
        "%s: %zu allocations by the validator without a workspace, %zu by a first call, "
        "%zu by a second\n",
        invalid ? "invalid" : "valid", validator, first, second);
    EXPECT_GT(first, 0u);
    if (invalid) {
      ASSERT_EQ(coopspv_result_diagnostic_count(r.get()), 2u);
      EXPECT_EQ(coopspv_result_diagnostic(r.get(), 0)->message, message);
    }
    // A fresh result each time allocates again.
    before = g_allocations;
    Result fresh(coopspv_validate(ctx.get(), words.data(), words.size()));
    EXPECT_GT(g_allocations - before, 0u);
  }
}

TEST(CApi, OptimizeRunsThePassList) {
  Context ctx(coopspv_context_create("vulkan1.3"));
  const std::vector<uint32_t> words = AssembleFile("examples/tiled_gemm.spvasm");
  const char* passes[] = {"--set-spec-const-default-value=1:32 2:32", "freeze-spec-const",
                          "fold-spec-const", "--eliminate-dead", "compact-ids"};
  Optimized o(coopspv_optimize(ctx.get(), words.data(), words.size(), passes, 5));
  ASSERT_NE(o, nullptr);
  ASSERT_EQ(coopspv_optimized_ok(o.get()), 1) << coopspv_optimized_error(o.get());
  EXPECT_STREQ(coopspv_optimized_error(o.get()), "");
  size_t count = 0;
  const uint32_t* out = coopspv_optimized_words(o.get(), &count);
  ASSERT_NE(out, nullptr);
  ASSERT_GT(count, 5u);
  const std::vector<uint32_t> optimized(out, out + count);
  EXPECT_NE(optimized, words);
  // No specialization constant is left, and the output validates.
  std::string text;
  coopspv::Problem problem;
  ASSERT_TRUE(coopspv::Disassemble(optimized, {}, &text, &problem));
  EXPECT_EQ(text.find("OpSpecConstant"), std::string::npos);
  EXPECT_NE(text.find("OpConstant %uint 32"), std::string::npos);
  Result r(coopspv_validate(ctx.get(), out, count));
  EXPECT_EQ(coopspv_result_valid(r.get()), 1);

  // No pass: the module comes back validated and unchanged in meaning.
  Optimized none(coopspv_optimize(ctx.get(), words.data(), words.size(), nullptr, 0));
  EXPECT_EQ(coopspv_optimized_ok(none.get()), 1) << coopspv_optimized_error(none.get());
}

TEST(CApi, OptimizeFailuresSayWhy) {
  Context ctx(coopspv_context_create("vulkan1.3"));
  const std::vector<uint32_t> words = AssembleFile("examples/tiled_gemm.spvasm");
  struct Case {
    std::vector<const char*> passes;
    std::string error;
  };
  for (const Case& c : std::vector<Case>{
           {{"no-such-pass"}, "unknown pass --no-such-pass"},
           {{"freeze-spec-const=1"}, "--freeze-spec-const takes no argument"},
           {{"fold-coop-length"}, "--fold-coop-length needs an argument"},
           {{"eliminate-dead", nullptr}, "pass 1 is NULL"},
       }) {
    Optimized o(
        coopspv_optimize(ctx.get(), words.data(), words.size(), c.passes.data(), c.passes.size()));
    ASSERT_NE(o, nullptr);
    EXPECT_EQ(coopspv_optimized_ok(o.get()), 0);
    EXPECT_NE(std::string(coopspv_optimized_error(o.get())).find(c.error), std::string::npos)
        << coopspv_optimized_error(o.get());
    size_t count = 7;
    EXPECT_EQ(coopspv_optimized_words(o.get(), &count), nullptr);
    EXPECT_EQ(count, 0u);
  }
  // An invalid input: the error names the first error's rule.
  const std::vector<uint32_t> bad = AssembleFile(kTwoErrors);
  const char* pass = "eliminate-dead";
  Optimized o(coopspv_optimize(ctx.get(), bad.data(), bad.size(), &pass, 1));
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(coopspv_optimized_ok(o.get()), 0);
  EXPECT_NE(std::string(coopspv_optimized_error(o.get())).find("invalid: id.undefined: "),
            std::string::npos)
      << coopspv_optimized_error(o.get());
  EXPECT_EQ(coopspv_optimize(nullptr, bad.data(), bad.size(), &pass, 1), nullptr);
  EXPECT_EQ(coopspv_optimized_ok(nullptr), 0);
}

}  // namespace
