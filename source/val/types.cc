// Type declarations: scalar widths and signedness, vectors, matrices, arrays, runtime arrays,
// structs, pointers, function types, uniqueness and nesting depth.
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

using spv::Capability;

bool AnyOf(const ValidationState& state, std::initializer_list<Capability> caps) {
  for (Capability c : caps) {
    if (state.HasCapability(c)) return true;
  }
  return false;
}

bool IsVoid(const ValidationState& state, Id type) { return state.DefOp(type) == Op::TypeVoid; }

void CheckInt(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const uint32_t width = m.word(i, 2);
  const uint32_t signedness = m.word(i, 3);
  if (signedness > 1) {
    state.Report(
        "type.int", i,
        state.Describe(i) + ": Signedness must be 0 or 1, not " + ws::to_string(signedness));
  } else if (signedness == 1 && state.HasCapability(Capability::Kernel) &&
             !state.HasCapability(Capability::Shader)) {
    state.Report("type.int", i, state.Describe(i) + ": kernels use Signedness 0 only");
  }
  bool ok = false;
  switch (width) {
    case 32:
      ok = true;
      break;
    case 8:
      ok = AnyOf(state,
                 {Capability::Int8, Capability::StorageBuffer8BitAccess,
                  Capability::UniformAndStorageBuffer8BitAccess, Capability::StoragePushConstant8});
      break;
    case 16:
      ok = AnyOf(state, {Capability::Int16, Capability::StorageBuffer16BitAccess,
                         Capability::UniformAndStorageBuffer16BitAccess,
                         Capability::StoragePushConstant16, Capability::StorageInputOutput16});
      break;
    case 64:
      ok = state.HasCapability(Capability::Int64);
      break;
    case 4:
      ok = state.HasCapabilityValue(5112);  // Int4TypeINTEL.
      break;
    default:
      state.Report("type.int", i,
                   state.Describe(i) + ": Width " + ws::to_string(width) +
                       " is not a supported integer width (8, 16, 32 or 64)");
      return;
  }
  if (!ok) {
    state.Report("type.int", i,
                 state.Describe(i) + ": " + ws::to_string(width) + "-bit integers need the Int" +
                     ws::to_string(width) + " capability (or a storage capability for that width)");
  }
}

// What a float type of Floating Point Encoding `encoding` is (ValidationState::FloatEncodings).
uint8_t FloatEncodingsOf(spv::FPEncoding encoding) {
  switch (encoding) {
    case spv::FPEncoding::Float4E2M1EXT:
    case spv::FPEncoding::Float6E2M3EXT:
    case spv::FPEncoding::Float6E3M2EXT:
      return ValidationState::kMicroscalingFloat | ValidationState::kSubByteFloat;
    case spv::FPEncoding::Float8UnsignedE8M0EXT:
    case spv::FPEncoding::MXInt8EXT:
      return ValidationState::kMicroscalingFloat;
    case spv::FPEncoding::BFloat16KHR:
      return ValidationState::kBFloat16;
    case spv::FPEncoding::Float8E4M3EXT:
    case spv::FPEncoding::Float8E5M2EXT:
      return ValidationState::kFloat8;
    default:
      return 0;
  }
}

// Whether `type` is or holds (not through pointers) a float with a Floating Point Encoding other
// than FP4 / FP6 (whose storage classes type.float.storage checks).
bool HoldsByteEncodedFloat(const ValidationState& state, Id type, int depth = 0) {
  if (depth > 64) return false;
  switch (state.DefOp(type)) {
    case Op::TypeFloat: {
      const InstIndex d = state.module().Def(type);
      return state.module().num_words(d) > 3 &&
             !(FloatEncodingsOf(static_cast<spv::FPEncoding>(state.module().word(d, 3))) &
               ValidationState::kSubByteFloat);
    }
    case Op::TypeVector:
    case Op::TypeVectorIdEXT:
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
    case Op::TypeCooperativeMatrixKHR:
    case Op::TypeCooperativeMatrixNV:
      return HoldsByteEncodedFloat(state, state.DefWord(type, 2), depth + 1);
    case Op::TypeStruct: {
      const InstIndex d = state.module().Def(type);
      for (uint32_t w = 2; w < state.module().num_words(d); ++w) {
        if (HoldsByteEncodedFloat(state, state.module().word(d, w), depth + 1)) return true;
      }
      return false;
    }
    default:
      return false;
  }
}

