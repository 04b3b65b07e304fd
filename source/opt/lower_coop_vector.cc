// --lower-coop-vector=[<features>]: rewrites every SPV_NV_cooperative_vector type and instruction
// into plain SPIR-V, so that the module runs on a driver without VK_NV_cooperative_vector.
//
// The translation. A cooperative vector belongs to one invocation (the extension's overview:
// "logically stored in the invocation it belongs to"), so it becomes an ordinary per-invocation
// value: each OpTypeCooperativeVectorNV (opcode 5288, spelled OpTypeVectorIdEXT by newer grammars)
// is redefined in place, under the same id, as
//   - OpTypeVector <component> <n> when the component count is a constant from 2 to 4: every
//     element-wise instruction the extension allows is already legal on such a vector, so those
//     stay as they are;
//   - OpTypeArray <component> <count> otherwise (the count may be a specialization constant);
//   - or, when the module declares LongVectorEXT (SPV_EXT_long_vector), the type stays: the same
//     opcode then declares a long vector, on which the element-wise instructions are legal.
// With lower-long-vectors (a target without VK_EXT_shader_long_vector) SPV_EXT_long_vector goes
// too: every OpTypeVectorIdEXT, and every OpTypeVector of 1 or more than 4 components (a count
// constant is declared just before it), is redefined as above (array, or vector of 2 to 4), with
// Boolean components allowed; OpSelect with such a Boolean condition selects per component. Long
// vectors in memory with an explicit layout (Uniform, StorageBuffer, PushConstant,
// PhysicalStorageBuffer) are refused (lower-coop-vector.long-vector-memory), as are instructions
// with no per-component form here (OpVectorShuffle, OpDot, OpAny / OpAll, GLSL.std.450
// instructions of a scalar result such as Length, extended arithmetic, OpGroupNonUniformAllEqual:
// lower-coop-vector.unsupported). A replicated constant of a spec-constant count stays replicated.
// Keeping the id means that every place a value lives (Function / Private variables, function
// parameters and results, OpPhi, OpSelect, OpCopyObject, constants, spec-constant composites,
// OpCompositeConstruct / Extract / Insert, OpAccessChain into a variable) needs no change.
// Replicated composites (SPV_EXT_replicated_composites) of a known count become plain ones, so
// that the extension goes too when nothing else uses it; a spec-constant count keeps them.
// What is not legal on an array is rewritten per component:
//   - element-wise arithmetic, conversions, bit instructions, OpBitcast, OpVectorTimesScalar and
//     GLSL.std.450 instructions: straight-line OpCompositeExtract / op / OpCompositeConstruct up to
//     8 components, otherwise a loop over a Function variable holding the result (the operands
//     are spilled into Function variables and read with OpAccessChain);
//   - OpVectorExtractDynamic / OpVectorInsertDynamic: through a Function variable.
// Memory instructions become per-component loads and stores of the buffer array at
// Offset + i * size (the pointed-to array's ArrayStride is ignored, as the extension says),
// straight-line up to 8 components and in a loop beyond. When
// the array's element type differs from the component type, memory is reinterpreted: smaller
// array elements are combined little-endian, a larger element is shifted and truncated (loads),
// components are split or packed into array elements (stores; packing assumes Offset is a
// multiple of the array element's size). Each access keeps the memory operands (Aligned becomes
// the size of the access; PhysicalStorageBuffer accesses always get one).
//
// OpCooperativeVectorMatrixMulNV / MatrixMulAddNV: the matrix and bias stay in memory and are
// read in the loops. First a loop over K converts Input into a Function array of the
// accumulation type (float32, float64 when a float64 is involved, or the 32-bit integer Result
// type): packed interpretations extract byte k % 4 of component k / 4 (lower components in lower
// bits, OpBitFieldSExtract / UExtract); arithmetic interpretations convert with the extension's
// rules (integer -> integer saturates, float -> integer rounds to nearest even and saturates,
// float -> float16 / E4M3 / E5M2 rounds to nearest even, E4M3 / E5M2 saturating to the largest
// finite value), Input's integer signedness given by MatrixBSignedComponents. Then a loop over M
// starts from the bias element (or zero) and a loop over K adds matrix(m, k) * input[k], the
// matrix element read at MatrixOffset + r * MatrixStride + c * size (RowMajorNV: r = row, c =
// column; ColumnMajorNV the other way round; Transpose swaps m and k, and a spec-constant
// Transpose is read at run time). Code size is linear in the instruction, whatever M and K are.
// Float16 elements are converted natively when the module declares Float16, E4M3 / E5M2 (and
// float16 without Float16) are decoded in software by helper functions (minifloat_code.h).
// Integer arithmetic wraps at the Result width, as the extension defines, so
// MatrixResultSignedComponents changes no bit of the result; the matrix's and the bias's
// signedness come from their interpretations (SignedInt8NV, ...).
// InferencingOptimalNV / TrainingOptimalNV layouts are opaque to everyone but the driver: the
// pass fails and says so (lower-coop-vector.optimal-layout), as it does for a layout given by a
// specialization constant (lower-coop-vector.layout: specialize it first). With
// --lower-coop-vector=optimal-as-row-major (or optimal-as-column-major) the application instead
// converts its matrices (vkConvertCooperativeVectorMatrixNV) into that layout with a tight
// stride, not into the optimal one, and the pass reads an optimal matrix as such: the stored
// matrix (M x K, K x M under Transpose; M x N for OuterProductAccumulate) with a stride of one
// row's (column's) bytes. The instruction's MatrixStride is ignored, as the extension says it is
// for optimal layouts.
//
// Loops are structured (a header with OpLoopMerge, a continue block, a merge block) and split
// the block they are emitted in: OpPhi instructions that named the block as a predecessor name
// its last part. A block that is itself a loop header cannot take them (the pass fails).
//
// OpCooperativeVectorOuterProductAccumulateNV / ReduceSumAccumulateNV become one relaxed,
// Device-scope atomic add per element (OpAtomicFAddEXT, or OpAtomicIAdd for integers), which
// needs the atomic float add capability of the element type: the pass adds AtomicFloat16AddEXT /
// AtomicFloat32AddEXT / AtomicFloat64AddEXT and its extension only when the module already
// declares it or the argument says the target has it
// (--lower-coop-vector=atomic-float16-add,atomic-float32-add,atomic-float64-add); otherwise it
// fails. Under the Vulkan memory model Device scope also needs VulkanMemoryModelDeviceScope.
//
// At the end CooperativeVectorNV, CooperativeVectorTrainingNV and SPV_NV_cooperative_vector are
// removed (and LongVectorEXT and SPV_EXT_long_vector with lower-long-vectors); capabilities the new
// code needs (Int8 / Int16 / Int64 / Float16 / Float64 for the types it reads through) are added
// when missing.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "source/ir/analyses.h"
#include "source/ir/builder.h"
#include "source/ir/declarations.h"
#include "source/opt/minifloat_code.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;
using Reuse = ir::Declarations::Reuse;

constexpr uint32_t kUnrollLimit = 8;
// Replicated constants up to this many components become plain composites.
constexpr uint32_t kMaxExpandedReplicate = 4096;
constexpr uint32_t Cap(spv::Capability c) { return static_cast<uint32_t>(c); }
constexpr uint32_t kCapCooperativeVectorNV = Cap(spv::Capability::CooperativeVectorNV);
constexpr uint32_t kCapCooperativeVectorTrainingNV =
    Cap(spv::Capability::CooperativeVectorTrainingNV);
constexpr uint32_t kCapAtomicFloat32AddEXT = Cap(spv::Capability::AtomicFloat32AddEXT);
constexpr uint32_t kCapAtomicFloat64AddEXT = Cap(spv::Capability::AtomicFloat64AddEXT);
constexpr uint32_t kCapAtomicFloat16AddEXT = Cap(spv::Capability::AtomicFloat16AddEXT);
constexpr uint32_t kCapLongVectorEXT = Cap(spv::Capability::LongVectorEXT);
constexpr uint32_t kCapReplicatedCompositesEXT = Cap(spv::Capability::ReplicatedCompositesEXT);
constexpr uint32_t kCapVulkanMemoryModelDeviceScope =
    Cap(spv::Capability::VulkanMemoryModelDeviceScope);
constexpr uint32_t kCapInt8 = Cap(spv::Capability::Int8), kCapInt16 = Cap(spv::Capability::Int16),
                   kCapInt64 = Cap(spv::Capability::Int64),
                   kCapInt64Atomics = Cap(spv::Capability::Int64Atomics),
                   kCapFloat16 = Cap(spv::Capability::Float16),
                   kCapFloat64 = Cap(spv::Capability::Float64);
// GLSL.std.450 instruction numbers.
constexpr uint32_t kGlslFMin = 37, kGlslUMin = 38, kGlslSMin = 39, kGlslFMax = 40, kGlslSMax = 42,
                   kGlslFClamp = 43, kGlslSClamp = 45, kGlslRoundEven = 2;
constexpr uint32_t kMemAligned = 0x2, kMemAvailable = 0x8, kMemVisible = 0x10;
constexpr uint32_t kScopeDevice = 1;
constexpr uint32_t kStorageFunction = 7, kStoragePhysicalStorageBuffer = 5349, kStoragePrivate = 6,
                   kStorageWorkgroup = 4;
constexpr uint32_t kCmoMatrixBSigned = 0x2;
constexpr uint32_t kMemoryModelVulkan = 3;

// A Component Type enumerant of the extension.
struct Interp {
  enum Kind { kFloat, kSigned, kUnsigned, kE4M3, kE5M2 } kind;
  uint32_t bits;
  bool packed = false;
  bool is_float() const { return kind == kFloat || kind == kE4M3 || kind == kE5M2; }
};

