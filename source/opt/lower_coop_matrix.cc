// --lower-coop-matrix=<subgroup size>: rewrites Subgroup-scope cooperative matrices
// (SPV_KHR_cooperative_matrix and SPV_NV_cooperative_matrix) into plain SPIR-V: arrays,
// scalar arithmetic, memory accesses and subgroup shuffles, so that a driver without the
// extensions runs the module with the same result. The module must then run with a subgroup of
// exactly S invocations (S = the argument; e.g. requiredSubgroupSize), all of them active where
// the original used a matrix (which the extensions already require).
//
// --lower-coop-matrix=<S>,tile: the grid distributions below; without ",tile" every matrix is
// linear (as described below for kLinear), which suits CPU drivers.
//
// Element distribution (coop_matrix_distribution.h; --fold-coop-length with the same argument
// assumes the same). Per matrix type, from its Use and shape, on a gr x gc grid of the
// subgroup's invocations (lane = SubgroupLocalInvocationId = lr * gc + lc): an Accumulator is a
// register tile (rows lr, lr + gr, ... by columns lc, lc + gc, ...), a MatrixA holds the whole
// rows of its grid row (replicated over the grid row's invocations), a MatrixB the whole columns
// of its grid column; so a multiply-add reads only the invocation's own slots. NV matrices (no
// Use) and shapes the grid does not divide are linear: the R x C elements numbered row-major,
// e = r * C + c, element e in invocation e % S, slot e / S. A matrix type becomes OpTypeArray of
// its component type with L slots (L = ceil(R * C / S) when linear; the type keeps its id:
// variables, parameters, OpPhi, OpSelect, OpLoad / OpStore, OpCopyObject, OpUndef, OpConstantNull,
// OpCompositeExtract / Insert and access chains into a matrix stay as they are, and index the same
// slots). Slot j of a linear matrix's invocation `lane` with j * S + lane >= R * C is padding: no
// load or store touches memory for it, and arithmetic on it computes nothing anyone reads (an
// integer divisor there is replaced by 1).
//
// Who reads what from whom:
// - OpCooperativeMatrixLength{KHR,NV}: the constant L.
// - Constants, OpCompositeConstruct(ReplicateEXT): every slot holds the one constituent.
// - Load / store (KHR RowMajor / ColumnMajor, NV column-major flag): each invocation reads or
//   writes only its own elements (of a replicated matrix, only the copies of grid column / row 0
//   are stored; grid distributions of up to 256 slots are straight-line code on SSA values, and
//   whole rows of a MatrixA (columns of a MatrixB) in memory of wider pointees are read a pointee
//   at a time: LoadWholeUnits); slot j
//   is element (row, column) (for linear: e = j * S + lane at (e / C, e % C)) and lives at
//   Pointer[major * Stride] plus minor component-sized steps (major = row for RowMajor, column for
//   ColumnMajor), where Stride counts the pointee type, which may differ from the component type
//   (the memory is reinterpreted: a wider pointee scalar is loaded and split with OpBitcast to a
//   vector, narrower ones are gathered; eight pieces go through two 32-bit halves, as a vector has
//   at most four components). A store through a wider scalar writes whole words: the invocation
//   holding the first element of a word fetches the others of the word with shuffles (StoreWide).
//   Pointer arithmetic rewrites the access chain that made Pointer, adding to its last index
//   (OpPtrAccessChain for PhysicalStorageBuffer pointers). Memory operands carry over to every
//   scalar access, Aligned lowered to the access's size.
// - Element-wise arithmetic, OpMatrixTimesScalar, conversions, OpSelect before SPIR-V 1.4: each
//   invocation combines its own slots; no exchange. Bfloat16 / float8 components compute in f32.
//   An operand of another distribution (a conversion between Uses) is brought to the result's
//   first (Relayout: for each slot, one shuffle round per source slot).
// - OpCooperativeMatrixMulAdd{KHR,NV} of grid-distributed A, B and C (LowerMulAddLocal): result
//   slot (i, j) is C's slot (i, j) plus the sum over k of A slot i * K + k times B slot
//   k * (N / gc) + j, in the order of k, at the arithmetic precision below; straight-line code on
//   SSA values up to 8192 multiply-adds, loops above. Any other OpCooperativeMatrixMulAdd: the
//   operands not linear are brought to the linear distribution (Relayout), then: Result (M x N)
//   element (r, c) in slot j of `lane` is C(r, c) (same invocation and slot) plus the sum over k
//   of A(r, k) * B(k, c). A and B are first converted to the arithmetic type of the result (sign-
//   or zero-extended by the Matrix{A,B}SignedComponents operands, or by the NV types' signedness).
//   For each slot j and each k, every invocation fetches A element r * K + k from invocation (r * K
//   + k) % S, slot (r * K + k) / S, with OpGroupNonUniformShuffle. A shuffle sends one value per
//   invocation, so the fetch loops over the source slots that some invocation wants (uniform
//   bounds: the rows r0..r1 that slot j covers give slots (r0 * K + k) / S .. (r1 * K + k) / S); in
//   each round every invocation sends that slot of its A and keeps what it receives when that is
//   the slot it wants. B element k * N + c is fetched the same way over the columns slot j covers.
//   When S divides N, slot j lies in one row, so each fetch is one shuffle of one slot (for B, from
//   the invocation itself). Products and sums are at the result's precision (wrapping for
//   integers); with SaturatingAccumulation the sum of products is added to C saturating, signed
//   when MatrixResultSignedComponents is set. The k loop runs 4 (or 2) steps per iteration: drivers
//   may cap the loop iterations of an invocation (Mesa's llvmpipe stops every loop of an
//   invocation after 65535 iterations in all, which a long chain of multiply-adds reaches).
//
// Not lowered (the pass fails naming the instruction): Workgroup-scope matrices, matrix types
// whose Rows / Columns / Scope are not constants (run --freeze-spec-const --fold-spec-const
// first), layouts other than RowMajor / ColumnMajor (e.g. the ARM blocked ones), the matrix2 and
// tensor-addressing instructions, stores through a pointer whose scalar is wider than the
// component type when the matrix's minor dimension is not a multiple of the ratio (the last word
// of a row would reach past the matrix), and any other instruction on a matrix.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "source/common/literal.h"
#include "source/grammar/elementwise.h"
#include "source/ir/analyses.h"
#include "source/ir/declarations.h"
#include "source/ir/scalar_eval.h"
#include "source/opt/coop_matrix_distribution.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;
using Reuse = ir::Declarations::Reuse;

// Slot loops of at most this many iterations are emitted as straight-line code.
constexpr uint32_t kUnrollLimit = 4;

constexpr uint32_t U(auto e) { return static_cast<uint32_t>(e); }

struct Scalar {
  Id type = 0;
  bool is_float = false;
  uint32_t width = 0;
  bool is_signed = false;
  bool encoded = false;  // A float with an FP encoding (bfloat16, float8): no arithmetic.
};

struct Matrix {
  Id type = 0;
  Scalar component;
  uint32_t rows = 0, cols = 0, length = 0;
  CoopDistribution dist = CoopDistribution::kLinear;
};

// Straight-line code (SSA values, constant slot indexes) for loads, stores and multiply-adds of
// at most this many slots (multiply-adds: slots times K); loops over Function arrays above.
constexpr uint32_t kStraightLimit = 256;
constexpr uint32_t kStraightMulAddLimit = 8192;

// Where a load or store finds its elements.
struct Memory {
  Id pointer_type = 0;
  uint32_t storage_class = 0;
  Scalar scalar;       // The pointee, or its vector's component.
  uint32_t count = 1;  // Components of the pointee.
  uint32_t bytes = 0;  // Size of the pointee.
  Op chain = Op::Nop;  // The access chain that made the pointer (Nop: use OpPtrAccessChain).
  std::vector<Id> chain_operands;  // Base, then indexes; the last one moves.
  Id pointer = 0;
  Id stride = 0;  // As uint32.
  bool column_major = false;
  std::vector<uint32_t> memory_operands;
};

bool IsMatrixTypeOp(Op op) {
  return op == Op::TypeCooperativeMatrixKHR || op == Op::TypeCooperativeMatrixNV;
}

// SPV_NV_cooperative_matrix2, SPV_NV_tensor_addressing, SPV_QCOM_cooperative_matrix_conversion.
bool IsMatrix2Op(Op op) {
  switch (op) {
    case Op::CooperativeMatrixConvertUseEXT:
    case Op::CooperativeMatrixGetCoordinateEXT:
    case Op::CooperativeMatrixReduceEXT:
    case Op::CooperativeMatrixLoadTensorNV:
    case Op::CooperativeMatrixStoreTensorNV:
    case Op::CooperativeMatrixPerElementOpEXT:
    case Op::CooperativeMatrixTransposeNV:
    case Op::TypeTensorLayoutNV:
    case Op::TypeTensorViewNV:
    case Op::CreateTensorLayoutNV:
    case Op::TensorLayoutSetDimensionNV:
    case Op::TensorLayoutSetStrideNV:
    case Op::TensorLayoutSliceNV:
    case Op::TensorLayoutSetClampValueNV:
    case Op::TensorLayoutSetBlockSizeNV:
    case Op::CreateTensorViewNV:
    case Op::TensorViewSetDimensionNV:
    case Op::TensorViewSetStrideNV:
    case Op::TensorViewSetClipNV:
    case Op::BitCastArrayQCOM:
    case Op::CompositeConstructCoopMatQCOM:
    case Op::CompositeExtractCoopMatQCOM:
    case Op::ExtractSubArrayQCOM:
      return true;
    default:
      return false;
  }
}

// The element-wise arithmetic: the opcodes of SPV_KHR_cooperative_matrix's list, and
// OpMatrixTimesScalar, whose scalar is broadcast.
bool IsArithmetic(Op op) {
  return grammar::IsCoopMatrixArithmetic(op) || op == Op::MatrixTimesScalar;
}

// Instructions whose meaning on the array is the meaning on the matrix.
bool KeepsMeaning(Op op) {
  switch (op) {
    case Op::Load:
    case Op::Store:
    case Op::CopyObject:
    case Op::CopyLogical:
    case Op::Phi:
    case Op::Variable:
    case Op::FunctionParameter:
    case Op::FunctionCall:
    case Op::ReturnValue:
    case Op::Undef:
    case Op::CompositeExtract:
    case Op::CompositeInsert:
    case Op::CompositeConstruct:  // Of an aggregate of matrices (a matrix's is lowered above).
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
    case Op::ExtInst:
    case Op::ExtInstWithForwardRefsKHR:
      return true;
    default:
      return false;
  }
}

class Lowering {
 public:
  Lowering(const ir::Module& m, const CoopDistributionChoice& choice)
      : m_(m),
        choice_(choice),
        s_(choice.subgroup_size),
        grid_(GridOf(choice.subgroup_size)),
        next_id_(m.bound()) {}

  std::unique_ptr<ir::Module> Run(std::string* error, bool* changed);
  // Lower only these matrix types (LowerCoopMatrixTypes: closed under the instructions that
  // relate types); the others keep their types and instructions.
  void set_only(std::set<Id> types) { only_ = std::move(types); }

 private:
  // ---- Diagnostics
  std::string Describe(InstIndex i) const { return DescribeInstruction(m_, i); }
  void Fail(InstIndex i, const std::string& what) {
    if (error_.empty()) error_ = Describe(i) + ": " + what;
  }
  bool failed() const { return !error_.empty(); }

