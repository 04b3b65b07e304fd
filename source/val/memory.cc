// Memory instructions (SPIR-V 3.42.8): what loads, stores, copies, access chains and variables
// require of the types of their operands. Each check reads the definitions of the operands'
// types, so every instruction costs a few lookups; nothing is allocated per instruction.
#include <string>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

// Storage classes no instruction may write through (SPIR-V 2.16.1, 3.7 Storage Class).
bool ReadOnly(spv::StorageClass sc) {
  return sc == spv::StorageClass::UniformConstant || sc == spv::StorageClass::Input ||
         sc == spv::StorageClass::PushConstant;
}

// The type a value has, when it is a defined value; 0 otherwise (the id rules report those).
// These helpers read the module's index directly: one lookup per id.
[[gnu::always_inline]] inline Id ValueType(const ValidationState& state, Id id) {
  const ir::Module& m = state.module();
  const InstIndex d = m.Def(id);
  if (d == kNoInst || m.opcode(d) == Op::Function) return 0;
  return m.type_id(d);
}

// The pointee of a pointer type (0 for other ids) and its storage class.
Id Pointee(const ValidationState& state, Id type) {
  const ir::Module& m = state.module();
  const InstIndex d = m.Def(type);
  return d != kNoInst && m.opcode(d) == Op::TypePointer && m.num_words(d) > 3 ? m.word(d, 3) : 0;
}
spv::StorageClass StorageOf(const ValidationState& state, Id type) {
  const ir::Module& m = state.module();
  const InstIndex d = m.Def(type);
  return static_cast<spv::StorageClass>(d != kNoInst && m.num_words(d) > 2 ? m.word(d, 2) : ~0u);
}

// A pointer operand's type, read from one lookup of its declaration: Pointee() and StorageOf()
// of it.
struct PointerType {
  Id type = 0;  // 0: not a pointer value.
  Id pointee = 0;
  spv::StorageClass sc = static_cast<spv::StorageClass>(~0u);
};

[[gnu::cold, gnu::noinline]] void ReportNotPointer(ValidationState& state, InstIndex i, Id pointer,
                                                   Id type, const char* rule, const char* what) {
  state.Report(rule, i,
               state.Describe(i) + ": " + what + " " + state.Name(pointer) + " has type " +
                   state.Name(type) + ", which is not a pointer type");
}

// Checks that `pointer` is a value of pointer type; returns its type (type 0 after a report).
[[gnu::always_inline]] inline PointerType PointerOperand(ValidationState& state, InstIndex i,
                                                         Id pointer, const char* rule,
                                                         const char* what) {
  const ir::Module& m = state.module();
  const Id type = ValueType(state, pointer);
  if (type == 0) return {};  // Not a value: id.kind says so.
  const InstIndex d = m.Def(type);
  if (d == kNoInst || m.opcode(d) != Op::TypePointer) {
    ReportNotPointer(state, i, pointer, type, rule, what);
    return {};
  }
  const uint32_t n = m.num_words(d);
  return {type, n > 3 ? m.word(d, 3) : 0,
          static_cast<spv::StorageClass>(n > 2 ? m.word(d, 2) : ~0u)};
}

[[gnu::always_inline]] inline void CheckLoad(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  if (m.num_words(i) < 4) return;
  if (m.num_words(i) > 4) CheckMemoryOperandMask(state, i, m.word(i, 4), true, "memory.operands");
  const Id result_type = m.word(i, 1);
  const PointerType pointer = PointerOperand(state, i, m.word(i, 3), "memory.load", "Pointer");
  if (pointer.type == 0) return;
  const Id pointee = pointer.pointee;
  if (pointee != result_type && state.IsType(result_type)) {
    state.Report("memory.load", i,
                 state.Describe(i) + ": Result Type " + state.Name(result_type) +
                     " is not the type " + state.Name(pointee) + " that Pointer points to");
  }
}

