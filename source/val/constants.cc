// Constants of the right shape for their type.
#include <string>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

// Undefined ids count as constants here: the id rules report them.
bool IsConstantOrUndef(const ValidationState& state, Id id, bool spec_allowed) {
  const Op op = state.DefOp(id);
  if (op == Op::Nop) return true;
  if (op == Op::Undef) return true;
  if (!ir::IsConstant(op)) return false;
  return spec_allowed || !ir::IsSpecConstant(op);
}

// The number of constituents a composite type takes and the type of constituent k, or false
// when the count is not known (e.g. a spec-constant length).
bool Constituents(ValidationState& state, Id type, size_t* count) {
  const Op op = state.DefOp(type);
  switch (op) {
    case Op::TypeVector:
    case Op::TypeMatrix:
      *count = state.DefWord(type, 3);
      return true;
    case Op::TypeArray: {
      const auto length = state.IntConstant(state.DefWord(type, 3));
      if (!length || *length < 0) return false;
      *count = static_cast<size_t>(*length);
      return true;
    }
    case Op::TypeStruct: {
      const InstIndex d = state.module().Def(type);
      *count = state.module().num_words(d) - 2;
      return true;
    }
    case Op::TypeCooperativeMatrixKHR:
    case Op::TypeCooperativeMatrixNV:
      *count = 1;  // One constituent initializes every element.
      return true;
    case Op::TypeVectorIdEXT: {
      const auto length = state.IntConstant(state.DefWord(type, 3));
      if (!length || *length < 0) return false;
      *count = static_cast<size_t>(*length);
      return true;
    }
    default:
      return false;
  }
}

Id ConstituentType(ValidationState& state, Id type, size_t k) {
  if (state.DefOp(type) == Op::TypeStruct) return state.DefWord(type, 2 + k);
  return state.ComponentType(type);
}

// SPV_ARM_tensors: an OpTypeTensorARM with a Shape is a composite type, of Shape[0] constituents:
// elements for rank 1, tensors of the remaining shape otherwise.
bool IsShapedTensor(const ValidationState& state, Id type) {
  return state.DefOp(type) == Op::TypeTensorARM &&
         state.module().num_words(state.module().Def(type)) > 4;
}

bool IsComposite(Op op) {
  switch (op) {
    case Op::TypeVector:
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeStruct:
    case Op::TypeCooperativeMatrixKHR:
    case Op::TypeCooperativeMatrixNV:
    case Op::TypeVectorIdEXT:
      return true;
    default:
      return false;
  }
}

bool HasNull(Op op) {
  switch (op) {
    case Op::TypeBool:
    case Op::TypeInt:
    case Op::TypeFloat:
    case Op::TypeVector:
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeStruct:
    case Op::TypePointer:
    case Op::TypeUntypedPointerKHR:
    case Op::TypeEvent:
    case Op::TypeDeviceEvent:
    case Op::TypeReserveId:
    case Op::TypeQueue:
    case Op::TypeCooperativeMatrixKHR:
    case Op::TypeCooperativeMatrixNV:
    case Op::TypeVectorIdEXT:
    case Op::TypeTensorLayoutNV:
    case Op::TypeTensorViewNV:
      return true;
    default:
      return false;
  }
}

