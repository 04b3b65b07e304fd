// Optimizer pipeline time (freeze -> fold -> fold-coop-length -> eliminate -> compact) and
// each pass alone, on generated modules of about 100K and 1M instructions:
//   bazel run -c opt //test/bench:opt_bench
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <map>

#include "source/opt/pass_manager.h"
#include "source/opt/passes.h"
#include "source/text/assembler.h"
#include "test/bench/module_generator.h"

namespace coopspv::bench {
namespace {

const std::vector<uint32_t>& Generated(size_t blocks) {
  static std::map<size_t, std::vector<uint32_t>> cache;
  auto it = cache.find(blocks);
  if (it != cache.end()) return it->second;
  std::vector<uint32_t> words;
  Diagnostic d;
  if (!text::Assemble(GenerateModuleText(blocks), {}, &words, &d)) {
    std::fprintf(stderr, "cannot assemble benchmark module: %s\n", d.ToString().c_str());
    std::abort();
  }
  return cache.emplace(blocks, std::move(words)).first->second;
}

void RunPipeline(benchmark::State& state, const std::vector<const char*>& flags) {
  const auto& words = Generated(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    Diagnostic d;
    auto module = ir::Module::Read(words, &d);
    opt::PassManager manager;
    for (const char* flag : flags) {
      std::string error;
      const auto* info = opt::FindPass(flag);
      manager.Add(info->create(std::string(flag) == "fold-coop-length" ? "32" : "", &error));
    }
    state.ResumeTiming();
    std::string error;
    if (!manager.Run(&module, {}, nullptr, &error)) state.SkipWithError(error.c_str());
    benchmark::DoNotOptimize(module->words().data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * words.size() * 4));
}

void BM_Pipeline(benchmark::State& state) {
  RunPipeline(state, {"freeze-spec-const", "fold-spec-const", "fold-coop-length", "eliminate-dead",
                      "compact-ids"});
}
BENCHMARK(BM_Pipeline)->Arg(2500)->Arg(25000)->Unit(benchmark::kMillisecond);

void BM_FreezeSpecConst(benchmark::State& s) { RunPipeline(s, {"freeze-spec-const"}); }
void BM_FoldSpecConst(benchmark::State& s) { RunPipeline(s, {"fold-spec-const"}); }
void BM_FoldCoopLength(benchmark::State& s) { RunPipeline(s, {"fold-coop-length"}); }
void BM_EliminateDead(benchmark::State& s) { RunPipeline(s, {"eliminate-dead"}); }
void BM_CompactIds(benchmark::State& s) { RunPipeline(s, {"compact-ids"}); }
BENCHMARK(BM_FreezeSpecConst)->Arg(25000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FoldSpecConst)->Arg(25000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FoldCoopLength)->Arg(25000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EliminateDead)->Arg(25000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompactIds)->Arg(25000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace coopspv::bench

BENCHMARK_MAIN();