[[gnu::always_inline]] inline void CheckStore(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  if (m.num_words(i) < 3) return;
  if (m.num_words(i) > 3) CheckMemoryOperandMask(state, i, m.word(i, 3), false, "memory.operands");
  const PointerType pointer = PointerOperand(state, i, m.word(i, 1), "memory.store", "Pointer");
  if (pointer.type == 0) return;
  const auto sc = pointer.sc;
  if (ReadOnly(sc)) {
    state.Report("memory.store", i,
                 state.Describe(i) + ": Pointer " + state.Name(m.word(i, 1)) + " points to " +
                     "read-only storage (UniformConstant, Input and PushConstant cannot be "
                     "written)");
    return;
  }
  const Id object_type = ValueType(state, m.word(i, 2));
  const Id pointee = pointer.pointee;
  if (object_type != 0 && object_type != pointee) {
    state.Report("memory.store", i,
                 state.Describe(i) + ": Object " + state.Name(m.word(i, 2)) + " has type " +
                     state.Name(object_type) + ", not the type " + state.Name(pointee) +
                     " that Pointer points to");
  }
}

// OpCopyMemory / OpCopyMemorySized: one Memory Operands mask for both sides, or (SPIR-V 1.4)
// one for the Target, then one for the Source.
void CheckCopyMemoryOperands(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const uint32_t first_word = m.opcode(i) == Op::CopyMemory ? 3 : 4;
  if (m.num_words(i) <= first_word) return;
  const ir::Inst inst = m.inst(i);
  uint32_t masks[2] = {0, 0};
  int count = 0;
  for (const auto& operand : inst.operands) {
    if (operand.kind == grammar::OperandKind::kMemoryAccess && count < 2) {
      masks[count++] = inst.word(operand);
    }
  }
  if (count == 2 && state.version() < 0x10400) {
    state.Report("memory.operands", i,
                 state.Describe(i) + " has two Memory Operands, which needs SPIR-V 1.4 or later");
  }
  for (int k = 0; k < count; ++k) {
    const MemoryAccessRole role = count == 1 ? MemoryAccessRole::kCopy
                                  : k == 0   ? MemoryAccessRole::kStore
                                             : MemoryAccessRole::kLoad;
    CheckMemoryOperandMask(state, i, masks[k], role, "memory.operands", k);
  }
}

void CheckCopy(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const Op op = m.opcode(i);
  if (op == Op::CopyObject) {
    if (m.num_words(i) < 4) return;
    const Id operand_type = ValueType(state, m.word(i, 3));
    if (operand_type != 0 && operand_type != m.word(i, 1) && state.IsType(m.word(i, 1))) {
      state.Report("memory.copy", i,
                   state.Describe(i) + ": Result Type " + state.Name(m.word(i, 1)) +
                       " is not the type " + state.Name(operand_type) + " of Operand");
    }
    return;
  }
  CheckCopyMemoryOperands(state, i);
  if (op == Op::CopyMemorySized) return;
  // OpCopyMemory: Target and Source point to the same type (before SPIR-V 1.4 always; later
  // only without the explicit layouts that allow logically matching types, which the reference
  // also accepts only when identical in Logical addressing).
  if (m.num_words(i) < 3) return;
  const PointerType target = PointerOperand(state, i, m.word(i, 1), "memory.copy", "Target");
  const PointerType source = PointerOperand(state, i, m.word(i, 2), "memory.copy", "Source");
  if (target.type == 0 || source.type == 0) return;
  if (ReadOnly(target.sc)) {
    state.Report("memory.copy", i,
                 state.Describe(i) + ": Target " + state.Name(m.word(i, 1)) +
                     " points to read-only storage");
  } else if (target.pointee != source.pointee) {
    state.Report("memory.copy", i,
                 state.Describe(i) + ": Target points to " + state.Name(target.pointee) +
                     " but Source to " + state.Name(source.pointee));
  }
}

// The number of members of a struct type.
uint32_t MemberCount(const ValidationState& state, Id type) {
  const InstIndex d = state.module().Def(type);
  return d == kNoInst ? 0 : state.module().num_words(d) - 2;
}

