// SPV_ARM_tensors: OpTypeTensorARM (a scalar Element Type, a Rank that is a positive constant
// integer, a Shape that is a constant array of Rank positive integers), and the instructions
// that read, write and query tensors, with their Tensor Operands. Only modules that declare
// TensorsARM are walked.
#include <string>

#include "source/common/workspace.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

// Tensor Operands bits (SPV_ARM_tensors 3.x Tensor Operands).
constexpr uint32_t kOutOfBoundsValue = 0x2;
constexpr uint32_t kMakeElementAvailable = 0x4;
constexpr uint32_t kMakeElementVisible = 0x8;
constexpr uint32_t kNonPrivateElement = 0x10;

class TensorArmRules {
 public:
  explicit TensorArmRules(ValidationState& state) : state_(state), m_(state.module()) {}

  void CheckType(InstIndex i) {
    const uint32_t n = m_.num_words(i);
    if (n < 3) return;
    const Id element = m_.word(i, 2);
    if (!state_.IsScalarType(element)) {
      Report("tensor-arm.type", i,
             "Element Type " + state_.Name(element) + " is not a scalar type");
      return;
    }
    if (n < 4) return;
    const Id rank = m_.word(i, 3);
    if (!ir::IsConstant(state_.DefOp(rank))) {
      Report("tensor-arm.type", i, "Rank " + state_.Name(rank) + " is not a constant instruction");
      return;
    }
    if (!state_.IsIntType(state_.TypeOf(rank))) {
      Report("tensor-arm.type", i, "Rank " + state_.Name(rank) + " is not a scalar integer");
      return;
    }
    const std::optional<int64_t> rank_value = UnsignedConstant(rank);
    if (rank_value && *rank_value == 0) {
      Report("tensor-arm.type", i, "Rank " + state_.Name(rank) + " is 0; it must be at least 1");
      return;
    }
    if (n < 5) return;
    const Id shape = m_.word(i, 4);
    if (!ir::IsConstant(state_.DefOp(shape))) {
      Report("tensor-arm.type", i,
             "Shape " + state_.Name(shape) + " is not a constant instruction");
      return;
    }
    const Id shape_type = state_.TypeOf(shape);
    const bool array_of_int = state_.DefOp(shape_type) == Op::TypeArray &&
                              state_.IsIntType(state_.DefWord(shape_type, 2));
    const std::optional<int64_t> length =
        array_of_int ? UnsignedConstant(state_.DefWord(shape_type, 3)) : std::nullopt;
    if (!array_of_int || (length && rank_value && *length != *rank_value)) {
      Report("tensor-arm.type", i,
             "Shape " + state_.Name(shape) + " is not an array of Rank integers");
      return;
    }
    // Each dimension is positive, where the Shape's constituents are known.
    const InstIndex d = m_.Def(shape);
    if (m_.opcode(d) != Op::ConstantComposite && m_.opcode(d) != Op::SpecConstantComposite) return;
    for (uint32_t w = 3; w < m_.num_words(d); ++w) {
      const std::optional<int64_t> dim = UnsignedConstant(m_.word(d, w));
      if (dim && *dim == 0) {
        Report("tensor-arm.type", i,
               "Shape " + state_.Name(shape) + " has a dimension " + ws::to_string(w - 3) +
                   " of 0; every dimension must be at least 1");
        return;
      }
    }
  }

  // OpTensorReadARM Result Type, Result, Tensor, Coordinates, [Tensor Operands, ids...];
  // OpTensorWriteARM Tensor, Coordinates, Object, [Tensor Operands, ids...].
  void CheckAccess(InstIndex i, bool read) {
    const uint32_t first = read ? 3 : 1;
    if (m_.num_words(i) < first + (read ? 2 : 3)) return;
    const Id tensor_type = RankedTensor(i, "tensor-arm.access", m_.word(i, first));
    if (tensor_type == 0) return;
    const Id element = state_.DefWord(tensor_type, 2);
    if (!CheckCoordinates(i, tensor_type, m_.word(i, first + 1))) return;
    const Id value_type = read ? m_.word(i, 1) : state_.TypeOf(m_.word(i, first + 2));
    if (!state_.IsType(value_type)) return;  // The id rules.
    const Id scalar =
        state_.DefOp(value_type) == Op::TypeArray ? state_.DefWord(value_type, 2) : value_type;
    if (!state_.IsScalarType(scalar) || scalar != element) {
      Report("tensor-arm.access", i,
             ws::string(read ? "Result Type " : "the type of Object ") + state_.Name(value_type) +
                 " is not " + state_.Name(element) +
                 " (the Element Type of Tensor) nor an array of it");
      return;
    }
    const uint32_t mask_word = first + (read ? 2 : 3);
    if (m_.num_words(i) > mask_word) CheckOperands(i, read, mask_word, element);
  }