std::optional<Interp> InterpOf(uint64_t v) {
  switch (v) {
    case 0:
      return Interp{Interp::kFloat, 16};
    case 1:
      return Interp{Interp::kFloat, 32};
    case 2:
      return Interp{Interp::kFloat, 64};
    case 3:
      return Interp{Interp::kSigned, 8};
    case 4:
      return Interp{Interp::kSigned, 16};
    case 5:
      return Interp{Interp::kSigned, 32};
    case 6:
      return Interp{Interp::kSigned, 64};
    case 7:
      return Interp{Interp::kUnsigned, 8};
    case 8:
      return Interp{Interp::kUnsigned, 16};
    case 9:
      return Interp{Interp::kUnsigned, 32};
    case 10:
      return Interp{Interp::kUnsigned, 64};
    case 1000491000:
      return Interp{Interp::kSigned, 8, true};
    case 1000491001:
      return Interp{Interp::kUnsigned, 8, true};
    case 1000491002:
      return Interp{Interp::kE4M3, 8};
    case 1000491003:
      return Interp{Interp::kE5M2, 8};
    default:
      return std::nullopt;
  }
}

struct Features {
  bool atomic_float_add16 = false, atomic_float_add32 = false, atomic_float_add64 = false;
  // How InferencingOptimalNV / TrainingOptimalNV matrices are stored: -1 unknown (a failure),
  // 0 row-major, 1 column-major, with a tight stride.
  int optimal_as = -1;
  // The target lacks VK_EXT_shader_long_vector: long vectors (SPV_EXT_long_vector) are lowered too.
  bool lower_long_vectors = false;
};

// What a cooperative vector type became.
struct VecInfo {
  Id type;
  Id elem;
  Id count;                       // The Component Count id.
  std::optional<uint32_t> known;  // Its value when it is a (non-specialization) constant.
  bool as_vector;
};

// A numeric scalar type.
struct ScalarType {
  bool is_float = false;
  bool is_signed = false;
  uint32_t width = 0;
  uint32_t encoding = ~0u;  // OpTypeFloat FP Encoding, ~0u for none.
};

struct MemoryAccess {
  uint32_t mask = 0;
  uint32_t aligned = 0;
  Id available = 0, visible = 0;
};

// A pointer to an array in memory, read and written in units of its scalar element (a vector
// element is `lanes` units).
struct MemoryArray {
  Id ptr;
  uint32_t storage;
  Id unit;  // Scalar type.
  uint32_t unit_bytes;
  uint32_t lanes;
};

// A cooperative vector value whose components the code reads: straight from the value, or
// from a Function variable it was stored to (for dynamic indexes).
struct Source {
  Id value;
  Id var = 0;
  Id elem;
};

class Lowering;

class Lowering {
 public:
  Lowering(const ir::Module& m, Features features) : m_(m), b_(m), features_(features) {}

  PassResult Run();

  // Emission, at the current site (before the instruction being lowered) or at the end of the
  // module (helper functions).
  Id Emit(Op op, Id type, std::initializer_list<uint32_t> ops, Id result = 0) {
    return EmitV(op, type, std::vector<uint32_t>(ops), result);
  }
  Id EmitV(Op op, Id type, const std::vector<uint32_t>& ops, Id result = 0) {
    if (at_end_) {
      b_.SetInsertAtEnd();
    } else {
      b_.SetInsertBefore(site_);
    }
    return b_.Add(op, type, std::span<const uint32_t>(ops), result);
  }
  Id UInt(uint32_t width) { return IntType(width, false); }
  Id Bool() { return Decl(Op::TypeBool, {}); }
  Id U32(uint32_t v) {
    const Id id = Decl(Op::Constant, {UInt(32), v});
    u32_values_.emplace(id, v);
    return id;
  }
  Id Glsl();

 private:
  // ---- Facts about the input.
  const VecInfo* Vec(Id type) const {
    auto it = vecs_.find(type);
    return it == vecs_.end() ? nullptr : &it->second;
  }
  const VecInfo* VecOfValue(Id value) const { return Vec(m_.TypeOf(value)); }
  std::optional<ScalarType> Scalar(Id type) const;
  uint32_t Bytes(Id scalar_type) const { return Scalar(scalar_type)->width / 8; }
  // The value of a non-specialization integer or Boolean constant.
  std::optional<uint64_t> ConstValue(Id id) const;
  std::string Where(InstIndex i) const {
    const grammar::InstructionInfo* info =
        grammar::LookupOpcode(static_cast<uint32_t>(m_.opcode(i)));
    std::string text = info ? info->name : "an instruction";
    if (m_.result_id(i)) text = "%" + std::to_string(m_.result_id(i)) + " = " + text;
    return text;
  }
  bool Fail(const std::string& id, InstIndex i, const std::string& message) {
    if (error_.empty()) error_ = "lower-coop-vector." + id + ": " + Where(i) + ": " + message;
    return false;
  }

  // ---- Declarations (before the first function), deduplicated.
  Id Decl(Op op, std::initializer_list<uint32_t> operands, Reuse reuse = Reuse::kModule);
  Id IntType(uint32_t width, bool is_signed);
  Id FloatType(uint32_t width);
  Id Ptr(uint32_t storage, Id pointee) { return Decl(Op::TypePointer, {storage, pointee}); }
  Id Array(Id elem, Id length) { return Decl(Op::TypeArray, {elem, length}, Reuse::kNever); }
  Id ConstBits(Id type, uint64_t bits);
  void RequireCapability(uint32_t cap);
  void RequireExtension(const std::string& name);

  // ---- Code.
  Id LocalVar(Id pointee) {
    const Id type = Ptr(kStorageFunction, pointee);
    b_.SetInsertAfter(entry_label_);
    return b_.Add(Op::Variable, type, {kStorageFunction});
  }
  void Label(Id label) {
    Emit(Op::Label, 0, {}, label);
    cur_label_ = label;
  }
  // for (i = 0; i < count; ++i) body(i), as a structured loop; `count` is a 32-bit integer.
  template <class F>
  void Loop(Id count, F&& body);
  // body(index id, k) for every component: unrolled with k = 0, 1, ... when `known` is small,
  // else a loop with k = -1.
  template <class F>
  void ForEach(Id count, std::optional<uint32_t> known, F&& body);
  bool Unrolled(const VecInfo& v) const { return v.known && *v.known <= kUnrollLimit; }
  Source Spill(Id value, bool to_var);
  Id Component(const Source& s, Id index, int k);
  // Builds a value of vector type `v` from fn(index id, k) per component.
  template <class F>
  Id Build(const VecInfo& v, F&& fn);

  // 32-bit integer arithmetic on offsets and indexes, folded when the operands are known.
  std::optional<uint32_t> Known(Id id) const;
  Id UAdd(Id a, Id b);
  Id UMul(Id a, Id b);
  Id Convert(Id value, Id from, Id to, bool from_signed);

  // Memory.
  bool ParseMemoryAccess(InstIndex i, size_t first_word, MemoryAccess* out);
  bool View(InstIndex i, Id ptr, MemoryArray* out);
  std::vector<uint32_t> MemoryOperands(const MemoryArray& a, const MemoryAccess& ma, bool load,
                                       uint32_t bytes);
  Id UnitPointer(const MemoryArray& a, Id unit_index);
  // Byte offset -> index of the array unit it falls in.
  Id UnitIndex(Id byte_offset, uint32_t unit_bytes);
  // `bits` bits at byte offset `offset`: a value of the array's unit type when the sizes agree,
  // else an unsigned integer of `bits` bits. Returns the type through `type`.
  Id ReadBits(const MemoryArray& a, const MemoryAccess& ma, Id offset, uint32_t bits, Id* type);
  Id ReadAs(const MemoryArray& a, const MemoryAccess& ma, Id offset, Id type);
  Id Bitcast(Id value, Id from, Id to) {
    return from == to ? value : Emit(Op::Bitcast, to, {value});
  }

  // Software float formats.
  Id MinifloatHelper(FloatFormat f, bool encode, bool saturate);
  Id DecodeMinifloat(Id bits_u32, FloatFormat f) {
    Id r = Emit(Op::FunctionCall, UInt(32), {MinifloatHelper(f, false, false), bits_u32});
    return Emit(Op::Bitcast, FloatType(32), {r});
  }
  Id QuantizeFloat32(Id f32, FloatFormat f, bool saturate) {
    Id bits = Emit(Op::Bitcast, UInt(32), {f32});
    Id enc = Emit(Op::FunctionCall, UInt(32), {MinifloatHelper(f, true, saturate), bits});
    return DecodeMinifloat(enc, f);
  }

  // Per instruction.
  bool LowerInstruction(InstIndex i);
  bool LowerElementwise(InstIndex i, const VecInfo& v);
  bool LowerLoad(InstIndex i);
  bool LowerStore(InstIndex i);
  // MemoryLayout must be a constant RowMajorNV / ColumnMajorNV, with a MatrixStride.
  // The layout of a matrix operand. An optimal layout read as row- or column-major
  // (Features::optimal_as) sets *optimal; the caller then uses TightStride.
  bool MajorLayout(InstIndex i, Id layout_id, Id stride, bool* column_major, bool* optimal);
  // The stride of a tightly stored rows x cols matrix of `bytes`-byte elements.
  Id TightStride(bool column_major, Id rows, Id cols, uint32_t bytes) {
    return UMul(column_major ? rows : cols, U32(bytes));
  }
  bool LowerMatrixMul(InstIndex i, bool with_bias);
  bool LowerAccumulate(InstIndex i, bool outer_product);
  // An interpretation's raw element -> the accumulation domain.
  Id ElementToDomain(Id raw, Id raw_type, const Interp& in, Id domain, bool domain_float);
  Id InputToDomain(Id c, const ScalarType& ct, Id c_type, const Interp& in, bool b_signed,
                   Id domain, bool domain_float);
  void Replace(InstIndex i, Id value) {
    b_.ReplaceAllUsesWith(m_.result_id(i), value);
    b_.Remove(i);
  }

