// Decorations (SPIR-V 3.20 Decoration, 2.16.1): what each decoration may be applied to, member
// decorations and names of existing struct members, and decorations that take a value applied
// at most once to the same target.
#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

using spv::Decoration;

// What a decoration applied with OpDecorate must target.
enum class Target : uint8_t {
  kAny,
  kStruct,
  kArrayOrPointer,
  kVariable,
  kSpecConstant,
  kMemoryObject,
  kBuiltIn,
  kNotType,  // Anything but a type declaration.
  kValue,    // An instruction with a non-void result type.
  kWrap,     // OpIAdd, OpISub, OpIMul, OpShiftLeftLogical, OpSNegate, OpExtInst.
  kCoopMatrixConversion,  // A conversion of one OpTypeCooperativeMatrixKHR to another.
};

Target TargetOf(Decoration d) {
  switch (d) {
    case Decoration::Block:
    case Decoration::BufferBlock:
    case Decoration::GLSLShared:
    case Decoration::GLSLPacked:
    case Decoration::CPacked:
      return Target::kStruct;
    case Decoration::ArrayStride:
      return Target::kArrayOrPointer;
    case Decoration::DescriptorSet:
    case Decoration::Binding:
      return Target::kVariable;
    case Decoration::SpecId:
      return Target::kSpecConstant;
    case Decoration::NonWritable:
    case Decoration::NonReadable:
    case Decoration::Aliased:
    case Decoration::Restrict:
    case Decoration::AliasedPointer:
    case Decoration::RestrictPointer:
      return Target::kMemoryObject;
    case Decoration::RelaxedPrecision:
      return Target::kNotType;
    case Decoration::BuiltIn:
      return Target::kBuiltIn;
    case Decoration::Uniform:
    case Decoration::UniformId:
      return Target::kValue;
    case Decoration::NoSignedWrap:
    case Decoration::NoUnsignedWrap:
      return Target::kWrap;
    case Decoration::CooperativeMatrixTransposeEXT:
      return Target::kCoopMatrixConversion;
    default:
      return Target::kAny;
  }
}

// SPV_KHR_untyped_pointers: a variable is an OpVariable or an OpUntypedVariableKHR.
bool IsVariable(Op op) { return op == Op::Variable || op == Op::UntypedVariableKHR; }

bool Satisfies(const ValidationState& state, Id target, Target want) {
  const Op op = state.DefOp(target);
  switch (want) {
    case Target::kAny:
      return true;
    case Target::kStruct:
      return op == Op::TypeStruct;
    case Target::kArrayOrPointer:
      return op == Op::TypeArray || op == Op::TypeRuntimeArray || op == Op::TypePointer ||
             op == Op::TypeUntypedPointerKHR;
    case Target::kVariable:
      return IsVariable(op);
    case Target::kSpecConstant:
      return op == Op::SpecConstant || op == Op::SpecConstantTrue || op == Op::SpecConstantFalse ||
             op == Op::SpecConstantDataKHR;
    case Target::kMemoryObject:
      return IsVariable(op) || op == Op::FunctionParameter;
    case Target::kBuiltIn:
      return IsVariable(op) || ir::IsConstant(op);
    case Target::kNotType:
      return !ir::IsTypeDeclaration(op);
    case Target::kValue: {
      const Id type = state.TypeOf(target);
      return type != 0 && !ir::IsTypeDeclaration(op) && state.DefOp(type) != Op::TypeVoid;
    }
    case Target::kWrap:
      return op == Op::IAdd || op == Op::ISub || op == Op::IMul || op == Op::ShiftLeftLogical ||
             op == Op::SNegate || op == Op::ExtInst;
    case Target::kCoopMatrixConversion: {
      switch (op) {
        case Op::ConvertFToU:
        case Op::ConvertFToS:
        case Op::ConvertSToF:
        case Op::ConvertUToF:
        case Op::UConvert:
        case Op::SConvert:
        case Op::FConvert:
        case Op::CooperativeMatrixConvertUseEXT:
          break;
        default:
          return false;
      }
      const ir::Module& m = state.module();
      const InstIndex def = m.Def(target);
      return state.DefOp(state.TypeOf(target)) == Op::TypeCooperativeMatrixKHR &&
             m.num_words(def) > 3 &&
             state.DefOp(state.TypeOf(m.word(def, 3))) == Op::TypeCooperativeMatrixKHR;
    }
  }
  return true;
}

