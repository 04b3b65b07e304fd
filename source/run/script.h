// An AmberScript compute test, parsed: the buffers, shaders and pipelines it declares and the
// commands (RUN, EXPECT) in script order. docs/run.md lists the subset and how it differs from
// Amber.
#ifndef COOPSPV_SOURCE_RUN_SCRIPT_H_
#define COOPSPV_SOURCE_RUN_SCRIPT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "source/common/float.h"

namespace coopspv::run {

// A buffer element type: a scalar, vecN<scalar> or matCxR<scalar> (C columns of R components,
// column-major, as Amber lays them out), or an image format (R8G8B8A8_UNORM: format.h).
struct DataType {
  enum Kind : uint8_t { kSigned, kUnsigned, kFloat } kind = kUnsigned;
  uint32_t bits = 32;       // 8, 16, 32 or 64 (float: 16, 32, 64).
  uint32_t components = 1;  // A vector's or a matrix column's: 1 for a scalar, else 2, 3 or 4.
  uint32_t columns = 1;     // A matrix's columns (2, 3 or 4); 1 otherwise.
  // An image format's VkFormat (its components in one kind and width, tightly packed; a packed
  // format is one unsigned word); 0 for the data types.
  uint32_t format = 0;

  uint32_t ComponentBytes() const { return bits / 8; }
  // std430: a vec3 (and a matrix column of 3) takes the room of a vec4; a format's texel does not.
  uint32_t StoredComponents() const { return components == 3 && format == 0 ? 4 : components; }
  uint32_t ElementBytes() const { return ComponentBytes() * StoredComponents() * columns; }
  // The components of one element, and where component k of an element lies in it (padding
  // skipped): the values of DATA, EXPECT and the comparisons go component by component.
  uint32_t ComponentCount() const { return components * columns; }
  uint32_t ComponentOffset(uint32_t k) const {
    return (k / components * StoredComponents() + k % components) * ComponentBytes();
  }
  std::string Name() const;
};

// "int8" ... "uint64", "float16", "float", "double", "vec2<float>" ..., or an image format
// FormatDataType takes ("R8G8B8A8_UNORM"); false for anything else.
bool ParseDataType(std::string_view text, DataType* type);

// A component stored at `p` (little-endian): its bits, and its value as a double.
uint64_t ReadComponentBits(const uint8_t* p, const DataType& type);
double ComponentValue(uint64_t bits, const DataType& type);

// A number read from a script, kept both ways: `bits` as the component type encodes it (integers
// two's complement, floats IEEE), `value` as a double for float comparisons.
struct Number {
  uint64_t bits = 0;
  double value = 0;
};

// IMAGE (and the deprecated BUFFER ... WIDTH w HEIGHT h): the image a buffer's bytes fill when
// a pipeline binds it as an image: texels in rows of `width`, `height` rows a slice.
struct ImageShape {
  uint32_t dimensions = 0;  // 1, 2 or 3 (DIM_1D ...; an IMAGE without DIM_ is 2D); 0: no image.
  uint32_t width = 1, height = 1, depth = 1;
  uint32_t mip_levels = 1;
  uint32_t samples = 1;
  // "DIM_2D WIDTH 16 HEIGHT 16", the declaration's words after the format.
  std::string Declaration() const;
};

struct Buffer {
  std::string name;
  DataType type;
  std::vector<uint8_t> bytes;  // Element count = bytes.size() / type.ElementBytes().
  uint32_t line = 0;
  ImageShape image;  // Declared as an image: IMAGE, or BUFFER ... WIDTH w HEIGHT h.

