// --lower-small-floats: for devices without shaderBFloat16Type / shaderFloat8. Every bfloat16
// and float8 (E4M3, E5M2) scalar type becomes an unsigned integer of its width holding the same
// bits (its declaration is rewritten in place, so vectors, arrays, structs, pointers, constants,
// loads, stores and composites follow unchanged). What computes on the values is rewritten to
// decode the operands into float32 (exact), operate in float32, and encode the result back with
// round-to-nearest-even, by the helper functions of minifloat_code.h; a float8 result saturates
// to the largest finite value where the instruction is decorated
// SaturatedToLargestFloat8NormalConversionEXT (and always for E4M3, which has no infinity).
// The bfloat16 / float8 capabilities and extensions go; Int8 / Int16 and the 8- / 16-bit storage
// capabilities the integers need come in. Cooperative matrices or vectors of these types must be
// lowered first (a clear failure otherwise). A module with an OCP microscaling type
// (SPV_EXT_ocp_microscaling_types: FP4, FP6, E8M0, MXINT8) is refused, naming the type.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "source/common/float.h"
#include "source/ir/analyses.h"
#include "source/ir/builder.h"
#include "source/opt/minifloat_code.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Capability;
using spv::Op;

// SaturatedToLargestFloat8NormalConversionEXT (SPV_EXT_float8).
constexpr uint32_t kDecorationSaturatedFloat8 = 4216;
constexpr uint32_t U(Capability c) { return static_cast<uint32_t>(c); }

constexpr Capability kRemovedCapabilities[] = {
    Capability::BFloat16TypeKHR,
    Capability::BFloat16DotProductKHR,
    Capability::BFloat16CooperativeMatrixKHR,
    Capability::Float8EXT,
    Capability::Float8CooperativeMatrixEXT,
};

struct SmallType {
  FloatFormat format;
  uint32_t width;
};

// Instructions whose operands are all ids and which compute on their float operands: rewritten
// to decode, operate in float32 and encode.
bool IsComputation(Op op) {
  switch (op) {
    case Op::FConvert:
    case Op::ConvertFToU:
    case Op::ConvertFToS:
    case Op::ConvertUToF:
    case Op::ConvertSToF:
    case Op::FNegate:
    case Op::FAdd:
    case Op::FSub:
    case Op::FMul:
    case Op::FDiv:
    case Op::FRem:
    case Op::FMod:
    case Op::VectorTimesScalar:
    case Op::Dot:
    case Op::IsNan:
    case Op::IsInf:
    case Op::FOrdEqual:
    case Op::FUnordEqual:
    case Op::FOrdNotEqual:
    case Op::FUnordNotEqual:
    case Op::FOrdLessThan:
    case Op::FUnordLessThan:
    case Op::FOrdGreaterThan:
    case Op::FUnordGreaterThan:
    case Op::FOrdLessThanEqual:
    case Op::FUnordLessThanEqual:
    case Op::FOrdGreaterThanEqual:
    case Op::FUnordGreaterThanEqual:
      return true;
    default:
      return false;
  }
}

// Instructions that only move values of any type: the integer values pass through them as the
// float values did.
bool MovesValues(Op op) {
  switch (op) {
    case Op::Load:
    case Op::Store:
    case Op::CopyObject:
    case Op::CopyLogical:
    case Op::CopyMemory:
    case Op::Phi:
    case Op::Select:
    case Op::Undef:
    case Op::Variable:
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
    case Op::PtrAccessChain:
    case Op::FunctionParameter:
    case Op::FunctionCall:
    case Op::Function:
    case Op::ReturnValue:
    case Op::CompositeConstruct:
    case Op::CompositeExtract:
    case Op::CompositeInsert:
    case Op::VectorShuffle:
    case Op::VectorExtractDynamic:
    case Op::VectorInsertDynamic:
    case Op::Line:
    case Op::NoLine:
      return true;
    default:
      return false;
  }
}

class Lowering {
 public:
  explicit Lowering(const ir::Module& m) : m_(m), b_(m) {}

  PassResult Run();