const char* TargetText(Target want) {
  switch (want) {
    case Target::kStruct:
      return "a structure type";
    case Target::kArrayOrPointer:
      return "an array, runtime array or pointer type";
    case Target::kVariable:
      return "a variable";
    case Target::kSpecConstant:
      return "OpSpecConstant, OpSpecConstantTrue or OpSpecConstantFalse";
    case Target::kMemoryObject:
      return "a memory object declaration (a variable or function parameter)";
    case Target::kBuiltIn:
      return "a variable or a constant (or a struct member, with OpMemberDecorate)";
    case Target::kNotType:
      return "a value, not a type";
    case Target::kValue:
      return "an object with a non-void type";
    case Target::kWrap:
      return "OpIAdd, OpISub, OpIMul, OpShiftLeftLogical, OpSNegate or OpExtInst";
    case Target::kCoopMatrixConversion:
      return "a conversion (OpConvert*, OpUConvert, OpSConvert, OpFConvert or "
             "OpCooperativeMatrixConvertUseEXT) of one OpTypeCooperativeMatrixKHR to another";
    case Target::kAny:
      break;
  }
  return "anything";
}

ws::string DecorationName(Decoration d) {
  const grammar::EnumerantInfo* e =
      grammar::LookupEnumerant(grammar::OperandKind::kDecoration, static_cast<uint32_t>(d));
  return e ? e->name : ws::to_string(static_cast<uint32_t>(d));
}

struct Applied {
  Id target;
  uint32_t member;  // ~0u for OpDecorate.
  uint32_t decoration;
  InstIndex inst;
  bool operator<(const Applied& o) const {
    return std::tie(target, member, decoration, inst) <
           std::tie(o.target, o.member, o.decoration, o.inst);
  }
};

// SPIR-V 3.20 NonWritable / NonReadable: the memory object points to a buffer (Uniform,
// StorageBuffer, PhysicalStorageBuffer) or an image or tensor (UniformConstant); from SPIR-V 1.4
// NonWritable also marks a Function or Private variable.
void CheckAccessQualifier(ValidationState& state, InstIndex i, Id target, Decoration d) {
  const std::optional<spv::StorageClass> sc = state.PointerStorageClass(state.TypeOf(target));
  if (!sc) return;  // Not a pointer: the type rules' (or an untyped pointer).
  using spv::StorageClass;
  switch (*sc) {
    case StorageClass::Uniform:
    case StorageClass::StorageBuffer:
    case StorageClass::PhysicalStorageBuffer:
    case StorageClass::UniformConstant:
      return;
    case StorageClass::Function:
    case StorageClass::Private:
      if (d == Decoration::NonWritable && state.version() >= SpirvVersion(1, 4)) return;
      break;
    default:
      break;
  }
  state.Report("decoration.access-qualifier", i,
               state.Describe(i) + ": " + DecorationName(d) + " on " + state.Name(target) +
                   ", a pointer into " + StorageClassName(*sc) +
                   " storage; it marks a uniform or storage buffer, an image or a tensor" +
                   (d == Decoration::NonWritable ? " (from SPIR-V 1.4 also a Function or Private "
                                                   "variable)"
                                                 : ""));
}

// SPIR-V 3.20 BuiltIn; VUID-WorkgroupSize-WorkgroupSize-04426: in a shader WorkgroupSize
// decorates a constant (or spec constant), which takes the place of LocalSize; every other
// built-in, and WorkgroupSize in a kernel, an OpDecorate'd variable.
void CheckBuiltInTarget(ValidationState& state, InstIndex i, Id target, uint32_t built_in) {
  const bool constant = state.IsConstantInstruction(target);
  const bool shader = state.HasCapability(spv::Capability::Shader);
  if (shader && built_in == static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize)) {
    if (constant) return;
    state.Report("decoration.target", i,
                 state.Describe(i) +
                     ": BuiltIn WorkgroupSize applies to a constant or spec "
                     "constant in a shader, not to " +
                     state.Describe(state.module().Def(target)));
  } else if (constant) {
    state.Report(
        "decoration.target", i,
        state.Describe(i) + ": BuiltIn " + EnumerantName(grammar::OperandKind::kBuiltIn, built_in) +
            " applies to a variable, not to " + state.Describe(state.module().Def(target)));
  }
}

