#include "source/run/format.h"

#include <vulkan/vulkan_core.h>

#include "source/run/script.h"

namespace coopspv::run {
namespace {

struct FormatName {
  std::string_view name;
  VkFormat format;
};

// The formats AmberScript names: every color format of Vulkan 1.0 with 8- to 64-bit components
// or a packed layout, and the depth / stencil ones.
#define COOPSPV_FORMAT(name) \
  { #name, VK_FORMAT_##name }
constexpr FormatName kFormatNames[] = {
    COOPSPV_FORMAT(A1R5G5B5_UNORM_PACK16),
    COOPSPV_FORMAT(A2B10G10R10_SINT_PACK32),
    COOPSPV_FORMAT(A2B10G10R10_SNORM_PACK32),
    COOPSPV_FORMAT(A2B10G10R10_SSCALED_PACK32),
    COOPSPV_FORMAT(A2B10G10R10_UINT_PACK32),
    COOPSPV_FORMAT(A2B10G10R10_UNORM_PACK32),
    COOPSPV_FORMAT(A2B10G10R10_USCALED_PACK32),
    COOPSPV_FORMAT(A2R10G10B10_SINT_PACK32),
    COOPSPV_FORMAT(A2R10G10B10_SNORM_PACK32),
    COOPSPV_FORMAT(A2R10G10B10_SSCALED_PACK32),
    COOPSPV_FORMAT(A2R10G10B10_UINT_PACK32),
    COOPSPV_FORMAT(A2R10G10B10_UNORM_PACK32),
    COOPSPV_FORMAT(A2R10G10B10_USCALED_PACK32),
    COOPSPV_FORMAT(A8B8G8R8_SINT_PACK32),
    COOPSPV_FORMAT(A8B8G8R8_SNORM_PACK32),
    COOPSPV_FORMAT(A8B8G8R8_SRGB_PACK32),
    COOPSPV_FORMAT(A8B8G8R8_SSCALED_PACK32),
    COOPSPV_FORMAT(A8B8G8R8_UINT_PACK32),
    COOPSPV_FORMAT(A8B8G8R8_UNORM_PACK32),
    COOPSPV_FORMAT(A8B8G8R8_USCALED_PACK32),
    COOPSPV_FORMAT(B10G11R11_UFLOAT_PACK32),
    COOPSPV_FORMAT(B4G4R4A4_UNORM_PACK16),
    COOPSPV_FORMAT(B5G5R5A1_UNORM_PACK16),
    COOPSPV_FORMAT(B5G6R5_UNORM_PACK16),
    COOPSPV_FORMAT(B8G8R8A8_SINT),
    COOPSPV_FORMAT(B8G8R8A8_SNORM),
    COOPSPV_FORMAT(B8G8R8A8_SRGB),
    COOPSPV_FORMAT(B8G8R8A8_SSCALED),
    COOPSPV_FORMAT(B8G8R8A8_UINT),
    COOPSPV_FORMAT(B8G8R8A8_UNORM),
    COOPSPV_FORMAT(B8G8R8A8_USCALED),
    COOPSPV_FORMAT(B8G8R8_SINT),
    COOPSPV_FORMAT(B8G8R8_SNORM),
    COOPSPV_FORMAT(B8G8R8_SRGB),
    COOPSPV_FORMAT(B8G8R8_SSCALED),
    COOPSPV_FORMAT(B8G8R8_UINT),
    COOPSPV_FORMAT(B8G8R8_UNORM),
    COOPSPV_FORMAT(B8G8R8_USCALED),
    COOPSPV_FORMAT(D16_UNORM),
    COOPSPV_FORMAT(D16_UNORM_S8_UINT),
    COOPSPV_FORMAT(D24_UNORM_S8_UINT),
    COOPSPV_FORMAT(D32_SFLOAT),
    COOPSPV_FORMAT(D32_SFLOAT_S8_UINT),
    COOPSPV_FORMAT(R16G16B16A16_SFLOAT),
    COOPSPV_FORMAT(R16G16B16A16_SINT),
    COOPSPV_FORMAT(R16G16B16A16_SNORM),
    COOPSPV_FORMAT(R16G16B16A16_SSCALED),
    COOPSPV_FORMAT(R16G16B16A16_UINT),
    COOPSPV_FORMAT(R16G16B16A16_UNORM),
    COOPSPV_FORMAT(R16G16B16A16_USCALED),
    COOPSPV_FORMAT(R16G16B16_SFLOAT),
    COOPSPV_FORMAT(R16G16B16_SINT),
    COOPSPV_FORMAT(R16G16B16_SNORM),
    COOPSPV_FORMAT(R16G16B16_SSCALED),
    COOPSPV_FORMAT(R16G16B16_UINT),
    COOPSPV_FORMAT(R16G16B16_UNORM),
    COOPSPV_FORMAT(R16G16B16_USCALED),
    COOPSPV_FORMAT(R16G16_SFLOAT),
    COOPSPV_FORMAT(R16G16_SINT),
    COOPSPV_FORMAT(R16G16_SNORM),
    COOPSPV_FORMAT(R16G16_SSCALED),
    COOPSPV_FORMAT(R16G16_UINT),
    COOPSPV_FORMAT(R16G16_UNORM),
    COOPSPV_FORMAT(R16G16_USCALED),
    COOPSPV_FORMAT(R16_SFLOAT),
    COOPSPV_FORMAT(R16_SINT),
    COOPSPV_FORMAT(R16_SNORM),
    COOPSPV_FORMAT(R16_SSCALED),
    COOPSPV_FORMAT(R16_UINT),
    COOPSPV_FORMAT(R16_UNORM),
    COOPSPV_FORMAT(R16_USCALED),
    COOPSPV_FORMAT(R32G32B32A32_SFLOAT),
    COOPSPV_FORMAT(R32G32B32A32_SINT),
    COOPSPV_FORMAT(R32G32B32A32_UINT),
    COOPSPV_FORMAT(R32G32B32_SFLOAT),
    COOPSPV_FORMAT(R32G32B32_SINT),
    COOPSPV_FORMAT(R32G32B32_UINT),
    COOPSPV_FORMAT(R32G32_SFLOAT),
    COOPSPV_FORMAT(R32G32_SINT),
    COOPSPV_FORMAT(R32G32_UINT),
    COOPSPV_FORMAT(R32_SFLOAT),
    COOPSPV_FORMAT(R32_SINT),
    COOPSPV_FORMAT(R32_UINT),
    COOPSPV_FORMAT(R4G4B4A4_UNORM_PACK16),
    COOPSPV_FORMAT(R4G4_UNORM_PACK8),
    COOPSPV_FORMAT(R5G5B5A1_UNORM_PACK16),
    COOPSPV_FORMAT(R5G6B5_UNORM_PACK16),
    COOPSPV_FORMAT(R64G64B64A64_SFLOAT),
    COOPSPV_FORMAT(R64G64B64A64_SINT),
    COOPSPV_FORMAT(R64G64B64A64_UINT),
    COOPSPV_FORMAT(R64G64B64_SFLOAT),
    COOPSPV_FORMAT(R64G64B64_SINT),
    COOPSPV_FORMAT(R64G64B64_UINT),
    COOPSPV_FORMAT(R64G64_SFLOAT),
    COOPSPV_FORMAT(R64G64_SINT),
    COOPSPV_FORMAT(R64G64_UINT),
    COOPSPV_FORMAT(R64_SFLOAT),
    COOPSPV_FORMAT(R64_SINT),
    COOPSPV_FORMAT(R64_UINT),
    COOPSPV_FORMAT(R8G8B8A8_SINT),
    COOPSPV_FORMAT(R8G8B8A8_SNORM),
    COOPSPV_FORMAT(R8G8B8A8_SRGB),
    COOPSPV_FORMAT(R8G8B8A8_SSCALED),
    COOPSPV_FORMAT(R8G8B8A8_UINT),
    COOPSPV_FORMAT(R8G8B8A8_UNORM),
    COOPSPV_FORMAT(R8G8B8A8_USCALED),
    COOPSPV_FORMAT(R8G8B8_SINT),
    COOPSPV_FORMAT(R8G8B8_SNORM),
    COOPSPV_FORMAT(R8G8B8_SRGB),
    COOPSPV_FORMAT(R8G8B8_SSCALED),
    COOPSPV_FORMAT(R8G8B8_UINT),
    COOPSPV_FORMAT(R8G8B8_UNORM),
    COOPSPV_FORMAT(R8G8B8_USCALED),
    COOPSPV_FORMAT(R8G8_SINT),
    COOPSPV_FORMAT(R8G8_SNORM),
    COOPSPV_FORMAT(R8G8_SRGB),
    COOPSPV_FORMAT(R8G8_SSCALED),
    COOPSPV_FORMAT(R8G8_UINT),
    COOPSPV_FORMAT(R8G8_UNORM),
    COOPSPV_FORMAT(R8G8_USCALED),
    COOPSPV_FORMAT(R8_SINT),
    COOPSPV_FORMAT(R8_SNORM),
    COOPSPV_FORMAT(R8_SRGB),
    COOPSPV_FORMAT(R8_SSCALED),
    COOPSPV_FORMAT(R8_UINT),
    COOPSPV_FORMAT(R8_UNORM),
    COOPSPV_FORMAT(R8_USCALED),
    COOPSPV_FORMAT(S8_UINT),
    COOPSPV_FORMAT(X8_D24_UNORM_PACK32),
};
#undef COOPSPV_FORMAT

std::optional<NumericFormat> ParseNumeric(std::string_view s) {
  static constexpr std::pair<std::string_view, NumericFormat> kNames[] = {
      {"UNORM", NumericFormat::kUNorm},     {"SNORM", NumericFormat::kSNorm},
      {"USCALED", NumericFormat::kUScaled}, {"SSCALED", NumericFormat::kSScaled},
      {"UINT", NumericFormat::kUInt},       {"SINT", NumericFormat::kSInt},
      {"UFLOAT", NumericFormat::kUFloat},   {"SFLOAT", NumericFormat::kSFloat},
      {"SRGB", NumericFormat::kSRGB}};
  for (const auto& [name, numeric] : kNames) {
    if (s == name) return numeric;
  }
  return std::nullopt;
}

// A Vulkan format name: groups of components ("R8G8B8A8", "D24", "X8") each followed by the
// numeric format of the group, then an optional _PACKn.
ImageFormat Describe(const FormatName& f) {
  ImageFormat out{f.name, static_cast<uint32_t>(f.format), {}, 0};
  size_t pending = 0;  // Components still without a numeric format.
  std::string_view rest = f.name;
  while (!rest.empty()) {
    const size_t end = rest.find('_');
    const std::string_view chunk = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (chunk.starts_with("PACK")) {
      out.pack_bits = static_cast<uint32_t>(std::stoul(std::string(chunk.substr(4))));
    } else if (const auto numeric = ParseNumeric(chunk)) {
      for (size_t k = out.components.size() - pending; k < out.components.size(); ++k) {
        out.components[k].numeric = *numeric;
      }
      pending = 0;
    } else {
      for (size_t i = 0; i < chunk.size();) {
        const char channel = chunk[i++];
        uint32_t bits = 0;
        while (i < chunk.size() && chunk[i] >= '0' && chunk[i] <= '9') {
          bits = bits * 10 + static_cast<uint32_t>(chunk[i++] - '0');
        }
        out.components.push_back({channel, NumericFormat::kUInt, bits});
        ++pending;
      }
    }
  }
  return out;
}

const std::vector<ImageFormat>& Formats() {
  static const std::vector<ImageFormat> formats = [] {
    std::vector<ImageFormat> v;
    for (const FormatName& f : kFormatNames) v.push_back(Describe(f));
    return v;
  }();
  return formats;
}

bool IsFloat(NumericFormat n) { return n == NumericFormat::kUFloat || n == NumericFormat::kSFloat; }
bool IsSigned(NumericFormat n) {
  return n == NumericFormat::kSNorm || n == NumericFormat::kSScaled || n == NumericFormat::kSInt;
}

}  // namespace

uint32_t ImageFormat::TexelBytes() const {
  if (pack_bits) return pack_bits / 8;
  uint32_t bits = 0;
  for (const FormatComponent& c : components) bits += c.bits;
  return (bits + 7) / 8;
}

bool ImageFormat::HasDepth() const {
  for (const FormatComponent& c : components) {
    if (c.channel == 'D') return true;
  }
  return false;
}

bool ImageFormat::HasStencil() const {
  for (const FormatComponent& c : components) {
    if (c.channel == 'S') return true;
  }
  return false;
}

const ImageFormat* FindImageFormat(std::string_view name) {
  for (const ImageFormat& f : Formats()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const ImageFormat* FindImageFormat(uint32_t vk_format) {
  for (const ImageFormat& f : Formats()) {
    if (f.vk_format == vk_format) return &f;
  }
  return nullptr;
}

bool FormatDataType(const ImageFormat& format, DataType* type, std::string* why) {
  DataType t;
  t.format = format.vk_format;
  if (format.pack_bits) {
    t.kind = DataType::kUnsigned;
    t.bits = format.pack_bits;
    *type = t;
    return true;
  }
  const FormatComponent& first = format.components.front();
  for (const FormatComponent& c : format.components) {
    if (c.bits != first.bits || IsFloat(c.numeric) != IsFloat(first.numeric) ||
        IsSigned(c.numeric) != IsSigned(first.numeric)) {
      *why = "its components differ in width or kind";
      return false;
    }
  }
  if (first.bits % 8 != 0 || (IsFloat(first.numeric) && first.bits == 8)) {
    *why = "its components are not 8, 16, 32 or 64-bit numbers";
    return false;
  }
  t.kind = IsFloat(first.numeric)    ? DataType::kFloat
           : IsSigned(first.numeric) ? DataType::kSigned
                                     : DataType::kUnsigned;
  t.bits = first.bits;
  t.components = static_cast<uint32_t>(format.components.size());
  *type = t;
  return true;
}

std::optional<uint32_t> ImageFormatOf(const DataType& type) {
  if (type.format != 0) return type.format;
  if (type.columns != 1 || type.ElementBytes() != type.ComponentBytes() * type.components) {
    return std::nullopt;
  }
  std::string name;
  for (uint32_t k = 0; k < type.components; ++k) {
    name += "RGBA"[k] + std::to_string(type.bits);
  }
  name += type.kind == DataType::kFloat    ? "_SFLOAT"
          : type.kind == DataType::kSigned ? "_SINT"
                                           : "_UINT";
  const ImageFormat* f = FindImageFormat(name);
  if (f == nullptr) return std::nullopt;
  return f->vk_format;
}

char ProbeChannel(const DataType& type, uint32_t k) {
  const ImageFormat* f = type.format ? FindImageFormat(type.format) : nullptr;
  if (f == nullptr) return "RGBA"[k / type.components % 4];
  if (f->pack_bits) return 'R';
  return f->components[k].channel;
}

NumericFormat ComponentNumericFormat(const DataType& type, uint32_t k) {
  const ImageFormat* f = type.format ? FindImageFormat(type.format) : nullptr;
  if (f == nullptr || f->pack_bits) {
    return type.kind == DataType::kFloat    ? NumericFormat::kSFloat
           : type.kind == DataType::kSigned ? NumericFormat::kSInt
                                            : NumericFormat::kUInt;
  }
  return f->components[k].numeric;
}

}  // namespace coopspv::run
