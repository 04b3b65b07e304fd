#include "source/layer/emulate_coopvec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "source/common/float.h"

namespace coopspv::layer {
namespace {

using profile::ComponentType;

// SPIR-V: OpCapability, CooperativeVectorNV, CooperativeVectorTrainingNV.
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kCooperativeVectorNV = 5394;
constexpr uint32_t kCooperativeVectorTrainingNV = 5435;

// VkCooperativeVectorMatrixLayoutNV.
constexpr uint32_t kRowMajor = 0, kColumnMajor = 1, kTrainingOptimal = 3;

}  // namespace

AtomicFloatAdds ReadAtomicFloatAdds(const run::VulkanApi& vk, VkPhysicalDevice device,
                                    const profile::DeviceProfile& real) {
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomic2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  void** next = &features.pNext;
  if (real.HasExtension(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME)) {
    *next = &atomic;
    next = &atomic.pNext;
  }
  if (real.HasExtension(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME)) *next = &atomic2;
  AtomicFloatAdds adds;
  if (features.pNext == nullptr || vk.vkGetPhysicalDeviceFeatures2 == nullptr) return adds;
  vk.vkGetPhysicalDeviceFeatures2(device, &features);
  adds.float16 = atomic2.shaderBufferFloat16AtomicAdd != VK_FALSE;
  adds.float32 = atomic.shaderBufferFloat32AtomicAdd != VK_FALSE;
  adds.float64 = atomic.shaderBufferFloat64AtomicAdd != VK_FALSE;
  return adds;
}

void RemoveNativeVectors(profile::DeviceProfile* p) {
  std::erase(p->extensions, kNvCooperativeVector);
  p->features.cooperativeVector = p->features.cooperativeVectorTraining = false;
  p->properties.cooperativeVectorSupportedStages = 0;
  p->properties.cooperativeVectorTrainingFloat16Accumulation = false;
  p->properties.cooperativeVectorTrainingFloat32Accumulation = false;
  p->properties.maxCooperativeVectorComponents = 0;
  p->cooperativeVectorProperties.clear();
}

std::vector<profile::CooperativeVectorProperties> EmulatedVectorProperties(
    const profile::DeviceProfile& device) {
  using T = ComponentType;
  std::vector<profile::CooperativeVectorProperties> out;
  auto add = [&](T input, T interpretation, T matrix, T bias, T result) {
    out.push_back({input, interpretation, matrix, bias, result, true});
  };
  add(T::kFloat32, T::kFloat32, T::kFloat32, T::kFloat32, T::kFloat32);
  if (device.features.shaderFloat16) {
    add(T::kFloat16, T::kFloat16, T::kFloat16, T::kFloat16, T::kFloat16);
    // float8 matrices: the lowering decodes E4M3 / E5M2 in software.
    add(T::kFloat16, T::kFloat8E4M3, T::kFloat8E4M3, T::kFloat16, T::kFloat16);
    add(T::kFloat16, T::kFloat8E5M2, T::kFloat8E5M2, T::kFloat16, T::kFloat16);
  }
  if (device.features.shaderInt8) {
    // NVIDIA's: signed or unsigned 8-bit matrices, with an input of 8-bit values (as 8-bit
    // integers, 32-bit integers, float32 or packed four to a uint32), a sint32 bias and result.
    for (T matrix : {T::kSint8, T::kUint8}) {
      for (T interpretation : {T::kSint8, T::kUint8}) {
        const T packed = interpretation == T::kSint8 ? T::kSint8Packed : T::kUint8Packed;
        add(interpretation, interpretation, matrix, T::kSint32, T::kSint32);
        add(T::kSint32, interpretation, matrix, T::kSint32, T::kSint32);
        add(T::kUint32, packed, matrix, T::kSint32, T::kSint32);
        if (interpretation == T::kSint8 && matrix == T::kSint8) {
          add(T::kFloat32, interpretation, matrix, T::kSint32, T::kSint32);
        }
      }
    }
  }
  return out;
}

run::CooperativeVectorDevicePropertiesNV EmulatedVectorDeviceProperties(const VectorEmulation& e) {
  run::CooperativeVectorDevicePropertiesNV p;
  // The layer rewrites compute pipelines only.
  p.cooperativeVectorSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
  p.cooperativeVectorTrainingFloat16Accumulation = e.atomics.float16 ? VK_TRUE : VK_FALSE;
  p.cooperativeVectorTrainingFloat32Accumulation = e.atomics.float32 ? VK_TRUE : VK_FALSE;
  // As NVIDIA's; the lowering takes any count (arrays in Function memory).
  p.maxCooperativeVectorComponents = 512;
  return p;
}

void AdvertiseVectors(const VectorEmulation& e, const profile::DeviceProfile& device,
                      profile::DeviceProfile* p) {
  auto add_extension = [&](const char* name) {
    if (!p->HasExtension(name)) {
      p->extensions.push_back(name);
      std::sort(p->extensions.begin(), p->extensions.end());
    }
  };
  if (e.replicated_composites) {
    add_extension(kExtReplicatedComposites);
    p->features.shaderReplicatedComposites = true;
  }
  if (!e.vectors) return;
  add_extension(kNvCooperativeVector);
  p->features.cooperativeVector = true;
  p->features.cooperativeVectorTraining = e.training();
  const run::CooperativeVectorDevicePropertiesNV v = EmulatedVectorDeviceProperties(e);
  p->properties.cooperativeVectorSupportedStages = v.cooperativeVectorSupportedStages;
  p->properties.cooperativeVectorTrainingFloat16Accumulation =
      v.cooperativeVectorTrainingFloat16Accumulation;
  p->properties.cooperativeVectorTrainingFloat32Accumulation =
      v.cooperativeVectorTrainingFloat32Accumulation;
  p->properties.maxCooperativeVectorComponents = v.maxCooperativeVectorComponents;
  p->cooperativeVectorProperties = EmulatedVectorProperties(device);
}

void FillVectorFeatures(void* chain, const VectorEmulation& e) {
  for (auto* s = static_cast<VkBaseOutStructure*>(chain); s != nullptr; s = s->pNext) {
    if (e.vectors && s->sType == kCooperativeVectorFeaturesNV) {
      auto* f = reinterpret_cast<CooperativeVectorFeaturesNV*>(s);
      f->cooperativeVector = VK_TRUE;
      f->cooperativeVectorTraining = e.training() ? VK_TRUE : VK_FALSE;
    } else if (e.replicated_composites && s->sType == kReplicatedCompositesFeaturesEXT) {
      reinterpret_cast<ReplicatedCompositesFeaturesEXT*>(s)->shaderReplicatedComposites = VK_TRUE;
    }
  }
}

void FillVectorProperties(void* chain, const VectorEmulation& e) {
  if (!e.vectors) return;
  for (auto* s = static_cast<VkBaseOutStructure*>(chain); s != nullptr; s = s->pNext) {
    if (s->sType == kCooperativeVectorPropertiesNV) {
      auto* p = reinterpret_cast<run::CooperativeVectorDevicePropertiesNV*>(s);
      run::CooperativeVectorDevicePropertiesNV v = EmulatedVectorDeviceProperties(e);
      v.pNext = p->pNext;
      *p = v;
    }
  }
}

std::string LowerCoopVectorArgument(const VectorEmulation& e) {
  std::string argument = "optimal-as-row-major";
  if (e.atomics.float16) argument += ",atomic-float16-add";
  if (e.atomics.float32) argument += ",atomic-float32-add";
  if (e.atomics.float64) argument += ",atomic-float64-add";
  return argument;
}

bool DeclaresCapability(std::span<const uint32_t> words, uint32_t capability) {
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || opcode != kOpCapability) return false;
    if (count >= 2 && i + 1 < words.size() && words[i + 1] == capability) return true;
    i += count;
  }
  return false;
}