// VUID-StandaloneSpirv-OpTypeFloat-10370, -10823: in Vulkan no Input or Output variable holds a
// bfloat16, float8 or OCP microscaling float.
void CheckInterfaceVariable(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  if (m.num_words(i) < 4) return;
  const auto sc = static_cast<spv::StorageClass>(m.word(i, 3));
  if (sc != spv::StorageClass::Input && sc != spv::StorageClass::Output) return;
  const Id pointee = state.PointeeType(m.type_id(i));
  if (HoldsByteEncodedFloat(state, pointee)) {
    state.Report("vulkan.encoded-float-interface", i,
                 state.Describe(i) + ": " + state.Name(pointee) +
                     " is or holds a float with a Floating Point Encoding, which no " +
                     StorageClassName(sc) + " variable may hold in a Vulkan environment");
  }
}

void CheckFloat(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const uint32_t width = m.word(i, 2);
  if (m.num_words(i) > 3) {
    const auto encoding = static_cast<spv::FPEncoding>(m.word(i, 3));
    uint32_t expected = 0;
    switch (encoding) {
      case spv::FPEncoding::BFloat16KHR:
        expected = 16;
        break;
      case spv::FPEncoding::Float8E4M3EXT:
      case spv::FPEncoding::Float8E5M2EXT:
      case spv::FPEncoding::Float8UnsignedE8M0EXT:
      case spv::FPEncoding::MXInt8EXT:
        expected = 8;
        break;
      case spv::FPEncoding::Float6E2M3EXT:
      case spv::FPEncoding::Float6E3M2EXT:
        expected = 6;
        break;
      case spv::FPEncoding::Float4E2M1EXT:
        expected = 4;
        break;
      default:
        break;
    }
    if (expected != 0 && width != expected) {
      state.Report("type.float", i,
                   state.Describe(i) + ": the encoding requires Width " + ws::to_string(expected) +
                       ", not " + ws::to_string(width));
    }
    return;  // The encoding's capability is checked as an operand.
  }
  bool ok = false;
  switch (width) {
    case 32:
      ok = true;
      break;
    case 16:
      ok = AnyOf(state, {Capability::Float16, Capability::Float16Buffer,
                         Capability::StorageBuffer16BitAccess,
                         Capability::UniformAndStorageBuffer16BitAccess,
                         Capability::StoragePushConstant16, Capability::StorageInputOutput16});
      break;
    case 64:
      ok = state.HasCapability(Capability::Float64);
      break;
    default:
      state.Report("type.float", i,
                   state.Describe(i) + ": Width " + ws::to_string(width) +
                       " is not a supported float width (16, 32 or 64) without an encoding" +
                       ws::string(width == 4 || width == 6 || width == 8
                                      ? " (FP4, FP6 and FP8 floats name their encoding)"
                                      : ""));
      return;
  }
  if (!ok) {
    state.Report("type.float", i,
                 state.Describe(i) + ": " + ws::to_string(width) + "-bit floats need the Float" +
                     ws::to_string(width) + " capability (or a storage capability for that width)");
  }
}

// Storage whose contents have an explicit layout: buffers, push constants, shader records and
// Workgroup blocks (SPV_KHR_workgroup_memory_explicit_layout).
bool ExplicitLayoutStorage(const ValidationState& state, spv::StorageClass sc, Id pointee) {
  switch (sc) {
    case spv::StorageClass::StorageBuffer:
    case spv::StorageClass::PhysicalStorageBuffer:
    case spv::StorageClass::Uniform:
    case spv::StorageClass::PushConstant:
    case spv::StorageClass::ShaderRecordBufferKHR:
      return true;
    case spv::StorageClass::Workgroup:
      return HasDecoration(state, pointee, spv::Decoration::Block);
    default:
      return false;
  }
}

// SPV_EXT_long_vector 2.16.1: where vectors of more than four components (or types holding them)
// may be allocated. Vulkan's VUID-StandaloneSpirv-Type-12297 list is a subset.
bool LongVectorStorage(spv::StorageClass sc) {
  using SC = spv::StorageClass;
  switch (sc) {
    case SC::Function:
    case SC::Private:
    case SC::UniformConstant:
    case SC::Uniform:
    case SC::Workgroup:
    case SC::StorageBuffer:
    case SC::PhysicalStorageBuffer:
    case SC::PushConstant:
    case SC::ShaderRecordBufferKHR:
    case SC::CrossWorkgroup:
    case SC::Generic:
      return true;
    default:
      return false;
  }
}