  uint64_t ElementCount() const { return bytes.size() / type.ElementBytes(); }
};

struct Shader {
  std::string name;
  std::vector<uint32_t> words;
  uint32_t line = 0;
};

struct SpecConstant {
  uint32_t id = 0;
  DataType type;  // A 32- or 64-bit scalar.
  Number value;
};

// SAMPLER <name> ...: a VkSampler's parameters (Vulkan's enum values).
struct Sampler {
  std::string name;
  uint32_t mag_filter = 0, min_filter = 0;  // VkFilter: nearest.
  uint32_t address_mode[3] = {0, 0, 0};     // VkSamplerAddressMode for U, V, W: repeat.
  uint32_t border_color = 0;                // VkBorderColor: float transparent black.
  float min_lod = 0, max_lod = 1;
  bool normalized_coordinates = true;
  bool compare = false;
  uint32_t compare_op = 0;  // VkCompareOp: never.
  uint32_t line = 0;
};

inline constexpr uint64_t kWholeSize = ~uint64_t{0};  // DESCRIPTOR_RANGE default: VK_WHOLE_SIZE.

// BIND BUFFER / BUFFER_ARRAY / SAMPLER / SAMPLER_ARRAY in a PIPELINE: one descriptor binding.
struct BufferBinding {
  enum Kind : uint8_t {
    kStorage,
    kUniform,
    kPushConstant,
    kStorageDynamic,
    kUniformDynamic,
    kStorageImage,
    kSampledImage,
    kCombinedImageSampler,
    kUniformTexelBuffer,
    kStorageTexelBuffer,
    kSampler,
  } kind = kStorage;
  // The descriptors of the binding, one per name (BIND BUFFER: one; BUFFER_ARRAY: an array, in
  // order): a buffer, or a sampler for kSampler.
  struct Element {
    std::string name;
    uint32_t dynamic_offset = 0;  // OFFSET (dynamic kinds).
    uint64_t offset = 0;          // DESCRIPTOR_OFFSET (buffer kinds).
    uint64_t range = kWholeSize;  // DESCRIPTOR_RANGE; kWholeSize: to the end of the buffer.
  };
  std::vector<Element> elements;
  std::string sampler;          // combined_image_sampler: SAMPLER <name>.
  uint32_t base_mip_level = 0;  // Image kinds: BASE_MIP_LEVEL.
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t line = 0;

  const std::string& buffer() const { return elements.front().name; }
  bool IsDynamic() const { return kind == kStorageDynamic || kind == kUniformDynamic; }
  bool IsImage() const {
    return kind == kStorageImage || kind == kSampledImage || kind == kCombinedImageSampler;
  }
  bool IsTexelBuffer() const { return kind == kUniformTexelBuffer || kind == kStorageTexelBuffer; }
  // A storage or uniform buffer descriptor, dynamic or not.
  bool IsBlock() const {
    return kind == kStorage || kind == kUniform || kind == kStorageDynamic ||
           kind == kUniformDynamic;
  }
  // What the shaders may write through it.
  bool IsWritable() const {
    return kind == kStorage || kind == kStorageDynamic || kind == kStorageImage ||
           kind == kStorageTexelBuffer;
  }
  // The AS word: "storage", "uniform_dynamic", "storage_image", ...; "sampler" for kSampler.
  static const char* KindName(Kind kind);
};

struct Pipeline {
  std::string name;
  std::string shader;  // Empty until ATTACH.
  std::string entry_point = "main";
  std::vector<SpecConstant> spec_constants;
  std::vector<BufferBinding> bindings;
  // SUBGROUP: VK_EXT_subgroup_size_control (core in Vulkan 1.3).
  enum class SubgroupSize : uint8_t { kAny, kExact, kMin, kMax } subgroup_size = SubgroupSize::kAny;
  uint32_t required_subgroup_size = 0;  // For kExact.
  bool fully_populated = false;
  bool varying_size = false;
  uint32_t line = 0;
};

// CONVERT_MATRIX (docs/run.md): a cooperative-vector matrix from one buffer into another, in
// another layout (and component type), as vkConvertCooperativeVectorMatrixNV converts it.
struct MatrixConversion {
  // VkCooperativeVectorMatrixLayoutNV (= SPIR-V's CooperativeMatrixLayout values).
  enum Layout : uint32_t {
    kRowMajor = 0,
    kColumnMajor = 1,
    kInferencingOptimal = 2,
    kTrainingOptimal = 3
  };
  std::string source, destination;  // Buffers.
  uint32_t rows = 0, columns = 0;
  Layout source_layout = kRowMajor, destination_layout = kRowMajor;
  uint32_t source_type = 0, destination_type = 0;      // VkComponentTypeKHR.
  uint32_t source_bytes = 0, destination_bytes = 0;    // Their sizes.
  uint64_t source_stride = 0, destination_stride = 0;  // Bytes; 0: tight (row/column-major).
  uint64_t source_offset = 0, destination_offset = 0;  // Bytes into the buffers.

