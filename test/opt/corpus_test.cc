// Every pass, alone and in the pipeline freeze -> fold -> eliminate -> compact, runs on every
// module of the realistic corpus, and every output validates (coopspv::Optimize validates it).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"

namespace coopspv {
namespace {

struct Module {
  std::string file;
  std::string env;
  std::vector<uint32_t> words;
};

std::vector<Module> LoadCorpus() {
  std::vector<Module> modules;
  std::ifstream manifest("test/data/corpus/MANIFEST.tsv");
  std::string line;
  std::getline(manifest, line);
  while (std::getline(manifest, line)) {
    std::istringstream f(line);
    Module m;
    std::string bytes, version;
    std::getline(f, m.file, '\t');
    std::getline(f, bytes, '\t');
    std::getline(f, version, '\t');
    std::getline(f, m.env, '\t');
    std::ifstream in("test/data/corpus/" + m.file);
    std::stringstream text;
    text << in.rdbuf();
    Problem p;
    EXPECT_TRUE(Assemble(text.str(), {}, &m.words, &p)) << m.file << ": " << p.ToString();
    modules.push_back(std::move(m));
  }
  return modules;
}

// Whether the passes ran and the output validates; the output goes to `out` when given.
bool ExpectRuns(const Module& m, const std::vector<PassRequest>& passes, const std::string& what,
                std::vector<uint32_t>* out = nullptr) {
  OptimizerOptions options;
  options.target_env = m.env;
  options.passes = passes;
  options.validate_after_each = true;
  OptimizeResult result;
  Problem p;
  const bool ok = Optimize(m.words, options, &result, &p);
  std::string diagnostics;
  for (const auto& d : result.validation.diagnostics) diagnostics += FormatDiagnostic(d);
  EXPECT_TRUE(ok) << m.file << " " << what << ": " << p.message << "\n" << diagnostics;
  if (ok) {
    EXPECT_TRUE(result.validation.valid);
  }
  if (out) *out = result.words;
  return ok && result.validation.valid;
}

TEST(OptCorpus, EveryPassAloneKeepsEveryModuleValid) {
  const auto corpus = LoadCorpus();
  ASSERT_GE(corpus.size(), 29u);
  const std::vector<PassRequest> passes = {
      {"freeze-spec-const", ""}, {"fold-spec-const", ""}, {"fold-coop-length", "32"},
      {"eliminate-dead", ""},    {"compact-ids", ""},
  };
  for (const Module& m : corpus) {
    for (const PassRequest& pass : passes) ExpectRuns(m, {pass}, "--" + pass.flag);
  }
}

// What a module means beyond its instructions: each BuiltIn decoration (by built-in), each SpecId,
// each execution mode (LocalSize and LocalSizeId count as one: folding may turn one into the
// other) and each entry point, one token per line of the disassembly.
std::multiset<std::string> Meaning(const std::vector<uint32_t>& words, bool with_spec_ids) {
  std::string text;
  Problem p;
  DisassembleOptions dis;
  dis.friendly_names = false;
  EXPECT_TRUE(Disassemble(words, dis, &text, &p)) << p.ToString();
  std::multiset<std::string> meaning;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::vector<std::string> t;
    for (std::string token; in >> token;) t.push_back(token);
    auto after = [&](const std::string& token) {
      const auto it = std::find(t.begin(), t.end(), token);
      return it != t.end() && it + 1 != t.end() ? *(it + 1) : std::string();
    };
    if (t.empty()) continue;
    if ((t[0] == "OpDecorate" || t[0] == "OpMemberDecorate") && !after("BuiltIn").empty()) {
      meaning.insert("BuiltIn " + after("BuiltIn"));
    } else if (t[0] == "OpDecorate" && with_spec_ids && !after("SpecId").empty()) {
      meaning.insert("SpecId " + after("SpecId"));
    } else if ((t[0] == "OpExecutionMode" || t[0] == "OpExecutionModeId") && t.size() > 2) {
      meaning.insert(t[2] == "LocalSizeId" ? "LocalSize" : t[2]);
    } else if (t[0] == "OpEntryPoint" && t.size() > 3) {
      meaning.insert("OpEntryPoint " + t[1] + " " + t[3]);
    }
  }
  return meaning;
}

// A pass never drops what has meaning without a use: a WorkgroupSize built-in nothing names
// overrides LocalSize, the pipeline specializes by SpecId, execution modes and entry points are
// the interface. Every pass that deletes or rebuilds declarations, alone and after freezing and
// folding (freezing drops SpecIds by design; lowering may add built-ins, never lose one).
TEST(OptCorpus, EveryPassKeepsBuiltInsSpecIdsModesAndEntryPoints) {
  const std::vector<std::vector<PassRequest>> pipelines = {
      {{"eliminate-dead", ""}},
      {{"compact-ids", ""}},
      {{"fold-spec-const", ""}},
      {{"fold-coop-length", "32"}},
      {{"coop-matrix-nv-to-khr", ""}},
      {{"strip-decode-vector", ""}},
      {{"lower-small-floats", ""}},
      {{"freeze-spec-const", ""},
       {"fold-spec-const", ""},
       {"lower-coop-matrix", "8"},
       {"eliminate-dead", ""},
       {"compact-ids", ""}},
      {{"freeze-spec-const", ""},
       {"fold-spec-const", ""},
       {"lower-coop-matrix2", "8"},
       {"eliminate-dead", ""}},
      {{"freeze-spec-const", ""}, {"lower-coop-vector", ""}, {"eliminate-dead", ""}},
      {{"freeze-spec-const", ""},
       {"fold-spec-const", ""},
       {"legalize-for-device", "lavapipe"},
       {"eliminate-dead", ""},
       {"compact-ids", ""}},
  };
  int checked = 0;
  for (const Module& m : LoadCorpus()) {
    for (const auto& passes : pipelines) {
      const bool freezes = passes[0].flag == "freeze-spec-const";
      OptimizerOptions options;
      options.target_env = m.env;
      options.passes = passes;
      OptimizeResult result;
      Problem p;
      if (!Optimize(m.words, options, &result, &p)) continue;  // Refused: nothing to compare.
      const auto before = Meaning(m.words, !freezes);
      const auto after = Meaning(result.words, !freezes);
      std::string lost;
      for (const std::string& x : before) {
        if (after.count(x) < before.count(x)) lost += " [" + x + "]";
      }
      EXPECT_TRUE(lost.empty()) << m.file << " --" << passes.back().flag << " lost" << lost;
      ++checked;
    }
  }
  EXPECT_GE(checked, 200);
}

TEST(OptCorpus, PipelineKeepsEveryModuleValid) {
  for (const Module& m : LoadCorpus()) {
    ExpectRuns(m,
               {{"freeze-spec-const", ""},
                {"fold-spec-const", ""},
                {"fold-coop-length", "32"},
                {"eliminate-dead", ""},
                {"compact-ids", ""}},
               "pipeline");
  }
}

TEST(OptCorpus, PipelineRemovesEverySpecConstantAndLength) {
  for (const Module& m : LoadCorpus()) {
    OptimizerOptions options;
    options.target_env = m.env;
    // Lengths fold first: spec-constant expressions may use them.
    options.passes = {{"freeze-spec-const", ""},
                      {"fold-coop-length", "32"},
                      {"fold-spec-const", ""},
                      {"eliminate-dead", ""}};
    OptimizeResult result;
    Problem p;
    ASSERT_TRUE(Optimize(m.words, options, &result, &p)) << m.file << ": " << p.message;
    std::string text;
    DisassembleOptions dis;
    ASSERT_TRUE(Disassemble(result.words, dis, &text, &p));
    EXPECT_EQ(text.find("OpSpecConstant"), std::string::npos) << m.file;
    // Workgroup-scope matrices in modules with one LocalSize fold too; Subgroup ones always.
    EXPECT_EQ(text.find("OpCooperativeMatrixLengthNV"), std::string::npos) << m.file;
  }
}

// --lower-coop-matrix2=8 (after freezing and folding the specialization constants, which give
// the matrix shapes), alone and followed by --lower-coop-matrix=8, on every matrix2 module: the
// output validates and keeps none of the matrix2 / tensor-addressing capabilities (and, fully
// lowered, no cooperative matrix).
TEST(OptCorpus, LowerCoopMatrix2LowersEveryMatrix2Module) {
  int lowered = 0;
  for (const Module& m : LoadCorpus()) {
    if (m.file.rfind("cm2_", 0) != 0) continue;
    for (bool further : {false, true}) {
      std::vector<PassRequest> passes = {
          {"freeze-spec-const", ""}, {"fold-spec-const", ""}, {"lower-coop-matrix2", "8"}};
      if (further) passes.push_back({"lower-coop-matrix", "8"});
      std::vector<uint32_t> words;
      if (!ExpectRuns(m, passes, "--lower-coop-matrix2", &words)) continue;
      std::string text;
      Problem p;
      ASSERT_TRUE(Disassemble(words, {}, &text, &p));
      for (const char* gone : {"SPV_NV_cooperative_matrix2", "TensorAddressing", "ReductionsEXT",
                               "PerElementOperationsEXT", "ConversionsNV", "TensorNV"}) {
        EXPECT_EQ(text.find(gone), std::string::npos) << m.file << ": " << gone;
      }
      if (further) {
        EXPECT_EQ(text.find("CooperativeMatrix"), std::string::npos) << m.file;
      } else {
        EXPECT_NE(text.find("OpTypeCooperativeMatrixKHR"), std::string::npos) << m.file;
        ++lowered;
      }
    }
  }
  EXPECT_EQ(lowered, 5);
}

// --lower-coop-vector on every cooperative-vector module. The corpus stores its matrices
// InferencingOptimalNV / TrainingOptimalNV (or names the layout by a specialization constant),
// which only a driver can read: lowering those must fail and say so. The same modules with
// RowMajorNV matrices (the layout operands rewritten in the assembly, or the layout's
// specialization constant set to 0) must lower, validate, and keep nothing of the extension
// (except the float8 module: Vulkan has no row-major float8 matrix).
TEST(OptCorpus, LowerCoopVectorLowersEveryCooperativeVectorModule) {
  struct RowMajor {
    const char* prefix;
    std::vector<std::pair<std::string, std::string>> rewrites;
    bool specialize_layout;
  };
  const std::vector<RowMajor> row_major = {
      // Float8 matrices are optimal-layout ones in Vulkan (vulkan.coop-vector-float8-layout): no
      // row-major form; LowerCoopVectorWithOptimalAsRowOrColumnMajorLowersEveryModule lowers it.
      {"coopvec_fp8_matmul", {}, false},
      {"coopvec_int8_packed",
       {{"%uint_32 %int_2 %false %uint_0 Matrix", "%uint_32 %int_0 %false %uint_32 Matrix"}},
       false},
      {"coopvec_training",
       {{"%int_3 %int_0 %uint_0", "%int_0 %int_0 %uint_64"},
        {"%int_3 %int_1 %uint_0", "%int_0 %int_1 %uint_64"}},
       false},
      {"coopvec_mlp_f16", {}, true},
      {"coopvec_loadstore_math", {}, false},
  };
  const std::string features = "atomic-float16-add,atomic-float32-add";
  auto lower = [&](const std::vector<uint32_t>& words, const std::string& env, bool specialize,
                   OptimizeResult* result, Problem* p) {
    OptimizerOptions options;
    options.target_env = env;
    if (specialize) {
      options.passes = {{"set-spec-const-default-value", "3:0"}, {"freeze-spec-const", ""}};
    }
    options.passes.push_back({"lower-coop-vector", features});
    options.validate_after_each = true;
    return Optimize(words, options, result, p);
  };
  int lowered = 0;
  for (const Module& m : LoadCorpus()) {
    if (m.file.rfind("coopvec_", 0) != 0) continue;
    const RowMajor* plan = nullptr;
    for (const RowMajor& r : row_major) {
      if (m.file.rfind(r.prefix, 0) == 0) plan = &r;
    }
    ASSERT_NE(plan, nullptr) << m.file << ": a cooperative-vector module without a plan";
    const bool float8 = m.file.rfind("coopvec_fp8_", 0) == 0;
    const bool optimal = !plan->rewrites.empty() || plan->specialize_layout || float8;
    {
      OptimizeResult result;
      Problem p;
      const bool ok = lower(m.words, m.env, false, &result, &p);
      EXPECT_EQ(ok, !optimal) << m.file << ": " << p.message;
      if (optimal) {
        EXPECT_NE(p.message.find(plan->specialize_layout ? "lower-coop-vector.layout"
                                                         : "lower-coop-vector.optimal-layout"),
                  std::string::npos)
            << m.file << ": " << p.message;
      }
    }
    if (float8) continue;
    std::ifstream in("test/data/corpus/" + m.file);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    for (const auto& [from, to] : plan->rewrites) {
      for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
        text.replace(at, from.size(), to);
        at += to.size();
      }
    }
    std::vector<uint32_t> words;
    Problem p;
    ASSERT_TRUE(Assemble(text, {}, &words, &p)) << m.file << ": " << p.ToString();
    OptimizeResult result;
    ASSERT_TRUE(lower(words, m.env, plan->specialize_layout, &result, &p))
        << m.file << " (row-major): " << p.message;
    EXPECT_TRUE(result.validation.valid);
    std::string out;
    ASSERT_TRUE(Disassemble(result.words, {}, &out, &p));
    EXPECT_EQ(out.find("CooperativeVector"), std::string::npos) << m.file;
    EXPECT_EQ(out.find("SPV_NV_cooperative_vector"), std::string::npos) << m.file;
    ++lowered;
  }
  EXPECT_EQ(lowered, 8);
}