  const ir::Module& m_;
  ir::Builder b_;
  Features features_;
  std::string error_;
  std::map<Id, VecInfo> vecs_;
  std::set<uint32_t> caps_;
  std::map<Id, Id> long_counts_;  // Long OpTypeVector -> the count constant declared for it.
  std::vector<uint32_t> new_caps_;
  std::set<std::string> exts_;
  std::vector<std::string> new_exts_;
  ir::Declarations decls_{m_};
  minifloat::Helpers helpers_;
  std::map<Id, uint32_t> u32_values_;
  uint32_t replicates_lowered_ = 0;
  Id glsl_ = 0;
  InstIndex memory_model_ = ir::kNoInst;
  uint32_t memory_model_value_ = 0;
  // The instruction being lowered, its function's first label, the label of the block the code
  // now goes into, and whether its original block is a loop header.
  InstIndex site_ = 0;
  InstIndex entry_label_ = 0;
  Id cur_label_ = 0;
  bool site_in_loop_header_ = false;
  bool at_end_ = false;
};

// A literal string operand starting at word `w`, read no further than the instruction.
std::string StringAt(const ir::Inst& inst, size_t w) {
  if (w >= inst.words.size()) return "";
  const char* begin = reinterpret_cast<const char*>(inst.words.data() + w);
  const size_t bytes = (inst.words.size() - w) * 4;
  const void* nul = std::memchr(begin, 0, bytes);
  return std::string(begin, nul ? static_cast<const char*>(nul) - begin : bytes);
}

// ---- Facts

std::optional<ScalarType> Lowering::Scalar(Id type) const {
  const InstIndex d = m_.Def(type);
  ScalarType s;
  if (d == ir::kNoInst) {
    // Types this pass declared are plain ints and floats; find them by their declaration.
    Op op;
    std::span<const uint32_t> words;
    if (!decls_.Lookup(type, &op, &words)) return std::nullopt;
    if (op == Op::TypeInt) return ScalarType{false, words[1] != 0, words[0]};
    if (op == Op::TypeFloat) return ScalarType{true, false, words[0]};
    return std::nullopt;
  }
  if (m_.opcode(d) == Op::TypeInt) {
    s.width = m_.word(d, 2);
    s.is_signed = m_.word(d, 3) != 0;
  } else if (m_.opcode(d) == Op::TypeFloat) {
    s.is_float = true;
    s.width = m_.word(d, 2);
    if (m_.num_words(d) > 3) s.encoding = m_.word(d, 3);
  } else {
    return std::nullopt;
  }
  if (s.width == 0 || s.width > 64 || (s.width & (s.width - 1)) != 0) return std::nullopt;
  return s;
}

std::optional<uint64_t> Lowering::ConstValue(Id id) const {
  const InstIndex d = m_.Def(id);
  if (d == ir::kNoInst) return std::nullopt;
  switch (m_.opcode(d)) {
    case Op::ConstantTrue:
      return 1;
    case Op::ConstantFalse:
      return 0;
    case Op::ConstantNull:
      return 0;
    case Op::Constant: {
      const auto s = Scalar(m_.type_id(d));
      if (!s || s->is_float) return std::nullopt;
      uint64_t v = m_.word(d, 3);
      if (s->width == 64 && m_.num_words(d) > 4) v |= uint64_t{m_.word(d, 4)} << 32;
      return v;
    }
    default:
      return std::nullopt;
  }
}

// ---- Declarations

Id Lowering::Decl(Op op, std::initializer_list<uint32_t> operands, Reuse reuse) {
  return decls_.FindOrAdd(op, operands, reuse, [&](Op o, std::span<const uint32_t> words) {
    b_.SetInsertBeforeFunctions();
    return b_.AddDeclaration(o, words);
  });
}

Id Lowering::IntType(uint32_t width, bool is_signed) {
  if (width == 8) RequireCapability(kCapInt8);
  if (width == 16) RequireCapability(kCapInt16);
  if (width == 64) RequireCapability(kCapInt64);
  return Decl(Op::TypeInt, {width, is_signed ? 1u : 0u});
}

Id Lowering::FloatType(uint32_t width) {
  if (width == 16) RequireCapability(kCapFloat16);
  if (width == 64) RequireCapability(kCapFloat64);
  return Decl(Op::TypeFloat, {width});
}

Id Lowering::ConstBits(Id type, uint64_t bits) {
  const auto s = Scalar(type);
  if (s && s->width == 64) {
    return Decl(Op::Constant,
                {type, static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)});
  }
  const uint32_t width = s ? s->width : 32;
  const uint64_t mask = width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1;
  // Narrow integer literals are sign-extended when the type is signed.
  uint32_t word = static_cast<uint32_t>(bits & mask);
  if (s && !s->is_float && s->is_signed && width < 32 && (word >> (width - 1)) != 0) {
    word |= ~static_cast<uint32_t>(mask);
  }
  return Decl(Op::Constant, {type, word});
}

void Lowering::RequireCapability(uint32_t cap) {
  if (caps_.insert(cap).second) new_caps_.push_back(cap);
}

void Lowering::RequireExtension(const std::string& name) {
  if (exts_.insert(name).second) new_exts_.push_back(name);
}

Id Lowering::Glsl() {
  if (glsl_ != 0) return glsl_;
  const std::vector<uint32_t> name = ir::Builder::StringWords("GLSL.std.450");
  b_.SetInsertBefore(memory_model_);
  glsl_ = b_.Add(Op::ExtInstImport, 0, std::span<const uint32_t>(name));
  return glsl_;
}

// ---- Code

template <class F>
void Lowering::Loop(Id count, F&& body) {
  if (site_in_loop_header_ && error_.empty()) {
    Fail("loop-header", site_, "needs a loop, which cannot be placed in a loop header block");
  }
  const Id pre = cur_label_;
  const Id header = b_.FreshId(), body_label = b_.FreshId(), cont = b_.FreshId(),
           merge = b_.FreshId(), index = b_.FreshId(), next = b_.FreshId();
  Emit(Op::Branch, 0, {header});
  Label(header);
  Emit(Op::Phi, UInt(32), {U32(0), pre, next, cont}, index);
  const Id more = Emit(Op::ULessThan, Bool(), {index, count});
  Emit(Op::LoopMerge, 0, {merge, cont, 0});
  Emit(Op::BranchConditional, 0, {more, body_label, merge});
  Label(body_label);
  body(index);
  Emit(Op::Branch, 0, {cont});
  Label(cont);
  Emit(Op::IAdd, UInt(32), {index, U32(1)}, next);
  Emit(Op::Branch, 0, {header});
  Label(merge);
}

template <class F>
void Lowering::ForEach(Id count, std::optional<uint32_t> known, F&& body) {
  if (known && *known <= kUnrollLimit) {
    for (uint32_t k = 0; k < *known; ++k) body(U32(k), static_cast<int>(k));
  } else {
    Loop(count, [&](Id i) { body(i, -1); });
  }
}

Source Lowering::Spill(Id value, bool to_var) {
  const VecInfo* v = VecOfValue(value);
  Source s{value, 0, v->elem};
  // A replicated constant is its one scalar at every index.
  if (to_var && m_.DefOpcode(value) != Op::ConstantCompositeReplicateEXT) {
    s.var = LocalVar(v->type);
    Emit(Op::Store, 0, {s.var, value});
  }
  return s;
}

Id Lowering::Component(const Source& s, Id index, int k) {
  const InstIndex d = m_.Def(s.value);
  if (d != ir::kNoInst && m_.opcode(d) == Op::ConstantCompositeReplicateEXT) return m_.word(d, 3);
  if (d != ir::kNoInst && m_.opcode(d) == Op::ConstantComposite && k >= 0 &&
      3u + k < m_.num_words(d)) {
    return m_.word(d, 3 + k);
  }
  if (s.var == 0) return Emit(Op::CompositeExtract, s.elem, {s.value, static_cast<uint32_t>(k)});
  const Id p = Emit(Op::AccessChain, Ptr(kStorageFunction, s.elem), {s.var, index});
  return Emit(Op::Load, s.elem, {p});
}

template <class F>
Id Lowering::Build(const VecInfo& v, F&& fn) {
  if (Unrolled(v)) {
    std::vector<uint32_t> parts;
    for (uint32_t k = 0; k < *v.known; ++k) parts.push_back(fn(U32(k), static_cast<int>(k)));
    return EmitV(Op::CompositeConstruct, v.type, parts);
  }
  const Id var = LocalVar(v.type);
  Loop(v.count, [&](Id i) {
    const Id value = fn(i, -1);
    const Id p = Emit(Op::AccessChain, Ptr(kStorageFunction, v.elem), {var, i});
    Emit(Op::Store, 0, {p, value});
  });
  return Emit(Op::Load, v.type, {var});
}

std::optional<uint32_t> Lowering::Known(Id id) const {
  if (auto it = u32_values_.find(id); it != u32_values_.end()) return it->second;
  const InstIndex d = m_.Def(id);
  if (d == ir::kNoInst || m_.opcode(d) != Op::Constant) return std::nullopt;
  const auto t = Scalar(m_.type_id(d));
  if (!t || t->is_float || t->width != 32) return std::nullopt;
  return m_.word(d, 3);
}

Id Lowering::UAdd(Id a, Id b) {
  const auto x = Known(a), y = Known(b);
  if (x && y) return U32(*x + *y);
  if (x && *x == 0) return b;
  if (y && *y == 0) return a;
  return Emit(Op::IAdd, UInt(32), {a, b});
}

