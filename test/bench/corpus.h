// The corpus of test/data/corpus (MANIFEST.tsv: file, bytes, spirv_version, val_env), assembled,
// and one pass of a driver's validation over it through the C API: the modules that
// validate_bench and validate_threads measure.
#ifndef COOPSPV_TEST_BENCH_CORPUS_H_
#define COOPSPV_TEST_BENCH_CORPUS_H_

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "include/coopspv/coopspv.h"

namespace coopspv::bench {

struct CorpusModule {
  std::string file;
  std::vector<uint32_t> words;
  std::string env;  // The val_env column, e.g. "vulkan1.3".
};

// Every module the manifest of `dir` names; none when `dir` has no manifest. Exits with a
// message when a module does not assemble.
std::vector<CorpusModule> ReadCorpus(const std::filesystem::path& dir);

// One context per environment of the corpus, shared by every thread that validates.
class CorpusContexts {
 public:
  explicit CorpusContexts(const std::vector<CorpusModule>& corpus);
  ~CorpusContexts();
  CorpusContexts(const CorpusContexts&) = delete;
  CorpusContexts& operator=(const CorpusContexts&) = delete;

  // Validates every module once into `result` (reused); false when one is not valid.
  bool ValidateAll(coopspv_result* result) const;

 private:
  const std::vector<CorpusModule>& corpus_;
  std::map<std::string, coopspv_context*> by_env_;
  std::vector<const coopspv_context*> of_module_;  // Index as corpus_.
};

}  // namespace coopspv::bench

#endif  // COOPSPV_TEST_BENCH_CORPUS_H_