// --lower-coop-vector=optimal-as-row-major / optimal-as-column-major: the corpus modules as they
// are, their InferencingOptimalNV / TrainingOptimalNV matrices read as tightly stored row- or
// column-major ones (the application converted them so). Every cooperative-vector module lowers
// and validates, and nothing of the extension stays; coopvec_mlp_f16 names its layout by a
// specialization constant, frozen to its default (InferencingOptimalNV) first.
TEST(OptCorpus, LowerCoopVectorWithOptimalAsRowOrColumnMajorLowersEveryModule) {
  for (const char* as : {"optimal-as-row-major", "optimal-as-column-major"}) {
    int lowered = 0;
    for (const Module& m : LoadCorpus()) {
      if (m.file.rfind("coopvec_", 0) != 0) continue;
      OptimizerOptions options;
      options.target_env = m.env;
      options.passes = {
          {"freeze-spec-const", ""},
          {"lower-coop-vector", std::string("atomic-float16-add,atomic-float32-add,") + as}};
      options.validate_after_each = true;
      OptimizeResult result;
      Problem p;
      ASSERT_TRUE(Optimize(m.words, options, &result, &p))
          << m.file << " " << as << ": " << p.message;
      EXPECT_TRUE(result.validation.valid) << m.file;
      std::string out;
      ASSERT_TRUE(Disassemble(result.words, {}, &out, &p));
      EXPECT_EQ(out.find("CooperativeVector"), std::string::npos) << m.file;
      EXPECT_EQ(out.find("SPV_NV_cooperative_vector"), std::string::npos) << m.file;
      ++lowered;
    }
    EXPECT_EQ(lowered, 9) << as;
  }
}

