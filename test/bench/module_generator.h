// Generates large, valid compute modules for benchmarks: a realistic mix of memory access,
// arithmetic, control flow and cooperative-matrix instructions, repeated to any size.
#ifndef COOPSPV_TEST_BENCH_MODULE_GENERATOR_H_
#define COOPSPV_TEST_BENCH_MODULE_GENERATOR_H_

#include <cstddef>
#include <string>

namespace coopspv::bench {

// Assembly text of a module with about `blocks` repetitions of a loop-body pattern (each about
// 40 instructions), spread over functions of at most 200 repetitions each.
std::string GenerateModuleText(size_t blocks);

}  // namespace coopspv::bench

#endif  // COOPSPV_TEST_BENCH_MODULE_GENERATOR_H_
