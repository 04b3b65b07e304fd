// Image formats by Amber's names (a VkFormat's name without VK_FORMAT_: R8G8B8A8_UNORM,
// R32_SFLOAT, B10G11R11_UFLOAT_PACK32, ...): what `IMAGE ... FORMAT`, `BUFFER ... DATA_TYPE
// <format>` and the images and texel buffers of a pipeline are made of. A format's name says its
// components in memory order, each with its width and numeric format.
#ifndef COOPSPV_SOURCE_RUN_FORMAT_H_
#define COOPSPV_SOURCE_RUN_FORMAT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coopspv::run {

struct DataType;

// The numeric format of a component (Vulkan's "Numeric Format" of a VkFormat).
enum class NumericFormat : uint8_t {
  kUNorm,
  kSNorm,
  kUScaled,
  kSScaled,
  kUInt,
  kSInt,
  kUFloat,
  kSFloat,
  kSRGB
};

struct FormatComponent {
  char channel;  // 'R', 'G', 'B', 'A', 'D' (depth), 'S' (stencil) or 'X' (unused).
  NumericFormat numeric;
  uint32_t bits;
};

struct ImageFormat {
  std::string_view name;
  uint32_t vk_format;                       // VkFormat.
  std::vector<FormatComponent> components;  // In memory order (the name's order).
  uint32_t pack_bits = 0;                   // _PACK8/16/32: the whole texel is one word.

  uint32_t TexelBytes() const;
  bool HasDepth() const;
  bool HasStencil() const;
};

// The format of this name or VkFormat; nullptr for anything else.
const ImageFormat* FindImageFormat(std::string_view name);
const ImageFormat* FindImageFormat(uint32_t vk_format);

// The buffer element type a format's texels are read and written as: its components, one
// numeric kind and width for all of them, tightly packed (no std430 padding); a packed format
// is one unsigned component of the pack's width, as Amber reads it. False with the reason for
// the formats whose components differ in width or kind (D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT).
bool FormatDataType(const ImageFormat& format, DataType* type, std::string* why);

// The format of the images and texel buffers made of a buffer of `type`: the type's own format,
// or for a scalar or vector type the format of its components (vec4<int32>: R32G32B32A32_SINT,
// float: R32_SFLOAT) as Amber names it. nullopt where the texels would not be the type's elements
// (matrices, a vec3 padded to a vec4's room).
std::optional<uint32_t> ImageFormatOf(const DataType& type);

// What Amber's EXPECT ... EQ_RGB / EQ_RGBA compares component `k` of an element of `type`
// against: 'R', 'G', 'B', 'A', or another letter for the components it skips. A format's
// components have their channels; the components of a scalar, vector or matrix column of a data
// type are all compared against the channel of their column ('R' for a vector), as Amber does.
char ProbeChannel(const DataType& type, uint32_t k);

// The numeric format of component `k` of an element of `type` (UNorm values are scaled to
// [0, 1] before a probe compares them).
NumericFormat ComponentNumericFormat(const DataType& type, uint32_t k);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_FORMAT_H_
