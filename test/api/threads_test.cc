// The C API from many threads: the corpus (test/data/corpus), valid in its environment and made
// invalid two ways, validated from 8 threads on one shared context and on a context per thread
// gives what one thread gives. Run under ThreadSanitizer by
// `bazel test --config=tsan //test/api:threads_test`.
#include <algorithm>
#include <atomic>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "include/coopspv/coopspv.h"
#include "include/coopspv/coopspv.hpp"
#include "test/api/describe.h"

namespace {

using coopspv::test::Describe;

constexpr int kThreads = 8;
constexpr int kRounds = 1;

struct Job {
  std::string name;
  std::vector<uint32_t> words;
  int env = 0;  // Index into kEnvs.
};

// The corpus's own environment (clean), an older one (version and capability errors), and the
// same with every diagnostic kept.
struct Env {
  const char* name;
  uint32_t max_errors;
};
constexpr Env kEnvs[] = {{"vulkan1.3", 100}, {"vulkan1.0", 100}, {"spv1.0", 0}};

std::vector<Job> CorpusJobs() {
  std::ifstream manifest("test/data/corpus/MANIFEST.tsv");
  std::string line;
  std::getline(manifest, line);  // Header.
  std::vector<Job> jobs;
  while (std::getline(manifest, line)) {
    const std::string file = line.substr(0, line.find('\t'));
    if (file.empty()) continue;
    std::ifstream in("test/data/corpus/" + file);
    std::stringstream text;
    text << in.rdbuf();
    std::vector<uint32_t> words;
    coopspv::Problem problem;
    EXPECT_TRUE(coopspv::Assemble(text.str(), {}, &words, &problem)) << file;
    for (int env = 0; env < 3; ++env) jobs.push_back({file, words, env});
    // A damaged copy: an id operand of the middle of the module points past the bound.
    std::vector<uint32_t> damaged = words;
    damaged[damaged.size() / 2] = damaged[3] + 7;
    jobs.push_back({file + " (damaged)", damaged, 0});
  }
  return jobs;
}

using Contexts = std::vector<coopspv_context*>;

Contexts MakeContexts() {
  Contexts contexts;
  for (const Env& env : kEnvs) {
    coopspv_context* c = coopspv_context_create(env.name);
    coopspv_context_set_max_errors(c, env.max_errors);
    contexts.push_back(c);
  }
  return contexts;
}

void DestroyContexts(const Contexts& contexts) {
  for (coopspv_context* c : contexts) coopspv_context_destroy(c);
}

// Each thread validates every job kRounds times, starting at its own offset so that threads work
// on different modules at once, alternating a fresh result and one reused result. Returns the
// number of results that differ from `expected`.
int ValidateFromThreads(const std::vector<Job>& jobs, const std::vector<std::string>& expected,
                        bool shared_context) {
  const Contexts shared = MakeContexts();
  std::atomic<int> mismatches{0};
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const Contexts own = shared_context ? Contexts() : MakeContexts();
      const Contexts& contexts = shared_context ? shared : own;
      coopspv_result* reused = coopspv_result_create();
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();  // Start together.
      for (size_t n = 0; n < jobs.size() * kRounds; ++n) {
        const size_t i = (n + static_cast<size_t>(t) * jobs.size() / kThreads) % jobs.size();
        const Job& job = jobs[i];
        std::string got;
        if (n % 2 == 0) {
          coopspv_result* r =
              coopspv_validate(contexts[job.env], job.words.data(), job.words.size());
          got = Describe(r);
          coopspv_result_destroy(r);
        } else {
          coopspv_validate_into(contexts[job.env], job.words.data(), job.words.size(), reused);
          got = Describe(reused);
        }
        if (got != expected[i]) mismatches.fetch_add(1);
      }
      coopspv_result_destroy(reused);
      DestroyContexts(own);
    });
  }
  for (std::thread& thread : threads) thread.join();
  DestroyContexts(shared);
  return mismatches.load();
}

class Threads : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    jobs_ = new std::vector<Job>(CorpusJobs());
    expected_ = new std::vector<std::string>();
    const Contexts contexts = MakeContexts();
    for (const Job& job : *jobs_) {
      coopspv_result* r = coopspv_validate(contexts[job.env], job.words.data(), job.words.size());
      expected_->push_back(Describe(r));
      coopspv_result_destroy(r);
    }
    DestroyContexts(contexts);
  }
  static void TearDownTestSuite() {
    delete jobs_;
    delete expected_;
  }
  static std::vector<Job>* jobs_;
  static std::vector<std::string>* expected_;
};
std::vector<Job>* Threads::jobs_ = nullptr;
std::vector<std::string>* Threads::expected_ = nullptr;

TEST_F(Threads, TheJobsCoverValidAndInvalidResults) {
  ASSERT_GE(jobs_->size(), 4u * 29u);
  const auto valid = std::count_if(expected_->begin(), expected_->end(),
                                   [](const std::string& e) { return e.rfind("valid\n", 0) == 0; });
  EXPECT_GE(valid, 29);  // The corpus in its environment.
  EXPECT_GE(static_cast<long>(expected_->size()) - valid, 3 * 29);  // Older ones, damaged copies.
}

TEST_F(Threads, OneSharedContextGivesWhatOneThreadGives) {
  EXPECT_EQ(ValidateFromThreads(*jobs_, *expected_, /*shared_context=*/true), 0);
}

TEST_F(Threads, AContextPerThreadGivesWhatOneThreadGives) {
  EXPECT_EQ(ValidateFromThreads(*jobs_, *expected_, /*shared_context=*/false), 0);
}

}  // namespace
