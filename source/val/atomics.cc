// Atomic instructions (SPIR-V 3.42.18): the types of their Result Type, of the value Pointer
// points to, and of their Value / Comparator operands; in a Vulkan environment the width of the
// integers they operate on, and the storage classes they access. CheckAtomic runs from the memory
// family's per-instruction dispatch (memory.cc); Scope and Memory Semantics operands are the
// scope rules' (scope.cc) and the Vulkan rules' (vulkan.cc).
#include <string>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

struct AtomicShape {
  bool has_result = true;  // Everything but OpAtomicStore returns a value.
  bool integer_only = true;
  int value_words[2] = {0, 0};  // Words of the operands whose type must be the atomic type.
  bool float_only = false;      // The floating-point atomics of extensions.
  // SPV_NV_shader_atomic_fp16_vector: with AtomicFloat16VectorNV, also a vector of two or four
  // 16-bit floats.
  bool half_vectors = false;
};

// The shape of an atomic opcode this family checks; nullopt for the others (flags).
std::optional<AtomicShape> ShapeOf(Op op) {
  switch (op) {
    case Op::AtomicLoad:
      return AtomicShape{true, false, {0, 0}, false, true};
    case Op::AtomicStore:
      return AtomicShape{false, false, {4, 0}, false, true};
    case Op::AtomicExchange:
      return AtomicShape{true, false, {6, 0}, false, true};
    // SPV_EXT_shader_atomic_float_add, SPV_EXT_shader_atomic_float_min_max.
    case Op::AtomicFAddEXT:
    case Op::AtomicFMinEXT:
    case Op::AtomicFMaxEXT:
      return AtomicShape{true, false, {6, 0}, true, true};
    case Op::AtomicCompareExchange:
      return AtomicShape{true, true, {7, 8}};
    case Op::AtomicIIncrement:
    case Op::AtomicIDecrement:
      return AtomicShape{true, true, {0, 0}};
    case Op::AtomicIAdd:
    case Op::AtomicISub:
    case Op::AtomicSMin:
    case Op::AtomicUMin:
    case Op::AtomicSMax:
    case Op::AtomicUMax:
    case Op::AtomicAnd:
    case Op::AtomicOr:
    case Op::AtomicXor:
      return AtomicShape{true, true, {6, 0}};
    default:
      return std::nullopt;
  }
}

// The storage classes atomics may access: those of the SPIR-V memory model (atomic.storage-class;
// Function not in shaders), narrowed in Vulkan (VUID-StandaloneSpirv-None-04686).
void CheckAtomicStorageClass(ValidationState& state, InstIndex i, Id pointer, Id pointer_type) {
  using spv::StorageClass;
  const std::optional<StorageClass> sc = state.PointerStorageClass(pointer_type);
  if (!sc) return;
  bool vulkan_ok = false, universal_ok = false;
  switch (*sc) {
    case StorageClass::Uniform:
    case StorageClass::Workgroup:
    case StorageClass::Image:
    case StorageClass::StorageBuffer:
    case StorageClass::PhysicalStorageBuffer:
    case StorageClass::TaskPayloadWorkgroupEXT:
      vulkan_ok = universal_ok = true;
      break;
    case StorageClass::CrossWorkgroup:
    case StorageClass::Generic:
    case StorageClass::AtomicCounter:
      universal_ok = true;
      break;
    case StorageClass::Function:
      universal_ok = !state.HasCapability(spv::Capability::Shader);
      break;
    default:
      break;
  }
  if (!universal_ok) {
    state.Report("atomic.storage-class", i,
                 state.Describe(i) + ": Pointer " + state.Name(pointer) + " is in " +
                     StorageClassName(*sc) + " storage, which atomics cannot access" +
                     (*sc == StorageClass::Function ? " in a shader" : ""));
  } else if (!vulkan_ok && state.options().env.is_vulkan()) {
    state.Report("vulkan.atomic-storage-class", i,
                 state.Describe(i) + ": Pointer " + state.Name(pointer) + " is in " +
                     StorageClassName(*sc) +
                     " storage; Vulkan allows atomics on Uniform, Workgroup, Image, StorageBuffer, "
                     "PhysicalStorageBuffer and TaskPayloadWorkgroupEXT");
  }
}

}  // namespace