void CheckAccessChain(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const Op op = m.opcode(i);
  const bool ptr = op == Op::PtrAccessChain || op == Op::InBoundsPtrAccessChain;
  const uint32_t first_index = ptr ? 5 : 4;
  if (m.num_words(i) < first_index) return;
  const Id result_type = m.word(i, 1);
  const InstIndex result_def = m.Def(result_type);
  const Op result_op = result_def == kNoInst ? Op::Nop : m.opcode(result_def);
  if (!ir::IsTypeDeclaration(result_op)) return;
  if (result_op != Op::TypePointer) {
    state.Report(
        "memory.access-chain", i,
        state.Describe(i) + ": Result Type " + state.Name(result_type) + " is not a pointer type");
    return;
  }
  const PointerType base = PointerOperand(state, i, m.word(i, 3), "memory.access-chain", "Base");
  if (base.type == 0) return;
  const uint32_t result_words = m.num_words(result_def);
  const auto result_sc =
      static_cast<spv::StorageClass>(result_words > 2 ? m.word(result_def, 2) : ~0u);
  const Id result_pointee = result_words > 3 ? m.word(result_def, 3) : 0;
  if (base.sc != result_sc) {
    state.Report("memory.access-chain", i,
                 state.Describe(i) + ": the storage class of Result Type " +
                     state.Name(result_type) + " differs from that of Base " +
                     state.Name(m.word(i, 3)));
    return;
  }
  if (ptr) {
    const Id element_type = ValueType(state, m.word(i, 4));
    if (element_type != 0 && !state.IsIntType(element_type)) {
      state.Report(
          "memory.access-chain", i,
          state.Describe(i) + ": Element " + state.Name(m.word(i, 4)) + " is not a scalar integer");
      return;
    }
  }
  Id current = base.pointee;
  for (uint32_t w = first_index; w < m.num_words(i); ++w) {
    const Id index = m.word(i, w);
    const Id index_type = ValueType(state, index);
    if (index_type == 0) return;
    if (!state.IsIntType(index_type)) {
      state.Report("memory.access-chain", i,
                   state.Describe(i) + ": index " + state.Name(index) + " is not a scalar integer");
      return;
    }
    // The current type's declaration, read once (IntConstant is empty for all but OpConstant).
    const InstIndex current_def = m.Def(current);
    const Op current_op = current_def == kNoInst ? Op::Nop : m.opcode(current_def);
    const uint32_t current_words = current_def == kNoInst ? 0 : m.num_words(current_def);
    switch (current_op) {
      case Op::TypeStruct: {
        const std::optional<int64_t> member = state.IntConstant(index);
        if (!member) {
          state.Report("memory.access-chain", i,
                       state.Describe(i) + ": index " + state.Name(index) + " into struct " +
                           state.Name(current) + " is not an OpConstant");
          return;
        }
        if (*member < 0 || *member >= current_words - 2) {
          state.Report("memory.access-chain", i,
                       state.Describe(i) + ": index " + ws::to_string(*member) +
                           " is out of range for struct " + state.Name(current) + " of " +
                           ws::to_string(MemberCount(state, current)) + " members");
          return;
        }
        current = m.word(current_def, 2 + static_cast<size_t>(*member));
        break;
      }
      case Op::TypeVector:
      case Op::TypeMatrix:
      case Op::TypeArray:
      case Op::TypeRuntimeArray:
      case Op::TypeCooperativeMatrixKHR:
      case Op::TypeCooperativeMatrixNV:
      case Op::TypeVectorIdEXT:
        current = current_words > 2 ? m.word(current_def, 2) : 0;
        break;
      default:
        state.Report("memory.access-chain", i,
                     state.Describe(i) + ": index " + state.Name(index) + " indexes into " +
                         state.Name(current) + ", which is not a composite type");
        return;
    }
  }
  if (result_pointee != current) {
    state.Report("memory.access-chain", i,
                 state.Describe(i) + ": Result Type " + state.Name(result_type) + " points to " +
                     state.Name(result_pointee) + ", but the indexes select " +
                     state.Name(current));
  }
}

