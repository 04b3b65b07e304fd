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
// column-major, as Amber lays them out).
struct DataType {
  enum Kind : uint8_t { kSigned, kUnsigned, kFloat } kind = kUnsigned;
  uint32_t bits = 32;       // 8, 16, 32 or 64 (float: 16, 32, 64).
  uint32_t components = 1;  // A vector's or a matrix column's: 1 for a scalar, else 2, 3 or 4.
  uint32_t columns = 1;     // A matrix's columns (2, 3 or 4); 1 otherwise.

  uint32_t ComponentBytes() const { return bits / 8; }
  // std430: a vec3 (and a matrix column of 3) takes the room of a vec4.
  uint32_t StoredComponents() const { return components == 3 ? 4 : components; }
  uint32_t ElementBytes() const { return ComponentBytes() * StoredComponents() * columns; }
  // The components of one element, and where component k of an element lies in it (padding
  // skipped): the values of DATA, EXPECT and the comparisons go component by component.
  uint32_t ComponentCount() const { return components * columns; }
  uint32_t ComponentOffset(uint32_t k) const {
    return (k / components * StoredComponents() + k % components) * ComponentBytes();
  }
  std::string Name() const;
};

// "int8" ... "uint64", "float16", "float", "double", "vec2<float>" ...; false for anything else.
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

struct Buffer {
  std::string name;
  DataType type;
  std::vector<uint8_t> bytes;  // Element count = bytes.size() / type.ElementBytes().
  uint32_t line = 0;

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

struct BufferBinding {
  enum Kind : uint8_t { kStorage, kUniform, kPushConstant } kind = kStorage;
  std::string buffer;
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t line = 0;
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
  MatrixConversion conversion;  // CONVERT_MATRIX.
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
};

struct ParseOptions {
  std::string directory;  // FILE paths are relative to it ("" : the current one).
  uint64_t max_buffer_bytes = uint64_t{1} << 28;  // A SIZE beyond this is an error, not an OOM.
};

struct ParseError {
  uint32_t line = 0;
  std::string message;
  std::string ToString() const;  // "line 12: message"
};

// "line 12: ", the prefix of every message about a script line.
std::string At(uint32_t line);

bool ParseScript(std::string_view text, const ParseOptions& options, Script* script,
                 ParseError* error);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_SCRIPT_H_