// --lower-coop-matrix=8 in the pipeline: every module with Subgroup-scope KHR / NV matrices
// (and the README's example) lowers, validates and keeps no matrix; the others fail naming what
// the pass does not lower.
TEST(OptCorpus, LowerCoopMatrixLowersEverySubgroupScopeModule) {
  const std::map<std::string, std::string> not_lowered = {
      {"cm2_decode_q4.spvasm", "cooperative matrix 2 and tensor-addressing instructions"},
      {"cm2_decode_vector.spvasm", "cooperative matrix 2 and tensor-addressing instructions"},
      {"cm2_softmax_reduce.spvasm", "cooperative matrix 2 and tensor-addressing instructions"},
      {"cm2_tensor_layouts.spvasm", "cooperative matrix 2 and tensor-addressing instructions"},
      {"cm2_transpose_convert.spvasm", "not Workgroup scope"},
      {"khr_arm_layouts.spvasm", "only the RowMajorKHR and ColumnMajorKHR layouts"},
      {"khr_workgroup_shared_bda.spvasm", "not Workgroup scope"},
  };
  std::vector<Module> modules = LoadCorpus();
  {
    Module example{"../../examples/tiled_gemm.spvasm", "vulkan1.3", {}};
    std::ifstream in("examples/tiled_gemm.spvasm");
    std::stringstream text;
    text << in.rdbuf();
    Problem p;
    ASSERT_TRUE(Assemble(text.str(), {}, &example.words, &p)) << p.ToString();
    modules.push_back(std::move(example));
  }
  uint32_t lowered = 0;
  for (const Module& m : modules) {
    std::string before;
    Problem p;
    ASSERT_TRUE(Disassemble(m.words, {}, &before, &p));
    if (before.find("OpTypeCooperativeMatrix") == std::string::npos) continue;
    OptimizerOptions options;
    options.target_env = m.env;
    options.passes = {{"freeze-spec-const", ""},
                      {"fold-spec-const", ""},
                      {"lower-coop-matrix", "8"},
                      {"eliminate-dead", ""},
                      {"compact-ids", ""}};
    options.validate_after_each = true;
    OptimizeResult result;
    const bool ok = Optimize(m.words, options, &result, &p);
    auto expected = not_lowered.find(m.file);
    if (expected != not_lowered.end()) {
      EXPECT_FALSE(ok) << m.file;
      EXPECT_NE(p.message.find(expected->second), std::string::npos) << m.file << ": " << p.message;
      continue;
    }
    std::string diagnostics;
    for (const auto& d : result.validation.diagnostics) diagnostics += FormatDiagnostic(d);
    ASSERT_TRUE(ok) << m.file << ": " << p.message << "\n" << diagnostics;
    std::string after;
    ASSERT_TRUE(Disassemble(result.words, {}, &after, &p));
    EXPECT_EQ(after.find("CooperativeMatrix"), std::string::npos) << m.file;
    EXPECT_EQ(after.find("SPV_KHR_cooperative_matrix"), std::string::npos) << m.file;
    EXPECT_EQ(after.find("SPV_NV_cooperative_matrix"), std::string::npos) << m.file;
    ++lowered;
  }
  EXPECT_GE(lowered, 14u);
}

}  // namespace
}  // namespace coopspv
