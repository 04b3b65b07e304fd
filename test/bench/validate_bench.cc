// Validation throughput, in MB of SPIR-V per second on one core:
//   bazel run -c opt //test/bench:validate_bench
// on generated valid modules of about 10K, 100K, 1M and 4M instructions (cost should grow
// linearly)
// and on every module of test/data/corpus (run from the workspace root so the files are found).
// Module files given as arguments are measured too (binary .spv or assembly .spvasm, each with
// an optional ":<target env>", default vulkan1.3), and so is every module of a directory given
// as an argument that has a MANIFEST.tsv (columns: file, spirv_version, val_env), e.g.
//   bazel run -c opt //test/bench:validate_bench -- ../shared/corpus/real-sample
// BM_ValidateCorpusThreads/threads:T validates the whole corpus through the C API (one shared
// context per environment, a reused result per thread) from T = 1, 2, 4 ... --threads=N threads
// at once (default 2) and reports modules_per_s, all threads together.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "include/coopspv/coopspv.h"
#include "source/ir/analyses.h"
#include "source/text/assembler.h"
#include "source/val/state.h"
#include "source/val/validator.h"
#include "test/bench/corpus.h"
#include "test/bench/module_generator.h"

namespace coopspv::bench {
namespace {

std::vector<uint32_t> AssembleOrDie(const std::string& text) {
  std::vector<uint32_t> words;
  Diagnostic d;
  if (!text::Assemble(text, {}, &words, &d)) {
    std::fprintf(stderr, "cannot assemble benchmark module: %s\n", d.ToString().c_str());
    std::abort();
  }
  return words;
}

const std::vector<uint32_t>& Generated(size_t blocks) {
  static std::map<size_t, std::vector<uint32_t>> cache;
  auto it = cache.find(blocks);
  if (it == cache.end())
    it = cache.emplace(blocks, AssembleOrDie(GenerateModuleText(blocks))).first;
  return it->second;
}

void Run(benchmark::State& state, const std::vector<uint32_t>& words, val::Options options) {
  size_t instructions = 0;
  for (size_t i = 5; i < words.size(); i += words[i] >> 16) ++instructions;
  for (auto _ : state) {
    const val::Result r = val::Validate(words, options);
    if (!r.valid) {
      state.SkipWithError(r.diagnostics.empty() ? "invalid" : r.diagnostics[0].message.c_str());
      break;
    }
    benchmark::DoNotOptimize(r.num_errors);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * words.size() * 4));
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["ns_per_inst"] = benchmark::Counter(
      static_cast<double>(instructions) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_ValidateGenerated(benchmark::State& state) {
  Run(state, Generated(static_cast<size_t>(state.range(0))), {});
}
// About 40 instructions a block: ~10K, ~100K, ~1M and ~4M instructions. Past the caches (the
// working set of 1M instructions is ~90 MB) the cost per instruction is flat again.
BENCHMARK(BM_ValidateGenerated)
    ->Arg(250)
    ->Arg(2500)
    ->Arg(25000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

// The divergence analysis alone (the module read and its CFG / post-dominators built outside
// the timing), on the generated modules: its cost should grow linearly with the module.
void BM_UniformityAnalysis(benchmark::State& state) {
  const auto& words = Generated(static_cast<size_t>(state.range(0)));
  Diagnostic d;
  auto module = ir::Module::Read(words, &d);
  module->cfg();
  module->post_dominators();
  size_t instructions = module->num_instructions();
  for (auto _ : state) {
    val::Result result;
    val::Options options;
    val::ValidationState vs(*module, options, &result);
    val::ValidateUniformity(vs);
    if (!result.diagnostics.empty()) state.SkipWithError(result.diagnostics[0].message.c_str());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * words.size() * 4));
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["ns_per_inst"] = benchmark::Counter(
      static_cast<double>(instructions) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_UniformityAnalysis)
    ->Arg(250)
    ->Arg(2500)
    ->Arg(25000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

// test/data/corpus, for BM_ValidateCorpus and BM_ValidateCorpusThreads.
const std::vector<CorpusModule>& Corpus() {
  static const std::vector<CorpusModule> corpus = ReadCorpus("test/data/corpus");
  return corpus;
}

void RegisterCorpus() {
  for (const CorpusModule& m : Corpus()) {
    val::Options options;
    options.env = *ParseTargetEnv(m.env);
    const std::vector<uint32_t>* words = &m.words;
    benchmark::RegisterBenchmark(
        ("BM_ValidateCorpus/" + m.file).c_str(),
        [words, options](benchmark::State& s) { Run(s, *words, options); });
  }
}

// The corpus as a driver's shader cache validates it: module after module through the C API,
// from `threads` threads at once on shared contexts (test/bench:validate_threads measures the
// same without Google Benchmark).
void RegisterCorpusThreads(int max_threads) {
  if (Corpus().empty()) return;
  static const CorpusContexts contexts(Corpus());
  benchmark::RegisterBenchmark("BM_ValidateCorpusThreads",
                               [](benchmark::State& state) {
                                 coopspv_result* result = coopspv_result_create();
                                 size_t validated = 0;
                                 for (auto _ : state) {
                                   if (!contexts.ValidateAll(result)) {
                                     state.SkipWithError("a corpus module is invalid");
                                     break;
                                   }
                                   validated += Corpus().size();
                                 }
                                 coopspv_result_destroy(result);
                                 state.counters["modules_per_s"] = benchmark::Counter(
                                     static_cast<double>(validated), benchmark::Counter::kIsRate);
                               })
      ->ThreadRange(1, max_threads)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

std::vector<uint32_t> ReadModule(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path.c_str());
    std::exit(2);
  }
  std::stringstream bytes;
  bytes << in.rdbuf();
  const std::string data = bytes.str();
  if (path.extension() == ".spvasm") return AssembleOrDie(data);
  if (data.size() % 4 != 0 || data.empty()) {
    std::fprintf(stderr, "%s is not a SPIR-V binary (size %zu)\n", path.c_str(), data.size());
    std::exit(2);
  }
  std::vector<uint32_t> words(data.size() / 4);
  std::memcpy(words.data(), data.data(), data.size());
  return words;
}

void RegisterFile(const std::filesystem::path& path, const std::string& env) {
  static std::vector<std::unique_ptr<std::vector<uint32_t>>> modules;
  modules.push_back(std::make_unique<std::vector<uint32_t>>(ReadModule(path)));
  val::Options options;
  const auto parsed = ParseTargetEnv(env);
  if (!parsed) {
    std::fprintf(stderr, "unknown target environment '%s'\n", env.c_str());
    std::exit(2);
  }
  options.env = *parsed;
  const std::vector<uint32_t>* words = modules.back().get();
  benchmark::RegisterBenchmark(("BM_ValidateFile/" + path.filename().string()).c_str(),
                               [words, options](benchmark::State& s) { Run(s, *words, options); });
}

// Arguments left after Google Benchmark's own flags: files, file:env, or directories with a
// MANIFEST.tsv.
void RegisterArguments(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with("--")) continue;
    const std::filesystem::path dir = arg;
    if (std::filesystem::is_directory(dir)) {
      std::ifstream manifest(dir / "MANIFEST.tsv");
      std::string line;
      while (std::getline(manifest, line)) {
        std::istringstream f(line);
        std::string file, version, env;
        std::getline(f, file, '\t');
        std::getline(f, version, '\t');
        std::getline(f, env, '\t');
        if (file == "file" || file.empty()) continue;
        RegisterFile(dir / file, env.empty() ? "vulkan1.3" : env);
      }
      continue;
    }
    const size_t colon = arg.rfind(':');
    if (colon != std::string::npos && !std::filesystem::exists(arg)) {
      RegisterFile(arg.substr(0, colon), arg.substr(colon + 1));
    } else {
      RegisterFile(arg, "vulkan1.3");
    }
  }
}

}  // namespace
}  // namespace coopspv::bench

int main(int argc, char** argv) {
  // `bazel run` starts in the runfiles tree; the corpus is read from the workspace.
  if (const char* dir = std::getenv("BUILD_WORKSPACE_DIRECTORY"))
    std::filesystem::current_path(dir);
  // A driver validates module after module in one process, and its allocator hands the same
  // memory back each time. Large blocks would otherwise be fresh mmap()ed pages on every
  // iteration, and the kernel's zeroing of them (proportional to the bytes, but only for blocks
  // over glibc's 32 MB mmap threshold) would make the largest modules look superlinear.
  // --fresh_memory keeps glibc's default.
  bool fresh_memory = false;
  int threads = 2;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    fresh_memory |= arg == "--fresh_memory";
    if (arg.starts_with("--threads=")) threads = std::max(1, std::atoi(argv[i] + 10));
  }
  if (!fresh_memory) {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, -1);
  }
  benchmark::Initialize(&argc, argv);
  coopspv::bench::RegisterCorpus();
  coopspv::bench::RegisterCorpusThreads(threads);
  coopspv::bench::RegisterArguments(argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
