// Every module of test/data/corpus is real compiler output that the reference validator accepts:
// it must validate clean (no errors, no warnings) in the environment MANIFEST.tsv names.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

struct Entry {
  std::string file;
  std::string env;
};

std::vector<Entry> ReadManifest() {
  std::ifstream in("test/data/corpus/MANIFEST.tsv");
  std::vector<Entry> entries;
  std::string line;
  std::getline(in, line);  // Header.
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Entry e;
    std::string bytes, version;
    std::getline(fields, e.file, '\t');
    std::getline(fields, bytes, '\t');
    std::getline(fields, version, '\t');
    std::getline(fields, e.env, '\t');
    if (!e.file.empty()) entries.push_back(e);
  }
  return entries;
}

TEST(Corpus, EveryModuleValidatesClean) {
  const auto entries = ReadManifest();
  ASSERT_GE(entries.size(), 29u);
  for (const Entry& e : entries) {
    SCOPED_TRACE(e.file + " (" + e.env + ")");
    std::ifstream in("test/data/corpus/" + e.file);
    ASSERT_TRUE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    const Result r = testing::ValidateText(text.str(), e.env);
    EXPECT_CLEAN(r);
  }
}

TEST(Corpus, NewerModulesAreRejectedForOlderEnvironments) {
  // A SPIR-V 1.6 module is too new for Vulkan 1.1 (SPIR-V 1.3 at most).
  std::ifstream in("test/data/corpus/khr_gemm_specdims.spvasm");
  std::stringstream text;
  text << in.rdbuf();
  std::vector<uint32_t> words;
  coopspv::Diagnostic d;
  ASSERT_TRUE(text::Assemble(text.str(), {}, &words, &d)) << d.ToString();
  Options options;
  options.env = *ParseTargetEnv("vulkan1.1");
  const Result r = Validate(words, options);
  EXPECT_FALSE(r.valid);
  EXPECT_RULE(r, "layout.version");
}

}  // namespace
}  // namespace coopspv::val