Id Lowering::UMul(Id a, Id b) {
  const auto x = Known(a), y = Known(b);
  if (x && y) return U32(*x * *y);
  if ((x && *x == 0) || (y && *y == 0)) return U32(0);
  if (x && *x == 1) return b;
  if (y && *y == 1) return a;
  return Emit(Op::IMul, UInt(32), {a, b});
}

// A numeric conversion between scalar types (same type: the value itself).
Id Lowering::Convert(Id value, Id from, Id to, bool from_signed) {
  if (from == to) return value;
  const auto f = Scalar(from), t = Scalar(to);
  if (f->is_float && t->is_float) return Emit(Op::FConvert, to, {value});
  if (f->is_float) return Emit(t->is_signed ? Op::ConvertFToS : Op::ConvertFToU, to, {value});
  if (t->is_float) return Emit(from_signed ? Op::ConvertSToF : Op::ConvertUToF, to, {value});
  if (f->width == t->width) return Emit(Op::Bitcast, to, {value});
  if (from_signed) return Emit(Op::SConvert, to, {value});
  // OpUConvert's Result Type is unsigned.
  const Id widened = Emit(Op::UConvert, UInt(t->width), {value});
  return Bitcast(widened, UInt(t->width), to);
}

// ---- Memory

bool Lowering::ParseMemoryAccess(InstIndex i, size_t w, MemoryAccess* out) {
  const size_t n = m_.num_words(i);
  if (w >= n) return true;
  out->mask = m_.word(i, w++);
  const uint32_t known = 0x1 | kMemAligned | 0x4 | kMemAvailable | kMemVisible | 0x20;
  if (out->mask & ~known) {
    return Fail("memory-operand", i,
                "memory operands beyond Volatile, Aligned, Nontemporal and "
                "the availability / visibility ones are not lowered");
  }
  if ((out->mask & kMemAligned) && w < n) out->aligned = m_.word(i, w++);
  if ((out->mask & kMemAvailable) && w < n) out->available = m_.word(i, w++);
  if ((out->mask & kMemVisible) && w < n) out->visible = m_.word(i, w++);
  return true;
}

bool Lowering::View(InstIndex i, Id ptr, MemoryArray* out) {
  const InstIndex pt = m_.Def(m_.TypeOf(ptr));
  if (pt == ir::kNoInst || m_.opcode(pt) != Op::TypePointer) {
    return Fail("pointer", i, "the pointer operand is not a pointer");
  }
  out->ptr = ptr;
  out->storage = m_.word(pt, 2);
  const InstIndex at = m_.Def(m_.word(pt, 3));
  if (at == ir::kNoInst ||
      (m_.opcode(at) != Op::TypeArray && m_.opcode(at) != Op::TypeRuntimeArray)) {
    return Fail("pointer", i, "the pointer does not point to an array");
  }
  Id elem = m_.word(at, 2);
  out->lanes = 1;
  const InstIndex et = m_.Def(elem);
  if (et != ir::kNoInst && m_.opcode(et) == Op::TypeVector) {
    out->lanes = m_.word(et, 3);
    elem = m_.word(et, 2);
    if (out->lanes != 2 && out->lanes != 4) {
      return Fail("pointer", i, "arrays of 3-component vectors are not lowered");
    }
  }
  const auto s = Scalar(elem);
  if (!s) return Fail("pointer", i, "the array element is not a numeric scalar or vector");
  out->unit = elem;
  out->unit_bytes = s->width / 8;
  return true;
}

std::vector<uint32_t> Lowering::MemoryOperands(const MemoryArray& a, const MemoryAccess& ma,
                                               bool load, uint32_t bytes) {
  uint32_t mask = ma.mask & ~(load ? kMemAvailable : kMemVisible);
  if ((mask & kMemAligned) || a.storage == kStoragePhysicalStorageBuffer) mask |= kMemAligned;
  std::vector<uint32_t> out;
  if (mask == 0) return out;
  out.push_back(mask);
  if (mask & kMemAligned) out.push_back(bytes);
  if (mask & kMemAvailable) out.push_back(ma.available);
  if (mask & kMemVisible) out.push_back(ma.visible);
  return out;
}

Id Lowering::UnitPointer(const MemoryArray& a, Id unit_index) {
  const Id ptr_type = Ptr(a.storage, a.unit);
  if (a.lanes == 1) return Emit(Op::AccessChain, ptr_type, {a.ptr, unit_index});
  const uint32_t shift = a.lanes == 2 ? 1 : 2;
  const Id elem = Emit(Op::ShiftRightLogical, UInt(32), {unit_index, U32(shift)});
  const Id lane = Emit(Op::BitwiseAnd, UInt(32), {unit_index, U32(a.lanes - 1)});
  return Emit(Op::AccessChain, ptr_type, {a.ptr, elem, lane});
}

uint32_t Log2(uint32_t v) {
  uint32_t r = 0;
  while ((1u << r) < v) ++r;
  return r;
}

Id Lowering::UnitIndex(Id byte_offset, uint32_t unit_bytes) {
  if (unit_bytes == 1) return byte_offset;
  if (const auto known = Known(byte_offset)) return U32(*known >> Log2(unit_bytes));
  return Emit(Op::ShiftRightLogical, UInt(32), {byte_offset, U32(Log2(unit_bytes))});
}

Id Lowering::ReadBits(const MemoryArray& a, const MemoryAccess& ma, Id offset, uint32_t bits,
                      Id* type) {
  const uint32_t n = bits / 8, us = a.unit_bytes;
  auto load_unit = [&](Id unit_index) {
    std::vector<uint32_t> ops = {UnitPointer(a, unit_index)};
    for (uint32_t w : MemoryOperands(a, ma, true, us)) ops.push_back(w);
    return EmitV(Op::Load, a.unit, ops);
  };
  const Id first = UnitIndex(offset, us);
  if (n == us) {
    *type = a.unit;
    return load_unit(first);
  }
  const Id unit_uint = UInt(us * 8), want = UInt(bits);
  *type = want;
  if (n < us) {
    const Id word = Bitcast(load_unit(first), a.unit, unit_uint);
    Id shifted = word;
    if (const auto known = Known(offset)) {
      const uint32_t shift = (*known & (us - 1)) * 8;
      if (shift != 0) shifted = Emit(Op::ShiftRightLogical, unit_uint, {word, U32(shift)});
    } else {
      const Id byte = Emit(Op::BitwiseAnd, UInt(32), {offset, U32(us - 1)});
      const Id shift = Emit(Op::ShiftLeftLogical, UInt(32), {byte, U32(3)});
      shifted = Emit(Op::ShiftRightLogical, unit_uint, {word, shift});
    }
    return Emit(Op::UConvert, want, {shifted});
  }
  Id acc = 0;
  for (uint32_t j = 0; j < n / us; ++j) {
    const Id unit = Bitcast(load_unit(j == 0 ? first : UAdd(first, U32(j))), a.unit, unit_uint);
    Id part = Emit(Op::UConvert, want, {unit});
    if (j > 0) part = Emit(Op::ShiftLeftLogical, want, {part, U32(j * us * 8)});
    acc = acc == 0 ? part : Emit(Op::BitwiseOr, want, {acc, part});
  }
  return acc;
}

Id Lowering::ReadAs(const MemoryArray& a, const MemoryAccess& ma, Id offset, Id type) {
  Id raw_type = 0;
  const Id raw = ReadBits(a, ma, offset, Scalar(type)->width, &raw_type);
  return Bitcast(raw, raw_type, type);
}

// ---- Software float helpers

Id Lowering::MinifloatHelper(FloatFormat f, bool encode, bool saturate) {
  return helpers_.Get(*this, at_end_, Decl(Op::TypeFunction, {UInt(32), UInt(32)}), f, encode,
                      saturate);
}

// ---- Per instruction