  // ---- Facts about the input
  std::optional<Scalar> ScalarOf(Id type) const {
    const InstIndex d = m_.Def(type);
    if (d == ir::kNoInst) return std::nullopt;
    Scalar s;
    s.type = type;
    if (m_.opcode(d) == Op::TypeInt) {
      s.width = m_.word(d, 2);
      s.is_signed = m_.word(d, 3) != 0;
      return s;
    }
    if (m_.opcode(d) == Op::TypeFloat) {
      s.is_float = true;
      s.width = m_.word(d, 2);
      s.encoded = m_.num_words(d) > 3;
      return s;
    }
    return std::nullopt;
  }
  const Matrix* MatrixOf(Id type) const {
    auto it = matrices_.find(type);
    return it == matrices_.end() ? nullptr : &it->second;
  }
  const Matrix* MatrixValue(Id value) const { return MatrixOf(m_.TypeOf(value)); }
  // A cooperative matrix type that set_only leaves as it is.
  bool Kept(Id type) const {
    return !only_.empty() && !only_.count(type) && IsMatrixTypeOp(m_.DefOpcode(type));
  }
  bool ScanMatrixTypes();

  // ---- Declarations (global, deduplicated; found in the module first where allowed)
  Id Declare(std::vector<uint32_t>& section, Op op, std::initializer_list<uint32_t> operands,
             Reuse reuse = Reuse::kModule) {
    return declarations_.FindOrAppend(op, operands, reuse, &section, &next_id_);
  }
  Id TypeInt(uint32_t width, bool is_signed) {
    return Declare(scalar_types_, Op::TypeInt, {width, is_signed ? 1u : 0u});
  }
  Id U32() { return TypeInt(32, false); }
  Id TypeFloat(uint32_t width) { return Declare(scalar_types_, Op::TypeFloat, {width}); }
  Id TypeBool() { return Declare(scalar_types_, Op::TypeBool, {}); }
  Id TypeVector(Id component, uint32_t n) {
    return Declare(derived_, Op::TypeVector, {component, n});
  }
  Id TypePointer(uint32_t storage_class, Id pointee) {
    return Declare(derived_, Op::TypePointer, {storage_class, pointee});
  }
  Id TypeArray(Id element, uint32_t length) {
    return Declare(derived_, Op::TypeArray, {element, ConstU32(length)});
  }
  Id Const(Id type, std::initializer_list<uint32_t> literal) {
    std::vector<uint32_t> operands{type};
    operands.insert(operands.end(), literal.begin(), literal.end());
    return declarations_.FindOrAppend(Op::Constant, operands, Reuse::kModule, &constants_,
                                      &next_id_);
  }
  Id ConstU32(uint32_t v) {
    const Id id = Const(U32(), {v});
    u32_values_[id] = v;
    return id;
  }
  std::optional<uint32_t> KnownU32(Id id) const {
    auto it = u32_values_.find(id);
    return it == u32_values_.end() ? std::nullopt : std::optional<uint32_t>(it->second);
  }
  Id Null(Id scalar_type) { return Declare(constants_, Op::ConstantNull, {scalar_type}); }
  Id ConstBits(const Scalar& t, uint64_t bits) {
    if (t.width == 64) return Const(t.type, {uint32_t(bits), uint32_t(bits >> 32)});
    if (t.width < 32) {
      bits &= (uint64_t{1} << t.width) - 1;
      if (t.is_signed && (bits >> (t.width - 1)) & 1) bits |= ~((uint64_t{1} << t.width) - 1);
    }
    return Const(t.type, {uint32_t(bits)});
  }
  Scalar F32() {
    Scalar s;
    s.type = TypeFloat(32);
    s.is_float = true;
    s.width = 32;
    return s;
  }
  void NeedCapability(spv::Capability c) { capabilities_.push_back(U(c)); }
  Id LaneVariable();

  // ---- Function bodies
  Id EmitV(Op op, Id type, std::span<const uint32_t> operands, Id result = 0) {
    if (!result) result = next_id_++;
    body_.push_back(((uint32_t(operands.size()) + 3) << 16) | U(op));
    body_.push_back(type);
    body_.push_back(result);
    body_.insert(body_.end(), operands.begin(), operands.end());
    return result;
  }
  Id Emit(Op op, Id type, std::initializer_list<uint32_t> operands, Id result = 0) {
    return EmitV(op, type, std::span<const uint32_t>(operands.begin(), operands.size()), result);
  }
  void EmitVoid(Op op, std::initializer_list<uint32_t> operands) { Put(body_, op, operands); }
  void StartBlock(Id label) {
    Put(body_, Op::Label, {label});
    label_ = label;
  }
  Id Lane() { return Emit(Op::Load, U32(), {LaneVariable()}); }
  Id Temp(Id type, uint32_t n);
  Id SlotPointer(Id var, Id element_type, Id index) {
    return Emit(Op::AccessChain, TypePointer(U(spv::StorageClass::Function), element_type),
                {var, index});
  }
  Id LoadSlot(Id var, Id element_type, Id index) {
    return Emit(Op::Load, element_type, {SlotPointer(var, element_type, index)});
  }
  void StoreSlot(Id var, Id element_type, Id index, Id value) {
    EmitVoid(Op::Store, {SlotPointer(var, element_type, index), value});
  }
  // uint32 arithmetic, folded where both operands are constants this pass made (slot indexes of
  // straight-line code), and where one is the identity.
  Id Add(Id a, Id b) {
    const auto x = KnownU32(a), y = KnownU32(b);
    if (x && y) return ConstU32(*x + *y);
    if (x == 0u) return b;
    if (y == 0u) return a;
    return Emit(Op::IAdd, U32(), {a, b});
  }
  Id Mul(Id a, Id b) {
    const auto x = KnownU32(a), y = KnownU32(b);
    if (x && y) return ConstU32(*x * *y);
    if (x == 0u || y == 1u) return a;
    if (y == 0u || x == 1u) return b;
    return Emit(Op::IMul, U32(), {a, b});
  }
  Id Div(Id a, Id b) {
    const auto x = KnownU32(a), y = KnownU32(b);
    if (x && y && *y) return ConstU32(*x / *y);
    if (y == 1u) return a;
    return Emit(Op::UDiv, U32(), {a, b});
  }
  Id Mod(Id a, Id b) {
    const auto x = KnownU32(a), y = KnownU32(b);
    if (x && y && *y) return ConstU32(*x % *y);
    if (y == 1u) return ConstU32(0);
    return Emit(Op::UMod, U32(), {a, b});
  }
  Id Less(Id a, Id b) { return Emit(Op::ULessThan, TypeBool(), {a, b}); }
  Id Select(Id type, Id cond, Id a, Id b) { return Emit(Op::Select, type, {cond, a, b}); }

  struct Loop {
    Id header, cont, merge, counter, next;
  };
  Loop BeginLoop(Id begin, Id end);
  void EndLoop(const Loop& loop);
  template <class Body>
  void ForEach(uint32_t count, Body body) {
    if (count <= kUnrollLimit) {
      for (uint32_t j = 0; j < count; ++j) body(ConstU32(j));
      return;
    }
    const Loop loop = BeginLoop(ConstU32(0), ConstU32(count));
    body(loop.counter);
    EndLoop(loop);
  }
  template <class Body>
  void If(Id condition, Body body) {
    const Id then = next_id_++, merge = next_id_++;
    EmitVoid(Op::SelectionMerge, {merge, 0});
    EmitVoid(Op::BranchConditional, {condition, then, merge});
    StartBlock(then);
    body();
    EmitVoid(Op::Branch, {merge});
    StartBlock(merge);
  }
  // For every element slot of a matrix: the full slots in a loop, then the padded last slot
  // guarded by lane < R * C % S.
  template <class Body>
  void ForEachElement(const Matrix& mat, Id lane, Body body) {
    const uint32_t elements = mat.rows * mat.cols;
    ForEach(elements / s_, body);
    if (elements % s_) {
      If(Less(lane, ConstU32(elements % s_)), [&] { body(ConstU32(elements / s_)); });
    }
  }

  Id Convert(Id value, const Scalar& from, const Scalar& to, bool from_signed);

  // ---- Distributions (coop_matrix_distribution.h)
  struct LaneIds {
    Id lane, grid_row, grid_col;  // lane = grid_row * gc + grid_col.
  };
  LaneIds LaneParts() {
    const Id lane = Lane();
    return {lane, Div(lane, ConstU32(grid_.cols)), Mod(lane, ConstU32(grid_.cols))};
  }
  std::pair<Id, Id> Position(const Matrix& mat, const LaneIds& l, Id j);
  std::pair<Id, Id> Owner(const Matrix& mat, Id row, Id col);
  Id Primary(const Matrix& mat, const LaneIds& l);
  Matrix Distributed(const Matrix& shape, CoopDistribution dist, const Scalar& component);
  Id Relayout(Id source, const Matrix& from, const Matrix& to);
  Scalar ArithmeticType(const Scalar& s) { return s.is_float && s.encoded ? F32() : s; }

  // ---- Lowerings
  bool LowerFunction(const ir::Function& f);
  bool NeedsBlocks(InstIndex i) const;
  // A matrix instruction on a type set_only keeps: copied as it is.
  bool KeptInstruction(InstIndex i) const;
  void Lower(InstIndex i);
  void LowerElementwise(InstIndex i, const Matrix& result);
  void LowerLoadStore(InstIndex i);
  void LowerMulAdd(InstIndex i);
  void LowerMulAddLocal(InstIndex i, const Matrix& r, const Matrix& ma, const Matrix& mb,
                        const Matrix& mc, uint32_t operands);
  Id Fetch(Id source, Id dest, const Scalar& t, Id want, Id first, Id last, bool one_round);
  void StoreWide(InstIndex i, const Memory& mem, const Matrix& mat, Id var);
  void LoadStoreDistributed(InstIndex i, const Memory& mem, const Matrix& mat, Id object);
  bool LoadWholeUnits(InstIndex i, const Memory& mem, const Matrix& mat, const LaneIds& l);
  std::vector<uint32_t> Split(Id value, uint32_t bytes, Id part_type, uint32_t part_bytes);
  Id Join(const std::vector<uint32_t>& parts, Id part_type, Id type);
  Id SaturatingAdd(const Scalar& t, Id p, Id c, bool is_signed);
  bool DescribeMemory(InstIndex i, Id pointer, Memory* mem);
  Id Advance(const Memory& mem, Id k);
  Id ScalarPointer(const Memory& mem, const Matrix& mat, Id row, Id col, uint32_t extra_bytes,
                   Id* byte_offset);
  std::vector<uint32_t> AccessOperands(const Memory& mem, uint32_t bytes) const;
  Id LoadElement(const Memory& mem, const Matrix& mat, Id row, Id col);
  void StoreElement(InstIndex i, const Memory& mem, const Matrix& mat, Id row, Id col, Id value);

  const ir::Module& m_;
  const CoopDistributionChoice choice_;
  const uint32_t s_;
  const SubgroupGrid grid_;
  Id next_id_;
  std::string error_;
  std::map<Id, Matrix> matrices_;
  std::set<Id> only_;      // Empty: every matrix type.
  bool kept_any_ = false;  // Some matrix type stays (set_only).
  std::map<Id, uint32_t> u32_values_;  // The uint32 constants ConstU32 made or found.

  // Output pieces, assembled by Run().
  std::vector<uint32_t> scalar_types_;  // Placed first in the global section.
  std::vector<uint32_t> constants_;     // After them.
  std::vector<uint32_t> derived_;       // At the end of the global section.
  std::vector<uint32_t> decorations_;
  std::vector<uint32_t> capabilities_;
  ir::Declarations declarations_{m_};
  std::set<Id> strided_;  // PhysicalStorageBuffer pointer types given an ArrayStride.
  Id lane_variable_ = 0;