  // The emitter minifloat::SpirvOps writes through.
  Id Emit(Op op, Id type, std::initializer_list<uint32_t> ops) {
    if (at_end_) {
      b_.SetInsertAtEnd();
    } else {
      b_.SetInsertBefore(site_);
    }
    return b_.Add(op, type, ops);
  }
  Id UInt(uint32_t width) {
    if (width == 8) Require(Capability::Int8);
    if (width == 16) Require(Capability::Int16);
    return Decl(Op::TypeInt, {width, 0});
  }
  Id Bool() { return Decl(Op::TypeBool, {}); }
  Id U32(uint32_t v) { return Decl(Op::Constant, {UInt(32), v}); }
  Id Glsl();

 private:
  bool Fail(InstIndex i, const std::string& what) {
    if (error_.empty()) {
      error_ = "lower-small-floats.unsupported: " + DescribeInstruction(m_, i) + ": " + what;
    }
    return false;
  }
  Id Decl(Op op, std::vector<uint32_t> words);
  void Require(Capability c) {
    if (caps_.insert(U(c)).second) new_caps_.push_back(U(c));
  }
  // The small scalar type of a scalar or vector type (nullptr for other types), with the
  // vector's component count.
  const SmallType* Small(Id type, uint32_t* count = nullptr) const;
  // The same shape in float32.
  Id Float32Like(Id type);
  bool ContainsSmall(Id type, uint32_t width, int depth = 0) const;
  Id Helper(FloatFormat f, bool encode, bool saturate);
  Id Decode(Id value);  // Small scalar / vector -> float32 of the same shape.
  Id Encode(Id f32, Id small_type, bool saturate);
  bool Lower(InstIndex i);

  const ir::Module& m_;
  ir::Builder b_;
  std::string error_;
  std::map<Id, SmallType> small_;
  std::set<uint32_t> caps_;
  std::vector<uint32_t> new_caps_;
  std::map<std::vector<uint32_t>, Id> decls_;
  minifloat::Helpers helpers_;
  std::set<Id> rewritten_;  // Result ids of the instructions replaced.
  Id glsl_ = 0;
  InstIndex memory_model_ = ir::kNoInst;
  InstIndex site_ = 0;
  bool at_end_ = false;
};

Id Lowering::Decl(Op op, std::vector<uint32_t> words) {
  std::vector<uint32_t> key = words;
  key.insert(key.begin(), static_cast<uint32_t>(op));
  if (auto it = decls_.find(key); it != decls_.end()) return it->second;
  Id id = m_.types().Find(op, words);
  if (id == 0) {
    b_.SetInsertBeforeFunctions();
    id = ir::IsConstant(op) ? b_.Add(op, words[0], std::span<const uint32_t>(words).subspan(1))
                            : b_.Add(op, 0, std::span<const uint32_t>(words));
  }
  decls_.emplace(std::move(key), id);
  return id;
}

Id Lowering::Glsl() {
  if (glsl_ != 0) return glsl_;
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    if (m_.opcode(i) == Op::ExtInstImport && m_.inst(i).words.size() >= 3) {
      const std::vector<uint32_t> want = ir::Builder::StringWords("GLSL.std.450");
      const auto words = m_.inst(i).words.subspan(2);
      if (std::equal(words.begin(), words.end(), want.begin(), want.end())) {
        return glsl_ = m_.result_id(i);
      }
    }
  }
  const std::vector<uint32_t> name = ir::Builder::StringWords("GLSL.std.450");
  b_.SetInsertBefore(memory_model_);
  glsl_ = b_.Add(Op::ExtInstImport, 0, std::span<const uint32_t>(name));
  return glsl_;
}

const SmallType* Lowering::Small(Id type, uint32_t* count) const {
  uint32_t n = 1;
  if (m_.DefOpcode(type) == Op::TypeVector) {
    n = m_.word(m_.Def(type), 3);
    type = m_.word(m_.Def(type), 2);
  }
  auto it = small_.find(type);
  if (it == small_.end()) return nullptr;
  if (count) *count = n;
  return &it->second;
}

Id Lowering::Float32Like(Id type) {
  const Id f32 = Decl(Op::TypeFloat, {32});
  if (m_.DefOpcode(type) != Op::TypeVector) return f32;
  return Decl(Op::TypeVector, {f32, m_.word(m_.Def(type), 3)});
}

