// What VK_LAYER_coopspv does to a module, through the public API: validate it for the device
// (as created, or specialized by a pipeline) and legalize it for the real device, each result
// kept in the cache (source/layer/cache.h) under a hash of everything it depends on.
#ifndef COOPSPV_SOURCE_LAYER_SHADERS_H_
#define COOPSPV_SOURCE_LAYER_SHADERS_H_

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "source/layer/cache.h"
#include "source/run/script.h"

namespace coopspv::layer {

// A pipeline's VkSpecializationInfo as coopspv-run's SPECIALIZE values: each map entry's bytes
// (1, 2, 4 or 8, little-endian) as an unsigned integer of that size, which the constant reads
// as its own type. Entries whose bytes lie outside pData are left out.
std::vector<run::SpecConstant> SpecConstantsOf(const VkSpecializationInfo* info);

// How a module is validated: the environment of the device's (and application's) Vulkan
// version, the block layouts the device enabled, the device profile.
struct ValidationSetup {
  std::string target_env;
  bool scalar_block_layout = false;
  bool uniform_buffer_standard_layout = false;
  bool workgroup_scalar_block_layout = false;
  std::shared_ptr<const DeviceProfileHandle> profile;
  CacheKey profile_key;  // The hash of its JSON text: part of the cache key.
};

// Where a result came from: computed now, or found in memory or in the cache directory.
enum class Source { kComputed, kMemory, kDisk };

struct Verdict {
  bool valid = true;
  std::vector<ValidationDiagnostic> diagnostics;
  Source source = Source::kComputed;
};

// The hash of a module's words and coopspv's version, part of every cache key of the module.
CacheKey ModuleKey(std::span<const uint32_t> words);

// Validates the module specialized by `spec` (as coopspv-run does: the values become the spec
// constants' defaults), or found in the cache. False only when validation could not run
// (`error`: a bad option); an invalid module is a verdict.
// `module_key` is ModuleKey(words), computed once per module: a cache hit hashes only the rest.
bool ValidateModule(std::span<const uint32_t> words, const CacheKey& module_key,
                    std::span<const run::SpecConstant> spec, const ValidationSetup& setup,
                    Cache& cache, Verdict* verdict, std::string* error);

// The module specialized by `spec`, frozen, folded and legalized for the device whose profile
// is `device_json` (its subgroup size the one the pipeline runs with; `device_key` the hash of
// the text), or found in the cache. False with the reason when the legalization fails. A
// `lower_coop_vector` argument runs --lower-coop-vector=<it> before the legalization (which
// would lower cooperative vectors without reading the optimal layouts). `one_subgroup`, when
// not 0: the module's LocalSize becomes one_subgroup x 1 x 1 first (a module whose invocations
// all do the same work, emulate.h's IdenticalInvocations).
bool LegalizeModule(std::span<const uint32_t> words, const CacheKey& module_key,
                    std::span<const run::SpecConstant> spec, const std::string& target_env,
                    const std::string& device_json, const CacheKey& device_key,
                    uint32_t one_subgroup, Cache& cache,
                    std::shared_ptr<const std::vector<uint32_t>>* out, Source* source,
                    std::string* error, const std::string& lower_coop_vector = "");

// A diagnostic as one line: "error: rule: message [clause] (instruction)".
std::string DiagnosticLine(const ValidationDiagnostic& d);

// The verdict's bytes in the cache, and back (false for bytes that do not read).
std::string SerializeVerdict(const Verdict& verdict);
bool DeserializeVerdict(const std::string& bytes, Verdict* verdict);

}  // namespace coopspv::layer

#endif  // COOPSPV_SOURCE_LAYER_SHADERS_H_