// Marks the type declared at `i` with the encoded floats it holds (composites and cooperative
// types hold their components, not pointers their pointees), and checks where those may live:
// SPV_EXT_ocp_microscaling_types, "Float4E2M1EXT, Float6E2M3EXT, and Float6E3M2EXT encodings can
// only be used with the Function and Private storage classes".
void TrackFloatEncodings(ValidationState& state, InstIndex i, ws::vector<uint8_t>& encodings) {
  const ir::Module& m = state.module();
  const Id id = m.result_id(i);
  if (id >= encodings.size() || m.num_words(i) < 3) return;
  const auto of = [&](Id type) -> uint8_t { return type < encodings.size() ? encodings[type] : 0; };
  switch (m.opcode(i)) {
    case Op::TypeVector:
    case Op::TypeVectorIdEXT:
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
    case Op::TypeCooperativeMatrixKHR:
    case Op::TypeCooperativeMatrixNV:
      encodings[id] = of(m.word(i, 2));
      break;
    case Op::TypeStruct:
      for (uint32_t w = 2; w < m.num_words(i); ++w) encodings[id] |= of(m.word(i, w));
      break;
    case Op::TypePointer: {
      if (m.num_words(i) < 4) break;
      const auto sc = static_cast<spv::StorageClass>(m.word(i, 2));
      const Id pointee = m.word(i, 3);
      if ((of(pointee) & ValidationState::kSubByteFloat) && sc != spv::StorageClass::Function &&
          sc != spv::StorageClass::Private) {
        state.Report("type.float.storage", i,
                     state.Describe(i) + ": " + state.Name(pointee) +
                         " is or holds an FP4 / FP6 float (Float4E2M1EXT, Float6E2M3EXT, "
                         "Float6E3M2EXT), which only Function and Private storage may hold, not " +
                         StorageClassName(sc));
      }
      break;
    }
    default:
      break;
  }
}

}  // namespace