bool Lowering::LowerInstruction(InstIndex i) {
  const Op op = m_.opcode(i);
  switch (op) {
    case Op::CooperativeVectorLoadNV:
      return LowerLoad(i);
    case Op::CooperativeVectorStoreNV:
      return LowerStore(i);
    case Op::CooperativeVectorMatrixMulNV:
      return LowerMatrixMul(i, false);
    case Op::CooperativeVectorMatrixMulAddNV:
      return LowerMatrixMul(i, true);
    case Op::CooperativeVectorOuterProductAccumulateNV:
      return LowerAccumulate(i, true);
    case Op::CooperativeVectorReduceSumAccumulateNV:
      return LowerAccumulate(i, false);
    case Op::ExtInst:
    case Op::ExtInstWithForwardRefsKHR:
      // Debug info (DebugValue, DebugDeclare, ...) names the value whatever its type.
      if (ir::IsNonSemanticExtInst(m_, i)) return true;
      break;
    // Legal on arrays and vectors alike: the type changed under them.
    case Op::Load:
    case Op::Store:
    case Op::CopyObject:
    case Op::CopyMemory:
    case Op::Phi:
    case Op::Undef:
    case Op::Variable:
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
    case Op::FunctionParameter:
    case Op::FunctionCall:
    case Op::ReturnValue:
    case Op::CompositeConstruct:
    case Op::CompositeExtract:
    case Op::CompositeInsert:
    case Op::Name:
    case Op::Decorate:
      return true;
    case Op::Select: {
      // A per-component condition (a long Boolean vector become an array) selects per component;
      // a scalar one selects whole values of any type.
      const VecInfo* condition = VecOfValue(m_.word(i, 3));
      if (!condition || condition->as_vector) return true;
      const VecInfo* v = Vec(m_.type_id(i));
      if (!v) return Fail("unsupported", i, "selects with a per-component condition");
      return LowerElementwise(i, *v);
    }
    case Op::CompositeConstructReplicateEXT: {
      // Plain code: the value once per component.
      const VecInfo* v = Vec(m_.type_id(i));
      if (!v) return true;
      const Id value = m_.word(i, 3);
      Replace(i, Build(*v, [&](Id, int) { return value; }));
      ++replicates_lowered_;
      return true;
    }
    case Op::VectorExtractDynamic: {
      const VecInfo* v = VecOfValue(m_.word(i, 3));
      if (!v || v->as_vector) return true;
      const Source s = Spill(m_.word(i, 3), true);
      Replace(i, Component(s, m_.word(i, 4), -1));
      return true;
    }
    case Op::VectorInsertDynamic: {
      const VecInfo* v = Vec(m_.type_id(i));
      if (!v || v->as_vector) return true;
      const Source s = Spill(m_.word(i, 3), true);
      const Id p = Emit(Op::AccessChain, Ptr(kStorageFunction, v->elem), {s.var, m_.word(i, 5)});
      Emit(Op::Store, 0, {p, m_.word(i, 4)});
      Replace(i, Emit(Op::Load, v->type, {s.var}));
      return true;
    }
    default:
      break;
  }
  if (const VecInfo* v = Vec(m_.type_id(i))) {
    return v->as_vector ? true : LowerElementwise(i, *v);
  }
  // Anything else must not read a cooperative vector.
  const ir::Inst inst = m_.inst(i);
  for (const auto& operand : inst.operands) {
    if (!grammar::IsIdKind(operand.kind) || operand.kind == grammar::OperandKind::kIdResult ||
        operand.kind == grammar::OperandKind::kIdResultType) {
      continue;
    }
    if (VecOfValue(inst.word(operand))) {
      const VecInfo* v = VecOfValue(inst.word(operand));
      if (v->as_vector) continue;
      return Fail("unsupported", i, "reads a cooperative or long vector and has no lowering");
    }
  }
  return true;
}

bool Lowering::LowerElementwise(InstIndex i, const VecInfo& v) {
  const ir::Inst inst = m_.inst(i);
  Op op = m_.opcode(i);
  if (op == Op::VectorTimesScalar) op = Op::FMul;
  // Operand words after the result, with the cooperative vectors marked.
  std::vector<uint32_t> words;
  std::vector<std::optional<Source>> sources;
  const bool unrolled = Unrolled(v);
  for (const auto& operand : inst.operands) {
    if (operand.kind == grammar::OperandKind::kIdResult ||
        operand.kind == grammar::OperandKind::kIdResultType) {
      continue;
    }
    for (uint32_t w = 0; w < operand.num_words; ++w) {
      const uint32_t word = inst.word(operand, w);
      words.push_back(word);
      if (grammar::IsIdKind(operand.kind) && VecOfValue(word)) {
        sources.push_back(Spill(word, !unrolled));
      } else {
        sources.push_back(std::nullopt);
      }
    }
  }
  Replace(i, Build(v, [&](Id index, int k) {
            std::vector<uint32_t> ops = words;
            std::map<Id, Id> read;  // An operand used twice (a * a) is read once.
            for (size_t w = 0; w < ops.size(); ++w) {
              if (!sources[w]) continue;
              auto [it, fresh] = read.emplace(ops[w], 0);
              if (fresh) it->second = Component(*sources[w], index, k);
              ops[w] = it->second;
            }
            return EmitV(op, v.elem, ops);
          }));
  return true;
}

bool Lowering::LowerLoad(InstIndex i) {
  const VecInfo* v = Vec(m_.type_id(i));
  MemoryArray a;
  MemoryAccess ma;
  if (!v || !View(i, m_.word(i, 3), &a) || !ParseMemoryAccess(i, 5, &ma)) {
    return v ? false : Fail("type", i, "the result is not a cooperative vector");
  }
  const Id offset = m_.word(i, 4);
  const uint32_t size = Bytes(v->elem);
  Replace(i, Build(*v, [&](Id index, int) {
            return ReadAs(a, ma, UAdd(offset, UMul(index, U32(size))), v->elem);
          }));
  return true;
}

bool Lowering::LowerStore(InstIndex i) {
  const Id object = m_.word(i, 3);
  const VecInfo* v = VecOfValue(object);
  MemoryArray a;
  MemoryAccess ma;
  if (!v) return Fail("type", i, "the object is not a cooperative vector");
  if (!View(i, m_.word(i, 1), &a) || !ParseMemoryAccess(i, 4, &ma)) return false;
  b_.Remove(i);
  const Id offset = m_.word(i, 2);
  const uint32_t size = Bytes(v->elem), us = a.unit_bytes;
  const std::vector<uint32_t> memory = MemoryOperands(a, ma, false, us);
  auto store_unit = [&](Id unit_index, Id value) {
    std::vector<uint32_t> ops = {UnitPointer(a, unit_index), value};
    ops.insert(ops.end(), memory.begin(), memory.end());
    EmitV(Op::Store, 0, ops);
  };
  // Declared only when a reinterpretation needs them.
  auto elem_uint = [&] { return UInt(size * 8); };
  auto unit_uint = [&] { return UInt(us * 8); };
  if (size >= us) {
    const Source s = Spill(object, !Unrolled(*v));
    ForEach(v->count, v->known, [&](Id index, int k) {
      const Id c = Component(s, index, k);
      const Id first = UnitIndex(UAdd(offset, UMul(index, U32(size))), us);
      if (size == us) {
        store_unit(first, Bitcast(c, v->elem, a.unit));
        return;
      }
      const Id bits = Bitcast(c, v->elem, elem_uint());
      for (uint32_t j = 0; j < size / us; ++j) {
        const Id shifted =
            j == 0 ? bits : Emit(Op::ShiftRightLogical, elem_uint(), {bits, U32(j * us * 8)});
        const Id piece = Bitcast(Emit(Op::UConvert, unit_uint(), {shifted}), unit_uint(), a.unit);
        store_unit(j == 0 ? first : UAdd(first, U32(j)), piece);
      }
    });
    return true;
  }
  // Components smaller than the array element: pack us / size of them into each element.
  const uint32_t per_unit = us / size;
  if (v->known && *v->known % per_unit != 0) {
    return Fail("store-packing", i,
                "the component count is not a multiple of the components per array element");
  }
  const Source s = Spill(object, true);
  std::optional<uint32_t> known_units;
  if (v->known) known_units = *v->known / per_unit;
  const Id units = known_units
                       ? U32(*known_units)
                       : Emit(Op::UDiv, UInt(32),
                              {Bitcast(v->count, m_.TypeOf(v->count), UInt(32)), U32(per_unit)});
  const Id first = UnitIndex(offset, us);
  ForEach(units, known_units, [&](Id u, int) {
    Id acc = 0;
    for (uint32_t j = 0; j < per_unit; ++j) {
      const Id index = UAdd(UMul(u, U32(per_unit)), U32(j));
      const Id bits = Bitcast(Component(s, index, -1), v->elem, elem_uint());
      Id part = Emit(Op::UConvert, unit_uint(), {bits});
      if (j > 0) part = Emit(Op::ShiftLeftLogical, unit_uint(), {part, U32(j * size * 8)});
      acc = acc == 0 ? part : Emit(Op::BitwiseOr, unit_uint(), {acc, part});
    }
    store_unit(UAdd(first, u), Bitcast(acc, unit_uint(), a.unit));
  });
  return true;
}

Id Lowering::ElementToDomain(Id raw, Id raw_type, const Interp& in, Id domain, bool domain_float) {
  const auto rt = Scalar(raw_type);
  if (in.kind == Interp::kE4M3 || in.kind == Interp::kE5M2) {
    const Id bits = Emit(Op::UConvert, UInt(32), {Bitcast(raw, raw_type, UInt(8))});
    const Id f = DecodeMinifloat(bits, in.kind == Interp::kE4M3 ? kFloat8E4M3 : kFloat8E5M2);
    return Convert(f, FloatType(32), domain, false);
  }
  if (in.kind == Interp::kFloat) {
    if (in.bits == 16 && !(rt->is_float && rt->encoding == ~0u) && caps_.count(kCapFloat16) == 0) {
      const Id bits = Emit(Op::UConvert, UInt(32), {Bitcast(raw, raw_type, UInt(16))});
      return Convert(DecodeMinifloat(bits, kHalf), FloatType(32), domain, false);
    }
    if (rt->is_float && rt->encoding == ~0u) return Convert(raw, raw_type, domain, false);
    const Id f = FloatType(in.bits);
    return Convert(Bitcast(raw, raw_type, f), f, domain, false);
  }
  // Integers: the raw bits are the value.
  const bool is_signed = in.kind == Interp::kSigned;
  Id int_type = rt->is_float ? UInt(in.bits) : raw_type;
  const Id value = Bitcast(raw, raw_type, int_type);
  return Convert(value, int_type, domain, is_signed);
}