bool Lowering::ContainsSmall(Id type, uint32_t width, int depth) const {
  const InstIndex d = m_.Def(type);
  if (d == ir::kNoInst || depth > 64) return false;
  if (auto it = small_.find(type); it != small_.end()) return it->second.width == width;
  switch (m_.opcode(d)) {
    case Op::TypeVector:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
      return ContainsSmall(m_.word(d, 2), width, depth + 1);
    case Op::TypeStruct:
      for (uint32_t w = 2; w < m_.num_words(d); ++w) {
        if (ContainsSmall(m_.word(d, w), width, depth + 1)) return true;
      }
      return false;
    default:
      return false;
  }
}

Id Lowering::Helper(FloatFormat f, bool encode, bool saturate) {
  return helpers_.Get(*this, at_end_, Decl(Op::TypeFunction, {UInt(32), UInt(32)}), f, encode,
                      saturate);
}

Id Lowering::Decode(Id value) {
  const Id type = m_.TypeOf(value);
  uint32_t n = 1;
  const SmallType* s = Small(type, &n);
  const Id f32 = Decl(Op::TypeFloat, {32}), scalar = n > 1 ? m_.word(m_.Def(type), 2) : type;
  auto one = [&](Id x) {
    const Id wide = Emit(Op::UConvert, UInt(32), {x});
    const Id bits = Emit(Op::FunctionCall, UInt(32), {Helper(s->format, false, false), wide});
    return Emit(Op::Bitcast, f32, {bits});
  };
  if (n == 1) return one(value);
  std::vector<uint32_t> parts;
  for (uint32_t c = 0; c < n; ++c)
    parts.push_back(one(Emit(Op::CompositeExtract, scalar, {value, c})));
  const Id vec = Float32Like(type);
  b_.SetInsertBefore(site_);
  return b_.Add(Op::CompositeConstruct, vec, std::span<const uint32_t>(parts));
}

Id Lowering::Encode(Id f32_value, Id small_type, bool saturate) {
  uint32_t n = 1;
  const SmallType* s = Small(small_type, &n);
  const Id f32 = Decl(Op::TypeFloat, {32});
  const Id scalar = n > 1 ? m_.word(m_.Def(small_type), 2) : small_type;
  UInt(s->width);
  auto one = [&](Id x) {
    const Id bits = Emit(Op::Bitcast, UInt(32), {x});
    const Id enc = Emit(Op::FunctionCall, UInt(32), {Helper(s->format, true, saturate), bits});
    return Emit(Op::UConvert, scalar, {enc});
  };
  if (n == 1) return one(f32_value);
  std::vector<uint32_t> parts;
  for (uint32_t c = 0; c < n; ++c)
    parts.push_back(one(Emit(Op::CompositeExtract, f32, {f32_value, c})));
  b_.SetInsertBefore(site_);
  return b_.Add(Op::CompositeConstruct, small_type, std::span<const uint32_t>(parts));
}