bool SpecOpAllowed(const ValidationState& state, Op op) {
  switch (op) {
    case Op::SConvert:
    case Op::UConvert:
    case Op::FConvert:
    case Op::SNegate:
    case Op::Not:
    case Op::IAdd:
    case Op::ISub:
    case Op::IMul:
    case Op::UDiv:
    case Op::SDiv:
    case Op::UMod:
    case Op::SRem:
    case Op::SMod:
    case Op::ShiftRightLogical:
    case Op::ShiftRightArithmetic:
    case Op::ShiftLeftLogical:
    case Op::BitwiseOr:
    case Op::BitwiseXor:
    case Op::BitwiseAnd:
    case Op::VectorShuffle:
    case Op::CompositeExtract:
    case Op::CompositeInsert:
    case Op::LogicalOr:
    case Op::LogicalAnd:
    case Op::LogicalNot:
    case Op::LogicalEqual:
    case Op::LogicalNotEqual:
    case Op::Select:
    case Op::IEqual:
    case Op::INotEqual:
    case Op::ULessThan:
    case Op::SLessThan:
    case Op::UGreaterThan:
    case Op::SGreaterThan:
    case Op::ULessThanEqual:
    case Op::SLessThanEqual:
    case Op::UGreaterThanEqual:
    case Op::SGreaterThanEqual:
      return true;
    case Op::QuantizeToF16:
      return state.HasCapability(spv::Capability::Shader);
    // The cooperative matrix extensions add their length query to the list.
    case Op::CooperativeMatrixLengthNV:
      return state.HasCapability(spv::Capability::CooperativeMatrixNV);
    case Op::CooperativeMatrixLengthKHR:
      return state.HasCapability(spv::Capability::CooperativeMatrixKHR);
    case Op::ConvertFToS:
    case Op::ConvertSToF:
    case Op::ConvertFToU:
    case Op::ConvertUToF:
    case Op::ConvertPtrToU:
    case Op::ConvertUToPtr:
    case Op::GenericCastToPtr:
    case Op::PtrCastToGeneric:
    case Op::Bitcast:
    case Op::FNegate:
    case Op::FAdd:
    case Op::FSub:
    case Op::FMul:
    case Op::FDiv:
    case Op::FRem:
    case Op::FMod:
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
    case Op::PtrAccessChain:
    case Op::InBoundsPtrAccessChain:
      return state.HasCapability(spv::Capability::Kernel);
    default:
      return false;
  }
}

// SPIR-V BuiltIn WorkgroupSize: a workgroup has at least one invocation, so no component of a
// WorkgroupSize constant known before specialization is 0.
// The values of a tensor type's Shape (nullopt for an entry that is not a known constant).
ws::vector<std::optional<int64_t>> TensorShape(const ValidationState& state, Id tensor_type) {
  ws::vector<std::optional<int64_t>> shape;
  const ir::Module& m = state.module();
  const InstIndex d = m.Def(state.DefWord(tensor_type, 4));
  const Op op = d == kNoInst ? Op::Nop : m.opcode(d);
  if (op != Op::ConstantComposite && op != Op::SpecConstantComposite) return shape;
  for (uint32_t w = 3; w < m.num_words(d); ++w) shape.push_back(state.IntConstant(m.word(d, w)));
  return shape;
}

// OpConstantComposite / OpSpecConstantComposite of a shaped tensor: Shape[0] constituents,
// elements of Element Type for rank 1, tensors of the same Element Type and the rest of the
// shape otherwise.
void CheckTensorConstant(ValidationState& state, InstIndex i, Id type, bool spec) {
  const ir::Module& m = state.module();
  const ws::vector<std::optional<int64_t>> shape = TensorShape(state, type);
  const size_t given = m.num_words(i) - 3;
  if (!shape.empty() && shape[0] && *shape[0] >= 0 && static_cast<size_t>(*shape[0]) != given) {
    state.Report("constant.composite", i,
                 state.Describe(i) + " has " + ws::to_string(given) + " constituents; its type " +
                     state.Name(type) + " needs " + ws::to_string(*shape[0]));
    return;
  }
  const Id element = state.DefWord(type, 2);
  for (size_t k = 0; k < given; ++k) {
    const Id constituent = m.word(i, 3 + k);
    if (!IsConstantOrUndef(state, constituent, spec)) {
      state.Report("constant.composite", i,
                   state.Describe(i) + ": constituent " + ws::to_string(k) + " " +
                       state.Name(constituent) + " is not a " +
                       (spec ? "constant" : "non-specialization constant"));
      return;
    }
    const Id got = state.TypeOf(constituent);
    bool ok;
    if (shape.size() <= 1) {
      ok = got == element;
    } else {
      const ws::vector<std::optional<int64_t>> sub = TensorShape(state, got);
      ok = state.DefOp(got) == Op::TypeTensorARM && state.DefWord(got, 2) == element &&
           sub.size() == shape.size() - 1;
      for (size_t d = 0; ok && d < sub.size(); ++d) {
        ok = !sub[d] || !shape[d + 1] || *sub[d] == *shape[d + 1];
      }
    }
    if (!ok) {
      state.Report(
          "constant.composite", i,
          state.Describe(i) + ": constituent " + ws::to_string(k) + " " + state.Name(constituent) +
              " has type " + state.Name(got) + ", not " +
              (shape.size() <= 1 ? state.Name(element)
                                 : "a tensor of the rest of the shape of " + state.Name(type)));
      return;
    }
  }
}

