// A pipeline's SHADER_OPTIMIZATION passes, run as Amber runs them: the SPIRV-Tools optimizer
// (Debian's spirv-tools) with the pass flags as written (spirv-opt's flag names).
#ifndef COOPSPV_SOURCE_RUN_SHADER_OPTIMIZATION_H_
#define COOPSPV_SOURCE_RUN_SHADER_OPTIMIZATION_H_

#include <cstdint>
#include <string>
#include <vector>

namespace coopspv::run {

// Runs `flags` (e.g. "--graphics-robust-access") on `words`, for the universal environment of
// the module's SPIR-V version. False with the optimizer's messages in `error`.
bool OptimizeWithSpirvTools(const std::vector<uint32_t>& words,
                            const std::vector<std::string>& flags, std::vector<uint32_t>* out,
                            std::string* error);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_SHADER_OPTIMIZATION_H_
