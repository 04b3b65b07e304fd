// A reused result allocates nothing the second time (docs/c_api.md, "Reusing a result"): every
// allocation of this test binary (operator new in all its forms; the library calls no malloc of
// its own) is counted,
// and validating a module again into the same result must add none, for every corpus module, its
// invalid variants (older environments with many diagnostics, a damaged copy the reader rejects,
// a module with undefined ids), with the default context and with a device profile; and once a
// result has validated the whole corpus, validating it all again allocates nothing.
//
// Under AddressSanitizer the same counts hold (ASan's own bookkeeping does not call the functions
// replaced here), so the test asserts them there too.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "include/coopspv/coopspv.h"
#include "include/coopspv/coopspv.hpp"
#include "source/profile/device_profile.h"
#include "source/val/validator.h"
#include "test/api/describe.h"

namespace {
// Counted while `g_counting` (the test's own bookkeeping happens outside those windows).
size_t g_allocations = 0;
bool g_counting = false;
void Count() {
  if (g_counting) ++g_allocations;
}
}  // namespace

void* operator new(size_t size) {
  Count();
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  Count();
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept {
  return operator new(size, tag);
}
void* operator new(size_t size, std::align_val_t align) {
  Count();
  void* p = nullptr;
  if (posix_memalign(&p, std::max(sizeof(void*), static_cast<size_t>(align)), size ? size : 1))
    throw std::bad_alloc();
  return p;
}
void* operator new[](size_t size, std::align_val_t align) { return operator new(size, align); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

using coopspv::test::Describe;

struct Module {
  std::string name;
  std::vector<uint32_t> words;
  std::string env;
};

std::vector<uint32_t> Assemble(const std::string& text, const std::string& name) {
  std::vector<uint32_t> words;
  coopspv::Problem problem;
  EXPECT_TRUE(coopspv::Assemble(text, {}, &words, &problem)) << name << ": " << problem.ToString();
  return words;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << path;
  return text.str();
}

// The corpus in its environments (columns: file, bytes, spirv_version, val_env, ...).
std::vector<Module> Corpus() {
  std::ifstream manifest("test/data/corpus/MANIFEST.tsv");
  std::string line;
  std::getline(manifest, line);
  std::vector<Module> modules;
  while (std::getline(manifest, line)) {
    std::vector<std::string> columns;
    std::stringstream fields(line);
    for (std::string field; std::getline(fields, field, '\t');) columns.push_back(field);
    if (columns.size() < 4) continue;
    modules.push_back(
        {columns[0], Assemble(ReadText("test/data/corpus/" + columns[0]), columns[0]), columns[3]});
  }
  EXPECT_GE(modules.size(), 20u);
  return modules;
}

// Each corpus module as it is, in older environments (version and capability errors: many
// diagnostics, each with its instruction's text and friendly names), damaged so that the reader
// rejects it (binary.malformed), and the module with undefined ids of test/api/data.
std::vector<Module> AllVariants() {
  std::vector<Module> out;
  for (const Module& m : Corpus()) {
    out.push_back(m);
    out.push_back({m.name + " in vulkan1.0", m.words, "vulkan1.0"});
    out.push_back({m.name + " in spv1.0", m.words, "spv1.0"});
    Module damaged = {m.name + " damaged", m.words, m.env};
    damaged.words[damaged.words.size() / 2] = damaged.words[3] + 7;  // An id past the bound.
    out.push_back(damaged);
  }
  out.push_back({"undefined_operands",
                 Assemble(ReadText("test/api/data/undefined_operands.spvasm"), "undefined"),
                 "vulkan1.3"});
  return out;
}

// What Describe says of a C API result, from the validator without a workspace (the heap).
std::string Describe(const coopspv::val::Result& r) {
  std::string out = r.valid ? "valid\n" : "invalid\n";
  for (const coopspv::val::Diagnostic& d : r.diagnostics) {
    out += std::to_string(d.severity == coopspv::val::Severity::kError ? 0 : 1) + " " + d.rule->id +
           " " + std::string(d.message) + " [" + d.rule->clause + "] " +
           std::to_string(d.has_instruction) + " " + std::to_string(d.word_offset) + " " +
           std::to_string(d.result_id) + " " + std::to_string(d.opcode) + " " +
           std::string(d.instruction_text) + "\n";
  }
  return out;
}

struct Contexts {
  explicit Contexts(const char* profile) : profile(profile) {}
  ~Contexts() {
    for (auto& [env, context] : by_env) coopspv_context_destroy(context);
  }
  coopspv_context* Get(const std::string& env) {
    for (auto& [name, context] : by_env) {
      if (name == env) return context;
    }
    coopspv_context* context = coopspv_context_create(env.c_str());
    EXPECT_NE(context, nullptr) << env;
    coopspv_context_set_max_errors(context, 0);  // Every diagnostic.
    if (profile != nullptr) {
      EXPECT_EQ(coopspv_context_set_device_profile(context, profile), 0);
    }
    by_env.emplace_back(env, context);
    return context;
  }
  const char* profile;
  std::vector<std::pair<std::string, coopspv_context*>> by_env;
};

// Allocations of one coopspv_validate_into.
size_t CountedValidate(coopspv_context* context, const Module& m, coopspv_result* result) {
  g_allocations = 0;
  g_counting = true;
  const int status = coopspv_validate_into(context, m.words.data(), m.words.size(), result);
  g_counting = false;
  EXPECT_EQ(status, 0) << m.name;
  return g_allocations;
}

class Reuse : public testing::TestWithParam<const char*> {};

TEST_P(Reuse, SecondValidationOfAModuleAllocatesNothing) {
  Contexts contexts(GetParam());
  size_t diagnostics = 0;
  for (const Module& m : AllVariants()) {
    SCOPED_TRACE(m.name);
    coopspv_context* context = contexts.Get(m.env);
    std::unique_ptr<coopspv_result, void (*)(coopspv_result*)> result(coopspv_result_create(),
                                                                      coopspv_result_destroy);
    EXPECT_GT(CountedValidate(context, m, result.get()), 0u);
    const std::string first = Describe(result.get());
    EXPECT_EQ(CountedValidate(context, m, result.get()), 0u);
    const std::string second = Describe(result.get());
    EXPECT_EQ(second, first);
    diagnostics += coopspv_result_diagnostic_count(result.get());
    // The reused memory changes nothing: the validator without a workspace says the same.
    coopspv::val::Options options;
    options.env = *coopspv::ParseTargetEnv(m.env);
    options.max_errors = 0;
    if (GetParam() != nullptr) {
      std::string error;
      auto profile = coopspv::profile::FromNameOrText(GetParam(), &error);
      ASSERT_TRUE(profile.has_value()) << error;
      options.device_profile =
          std::make_shared<const coopspv::profile::DeviceProfile>(std::move(*profile));
    }
    EXPECT_EQ(Describe(coopspv::val::Validate(m.words, options)), first);
  }
  EXPECT_GT(diagnostics, 50u);  // The invalid variants did say something.
}

TEST_P(Reuse, SecondRoundOverTheCorpusAllocatesNothing) {
  Contexts contexts(GetParam());
  const std::vector<Module> modules = AllVariants();
  std::unique_ptr<coopspv_result, void (*)(coopspv_result*)> result(coopspv_result_create(),
                                                                    coopspv_result_destroy);
  std::vector<std::string> first;
  for (const Module& m : modules) {
    CountedValidate(contexts.Get(m.env), m, result.get());
    first.push_back(Describe(result.get()));
  }
  size_t second_round = 0;
  for (size_t i = 0; i < modules.size(); ++i) {
    second_round += CountedValidate(contexts.Get(modules[i].env), modules[i], result.get());
    EXPECT_EQ(Describe(result.get()), first[i]) << modules[i].name;
  }
  EXPECT_EQ(second_round, 0u);
}

INSTANTIATE_TEST_SUITE_P(Contexts, Reuse, testing::Values(nullptr, "lavapipe"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param ? info.param : "default");
                         });

// The C++ API with a workspace: the same module again into the same result allocates nothing.
TEST(ReuseCpp, WorkspaceAndResultReused) {
  const std::vector<Module> modules = AllVariants();
  coopspv::ValidationWorkspace workspace;
  for (const Module& m : modules) {
    SCOPED_TRACE(m.name);
    coopspv::ValidatorOptions options;
    options.target_env = m.env;
    options.max_errors = 0;
    coopspv::ValidationResult result;
    coopspv::Problem problem;
    ASSERT_TRUE(coopspv::Validate(m.words, options, &result, &problem, &workspace));
    coopspv::ValidationResult alone;
    ASSERT_TRUE(coopspv::Validate(m.words, options, &alone, &problem));  // A temporary workspace.
    EXPECT_EQ(coopspv::FormatJson(alone), coopspv::FormatJson(result));
    g_allocations = 0;
    g_counting = true;
    const bool ok = coopspv::Validate(m.words, options, &result, &problem, &workspace);
    g_counting = false;
    ASSERT_TRUE(ok);
    EXPECT_EQ(g_allocations, 0u);
    EXPECT_EQ(coopspv::FormatJson(alone), coopspv::FormatJson(result));
  }
}

// What a workspace keeps: the most one validation needed, rounded up to its size classes. Printed
// per module (docs/c_api.md quotes the range); bounded here so that a change that makes the
// validator keep far more memory than the module's size is noticed.
TEST(ReuseMemory, WorkspaceHoldsAFewTimesTheModule) {
  double most = 0;
  for (const Module& m : Corpus()) {
    coopspv::val::Workspace workspace;
    coopspv::val::Options options;
    options.env = *coopspv::ParseTargetEnv(m.env);
    coopspv::val::Validate(m.words, options, &workspace);
    const size_t held = workspace.pool.bytes_held();
    coopspv::val::Validate(m.words, options, &workspace);
    EXPECT_EQ(workspace.pool.bytes_held(), held) << m.name;  // Nothing more the second time.
    const double ratio = static_cast<double>(held) / static_cast<double>(m.words.size() * 4);
    std::printf("%-40s %7zu bytes, workspace %8zu bytes (%.1fx)\n", m.name.c_str(),
                m.words.size() * 4, held, ratio);
    most = std::max(most, ratio);
  }
  EXPECT_LT(most, 64.0);
}

}  // namespace