// SPV_KHR_constant_data: OpConstantDataKHR / OpSpecConstantDataKHR give an array of integers
// as literal words, packed: as many words as the array's bits need, at least one.
void CheckConstantData(ValidationState& state, InstIndex i, Id type) {
  const ir::Module& m = state.module();
  const uint32_t words = static_cast<uint32_t>(m.num_words(i) - 3);
  if (state.DefOp(type) != Op::TypeArray) {
    state.Report("constant.data", i,
                 state.Describe(i) + ": Result Type " + state.Name(type) + " must be an array");
    return;
  }
  const Id element = state.DefWord(type, 2);
  if (!state.IsIntType(element)) {
    state.Report("constant.data", i,
                 state.Describe(i) + ": Result Type " + state.Name(type) +
                     " must be an array of integer scalars");
    return;
  }
  if (words == 0) {
    state.Report("constant.data", i, state.Describe(i) + " has no data word (no array is empty)");
    return;
  }
  const std::optional<int64_t> length = KnownValue(state, state.DefWord(type, 3));
  if (!length || *length <= 0) return;  // A spec-constant length: known once specialized.
  const uint64_t width = state.DefWord(element, 2);
  const uint64_t need = (static_cast<uint64_t>(*length) * width + 31) / 32;
  if (need != words) {
    state.Report("constant.data", i,
                 state.Describe(i) + " has " + ws::to_string(words) + " data word(s); an array of " +
                     ws::to_string(*length) + " " + ws::to_string(width) + "-bit integers needs " +
                     ws::to_string(need));
  }
}

void CheckWorkgroupSize(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  if (m.num_words(i) != 6) return;  // Three components; other shapes are the type rules'.
  int64_t product = 1;
  for (uint32_t k = 3; k < 6; ++k) {
    const std::optional<int64_t> v = KnownValue(state, m.word(i, k));
    if (!v) return;
    product *= *v == 0 ? 0 : 1;
  }
  if (product != 0) return;
  state.Report("constant.workgroup-size", i,
               state.Describe(i) + ": the WorkgroupSize built-in's X, Y and Z (" +
                   ws::to_string(*KnownValue(state, m.word(i, 3))) + ", " +
                   ws::to_string(*KnownValue(state, m.word(i, 4))) + ", " +
                   ws::to_string(*KnownValue(state, m.word(i, 5))) +
                   ") have a product of 0; a workgroup has at least one invocation");
}

}  // namespace