bool DeclaresCoopVectors(std::span<const uint32_t> words) {
  return DeclaresCapability(words, kCooperativeVectorNV) ||
         DeclaresCapability(words, kCooperativeVectorTrainingNV);
}

namespace {

// VkComponentTypeKHR of a matrix element: its size, and its float format (nullopt: an integer).
struct Component {
  uint32_t bytes = 0;
  std::optional<FloatFormat> format;
};
std::optional<Component> ComponentOf(uint32_t type) {
  switch (static_cast<ComponentType>(type)) {
    case ComponentType::kFloat16:
      return Component{2, kHalf};
    case ComponentType::kFloat32:
      return Component{4, kSingle};
    case ComponentType::kFloat64:
      return Component{8, kDouble};
    case ComponentType::kFloat8E4M3:
      return Component{1, kFloat8E4M3};
    case ComponentType::kFloat8E5M2:
      return Component{1, kFloat8E5M2};
    case ComponentType::kSint8:
    case ComponentType::kUint8:
      return Component{1, std::nullopt};
    case ComponentType::kSint16:
    case ComponentType::kUint16:
      return Component{2, std::nullopt};
    case ComponentType::kSint32:
    case ComponentType::kUint32:
      return Component{4, std::nullopt};
    case ComponentType::kSint64:
    case ComponentType::kUint64:
      return Component{8, std::nullopt};
    default:
      return std::nullopt;
  }
}

uint64_t Mask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

double DecodeFloat(uint64_t bits, const FloatFormat& f) {
  const bool negative = (bits >> (f.width() - 1)) & 1;
  const uint64_t exponent = (bits >> f.mantissa_bits) & Mask(f.exponent_bits);
  const uint64_t mantissa = bits & Mask(f.mantissa_bits);
  const bool top = exponent == Mask(f.exponent_bits);
  double v;
  if (f.finite_only && top && mantissa == Mask(f.mantissa_bits)) {
    v = std::numeric_limits<double>::quiet_NaN();
  } else if (!f.finite_only && top) {
    v = mantissa != 0 ? std::numeric_limits<double>::quiet_NaN()
                      : std::numeric_limits<double>::infinity();
  } else if (exponent == 0) {
    v = std::ldexp(static_cast<double>(mantissa), 1 - f.bias() - f.mantissa_bits);
  } else {
    v = std::ldexp(static_cast<double>(mantissa | (uint64_t{1} << f.mantissa_bits)),
                   static_cast<int>(exponent) - f.bias() - f.mantissa_bits);
  }
  return negative ? -v : v;
}

// Round to nearest even. Out of range: infinity (float16), the largest finite value (E4M3,
// E5M2: saturated, as the lowering converts to them).
uint64_t EncodeFloat(double v, const FloatFormat& f) {
  if (f.width() == 64) return std::bit_cast<uint64_t>(v);
  if (f.width() == 32) return std::bit_cast<uint32_t>(static_cast<float>(v));
  const uint64_t sign = std::signbit(v) ? uint64_t{1} << (f.width() - 1) : 0;
  const uint64_t all_ones = Mask(f.exponent_bits) << f.mantissa_bits;
  const bool saturate = f.width() == 8;
  if (std::isnan(v)) return sign | all_ones | Mask(f.mantissa_bits);
  // The largest finite value: for E4M3 the all-ones exponent with all but the NaN mantissa.
  const uint64_t max_bits =
      f.finite_only ? all_ones | (Mask(f.mantissa_bits) - 1)
                    : (all_ones - (uint64_t{1} << f.mantissa_bits)) | Mask(f.mantissa_bits);
  const double max = DecodeFloat(max_bits, f);
  // Half an ulp of the largest value above it rounds away (to even, which is beyond).
  const double overflow =
      max + std::ldexp(1.0, static_cast<int>(std::ilogb(max)) - f.mantissa_bits - 1);
  if (saturate && std::fabs(v) > max) return sign | max_bits;
  if (std::fabs(v) >= overflow) return sign | all_ones;  // Infinity.
  uint64_t bits = 0;
  std::string error;
  if (!ParseFloat(FormatHexFloat(std::bit_cast<uint64_t>(v), kDouble), f, &bits, &error)) {
    return sign | max_bits;
  }
  return bits;
}

// The bytes a matrix needs in a layout: a standard one's lines (rows of a row-major matrix)
// `stride` apart, the last one whole; an optimal one as row-major, tight.
uint64_t MatrixExtent(uint32_t layout, uint32_t rows, uint32_t columns, uint32_t bytes,
                      uint64_t stride) {
  if (layout != kRowMajor && layout != kColumnMajor) return uint64_t{rows} * columns * bytes;
  const uint32_t lines = layout == kRowMajor ? rows : columns;
  const uint64_t line = uint64_t{layout == kRowMajor ? columns : rows} * bytes;
  return lines == 0 ? 0 : stride * (lines - 1) + line;
}

}  // namespace

