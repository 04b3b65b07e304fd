// Binary parse, assembly and disassembly throughput on a generated module of about 10 MB.
//   bazel run -c opt //test/bench:parse_bench
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "source/binary/reader.h"
#include "source/text/assembler.h"
#include "source/text/disassembler.h"
#include "test/bench/module_generator.h"

namespace coopspv::bench {
namespace {

// About 10 MB of SPIR-V.
const std::vector<uint32_t>& TenMegabyteModule() {
  static const std::vector<uint32_t> words = [] {
    std::vector<uint32_t> w;
    Diagnostic d;
    if (!text::Assemble(GenerateModuleText(16000), {}, &w, &d)) {
      std::fprintf(stderr, "generator produced bad assembly: %s\n", d.ToString().c_str());
      std::abort();
    }
    return w;
  }();
  return words;
}

void BM_ParseStream(benchmark::State& state) {
  const auto& words = TenMegabyteModule();
  struct Count : binary::InstructionHandler {
    size_t operands = 0;
    bool OnInstruction(const binary::ParsedInstruction& inst) override {
      operands += inst.operands.size();
      return true;
    }
  };
  for (auto _ : state) {
    Count count;
    Diagnostic d;
    if (!binary::Parse(words, count, &d)) state.SkipWithError(d.message.c_str());
    benchmark::DoNotOptimize(count.operands);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * words.size() * 4));
  state.counters["module_MB"] = words.size() * 4 / 1e6;
}
BENCHMARK(BM_ParseStream)->Unit(benchmark::kMillisecond);

void BM_ParseModule(benchmark::State& state) {
  const auto& words = TenMegabyteModule();
  for (auto _ : state) {
    binary::ParsedModule module;
    Diagnostic d;
    if (!binary::ParseModule(words, &module, &d)) state.SkipWithError(d.message.c_str());
    benchmark::DoNotOptimize(module.instructions.data());
    state.counters["instructions"] = module.instructions.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * words.size() * 4));
}
BENCHMARK(BM_ParseModule)->Unit(benchmark::kMillisecond);

void BM_Disassemble(benchmark::State& state) {
  const auto& words = TenMegabyteModule();
  for (auto _ : state) {
    std::string text;
    Diagnostic d;
    if (!text::Disassemble(words, {}, &text, &d)) state.SkipWithError(d.message.c_str());
    benchmark::DoNotOptimize(text.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * words.size() * 4));
}
BENCHMARK(BM_Disassemble)->Unit(benchmark::kMillisecond);

void BM_Assemble(benchmark::State& state) {
  const std::string text = GenerateModuleText(16000);
  for (auto _ : state) {
    std::vector<uint32_t> words;
    Diagnostic d;
    if (!text::Assemble(text, {}, &words, &d)) state.SkipWithError(d.message.c_str());
    benchmark::DoNotOptimize(words.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Assemble)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace coopspv::bench

BENCHMARK_MAIN();