bool Lowering::Lower(InstIndex i) {
  const Op op = m_.opcode(i);
  if (MovesValues(op) || op == Op::Label || ir::IsTerminator(op)) return true;
  const Id result = m_.result_id(i), type = m_.type_id(i);
  const bool has_type = type != 0;
  const uint32_t first = has_type ? 3 : (result ? 2 : 1);
  bool involved = has_type && Small(type);
  for (uint32_t w = first; w < m_.num_words(i) && !involved; ++w) {
    involved = Small(m_.TypeOf(m_.word(i, w))) != nullptr;
  }
  if (!involved) return true;
  site_ = i;
  if (op == Op::Bitcast) {
    // Between two types that both hold these bits as unsigned integers now: a copy.
    const Id from = m_.TypeOf(m_.word(i, 3));
    auto as_int = [&](Id t) -> std::vector<uint32_t> {
      uint32_t n = 1;
      if (const SmallType* s = Small(t, &n)) return {s->width, 0, n};
      const InstIndex d = m_.Def(t);
      n = 1;
      if (m_.opcode(d) == Op::TypeVector) {
        n = m_.word(d, 3);
        t = m_.word(d, 2);
      }
      const InstIndex e = m_.Def(t);
      if (m_.opcode(e) != Op::TypeInt) return {};
      return {m_.word(e, 2), m_.word(e, 3), n};
    };
    if (as_int(from) == as_int(type)) {
      b_.Replace(i, Op::CopyObject, std::vector<uint32_t>{type, result, m_.word(i, 3)});
    }
    return true;
  }
  if (!IsComputation(op)) {
    return Fail(i, "uses a bfloat16 / float8 value in an instruction with no software form");
  }
  bool saturate = false;
  for (InstIndex d = 0; d < m_.global_end(); ++d) {
    if (m_.opcode(d) == Op::Decorate && m_.num_words(d) >= 3 && m_.word(d, 1) == result &&
        m_.word(d, 2) == kDecorationSaturatedFloat8) {
      saturate = true;
    }
  }
  std::vector<uint32_t> operands;
  for (uint32_t w = 3; w < m_.num_words(i); ++w) {
    Id x = m_.word(i, w);
    if (Small(m_.TypeOf(x))) {
      x = Decode(x);
    } else if (op == Op::FConvert) {
      // A float of another width: through float32 (exact for half, one rounding for double).
      const InstIndex t = m_.Def(m_.TypeOf(x));
      const InstIndex s = m_.opcode(t) == Op::TypeVector ? m_.Def(m_.word(t, 2)) : t;
      if (m_.word(s, 2) != 32) x = Emit(Op::FConvert, Float32Like(m_.TypeOf(x)), {x});
    }
    operands.push_back(x);
  }
  Id value;
  const bool small_result = Small(type) != nullptr;
  const Id wide_type = small_result ? Float32Like(type) : type;
  const Id f32 = Decl(Op::TypeFloat, {32});
  const InstIndex rt = m_.Def(type);
  const bool result_is_f32 = m_.opcode(rt) == Op::TypeFloat
                                 ? m_.num_words(rt) == 3 && m_.word(rt, 2) == 32
                                 : m_.opcode(rt) == Op::TypeVector && m_.word(rt, 2) == f32;
  if (op == Op::FConvert && (small_result || result_is_f32)) {
    value = operands[0];  // Already float32.
  } else {
    b_.SetInsertBefore(i);
    value = b_.Add(op, wide_type, std::span<const uint32_t>(operands));
  }
  if (small_result) value = Encode(value, type, saturate);
  b_.ReplaceAllUsesWith(result, value);
  b_.Remove(i);
  rewritten_.insert(result);
  return true;
}