  // The function being lowered.
  std::vector<uint32_t> body_;
  std::vector<uint32_t> function_variables_;
  std::map<std::pair<Id, uint32_t>, Id> temps_;
  std::map<Id, uint32_t> temps_used_;  // Per lowered instruction.
  Id label_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Declarations

Id Lowering::LaneVariable() {
  if (lane_variable_) return lane_variable_;
  NeedCapability(spv::Capability::GroupNonUniform);
  lane_variable_ = FindInputBuiltin(m_, spv::BuiltIn::SubgroupLocalInvocationId);
  if (lane_variable_) return lane_variable_;
  const Id pointer = TypePointer(U(spv::StorageClass::Input), U32());
  lane_variable_ = next_id_++;
  Put(derived_, Op::Variable, {pointer, lane_variable_, U(spv::StorageClass::Input)});
  Put(decorations_, Op::Decorate,
      {lane_variable_, U(spv::Decoration::BuiltIn), U(spv::BuiltIn::SubgroupLocalInvocationId)});
  return lane_variable_;
}

// Function variables, shared by every lowered instruction of a function: an instruction stores
// its operands, computes, and loads its result before the next one starts.
Id Lowering::Temp(Id type, uint32_t n) {
  auto [it, fresh] = temps_.emplace(std::make_pair(type, n), 0);
  if (fresh) {
    it->second = next_id_++;
    Put(function_variables_, Op::Variable,
        {TypePointer(U(spv::StorageClass::Function), type), it->second,
         U(spv::StorageClass::Function)});
  }
  return it->second;
}

bool Lowering::ScanMatrixTypes() {
  for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
    const Op op = m_.opcode(i);
    if (IsMatrix2Op(op)) {
      Fail(i, "cooperative matrix 2 and tensor-addressing instructions are not lowered");
      return false;
    }
    if (!IsMatrixTypeOp(op)) continue;
    if (Kept(m_.result_id(i))) {
      kept_any_ = true;
      continue;
    }
    if (m_.num_words(i) < 6) {
      Fail(i, "the type has too few operands");
      return false;
    }
    Matrix mat;
    mat.type = m_.result_id(i);
    const auto component = ScalarOf(m_.word(i, 2));
    const auto scope = ir::ConstantValue(m_, m_.word(i, 3));
    const auto rows = ir::ConstantValue(m_, m_.word(i, 4));
    const auto cols = ir::ConstantValue(m_, m_.word(i, 5));
    if (!scope || !rows || !cols) {
      Fail(i,
           "Scope, Rows and Columns must be constants; run --freeze-spec-const "
           "--fold-spec-const first");
      return false;
    }
    if (*scope != U(spv::Scope::Subgroup)) {
      Fail(i,
           "only Subgroup-scope matrices are lowered, not " +
               std::string(*scope == U(spv::Scope::Workgroup) ? "Workgroup"
                                                              : "scope " + std::to_string(*scope)) +
               " scope");
      return false;
    }
    if (!component || component->width < 8 || component->width > 64 || *rows == 0 || *cols == 0 ||
        uint64_t{*rows} * *cols > (uint64_t{1} << 24)) {
      Fail(i, "the component type must be a scalar of 8 to 64 bits and the size at most 2^24");
      return false;
    }
    mat.component = *component;
    mat.rows = *rows;
    mat.cols = *cols;
    std::optional<uint32_t> use;
    if (op == Op::TypeCooperativeMatrixKHR && m_.num_words(i) > 6) {
      use = ir::ConstantValue(m_, m_.word(i, 6));
    }
    mat.dist = DistributionOf(choice_, use, *rows, *cols);
    mat.length = static_cast<uint32_t>(DistributedLength(mat.dist, *rows, *cols, s_));
    if (mat.length > 60000) {
      Fail(i, "a matrix of more than 60000 elements per invocation is not lowered");
      return false;
    }
    matrices_[mat.type] = mat;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Control flow

Lowering::Loop Lowering::BeginLoop(Id begin, Id end) {
  Loop l{next_id_++, next_id_++, next_id_++, next_id_++, next_id_++};
  const Id body = next_id_++;
  const Id before = label_;
  EmitVoid(Op::Branch, {l.header});
  StartBlock(l.header);
  Emit(Op::Phi, U32(), {begin, before, l.next, l.cont}, l.counter);
  const Id more = Less(l.counter, end);
  EmitVoid(Op::LoopMerge, {l.merge, l.cont, 0});
  EmitVoid(Op::BranchConditional, {more, body, l.merge});
  StartBlock(body);
  return l;
}

void Lowering::EndLoop(const Loop& l) {
  EmitVoid(Op::Branch, {l.cont});
  StartBlock(l.cont);
  Emit(Op::IAdd, U32(), {l.counter, ConstU32(1)}, l.next);
  EmitVoid(Op::Branch, {l.header});
  StartBlock(l.merge);
}

// ---------------------------------------------------------------------------------------------
// Arithmetic helpers

Id Lowering::Convert(Id value, const Scalar& from, const Scalar& to, bool from_signed) {
  if (from.type == to.type) return value;
  if (from.is_float && to.is_float) return Emit(Op::FConvert, to.type, {value});
  if (!from.is_float && !to.is_float) {
    if (from.width == to.width) return Emit(Op::Bitcast, to.type, {value});
    if (from_signed) return Emit(Op::SConvert, to.type, {value});
    if (!to.is_signed) return Emit(Op::UConvert, to.type, {value});
    // OpUConvert yields an unsigned type.
    const Id wide = Emit(Op::UConvert, TypeInt(to.width, false), {value});
    return Emit(Op::Bitcast, to.type, {wide});
  }
  if (!from.is_float)
    return Emit(from_signed ? Op::ConvertSToF : Op::ConvertUToF, to.type, {value});
  return Emit(to.is_signed ? Op::ConvertFToS : Op::ConvertFToU, to.type, {value});
}

Id Lowering::SaturatingAdd(const Scalar& t, Id p, Id c, bool is_signed) {
  const Id sum = Emit(Op::IAdd, t.type, {p, c});
  const Id boolean = TypeBool();
  if (!is_signed) {
    const Id overflow = Emit(Op::ULessThan, boolean, {sum, p});
    return Select(t.type, overflow, ConstBits(t, ~uint64_t{0}), sum);
  }
  // Overflow when p and c have the same sign and the sum has the other.
  const Id zero = Null(t.type);
  const Id p_negative = Emit(Op::SLessThan, boolean, {p, zero});
  const Id c_negative = Emit(Op::SLessThan, boolean, {c, zero});
  const Id s_negative = Emit(Op::SLessThan, boolean, {sum, zero});
  const Id same = Emit(Op::LogicalEqual, boolean, {p_negative, c_negative});
  const Id flipped = Emit(Op::LogicalNotEqual, boolean, {s_negative, p_negative});
  const Id overflow = Emit(Op::LogicalAnd, boolean, {same, flipped});
  const uint64_t max = (uint64_t{1} << (t.width - 1)) - 1;
  const Id limit = Select(t.type, p_negative, ConstBits(t, ~max), ConstBits(t, max));
  return Select(t.type, overflow, limit, sum);
}

// ---------------------------------------------------------------------------------------------
// Distributions

// The row and column of the element in slot j of invocation l.lane (past the matrix for the
// padding of a kLinear matrix).
std::pair<Id, Id> Lowering::Position(const Matrix& mat, const LaneIds& l, Id j) {
  const Id gr = ConstU32(grid_.rows), gc = ConstU32(grid_.cols), cols = ConstU32(mat.cols);
  switch (mat.dist) {
    case CoopDistribution::kLinear: {
      const Id e = Add(Mul(j, ConstU32(s_)), l.lane);
      return {Div(e, cols), Mod(e, cols)};
    }
    case CoopDistribution::kTile: {
      const Id nc = ConstU32(mat.cols / grid_.cols);
      return {Add(Mul(Div(j, nc), gr), l.grid_row), Add(Mul(Mod(j, nc), gc), l.grid_col)};
    }
    case CoopDistribution::kRows:
      return {Add(Mul(Div(j, cols), gr), l.grid_row), Mod(j, cols)};
    case CoopDistribution::kCols: {
      const Id nc = ConstU32(mat.cols / grid_.cols);
      return {Div(j, nc), Add(Mul(Mod(j, nc), gc), l.grid_col)};
    }
  }
  return {};
}

// An invocation and slot that hold element (row, col) (of a replicated one, the copy in grid
// column or row 0).
std::pair<Id, Id> Lowering::Owner(const Matrix& mat, Id row, Id col) {
  const Id gr = ConstU32(grid_.rows), gc = ConstU32(grid_.cols), cols = ConstU32(mat.cols);
  const Id nc = ConstU32(mat.cols / grid_.cols);
  switch (mat.dist) {
    case CoopDistribution::kLinear: {
      const Id e = Add(Mul(row, cols), col);
      return {Mod(e, ConstU32(s_)), Div(e, ConstU32(s_))};
    }
    case CoopDistribution::kTile:
      return {Add(Mul(Mod(row, gr), gc), Mod(col, gc)), Add(Mul(Div(row, gr), nc), Div(col, gc))};
    case CoopDistribution::kRows:
      return {Mul(Mod(row, gr), gc), Add(Mul(Div(row, gr), cols), col)};
    case CoopDistribution::kCols:
      return {Mod(col, gc), Add(Mul(row, nc), Div(col, gc))};
  }
  return {};
}

// For a replicated distribution, whether this invocation holds the copy that stores write
// (grid column 0 for kRows, grid row 0 for kCols); 0 when every invocation writes its own.
Id Lowering::Primary(const Matrix& mat, const LaneIds& l) {
  if (mat.dist == CoopDistribution::kRows && grid_.cols > 1) {
    return Emit(Op::IEqual, TypeBool(), {l.grid_col, ConstU32(0)});
  }
  if (mat.dist == CoopDistribution::kCols && grid_.rows > 1) {
    return Emit(Op::IEqual, TypeBool(), {l.grid_row, ConstU32(0)});
  }
  return 0;
}

// The shape of `shape` in distribution `dist`, with components `component`: its own type when
// that is what it is, else an array of the right length.
Matrix Lowering::Distributed(const Matrix& shape, CoopDistribution dist, const Scalar& component) {
  if (shape.dist == dist && shape.component.type == component.type) return shape;
  Matrix out = shape;
  out.dist = dist;
  out.component = component;
  out.length = static_cast<uint32_t>(DistributedLength(dist, shape.rows, shape.cols, s_));
  out.type = TypeArray(component.type, out.length);
  return out;
}

// The elements of `from` (in the Function variable `source`) in the distribution of `to` (same
// shape and component type), in a new Function variable. For each slot of `to`, every
// invocation takes part in one shuffle per slot of `from`, keeping what arrives from the slot
// it wants: slow, for what the distributions of coop_matrix_distribution.h do not make local
// (shapes the subgroup grid does not divide mixed with those it does, conversions between Uses,
// stores through wider scalars).
Id Lowering::Relayout(Id source, const Matrix& from, const Matrix& to) {
  NeedCapability(spv::Capability::GroupNonUniformShuffle);
  const Id type = from.component.type;
  const Id dest = Temp(to.type, temps_used_[to.type]++);
  const Id got = Temp(type, temps_used_[type]++);
  const Id scope = ConstU32(U(spv::Scope::Subgroup));
  const LaneIds l = LaneParts();
  ForEach(to.length, [&](Id j) {
    const auto [row, col] = Position(to, l, j);
    const auto [owner, slot] = Owner(from, row, col);
    const Loop round = BeginLoop(ConstU32(0), ConstU32(from.length));
    const Id mine = LoadSlot(source, type, round.counter);
    const Id v = Emit(Op::GroupNonUniformShuffle, type, {scope, mine, owner});
    const Id keep = Emit(Op::IEqual, TypeBool(), {slot, round.counter});
    EmitVoid(Op::Store, {got, Select(type, keep, v, Emit(Op::Load, type, {got}))});
    EndLoop(round);
    StoreSlot(dest, type, j, Emit(Op::Load, type, {got}));
  });
  return dest;
}

// ---------------------------------------------------------------------------------------------
// Element-wise operations: each invocation combines its own slots.

void Lowering::LowerElementwise(InstIndex i, const Matrix& result) {
  const Op op = m_.opcode(i);
  const bool arithmetic = IsArithmetic(op);
  const Scalar rt = arithmetic ? ArithmeticType(result.component) : result.component;
  struct Source {
    Id var = 0;  // A matrix operand's temporary, or 0 for a scalar operand.
    Id value = 0;
    Scalar s;
  };
  std::vector<Source> sources;
  for (uint32_t w = 3; w < m_.num_words(i); ++w) {
    Source src;
    const Id id = m_.word(i, w);
    if (const Matrix* mat = MatrixValue(id)) {
      src.var = Temp(mat->type, temps_used_[mat->type]++);
      EmitVoid(Op::Store, {src.var, id});
      src.s = mat->component;
      if (mat->dist != result.dist) {
        // A conversion between Uses of different distributions.
        src.var = Relayout(src.var, *mat, Distributed(result, result.dist, mat->component));
      }
    } else {
      src.value = id;
      if (auto s = ScalarOf(m_.TypeOf(id))) src.s = *s;  // Unset for OpSelect's condition.
    }
    sources.push_back(src);
  }
  const Id out = Temp(result.type, temps_used_[result.type]++);
  Op scalar_op = op;
  if (op == Op::MatrixTimesScalar) scalar_op = rt.is_float ? Op::FMul : Op::IMul;
  // An integer divisor in a padding slot may be anything, 0 included: use 1 there.
  const uint32_t elements = result.rows * result.cols;
  const bool guard_divisor = (op == Op::SDiv || op == Op::UDiv) && elements % s_ != 0 &&
                             result.dist == CoopDistribution::kLinear;
  const Id lane = guard_divisor ? Lane() : 0;
  ForEach(result.length, [&](Id j) {
    std::vector<uint32_t> values;
    for (const Source& src : sources) {
      Id v = src.var ? LoadSlot(src.var, src.s.type, j) : src.value;
      if (arithmetic && src.s.type != rt.type) v = Convert(v, src.s, rt, src.s.is_signed);
      values.push_back(v);
    }
    if (guard_divisor) {
      const Id padding = Emit(Op::UGreaterThanEqual, TypeBool(),
                              {Add(Mul(j, ConstU32(s_)), lane), ConstU32(elements)});
      values[1] = Select(rt.type, padding, ConstBits(rt, 1), values[1]);
    }
    Id r = EmitV(scalar_op, rt.type, values);
    if (rt.type != result.component.type) r = Convert(r, rt, result.component, true);
    StoreSlot(out, result.component.type, j, r);
  });
  Emit(Op::Load, result.type, {out}, m_.result_id(i));
}

// ---------------------------------------------------------------------------------------------
// Loads and stores: each invocation reads and writes its own elements.

bool Lowering::DescribeMemory(InstIndex i, Id pointer, Memory* mem) {
  mem->pointer = pointer;
  mem->pointer_type = m_.TypeOf(pointer);
  const InstIndex pt = m_.Def(mem->pointer_type);
  if (pt == ir::kNoInst || m_.opcode(pt) != Op::TypePointer) {
    Fail(i, "the pointer's type is not an OpTypePointer");
    return false;
  }
  mem->storage_class = m_.word(pt, 2);
  const Id pointee = m_.word(pt, 3);
  const InstIndex pd = m_.Def(pointee);
  Id scalar_type = pointee;
  if (pd != ir::kNoInst && m_.opcode(pd) == Op::TypeVector) {
    scalar_type = m_.word(pd, 2);
    mem->count = m_.word(pd, 3);
  }
  const auto s = ScalarOf(scalar_type);
  if (!s || s->width < 8) {
    Fail(i, "the pointer must point to a scalar or vector of 8- to 64-bit components");
    return false;
  }
  mem->scalar = *s;
  mem->bytes = s->width / 8 * (mem->count == 3 ? 4 : mem->count);
  if (mem->count == 3) {
    // A 3-component vector's array stride is not its size; the layout is the decoration's.
    Fail(i, "a pointer to a 3-component vector is not lowered");
    return false;
  }
  // The access chain that made the pointer moves by its last index.
  Id p = pointer;
  while (m_.DefOpcode(p) == Op::CopyObject) p = m_.word(m_.Def(p), 3);
  const InstIndex d = m_.Def(p);
  const Op op = d == ir::kNoInst ? Op::Nop : m_.opcode(d);
  if ((op == Op::AccessChain || op == Op::InBoundsAccessChain || op == Op::PtrAccessChain ||
       op == Op::InBoundsPtrAccessChain) &&
      m_.num_words(d) > 4) {
    mem->chain = op == Op::InBoundsAccessChain      ? Op::AccessChain
                 : op == Op::InBoundsPtrAccessChain ? Op::PtrAccessChain
                                                    : op;
    for (uint32_t w = 3; w < m_.num_words(d); ++w) mem->chain_operands.push_back(m_.word(d, w));
    const auto index = ScalarOf(m_.TypeOf(mem->chain_operands.back()));
    if (!index || index->is_float || (index->width != 32 && index->width != 64)) {
      Fail(i, "the pointer's last access-chain index must be a 32- or 64-bit integer");
      return false;
    }
    return true;
  }
  if (mem->storage_class == U(spv::StorageClass::PhysicalStorageBuffer)) {
    mem->chain = Op::Nop;  // OpPtrAccessChain on the pointer, whose type gets an ArrayStride.
    bool has_stride = false;
    for (InstIndex a = 0; a < m_.global_end(); ++a) {
      if (m_.opcode(a) == Op::Decorate && m_.word(a, 1) == mem->pointer_type &&
          m_.word(a, 2) == U(spv::Decoration::ArrayStride)) {
        has_stride = true;
      }
    }
    if (!has_stride) {
      if (strided_.insert(mem->pointer_type).second) {
        Put(decorations_, Op::Decorate,
            {mem->pointer_type, U(spv::Decoration::ArrayStride), mem->bytes});
      }
    }
    return true;
  }
  Fail(i, "the pointer %" + std::to_string(pointer) +
              " is not made by an access chain into an array, so the elements past it cannot be "
              "addressed");
  return false;
}

// The pointer k pointee-sized steps past the matrix's pointer.
Id Lowering::Advance(const Memory& mem, Id k) {
  if (mem.chain == Op::Nop) return Emit(Op::PtrAccessChain, mem.pointer_type, {mem.pointer, k});
  std::vector<uint32_t> operands(mem.chain_operands.begin(), mem.chain_operands.end());
  const Id last = operands.back();
  const Id last_type = m_.TypeOf(last);
  const auto index = ScalarOf(last_type);
  if (index->width == 64) k = Emit(Op::UConvert, TypeInt(64, false), {k});
  operands.back() = Emit(Op::IAdd, last_type, {last, k});
  return EmitV(mem.chain, mem.pointer_type, operands);
}

// A pointer to the memory scalar that holds byte `extra_bytes` of element (row, col); the
// element's byte offset from the matrix's pointer goes to *byte_offset (0 when not computed).
Id Lowering::ScalarPointer(const Memory& mem, const Matrix& mat, Id row, Id col,
                           uint32_t extra_bytes, Id* byte_offset) {
  const Id major = mem.column_major ? col : row;
  const Id minor = mem.column_major ? row : col;
  const uint32_t component_bytes = mat.component.width / 8;
  const uint32_t scalar_bytes = mem.scalar.width / 8;
  *byte_offset = 0;
  if (mem.count == 1 && scalar_bytes == component_bytes) {
    return Advance(mem, Add(Mul(major, mem.stride), minor));
  }
  Id offset =
      Add(Mul(Mul(major, mem.stride), ConstU32(mem.bytes)), Mul(minor, ConstU32(component_bytes)));
  *byte_offset = offset;
  if (extra_bytes) offset = Add(offset, ConstU32(extra_bytes));
  Id p = Advance(mem, Div(offset, ConstU32(mem.bytes)));
  if (mem.count > 1) {
    const Id q = Div(Mod(offset, ConstU32(mem.bytes)), ConstU32(scalar_bytes));
    p = Emit(Op::AccessChain, TypePointer(mem.storage_class, mem.scalar.type), {p, q});
  }
  return p;
}

// The Memory Semantics storage bit of a storage class whose memory an availability or
// visibility operation covers (0: none that a memory barrier names).
uint32_t StorageSemantics(uint32_t storage_class) {
  switch (static_cast<spv::StorageClass>(storage_class)) {
    case spv::StorageClass::Workgroup:
      return U(spv::MemorySemantics::WorkgroupMemory);
    case spv::StorageClass::StorageBuffer:
    case spv::StorageClass::PhysicalStorageBuffer:
    case spv::StorageClass::Uniform:
      return U(spv::MemorySemantics::UniformMemory);
    case spv::StorageClass::CrossWorkgroup:
      return U(spv::MemorySemantics::CrossWorkgroupMemory);
    case spv::StorageClass::Image:
      return U(spv::MemorySemantics::ImageMemory);
    case spv::StorageClass::Output:
      return U(spv::MemorySemantics::OutputMemory);
    default:
      return 0;
  }
}

// Removes MakePointerAvailable or MakePointerVisible (`bit`) and its Scope from memory operands
// (mask, then the parameters in the order of their bits: Aligned's literal, then
// MakePointerAvailable's and MakePointerVisible's scopes); returns the scope, 0 without it.
Id TakeScopedAccess(std::vector<uint32_t>* operands, spv::MemoryAccess bit) {
  if (operands->empty() || ((*operands)[0] & U(bit)) == 0) return 0;
  const uint32_t mask = (*operands)[0];
  size_t at = 1 + ((mask & U(spv::MemoryAccess::Aligned)) ? 1 : 0);
  if (bit == spv::MemoryAccess::MakePointerVisible &&
      (mask & U(spv::MemoryAccess::MakePointerAvailable))) {
    ++at;
  }
  if (at >= operands->size()) return 0;
  const Id scope = (*operands)[at];
  operands->erase(operands->begin() + static_cast<std::ptrdiff_t>(at));
  (*operands)[0] &= ~U(bit);
  return scope;
}

// The memory operands for one access of `bytes` bytes: Aligned becomes at most that size.
std::vector<uint32_t> Lowering::AccessOperands(const Memory& mem, uint32_t bytes) const {
  std::vector<uint32_t> out = mem.memory_operands;
  if (!out.empty() && (out[0] & U(spv::MemoryAccess::Volatile)) == 0 && false) return out;
  if (!out.empty() && (out[0] & U(spv::MemoryAccess::Aligned))) {
    // Aligned's literal is the first parameter (it is the lowest bit that takes one).
    out[1] = std::min(out[1], bytes);
  }
  return out;
}

// A scalar of `bytes` bytes as its pieces of `part_bytes` bytes (type `part_type`), lowest
// first: one OpBitcast to a vector, or, for 8 pieces (a vector has at most 4), through two
// 32-bit words.
std::vector<uint32_t> Lowering::Split(Id value, uint32_t bytes, Id part_type, uint32_t part_bytes) {
  const uint32_t n = bytes / part_bytes;
  std::vector<uint32_t> parts;
  if (n <= 4) {
    const Id vec = Emit(Op::Bitcast, TypeVector(part_type, n), {value});
    for (uint32_t k = 0; k < n; ++k)
      parts.push_back(Emit(Op::CompositeExtract, part_type, {vec, k}));
    return parts;
  }
  const Id words = Emit(Op::Bitcast, TypeVector(U32(), 2), {value});
  for (uint32_t w = 0; w < 2; ++w) {
    const Id word = Emit(Op::CompositeExtract, U32(), {words, w});
    const Id vec = Emit(Op::Bitcast, TypeVector(part_type, 4), {word});
    for (uint32_t k = 0; k < 4; ++k)
      parts.push_back(Emit(Op::CompositeExtract, part_type, {vec, k}));
  }
  return parts;
}

// The inverse of Split: the pieces, lowest first, as one scalar of type `type`.
Id Lowering::Join(const std::vector<uint32_t>& parts, Id part_type, Id type) {
  const uint32_t n = static_cast<uint32_t>(parts.size());
  if (n <= 4) {
    return Emit(Op::Bitcast, type,
                {EmitV(Op::CompositeConstruct, TypeVector(part_type, n), parts)});
  }
  std::vector<uint32_t> words;
  for (uint32_t w = 0; w < 2; ++w) {
    const std::vector<uint32_t> four(parts.begin() + 4 * w, parts.begin() + 4 * w + 4);
    words.push_back(
        Emit(Op::Bitcast, U32(), {EmitV(Op::CompositeConstruct, TypeVector(part_type, 4), four)}));
  }
  return Emit(Op::Bitcast, type, {EmitV(Op::CompositeConstruct, TypeVector(U32(), 2), words)});
}

Id Lowering::LoadElement(const Memory& mem, const Matrix& mat, Id row, Id col) {
  const uint32_t cb = mat.component.width / 8, sb = mem.scalar.width / 8;
  const Scalar& c = mat.component;
  auto load = [&](Id pointer) {
    std::vector<uint32_t> operands = {pointer};
    for (uint32_t w : AccessOperands(mem, sb)) operands.push_back(w);
    return EmitV(Op::Load, mem.scalar.type, operands);
  };
  Id offset = 0;
  if (sb == cb) {
    const Id v = load(ScalarPointer(mem, mat, row, col, 0, &offset));
    return v == 0 || mem.scalar.type == c.type ? v : Emit(Op::Bitcast, c.type, {v});
  }
  if (sb > cb) {
    // The scalar holds sb / cb components: split it and take ours (8 of them: first the
    // 32-bit half that holds ours).
    Id word = load(ScalarPointer(mem, mat, row, col, 0, &offset));
    Id in_word = Mod(offset, ConstU32(sb));
    if (sb / cb > 4) {
      const Id halves = Emit(Op::Bitcast, TypeVector(U32(), 2), {word});
      word = Emit(Op::VectorExtractDynamic, U32(), {halves, Div(in_word, ConstU32(4))});
      in_word = Mod(in_word, ConstU32(4));
    }
    const uint32_t n = std::min(sb, 4u) / cb;
    const Id vec = Emit(Op::Bitcast, TypeVector(c.type, n), {word});
    return Emit(Op::VectorExtractDynamic, c.type, {vec, Div(in_word, ConstU32(cb))});
  }
  // The component spans cb / sb scalars: gather them.
  std::vector<uint32_t> parts;
  for (uint32_t k = 0; k < cb / sb; ++k) {
    parts.push_back(load(ScalarPointer(mem, mat, row, col, k * sb, &offset)));
  }
  return Join(parts, mem.scalar.type, c.type);
}

void Lowering::StoreElement(InstIndex i, const Memory& mem, const Matrix& mat, Id row, Id col,
                            Id value) {
  const uint32_t cb = mat.component.width / 8, sb = mem.scalar.width / 8;
  auto store = [&](Id pointer, Id v) {
    std::vector<uint32_t> operands = {pointer, v};
    for (uint32_t w : AccessOperands(mem, sb)) operands.push_back(w);
    Put(body_, Op::Store, operands);
  };
  Id offset = 0;
  if (sb == cb) {
    if (mem.scalar.type != mat.component.type) {
      value = Emit(Op::Bitcast, mem.scalar.type, {value});
    }
    store(ScalarPointer(mem, mat, row, col, 0, &offset), value);
    return;
  }
  const std::vector<uint32_t> parts = Split(value, cb, mem.scalar.type, sb);
  for (uint32_t k = 0; k < cb / sb; ++k) {
    store(ScalarPointer(mem, mat, row, col, k * sb, &offset), parts[k]);
  }
}

void Lowering::LowerLoadStore(InstIndex i) {
  const Op op = m_.opcode(i);
  const bool load = op == Op::CooperativeMatrixLoadKHR || op == Op::CooperativeMatrixLoadNV;
  const bool nv = op == Op::CooperativeMatrixLoadNV || op == Op::CooperativeMatrixStoreNV;
  // Operand words after the result (load) or from the first operand (store).
  const uint32_t first = load ? 3 : 1;
  const Id pointer = m_.word(i, first);
  const Id object = load ? 0 : m_.word(i, first + 1);
  const uint32_t rest = load ? first + 1 : first + 2;  // Layout (KHR) or Stride (NV).
  if (m_.num_words(i) < rest + (nv ? 2 : 1)) return Fail(i, "too few operands");
  const Matrix* mat = load ? MatrixOf(m_.type_id(i)) : MatrixValue(object);
  if (!mat) return Fail(i, "the matrix type is not a cooperative matrix");
  Memory mem;
  Id stride = 0;
  uint32_t memory_at = 0;
  if (nv) {
    stride = m_.word(i, rest);
    const Op flag = m_.DefOpcode(m_.word(i, rest + 1));
    if (flag != Op::ConstantTrue && flag != Op::ConstantFalse) {
      return Fail(i, "ColumnMajor must be OpConstantTrue or OpConstantFalse");
    }
    mem.column_major = flag == Op::ConstantTrue;
    memory_at = rest + 2;
  } else {
    const auto layout = ir::ConstantValue(m_, m_.word(i, rest));
    if (!layout || *layout > 1) {
      return Fail(i, "only the RowMajorKHR and ColumnMajorKHR layouts are lowered");
    }
    mem.column_major = *layout == 1;
    if (m_.num_words(i) <= rest + 1) return Fail(i, "the Stride operand is missing");
    stride = m_.word(i, rest + 1);
    memory_at = rest + 2;
  }
  for (uint32_t w = memory_at; w < m_.num_words(i); ++w) {
    mem.memory_operands.push_back(m_.word(i, w));
  }
  if (!DescribeMemory(i, pointer, &mem)) return;
  // SPV_KHR_vulkan_memory_model: the access's MakePointerAvailable (store) or MakePointerVisible
  // (load) becomes one OpMemoryBarrier at its scope after the element stores (Release |
  // MakeAvailable) or before the element loads (Acquire | MakeVisible), for the pointer's storage
  // class: the same availability or visibility of the same elements, once rather than per
  // element. lavapipe (Mesa 22.3) lost writes of a subgroup's loop of per-element
  // MakePointerAvailable stores to Workgroup memory (ggml's conv2d_f32_cm2 staging its result
  // through shared memory; test/run/ggml/staged_store).
  Id available_scope = 0;
  const uint32_t storage_semantics = StorageSemantics(mem.storage_class);
  if (storage_semantics != 0) {
    if (load) {
      if (const Id scope =
              TakeScopedAccess(&mem.memory_operands, spv::MemoryAccess::MakePointerVisible)) {
        EmitVoid(Op::MemoryBarrier,
                 {scope, ConstU32(U(spv::MemorySemantics::Acquire) |
                                  U(spv::MemorySemantics::MakeVisible) | storage_semantics)});
      }
    } else {
      available_scope =
          TakeScopedAccess(&mem.memory_operands, spv::MemoryAccess::MakePointerAvailable);
    }
  }
  auto make_available = [&] {
    if (!available_scope) return;
    EmitVoid(Op::MemoryBarrier, {available_scope, ConstU32(U(spv::MemorySemantics::Release) |
                                                           U(spv::MemorySemantics::MakeAvailable) |
                                                           storage_semantics)});
  };
  const auto stride_type = ScalarOf(m_.TypeOf(stride));
  if (!stride_type || stride_type->is_float) return Fail(i, "Stride must be an integer");
  mem.stride = stride_type->width == 32 ? stride : Emit(Op::UConvert, U32(), {stride});

  // Every way of storing the elements, then the one availability barrier.
  auto lower = [&] {
    if (!load && mem.scalar.width > mat->component.width) {
      Id var = Temp(mat->type, temps_used_[mat->type]++);
      EmitVoid(Op::Store, {var, object});
      if (mat->dist == CoopDistribution::kLinear) return StoreWide(i, mem, *mat, var);
      const Matrix linear = Distributed(*mat, CoopDistribution::kLinear, mat->component);
      return StoreWide(i, mem, linear, Relayout(var, *mat, linear));
    }
    if (mat->dist != CoopDistribution::kLinear) return LoadStoreDistributed(i, mem, *mat, object);
    const Id lane = Lane();
    const Id var = Temp(mat->type, temps_used_[mat->type]++);
    if (!load) EmitVoid(Op::Store, {var, object});
    ForEachElement(*mat, lane, [&](Id j) {
      const Id e = Add(Mul(j, ConstU32(s_)), lane);
      const Id row = Div(e, ConstU32(mat->cols));
      const Id col = Mod(e, ConstU32(mat->cols));
      if (load) {
        StoreSlot(var, mat->component.type, j, LoadElement(mem, *mat, row, col));
      } else {
        StoreElement(i, mem, *mat, row, col, LoadSlot(var, mat->component.type, j));
      }
    });
    if (load) Emit(Op::Load, mat->type, {var}, m_.result_id(i));
  };
  lower();
  make_available();
}

// The grid distributions (no padding): straight-line code for up to kStraightLimit slots, the
// loaded elements gathered with OpCompositeConstruct, the stored ones taken with
// OpCompositeExtract; a replicated matrix is stored by its primary copies only.
void Lowering::LoadStoreDistributed(InstIndex i, const Memory& mem, const Matrix& mat, Id object) {
  const bool load = object == 0;
  const LaneIds l = LaneParts();
  const Id component = mat.component.type;
  if (load) {
    if (mat.length <= kStraightLimit && LoadWholeUnits(i, mem, mat, l)) return;
    if (mat.length <= kStraightLimit) {
      std::vector<uint32_t> values;
      for (uint32_t j = 0; j < mat.length; ++j) {
        const auto [row, col] = Position(mat, l, ConstU32(j));
        values.push_back(LoadElement(mem, mat, row, col));
      }
      EmitV(Op::CompositeConstruct, mat.type, values, m_.result_id(i));
      return;
    }
    const Id var = Temp(mat.type, temps_used_[mat.type]++);
    ForEach(mat.length, [&](Id j) {
      const auto [row, col] = Position(mat, l, j);
      StoreSlot(var, component, j, LoadElement(mem, mat, row, col));
    });
    Emit(Op::Load, mat.type, {var}, m_.result_id(i));
    return;
  }
  auto store = [&] {
    if (mat.length <= kStraightLimit) {
      for (uint32_t j = 0; j < mat.length; ++j) {
        const auto [row, col] = Position(mat, l, ConstU32(j));
        StoreElement(i, mem, mat, row, col, Emit(Op::CompositeExtract, component, {object, j}));
      }
      return;
    }
    const Id var = Temp(mat.type, temps_used_[mat.type]++);
    EmitVoid(Op::Store, {var, object});
    ForEach(mat.length, [&](Id j) {
      const auto [row, col] = Position(mat, l, j);
      StoreElement(i, mem, mat, row, col, LoadSlot(var, component, j));
    });
  };
  if (const Id primary = Primary(mat, l)) {
    If(primary, store);
  } else {
    store();
  }
}

// A kRows matrix read from row-major memory (a kCols one from column-major memory) whose memory
// pointee is wider than a component (e.g. f16 through uvec4 Workgroup arrays): each invocation
// reads whole lines of the matrix, which start at a pointee boundary (Stride counts pointees),
// so each pointee is loaded once and split into its components, instead of one access per
// element. Returns false (emitting nothing) when the matrix or memory is not of that kind.
bool Lowering::LoadWholeUnits(InstIndex i, const Memory& mem, const Matrix& mat, const LaneIds& l) {
  const uint32_t cb = mat.component.width / 8, sb = mem.scalar.width / 8;
  const bool rows = mat.dist == CoopDistribution::kRows && !mem.column_major;
  const bool cols = mat.dist == CoopDistribution::kCols && mem.column_major;
  const uint32_t line = rows ? mat.cols : mat.rows;  // Elements along the minor axis.
  if ((!rows && !cols) || sb < cb || mem.bytes <= cb || (line * cb) % mem.bytes != 0) return false;
  const Id pointee = m_.word(m_.Def(mem.pointer_type), 3);
  const uint32_t lines = rows ? mat.rows / grid_.rows : mat.cols / grid_.cols;
  const uint32_t units = line * cb / mem.bytes;
  std::vector<uint32_t> values(mat.length);
  for (uint32_t n = 0; n < lines; ++n) {
    const Id major = rows ? Add(ConstU32(n * grid_.rows), l.grid_row)
                          : Add(ConstU32(n * grid_.cols), l.grid_col);
    const Id first = Mul(major, mem.stride);
    uint32_t k = 0;  // The element along the line.
    for (uint32_t u = 0; u < units; ++u) {
      std::vector<uint32_t> operands = {Advance(mem, Add(first, ConstU32(u)))};
      for (uint32_t w : AccessOperands(mem, mem.bytes)) operands.push_back(w);
      const Id unit = EmitV(Op::Load, pointee, operands);
      for (uint32_t c = 0; c < mem.count; ++c) {
        const Id scalar =
            mem.count == 1 ? unit : Emit(Op::CompositeExtract, mem.scalar.type, {unit, c});
        std::vector<uint32_t> parts;
        if (sb == cb) {
          parts.push_back(mem.scalar.type == mat.component.type
                              ? scalar
                              : Emit(Op::Bitcast, mat.component.type, {scalar}));
        } else {
          parts = Split(scalar, sb, mat.component.type, cb);
        }
        for (uint32_t part : parts) {
          // Slot of element k of line n: kRows i * K + k, kCols k * (N / gc) + j.
          values[rows ? n * line + k : k * (mat.cols / grid_.cols) + n] = part;
          ++k;
        }
      }
    }
  }
  EmitV(Op::CompositeConstruct, mat.type, values, m_.result_id(i));
  return true;
}

// A store through a pointer whose scalar holds r = (scalar bytes) / (component bytes)
// components: a memory word holds r elements that are neighbours along the minor axis and
// belong to different invocations. The invocation that holds the first of them writes the whole
// word, after fetching the other r - 1 with shuffles (every invocation takes part in every
// round, over every slot: the fetches run in uniform control flow). The minor dimension must be
// a multiple of r, or the last word of a row (column) would reach past the matrix.
void Lowering::StoreWide(InstIndex i, const Memory& mem, const Matrix& mat, Id var) {
  const uint32_t cb = mat.component.width / 8, sb = mem.scalar.width / 8;
  const uint32_t r = sb / cb;
  const uint32_t minor_size = mem.column_major ? mat.rows : mat.cols;
  if (minor_size % r != 0) {
    return Fail(i, "a store through " + std::to_string(sb * 8) + "-bit memory scalars of " +
                       std::to_string(cb * 8) + "-bit components needs the matrix's " +
                       (mem.column_major ? "rows" : "columns") + " (" + std::to_string(minor_size) +
                       ") to be a multiple of " + std::to_string(r) +
                       ": the last word would reach past the matrix");
  }
  NeedCapability(spv::Capability::GroupNonUniformShuffle);
  const uint32_t elements = mat.rows * mat.cols;
  // The element-index distance between minor neighbours (elements are numbered row by row).
  const uint32_t step = mem.column_major ? mat.cols : 1;
  const Id lane = Lane();
  const Id last = ConstU32(elements - 1);
  const Id fetched = Temp(mat.component.type, temps_used_[mat.component.type]++);
  auto clamp = [&](Id e) { return Select(U32(), Less(e, last), e, last); };
  ForEach(mat.length, [&](Id j) {
    const Id e0 = Mul(j, ConstU32(s_));
    const Id e = Add(e0, lane);
    const Id valid = Less(e, ConstU32(elements));
    const Id ec = clamp(e);  // Lanes past the last element fetch for no one.
    const Id row = Div(ec, ConstU32(mat.cols));
    const Id col = Mod(ec, ConstU32(mat.cols));
    std::vector<uint32_t> parts = {LoadSlot(var, mat.component.type, j)};
    for (uint32_t k = 1; k < r; ++k) {
      const Id d = ConstU32(k * step);
      parts.push_back(Fetch(var, fetched, mat.component, clamp(Add(ec, d)), clamp(Add(e0, d)),
                            clamp(Add(Add(e0, ConstU32(s_ - 1)), d)), false));
    }
    const Id minor = mem.column_major ? row : col;
    const Id first = Emit(Op::IEqual, TypeBool(), {Mod(minor, ConstU32(r)), ConstU32(0)});
    If(Emit(Op::LogicalAnd, TypeBool(), {valid, first}), [&] {
      const Id word = Join(parts, mat.component.type, mem.scalar.type);
      Id offset = 0;
      std::vector<uint32_t> operands = {ScalarPointer(mem, mat, row, col, 0, &offset), word};
      for (uint32_t w : AccessOperands(mem, sb)) operands.push_back(w);
      Put(body_, Op::Store, operands);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Multiply-add: see the head comment.

// Every invocation reads element `want` of the array in `source` (slot want / S of invocation
// want % S). The elements the subgroup wants lie in [first, last] (uniform), so the rounds run
// over slots first / S .. last / S, keeping in `dest` what arrives in the round of the wanted
// slot; when one slot holds them all (`one_round`), a single shuffle does. Returns the value.
Id Lowering::Fetch(Id source, Id dest, const Scalar& t, Id want, Id first, Id last,
                   bool one_round) {
  const Id s = ConstU32(s_);
  const Id scope = ConstU32(U(spv::Scope::Subgroup));
  const Id from = Mod(want, s);
  if (one_round) {
    const Id mine = LoadSlot(source, t.type, Div(first, s));
    return Emit(Op::GroupNonUniformShuffle, t.type, {scope, mine, from});
  }
  const Id slot = Div(want, s);
  const Loop round = BeginLoop(Div(first, s), Add(Div(last, s), ConstU32(1)));
  const Id mine = LoadSlot(source, t.type, round.counter);
  const Id got = Emit(Op::GroupNonUniformShuffle, t.type, {scope, mine, from});
  const Id keep = Emit(Op::IEqual, TypeBool(), {slot, round.counter});
  const Id old = Emit(Op::Load, t.type, {dest});
  EmitVoid(Op::Store, {dest, Select(t.type, keep, got, old)});
  EndLoop(round);
  return Emit(Op::Load, t.type, {dest});
}

// kRows x kCols + kTile: slot (i, j) of the invocation's result tile (rows i * gr + lr, column
// j * gc + lc) is its C slot plus the sum over k of its A slot i * K + k times its B slot
// k * (N / gc) + j, in the order of k: no exchange. Up to kStraightMulAddLimit multiply-adds are
// straight-line code on SSA values (A and B converted once); above, a loop over the result
// slots and K / unroll iterations of k on Function arrays.
void Lowering::LowerMulAddLocal(InstIndex i, const Matrix& r, const Matrix& ma, const Matrix& mb,
                                const Matrix& mc, uint32_t operands) {
  const bool nv = m_.opcode(i) == Op::CooperativeMatrixMulAddNV;
  const bool a_signed = nv ? ma.component.is_signed : (operands & 1) != 0;
  const bool b_signed = nv ? mb.component.is_signed : (operands & 2) != 0;
  const bool c_signed = nv ? mc.component.is_signed : (operands & 4) != 0;
  const bool r_signed = nv ? r.component.is_signed : (operands & 8) != 0;
  const bool saturating = (operands & 0x10) != 0 && !r.component.is_float;
  const Id a = m_.word(i, 3), b = m_.word(i, 4), c = m_.word(i, 5);
  const uint32_t K = ma.cols, tile_rows = r.rows / grid_.rows, tile_cols = r.cols / grid_.cols;
  const Scalar t = ArithmeticType(r.component);
  const Op mul = t.is_float ? Op::FMul : Op::IMul, add = t.is_float ? Op::FAdd : Op::IAdd;
  auto finish = [&](Id sum, Id cv) {
    if (saturating) sum = SaturatingAdd(t, sum, cv, r_signed);
    return Convert(sum, t, r.component, true);
  };
  auto prepared = [&](const Matrix& mat, Id value, bool is_signed) {
    const Id var = Temp(mat.type, temps_used_[mat.type]++);
    EmitVoid(Op::Store, {var, value});
    if (mat.component.type == t.type) return var;
    const Id array = TypeArray(t.type, mat.length);
    const Id converted = Temp(array, temps_used_[array]++);
    ForEach(mat.length, [&](Id j) {
      StoreSlot(converted, t.type, j,
                Convert(LoadSlot(var, mat.component.type, j), mat.component, t, is_signed));
    });
    return converted;
  };
  if (r.length * K <= kStraightMulAddLimit) {
    auto converted = [&](const Matrix& mat, Id value, bool is_signed) {
      std::vector<Id> out;
      for (uint32_t j = 0; j < mat.length; ++j) {
        out.push_back(Convert(Emit(Op::CompositeExtract, mat.component.type, {value, j}),
                              mat.component, t, is_signed));
      }
      return out;
    };
    const std::vector<Id> xa = converted(ma, a, a_signed), xb = converted(mb, b, b_signed);
    std::vector<uint32_t> results;
    for (uint32_t ti = 0; ti < tile_rows; ++ti) {
      for (uint32_t tj = 0; tj < tile_cols; ++tj) {
        const Id cv =
            Convert(Emit(Op::CompositeExtract, mc.component.type, {c, ti * tile_cols + tj}),
                    mc.component, t, c_signed);
        Id sum = saturating ? Null(t.type) : cv;
        for (uint32_t k = 0; k < K; ++k) {
          sum =
              Emit(add, t.type, {sum, Emit(mul, t.type, {xa[ti * K + k], xb[k * tile_cols + tj]})});
        }
        results.push_back(finish(sum, cv));
      }
    }
    EmitV(Op::CompositeConstruct, r.type, results, m_.result_id(i));
    return;
  }
  const uint32_t unroll = K % 4 == 0 ? 4 : K % 2 == 0 ? 2 : 1;
  const Id va = prepared(ma, a, a_signed), vb = prepared(mb, b, b_signed);
  const Id vc = Temp(mc.type, temps_used_[mc.type]++);
  EmitVoid(Op::Store, {vc, c});
  const Id out = Temp(r.type, temps_used_[r.type]++);
  const Id acc = Temp(t.type, temps_used_[t.type]++);
  ForEach(r.length, [&](Id j) {
    const Id ti = Div(j, ConstU32(tile_cols)), tj = Mod(j, ConstU32(tile_cols));
    const Id cv = Convert(LoadSlot(vc, mc.component.type, j), mc.component, t, c_signed);
    EmitVoid(Op::Store, {acc, saturating ? Null(t.type) : cv});
    const Loop k_loop = BeginLoop(ConstU32(0), ConstU32(K / unroll));
    for (uint32_t u = 0; u < unroll; ++u) {
      const Id k = Add(Mul(k_loop.counter, ConstU32(unroll)), ConstU32(u));
      const Id x = LoadSlot(va, t.type, Add(Mul(ti, ConstU32(K)), k));
      const Id y = LoadSlot(vb, t.type, Add(Mul(k, ConstU32(tile_cols)), tj));
      const Id sum = Emit(add, t.type, {Emit(Op::Load, t.type, {acc}), Emit(mul, t.type, {x, y})});
      EmitVoid(Op::Store, {acc, sum});
    }
    EndLoop(k_loop);
    StoreSlot(out, r.component.type, j, finish(Emit(Op::Load, t.type, {acc}), cv));
  });
  Emit(Op::Load, r.type, {out}, m_.result_id(i));
}

void Lowering::LowerMulAdd(InstIndex i) {
  const bool nv = m_.opcode(i) == Op::CooperativeMatrixMulAddNV;
  if (m_.num_words(i) < 6) return Fail(i, "too few operands");
  const Matrix* r = MatrixOf(m_.type_id(i));
  const Id a = m_.word(i, 3), b = m_.word(i, 4), c = m_.word(i, 5);
  const Matrix *ma = MatrixValue(a), *mb = MatrixValue(b), *mc = MatrixValue(c);
  if (!r || !ma || !mb || !mc) return Fail(i, "an operand is not a cooperative matrix");
  const uint32_t operands = !nv && m_.num_words(i) > 6 ? m_.word(i, 6) : 0;
  const bool a_signed = nv ? ma->component.is_signed : (operands & 1) != 0;
  const bool b_signed = nv ? mb->component.is_signed : (operands & 2) != 0;
  const bool c_signed = nv ? mc->component.is_signed : (operands & 4) != 0;
  const bool r_signed = nv ? r->component.is_signed : (operands & 8) != 0;
  const bool saturating = (operands & 0x10) != 0 && !r->component.is_float;
  const uint32_t M = r->rows, N = r->cols, K = ma->cols;
  if (ma->rows != M || mb->rows != K || mb->cols != N || mc->rows != M || mc->cols != N) {
    return Fail(i, "the matrix dimensions do not form an M x N x K multiply");
  }
  if (ma->dist == CoopDistribution::kRows && mb->dist == CoopDistribution::kCols &&
      mc->dist == CoopDistribution::kTile && r->dist == CoopDistribution::kTile) {
    return LowerMulAddLocal(i, *r, *ma, *mb, *mc, operands);
  }
  const Scalar t = ArithmeticType(r->component);
  NeedCapability(spv::Capability::GroupNonUniformShuffle);

  // The operands in the kLinear distribution (what the fetches below assume).
  auto linear = [&](const Matrix& mat, Id value) -> std::pair<Matrix, Id> {
    const Id var = Temp(mat.type, temps_used_[mat.type]++);
    EmitVoid(Op::Store, {var, value});
    if (mat.dist == CoopDistribution::kLinear) return {mat, var};
    const Matrix view = Distributed(mat, CoopDistribution::kLinear, mat.component);
    return {view, Relayout(var, mat, view)};
  };
  // A and B in arrays of the arithmetic type, C and the result as they are.
  auto prepared = [&](const Matrix& original, Id value, bool is_signed) {
    const auto [mat, var] = linear(original, value);
    if (mat.component.type == t.type) return var;
    const Id array = TypeArray(t.type, mat.length);
    const Id converted = Temp(array, temps_used_[array]++);
    ForEach(mat.length, [&](Id j) {
      const Id v = LoadSlot(var, mat.component.type, j);
      StoreSlot(converted, t.type, j, Convert(v, mat.component, t, is_signed));
    });
    return converted;
  };
  const Id va = prepared(*ma, a, a_signed);
  const Id vb = prepared(*mb, b, b_signed);
  const auto [lc, vc] = linear(*mc, c);
  const Matrix lr = Distributed(*r, CoopDistribution::kLinear, r->component);
  const Id out = Temp(lr.type, temps_used_[lr.type]++);
  const Id acc = Temp(t.type, temps_used_[t.type]++);
  const Id av = Temp(t.type, temps_used_[t.type]++);
  const Id bv = Temp(t.type, temps_used_[t.type]++);
  const Id lane = Lane();
  const Id cN = ConstU32(N), cK = ConstU32(K);
  // When S divides N, the S elements of a slot lie in one row of the result: every invocation
  // wants the same slot of A (row r, column k) and of B (k * N + c for S consecutive columns).
  const bool one_round = N % s_ == 0;
  // Fewer loop iterations (some drivers cap the iterations an invocation may run).
  const uint32_t unroll = K % 4 == 0 ? 4 : K % 2 == 0 ? 2 : 1;
  ForEach(lr.length, [&](Id j) {
    const Id e0 = Mul(j, ConstU32(s_));
    const Id e = Add(e0, lane);
    const Id row = Div(e, cN), col = Mod(e, cN);
    // The last element of slot j that exists, and the rows and columns the slot covers.
    const Id e1_unclamped = Add(e0, ConstU32(s_ - 1));
    const Id last = ConstU32(M * N - 1);
    const Id e1 = Select(U32(), Less(e1_unclamped, last), e1_unclamped, last);
    const Id r0 = Div(e0, cN), r1 = Div(e1, cN);
    const Id one_row = Emit(Op::IEqual, TypeBool(), {r0, r1});
    const Id c0 = Select(U32(), one_row, Mod(e0, cN), ConstU32(0));
    const Id c1 = Select(U32(), one_row, Mod(e1, cN), ConstU32(N - 1));
    const Id cv = Convert(LoadSlot(vc, lc.component.type, j), lc.component, t, c_signed);
    EmitVoid(Op::Store, {acc, saturating ? Null(t.type) : cv});
    // k runs in a loop of K / unroll iterations, `unroll` steps each.
    const Loop k_loop = BeginLoop(ConstU32(0), ConstU32(K / unroll));
    for (uint32_t u = 0; u < unroll; ++u) {
      const Id k = Add(Mul(k_loop.counter, ConstU32(unroll)), ConstU32(u));
      const Id x = Fetch(va, av, t, Add(Mul(row, cK), k), Add(Mul(r0, cK), k), Add(Mul(r1, cK), k),
                         one_round);
      const Id kN = Mul(k, cN);
      const Id y = Fetch(vb, bv, t, Add(kN, col), Add(kN, c0), Add(kN, c1), one_round);
      const Id product = Emit(t.is_float ? Op::FMul : Op::IMul, t.type, {x, y});
      const Id sum =
          Emit(t.is_float ? Op::FAdd : Op::IAdd, t.type, {Emit(Op::Load, t.type, {acc}), product});
      EmitVoid(Op::Store, {acc, sum});
    }
    EndLoop(k_loop);
    Id result = Emit(Op::Load, t.type, {acc});
    if (saturating) result = SaturatingAdd(t, result, cv, r_signed);
    StoreSlot(out, r->component.type, j, Convert(result, t, r->component, true));
  });
  Emit(Op::Load, r->type, {r->dist == CoopDistribution::kLinear ? out : Relayout(out, lr, *r)},
       m_.result_id(i));
}

// ---------------------------------------------------------------------------------------------
// Functions

bool Lowering::KeptInstruction(InstIndex i) const {
  switch (m_.opcode(i)) {
    case Op::CooperativeMatrixLoadKHR:
    case Op::CooperativeMatrixLoadNV:
    case Op::CooperativeMatrixMulAddKHR:
    case Op::CooperativeMatrixMulAddNV:
      return Kept(m_.type_id(i));
    case Op::CooperativeMatrixStoreKHR:
    case Op::CooperativeMatrixStoreNV:
      return m_.num_words(i) > 2 && Kept(m_.TypeOf(m_.word(i, 2)));
    case Op::CooperativeMatrixLengthKHR:
    case Op::CooperativeMatrixLengthNV:
      return m_.num_words(i) > 3 && Kept(m_.word(i, 3));
    default:
      return false;
  }
}

bool Lowering::NeedsBlocks(InstIndex i) const {
  switch (m_.opcode(i)) {
    case Op::CooperativeMatrixLoadKHR:
    case Op::CooperativeMatrixLoadNV:
    case Op::CooperativeMatrixMulAddKHR:
    case Op::CooperativeMatrixMulAddNV:
      return !Kept(m_.type_id(i));
    case Op::CooperativeMatrixStoreKHR:
    case Op::CooperativeMatrixStoreNV:
      return m_.num_words(i) < 3 || !Kept(m_.TypeOf(m_.word(i, 2)));
    default:
      return MatrixOf(m_.type_id(i)) != nullptr;
  }
}

void Lowering::Lower(InstIndex i) {
  temps_used_.clear();
  const Op op = m_.opcode(i);
  const Id type = m_.type_id(i);
  const Matrix* result = MatrixOf(type);
  if (!only_.empty() && KeptInstruction(i)) {
    const ir::Inst inst = m_.inst(i);
    body_.insert(body_.end(), inst.words.begin(), inst.words.end());
    return;
  }
  switch (op) {
    case Op::CooperativeMatrixLoadKHR:
    case Op::CooperativeMatrixLoadNV:
    case Op::CooperativeMatrixStoreKHR:
    case Op::CooperativeMatrixStoreNV:
      return LowerLoadStore(i);
    case Op::CooperativeMatrixMulAddKHR:
    case Op::CooperativeMatrixMulAddNV:
      return LowerMulAdd(i);
    case Op::CooperativeMatrixLengthKHR:
    case Op::CooperativeMatrixLengthNV: {
      const Matrix* mat = m_.num_words(i) > 3 ? MatrixOf(m_.word(i, 3)) : nullptr;
      if (!mat) return Fail(i, "the Type operand is not a cooperative matrix type");
      Emit(Op::CopyObject, type, {Const(type, {mat->length})}, m_.result_id(i));
      return;
    }
    default:
      break;
  }
  if (result && (op == Op::CompositeConstruct || op == Op::CompositeConstructReplicateEXT)) {
    if (m_.num_words(i) != 4) return Fail(i, "a matrix is constructed from one constituent");
    std::vector<uint32_t> constituents(result->length, m_.word(i, 3));
    EmitV(Op::CompositeConstruct, type, constituents, m_.result_id(i));
    return;
  }
  if (result && (IsArithmetic(op) || grammar::IsCoopConversion(op)))
    return LowerElementwise(i, *result);
  if (result && op == Op::Select && m_.header().version < grammar::MakeVersion(1, 4)) {
    return LowerElementwise(i, *result);  // OpSelect on a composite needs SPIR-V 1.4.
  }
  // Anything else keeps its words, if its meaning on the array is that on the matrix.
  bool touches = result != nullptr;
  const ir::Inst inst = m_.inst(i);
  for (const auto& operand : inst.operands) {
    if (!grammar::IsIdKind(operand.kind) || operand.kind == grammar::OperandKind::kIdResult ||
        operand.kind == grammar::OperandKind::kIdResultType) {
      continue;
    }
    const Id id = inst.word(operand);
    if (MatrixOf(id) || MatrixValue(id)) touches = true;
  }
  if (touches && !KeepsMeaning(op) && !(op == Op::Select)) {
    return Fail(i, "this instruction on a cooperative matrix is not lowered");
  }
  body_.insert(body_.end(), inst.words.begin(), inst.words.end());
}

bool Lowering::LowerFunction(const ir::Function& f) {
  body_.clear();
  function_variables_.clear();
  temps_.clear();
  // OpFunction and its parameters, copied.
  const InstIndex first_label =
      f.num_blocks ? m_.blocks(f)[0].label : (f.end == ir::kNoInst ? f.def + 1 : f.end);
  std::vector<uint32_t> head;
  for (InstIndex i = f.def; i < first_label; ++i) {
    const ir::Inst inst = m_.inst(i);
    head.insert(head.end(), inst.words.begin(), inst.words.end());
  }
  std::map<Id, Id> last_label;       // Original block label -> label of its last piece.
  std::vector<size_t> phis;          // Offsets in body_ of the original OpPhi instructions.
  size_t variables_at = ~size_t{0};  // Where the entry block's variables end.
  for (const ir::Block& block : m_.blocks(f)) {
    const Id label = m_.result_id(block.label);
    StartBlock(label);
    // A loop header that gets new blocks keeps its OpLoopMerge: the rest moves to a new block.
    InstIndex loop_merge = ir::kNoInst;
    bool splits = false;
    for (InstIndex i = block.label + 1; i < block.end; ++i) {
      if (m_.opcode(i) == Op::LoopMerge) loop_merge = i;
      if (NeedsBlocks(i)) splits = true;
    }
    const bool move_merge = loop_merge != ir::kNoInst && splits;
    bool past_phis = false;
    for (InstIndex i = block.label + 1; i < block.end; ++i) {
      const Op op = m_.opcode(i);
      if (op == Op::Phi) {
        phis.push_back(body_.size());
        const ir::Inst inst = m_.inst(i);
        body_.insert(body_.end(), inst.words.begin(), inst.words.end());
        continue;
      }
      if (variables_at == ~size_t{0} && op != Op::Variable && op != Op::Line && op != Op::NoLine) {
        variables_at = body_.size();
      }
      if (!past_phis && op != Op::Variable && op != Op::Line && op != Op::NoLine) {
        past_phis = true;
        if (move_merge) {
          const ir::Inst merge = m_.inst(loop_merge);
          body_.insert(body_.end(), merge.words.begin(), merge.words.end());
          const Id rest = next_id_++;
          EmitVoid(Op::Branch, {rest});
          StartBlock(rest);
        }
      }
      if (i == loop_merge && move_merge) continue;
      Lower(i);
      if (failed()) return false;
    }
    last_label[label] = label_;
  }
  // OpPhi names the block it comes from: that is now the last piece of the original block.
  for (size_t at : phis) {
    const uint32_t count = body_[at] >> 16;
    for (uint32_t w = 4; w < count; w += 2) {
      auto it = last_label.find(body_[at + w]);
      if (it != last_label.end()) body_[at + w] = it->second;
    }
  }
  if (variables_at == ~size_t{0}) variables_at = body_.size();
  head.insert(head.end(), body_.begin(), body_.begin() + variables_at);
  head.insert(head.end(), function_variables_.begin(), function_variables_.end());
  head.insert(head.end(), body_.begin() + variables_at, body_.end());
  if (f.end != ir::kNoInst) {
    const ir::Inst end = m_.inst(f.end);
    head.insert(head.end(), end.words.begin(), end.words.end());
  }
  body_ = std::move(head);
  return true;
}

// ---------------------------------------------------------------------------------------------
// The module

std::unique_ptr<ir::Module> Lowering::Run(std::string* error, bool* changed) {
  *changed = false;
  if (!ScanMatrixTypes()) {
    *error = error_;
    return nullptr;
  }
  if (matrices_.empty() && kept_any_) return nullptr;  // Only kept types.
  if (matrices_.empty()) {
    // Nothing to lower; a module may still declare the capability without using it.
    bool declares = false;
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      if (m_.opcode(i) == Op::Capability &&
          (m_.word(i, 1) == U(spv::Capability::CooperativeMatrixKHR) ||
           m_.word(i, 1) == U(spv::Capability::CooperativeMatrixNV))) {
        declares = true;
      }
    }
    if (!declares) return nullptr;
  }
  *changed = true;
  const uint32_t version = m_.header().version;

  // Where the global section starts and ends.
  InstIndex global_begin = m_.global_end();
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    if (ir::SectionOf(m_.opcode(i)) >= ir::Section::kGlobal) {
      global_begin = i;
      break;
    }
  }

  // Globals. Scalar types move to the front (they depend on nothing) so that the constants this
  // pass adds, array lengths included, can follow them.
  std::vector<uint32_t> hoisted, globals;
  for (InstIndex i = global_begin; i < m_.global_end(); ++i) {
    const Op op = m_.opcode(i);
    const ir::Inst inst = m_.inst(i);
    if (op == Op::TypeInt || op == Op::TypeFloat || op == Op::TypeBool) {
      hoisted.insert(hoisted.end(), inst.words.begin(), inst.words.end());
      continue;
    }
    if (IsMatrixTypeOp(op) && MatrixOf(m_.result_id(i))) {
      const Matrix& mat = matrices_[m_.result_id(i)];
      const Id length = Declare(constants_, Op::Constant, {U32(), mat.length}, Reuse::kNever);
      Put(globals, Op::TypeArray, {mat.type, mat.component.type, length});
      continue;
    }
    const Matrix* mat = MatrixOf(m_.type_id(i));
    if (mat &&
        (op == Op::ConstantComposite || op == Op::SpecConstantComposite ||
         op == Op::ConstantCompositeReplicateEXT || op == Op::SpecConstantCompositeReplicateEXT)) {
      if (m_.num_words(i) != 4) {
        Fail(i, "a matrix constant has one constituent");
        break;
      }
      const bool spec =
          op == Op::SpecConstantComposite || op == Op::SpecConstantCompositeReplicateEXT;
      std::vector<uint32_t> words = {mat->type, m_.result_id(i)};
      words.insert(words.end(), mat->length, m_.word(i, 3));
      Put(globals, spec ? Op::SpecConstantComposite : Op::ConstantComposite, words);
      continue;
    }
    if (op == Op::SpecConstantOp && m_.num_words(i) == 5 &&
        (m_.word(i, 3) == U(Op::CooperativeMatrixLengthKHR) ||
         m_.word(i, 3) == U(Op::CooperativeMatrixLengthNV))) {
      const Matrix* length_of = MatrixOf(m_.word(i, 4));
      if (!length_of && Kept(m_.word(i, 4))) {
        globals.insert(globals.end(), inst.words.begin(), inst.words.end());
        continue;
      }
      if (!length_of) {
        Fail(i, "the Type operand is not a cooperative matrix type");
        break;
      }
      Put(globals, Op::Constant, {m_.type_id(i), m_.result_id(i), length_of->length});
      continue;
    }
    globals.insert(globals.end(), inst.words.begin(), inst.words.end());
  }

  // Functions.
  std::vector<uint32_t> functions;
  for (const ir::Function& f : m_.functions()) {
    if (failed() || !LowerFunction(f)) break;
    functions.insert(functions.end(), body_.begin(), body_.end());
  }
  if (!failed() && lane_variable_ && version < grammar::MakeVersion(1, 3)) {
    error_ = "the lowering uses subgroup operations, which need SPIR-V 1.3 or later";
  }
  if (failed()) {
    *error = error_;
    return nullptr;
  }

  // Capabilities: the matrix ones (and those that need them) go, the lowering's come.
  const bool keeps = kept_any_;
  auto needs_matrix = [keeps](uint32_t capability) {
    if (keeps) return false;  // The kept matrices need them all.
    if (capability == U(spv::Capability::CooperativeMatrixKHR) ||
        capability == U(spv::Capability::CooperativeMatrixNV)) {
      return true;
    }
    const auto* e = grammar::LookupEnumerant(grammar::OperandKind::kCapability, capability);
    if (!e) return false;
    for (uint32_t c : grammar::Capabilities(*e)) {
      if (c == U(spv::Capability::CooperativeMatrixKHR) ||
          c == U(spv::Capability::CooperativeMatrixNV)) {
        return true;
      }
    }
    return false;
  };
  std::vector<Id> interface;
  if (lane_variable_) interface.push_back(lane_variable_);
  std::vector<uint32_t> out = RewritePreamble(
      m_, global_begin, needs_matrix, capabilities_,
      [keeps](std::string_view name) {
        return !keeps &&
               (name == "SPV_KHR_cooperative_matrix" || name == "SPV_NV_cooperative_matrix");
      },
      interface);
  return JoinAndRead(
      {&out, &decorations_, &hoisted, &scalar_types_, &constants_, &globals, &derived_, &functions},
      next_id_, error);
}

}  // namespace

PassResult LowerCoopMatrixTypes(ir::Module& m, uint32_t subgroup_size,
                                const std::vector<uint32_t>& types) {
  // Union-find over the matrix types: an instruction relates every matrix type it names (its
  // result's, its operands', a Type operand), so lowering one of them lowers them all.
  IdSets sets;
  auto is_matrix_type = [&](Id id) { return IsMatrixTypeOp(m.DefOpcode(id)); };
  for (InstIndex i = 0; i < m.global_end(); ++i) {
    if (IsMatrixTypeOp(m.opcode(i))) sets.Add(m.result_id(i));
  }
  for (InstIndex i = 0; i < m.num_instructions(); ++i) {
    const Op op = m.opcode(i);
    if (ir::SectionOf(op) < ir::Section::kGlobal || ir::IsTypeDeclaration(op)) continue;
    Id first = 0;
    auto relate = [&](Id type) {
      if (!is_matrix_type(type)) return;
      if (!first) first = type;
      else sets.Join(type, first);
    };
    relate(m.type_id(i));
    const ir::Inst inst = m.inst(i);
    for (const auto& operand : inst.operands) {
      if (!grammar::IsIdKind(operand.kind) || operand.kind == grammar::OperandKind::kIdResult ||
          operand.kind == grammar::OperandKind::kIdResultType) {
        continue;
      }
      const Id id = inst.word(operand);
      relate(is_matrix_type(id) ? id : m.TypeOf(id));
    }
  }
  std::set<Id> roots, only;
  for (uint32_t t : types) {
    if (sets.Contains(t)) roots.insert(sets.Find(t));
  }
  for (auto& [t, _] : sets.ids()) {
    if (roots.count(sets.Find(t))) only.insert(t);
  }
  if (only.empty()) return PassResult::Unchanged();
  CoopDistributionChoice choice;
  choice.subgroup_size = subgroup_size;
  Lowering lowering(m, choice);
  if (only.size() < sets.ids().size()) lowering.set_only(std::move(only));
  std::string error;
  bool changed = false;
  auto lowered = lowering.Run(&error, &changed);
  return RebuiltResult(changed ? std::move(lowered) : nullptr, error);
}

std::unique_ptr<Pass> CreateLowerCoopMatrixPass(std::string_view argument, std::string* error) {
  CoopDistributionChoice choice;
  std::string_view size_text;
  if (!ParseCoopDistributionStrategy(argument, &size_text, &choice, error) ||
      !ParseSubgroupSize(size_text, &choice.subgroup_size, error)) {
    return nullptr;
  }
  return std::make_unique<SubgroupLoweringPass<Lowering, CoopDistributionChoice>>(
      "lower-coop-matrix", choice);
}

}  // namespace coopspv::opt
