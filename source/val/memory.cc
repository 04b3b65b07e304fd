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
  Id type = 0;     // 0: not a pointer value.
  Id pointee = 0;  // 0 for an untyped pointer.
  spv::StorageClass sc = static_cast<spv::StorageClass>(~0u);
  bool untyped = false;  // SPV_KHR_untyped_pointers: an OpTypeUntypedPointerKHR.
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
  const Op op = d == kNoInst ? Op::Nop : m.opcode(d);
  if (op != Op::TypePointer && op != Op::TypeUntypedPointerKHR) {
    ReportNotPointer(state, i, pointer, type, rule, what);
    return {};
  }
  const uint32_t n = m.num_words(d);
  return {type, n > 3 && op == Op::TypePointer ? m.word(d, 3) : 0,
          static_cast<spv::StorageClass>(n > 2 ? m.word(d, 2) : ~0u),
          op == Op::TypeUntypedPointerKHR};
}

// The first OpTypeRuntimeArray that `type` is or holds (struct members, array elements); 0 when
// none. `budget` bounds the types visited.
Id RuntimeArrayIn(const ValidationState& state, Id type, int& budget, int depth = 0) {
  if (depth > 64 || --budget < 0) return 0;
  const ir::Module& m = state.module();
  const InstIndex d = m.Def(type);
  if (d == kNoInst) return 0;
  switch (m.opcode(d)) {
    case Op::TypeRuntimeArray:
      return type;
    case Op::TypeArray:
      return m.num_words(d) > 2 ? RuntimeArrayIn(state, m.word(d, 2), budget, depth + 1) : 0;
    case Op::TypeStruct:
      for (uint32_t k = 2; k < m.num_words(d); ++k) {
        if (const Id r = RuntimeArrayIn(state, m.word(d, k), budget, depth + 1)) return r;
      }
      return 0;
    default:
      return 0;
  }
}

// OpLoad's Result Type, an aggregate, holds no runtime array; false after a report.
[[gnu::noinline]] bool CheckLoadedSize(ValidationState& state, InstIndex i, Id result_type) {
  int budget = 256;
  const Id runtime = RuntimeArrayIn(state, result_type, budget);
  if (runtime == 0) return true;
  state.Report(
      "memory.load", i,
      state.Describe(i) + ": Result Type " + state.Name(result_type) +
          (runtime == result_type ? ws::string(" is") : " holds " + state.Name(runtime) + ",") +
          " a runtime array, which has no fixed size to load");
  return false;
}

[[gnu::always_inline]] inline void CheckLoad(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  if (m.num_words(i) < 4) return;
  if (m.num_words(i) > 4) CheckMemoryOperandMask(state, i, m.word(i, 4), true, "memory.operands");
  const Id result_type = m.word(i, 1);
  const PointerType pointer = PointerOperand(state, i, m.word(i, 3), "memory.load", "Pointer");
  if (pointer.type == 0) return;
  // SPIR-V OpLoad: Result Type has a fixed size (no OpTypeRuntimeArray in it).
  const Op result_op = state.DefOp(result_type);
  if (result_op == Op::TypeStruct || result_op == Op::TypeArray ||
      result_op == Op::TypeRuntimeArray) {
    if (!CheckLoadedSize(state, i, result_type)) return;
  }
  // SPV_KHR_untyped_pointers: through an untyped pointer, Result Type says what is read.
  if (pointer.untyped) return;
  const Id pointee = pointer.pointee;
  if (pointee != result_type && state.IsType(result_type)) {
    state.Report("memory.load", i,
                 state.Describe(i) + ": Result Type " + state.Name(result_type) +
                     " is not the type " + state.Name(pointee) + " that Pointer points to");
  }
}

// Whether `type` is an image, sampler, sampled image or acceleration structure, or an array of
// them: what Vulkan never stores to (VUID-StandaloneSpirv-OpTypeImage-06924).
bool IsOpaqueResource(const ValidationState& state, Id type) {
  for (int depth = 0; depth < 64; ++depth) {
    switch (state.DefOp(type)) {
      case Op::TypeImage:
      case Op::TypeSampler:
      case Op::TypeSampledImage:
      case Op::TypeAccelerationStructureKHR:
        return true;
      case Op::TypeArray:
      case Op::TypeRuntimeArray:
        type = state.DefWord(type, 2);
        break;
      default:
        return false;
    }
  }
  return false;
}

bool IsArrayOrOpaque(Op op) {
  return op == Op::TypeArray || op == Op::TypeRuntimeArray || op == Op::TypeImage ||
         op == Op::TypeSampler || op == Op::TypeSampledImage ||
         op == Op::TypeAccelerationStructureKHR;
}