  // OpTensorQuerySizeARM Result Type, Result, Tensor, Dimension.
  void CheckQuerySize(InstIndex i) {
    if (m_.num_words(i) < 5) return;
    const Id result_type = m_.word(i, 1);
    if (state_.IsType(result_type) && !state_.IsIntType(result_type)) {
      Report("tensor-arm.query-size", i,
             "Result Type " + state_.Name(result_type) + " is not a scalar integer");
      return;
    }
    const Id tensor_type = RankedTensor(i, "tensor-arm.query-size", m_.word(i, 3));
    if (tensor_type == 0) return;
    const Id dimension = m_.word(i, 4);
    if (!ir::IsConstant(state_.DefOp(dimension)) || !state_.IsIntType(state_.TypeOf(dimension))) {
      Report("tensor-arm.query-size", i,
             "Dimension " + state_.Name(dimension) + " is not a constant scalar integer");
      return;
    }
    const std::optional<int64_t> value = UnsignedConstant(dimension);
    const std::optional<int64_t> rank = UnsignedConstant(state_.DefWord(tensor_type, 3));
    if (value && rank && *value >= *rank) {
      Report("tensor-arm.query-size", i,
             "Dimension " + ws::to_string(*value) + " is not less than the Rank " +
                 ws::to_string(*rank) + " of Tensor");
    }
  }

 private:
  void Report(const char* rule, InstIndex i, const ws::string& what) {
    state_.Report(rule, i, state_.Describe(i) + ": " + what);
  }

  // The value of an integer OpConstant read as unsigned (nullopt for others: spec constants).
  std::optional<int64_t> UnsignedConstant(Id id) const {
    const std::optional<int64_t> v = state_.IntConstant(id);
    if (!v) return v;
    const uint32_t width = state_.ScalarWidth(state_.TypeOf(id));
    return width < 64 ? (*v & ((int64_t{1} << width) - 1)) : *v;
  }

  // The type of `tensor` when it is a ranked OpTypeTensorARM; 0 after a report.
  Id RankedTensor(InstIndex i, const char* rule, Id tensor) {
    const Id type = state_.TypeOf(tensor);
    if (state_.DefOp(type) == Op::TypeTensorARM && m_.num_words(m_.Def(type)) > 3) return type;
    Report(rule, i,
           "Tensor " + state_.Name(tensor) +
               " is not an OpTypeTensorARM with a Rank (a ranked "
               "tensor)");
    return 0;
  }

  // Coordinates is an array of integers whose Length is the Rank of Tensor.
  bool CheckCoordinates(InstIndex i, Id tensor_type, Id coordinates) {
    const Id type = state_.TypeOf(coordinates);
    bool ok = state_.DefOp(type) == Op::TypeArray && state_.IsIntType(state_.DefWord(type, 2));
    if (ok) {
      const std::optional<int64_t> length = UnsignedConstant(state_.DefWord(type, 3));
      const std::optional<int64_t> rank = UnsignedConstant(state_.DefWord(tensor_type, 3));
      ok = !length || !rank || *length == *rank;
    }
    if (!ok) {
      Report("tensor-arm.access", i,
             "Coordinates " + state_.Name(coordinates) +
                 " is not an array of integers whose Length is the Rank of Tensor");
    }
    return ok;
  }

  // Tensor Operands: OutOfBoundsValueARM and MakeElementVisibleARM only on reads,
  // MakeElementAvailableARM only on writes, both with NonPrivateElementARM; the out-of-bounds
  // value a constant of the Element Type.
  void CheckOperands(InstIndex i, bool read, uint32_t mask_word, Id element) {
    const uint32_t mask = m_.word(i, mask_word);
    const char* bad = nullptr;
    if (!read && (mask & kOutOfBoundsValue)) bad = "OutOfBoundsValueARM";
    if (!read && (mask & kMakeElementVisible)) bad = "MakeElementVisibleARM";
    if (read && (mask & kMakeElementAvailable)) bad = "MakeElementAvailableARM";
    if (bad != nullptr) {
      Report("tensor-arm.operands", i,
             ws::string(bad) + " is not allowed on " +
                 (read ? "OpTensorReadARM" : "OpTensorWriteARM"));
      return;
    }
    if ((mask & (kMakeElementAvailable | kMakeElementVisible)) && !(mask & kNonPrivateElement)) {
      Report("tensor-arm.operands", i,
             ws::string(mask & kMakeElementAvailable ? "MakeElementAvailableARM"
                                                     : "MakeElementVisibleARM") +
                 " needs NonPrivateElementARM");
      return;
    }
    if ((mask & kOutOfBoundsValue) && m_.num_words(i) > mask_word + 1) {
      const Id value = m_.word(i, mask_word + 1);
      if (!ir::IsConstant(state_.DefOp(value)) || state_.TypeOf(value) != element) {
        Report("tensor-arm.operands", i,
               "the OutOfBoundsValueARM value " + state_.Name(value) + " is not a constant of " +
                   state_.Name(element) + ", the Element Type of Tensor");
      }
    }
  }

  ValidationState& state_;
  const ir::Module& m_;
};

}  // namespace

void ValidateTensorsArm(ValidationState& state) {
  if (!state.HasCapability(spv::Capability::TensorsARM)) return;
  const ir::Module& m = state.module();
  TensorArmRules rules(state);
  for (InstIndex i = 0; i < m.num_instructions(); ++i) {
    const Op op = m.opcode(i);
    if (op != Op::TypeTensorARM && op != Op::TensorReadARM && op != Op::TensorWriteARM &&
        op != Op::TensorQuerySizeARM) {
      continue;
    }
    if (state.Full()) return;
    switch (op) {
      case Op::TypeTensorARM:
        rules.CheckType(i);
        break;
      case Op::TensorReadARM:
        rules.CheckAccess(i, true);
        break;
      case Op::TensorWriteARM:
        rules.CheckAccess(i, false);
        break;
      default:
        rules.CheckQuerySize(i);
        break;
    }
  }
}

}  // namespace coopspv::val