VkResult ConvertMatrixOnHost(const run::ConvertCooperativeVectorMatrixInfoNV& info,
                             std::string* error) {
  const std::optional<Component> src = ComponentOf(info.srcComponentType);
  const std::optional<Component> dst = ComponentOf(info.dstComponentType);
  if (!src || !dst) {
    *error = "a component type (" + std::to_string(info.srcComponentType) + ", " +
             std::to_string(info.dstComponentType) + ") that no matrix has";
    return VK_ERROR_UNKNOWN;
  }
  if (info.srcComponentType != info.dstComponentType && !(src->format && dst->format)) {
    *error = "a conversion between different component types needs float types on both sides";
    return VK_ERROR_UNKNOWN;
  }
  if (info.srcLayout > kTrainingOptimal || info.dstLayout > kTrainingOptimal) {
    *error = "an unknown VkCooperativeVectorMatrixLayoutNV";
    return VK_ERROR_UNKNOWN;
  }
  if (info.pDstSize == nullptr) {
    *error = "pDstSize is NULL";
    return VK_ERROR_UNKNOWN;
  }
  // The standard layouts' strides: at least a line, a multiple of the component's size; 0 reads
  // as a tight stride.
  auto stride_of = [&](uint32_t layout, size_t stride, uint32_t bytes, const char* which,
                       uint64_t* out) {
    if (layout != kRowMajor && layout != kColumnMajor) {
      *out = 0;
      return true;
    }
    const uint64_t line = uint64_t{layout == kRowMajor ? info.numColumns : info.numRows} * bytes;
    *out = stride == 0 ? line : stride;
    if (*out < line || *out % bytes != 0) {
      *error = std::string(which) + "Stride " + std::to_string(stride) +
               " is smaller than a line of the matrix (" + std::to_string(line) +
               " bytes) or not a multiple of the component's size";
      return false;
    }
    return true;
  };
  uint64_t src_stride = 0, dst_stride = 0;
  if (!stride_of(info.srcLayout, info.srcStride, src->bytes, "src", &src_stride) ||
      !stride_of(info.dstLayout, info.dstStride, dst->bytes, "dst", &dst_stride)) {
    return VK_ERROR_UNKNOWN;
  }
  const uint64_t dst_needed =
      MatrixExtent(info.dstLayout, info.numRows, info.numColumns, dst->bytes, dst_stride);
  if (info.dstData.hostAddress == nullptr) {
    *info.pDstSize = dst_needed;
    return VK_SUCCESS;
  }
  if (info.srcData.hostAddress == nullptr) {
    *error =
        "srcData is NULL and dstData is not (VUID-vkConvertCooperativeVectorMatrixNV-pInfo-10073)";
    return VK_ERROR_UNKNOWN;
  }
  const uint64_t src_needed =
      MatrixExtent(info.srcLayout, info.numRows, info.numColumns, src->bytes, src_stride);
  if (info.srcSize < src_needed) {
    *error = "srcSize " + std::to_string(info.srcSize) + " is smaller than the source matrix (" +
             std::to_string(src_needed) +
             " bytes; VUID-vkConvertCooperativeVectorMatrixNV-pInfo-10074)";
    return VK_ERROR_UNKNOWN;
  }
  if (*info.pDstSize < dst_needed) return VK_INCOMPLETE;
  // Element (r, c): a row-major (or optimal) matrix at r * stride + c * size, column-major at
  // c * stride + r * size.
  auto at = [&](uint32_t layout, uint64_t stride, uint32_t bytes, uint32_t r, uint32_t c) {
    if (layout == kColumnMajor) return c * stride + uint64_t{r} * bytes;
    if (layout != kRowMajor) stride = uint64_t{info.numColumns} * bytes;
    return r * stride + uint64_t{c} * bytes;
  };
  // A copy of the source: the two may overlap.
  const auto* src_data = static_cast<const uint8_t*>(info.srcData.hostAddress);
  const std::vector<uint8_t> from(src_data, src_data + src_needed);
  auto* to = static_cast<uint8_t*>(info.dstData.hostAddress);
  for (uint32_t r = 0; r < info.numRows; ++r) {
    for (uint32_t c = 0; c < info.numColumns; ++c) {
      const uint8_t* in = from.data() + at(info.srcLayout, src_stride, src->bytes, r, c);
      uint8_t* out = to + at(info.dstLayout, dst_stride, dst->bytes, r, c);
      if (info.srcComponentType == info.dstComponentType) {
        std::memcpy(out, in, src->bytes);
        continue;
      }
      uint64_t bits = 0;
      for (uint32_t i = 0; i < src->bytes; ++i) bits |= uint64_t{in[i]} << (8 * i);
      const uint64_t converted = EncodeFloat(DecodeFloat(bits, *src->format), *dst->format);
      for (uint32_t i = 0; i < dst->bytes; ++i) out[i] = static_cast<uint8_t>(converted >> (8 * i));
    }
  }
  *info.pDstSize = dst_needed;
  return VK_SUCCESS;
}

}  // namespace coopspv::layer
