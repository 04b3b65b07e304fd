// Validation throughput from 1 to N threads, in corpus modules per second, without Google
// Benchmark (so that it runs where Debian's libbenchmark is not installed: linked statically,
// it needs nothing but the kernel). What validate_bench's BM_ValidateCorpusThreads measures:
// the corpus of test/data/corpus validated module after module through the C API, one context
// per environment shared by all threads, a reused result per thread.
//   validate_threads [--max-threads=N] [--threads=1,2,4] [--seconds=S] [--separate-contexts]
//                    [corpus dir, default test/data/corpus]
// Prints a table (threads, modules/s, per thread, speedup over 1 thread); exit 1 when a corpus
// module does not validate.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "include/coopspv/coopspv.h"
#include "test/bench/corpus.h"

namespace coopspv::bench {
namespace {

struct Options {
  std::vector<int> threads;
  double seconds = 2.0;
  bool separate_contexts = false;  // One set of contexts per thread instead of shared ones.
  std::string dir = "test/data/corpus";
};

[[noreturn]] void Usage(const char* problem) {
  std::fprintf(stderr,
               "validate_threads: %s\nusage: validate_threads [--max-threads=N] "
               "[--threads=1,2,4] [--seconds=S] [--separate-contexts] [corpus dir]\n",
               problem);
  std::exit(2);
}

int PositiveInt(std::string_view text) {
  const int n = std::atoi(std::string(text).c_str());
  if (n < 1 || n > 1024) Usage("a thread count is a whole number from 1 to 1024");
  return n;
}

Options ParseOptions(int argc, char** argv) {
  Options o;
  int max_threads = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--max-threads=")) {
      max_threads = PositiveInt(arg.substr(14));
    } else if (arg.starts_with("--threads=")) {
      std::string_view list = arg.substr(10);
      while (!list.empty()) {
        const size_t comma = list.find(',');
        o.threads.push_back(PositiveInt(list.substr(0, comma)));
        list = comma == std::string_view::npos ? "" : list.substr(comma + 1);
      }
    } else if (arg.starts_with("--seconds=")) {
      o.seconds = std::atof(argv[i] + 10);
      if (!(o.seconds > 0 && o.seconds <= 600)) Usage("--seconds takes 0 to 600");
    } else if (arg == "--separate-contexts") {
      o.separate_contexts = true;
    } else if (arg.starts_with("--")) {
      Usage("unknown option");
    } else {
      o.dir = arg;
    }
  }
  if (max_threads == 0 && o.threads.empty()) max_threads = 2;
  for (int t = 1; t <= max_threads; ++t) o.threads.push_back(t);
  return o;
}

struct Point {
  double modules_per_s = 0;
  bool all_valid = true;
};

// `threads` threads validate the corpus over and over for `seconds`; every thread finishes the
// pass it is in, and only whole passes count.
Point Measure(const std::vector<CorpusModule>& corpus, const CorpusContexts& shared, int threads,
              const Options& o) {
  std::atomic<bool> stop = false;
  std::atomic<bool> all_valid = true;
  std::atomic<size_t> modules = 0;
  std::atomic<int> ready = 0;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      std::unique_ptr<CorpusContexts> own;
      if (o.separate_contexts) own = std::make_unique<CorpusContexts>(corpus);
      const CorpusContexts& contexts = own ? *own : shared;
      coopspv_result* result = coopspv_result_create();
      // One untimed pass: the result's storage, the allocator's arenas.
      if (!contexts.ValidateAll(result)) all_valid = false;
      ready.fetch_add(1);
      while (ready.load() < threads + 1) std::this_thread::yield();
      size_t passes = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        if (!contexts.ValidateAll(result)) all_valid = false;
        ++passes;
      }
      modules.fetch_add(passes * corpus.size());
      coopspv_result_destroy(result);
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  const auto start = std::chrono::steady_clock::now();
  ready.fetch_add(1);
  std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
  stop = true;
  for (std::thread& w : workers) w.join();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {static_cast<double>(modules.load()) / elapsed, all_valid.load()};
}

int Main(int argc, char** argv) {
  // `bazel run` starts in the runfiles tree; the corpus is read from the workspace.
  if (const char* dir = std::getenv("BUILD_WORKSPACE_DIRECTORY"))
    std::filesystem::current_path(dir);
  const Options o = ParseOptions(argc, argv);
  const std::vector<CorpusModule> corpus = ReadCorpus(o.dir);
  if (corpus.empty()) Usage(("no MANIFEST.tsv with modules in " + o.dir).c_str());
  size_t words = 0;
  for (const CorpusModule& m : corpus) words += m.words.size();
  const CorpusContexts shared(corpus);
  std::printf("%s; %zu modules (%zu KB) from %s; %s contexts; %u hardware threads; %.1f s each\n",
              coopspv_version(), corpus.size(), words * 4 / 1024, o.dir.c_str(),
              o.separate_contexts ? "per-thread" : "shared", std::thread::hardware_concurrency(),
              o.seconds);
  std::printf("%8s %12s %12s %8s\n", "threads", "modules/s", "per_thread", "speedup");
  double one = 0;
  bool all_valid = true;
  for (int threads : o.threads) {
    const Point p = Measure(corpus, shared, threads, o);
    all_valid &= p.all_valid;
    if (one == 0) one = p.modules_per_s / threads;
    std::printf("%8d %12.0f %12.0f %8.2f\n", threads, p.modules_per_s, p.modules_per_s / threads,
                p.modules_per_s / one);
    std::fflush(stdout);
  }
  if (!all_valid) {
    std::fprintf(stderr, "validate_threads: a corpus module did not validate\n");
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace coopspv::bench

int main(int argc, char** argv) { return coopspv::bench::Main(argc, argv); }