Id Lowering::InputToDomain(Id c, const ScalarType& ct, Id c_type, const Interp& in, bool b_signed,
                           Id domain, bool domain_float) {
  const Id f32 = FloatType(32);
  if (in.is_float()) {
    const bool wide = in.bits == 64 || ct.width == 64;
    const Id ft = wide ? FloatType(64) : f32;
    Id f = ct.is_float ? Convert(c, c_type, ft, false)
                       : Emit(b_signed ? Op::ConvertSToF : Op::ConvertUToF, ft, {c});
    if (in.kind == Interp::kFloat && in.bits == 16) {
      if (!(ct.is_float && ct.width == 16)) {
        f = QuantizeFloat32(wide ? Emit(Op::FConvert, f32, {f}) : f, kHalf, false);
        if (wide) f = Emit(Op::FConvert, ft, {f});
      }
    } else if (in.kind == Interp::kFloat && in.bits == 32 && wide) {
      f = Emit(Op::FConvert, ft, {Emit(Op::FConvert, f32, {f})});
    } else if (in.kind != Interp::kFloat) {
      const Id narrow = wide ? Emit(Op::FConvert, f32, {f}) : f;
      f = QuantizeFloat32(narrow, in.kind == Interp::kE4M3 ? kFloat8E4M3 : kFloat8E5M2, true);
      if (wide) f = Emit(Op::FConvert, ft, {f});
    }
    return Convert(f, ft, domain, false);
  }
  // Integer interpretation: saturate into its range.
  const bool in_signed = in.kind == Interp::kSigned;
  const uint32_t w = in.bits;
  if (ct.is_float) {
    const bool wide = ct.width == 64 || w == 64;
    const uint32_t fw = wide ? 64 : 32;
    const Id ft = FloatType(fw);
    const Id f = Convert(c, c_type, ft, false);
    const Id r = Emit(Op::ExtInst, ft, {Glsl(), kGlslRoundEven, f});
    // The largest float of the working format not above the range's end.
    const int precision = wide ? 53 : 24;
    auto floor_to_precision = [&](long double v) {
      int e = 0;
      long double t = v;
      while (t >= 2.0L) {
        t /= 2;
        ++e;
      }
      const long double unit = e + 1 > precision ? std::pow(2.0L, e + 1 - precision) : 1.0L;
      return std::floor(v / unit) * unit;
    };
    const long double hi_v = in_signed ? std::pow(2.0L, w - 1) - 1 : std::pow(2.0L, w) - 1;
    const long double lo_v = in_signed ? -std::pow(2.0L, w - 1) : 0.0L;
    auto float_const = [&](long double v) {
      if (fw == 32) {
        const float x = static_cast<float>(v);
        uint32_t bits;
        std::memcpy(&bits, &x, 4);
        return ConstBits(ft, bits);
      }
      const double x = static_cast<double>(v);
      uint64_t bits;
      std::memcpy(&bits, &x, 8);
      return ConstBits(ft, bits);
    };
    const Id clamped =
        Emit(Op::ExtInst, ft,
             {Glsl(), kGlslFClamp, r, float_const(lo_v), float_const(floor_to_precision(hi_v))});
    const Id it = IntType(w <= 32 ? 32 : 64, in_signed);
    const Id as_int = Emit(in_signed ? Op::ConvertFToS : Op::ConvertFToU, it, {clamped});
    if (domain_float) return Convert(as_int, it, domain, in_signed);
    return Convert(as_int, it, domain, in_signed);
  }
  // Integer -> integer in a working width of at least 32 bits.
  const uint32_t ww = std::max<uint32_t>(32, ct.width);
  const Id work = UInt(ww);
  Id x = ct.width == ww ? Bitcast(c, c_type, work)
                        : Emit(b_signed ? Op::SConvert : Op::UConvert, work, {c});
  auto k = [&](uint64_t v) { return ConstBits(work, v); };
  if (b_signed) {
    if (in_signed && w < ww) {
      x = Emit(Op::ExtInst, work,
               {Glsl(), kGlslSClamp, x, k(~((uint64_t{1} << (w - 1)) - 1)),
                k((uint64_t{1} << (w - 1)) - 1)});
    } else if (!in_signed) {
      x = Emit(Op::ExtInst, work, {Glsl(), kGlslSMax, x, k(0)});
      if (w < ww) x = Emit(Op::ExtInst, work, {Glsl(), kGlslSMin, x, k((uint64_t{1} << w) - 1)});
    }
  } else {
    if (in_signed && w <= ww) {
      x = Emit(Op::ExtInst, work, {Glsl(), kGlslUMin, x, k((uint64_t{1} << (w - 1)) - 1)});
    } else if (!in_signed && w < ww) {
      x = Emit(Op::ExtInst, work, {Glsl(), kGlslUMin, x, k((uint64_t{1} << w) - 1)});
    }
  }
  if (domain_float) return Convert(x, work, domain, in_signed);
  return Convert(x, work, domain, false);
}

bool Lowering::MajorLayout(InstIndex i, Id layout_id, Id stride, bool* column_major,
                           bool* optimal) {
  *optimal = false;
  const auto layout = ConstValue(layout_id);
  if (!layout) {
    return Fail("layout", i,
                "MemoryLayout is a specialization constant; lowering needs its value: specialize "
                "it to RowMajorNV or ColumnMajorNV first (--set-spec-const-default-value, "
                "--freeze-spec-const)");
  }
  if ((*layout == 2 || *layout == 3) && features_.optimal_as >= 0) {
    *optimal = true;
    *column_major = features_.optimal_as == 1;
    return true;
  }
  if (*layout == 2 || *layout == 3) {
    return Fail("optimal-layout", i,
                std::string(*layout == 2 ? "InferencingOptimalNV" : "TrainingOptimalNV") +
                    " is opaque to everyone but the driver: for a lowered module the "
                    "application must store the matrix RowMajorNV or ColumnMajorNV and pass that "
                    "layout, or convert it into one with a tight stride and say which "
                    "(--lower-coop-vector=optimal-as-row-major or optimal-as-column-major)");
  }
  if (*layout > 1) return Fail("layout", i, "unknown MemoryLayout");
  if (stride == 0) {
    return Fail("stride", i, "a RowMajorNV / ColumnMajorNV matrix needs MatrixStride");
  }
  *column_major = *layout == 1;
  return true;
}

bool Lowering::LowerMatrixMul(InstIndex i, bool with_bias) {
  const VecInfo* res = Vec(m_.type_id(i));
  const Id input = m_.word(i, 3);
  const VecInfo* in_vec = VecOfValue(input);
  if (!res || !in_vec) return Fail("type", i, "Result and Input must be cooperative vectors");
  size_t w = 4;
  const Id input_interp_id = m_.word(i, w++);
  const Id matrix = m_.word(i, w++);
  const Id matrix_offset = m_.word(i, w++);
  const Id matrix_interp_id = m_.word(i, w++);
  Id bias = 0, bias_offset = 0, bias_interp_id = 0;
  if (with_bias) {
    bias = m_.word(i, w++);
    bias_offset = m_.word(i, w++);
    bias_interp_id = m_.word(i, w++);
  }
  const Id m_count = m_.word(i, w++);
  const Id k_count = m_.word(i, w++);
  const Id layout_id = m_.word(i, w++);
  const Id transpose = m_.word(i, w++);
  Id stride = 0;
  uint32_t operands = 0;
  if (w < m_.num_words(i)) stride = m_.word(i, w++);
  if (w < m_.num_words(i)) operands = m_.word(i, w++);

  bool column_major = false, optimal = false;
  if (!MajorLayout(i, layout_id, stride, &column_major, &optimal)) return false;
  const auto input_interp_v = ConstValue(input_interp_id);
  const auto matrix_interp_v = ConstValue(matrix_interp_id);
  const auto bias_interp_v = with_bias ? ConstValue(bias_interp_id) : std::optional<uint64_t>(0);
  if (!input_interp_v || !matrix_interp_v || !bias_interp_v) {
    return Fail("interpretation", i,
                "the interpretations must be constants (specialize and freeze them first)");
  }
  const auto in_interp = InterpOf(*input_interp_v);
  const auto mat_interp = InterpOf(*matrix_interp_v);
  const auto bias_interp = InterpOf(*bias_interp_v);
  if (!in_interp || !mat_interp || !bias_interp) {
    return Fail("interpretation", i, "unknown Component Type enumerant");
  }
  const auto rt = Scalar(res->elem);
  const auto ct = Scalar(in_vec->elem);
  if (!rt || !ct) return Fail("type", i, "components must be numeric scalars");
  const bool domain_float = rt->is_float;
  if (!domain_float && rt->width != 32) {
    return Fail("type", i, "an integer Result must have 32-bit components");
  }
  if (!domain_float &&
      (in_interp->is_float() || mat_interp->is_float() || (with_bias && bias_interp->is_float()))) {
    return Fail("interpretation", i, "float interpretations with an integer Result");
  }
  if (in_interp->packed && !(ct->width == 32 && !ct->is_float)) {
    return Fail("interpretation", i, "a packed InputInterpretation needs 32-bit integer Input");
  }
  const bool f64 = rt->width == 64 || in_interp->bits == 64 || mat_interp->bits == 64 ||
                   (with_bias && bias_interp->bits == 64);
  const Id domain = domain_float ? FloatType(f64 ? 64 : 32) : res->elem;
  const bool b_signed = (operands & kCmoMatrixBSigned) != 0;

  MemoryArray mat, bias_mem;
  const MemoryAccess none;
  if (!View(i, matrix, &mat)) return false;
  if (with_bias && !View(i, bias, &bias_mem)) return false;

  // Input -> a Function array of K domain values.
  const Id conv_var = LocalVar(Array(domain, k_count));
  const Id domain_ptr = Ptr(kStorageFunction, domain);
  const Source in_src = Spill(input, true);
  Loop(k_count, [&](Id k) {
    Id value;
    if (in_interp->packed) {
      const Id word = Component(in_src, Emit(Op::ShiftRightLogical, UInt(32), {k, U32(2)}), -1);
      const Id byte = Emit(Op::BitwiseAnd, UInt(32), {k, U32(3)});
      const Id shift = Emit(Op::ShiftLeftLogical, UInt(32), {byte, U32(3)});
      const bool s = in_interp->kind == Interp::kSigned;
      const Id ext = Emit(s ? Op::BitFieldSExtract : Op::BitFieldUExtract, in_vec->elem,
                          {word, shift, U32(8)});
      value = Convert(ext, in_vec->elem, domain, s);
    } else {
      value = InputToDomain(Component(in_src, k, -1), *ct, in_vec->elem, *in_interp, b_signed,
                            domain, domain_float);
    }
    Emit(Op::Store, 0, {Emit(Op::AccessChain, domain_ptr, {conv_var, k}), value});
  });

  const uint32_t mat_bytes = mat_interp->bits / 8;
  const uint32_t bias_bytes = bias_interp->bits / 8;
  if (optimal) {
    // The stored matrix is M x K, or K x M under Transpose (known only at run time when Transpose
    // is a specialization constant).
    const auto t = ConstValue(transpose);
    if (t) {
      stride = *t ? TightStride(column_major, k_count, m_count, mat_bytes)
                  : TightStride(column_major, m_count, k_count, mat_bytes);
    } else {
      stride = Emit(Op::Select, UInt(32),
                    {transpose, TightStride(column_major, k_count, m_count, mat_bytes),
                     TightStride(column_major, m_count, k_count, mat_bytes)});
    }
  }
  const Id result_var = LocalVar(res->type);
  const Id acc_var = LocalVar(domain);
  const auto transpose_value = ConstValue(transpose);
  Loop(m_count, [&](Id m) {
    Id init;
    if (with_bias) {
      Id raw_type = 0;
      const Id at = UAdd(bias_offset, UMul(m, U32(bias_bytes)));
      const Id raw = ReadBits(bias_mem, none, at, bias_interp->bits, &raw_type);
      init = ElementToDomain(raw, raw_type, *bias_interp, domain, domain_float);
    } else {
      init = ConstBits(domain, 0);
    }
    Emit(Op::Store, 0, {acc_var, init});
    Loop(k_count, [&](Id k) {
      // (row, column) of the stored matrix.
      Id row = m, col = k;
      if (!transpose_value) {
        row = Emit(Op::Select, UInt(32), {transpose, k, m});
        col = Emit(Op::Select, UInt(32), {transpose, m, k});
      } else if (*transpose_value) {
        row = k;
        col = m;
      }
      const Id major = column_major ? col : row;
      const Id minor = column_major ? row : col;
      const Id at = UAdd(matrix_offset, UAdd(UMul(major, stride), UMul(minor, U32(mat_bytes))));
      Id raw_type = 0;
      const Id raw = ReadBits(mat, none, at, mat_interp->bits, &raw_type);
      const Id a = ElementToDomain(raw, raw_type, *mat_interp, domain, domain_float);
      const Id x = Emit(Op::Load, domain, {Emit(Op::AccessChain, domain_ptr, {conv_var, k})});
      const Id product = Emit(domain_float ? Op::FMul : Op::IMul, domain, {a, x});
      const Id sum = Emit(domain_float ? Op::FAdd : Op::IAdd, domain,
                          {Emit(Op::Load, domain, {acc_var}), product});
      Emit(Op::Store, 0, {acc_var, sum});
    });
    const Id acc = Emit(Op::Load, domain, {acc_var});
    const Id out = domain_float ? Convert(acc, domain, res->elem, false) : acc;
    Emit(Op::Store, 0,
         {Emit(Op::AccessChain, Ptr(kStorageFunction, res->elem), {result_var, m}), out});
  });
  Replace(i, Emit(Op::Load, res->type, {result_var}));
  return true;
}