// The first logical pointer type `type` is or holds (array elements, structure members) that a
// variable may not allocate: only StorageBuffer pointers with VariablePointersStorageBuffer and
// Workgroup pointers with VariablePointers may be; 0 when none. `budget` bounds the types visited
// (shared member types make the walk of a hostile module exponential otherwise).
Id DisallowedPointer(const ValidationState& state, Id type, int& budget, int depth = 0) {
  if (depth > 64 || --budget < 0) return 0;
  switch (state.DefOp(type)) {
    case Op::TypePointer: {
      const auto sc = StorageOf(state, type);
      const bool variable_pointers = state.HasCapability(spv::Capability::VariablePointers);
      const bool ok = sc == spv::StorageClass::PhysicalStorageBuffer ||
                      (sc == spv::StorageClass::StorageBuffer &&
                       (variable_pointers ||
                        state.HasCapability(spv::Capability::VariablePointersStorageBuffer))) ||
                      (sc == spv::StorageClass::Workgroup && variable_pointers);
      return ok ? 0 : type;
    }
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
      return DisallowedPointer(state, state.DefWord(type, 2), budget, depth + 1);
    case Op::TypeStruct: {
      const ir::Module& m = state.module();
      const InstIndex def = m.Def(type);
      for (uint32_t k = 2; k < m.num_words(def); ++k) {
        if (const Id p = DisallowedPointer(state, m.word(def, k), budget, depth + 1)) return p;
      }
      return 0;
    }
    default:
      return 0;
  }
}

void CheckVariable(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  if (m.num_words(i) < 4) return;
  const Id result_type = m.word(i, 1);
  if (!state.IsPointerType(result_type)) return;  // function.variable reports it.
  const Id pointee = Pointee(state, result_type);
  if (m.num_words(i) > 4) {
    const Id initializer = m.word(i, 4);
    const Id type = ValueType(state, initializer);
    if (type != 0 && type != pointee) {
      state.Report("memory.variable", i,
                   state.Describe(i) + ": Initializer " + state.Name(initializer) + " has type " +
                       state.Name(type) + ", not the pointee type " + state.Name(pointee));
    }
  }
  const Options& o = state.options();
  // Without variable pointers, Logical addressing cannot store pointers in variables
  // (2.16.1 Universal Validation Rules, Logical addressing); the same holds for the logical
  // pointers of PhysicalStorageBuffer64 modules, and for pointers inside arrays and structures.
  const spv::AddressingModel addressing = state.addressing_model();
  if ((addressing != spv::AddressingModel::Logical &&
       addressing != spv::AddressingModel::PhysicalStorageBuffer64) ||
      o.relax_logical_pointer || o.before_hlsl_legalization) {
    return;
  }
  int budget = 4096;
  const Id held = DisallowedPointer(state, pointee, budget);
  if (held != 0) {
    const auto sc = StorageOf(state, held);
    state.Report(
        "memory.variable", i,
        state.Describe(i) + " holds " +
            (held == pointee ? ws::string("a pointer") : "a pointer (" + state.Name(held) + ")") +
            " into " + StorageClassName(sc) +
            " storage, which the Logical addressing model allows only for "
            "StorageBuffer (VariablePointersStorageBuffer) and Workgroup "
            "(VariablePointers) pointers");
  }
}

}  // namespace

bool MemoryVisits(const ValidationState& state, Op op) {
  switch (op) {
    case Op::Load:
    case Op::Store:
    case Op::CopyObject:
    case Op::CopyMemory:
    case Op::CopyMemorySized:
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
    case Op::PtrAccessChain:
    case Op::InBoundsPtrAccessChain:
    case Op::Variable:
      return true;
    default:
      return op >= Op::AtomicLoad && op <= Op::AtomicXor;
  }
}

void ValidateMemory(ValidationState& state) {
  const ir::Module& m = state.module();
  for (const InstIndex i : state.Walked(Walk::kMemory)) {
    if (state.Full()) break;
    switch (m.opcode(i)) {
      case Op::Load:
        CheckLoad(state, i);
        break;
      case Op::Store:
        CheckStore(state, i);
        break;
      case Op::CopyObject:
      case Op::CopyMemory:
      case Op::CopyMemorySized:
        CheckCopy(state, i);
        break;
      case Op::AccessChain:
      case Op::InBoundsAccessChain:
      case Op::PtrAccessChain:
      case Op::InBoundsPtrAccessChain:
        CheckAccessChain(state, i);
        break;
      case Op::Variable:
        CheckVariable(state, i);
        break;
      default:
        // OpAtomicLoad (227) to OpAtomicXor (242): atomics.cc picks the ones it checks.
        if (m.opcode(i) >= Op::AtomicLoad && m.opcode(i) <= Op::AtomicXor) CheckAtomic(state, i);
        break;
    }
  }
}

}  // namespace coopspv::val