void ValidateTypes(ValidationState& state) {
  const ir::Module& m = state.module();
  ws::vector<uint16_t> depth(m.bound(), 0);
  // Types that are, or hold through arrays and structs, a vector known to have more than four
  // components: where SPV_EXT_long_vector restricts storage classes.
  // Only LongVectorEXT makes such vectors valid, so only then are they tracked.
  const bool long_vectors = state.HasCapability(Capability::LongVectorEXT);
  ws::vector<bool> long_vector(long_vectors ? m.bound() : 0, false);
  const auto holds_long_vector = [&](Id type) {
    return type < long_vector.size() && long_vector[type];
  };
  // Types that are or hold an OpTypeVectorIdEXT whose count is a spec constant: in Vulkan, not
  // in explicitly laid out storage (VUID-StandaloneSpirv-Function-12294).
  const bool vulkan = state.options().env.is_vulkan();
  ws::vector<bool> spec_count(long_vectors && vulkan ? m.bound() : 0, false);
  const auto holds_spec_count = [&](Id type) {
    return type < spec_count.size() && spec_count[type];
  };
  const auto carry = [&](Id from, Id to) {
    if (holds_long_vector(from) && to < long_vector.size()) long_vector[to] = true;
    if (holds_spec_count(from) && to < spec_count.size()) spec_count[to] = true;
  };
  // The encoded floats each type is or holds (ValidationState::FloatEncodings), tracked only
  // where a capability of them is declared.
  ws::vector<uint8_t> float_encodings(
      state.DeclaresEncodedFloats() || state.DeclaresStorageOnlyWidths() ? m.bound() : 0, 0);
  // The widths whose types only a storage capability declares (ValidationState::kStorageOnlyWidth).
  const bool storage_only = state.DeclaresStorageOnlyWidths();
  const bool storage_only_int8 = storage_only && !state.HasCapability(Capability::Int8);
  const bool storage_only_int16 = storage_only && !state.HasCapability(Capability::Int16);
  const bool storage_only_float16 = storage_only && !state.HasCapability(Capability::Float16);
  // Interface variables are judged only where a float with an encoding can be declared.
  const bool vulkan_encoded_floats =
      state.options().env.is_vulkan() && state.DeclaresEncodedFloats();

  for (InstIndex i = 0; i < m.global_end() && !state.Full(); ++i) {
    const Op op = m.opcode(i);
    if (!ir::IsTypeDeclaration(op) && op != Op::TypeForwardPointer) {
      if (op == Op::Variable && vulkan_encoded_floats) CheckInterfaceVariable(state, i);
      continue;
    }
    const ir::Inst inst = m.inst(i);
    const Id id = m.result_id(i);
    switch (op) {
      case Op::TypeInt:
        CheckInt(state, i);
        if (storage_only && id < float_encodings.size() && inst.words.size() > 2 &&
            ((inst.words[2] == 8 && storage_only_int8) ||
             (inst.words[2] == 16 && storage_only_int16))) {
          float_encodings[id] = ValidationState::kStorageOnlyWidth;
        }
        break;
      case Op::TypeFloat:
        CheckFloat(state, i);
        if (id < float_encodings.size() && inst.words.size() > 3) {
          float_encodings[id] = FloatEncodingsOf(static_cast<spv::FPEncoding>(inst.words[3]));
        } else if (storage_only_float16 && id < float_encodings.size() && inst.words.size() == 3 &&
                   inst.words[2] == 16) {
          float_encodings[id] = ValidationState::kStorageOnlyWidth;
        }
        break;
      case Op::TypeVector: {
        const Id component = inst.words[2];
        const uint32_t count = inst.words[3];
        if (state.IsType(component) && !state.IsScalarType(component)) {
          state.Report("type.vector", i,
                       state.Describe(i) + ": Component Type " + state.Name(component) +
                           " is not a scalar type");
        }
        // SPV_EXT_long_vector: LongVectorEXT enables any count from 1
        // (VUID-StandaloneSpirv-None-12295).
        const bool ok =
            count == 2 || count == 3 || count == 4 ||
            ((count == 8 || count == 16) && state.HasCapability(Capability::Vector16)) ||
            (count >= 1 && long_vectors);
        if (!ok) {
          state.Report(
              "type.vector", i,
              state.Describe(i) + ": Component Count " + ws::to_string(count) +
                  (count == 0 ? " is not 2, 3 or 4 (a vector has at least one component)"
                              : " is not 2, 3 or 4" +
                                    ws::string((count == 8 || count == 16)
                                                   ? " (8 and 16 need Vector16; other counts "
                                                     "LongVectorEXT)"
                                                   : " (other counts need LongVectorEXT)")));
        }
        if (count > 4 && id < long_vector.size()) long_vector[id] = true;
        break;
      }
      case Op::TypeVectorIdEXT: {
        // The count's own rules are coop_vector.cc's; here only whether it is known to be long.
        if (const auto count = state.IntConstant(inst.words[3]);
            count && *count > 4 && id < long_vector.size()) {
          long_vector[id] = true;
        }
        if (id < spec_count.size() && ir::IsSpecConstant(state.DefOp(inst.words[3]))) {
          spec_count[id] = true;
        }
        break;
      }
      case Op::TypeMatrix: {
        const Id column = inst.words[2];
        const uint32_t count = inst.words[3];
        if (state.IsType(column) && (state.DefOp(column) != Op::TypeVector ||
                                     !state.IsFloatType(state.ComponentType(column)))) {
          state.Report("type.matrix", i,
                       state.Describe(i) + ": Column Type " + state.Name(column) +
                           " is not a vector of floats");
        }
        if (count < 2 || count > 4) {
          state.Report(
              "type.matrix", i,
              state.Describe(i) + ": Column Count " + ws::to_string(count) + " is not 2, 3 or 4");
        }
        // SPV_EXT_long_vector 2.16.1: matrix columns are vectors of 2, 3 or 4 components.
        if (state.DefOp(column) == Op::TypeVector) {
          const uint32_t rows = state.DefWord(column, 3);
          if (rows < 2 || rows > 4) {
            state.Report("type.matrix", i,
                         state.Describe(i) + ": Column Type " + state.Name(column) + " has " +
                             ws::to_string(rows) + " components; a column has 2, 3 or 4");
          }
        }
        break;
      }
      case Op::TypeArray: {
        const Id element = inst.words[2];
        const Id length = inst.words[3];
        if (IsVoid(state, element)) {
          state.Report("type.array", i, state.Describe(i) + ": Element Type is void");
        }
        const Op length_op = state.DefOp(length);
        const bool constant = length_op == Op::Constant || length_op == Op::SpecConstant ||
                              length_op == Op::SpecConstantOp;
        if (length_op != Op::Nop && (!constant || !state.IsIntType(state.TypeOf(length)))) {
          state.Report("type.array", i,
                       state.Describe(i) + ": Length " + state.Name(length) +
                           " is not a constant of scalar integer type");
        } else if (auto value = state.IntConstant(length); value && *value < 1) {
          state.Report("type.array", i,
                       state.Describe(i) + ": Length " + state.Name(length) + " is " +
                           ws::to_string(*value) + "; an array has at least one element");
        }
        depth[id] = static_cast<uint16_t>(std::min<int>(depth[element] + 1, 0xFFFF));
        carry(element, id);
        break;
      }
      case Op::TypeRuntimeArray: {
        const Id element = inst.words[2];
        if (IsVoid(state, element)) {
          state.Report("type.runtime-array", i, state.Describe(i) + ": Element Type is void");
        }
        depth[id] = static_cast<uint16_t>(std::min<int>(depth[element] + 1, 0xFFFF));
        carry(element, id);
        break;
      }
      case Op::TypeStruct: {
        const size_t members = inst.words.size() - 2;
        if (members > state.options().max_struct_members) {
          state.Report("type.struct", i,
                       state.Describe(i) + " has " + ws::to_string(members) +
                           " members; the limit is " +
                           ws::to_string(state.options().max_struct_members));
        }
        uint16_t d = 0;
        for (size_t k = 2; k < inst.words.size(); ++k) {
          const Id member = inst.words[k];
          if (IsVoid(state, member)) {
            state.Report("type.struct", i,
                         state.Describe(i) + ": member " + ws::to_string(k - 2) + " is void");
          }
          if (state.DefOp(member) == Op::TypeRuntimeArray && k + 1 != inst.words.size() &&
              state.HasCapability(Capability::Shader)) {
            state.Report("type.struct", i,
                         state.Describe(i) + ": member " + ws::to_string(k - 2) +
                             " is a runtime array but not the last member");
          }
          if (member < depth.size()) {
            d = std::max(d, depth[member]);
            carry(member, id);
          }
        }
        depth[id] = static_cast<uint16_t>(std::min<int>(d + 1, 0xFFFF));
        break;
      }
      case Op::TypePointer: {
        // Pointee kind is checked by the id rules; depth does not pass pointers.
        const Id pointee = inst.words[3];
        const auto sc = static_cast<spv::StorageClass>(inst.words[2]);
        if (holds_long_vector(pointee) && !LongVectorStorage(sc)) {
          state.Report("type.vector.storage", i,
                       state.Describe(i) + ": " + state.Name(pointee) +
                           " is or holds a vector of more than four components, which " +
                           StorageClassName(sc) + " storage cannot hold");
        }
        if (holds_spec_count(pointee) && ExplicitLayoutStorage(state, sc, pointee)) {
          state.Report("vulkan.long-vector-spec-count", i,
                       state.Describe(i) + ": " + state.Name(pointee) +
                           " is or holds a vector whose component count is a spec constant, "
                           "which " + StorageClassName(sc) +
                           " storage (explicitly laid out) cannot hold");
        }
        break;
      }
      case Op::TypeForwardPointer: {
        const Id pointer = inst.words[1];
        const InstIndex def = m.Def(pointer);
        if (def != kNoInst && m.opcode(def) == Op::TypePointer && m.word(def, 2) != inst.words[2]) {
          state.Report("type.pointer", i,
                       state.Describe(i) + ": storage class differs from that of " +
                           state.Name(pointer) + "'s OpTypePointer");
        } else if (def != kNoInst && m.opcode(def) != Op::TypePointer) {
          state.Report("type.pointer", i,
                       state.Describe(i) + ": " + state.Name(pointer) + " is not an OpTypePointer");
        }
        break;
      }
      case Op::TypeFunction: {
        const size_t params = inst.words.size() - 3;
        if (params > state.options().max_function_args) {
          state.Report("type.function", i,
                       state.Describe(i) + " has " + ws::to_string(params) +
                           " parameters; the limit is " +
                           ws::to_string(state.options().max_function_args));
        }
        for (size_t k = 3; k < inst.words.size(); ++k) {
          if (IsVoid(state, inst.words[k])) {
            state.Report("type.function", i,
                         state.Describe(i) + ": parameter " + ws::to_string(k - 3) + " is void");
          }
        }
        break;
      }
      default:
        break;
    }
    if (!float_encodings.empty()) TrackFloatEncodings(state, i, float_encodings);
    if (id != 0 && depth[id] > state.options().max_type_nesting_depth) {
      state.Report("type.nesting", i,
                   state.Describe(i) + " nests " + ws::to_string(depth[id]) +
                       " levels deep; the limit is " +
                       ws::to_string(state.options().max_type_nesting_depth));
      depth[id] = 0;  // Report once per chain.
    }
    // Uniqueness of non-aggregate types.
    if (id != 0 && op != Op::TypeStruct && op != Op::TypeArray && op != Op::TypeRuntimeArray &&
        op != Op::TypePointer && op != Op::TypeOpaque &&
        op != Op::TypeNodePayloadArrayAMDX) {  // One per node payload, like structs.
      const Id canonical = m.types().Canonical(id);
      if (canonical != 0 && canonical != id) {
        state.Report("type.unique", i,
                     state.Describe(i) + " declares the same type as " + state.Name(canonical));
      }
    }
  }
  state.SetFloatEncodings(std::move(float_encodings));
}

}  // namespace coopspv::val
