// Every pass, alone and in the pipeline freeze -> fold -> eliminate -> compact, runs on every
// module of the realistic corpus, and every output validates (coopspv::Optimize validates it).
#include <gtest/gtest.h>

#include <fstream>
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

void ExpectRuns(const Module& m, const std::vector<PassRequest>& passes, const std::string& what) {
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
  if (ok) EXPECT_TRUE(result.validation.valid);
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

}  // namespace
}  // namespace coopspv
