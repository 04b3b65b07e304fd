// SPV_QCOM_cooperative_matrix_conversion (rev 1): OpBitCastArrayQCOM,
// OpCompositeConstructCoopMatQCOM, OpCompositeExtractCoopMatQCOM and OpExtractSubArrayQCOM convert
// between one-dimensional arrays and Subgroup-scope cooperative matrices whose rows (MatrixA,
// accumulator) or columns (MatrixB) the invocations of a subgroup hold, one each. A MatrixA row or
// MatrixB column is 256 bits: 8 32-bit floats, 16 16-bit floats or 32 8-bit integers, carried as
// such or as 8 uint32. Values given by spec constants are not checked; the sizes the device
// supports (at most SubgroupSize) are the device rules'.
#include <optional>
#include <string>
#include <tuple>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

constexpr int64_t kUseMatrixA = 0;
constexpr int64_t kUseMatrixB = 1;
constexpr int64_t kUseAccumulator = 2;

class QcomConversionRules {
 public:
  explicit QcomConversionRules(ValidationState& state) : state_(state), m_(state.module()) {}

  void Run();

 private:
  // A scalar of the default IEEE 754 encoding of width 16 or 32 (no Floating Point Encoding).
  bool IsIeeeFloat16Or32(Id type) const {
    return state_.IsFloatType(type) && state_.module().num_words(state_.module().Def(type)) == 3 &&
           (state_.ScalarWidth(type) == 16 || state_.ScalarWidth(type) == 32);
  }
  bool IsUint32(Id type) const { return state_.IsInt32(type) && !state_.IsSignedInt(type); }
  // "one of 32-bit OpTypeInt (unsigned/signed) or an OpTypeFloat with the default IEEE 754
  // encoding (32-bit or 16-bit)": the element of every array these instructions take.
  bool IsArrayElement(Id type) const { return state_.IsInt32(type) || IsIeeeFloat16Or32(type); }
  // An OpTypeArray of scalars (one-dimensional): its element type, else 0.
  Id ArrayElement(Id type) const {
    if (state_.DefOp(type) != Op::TypeArray) return 0;
    const Id element = state_.DefWord(type, 2);
    return state_.IsScalarType(element) ? element : 0;
  }
  std::optional<int64_t> Length(Id array_type) const {
    return KnownValue(state_, state_.DefWord(array_type, 3));
  }
  // The number of elements a 256-bit row or column of `component` has, 0 if none fits.
  uint32_t ElementsOf256Bits(Id component) const {
    const uint32_t width = state_.ScalarWidth(component);
    if (state_.IsIntType(component) ? width == 8 : IsIeeeFloat16Or32(component)) {
      return 256 / width;
    }
    return 0;
  }

  void CheckBitCastArray(InstIndex i);
  void CheckConstructOrExtract(InstIndex i, bool construct);
  void CheckExtractSubArray(InstIndex i);

  ValidationState& state_;
  const ir::Module& m_;
};

void QcomConversionRules::Run() {
  for (InstIndex i = m_.global_end(); i < m_.num_instructions() && !state_.Full(); ++i) {
    switch (m_.opcode(i)) {
      case Op::BitCastArrayQCOM:
        CheckBitCastArray(i);
        break;
      case Op::CompositeConstructCoopMatQCOM:
        CheckConstructOrExtract(i, true);
        break;
      case Op::CompositeExtractCoopMatQCOM:
        CheckConstructOrExtract(i, false);
        break;
      case Op::ExtractSubArrayQCOM:
        CheckExtractSubArray(i);
        break;
      default:
        break;
    }
  }
}