  static bool IsOptimal(Layout layout) { return layout >= kInferencingOptimal; }
  // The bytes of one row (row-major) or column (column-major) of `bytes`-sized elements.
  uint64_t LineBytes(Layout layout, uint32_t bytes) const {
    return uint64_t{layout == kRowMajor ? columns : rows} * bytes;
  }
  // The bytes a row- or column-major matrix spans; a `*stride` of 0 becomes the tight one.
  // 0 for optimal layouts, whose size only the driver knows.
  uint64_t Extent(Layout layout, uint32_t bytes, uint64_t* stride) const {
    if (IsOptimal(layout)) return 0;
    if (*stride == 0) *stride = LineBytes(layout, bytes);
    return *stride * ((layout == kRowMajor ? rows : columns) - 1) + LineBytes(layout, bytes);
  }
};

// "float16", "float32", "int8", ..., "float_e4m3", "float_e5m2" as VkComponentTypeKHR and its
// size in bytes; false for anything else.
bool ParseComponentType(std::string_view text, uint32_t* type, uint32_t* bytes);
std::string ComponentTypeName(uint32_t type);
// The float format CONVERT_MATRIX converts a component type by in software (float16, float32,
// float_e4m3, float_e5m2); nullopt for the others.
std::optional<FloatFormat> SoftwareFloatFormat(uint32_t type);
std::string MatrixLayoutName(MatrixConversion::Layout layout);

struct Command {
  enum Kind : uint8_t {
    kRun,
    kExpectIndex,
    kExpectEqualBuffer,
    kExpectRmseBuffer,
    kExpectProbe,
    kConvertMatrix
  } kind = kRun;
  uint32_t line = 0;
  std::string text;  // The line as written, for reports.
  // RUN <pipeline> X Y Z
  std::string pipeline;
  uint32_t groups[3] = {1, 1, 1};
  // EXPECT <buffer> ...
  std::string buffer;
  std::string other;  // EQ_BUFFER / RMSE_BUFFER.
  enum class Compare : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe } compare = Compare::kEq;
  // IDX <x>: x is a byte offset into the buffer, as in Amber; the values are compared component
  // by component from there (std430 padding skipped). `first_component` counts the components
  // before it (element * components + component).
  uint64_t offset = 0;
  uint64_t first_component = 0;
  std::vector<Number> values;  // Components, from `first_component` on.
  // Per value of a float EQ / NE without TOLERANCE: 1 where it was not written as an integer, so
  // that it compares within Amber's default relative tolerance (1e-8), 0 where it compares
  // exactly.
  std::vector<uint8_t> fuzzy;
  struct Tolerance {
    double amount = 0;
    bool percent = false;
  };
  std::vector<Tolerance> tolerances;  // Per component (the last one repeats); empty: exact.
  double rmse_tolerance = 0;
  // IDX <x> <y> SIZE <w> <h> EQ_RGB|EQ_RGBA <r> <g> <b> [<a>] [TOLERANCE ...]: texels of an
  // image, as Amber's probe reads them (values / 255; the tolerances in `tolerances`).
  uint32_t probe_rect[4] = {0, 0, 0, 0};  // x, y, width, height.
  double probe_color[4] = {0, 0, 0, 0};   // r, g, b, a in [0, 1].
  bool probe_alpha = false;               // EQ_RGBA.
  MatrixConversion conversion;            // CONVERT_MATRIX.
};

// BUFFER_ADDRESS <buffer> INTO <target> OFFSET <n>: the VkDeviceAddress of `buffer` is written
// into `target`'s bytes at `offset` (8 bytes, little-endian) before the first RUN.
struct BufferAddress {
  std::string buffer;
  std::string target;
  uint64_t offset = 0;
  uint32_t line = 0;
};

// DEVICE_FEATURE / DEVICE_EXTENSION lines.
struct Requirement {
  std::string name;
  uint32_t line = 0;
};

struct Script {
  std::vector<Buffer> buffers;
  std::vector<Sampler> samplers;
  std::vector<Shader> shaders;
  std::vector<Pipeline> pipelines;
  std::vector<Command> commands;
  std::vector<BufferAddress> addresses;
  std::vector<Requirement> features;
  std::vector<Requirement> extensions;
  std::vector<Requirement> instance_extensions;  // INSTANCE_EXTENSION.
  // DEVICE_PROPERTY: FloatControlsProperties.<boolean> names, as Amber has them.
  std::vector<Requirement> properties;
  uint32_t fence_timeout_ms = 0;  // SET ENGINE_DATA fence_timeout_ms; 0: the runner's default.

  const Buffer* FindBuffer(std::string_view name) const;
  const Shader* FindShader(std::string_view name) const;
  const Pipeline* FindPipeline(std::string_view name) const;
  const Sampler* FindSampler(std::string_view name) const;
};

struct ParseOptions {
  std::string directory;  // FILE paths are relative to it ("" : the current one).
  uint64_t max_buffer_bytes = uint64_t{1} << 28;  // A SIZE beyond this is an error, not an OOM.
};

struct ParseError {
  uint32_t line = 0;
  std::string message;
  // The script needs what this build lacks (an OPENCL-C shader's compiler): unsupported, like a
  // missing device extension, not an error in the script.
  bool unsupported = false;
  std::string ToString() const;  // "line 12: message"
};

// "line 12: ", the prefix of every message about a script line.
std::string At(uint32_t line);

bool ParseScript(std::string_view text, const ParseOptions& options, Script* script,
                 ParseError* error);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_SCRIPT_H_
