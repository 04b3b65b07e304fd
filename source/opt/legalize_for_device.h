// --legalize-for-device: what a device offers, as the legalization needs it, and the driver pass
// that picks the sub-passes which make a module acceptable there.
#ifndef COOPSPV_SOURCE_OPT_LEGALIZE_FOR_DEVICE_H_
#define COOPSPV_SOURCE_OPT_LEGALIZE_FOR_DEVICE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "source/opt/pass.h"
#include "source/profile/device_profile.h"

namespace coopspv::opt {

// The device facts legalization reads (a device profile reduces to these).
struct LegalizeTarget {
  bool has_khr_coop_matrix = false;  // VK_KHR_cooperative_matrix.
  bool has_nv_coop_matrix = false;   // VK_NV_cooperative_matrix.
  bool has_decode_vector = false;    // VK_NV_cooperative_matrix_decode_vector.
  bool has_coop_vector = false;      // VK_NV_cooperative_vector.
  bool has_long_vector = false;      // VK_EXT_shader_long_vector (longVector).
  bool has_matrix2 = false;          // VK_NV_cooperative_matrix2.
  bool has_bfloat16 = false;         // shaderBFloat16Type.
  bool has_float8 = false;           // shaderFloat8.
  // VK_KHR_shader_non_semantic_info (Vulkan 1.3 core) and
  // VK_KHR_shader_relaxed_extended_instruction: without them, debug info is stripped.
  bool has_non_semantic = true;
  bool has_relaxed_extended_instruction = true;
  uint32_t subgroup_size = 0;        // For the lowering; 0 when unknown.
  uint32_t min_subgroup_size = 0;    // Sizes the NV-to-KHR Use copies' scratch; 0: unknown.
  // The whole profile, when the target came from one: the legalized module is then checked
  // against the device rules (coopspv-val --device-profile), and the driver fails naming the
  // first rule the device still refuses.
  std::shared_ptr<const profile::DeviceProfile> profile;
};

// Reads a device profile (a built-in name such as "h100" or "lavapipe", the JSON text itself when
// it starts with '{', else a JSON file; docs/device_profile.md) into a target: which cooperative
// extensions the device has (KHR matrices only with the cooperativeMatrix feature, vectors only
// with cooperativeVector) and its subgroup size.
bool LegalizeTargetFromProfile(std::string_view profile, LegalizeTarget* target,
                               std::string* error);

// The driver: in order, --strip-decode-vector when the device lacks decode vectors;
// --lower-coop-matrix2=<subgroup size> when the module uses matrix2 (its capabilities, or
// Workgroup-scope KHR matrices) and the device lacks it; --coop-matrix-nv-to-khr when the module
// uses NV matrices and the device has only KHR ones;
// --lower-coop-matrix=<subgroup size> when it has neither; --lower-coop-vector when it lacks
// cooperative vectors (--lower-coop-vector=lower-long-vectors when it lacks long vectors too,
// and the module declares LongVectorEXT); then --lower-small-floats when the module still declares
// bfloat16 / float8 scalars the device lacks. Fails naming what it cannot fix (a lowering without a
// subgroup size, what a lowering refuses, a device rule the result still breaks). Its sub-passes'
// timings follow its own in
// --time-report.
std::unique_ptr<Pass> CreateLegalizeForDevicePass(const LegalizeTarget& target);

}  // namespace coopspv::opt

#endif  // COOPSPV_SOURCE_OPT_LEGALIZE_FOR_DEVICE_H_