// OpBitCastArrayQCOM: Result Type and Source Array are one-dimensional arrays of 32-bit integers
// or IEEE 16- / 32-bit floats, of the same size in bits.
void QcomConversionRules::CheckBitCastArray(InstIndex i) {
  if (m_.num_words(i) < 4) return;
  const Id result_type = m_.type_id(i);
  const Id source_type = state_.TypeOf(m_.word(i, 3));
  const Id result_element = ArrayElement(result_type);
  const Id source_element = ArrayElement(source_type);
  for (const auto& [what, type, element] :
       {std::tuple{"Result Type", result_type, result_element},
        std::tuple{"Source Array's type", source_type, source_element}}) {
    if (!IsArrayElement(element)) {
      state_.Report("coop-matrix-qcom.bitcast-array", i,
                    state_.Describe(i) + ": " + what + " " + state_.Name(type) +
                        " is not a one-dimensional array of 32-bit integers or 16- or 32-bit "
                        "IEEE floats");
      return;
    }
  }
  const std::optional<int64_t> result_length = Length(result_type);
  const std::optional<int64_t> source_length = Length(source_type);
  if (!result_length || !source_length) return;
  const int64_t result_bits = *result_length * state_.ScalarWidth(result_element);
  const int64_t source_bits = *source_length * state_.ScalarWidth(source_element);
  if (result_bits != source_bits) {
    state_.Report("coop-matrix-qcom.bitcast-array", i,
                  state_.Describe(i) + ": Result Type " + state_.Name(result_type) + " has " +
                      ws::to_string(result_bits) + " bits, Source Array " +
                      state_.Name(source_type) + " " + ws::to_string(source_bits));
  }
}

// OpCompositeConstructCoopMatQCOM (an array per invocation to a matrix) and
// OpCompositeExtractCoopMatQCOM (a matrix to an array per invocation): the matrix is a
// Subgroup-scope KHR matrix; what its Use allows of its component type and of the array.
void QcomConversionRules::CheckConstructOrExtract(InstIndex i, bool construct) {
  if (m_.num_words(i) < 4) return;
  const char* rule = construct ? "coop-matrix-qcom.construct" : "coop-matrix-qcom.extract";
  const Id matrix_type = construct ? m_.type_id(i) : state_.TypeOf(m_.word(i, 3));
  const Id array_type = construct ? state_.TypeOf(m_.word(i, 3)) : m_.type_id(i);
  const char* matrix_what = construct ? "Result Type" : "Source CoopMat's type";
  const char* array_what = construct ? "Source Array's type" : "Result Type";
  if (state_.DefOp(matrix_type) != Op::TypeCooperativeMatrixKHR) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": " + matrix_what + " " + state_.Name(matrix_type) +
                      " is not an OpTypeCooperativeMatrixKHR");
    return;
  }
  const Id element = ArrayElement(array_type);
  if (element == 0) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": " + array_what + " " + state_.Name(array_type) +
                      " is not a one-dimensional array");
    return;
  }
  const std::optional<CoopMatrixType> matrix = GetCoopMatrixType(state_, matrix_type);
  if (!matrix) return;
  const std::optional<int64_t> scope = KnownValue(state_, matrix->scope);
  if (scope && *scope != static_cast<int64_t>(spv::Scope::Subgroup)) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": the matrix's Scope is " + ScopeName(*scope) +
                      "; these conversions are of Subgroup-scope matrices");
  }
  const std::optional<int64_t> use = KnownValue(state_, matrix->use);
  if (!use) return;
  const Id component = matrix->component;
  const bool accumulator = *use == kUseAccumulator;
  // MatrixA and MatrixB: 8-bit integers or IEEE 16- / 32-bit floats, 256 bits a row (A) or a
  // column (B). Accumulator: 32-bit integers or IEEE 16- / 32-bit floats.
  const bool component_ok = accumulator ? state_.IsInt32(component) || IsIeeeFloat16Or32(component)
                                        : ElementsOf256Bits(component) != 0;
  if (!component_ok) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": the matrix's Component Type " + state_.Name(component) +
                      " is not " +
                      (accumulator ? "a 32-bit integer or a 16- or 32-bit IEEE float"
                                   : "an 8-bit integer or a 16- or 32-bit IEEE float") +
                      " (Use " +
                      (*use == kUseMatrixA   ? "MatrixAKHR"
                       : *use == kUseMatrixB ? "MatrixBKHR"
                                             : "MatrixAccumulatorKHR") +
                      ")");
    return;
  }
  // The dimension an invocation's array holds: the columns of a row (A, accumulator) or the
  // rows of a column (B).
  const Id line = *use == kUseMatrixB ? matrix->rows : matrix->columns;
  const char* line_what = *use == kUseMatrixB ? "Rows" : "Columns";
  const std::optional<int64_t> line_length = KnownValue(state_, line);
  if (!accumulator && line_length && *line_length != ElementsOf256Bits(component)) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": the matrix's " + line_what + " is " +
                      ws::to_string(*line_length) + "; a " +
                      (*use == kUseMatrixA ? "MatrixAKHR row" : "MatrixBKHR column") + " of " +
                      state_.Name(component) + " has " +
                      ws::to_string(ElementsOf256Bits(component)) + " (256 bits)");
    return;
  }
  // The array's element: the component type, or uint32 packing the row or column.
  const bool packed = element != component && IsUint32(element);
  if (element != component && !packed) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": the array's element type " + state_.Name(element) +
                      " is neither the matrix's Component Type " + state_.Name(component) +
                      " nor a 32-bit unsigned integer");
    return;
  }
  const std::optional<int64_t> length = Length(array_type);
  if (!length || !line_length) return;
  // Packed as uint32: a 256-bit row or column in 8; an accumulator row of 16-bit floats in
  // Columns / 2, of 32-bit components in Columns.
  int64_t want = *line_length;
  if (packed && !accumulator) {
    want = 8;
  } else if (packed && state_.ScalarWidth(component) == 16) {
    want = *line_length / 2;
  }
  if (*length != want) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": the array " + state_.Name(array_type) + " has " +
                      ws::to_string(*length) + " elements; a " + (packed ? "uint32-packed " : "") +
                      "row or column of the matrix " + state_.Name(matrix_type) + " takes " +
                      ws::to_string(want));
  }
}