void CheckAtomic(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const Op op = m.opcode(i);
  const std::optional<AtomicShape> shape = ShapeOf(op);
  if (!shape) return;
  const uint32_t n = m.num_words(i);
  const size_t pointer_word = shape->has_result ? 3 : 1;
  if (n <= pointer_word) return;
  const Id pointer = m.word(i, pointer_word);
  const Op pointer_def = state.DefOp(pointer);
  if (pointer_def == Op::Nop || pointer_def == Op::Function) return;  // The id rules.
  const Id pointer_type = state.TypeOf(pointer);
  if (!state.IsAnyPointerType(pointer_type)) {
    state.Report("atomic.type", i,
                 state.Describe(i) + ": Pointer " + state.Name(pointer) + " is not a pointer");
    return;
  }
  CheckAtomicStorageClass(state, i, pointer, pointer_type);
  const Id pointee = state.PointeeType(pointer_type);
  // SPV_KHR_untyped_pointers: through an untyped pointer the Result Type (for a store, Value's
  // type) is the type accessed.
  const bool untyped = pointee == 0;
  const Id type = shape->has_result ? m.word(i, 1)
                  : untyped         ? state.TypeOf(m.word(i, n - 1))
                                    : pointee;
  if (!state.IsType(type)) return;  // The id rules report a Result Type that is no type.
  const bool half_vector =
      shape->half_vectors && state.HasCapability(spv::Capability::AtomicFloat16VectorNV) &&
      state.DefOp(type) == Op::TypeVector &&
      (state.DefWord(type, 3) == 2 || state.DefWord(type, 3) == 4) &&
      state.IsFloatType(state.DefWord(type, 2)) && state.ScalarWidth(state.DefWord(type, 2)) == 16;
  const bool ok_kind = shape->integer_only ? state.IsIntType(type)
                       : shape->float_only ? state.IsFloatType(type)
                                           : state.IsNumericScalarType(type);
  if (!ok_kind && !half_vector) {
    state.Report(
        "atomic.type", i,
        state.Describe(i) + ": " +
            (shape->has_result ? "Result Type " : "the type Pointer points to, ") +
            state.Name(type) + ", is not a scalar " +
            (shape->integer_only ? "integer"
             : shape->float_only ? "floating-point"
                                 : "integer or floating-point") +
            " type" +
            (shape->half_vectors && state.HasCapability(spv::Capability::AtomicFloat16VectorNV)
                 ? " (nor a vector of two or four 16-bit floats)"
                 : ""));
    return;
  }
  if (shape->has_result && pointee != type && !untyped) {
    state.Report("atomic.type", i,
                 state.Describe(i) + ": Pointer points to " + state.Name(pointee) +
                     "; it must point to the Result Type " + state.Name(type));
    return;
  }
  for (const int w : shape->value_words) {
    if (w == 0 || static_cast<uint32_t>(w) >= n) continue;
    const Id value = m.word(i, w);
    const Op def = state.DefOp(value);
    if (def == Op::Nop || def == Op::Function) continue;
    if (state.TypeOf(value) != type) {
      state.Report("atomic.type", i,
                   state.Describe(i) + ": operand " + state.Name(value) + " has type " +
                       state.Name(state.TypeOf(value)) + "; it must be " + state.Name(type));
      return;
    }
  }
  // Integer atomics in Vulkan are on 32-bit integers, or on 64-bit ones with Int64Atomics.
  if (state.options().env.is_vulkan() && state.IsIntType(type)) {
    const uint32_t width = state.ScalarWidth(type);
    if (width != 32 && !(width == 64 && state.HasCapability(spv::Capability::Int64Atomics))) {
      state.Report("vulkan.atomic-width", i,
                   state.Describe(i) + ": an atomic on a " + ws::to_string(width) +
                       "-bit integer; Vulkan allows 32-bit integers, and 64-bit ones with "
                       "Int64Atomics");
    }
  }
}

}  // namespace coopspv::val
