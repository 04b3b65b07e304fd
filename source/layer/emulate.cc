#include "source/layer/emulate.h"

#include <algorithm>
#include <array>

#include "source/run/vulkan.h"

namespace coopspv::layer {
namespace {

using profile::ComponentType;

// SPIR-V: OpCapability, CooperativeMatrixKHR, ...
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kCooperativeMatrixKHR = 6022;
constexpr uint32_t kCooperativeMatrixNV = 5357;
constexpr uint32_t kBFloat16TypeKHR = 5116;
constexpr uint32_t kOpEntryPoint = 15, kOpExecutionMode = 16, kOpConstant = 43, kOpDecorate = 71,
                   kOpMemberDecorate = 72, kOpExecutionModeId = 331,
                   kOpTypeCooperativeMatrixKHR = 4456, kOpTypeCooperativeMatrixNV = 5358;
constexpr uint32_t kDecorationBuiltIn = 11, kBuiltInNumWorkgroups = 24, kBuiltInWorkgroupId = 26;
constexpr uint32_t kExecutionModelGLCompute = 5, kLocalSize = 17, kLocalSizeId = 38;
constexpr uint32_t kScopeWorkgroup = 2;

bool IsGroupCapability(uint32_t c) {
  return c == 18 /* Groups */ || c == 58 /* SubgroupDispatch */ ||
         (c >= 61 && c <= 68) /* GroupNonUniform* */ || c == 4423 /* SubgroupBallotKHR */ ||
         c == 4431 /* SubgroupVoteKHR */ || c == 5297 /* GroupNonUniformPartitionedEXT */ ||
         (c >= 5568 && c <= 5579) /* Subgroup*INTEL */ || c == 6026 /* GroupNonUniformRotateKHR */ ||
         c == 6400 /* GroupUniformArithmeticKHR */;
}

bool IsAtomic(uint32_t opcode) {
  return (opcode >= 227 && opcode <= 242) || opcode == 318 || opcode == 319 || opcode == 5614 ||
         opcode == 5615 || opcode == 6035;
}

}  // namespace

std::string WhyNoEmulation(uint32_t api_version, VkShaderStageFlags subgroup_stages,
                           VkSubgroupFeatureFlags subgroup_operations) {
  if (api_version < VK_API_VERSION_1_1) return "the device is older than Vulkan 1.1";
  if (!(subgroup_stages & VK_SHADER_STAGE_COMPUTE_BIT)) {
    return "the device has no subgroup operations in compute shaders";
  }
  if (!(subgroup_operations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT)) {
    return "the device has no subgroup shuffles (VK_SUBGROUP_FEATURE_SHUFFLE_BIT)";
  }
  return "";
}

void RemoveNativeMatrices(profile::DeviceProfile* p) {
  std::erase(p->extensions, kKhrCooperativeMatrix);
  p->features.cooperativeMatrix = false;
  p->features.cooperativeMatrixRobustBufferAccess = false;
  p->properties.cooperativeMatrixSupportedStages = 0;
  p->cooperativeMatrixProperties.clear();
}

void RemoveNativeMatrix2(profile::DeviceProfile* p) {
  std::erase(p->extensions, kNvCooperativeMatrix2);
  profile::Features& f = p->features;
  f.cooperativeMatrixWorkgroupScope = f.cooperativeMatrixFlexibleDimensions =
      f.cooperativeMatrixReductions = f.cooperativeMatrixConversions =
          f.cooperativeMatrixPerElementOperations = f.cooperativeMatrixTensorAddressing =
              f.cooperativeMatrixBlockLoads = false;
  p->properties.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize = 0;
  p->properties.cooperativeMatrixFlexibleDimensionsMaxDimension = 0;
  p->properties.cooperativeMatrixWorkgroupScopeReservedSharedMemory = 0;
  p->cooperativeMatrixFlexibleDimensionsProperties.clear();
}

void RemoveNativeMatricesNV(profile::DeviceProfile* p) {
  std::erase(p->extensions, kNvCooperativeMatrix);
  p->properties.cooperativeMatrixSupportedStagesNV.reset();
  p->cooperativeMatrixPropertiesNV.clear();
}

namespace {

// The A / B and C / Result component types emulated: float16 with float16 or float32
// accumulators, 8-bit integers with 32-bit ones; each with its K (or K granularity).
struct TypeSet {
  ComponentType ab, c;
  uint32_t k;
  bool saturating = false;
};

// `nv`: VK_NV_cooperative_matrix's (no bfloat16, no saturating accumulation).
std::vector<TypeSet> EmulatedTypes(const profile::DeviceProfile& device, const Emulation& e,
                                   bool nv) {
  std::vector<TypeSet> out;
  if (device.features.shaderFloat16) {
    out.push_back({ComponentType::kFloat16, ComponentType::kFloat16, 16});
    out.push_back({ComponentType::kFloat16, ComponentType::kFloat32, 16});
  }
  if (!nv && (e.bfloat16 || device.features.shaderBFloat16Type)) {
    out.push_back({ComponentType::kBFloat16, ComponentType::kFloat32, 16});
  }
  if (device.features.shaderInt8) {
    out.push_back({ComponentType::kUint8, ComponentType::kUint32, 32});
    out.push_back({ComponentType::kSint8, ComponentType::kSint32, 32});
    if (!nv) {
      out.push_back({ComponentType::kUint8, ComponentType::kUint32, 32, true});
      out.push_back({ComponentType::kSint8, ComponentType::kSint32, 32, true});
    }
  }
  return out;
}

// The shapes listed for each type set, in order. Applications take the first shape of a type
// set and size their tiles by the subgroup (ggml's small matmul tiles are 8 rows wide on a
// subgroup of 8 and take the first float16 shape's M as theirs): a device whose subgroups are
// narrower than 16 lists 8x8xK first, as such devices do (8 x 8 is one element per invocation of
// a subgroup of 8, in 8 slots), then NVIDIA's 16x16xK and 16x8xK (float16 also 16x8x8).
std::vector<profile::CooperativeMatrixProperties> Shapes(const std::vector<TypeSet>& types,
                                                         uint32_t subgroup_size) {
  std::vector<profile::CooperativeMatrixProperties> out;
  for (const TypeSet& t : types) {
    std::vector<std::array<uint32_t, 3>> mnk;
    if (subgroup_size != 0 && subgroup_size < 16) mnk.push_back({8, 8, t.k});
    mnk.insert(mnk.end(), {{16, 16, t.k}, {16, 8, t.k}});
    if (t.k == 16) mnk.push_back({16, 8, 8});
    for (const auto& [m, n, k] : mnk) {
      out.push_back({m, n, k, t.ab, t.ab, t.c, t.c, t.saturating, profile::Scope::kSubgroup});
    }
  }
  return out;
}

}  // namespace

std::vector<profile::CooperativeMatrixProperties> EmulatedMatrixShapes(
    const profile::DeviceProfile& device, const Emulation& e) {
  return Shapes(EmulatedTypes(device, e, false), device.properties.subgroupSize);
}

std::vector<profile::CooperativeMatrixProperties> EmulatedMatrixShapesNV(
    const profile::DeviceProfile& device) {
  return Shapes(EmulatedTypes(device, Emulation(), true), device.properties.subgroupSize);
}

std::vector<profile::FlexibleDimensionsProperties> EmulatedFlexibleDimensions(
    const profile::DeviceProfile& device, const Emulation& e) {
  struct Granularity {
    profile::Scope scope;
    uint32_t m, n, invocations;
  };
  const Granularity granularities[] = {{profile::Scope::kSubgroup, 16, 16, 0},
                                       {profile::Scope::kWorkgroup, 16, 16, 32},
                                       {profile::Scope::kWorkgroup, 16, 16, 64},
                                       {profile::Scope::kWorkgroup, 32, 16, 128},
                                       {profile::Scope::kWorkgroup, 32, 32, 256}};
  std::vector<profile::FlexibleDimensionsProperties> out;
  for (const Granularity& g : granularities) {
    if (g.invocations > device.properties.maxComputeWorkGroupInvocations) continue;
    for (const TypeSet& t : EmulatedTypes(device, e, false)) {
      out.push_back({g.m, g.n, t.k, t.ab, t.ab, t.c, t.c, t.saturating, g.scope, g.invocations});
    }
  }
  return out;
}

run::CooperativeMatrix2DevicePropertiesNV EmulatedMatrix2Properties(
    const profile::DeviceProfile& device) {
  run::CooperativeMatrix2DevicePropertiesNV p;
  p.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize =
      std::min(256u, device.properties.maxComputeWorkGroupInvocations);
  p.cooperativeMatrixFlexibleDimensionsMaxDimension = 1024;
  // The lowering keeps Workgroup-scope matrices in Workgroup memory: a quarter of it is kept
  // from the application (the H100 keeps 8 KiB of 48).
  p.cooperativeMatrixWorkgroupScopeReservedSharedMemory =
      std::min(8192u, device.properties.maxComputeSharedMemorySize / 4);
  return p;
}

profile::DeviceProfile Advertised(const profile::DeviceProfile& device, const Emulation& e) {
  profile::DeviceProfile p = device;
  auto add_extension = [&](const char* name) {
    if (!p.HasExtension(name)) {
      p.extensions.push_back(name);
      std::sort(p.extensions.begin(), p.extensions.end());
    }
  };
  if (e.matrices) {
    add_extension(kKhrCooperativeMatrix);
    p.features.cooperativeMatrix = true;
    p.features.cooperativeMatrixRobustBufferAccess = false;
    p.properties.cooperativeMatrixSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
    p.cooperativeMatrixProperties = EmulatedMatrixShapes(device, e);
  }
  if (e.bfloat16) {
    add_extension(kKhrShaderBfloat16);
    p.features.shaderBFloat16Type = p.features.shaderBFloat16DotProduct =
        p.features.shaderBFloat16CooperativeMatrix = true;
  }
  if (e.matrices_nv) {
    add_extension(kNvCooperativeMatrix);
    p.properties.cooperativeMatrixSupportedStagesNV = VK_SHADER_STAGE_COMPUTE_BIT;
    p.cooperativeMatrixPropertiesNV = EmulatedMatrixShapesNV(device);
  }
  if (e.matrix2) {
    add_extension(kNvCooperativeMatrix2);
    profile::Features& f = p.features;
    f.cooperativeMatrixWorkgroupScope = f.cooperativeMatrixFlexibleDimensions =
        f.cooperativeMatrixReductions = f.cooperativeMatrixConversions =
            f.cooperativeMatrixPerElementOperations = f.cooperativeMatrixTensorAddressing =
                f.cooperativeMatrixBlockLoads = true;
    const run::CooperativeMatrix2DevicePropertiesNV m2 = EmulatedMatrix2Properties(device);
    p.properties.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize =
        m2.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
    p.properties.cooperativeMatrixFlexibleDimensionsMaxDimension =
        m2.cooperativeMatrixFlexibleDimensionsMaxDimension;
    p.properties.cooperativeMatrixWorkgroupScopeReservedSharedMemory =
        m2.cooperativeMatrixWorkgroupScopeReservedSharedMemory;
    p.cooperativeMatrixFlexibleDimensionsProperties = EmulatedFlexibleDimensions(device, e);
  }
  AdvertiseVectors(e.vector, device, &p);
  return p;
}

void FillFeatures(void* chain, const Emulation& e) {
  for (auto* s = static_cast<VkBaseOutStructure*>(chain); s != nullptr; s = s->pNext) {
    if (e.matrices && s->sType == run::kCooperativeMatrixFeaturesKHR) {
      auto* f = reinterpret_cast<run::CooperativeMatrixFeaturesKHR*>(s);
      f->cooperativeMatrix = VK_TRUE;
      f->cooperativeMatrixRobustBufferAccess = VK_FALSE;
    } else if (e.matrices_nv && s->sType == kCooperativeMatrixFeaturesNV) {
      auto* f = reinterpret_cast<VkPhysicalDeviceCooperativeMatrixFeaturesNV*>(s);
      f->cooperativeMatrix = VK_TRUE;
      f->cooperativeMatrixRobustBufferAccess = VK_FALSE;
    } else if (e.bfloat16 && s->sType == kShaderBfloat16FeaturesKHR) {
      auto* f = reinterpret_cast<ShaderBfloat16FeaturesKHR*>(s);
      f->shaderBFloat16Type = f->shaderBFloat16DotProduct = f->shaderBFloat16CooperativeMatrix =
          VK_TRUE;
    } else if (e.matrix2 && s->sType == run::kCooperativeMatrix2FeaturesNV) {
      auto* f = reinterpret_cast<run::CooperativeMatrix2FeaturesNV*>(s);
      f->cooperativeMatrixWorkgroupScope = f->cooperativeMatrixFlexibleDimensions =
          f->cooperativeMatrixReductions = f->cooperativeMatrixConversions =
              f->cooperativeMatrixPerElementOperations = f->cooperativeMatrixTensorAddressing =
                  f->cooperativeMatrixBlockLoads = VK_TRUE;
    }
  }
  FillVectorFeatures(chain, e.vector);
}

void FillProperties(void* chain, const Emulation& e, const profile::DeviceProfile& device) {
  for (auto* s = static_cast<VkBaseOutStructure*>(chain); s != nullptr; s = s->pNext) {
    if (e.matrices && s->sType == run::kPhysicalDeviceCooperativeMatrixPropertiesKHR) {
      reinterpret_cast<run::CooperativeMatrixDevicePropertiesKHR*>(s)
          ->cooperativeMatrixSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
    } else if (e.matrices_nv && s->sType == kCooperativeMatrixDevicePropertiesNV) {
      reinterpret_cast<VkPhysicalDeviceCooperativeMatrixPropertiesNV*>(s)
          ->cooperativeMatrixSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
    } else if (e.matrix2 && s->sType == run::kCooperativeMatrix2PropertiesNV) {
      auto* p = reinterpret_cast<run::CooperativeMatrix2DevicePropertiesNV*>(s);
      run::CooperativeMatrix2DevicePropertiesNV m2 = EmulatedMatrix2Properties(device);
      m2.pNext = p->pNext;
      *p = m2;
    }
  }
  FillVectorProperties(chain, e.vector);
}

bool NeedsMatrixEmulation(std::span<const uint32_t> words, const Emulation& e) {
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || opcode != kOpCapability) return false;
    if (count >= 2 && i + 1 < words.size()) {
      const uint32_t c = words[i + 1];
      if ((c == kCooperativeMatrixKHR && (e.matrices || e.matrix2)) || (c == kCooperativeMatrixNV && e.matrices_nv) ||
          (c == kBFloat16TypeKHR && e.bfloat16)) {
        return true;
      }
    }
    i += count;
  }
  return false;
}