PassResult Lowering::Run() {
  InstIndex last_capability = ir::kNoInst, last_extension = ir::kNoInst;
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    const Op op = m_.opcode(i);
    if (op == Op::Capability) {
      caps_.insert(m_.word(i, 1));
      last_capability = i;
    } else if (op == Op::Extension) {
      last_extension = i;
    } else if (op == Op::MemoryModel) {
      memory_model_ = i;
    } else if (op == Op::TypeFloat && m_.num_words(i) > 3) {
      std::optional<FloatFormat> f;
      switch (static_cast<spv::FPEncoding>(m_.word(i, 3))) {
        case spv::FPEncoding::BFloat16KHR:
          f = kBFloat16;
          break;
        case spv::FPEncoding::Float8E4M3EXT:
          f = kFloat8E4M3;
          break;
        case spv::FPEncoding::Float8E5M2EXT:
          f = kFloat8E5M2;
          break;
        default:
          break;
      }
      if (!f) {
        // SPV_EXT_ocp_microscaling_types is refused, not lowered: FP4 and FP6 values have no
        // integer of their width to live in (their vectors bitcast to fewer, wider integers),
        // and E8M0 / MXINT8 would fit bytes but no device profile feature names them yet.
        const grammar::EnumerantInfo* e =
            grammar::LookupEnumerant(grammar::OperandKind::kFPEncoding, m_.word(i, 3));
        Fail(i, (e ? std::string(e->name) : "FPEncoding " + std::to_string(m_.word(i, 3))) +
                    " is not emulated: this pass lowers bfloat16 and float8 E4M3 / E5M2 only (an "
                    "OCP microscaling type of SPV_EXT_ocp_microscaling_types needs a device that "
                    "has it)");
        return PassResult::Failed(error_);
      }
      small_.emplace(m_.result_id(i), SmallType{*f, m_.word(i, 2)});
    }
  }
  if (small_.empty()) return PassResult::Unchanged();
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    const Op op = m_.opcode(i);
    if ((op == Op::TypeCooperativeMatrixKHR || op == Op::TypeCooperativeMatrixNV ||
         op == Op::TypeCooperativeVectorNV) &&
        small_.count(m_.word(i, 2))) {
      return PassResult::Failed(
          "lower-small-floats.matrix: " + DescribeInstruction(m_, i) +
          ": a cooperative matrix / vector of bfloat16 or float8: lower it first "
          "(--lower-coop-matrix / --lower-coop-vector)");
    }
    if (op == Op::SpecConstantOp && Small(m_.type_id(i))) {
      Fail(i, "a specialization constant operation on bfloat16 / float8");
      return PassResult::Failed(error_);
    }
  }
  // The types themselves: the same ids, now unsigned integers.
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    if (const auto it = small_.find(m_.result_id(i));
        m_.opcode(i) == Op::TypeFloat && it != small_.end()) {
      UInt(it->second.width);
      b_.Replace(i, Op::TypeInt, std::vector<uint32_t>{it->first, it->second.width, 0});
    }
  }
  for (InstIndex i = m_.global_end(); i < m_.num_instructions(); ++i) {
    if (!Lower(i)) return PassResult::Failed(error_);
  }
  // Storage of the integers: the 8- / 16-bit access capabilities by storage class.
  const uint32_t version = m_.header().version;
  bool storage8 = false, storage16 = false;
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    if (m_.opcode(i) != Op::TypePointer) continue;
    const auto sc = static_cast<spv::StorageClass>(m_.word(i, 2));
    const Id pointee = m_.word(i, 3);
    const bool has8 = ContainsSmall(pointee, 8), has16 = ContainsSmall(pointee, 16);
    if (!has8 && !has16) continue;
    if (sc == spv::StorageClass::StorageBuffer || sc == spv::StorageClass::PhysicalStorageBuffer) {
      if (has8) Require(Capability::StorageBuffer8BitAccess);
      if (has16) Require(Capability::StorageBuffer16BitAccess);
    } else if (sc == spv::StorageClass::Uniform) {
      if (has8) Require(Capability::UniformAndStorageBuffer8BitAccess);
      if (has16) Require(Capability::UniformAndStorageBuffer16BitAccess);
    } else if (sc == spv::StorageClass::PushConstant) {
      if (has8) Require(Capability::StoragePushConstant8);
      if (has16) Require(Capability::StoragePushConstant16);
    } else {
      continue;
    }
    storage8 |= has8;
    storage16 |= has16;
  }
  std::set<std::string> extensions;
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    const Op op = m_.opcode(i);
    if (op == Op::Capability) {
      for (Capability c : kRemovedCapabilities) {
        if (m_.word(i, 1) == U(c)) b_.Remove(i);
      }
    } else if (op == Op::Extension) {
      const auto words = m_.inst(i).words.subspan(1);
      const std::string name(
          reinterpret_cast<const char*>(words.data()),
          strnlen(reinterpret_cast<const char*>(words.data()), words.size() * 4));
      if (name == "SPV_KHR_bfloat16" || name == "SPV_EXT_float8") b_.Remove(i);
      extensions.insert(name);
    } else if (op == Op::Decorate && m_.num_words(i) >= 3 &&
               (rewritten_.count(m_.word(i, 1)) || m_.word(i, 2) == kDecorationSaturatedFloat8)) {
      // The decorations of a replaced instruction do not carry over to what computes it.
      b_.Remove(i);
    }
  }
  b_.SetInsertAfter(last_capability);
  for (uint32_t cap : new_caps_) b_.Add(Op::Capability, 0, {cap});
  b_.SetInsertAfter(last_extension != ir::kNoInst ? last_extension : last_capability);
  auto extension = [&](bool needed, uint32_t core_since, const char* name) {
    if (needed && version < core_since && !extensions.count(name)) {
      b_.Add(Op::Extension, 0, std::span<const uint32_t>(ir::Builder::StringWords(name)));
    }
  };
  extension(storage8, 0x10500, "SPV_KHR_8bit_storage");
  extension(storage16, 0x10300, "SPV_KHR_16bit_storage");

  return FinishMergingDeclarations(b_);
}

class LowerSmallFloatsPass : public Pass {
 public:
  const char* name() const override { return "lower-small-floats"; }
  PassResult Run(ir::Module& module) override { return Lowering(module).Run(); }
};

}  // namespace

std::unique_ptr<Pass> CreateLowerSmallFloatsPass(std::string_view, std::string*) {
  return std::make_unique<LowerSmallFloatsPass>();
}

}  // namespace coopspv::opt