bool Lowering::LowerAccumulate(InstIndex i, bool outer_product) {
  MemoryArray a;
  if (!View(i, m_.word(i, 1), &a)) return false;
  const Id offset = m_.word(i, 2);
  const Id first = m_.word(i, 3);
  const VecInfo* va = VecOfValue(first);
  const VecInfo* vb = outer_product ? VecOfValue(m_.word(i, 4)) : va;
  if (!va || !vb) return Fail("type", i, "the vector operands must be cooperative vectors");
  const auto ct = Scalar(va->elem);
  if (!ct || !Scalar(vb->elem)) return Fail("type", i, "components must be numeric scalars");
  Interp interp{ct->is_float ? Interp::kFloat : Interp::kSigned, ct->width};
  bool column_major = false, optimal = false;
  Id stride = 0;
  if (outer_product) {
    const auto interp_v = ConstValue(m_.word(i, 6));
    if (m_.num_words(i) > 7) stride = m_.word(i, 7);
    if (!MajorLayout(i, m_.word(i, 5), stride, &column_major, &optimal)) return false;
    const auto in = interp_v ? InterpOf(*interp_v) : std::nullopt;
    if (!in || in->packed || in->kind == Interp::kE4M3 || in->kind == Interp::kE5M2) {
      return Fail("interpretation", i,
                  "MatrixInterpretation must be a constant float or integer "
                  "type that atomics can add");
    }
    interp = *in;
  }
  // The atomic works on the array's own element type, which must be the accumulation type.
  const auto ut = Scalar(a.unit);
  if (a.lanes != 1 || !ut || ut->is_float != interp.is_float() || ut->width != interp.bits ||
      ut->encoding != ~0u) {
    return Fail("accumulate-type", i,
                "atomics add into the array's own elements: its element type must be the "
                "accumulation type (" +
                    std::string(interp.is_float() ? "float" : "int") + std::to_string(interp.bits) +
                    ")");
  }
  if (interp.is_float()) {
    const bool allowed = interp.bits == 16   ? features_.atomic_float_add16
                         : interp.bits == 32 ? features_.atomic_float_add32
                                             : features_.atomic_float_add64;
    const uint32_t cap = interp.bits == 16   ? kCapAtomicFloat16AddEXT
                         : interp.bits == 32 ? kCapAtomicFloat32AddEXT
                                             : kCapAtomicFloat64AddEXT;
    const char* feature = interp.bits == 16   ? "atomic-float16-add"
                          : interp.bits == 32 ? "atomic-float32-add"
                                              : "atomic-float64-add";
    if (!allowed && caps_.count(cap) == 0) {
      return Fail("atomic-float-add", i,
                  std::string("accumulating float") + std::to_string(interp.bits) +
                      " needs an atomic float add: pass --lower-coop-vector=" + feature +
                      " when the target supports it");
    }
    RequireCapability(cap);
    // OpAtomicFAddEXT is SPV_EXT_shader_atomic_float_add's; the float16 capability is
    // SPV_EXT_shader_atomic_float16_add's.
    RequireExtension("SPV_EXT_shader_atomic_float_add");
    if (interp.bits == 16) RequireExtension("SPV_EXT_shader_atomic_float16_add");
  } else if (interp.bits == 64) {
    RequireCapability(kCapInt64Atomics);
  }
  if (memory_model_value_ == kMemoryModelVulkan) {
    RequireCapability(kCapVulkanMemoryModelDeviceScope);
    // Core from SPIR-V 1.5; before, SPV_KHR_vulkan_memory_model's (which the module then has).
    if (m_.header().version < 0x00010500) RequireExtension("SPV_KHR_vulkan_memory_model");
  }
  const Id scope = U32(kScopeDevice), semantics = U32(0);
  const uint32_t bytes = interp.bits / 8;
  // An optimal matrix read as row- or column-major: M x N (A's and B's component counts).
  if (optimal) stride = TightStride(column_major, va->count, vb->count, bytes);
  const Id acc_type = a.unit;
  const Source sa = Spill(first, true);
  auto atomic_add = [&](Id byte_offset, Id value) {
    const Id index = UnitIndex(byte_offset, bytes);
    const Id p = Emit(Op::AccessChain, Ptr(a.storage, acc_type), {a.ptr, index});
    Emit(interp.is_float() ? Op::AtomicFAddEXT : Op::AtomicIAdd, acc_type,
         {p, scope, semantics, value});
  };
  if (!outer_product) {
    Loop(va->count, [&](Id n) {
      atomic_add(UAdd(offset, UMul(n, U32(bytes))),
                 Convert(Component(sa, n, -1), va->elem, acc_type, ct->is_signed));
    });
  } else {
    const Source sb = Spill(m_.word(i, 4), true);
    const bool a_signed = ct->is_signed;
    Loop(va->count, [&](Id m) {
      const Id am = Convert(Component(sa, m, -1), va->elem, acc_type, a_signed);
      Loop(vb->count, [&](Id n) {
        const Id bn = Convert(Component(sb, n, -1), vb->elem, acc_type, a_signed);
        const Id product = Emit(interp.is_float() ? Op::FMul : Op::IMul, acc_type, {am, bn});
        const Id major = column_major ? n : m, minor = column_major ? m : n;
        atomic_add(UAdd(offset, UAdd(UMul(major, stride), UMul(minor, U32(bytes)))), product);
      });
    });
  }
  b_.Remove(i);
  return true;
}

// ---- The pass