// The variable (or function parameter, ...) a pointer is derived from through access chains and
// copies.
Id RootOf(const ValidationState& state, Id pointer) {
  for (int depth = 0; depth < 256; ++depth) {
    switch (state.DefOp(pointer)) {
      case Op::AccessChain:
      case Op::InBoundsAccessChain:
      case Op::PtrAccessChain:
      case Op::InBoundsPtrAccessChain:
      case Op::CopyObject:
        pointer = state.DefWord(pointer, 3);
        break;
      case Op::UntypedAccessChainKHR:
      case Op::UntypedInBoundsAccessChainKHR:
      case Op::UntypedPtrAccessChainKHR:
      case Op::UntypedInBoundsPtrAccessChainKHR:
        pointer = state.DefWord(pointer, 4);
        break;
      default:
        return pointer;
    }
  }
  return pointer;
}

// Vulkan: no store to an image, sampler or acceleration structure object, nor into a Uniform
// variable whose (array-of) struct type is a Block.
[[gnu::noinline]] void CheckVulkanStore(ValidationState& state, InstIndex i,
                                        const PointerType& pointer, Id object_type) {
  const ir::Module& m = state.module();
  if (IsOpaqueResource(state, object_type)) {
    state.Report("vulkan.store-opaque", i,
                 state.Describe(i) + ": Object " + state.Name(m.word(i, 2)) + " of type " +
                     state.Name(object_type) +
                     " is an image, sampler or acceleration structure (or an array of them), "
                     "which Vulkan never stores");
    return;
  }
  if (pointer.sc != spv::StorageClass::Uniform) return;
  const Id root = RootOf(state, m.word(i, 1));
  const Op root_op = state.DefOp(root);
  Id type = root_op == Op::Variable ? state.PointeeType(state.TypeOf(root))
            : root_op == Op::UntypedVariableKHR && state.module().num_words(m.Def(root)) > 4
                ? state.DefWord(root, 4)
                : 0;
  while (state.DefOp(type) == Op::TypeArray || state.DefOp(type) == Op::TypeRuntimeArray) {
    type = state.DefWord(type, 2);
  }
  if (state.DefOp(type) == Op::TypeStruct && HasDecoration(state, type, spv::Decoration::Block)) {
    state.Report("vulkan.store-uniform-block", i,
                 state.Describe(i) + ": Pointer " + state.Name(m.word(i, 1)) +
                     " points into the Uniform Block variable " + state.Name(root) +
                     ", which Vulkan never stores to");
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
  // Vulkan's store rules, for Uniform stores and stores of arrays or opaque objects.
  // Opaque objects live in UniformConstant (read-only: reported above), Function and Private.
  if (pointer.sc == spv::StorageClass::Uniform ||
      ((pointer.sc == spv::StorageClass::Function || pointer.sc == spv::StorageClass::Private) &&
       IsArrayOrOpaque(state.DefOp(object_type)))) {
    if (state.options().env.is_vulkan()) CheckVulkanStore(state, i, pointer, object_type);
  }
  if (object_type != 0 && object_type != pointee && !pointer.untyped) {
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
  } else if (target.untyped && source.untyped) {
    // SPV_KHR_untyped_pointers: the typed operand gives the size copied.
    state.Report("memory.copy", i,
                 state.Describe(i) +
                     ": Target and Source are both untyped pointers; at least "
                     "one must be an OpTypePointer, whose type is copied");
  } else if (target.pointee != source.pointee && !target.untyped && !source.untyped) {
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

// Walks the indexes of access chain `i` from its word `first_index` on, starting at type
// `current` (SPIR-V OpAccessChain: struct members by OpConstant, elements of arrays, vectors,
// matrices and cooperative types; `non_negative`: no negative signed OpConstant). Sets *selected to
// the type they select; false after a report or where an index is not a value (the id rules report
// those).
[[gnu::always_inline]] inline bool WalkIndexes(ValidationState& state, InstIndex i, Id current,
                                               uint32_t first_index, bool non_negative,
                                               Id* selected) {
  const ir::Module& m = state.module();
  for (uint32_t w = first_index; w < m.num_words(i); ++w) {
    const Id index = m.word(i, w);
    const Id index_type = ValueType(state, index);
    if (index_type == 0) return false;
    if (!state.IsIntType(index_type)) {
      state.Report("memory.access-chain", i,
                   state.Describe(i) + ": index " + state.Name(index) + " is not a scalar integer");
      return false;
    }
    // SPIR-V 2.16.1: the OpConstant indexes of the non-Ptr access chains that are signed
    // integers do not have their sign bit set.
    // One test of the sign bit of the constant's high word first (the index's type is read only
    // when it is set).
    const InstIndex index_def = m.Def(index);
    if (non_negative && m.opcode(index_def) == Op::Constant &&
        (m.word(index_def, m.num_words(index_def) - 1) & 0x80000000u) &&
        state.IsSignedInt(index_type)) {
      const std::optional<int64_t> value = state.IntConstant(index);
      if (value && *value < 0) {
        state.Report("memory.access-chain", i,
                     state.Describe(i) + ": index " + state.Name(index) + " is negative (" +
                         ws::to_string(*value) + ")");
        return false;
      }
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
          return false;
        }
        if (*member < 0 || *member >= current_words - 2) {
          state.Report("memory.access-chain", i,
                       state.Describe(i) + ": index " + ws::to_string(*member) +
                           " is out of range for struct " + state.Name(current) + " of " +
                           ws::to_string(MemberCount(state, current)) + " members");
          return false;
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
        return false;
    }
  }
  *selected = current;
  return true;
}

bool IsUntypedAccessChain(Op op) {
  return op == Op::UntypedAccessChainKHR || op == Op::UntypedInBoundsAccessChainKHR ||
         op == Op::UntypedPtrAccessChainKHR || op == Op::UntypedInBoundsPtrAccessChainKHR;
}

// The access chains: OpAccessChain and its InBounds / Ptr forms, and SPV_KHR_untyped_pointers'
// OpUntyped*AccessChainKHR, which take a Base Type operand before Base, walk their indexes
// through it instead of Base's pointee, result in an untyped pointer and take a typed or an
// untyped Base.
void CheckAccessChain(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const Op op = m.opcode(i);
  const bool untyped = IsUntypedAccessChain(op);
  const bool ptr = op == Op::PtrAccessChain || op == Op::InBoundsPtrAccessChain ||
                   op == Op::UntypedPtrAccessChainKHR || op == Op::UntypedInBoundsPtrAccessChainKHR;
  const uint32_t base_word = untyped ? 4 : 3;
  const uint32_t first_index = base_word + (ptr ? 2 : 1);
  if (m.num_words(i) < first_index) return;
  const Id result_type = m.word(i, 1);
  const InstIndex result_def = m.Def(result_type);
  const Op result_op = result_def == kNoInst ? Op::Nop : m.opcode(result_def);
  if (!ir::IsTypeDeclaration(result_op)) return;
  if (result_op != (untyped ? Op::TypeUntypedPointerKHR : Op::TypePointer)) {
    state.Report("memory.access-chain", i,
                 state.Describe(i) + ": Result Type " + state.Name(result_type) + " is not " +
                     (untyped ? "an OpTypeUntypedPointerKHR" : "an OpTypePointer"));
    return;
  }
  Id start = 0;  // The type the indexes walk.
  if (untyped) {
    // SPV_KHR_untyped_pointers: Base Type is a type (not a pointer type, but for the Ptr forms).
    start = m.word(i, 3);
    const Op base_type_op = state.DefOp(start);
    if (!ir::IsTypeDeclaration(base_type_op) ||
        (!ptr && (base_type_op == Op::TypePointer || base_type_op == Op::TypeUntypedPointerKHR))) {
      state.Report("memory.access-chain", i,
                   state.Describe(i) + ": Base Type " + state.Name(start) + " is not a" +
                       (ptr ? " type" : " non-pointer type"));
      return;
    }
  }
  const Id base_id = m.word(i, base_word);
  const PointerType base = PointerOperand(state, i, base_id, "memory.access-chain", "Base");
  if (base.type == 0) return;
  if (!untyped) {
    if (base.untyped) {
      state.Report("memory.access-chain", i,
                   state.Describe(i) + ": Base " + state.Name(base_id) +
                       " is an untyped pointer; only the OpUntyped*AccessChainKHR instructions "
                       "take one");
      return;
    }
    start = base.pointee;
  }
  const uint32_t result_words = m.num_words(result_def);
  const auto result_sc =
      static_cast<spv::StorageClass>(result_words > 2 ? m.word(result_def, 2) : ~0u);
  const Id result_pointee = !untyped && result_words > 3 ? m.word(result_def, 3) : 0;
  if (base.sc != result_sc) {
    state.Report("memory.access-chain", i,
                 state.Describe(i) + ": the storage class of Result Type " +
                     state.Name(result_type) + " differs from that of Base " + state.Name(base_id));
    return;
  }
  if (ptr) {
    const Id element = m.word(i, base_word + 1);
    const Id element_type = ValueType(state, element);
    if (element_type != 0 && !state.IsIntType(element_type)) {
      state.Report(
          "memory.access-chain", i,
          state.Describe(i) + ": Element " + state.Name(element) + " is not a scalar integer");
      return;
    }
  }
  Id current = 0;
  if (!WalkIndexes(state, i, start, first_index, !ptr, &current)) return;
  if (!untyped && result_pointee != current) {
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
    case Op::TypePointer:
    case Op::TypeUntypedPointerKHR: {
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

// OpUntypedVariableKHR: its Result Type is an untyped pointer and its Data Type (needed in
// Function, Private and Workgroup storage) a data type, set in *data_type (0 when absent); false
// after a report.
[[gnu::noinline]] bool UntypedDataType(ValidationState& state, InstIndex i, Id* data_type) {
  const ir::Module& m = state.module();
  const Id result_type = m.word(i, 1);
  Id& pointee = *data_type;
  if (state.DefOp(result_type) != Op::TypeUntypedPointerKHR) {
    if (state.IsType(result_type)) {
      state.Report("memory.variable", i,
                   state.Describe(i) + ": Result Type " + state.Name(result_type) +
                       " is not an OpTypeUntypedPointerKHR");
    }
    return false;
  }
  // function.variable checks the Storage Class against the Result Type's.
  const auto sc = static_cast<spv::StorageClass>(m.word(i, 3));
  if (m.num_words(i) > 4) {
    pointee = m.word(i, 4);
    if (!state.IsType(pointee) || state.DefOp(pointee) == Op::TypeFunction) {
      state.Report(
          "memory.variable", i,
          state.Describe(i) + ": Data Type " + state.Name(pointee) + " is not a data type");
      return false;
    }
  } else if (sc == spv::StorageClass::Function || sc == spv::StorageClass::Private ||
             sc == spv::StorageClass::Workgroup) {
    state.Report(
        "memory.variable", i,
        state.Describe(i) + " has no Data Type, which " + StorageClassName(sc) + " variables need");
    return false;
  }
  return true;
}

// OpVariable, and SPV_KHR_untyped_pointers' OpUntypedVariableKHR, whose Result Type is an
// untyped pointer of its Storage Class and whose optional Data Type (needed in Function, Private
// and Workgroup storage) is the type allocated.
void CheckVariable(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  if (m.num_words(i) < 4) return;
  const Id result_type = m.word(i, 1);
  const bool untyped = m.opcode(i) == Op::UntypedVariableKHR;
  Id pointee = 0;
  uint32_t initializer_word = 4;
  if (untyped) {
    if (!UntypedDataType(state, i, &pointee)) return;
    initializer_word = 5;
  } else {
    if (!state.IsPointerType(result_type)) return;  // function.variable reports it.
    pointee = Pointee(state, result_type);
  }
  if (m.num_words(i) > initializer_word) {
    const Id initializer = m.word(i, initializer_word);
    const Id type = ValueType(state, initializer);
    if (type != 0 && type != pointee) {
      state.Report("memory.variable", i,
                   state.Describe(i) + ": Initializer " + state.Name(initializer) + " has type " +
                       state.Name(type) + ", not the type " + state.Name(pointee) +
                       " it allocates");
    }
  }
  // Vulkan: a Uniform or StorageBuffer variable is a struct or an array of structs
  // (VUID-StandaloneSpirv-Uniform-06807).
  const auto var_sc = static_cast<spv::StorageClass>(m.word(i, 3));
  if ((var_sc == spv::StorageClass::Uniform || var_sc == spv::StorageClass::StorageBuffer) &&
      pointee != 0 && state.options().env.is_vulkan()) {
    Id type = pointee;
    while (state.DefOp(type) == Op::TypeArray || state.DefOp(type) == Op::TypeRuntimeArray) {
      type = state.DefWord(type, 2);
    }
    if (state.DefOp(type) != Op::TypeStruct && state.IsType(type)) {
      state.Report("vulkan.buffer-variable-type", i,
                   state.Describe(i) + ": a " + StorageClassName(var_sc) + " variable of type " +
                       state.Name(pointee) + "; Vulkan wants a struct or an array of structs");
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
  const Id held = pointee == 0 ? 0 : DisallowedPointer(state, pointee, budget);
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

// OpArrayLength / OpUntypedArrayLengthKHR (SPIR-V 3.42.8; SPV_KHR_untyped_pointers): the
// Result Type is a 32-bit unsigned integer (or 64-bit with SPV_EXT_shader_64bit_indexing);
// Structure is a structure whose last member is a runtime array, and Array member that member's
// index. OpArrayLength's Structure is a pointer to the structure; the untyped form names the
// structure type and takes an untyped Pointer.
[[gnu::noinline]] void CheckArrayLength(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const bool untyped = m.opcode(i) == Op::UntypedArrayLengthKHR;
  if (m.num_words(i) < (untyped ? 6u : 5u)) return;
  const Id result_type = m.type_id(i);
  const bool wide = state.HasCapability(spv::Capability::Shader64BitIndexingEXT);
  if (!state.IsIntType(result_type) || state.DefWord(result_type, 3) != 0 ||
      (state.DefWord(result_type, 2) != 32 && !(wide && state.DefWord(result_type, 2) == 64))) {
    state.Report("memory.array-length", i,
                 state.Describe(i) + ": Result Type " + state.Name(result_type) +
                     " must be a 32-bit unsigned integer" + (wide ? " (or 64-bit)" : ""));
    return;
  }
  Id structure = 0;
  if (untyped) {
    structure = m.word(i, 3);
    const Id pointer_type = state.TypeOf(m.word(i, 4));
    if (state.DefOp(pointer_type) != Op::TypeUntypedPointerKHR) {
      state.Report("memory.array-length", i,
                   state.Describe(i) + ": Pointer " + state.Name(m.word(i, 4)) +
                       " must be an untyped pointer");
      return;
    }
  } else {
    const Id pointer_type = state.TypeOf(m.word(i, 3));
    if (state.DefOp(pointer_type) != Op::TypePointer) {
      state.Report("memory.array-length", i,
                   state.Describe(i) + ": Structure " + state.Name(m.word(i, 3)) +
                       " must be a pointer to a structure");
      return;
    }
    structure = state.PointeeType(pointer_type);
  }
  if (state.DefOp(structure) != Op::TypeStruct) {
    state.Report("memory.array-length", i,
                 state.Describe(i) + ": " + state.Name(structure) + " is not a structure type");
    return;
  }
  const InstIndex def = m.Def(structure);
  const uint32_t members = m.num_words(def) - 2;
  const uint32_t member = m.word(i, untyped ? 5 : 4);
  if (members == 0 || state.DefOp(m.word(def, 1 + members)) != Op::TypeRuntimeArray) {
    state.Report("memory.array-length", i,
                 state.Describe(i) + ": the last member of " + state.Name(structure) +
                     " is not a runtime array");
  } else if (member != members - 1) {
    state.Report("memory.array-length", i,
                 state.Describe(i) + ": Array member " + ws::to_string(member) +
                     " is not the last member (" + ws::to_string(members - 1) + ") of " +
                     state.Name(structure));
  }
}

bool MemoryVisits(const ValidationState& state, Op op) {
  switch (op) {
    case Op::ArrayLength:
    case Op::UntypedArrayLengthKHR:
    case Op::Load:
    case Op::Store:
    case Op::CopyObject:
    case Op::CopyMemory:
    case Op::CopyMemorySized:
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
    case Op::PtrAccessChain:
    case Op::InBoundsPtrAccessChain:
    case Op::UntypedAccessChainKHR:
    case Op::UntypedInBoundsAccessChainKHR:
    case Op::UntypedPtrAccessChainKHR:
    case Op::UntypedInBoundsPtrAccessChainKHR:
    case Op::Variable:
    case Op::UntypedVariableKHR:
      return true;
    default:
      return (op >= Op::AtomicLoad && op <= Op::AtomicXor) || op == Op::AtomicFAddEXT ||
             op == Op::AtomicFMinEXT || op == Op::AtomicFMaxEXT;
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
      case Op::UntypedAccessChainKHR:
      case Op::UntypedInBoundsAccessChainKHR:
      case Op::UntypedPtrAccessChainKHR:
      case Op::UntypedInBoundsPtrAccessChainKHR:
        CheckAccessChain(state, i);
        break;
      case Op::Variable:
      case Op::UntypedVariableKHR:
        CheckVariable(state, i);
        break;
      case Op::ArrayLength:
      case Op::UntypedArrayLengthKHR:
        CheckArrayLength(state, i);
        break;
      default:
        // OpAtomicLoad (227) to OpAtomicXor (242): atomics.cc picks the ones it checks.
        CheckAtomic(state, i);
        break;
    }
  }
}

}  // namespace coopspv::val