uint32_t IdenticalInvocations(std::span<const uint32_t> words) {
  uint32_t entry_points = 0, local_size = 0, local_size_modes = 0;
  std::vector<uint32_t> matrix_scopes;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) return 0;
    const std::span<const uint32_t> w = words.subspan(i, count);
    if (opcode == kOpCapability && count >= 2 && IsGroupCapability(w[1])) return 0;
    if (IsAtomic(opcode)) return 0;
    if (opcode == kOpEntryPoint) {
      if (count < 3 || w[1] != kExecutionModelGLCompute) return 0;
      ++entry_points;
    } else if (opcode == kOpExecutionMode && count >= 3) {
      if (w[2] == kLocalSize) {
        if (count != 6) return 0;
        const uint64_t n = uint64_t{w[3]} * w[4] * w[5];
        if (n == 0 || n > 0xffffffffu) return 0;
        local_size = static_cast<uint32_t>(n);
        ++local_size_modes;
      } else if (w[2] == kLocalSizeId) {
        return 0;
      }
    } else if (opcode == kOpExecutionModeId && count >= 3 && w[2] == kLocalSizeId) {
      return 0;
    } else if (opcode == kOpDecorate && count >= 4 && w[2] == kDecorationBuiltIn) {
      if (w[3] != kBuiltInWorkgroupId && w[3] != kBuiltInNumWorkgroups) return 0;
    } else if (opcode == kOpMemberDecorate && count >= 5 && w[3] == kDecorationBuiltIn) {
      return 0;
    } else if ((opcode == kOpTypeCooperativeMatrixKHR || opcode == kOpTypeCooperativeMatrixNV) &&
               count >= 4) {
      matrix_scopes.push_back(w[3]);
    }
    i += count;
  }
  if (entry_points != 1 || local_size_modes != 1) return 0;
  // A Workgroup-scope matrix is shared by the workgroup's subgroups; a scope that is not a
  // constant (a specialization constant) may be Workgroup.
  // Each scope must be an OpConstant other than Workgroup.
  size_t subgroup_scopes = 0;
  for (size_t i = 5; i < words.size() && !matrix_scopes.empty();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (opcode == kOpConstant && count >= 4 &&
        std::find(matrix_scopes.begin(), matrix_scopes.end(), words[i + 2]) !=
            matrix_scopes.end()) {
      if (words[i + 3] == kScopeWorkgroup) return 0;
      subgroup_scopes += std::count(matrix_scopes.begin(), matrix_scopes.end(), words[i + 2]);
    }
    i += count;  // Not 0: the first loop read every instruction.
  }
  return subgroup_scopes == matrix_scopes.size() ? local_size : 0;
}

std::vector<uint32_t> WithLocalSize(std::span<const uint32_t> words, uint32_t x) {
  std::vector<uint32_t> out(words.begin(), words.end());
  for (size_t i = 5; i < out.size();) {
    const uint32_t count = out[i] >> 16, opcode = out[i] & 0xffff;
    if (count == 0 || i + count > out.size()) break;
    if (opcode == kOpExecutionMode && count == 6 && out[i + 2] == kLocalSize) {
      out[i + 3] = x;
      out[i + 4] = 1;
      out[i + 5] = 1;
    }
    i += count;
  }
  return out;
}

bool DeclaresKhrMatrices(std::span<const uint32_t> words) {
  return DeclaresCapability(words, kCooperativeMatrixKHR);
}

}  // namespace coopspv::layer