// OpExtractSubArrayQCOM: Result Type and Source Array are one-dimensional arrays of the same
// element type, a 32-bit integer or an IEEE 16- / 32-bit float; Start Index a 32-bit integer
// (the extension says signed; spirv-val and this rule take either signedness).
void QcomConversionRules::CheckExtractSubArray(InstIndex i) {
  if (m_.num_words(i) < 5) return;
  const char* rule = "coop-matrix-qcom.extract-sub-array";
  const Id result_type = m_.type_id(i);
  const Id source_type = state_.TypeOf(m_.word(i, 3));
  const Id result_element = ArrayElement(result_type);
  const Id source_element = ArrayElement(source_type);
  if (!IsArrayElement(source_element)) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": Source Array's type " + state_.Name(source_type) +
                      " is not a one-dimensional array of 32-bit integers or 16- or 32-bit "
                      "IEEE floats");
    return;
  }
  if (result_element != source_element) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": Result Type " + state_.Name(result_type) +
                      " is not a one-dimensional array of the Source Array's element type " +
                      state_.Name(source_element));
    return;
  }
  const Id start = m_.word(i, 4);
  if (!state_.IsInt32(state_.TypeOf(start))) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": Start Index " + state_.Name(start) +
                      " is not a 32-bit integer scalar");
    return;
  }
  // "(Start Index + Result Type's Length) must not be greater than Source Array's Length.
  // Otherwise, the behaviors are undefined": a warning where the values are known.
  const std::optional<int64_t> first = KnownValue(state_, start);
  const std::optional<int64_t> count = Length(result_type);
  const std::optional<int64_t> total = Length(source_type);
  if (first && count && total && (*first < 0 || *first + *count > *total)) {
    state_.Report("coop-matrix-qcom.extract-sub-array-range", i,
                  state_.Describe(i) + ": reads elements " + ws::to_string(*first) + " to " +
                      ws::to_string(*first + *count - 1) + " of " + state_.Name(source_type) +
                      ", which has " + ws::to_string(*total) + "; the result is undefined");
  }
}

}  // namespace

void ValidateCoopMatrixQcom(ValidationState& state) {
  if (!state.HasCapability(spv::Capability::CooperativeMatrixConversionQCOM)) return;
  QcomConversionRules(state).Run();
}

}  // namespace coopspv::val