// SPV_KHR_16bit_storage (FPRoundingMode in a shader): the decorated value is an OpFConvert
// result used only as the Object of OpStore through a pointer to 16-bit floats in
// StorageBuffer, PhysicalStorageBuffer, Uniform, PushConstant, Input or Output storage.
void CheckRoundingModeTarget(ValidationState& state, InstIndex i, Id target) {
  const ir::Module& m = state.module();
  ws::string problem;
  if (state.DefOp(target) != Op::FConvert) {
    problem = "is not an OpFConvert";
  } else {
    for (const ir::Use& use : m.def_use().Uses(target)) {
      const Op op = m.opcode(use.inst);
      if (use.inst < m.global_end() || op == Op::FConvert || IsNonSemanticExtInst(m, use.inst)) {
        continue;  // Decorations, names; a further conversion.
      }
      if (op != Op::Store || m.num_words(use.inst) < 3 || m.word(use.inst, 2) != target ||
          m.word(use.inst, 1) == target) {
        problem = "is used by " + state.Describe(use.inst) + ", not only as the Object of OpStore";
        break;
      }
      const Id pointer_type = state.TypeOf(m.word(use.inst, 1));
      const std::optional<spv::StorageClass> sc = state.PointerStorageClass(pointer_type);
      Id pointee = state.PointeeType(pointer_type);
      if (state.IsVectorType(pointee)) pointee = state.ComponentType(pointee);
      if (!state.IsFloatType(pointee) || state.ScalarWidth(pointee) != 16) {
        problem = "is stored by " + state.Describe(use.inst) + " to other than 16-bit floats";
        break;
      }
      using spv::StorageClass;
      if (sc && *sc != StorageClass::StorageBuffer && *sc != StorageClass::Uniform &&
          *sc != StorageClass::PushConstant && *sc != StorageClass::Input &&
          *sc != StorageClass::Output && *sc != StorageClass::PhysicalStorageBuffer) {
        problem = "is stored by " + state.Describe(use.inst) + " to " + StorageClassName(*sc) +
                  " storage";
        break;
      }
    }
  }
  if (problem.empty()) return;
  state.Report("decoration.fp-rounding-mode", i,
               state.Describe(i) + ": " + state.Name(target) + " " + problem +
                   "; in a shader FPRoundingMode marks a width conversion stored to 16-bit "
                   "float storage");
}

bool IsEntryPointFunction(const ir::Module& m, Id function) {
  for (InstIndex i = 0; i < m.global_end(); ++i) {
    if (m.opcode(i) == Op::EntryPoint && m.num_words(i) >= 3 && m.word(i, 2) == function) {
      return true;
    }
  }
  return false;
}

// Decorations that must not decorate the same target (SPIR-V 3.20 Aliased / Restrict,
// AliasedPointer / RestrictPointer; SPV_KHR_float_controls2: NoContraction / FPFastMathMode).
bool Conflict(uint32_t a, uint32_t b) {
  auto pair = [&](Decoration x, Decoration y) {
    return (a == static_cast<uint32_t>(x) && b == static_cast<uint32_t>(y)) ||
           (a == static_cast<uint32_t>(y) && b == static_cast<uint32_t>(x));
  };
  return pair(Decoration::Aliased, Decoration::Restrict) ||
         pair(Decoration::AliasedPointer, Decoration::RestrictPointer) ||
         pair(Decoration::NoContraction, Decoration::FPFastMathMode);
}

}  // namespace