PassResult Lowering::Run() {
  bool has_coop_vector = false;
  for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
    const Op op = m_.opcode(i);
    if (op == Op::Capability) {
      caps_.insert(m_.word(i, 1));
      has_coop_vector |= m_.word(i, 1) == kCapCooperativeVectorNV;
    } else if (op == Op::Extension) {
      const ir::Inst inst = m_.inst(i);
      exts_.insert(StringAt(inst, 1));
    } else if (op == Op::ExtInstImport) {
      const ir::Inst inst = m_.inst(i);
      if (StringAt(inst, 2) == "GLSL.std.450") {
        glsl_ = m_.result_id(i);
      }
    } else if (op == Op::MemoryModel) {
      memory_model_ = i;
      memory_model_value_ = m_.word(i, 2);
    }
  }
  const bool lower_long = features_.lower_long_vectors && caps_.count(kCapLongVectorEXT) != 0;
  if (!has_coop_vector && !lower_long) return PassResult::Unchanged();
  if (memory_model_ == ir::kNoInst) return PassResult::Failed("the module has no OpMemoryModel");
  // With SPV_EXT_long_vector kept, opcode 5288 is already a vector of any length: it stays.
  const bool keep_long_vectors = caps_.count(kCapLongVectorEXT) != 0 && !lower_long;

  // Long OpTypeVectors (1 or more than 4 components) are lowered as OpTypeVectorIdEXT of a
  // constant count is: a constant for the count is declared just before the type.
  std::vector<InstIndex> long_types;
  if (lower_long) {
    Id uint32 = 0;
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      const Op op = m_.opcode(i);
      if (op == Op::TypeInt && m_.word(i, 2) == 32 && m_.word(i, 3) == 0 && uint32 == 0) {
        uint32 = m_.result_id(i);
      }
      if (op != Op::TypeVector) continue;
      const uint32_t n = m_.word(i, 3);
      if (n >= 2 && n <= 4) continue;
      b_.SetInsertBefore(i);
      if (uint32 == 0) uint32 = b_.Add(Op::TypeInt, 0, {32, 0});
      long_counts_.emplace(m_.result_id(i), b_.Add(Op::Constant, uint32, {n}));
      long_types.push_back(i);
    }
  }

  // Types, in place under the same ids.
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    const bool long_type = m_.opcode(i) == Op::TypeVector && long_counts_.count(m_.result_id(i));
    if (m_.opcode(i) != Op::TypeVectorIdEXT && !long_type) continue;
    VecInfo v{m_.result_id(i), m_.word(i, 2), m_.word(i, 3), std::nullopt, false};
    if (long_type) {
      v.count = long_counts_.at(v.type);
      v.known = m_.word(i, 3);
    }
    // Long vectors may have Boolean components.
    const bool bool_ok = lower_long && m_.DefOpcode(v.elem) == Op::TypeBool;
    const auto count_type = long_type ? Scalar(UInt(32)) : Scalar(m_.TypeOf(v.count));
    if ((!Scalar(v.elem) && !bool_ok) || !count_type || count_type->is_float ||
        (!long_type && !ir::IsConstant(m_.DefOpcode(v.count)))) {
      Fail("type", i, "needs a scalar Component Type and a constant integer Component Count");
      return PassResult::Failed(error_);
    }
    const InstIndex c = long_type ? ir::kNoInst : m_.Def(v.count);
    if (c != ir::kNoInst && m_.opcode(c) == Op::Constant) v.known = m_.word(c, 3);
    v.as_vector = keep_long_vectors || (v.known && *v.known >= 2 && *v.known <= 4);
    if (keep_long_vectors) {
      // Same instruction, now a long vector once CooperativeVectorNV is gone.
    } else if (v.as_vector) {
      const uint32_t words[3] = {v.type, v.elem, *v.known};
      b_.Replace(i, Op::TypeVector, words);
    } else {
      const uint32_t words[3] = {v.type, v.elem, v.count};
      b_.Replace(i, Op::TypeArray, words);
    }
    vecs_.emplace(v.type, v);
  }

  // An array has no layout of its own in Uniform, StorageBuffer, PushConstant or
  // PhysicalStorageBuffer memory (its ArrayStride would also apply where the type lives in
  // Function memory): long vectors there are refused.
  if (lower_long) {
    std::set<Id> holds;  // Types that are, or hold, a vector that becomes an array.
    for (const auto& [id, v] : vecs_) {
      if (!v.as_vector) holds.insert(id);
    }
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      const Op op = m_.opcode(i);
      if (op == Op::TypeArray || op == Op::TypeRuntimeArray) {
        if (holds.count(m_.word(i, 2))) holds.insert(m_.result_id(i));
      } else if (op == Op::TypeStruct) {
        for (uint32_t w = 2; w < m_.num_words(i); ++w) {
          if (holds.count(m_.word(i, w))) holds.insert(m_.result_id(i));
        }
      } else if (op == Op::TypePointer && holds.count(m_.word(i, 3))) {
        const uint32_t sc = m_.word(i, 2);
        if (sc != kStorageFunction && sc != kStoragePrivate && sc != kStorageWorkgroup) {
          Fail("long-vector-memory", i,
               "a long vector in memory with an explicit layout (Uniform, StorageBuffer, "
               "PushConstant, PhysicalStorageBuffer) cannot become an array");
          return PassResult::Failed(error_);
        }
      }
    }
  }

  // Replicated constants of a known count become plain composites (a spec-constant or huge count
  // keeps the replicated form, and so SPV_EXT_replicated_composites).
  uint32_t replicates = 0;
  for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
    const Op op = m_.opcode(i);
    if (op != Op::ConstantCompositeReplicateEXT && op != Op::SpecConstantCompositeReplicateEXT &&
        op != Op::CompositeConstructReplicateEXT) {
      continue;
    }
    ++replicates;
    const VecInfo* v = Vec(m_.type_id(i));
    if (op == Op::CompositeConstructReplicateEXT || !v || !v->known ||
        *v->known > kMaxExpandedReplicate) {
      continue;
    }
    std::vector<uint32_t> words = {m_.type_id(i), m_.result_id(i)};
    words.insert(words.end(), *v->known, m_.word(i, 3));
    b_.Replace(
        i,
        op == Op::ConstantCompositeReplicateEXT ? Op::ConstantComposite : Op::SpecConstantComposite,
        words);
    ++replicates_lowered_;
  }

  // Code, function by function, block by block.
  for (const ir::Function& f : m_.functions()) {
    if (f.num_blocks == 0) continue;
    entry_label_ = m_.blocks()[f.first_block].label;
    std::map<Id, Id> tails;  // Original block label -> the label its end now has.
    for (const ir::Block& block : m_.blocks(f)) {
      const Id label = m_.result_id(block.label);
      cur_label_ = label;
      site_in_loop_header_ = false;
      for (InstIndex i = block.label; i < block.end; ++i) {
        site_in_loop_header_ |= m_.opcode(i) == Op::LoopMerge;
      }
      for (InstIndex i = block.label + 1; i < block.end; ++i) {
        site_ = i;
        if (!LowerInstruction(i) || !error_.empty()) return PassResult::Failed(error_);
      }
      if (cur_label_ != label) tails.emplace(label, cur_label_);
    }
    if (tails.empty()) continue;
    // Phis naming a split block as a predecessor now name its last part.
    for (InstIndex i = f.def; i < f.end; ++i) {
      if (m_.opcode(i) != Op::Phi) continue;
      std::vector<uint32_t> words(m_.inst(i).words.begin() + 1, m_.inst(i).words.end());
      bool changed = false;
      for (size_t w = 3; w < words.size(); w += 2) {
        if (auto it = tails.find(words[w]); it != tails.end()) {
          words[w] = it->second;
          changed = true;
        }
      }
      if (changed) b_.Replace(i, Op::Phi, words);
    }
  }

  // Capabilities and extensions: the extension's go, and replicated composites' when no
  // replicated composite is left.
  const bool replicates_left = replicates_lowered_ < replicates;
  InstIndex last_capability = 0;
  for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
    const Op op = m_.opcode(i);
    if (op == Op::Capability) {
      last_capability = i;
      const uint32_t cap = m_.word(i, 1);
      if (cap == kCapCooperativeVectorNV || cap == kCapCooperativeVectorTrainingNV ||
          (cap == kCapLongVectorEXT && lower_long) ||
          (cap == kCapReplicatedCompositesEXT && !replicates_left)) {
        b_.Remove(i);
      }
    } else if (op == Op::Extension) {
      const std::string name = StringAt(m_.inst(i), 1);
      if (name == "SPV_NV_cooperative_vector" || (name == "SPV_EXT_long_vector" && lower_long) ||
          (name == "SPV_EXT_replicated_composites" && !replicates_left)) {
        b_.Remove(i);
      }
    }
  }
  b_.SetInsertAfter(last_capability);
  for (uint32_t cap : new_caps_) b_.Add(Op::Capability, 0, {cap});
  for (const std::string& ext : new_exts_) {
    b_.Add(Op::Extension, 0, std::span<const uint32_t>(ir::Builder::StringWords(ext)));
  }

  return FinishMergingDeclarations(b_);
}

class LowerCoopVectorPass : public Pass {
 public:
  explicit LowerCoopVectorPass(Features features) : features_(features) {}
  const char* name() const override { return "lower-coop-vector"; }
  PassResult Run(ir::Module& module) override { return Lowering(module, features_).Run(); }

 private:
  Features features_;
};

}  // namespace

std::unique_ptr<Pass> CreateLowerCoopVectorPass(std::string_view argument, std::string* error) {
  Features features;
  while (!argument.empty()) {
    const size_t comma = argument.find(',');
    const std::string_view item = argument.substr(0, comma);
    if (item == "atomic-float16-add") {
      features.atomic_float_add16 = true;
    } else if (item == "atomic-float32-add") {
      features.atomic_float_add32 = true;
    } else if (item == "atomic-float64-add") {
      features.atomic_float_add64 = true;
    } else if (item == "lower-long-vectors") {
      features.lower_long_vectors = true;
    } else if (item == "optimal-as-row-major" || item == "optimal-as-column-major") {
      const int as = item == "optimal-as-column-major" ? 1 : 0;
      if (features.optimal_as >= 0 && features.optimal_as != as) {
        *error = "optimal-as-row-major and optimal-as-column-major exclude each other";
        return nullptr;
      }
      features.optimal_as = as;
    } else {
      *error = "unknown target feature '" + std::string(item) +
               "' (expected atomic-float16-add, atomic-float32-add, atomic-float64-add, "
               "optimal-as-row-major, optimal-as-column-major or lower-long-vectors)";
      return nullptr;
    }
    argument = comma == std::string_view::npos ? std::string_view() : argument.substr(comma + 1);
  }
  return std::make_unique<LowerCoopVectorPass>(features);
}

}  // namespace coopspv::opt