void ValidateConstants(ValidationState& state) {
  const ir::Module& m = state.module();
  Id workgroup_size = 0;  // The constant decorated BuiltIn WorkgroupSize, if one is.
  for (InstIndex i = 0; i < m.global_end() && !state.Full(); ++i) {
    const Op op = m.opcode(i);
    if (op == Op::Decorate && m.num_words(i) > 3 &&
        m.word(i, 2) == static_cast<uint32_t>(spv::Decoration::BuiltIn) &&
        m.word(i, 3) == static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize)) {
      workgroup_size = m.word(i, 1);
    }
    if (op == Op::ConstantDataKHR || op == Op::SpecConstantDataKHR) {
      if (state.IsType(m.type_id(i))) CheckConstantData(state, i, m.type_id(i));
      continue;
    }
    if (!ir::IsConstant(op)) continue;
    if (op == Op::ConstantComposite && workgroup_size != 0 && m.result_id(i) == workgroup_size) {
      CheckWorkgroupSize(state, i);
    }
    const ir::Inst inst = m.inst(i);
    const Id type = inst.type_id;
    if (!state.IsType(type)) continue;  // Reported by the id rules.
    switch (op) {
      case Op::Constant:
      case Op::SpecConstant:
        if (!state.IsNumericScalarType(type)) {
          state.Report("constant.scalar", i,
                       state.Describe(i) + ": Result Type " + state.Name(type) +
                           " is not a scalar integer or float type");
        }
        break;
      case Op::ConstantTrue:
      case Op::ConstantFalse:
      case Op::SpecConstantTrue:
      case Op::SpecConstantFalse:
        if (!state.IsBoolType(type)) {
          state.Report(
              "constant.scalar", i,
              state.Describe(i) + ": Result Type " + state.Name(type) + " is not a Boolean type");
        }
        break;
      case Op::ConstantComposite:
      case Op::SpecConstantComposite: {
        const bool spec = op == Op::SpecConstantComposite;
        if (IsShapedTensor(state, type)) {
          CheckTensorConstant(state, i, type, spec);
          break;
        }
        if (!IsComposite(state.DefOp(type))) {
          state.Report(
              "constant.composite", i,
              state.Describe(i) + ": Result Type " + state.Name(type) + " is not a composite type");
          break;
        }
        const size_t given = inst.words.size() - 3;
        size_t count = 0;
        if (Constituents(state, type, &count) && count != given) {
          state.Report("constant.composite", i,
                       state.Describe(i) + " has " + ws::to_string(given) +
                           " constituents; its type " + state.Name(type) + " needs " +
                           ws::to_string(count));
          break;
        }
        for (size_t k = 0; k < given; ++k) {
          const Id constituent = inst.words[3 + k];
          if (!IsConstantOrUndef(state, constituent, spec)) {
            state.Report("constant.composite", i,
                         state.Describe(i) + ": constituent " + ws::to_string(k) + " " +
                             state.Name(constituent) + " is not a " +
                             (spec ? "constant" : "non-specialization constant"));
            break;
          }
          const Id want = ConstituentType(state, type, k);
          if (want != 0 && state.DefOp(constituent) != Op::Nop &&
              state.TypeOf(constituent) != want) {
            state.Report("constant.composite", i,
                         state.Describe(i) + ": constituent " + ws::to_string(k) + " " +
                             state.Name(constituent) + " has type " +
                             state.Name(state.TypeOf(constituent)) + ", not " + state.Name(want));
            break;
          }
        }
        break;
      }
      case Op::ConstantCompositeReplicateEXT:
      case Op::SpecConstantCompositeReplicateEXT: {
        if (!IsComposite(state.DefOp(type)) || state.DefOp(type) == Op::TypeStruct) {
          state.Report("constant.composite", i,
                       state.Describe(i) + ": Result Type " + state.Name(type) +
                           " is not a vector, matrix, array or cooperative type");
          break;
        }
        const Id value = inst.words[3];
        const Id want = ConstituentType(state, type, 0);
        if (state.TypeOf(value) != want) {
          state.Report("constant.composite", i,
                       state.Describe(i) + ": Value " + state.Name(value) + " has type " +
                           state.Name(state.TypeOf(value)) + ", not " + state.Name(want));
        }
        break;
      }
      case Op::ConstantNull:
        // SPV_ARM_tensors: a shaped tensor (one with a Shape) is a composite type.
        if (!HasNull(state.DefOp(type)) && !IsShapedTensor(state, type)) {
          state.Report("constant.null", i,
                       state.Describe(i) + ": type " + state.Name(type) + " has no null value");
        }
        break;
      case Op::SpecConstantOp: {
        const Op operation = static_cast<Op>(inst.words[3]);
        if (!SpecOpAllowed(state, operation)) {
          state.Report("constant.spec-op", i,
                       state.Describe(i) + ": " + ValidationState::OpName(operation) +
                           " is not an operation OpSpecConstantOp allows here");
          break;
        }
        // OpCompositeExtract / OpCompositeInsert walk at least one index (as the instructions).
        const size_t first_index = operation == Op::CompositeExtract  ? 5
                                   : operation == Op::CompositeInsert ? 6
                                                                      : 0;
        if (first_index != 0 && inst.words.size() == first_index) {
          state.Report(
              "constant.spec-op", i,
              state.Describe(i) + ": " + ValidationState::OpName(operation) + " has no indexes");
          break;
        }
        const bool takes_type = operation == Op::CooperativeMatrixLengthNV ||
                                operation == Op::CooperativeMatrixLengthKHR;
        for (const auto& operand : inst.operands) {
          if (!grammar::IsIdKind(operand.kind) || operand.offset < 4 || takes_type) continue;
          const Id id = inst.word(operand);
          if (!IsConstantOrUndef(state, id, true)) {
            state.Report("constant.spec-op", i,
                         state.Describe(i) + ": operand " + state.Name(id) + " is not a constant");
            break;
          }
        }
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace coopspv::val