void ValidateDecorations(ValidationState& state) {
  const ir::Module& m = state.module();
  ws::vector<Applied> applied;
  const bool shader =
      state.HasCapability(spv::Capability::Shader) && !state.HasCapability(spv::Capability::Kernel);
  for (InstIndex i = 0; i < m.global_end() && !state.Full(); ++i) {
    const Op op = m.opcode(i);
    const uint32_t n = m.num_words(i);
    if ((op == Op::Decorate || op == Op::DecorateId) && n >= 3) {
      const Id target = m.word(i, 1);
      const auto d = static_cast<Decoration>(m.word(i, 2));
      const Target want = TargetOf(d);
      const Op target_op = state.DefOp(target);
      if (target_op == Op::Nop || target_op == Op::DecorationGroup) continue;
      // SPIR-V OpDecorate / OpDecorateId: decorations with id operands go in OpDecorateId.
      // (An OpDecorate without operands takes no ids: the reader checked its operands.)
      if ((op == Op::DecorateId || n > 3) &&
          EnumerantTakesIds(grammar::OperandKind::kDecoration, static_cast<uint32_t>(d)) !=
              (op == Op::DecorateId)) {
        state.Report(
            "decoration.instruction", i,
            state.Describe(i) + ": " + DecorationName(d) +
                (op == Op::DecorateId ? " takes no id operand; it is declared with OpDecorate"
                                      : " takes id operands; it is declared with "
                                        "OpDecorateId"));
        continue;
      }
      if (!Satisfies(state, target, want)) {
        state.Report("decoration.target", i,
                     state.Describe(i) + ": " + DecorationName(d) + " applies to " +
                         TargetText(want) + ", not to " + state.Describe(m.Def(target)));
      } else if (d == Decoration::BuiltIn && n >= 4) {
        CheckBuiltInTarget(state, i, target, m.word(i, 3));
      } else if (d == Decoration::NonWritable || d == Decoration::NonReadable) {
        CheckAccessQualifier(state, i, target, d);
      } else if (d == Decoration::FPRoundingMode && shader) {
        CheckRoundingModeTarget(state, i, target);
      } else if (d == Decoration::FPFastMathMode && n >= 4) {
        // SPV_KHR_float_controls2: AllowTransform comes with AllowContract and AllowReassoc.
        constexpr auto kTransform = static_cast<uint32_t>(spv::FPFastMathMode::AllowTransform);
        constexpr uint32_t kContractReassoc =
            static_cast<uint32_t>(spv::FPFastMathMode::AllowContract) |
            static_cast<uint32_t>(spv::FPFastMathMode::AllowReassoc);
        const uint32_t bits = m.word(i, 3);
        if ((bits & kTransform) && (bits & kContractReassoc) != kContractReassoc) {
          state.Report("decoration.fp-fast-math-mode", i,
                       state.Describe(i) +
                           ": AllowTransform without AllowContract and "
                           "AllowReassoc");
        }
      } else if (d == Decoration::LinkageAttributes && target_op == Op::Function &&
                 IsEntryPointFunction(m, target)) {
        state.Report("decoration.linkage-entry-point", i,
                     state.Describe(i) + ": " + state.Name(target) +
                         " is an entry point's function, which is not imported or exported");
      }
      applied.push_back({target, ~0u, static_cast<uint32_t>(d), i});
    } else if ((op == Op::MemberDecorate || op == Op::MemberDecorateString ||
                op == Op::MemberName) &&
               n >= 3) {
      const Id type = m.word(i, 1);
      const uint32_t member = m.word(i, 2);
      const InstIndex def = m.Def(type);
      if (def == kNoInst || !ir::IsTypeDeclaration(m.opcode(def))) continue;  // id.kind.
      if (m.opcode(def) != Op::TypeStruct) {
        state.Report(
            "decoration.member", i,
            state.Describe(i) + ": Structure Type " + state.Name(type) + " is not a struct type");
        continue;
      }
      const uint32_t members = m.num_words(def) - 2;
      if (member >= members) {
        state.Report("decoration.member", i,
                     state.Describe(i) + ": member " + ws::to_string(member) + " of " +
                         state.Name(type) + ", which has " + ws::to_string(members) + " members");
        continue;
      }
      if (op == Op::MemberDecorate && n >= 4) {
        const auto d = static_cast<Decoration>(m.word(i, 3));
        applied.push_back({type, member, static_cast<uint32_t>(d), i});
      }
    }
  }
  // A target decorated twice with the same valued decoration: sorting brings them together.
  std::sort(applied.begin(), applied.end());
  for (size_t k = 1; k < applied.size() && !state.Full(); ++k) {
    const Applied& a = applied[k - 1];
    const Applied& b = applied[k];
    if (a.target != b.target || a.member != b.member) continue;
    if (a.decoration != b.decoration) {
      if (Conflict(a.decoration, b.decoration)) {
        state.Report("decoration.conflict", b.inst,
                     state.Describe(b.inst) + ": " + state.Name(b.target) +
                         " is also decorated with " +
                         DecorationName(static_cast<Decoration>(a.decoration)));
      }
      continue;
    }
    const ws::string what = state.Name(b.target) +
                            (b.member == ~0u ? ws::string() : " member " + ws::to_string(b.member));
    state.Report("decoration.duplicate", b.inst,
                 state.Describe(b.inst) + ": " + what + " is already decorated with " +
                     DecorationName(static_cast<Decoration>(b.decoration)));
  }
}

}  // namespace coopspv::val
