// Row bands of Workgroup-scope cooperative matrices: what --lower-coop-matrix2=S,<profile> does
// to a module whose lowering needs more Workgroup memory than the device has.
//
// --lower-coop-matrix2 moves a Workgroup-scope R x C matrix through a Workgroup region of R x C
// elements whenever an instruction on it goes element by element (a tensor load or store, a
// Use conversion, ...): a 128 x 128 float accumulator needs 64 KiB, above the 48 KiB of an H100
// (ggml's matmul pipelines for 128 x 128 tiles, cm2_decode_q4). Most kernels work on such a
// matrix row by row: loads and stores of a slice, multiply-adds (a row of the result needs the
// same row of A and the whole B), element-wise arithmetic and conversions. This pass makes each
// such matrix type an array of R / H bands of H x C (same component type, scope and Use), under
// the same id, so that every instruction works band by band and the lowering needs regions of
// H x C only.
//
// Which types: every Workgroup-scope KHR matrix type with constant dimensions, unless an
// instruction that reads or writes it is not one of those below; types an instruction relates (a
// multiply-add's A, C and result, an element-wise instruction's operands and result, a row or
// 2x2 reduction's input and result) are banded together or not at all, with the same number of
// bands N: the tallest one's rows / H (at least 2; every type's rows a multiple of N, so a 2x2
// reduction's result has bands half as tall). A multiply-add's B stays whole (its rows are the K
// of the product).
//
// Rewritten, band b holding rows [b * H, (b + 1) * H):
// - OpCooperativeMatrixLoadTensorNV / StoreTensorNV, when the TensorLayout comes from
//   OpTensorLayoutSliceNV (2 to 5 dimensions) whose spans, from the innermost view dimension
//   (the layout's without a view) outwards, are constants of product C and then the constant R
//   (element (r, c) is then at coordinate r in that dimension, c spread over the inner ones, 0 in
//   the outer ones): one per band, through OpTensorLayoutSliceNV of that layout with offset
//   b * H and span H in the dimension the rows walk and offset 0 and the same span in the others
//   (a slice of a slice adds the offsets). A TensorView must come from OpCreateTensorViewNV
//   without dimensions (its clip is the whole matrix); DecodeFunc, the memory operands and the
//   clamp value stay. The load's Object gives each band its own band.
// - OpCooperativeMatrixMulAddKHR: result band b = A band b * B + C band b.
// - Element-wise arithmetic and conversions (those of --tile-coop-matrix, and Use conversions
//   between component types): band by band.
// - A splat (OpCompositeConstruct, OpConstantComposite of one scalar): the band splat, repeated.
// - OpCooperativeMatrixPerElementOpEXT (the matrix, its result and its matrix operands in the same
//   bands): band by band, Func called through a wrapper that adds the band's first row to the
//   row (Func'(row, column, element, operands..., first row), one per Func, after the module's
//   functions).
// - OpCooperativeMatrixReduceEXT: Row and 2x2, band by band. Column: each band reduced to the
//   result type (or its band: a column reduction's result has any number of rows), the bands'
//   results combined by OpCooperativeMatrixPerElementOpEXT calling CombineFunc through a wrapper
//   (Func(row, column, x, y) = CombineFunc(x, y), the other band's result the operand). Row |
//   Column: each band reduced, element 0 of each (all its elements agree) folded through
//   CombineFunc, and the value splat (a replicated matrix, as the lowering makes it). The input
//   and the result of these two need not both have bands.
// - OpCooperativeMatrixLoadKHR / StoreKHR, RowMajorKHR with a Stride, through an access chain
//   whose last index (32-bit) is into an array: band b through the chain with that index plus
//   b * H * Stride (Stride counts the pointee's units, as the index does).
// - OpCooperativeMatrixLengthKHR: the bands' count times a band's length; an element of a
//   variable of the type (OpAccessChain with one index e, as ggml's float16 accumulators are
//   clamped element by element): element e % L of band e / L, L a band's length. Which
//   invocation holds which element is the implementation's choice anyway; this numbering covers
//   every element the invocation holds once.
// - Values of the type (OpPhi, OpSelect, OpUndef, OpConstantNull, OpCopyObject, variables, loads,
//   stores, function parameters, calls and returns) keep their instructions: an array of bands
//   is a value like the matrix was.
// Nothing else: a type that meets any other instruction (a transpose, a column-major or
// TensorLayout-less load, OpCompositeExtract of an element, an access chain deeper into it, ...)
// stays whole.
//
// Owned rows (OwnCoopMatrix2Rows, what --lower-coop-matrix2 does first): the bands are the
// workgroup's W subgroups' (N = W for every type), and each subgroup holds its own band only.
// Without it every subgroup holds every Workgroup-scope matrix whole and repeats its arithmetic
// (a multiply-add split among the subgroups goes through Workgroup memory twice), so a lowered
// flash attention did W times the work and held W times the registers of ggml's hand-written
// cm1 one. A banded type becomes, under the same id, the Subgroup-scope H x C type (H = R / W, a
// multiple of the device's smallest listed M): a Workgroup-scope matrix has one value for the
// workgroup and its instructions run in workgroup-uniform control flow, so subgroup g computing
// rows [g * H, (g + 1) * H) of every such value, with the instructions above, computes the same
// matrices, split. Multiply-adds (B stays whole: Workgroup-scope, replicated by the lowering),
// element-wise instructions, splats, row and 2x2 reductions, lengths, element access and values
// keep their words; tensor accesses take the slice of band g = SubgroupId (a SubgroupId input
// variable, added with GroupNonUniform where the module has none), row-major KHR accesses start
// g * H * Stride further, per-element operations add g * H to the row (the wrapper above). A
// Row | Column reduction of an owned matrix reduces the band, and each invocation writes its
// band's value (element 0) into its own element, SubgroupId * S + SubgroupLocalInvocationId, of a
// Workgroup array of W * S components; after a Workgroup barrier every invocation folds the W
// subgroups' values through CombineFunc in subgroup order (the result one value for the
// workgroup, as ggml's flash attention needs to branch on it), a second barrier lets the array be
// written again, and the value is splat. Column reductions (which would need whole columns) keep
// their types whole.
#include "source/opt/band_coop_matrix2.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "source/grammar/grammar.h"
#include "source/ir/analyses.h"
#include "source/ir/builder.h"
#include "source/ir/declarations.h"
#include "source/ir/scalar_eval.h"
#include "source/ir/workgroup_size.h"
#include "source/opt/passes.h"
#include "source/opt/tile_coop_matrix.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;
using Reuse = ir::Declarations::Reuse;

constexpr uint32_t U(auto e) { return static_cast<uint32_t>(e); }

struct BandType {
  Id component = 0, size_type = 0;
  uint32_t rows = 0, columns = 0;
  Id band = 0;  // The band type, once declared.
  uint32_t count = 0, height = 0;  // Bands of `height` rows, `count` of them.
};

// The tile pass's element-wise instructions, and Use conversions between component types.
bool Elementwise(Op op) {
  return IsPiecewiseMatrixOp(op) || op == Op::CooperativeMatrixConvertNV;
}

// Instructions that keep their words: they move a value of the type as a whole.
bool Keeps(Op op) {
  switch (op) {
    case Op::Phi:
    case Op::Select:
    case Op::Undef:
    case Op::ConstantNull:
    case Op::CopyObject:
    case Op::Load:
    case Op::Store:
    case Op::Variable:
    case Op::FunctionParameter:
    case Op::Function:
    case Op::FunctionCall:
    case Op::ReturnValue:
    case Op::TypePointer:
    case Op::TypeFunction:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
    case Op::TypeStruct:
    case Op::Name:
    case Op::MemberName:
    case Op::Decorate:
    case Op::MemberDecorate:
      return true;
    default:
      return false;
  }
}

class Bander {
 public:
  Bander(const ir::Module& m, uint32_t h) : m_(m), h_(h), b_(m) {}
  // Owned rows: W subgroups of S invocations, bands a multiple of `min_rows` high.
  Bander(const ir::Module& m, uint32_t subgroups, uint32_t subgroup_size, uint32_t min_rows)
      : m_(m), h_(min_rows), owners_(subgroups), subgroup_size_(subgroup_size), b_(m) {}

  // The types in bands (after Run).
  std::vector<Id> banded_types() const {
    std::vector<Id> ids;
    for (const auto& [id, t] : types_) ids.push_back(id);
    return ids;
  }

  PassResult Run() {
    if (h_ == 0) return PassResult::Unchanged();
    Collect();
    if (types_.empty()) return PassResult::Unchanged();
    Choose();
    if (types_.empty()) return PassResult::Unchanged();
    if (std::getenv("COOPSPV_BAND_DEBUG")) {
      std::fprintf(stderr, "band: %zu types in %u bands%s\n", types_.size(),
                   types_.begin()->second.count, owners_ ? ", owned" : "");
    }
    Declare();
    if (owners_) DeclareOwnership();
    for (InstIndex i = 0; i < m_.num_instructions() && error_.empty(); ++i) {
      Rewrite(i);
    }
    if (!error_.empty()) return PassResult::Failed(error_);
    return FinishMergingDeclarations(b_);
  }

 private:
  const BandType* Find(Id type) const {
    auto it = types_.find(type);
    return it == types_.end() ? nullptr : &it->second;
  }
  const BandType* ValueType(Id value) const { return Find(m_.TypeOf(value)); }

  // Workgroup-scope KHR matrix types with constant dimensions of more than one row.
  void Collect() {
    for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
      if (m_.opcode(i) == Op::TensorViewSetClipNV) clipped_views_.insert(m_.type_id(i));
      if (m_.opcode(i) == Op::Capability &&
          m_.word(i, 1) == U(spv::Capability::CooperativeMatrixPerElementOperationsNV)) {
        has_per_element_capability_ = true;
      }
    }
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      if (m_.opcode(i) != Op::TypeCooperativeMatrixKHR || m_.num_words(i) < 7) continue;
      const auto scope = ir::ConstantValue(m_, m_.word(i, 3));
      const auto rows = ir::ConstantValue(m_, m_.word(i, 4));
      const auto columns = ir::ConstantValue(m_, m_.word(i, 5));
      if (!scope || *scope != U(spv::Scope::Workgroup) || !rows || !columns || *columns == 0 ||
          *rows < 2) {
        continue;
      }
      BandType t;
      t.component = m_.word(i, 2);
      t.rows = *rows;
      t.columns = *columns;
      t.size_type = m_.TypeOf(m_.word(i, 4));
      types_[m_.result_id(i)] = t;
    }
  }

  // The dimension of a 2-D layout the matrix's rows walk through a tensor access at i, and the
  // slice it reads; nullopt when the access is not one the bands can take.
  struct Slice {
    InstIndex slice = ir::kNoInst;  // OpTensorLayoutSliceNV of the access.
    uint32_t dims = 2;              // The layout's Dim.
    uint32_t row_dim = 0;           // The layout dimension of the matrix's rows.
  };
  std::optional<Slice> TensorSlice(InstIndex i, bool store, const BandType& t) const {
    const uint32_t first = store ? 1 : 3;
    if (m_.num_words(i) < first + 4) return std::nullopt;
    Slice s;
    s.slice = m_.Def(m_.word(i, first + 2));
    if (s.slice == ir::kNoInst || m_.opcode(s.slice) != Op::TensorLayoutSliceNV) {
      return std::nullopt;
    }
    const InstIndex layout_type = m_.Def(m_.type_id(s.slice));
    if (layout_type == ir::kNoInst || m_.opcode(layout_type) != Op::TypeTensorLayoutNV) {
      return std::nullopt;
    }
    const auto dims = ir::ConstantValue(m_, m_.word(layout_type, 2));
    if (!dims || *dims < 2 || *dims > 5 || m_.num_words(s.slice) != 4 + 2 * *dims) {
      return std::nullopt;
    }
    s.dims = *dims;
    // Memory operands, then the tensor addressing operands (TensorView first).
    uint32_t w = first + 3;
    const uint32_t memory = m_.word(i, w++);
    if (memory & ~0x3Fu) return std::nullopt;
    for (uint32_t bit : {0x2u, 0x8u, 0x10u}) w += (memory & bit) ? 1 : 0;
    if (w >= m_.num_words(i)) return std::nullopt;
    const uint32_t tensor = m_.word(i, w++);
    // The view's permutation (the identity without a view): view dimension k is layout
    // dimension p[k], and the slice is enumerated row-major over the view's dimensions.
    std::vector<uint32_t> p(s.dims);
    for (uint32_t k = 0; k < s.dims; ++k) p[k] = k;
    if (tensor & 1u) {
      if (w >= m_.num_words(i)) return std::nullopt;
      // A view without dimensions whose clip nothing in the module sets: its value (made by
      // OpCreateTensorViewNV, wherever it was kept) clips nothing.
      const Id view_type = m_.TypeOf(m_.word(i, w));
      const InstIndex vt = m_.Def(view_type);
      if (vt == ir::kNoInst || m_.opcode(vt) != Op::TypeTensorViewNV ||
          m_.num_words(vt) != 4 + s.dims || m_.DefOpcode(m_.word(vt, 3)) != Op::ConstantFalse ||
          clipped_views_.count(view_type)) {
        return std::nullopt;
      }
      std::set<uint32_t> seen;
      for (uint32_t k = 0; k < s.dims; ++k) {
        const auto pk = ir::ConstantValue(m_, m_.word(vt, 4 + k));
        if (!pk || *pk >= s.dims || !seen.insert(*pk).second) return std::nullopt;
        p[k] = *pk;
      }
    }
    // The slice's spans (words 4 + 2 * dim: offset, 5 + 2 * dim: span), innermost view dimension
    // first: constants whose product is C, then R in the next (the rows' dimension). Element
    // (r, c) is then at coordinate r there, c spread over the inner ones, and 0 in the outer ones
    // (whatever their spans), with no element enumerated past the slice.
    uint64_t columns = 1;
    uint32_t k = s.dims;
    while (k > 0 && columns < t.columns) {
      const auto span = ir::ConstantValue(m_, m_.word(s.slice, 5 + 2 * p[--k]));
      if (!span || *span == 0) return std::nullopt;
      columns *= *span;
    }
    if (columns != t.columns || k == 0) return std::nullopt;
    const auto rows = ir::ConstantValue(m_, m_.word(s.slice, 5 + 2 * p[k - 1]));
    if (!rows || *rows != t.rows) return std::nullopt;
    s.row_dim = p[k - 1];
    return s;
  }

  // Which types get bands: union-find over the types instructions relate, and every type some
  // instruction cannot take in bands left whole with all it is related to.
  void Choose() {
    IdSets sets;
    for (auto& [id, t] : types_) sets.Add(id);
    auto relate = [&](Id a, Id b) {
      if (types_.count(a) && types_.count(b)) sets.Join(a, b);
    };
    std::set<Id> whole;
    for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
      const Op op = m_.opcode(i);
      const Id type = m_.type_id(i);
      const BandType* rt = Find(type);
      // Every type of the candidates the instruction names (result, operand values, type ids).
      std::vector<Id> touched;
      if (rt) touched.push_back(type);
      const ir::Inst inst = m_.inst(i);
      for (const auto& operand : inst.operands) {
        if (!grammar::IsIdKind(operand.kind) || operand.kind == grammar::OperandKind::kIdResult ||
            operand.kind == grammar::OperandKind::kIdResultType) {
          continue;
        }
        const Id id = inst.word(operand);
        if (Find(id) && op != Op::TypePointer && op != Op::TypeArray && op != Op::TypeStruct &&
            op != Op::TypeFunction && op != Op::TypeRuntimeArray && op != Op::Name) {
          touched.push_back(id);  // A type operand (OpCooperativeMatrixLengthKHR, ...).
        } else if (ValueType(id)) {
          touched.push_back(m_.TypeOf(id));
        }
      }
      if (op == Op::AccessChain || op == Op::InBoundsAccessChain || op == Op::PtrAccessChain) {
        // An index into such a matrix through a pointer: only an element of a variable of the
        // type (one index) is taken in bands.
        const Id inner = ChainedMatrix(i);
        if (inner && !ElementOfVariable(i)) {
          whole.insert(inner);
          if (std::getenv("COOPSPV_BAND_DEBUG")) {
            std::fprintf(stderr, "band: whole: %s\n", DescribeInstruction(m_, i).c_str());
          }
        }
        continue;
      }
      if (touched.empty() || op == Op::TypeCooperativeMatrixKHR) continue;
      bool ok = false;
      if (Keeps(op)) {
        ok = true;
      } else if (op == Op::CooperativeMatrixLoadTensorNV && rt) {
        ok = TensorSlice(i, false, *rt).has_value();
      } else if (op == Op::CooperativeMatrixStoreTensorNV && m_.num_words(i) > 2 &&
                 ValueType(m_.word(i, 2))) {
        ok = TensorSlice(i, true, *ValueType(m_.word(i, 2))).has_value();
      } else if (op == Op::CooperativeMatrixMulAddKHR && m_.num_words(i) >= 6) {
        const Id a = m_.TypeOf(m_.word(i, 3)), b = m_.TypeOf(m_.word(i, 4)),
                 c = m_.TypeOf(m_.word(i, 5));
        if (Find(b)) whole.insert(b);
        ok = rt && Find(a) && Find(c);
        relate(a, type);
        relate(c, type);
      } else if (Elementwise(op) && rt) {
        ok = true;
        for (uint32_t w = 3; w < m_.num_words(i); ++w) {
          const Id t = m_.TypeOf(m_.word(i, w));
          if (IsMatrixType(t) && (!Find(t) || Find(t)->rows != rt->rows)) ok = false;
          relate(t, type);
        }
      } else if ((op == Op::CompositeConstruct || op == Op::ConstantComposite) && rt) {
        ok = m_.num_words(i) == 4 && !IsMatrixType(m_.TypeOf(m_.word(i, 3)));
      } else if (op == Op::CooperativeMatrixLengthKHR && m_.num_words(i) == 4) {
        ok = true;
      } else if (op == Op::CooperativeMatrixPerElementOpEXT && rt && m_.num_words(i) >= 5) {
        // The matrix, the result and every matrix operand (same shape) in the same bands; the
        // function gets the band's first row added to its row (a wrapper).
        ok = RowFunction(m_.word(i, 4)) != 0;
        for (uint32_t w = 3; w < m_.num_words(i); ++w) {
          if (w == 4) continue;
          const Id t = m_.TypeOf(m_.word(i, w));
          if (!IsMatrixType(t)) continue;
          if (!Find(t) || Find(t)->rows != rt->rows) ok = false;
          relate(t, type);
        }
      } else if (op == Op::CooperativeMatrixReduceEXT && m_.num_words(i) == 6) {
        const Id in = m_.TypeOf(m_.word(i, 3));
        const uint32_t mode = m_.word(i, 4);
        if (mode == 1) {  // Rows: a row's result needs that row alone.
          ok = rt && Find(in) && Find(in)->rows == rt->rows;
          relate(in, type);
        } else if (mode == 4) {  // 2x2: a band's blocks are the band's result rows.
          ok = rt && Find(in) && Find(in)->rows == 2 * rt->rows;
          relate(in, type);
          quads_.push_back(in);
        } else {
          // Columns or everything: each band's result folded with the others' (the input and the
          // result need not share their bands, nor be banded both). Owned bands fold everything
          // through Workgroup memory; columns not.
          ok = mode == 3 || (mode == 2 && !owners_);
        }
      } else if (op == Op::CooperativeMatrixLoadKHR && rt) {
        ok = RowMajorAccess(i, false);
      } else if (op == Op::CooperativeMatrixStoreKHR && m_.num_words(i) > 2 &&
                 ValueType(m_.word(i, 2))) {
        ok = RowMajorAccess(i, true);
      } else if (op == Op::CompositeConstruct && !rt) {
        ok = true;  // An aggregate holding such matrices holds their arrays instead.
      } else if (op == Op::CompositeExtract && rt && m_.num_words(i) > 3 &&
                 !ValueType(m_.word(i, 3))) {
        ok = true;  // A matrix taken out of an aggregate.
      }
      if (!ok) whole.insert(touched.begin(), touched.end());
      if (!ok && std::getenv("COOPSPV_BAND_DEBUG")) {
        std::fprintf(stderr, "band: whole: %s\n", DescribeInstruction(m_, i).c_str());
      }

    }
    // Each set of related types gets N bands, N = its tallest type's rows / H (2 or more), when
    // every type's rows are a multiple of N (and a 2x2 reduction's bands have even heights).
    std::set<Id> bad_roots;
    for (Id t : whole) {
      if (types_.count(t)) bad_roots.insert(sets.Find(t));
    }
    std::map<Id, uint32_t> tallest;
    for (auto& [id, t] : types_) {
      uint32_t& rows = tallest[sets.Find(id)];
      rows = std::max(rows, t.rows);
    }
    for (auto& [id, t] : types_) {
      if (owners_) {  // W bands of a multiple of the smallest M.
        if (t.rows % owners_ != 0 || (t.rows / owners_) % h_ != 0) {
          bad_roots.insert(sets.Find(id));
          continue;
        }
        t.count = owners_;
        t.height = t.rows / owners_;
        continue;
      }
      const uint32_t rows = tallest[sets.Find(id)], n = rows / h_;
      if (rows <= h_ || rows % h_ != 0 || t.rows % n != 0) {
        bad_roots.insert(sets.Find(id));
        continue;
      }
      t.count = n;
      t.height = t.rows / n;
    }
    for (Id in : quads_) {
      if (Find(in)->height % 2 != 0) bad_roots.insert(sets.Find(in));
    }
    for (auto it = types_.begin(); it != types_.end();) {
      if (bad_roots.count(sets.Find(it->first))) {
        it = types_.erase(it);
      } else {
        ++it;
      }
    }
  }

  // OpCooperativeMatrixLoadKHR / StoreKHR row-major with a Stride, through an access chain whose
  // last index (32-bit) is into an array: band b is the access with that index plus
  // b * height * Stride (Stride in the pointee's units, as the index).
  bool RowMajorAccess(InstIndex i, bool store) const {
    const uint32_t p = store ? 1 : 3;
    if (m_.num_words(i) < p + 4) return false;
    const auto layout = ir::ConstantValue(m_, m_.word(i, p + 2));
    if (!layout || *layout != U(spv::CooperativeMatrixLayout::RowMajorKHR)) return false;
    const InstIndex chain = m_.Def(m_.word(i, p));
    if (chain == ir::kNoInst ||
        (m_.opcode(chain) != Op::AccessChain && m_.opcode(chain) != Op::InBoundsAccessChain) ||
        m_.num_words(chain) < 5) {
      return false;
    }
    const Id last = m_.word(chain, m_.num_words(chain) - 1);
    const InstIndex index_type = m_.Def(m_.TypeOf(last));
    if (index_type == ir::kNoInst || m_.opcode(index_type) != Op::TypeInt ||
        m_.word(index_type, 2) != 32) {
      return false;
    }
    const Id stride = m_.word(i, p + 3);
    if (!ir::ConstantValue(m_, stride) && m_.TypeOf(stride) != m_.TypeOf(last)) return false;
    // The type the last index walks: an array's.
    Id t = Pointee(m_.word(chain, 3));
    for (uint32_t w = 4; w + 1 < m_.num_words(chain) && t; ++w) t = Step(t, m_.word(chain, w));
    const Op walked = m_.DefOpcode(t);
    return walked == Op::TypeArray || walked == Op::TypeRuntimeArray;
  }

  // The pointee of a pointer-typed value, 0 when it is none.
  Id Pointee(Id pointer) const {
    const InstIndex pt = m_.Def(m_.TypeOf(pointer));
    if (pt == ir::kNoInst || m_.opcode(pt) != Op::TypePointer) return 0;
    return m_.word(pt, 3);
  }
  // The first candidate matrix type an access chain's indices enter (its base pointee
  // included), 0 when none.
  Id ChainedMatrix(InstIndex i) const {
    if (m_.num_words(i) < 4) return 0;
    Id t = Pointee(m_.word(i, 3));
    const uint32_t first = m_.opcode(i) == Op::PtrAccessChain ? 5 : 4;
    for (uint32_t w = first; t; ++w) {
      if (Find(t)) return t;
      if (w >= m_.num_words(i)) return 0;
      t = Step(t, m_.word(i, w));
    }
    return 0;
  }
  // The type an access chain's index walks into from `type` (IndexedType, a struct's member by
  // a constant index).
  Id Step(Id type, Id index) const { return IndexedType(m_, type, ir::ConstantValue(m_, index)); }
  // OpAccessChain / OpInBoundsAccessChain of one index (an element) into a pointer to a
  // candidate matrix type.
  bool ElementOfVariable(InstIndex i) const {
    return (m_.opcode(i) == Op::AccessChain || m_.opcode(i) == Op::InBoundsAccessChain) &&
           m_.num_words(i) == 5 && Find(Pointee(m_.word(i, 3)));
  }

  // The type of Func's first parameter (the row) when Func is an OpFunction of (row, column,
  // element, ...) with a 32-bit integer row; 0 otherwise.
  Id RowFunction(Id func) const {
    const InstIndex fd = m_.Def(func);
    if (fd == ir::kNoInst || m_.opcode(fd) != Op::Function) return 0;
    const InstIndex ft = m_.Def(m_.word(fd, 4));
    if (ft == ir::kNoInst || m_.opcode(ft) != Op::TypeFunction || m_.num_words(ft) < 6) return 0;
    const InstIndex row = m_.Def(m_.word(ft, 3));
    if (row == ir::kNoInst || m_.opcode(row) != Op::TypeInt || m_.word(row, 2) != 32) return 0;
    return m_.word(ft, 3);
  }

  bool IsMatrixType(Id type) const {
    const Op op = m_.DefOpcode(type);
    return op == Op::TypeCooperativeMatrixKHR || op == Op::TypeCooperativeMatrixNV;
  }

  // A constant: the bands' sizes before the first banded type, those the functions use before
  // the functions (only function code asks for constants while rewriting).
  Id Const(Id type, uint32_t value) {
    return DeclareWhileRewriting(b_, declarations_, first_banded_, current_, Op::Constant,
                                 {type, value}, Reuse::kNever);
  }

  void Declare() {
    first_banded_ = ir::kNoInst;
    for (auto& [id, t] : types_) {
      if (first_banded_ == ir::kNoInst || m_.Def(id) < first_banded_) first_banded_ = m_.Def(id);
    }
    for (auto& [id, t] : types_) {
      const InstIndex d = m_.Def(id);
      if (owners_) {  // The Subgroup-scope band, under the same id.
        const Id scope = Const(U32(), U(spv::Scope::Subgroup));
        b_.Replace(d, Op::TypeCooperativeMatrixKHR,
                   std::vector<uint32_t>{id, t.component, scope, Const(t.size_type, t.height),
                                         m_.word(d, 5), m_.word(d, 6)});
        t.band = id;
        continue;
      }
      const Id rows = Const(t.size_type, t.height), count = Const(t.size_type, t.count);
      b_.SetInsertBefore(d);
      t.band = b_.Add(Op::TypeCooperativeMatrixKHR, 0,
                      {t.component, m_.word(d, 3), rows, m_.word(d, 5), m_.word(d, 6)});
      b_.Replace(d, Op::TypeArray, std::vector<uint32_t>{id, t.band, count});
    }
  }

  // The 32-bit unsigned integer type (declared before the functions when the module has none).
  Id U32() {
    return DeclareWhileRewriting(b_, declarations_, first_banded_, current_, Op::TypeInt,
                                 {32u, 0u}, Reuse::kModule);
  }

  // Band b of `value` (the value itself for a type without bands).
  Id BandOf(Id value, uint32_t b) {
    const BandType* t = ValueType(value);
    if (!t) return value;
    return b_.Add(Op::CompositeExtract, t->band, {value, b});
  }

  // The integer type of the slice's offsets and spans.
  Id SpanType(const Slice& s) const { return m_.TypeOf(m_.word(s.slice, 5)); }

  // OpTensorLayoutSliceNV of the access's slice for the band whose first row is `first_row` (of
  // the slice's span type), before the access.
  Id BandSlice(const Slice& s, const BandType& t, Id first_row) {
    const Id span_type = SpanType(s);
    const Id offset_row = first_row, span_row = Const(span_type, t.height);
    const Id zero = Const(span_type, 0);
    std::vector<uint32_t> words = {m_.result_id(s.slice)};
    for (uint32_t dim = 0; dim < s.dims; ++dim) {
      words.push_back(dim == s.row_dim ? offset_row : zero);
      words.push_back(dim == s.row_dim ? span_row : m_.word(s.slice, 5 + 2 * dim));
    }
    return b_.Add(Op::TensorLayoutSliceNV, m_.type_id(s.slice), words);
  }

  // ---- Owned rows

  // The SubgroupId input (the module's own, else a new one), SubgroupLocalInvocationId and the
  // Workgroup arrays of the Row | Column folds when some owned matrix has one, in every entry
  // point's interface; GroupNonUniform.
  void DeclareOwnership() {
    const Id u32 = U32();
    std::set<Id> fold_components;
    for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
      const Op op = m_.opcode(i);
      if (op == Op::MemoryModel && m_.word(i, 2) == U(spv::MemoryModel::Vulkan)) {
        vulkan_memory_model_ = true;
      }
      if (op == Op::CooperativeMatrixReduceEXT && m_.num_words(i) == 6 && m_.word(i, 4) == 3 &&
          ValueType(m_.word(i, 3))) {
        fold_components.insert(ValueType(m_.word(i, 3))->component);
      }
    }
    std::vector<Id> added;
    auto input = [&](spv::BuiltIn builtin) {
      Id variable = FindInputBuiltin(m_, builtin);
      if (variable) return variable;
      const Id pointer = DeclareWhileRewriting(b_, declarations_, first_banded_, current_,
                                               Op::TypePointer, {U(spv::StorageClass::Input), u32},
                                               Reuse::kModule);
      b_.SetInsertBeforeFunctions();
      variable = b_.Add(Op::Variable, pointer, {U(spv::StorageClass::Input)});
      b_.SetInsertBefore(FirstAnnotation());
      b_.Add(Op::Decorate, 0, {variable, U(spv::Decoration::BuiltIn), U(builtin)});
      return variable;
    };
    subgroup_id_ = input(spv::BuiltIn::SubgroupId);
    added.push_back(subgroup_id_);
    if (!fold_components.empty()) {
      lane_ = input(spv::BuiltIn::SubgroupLocalInvocationId);
      added.push_back(lane_);
    }
    const bool listed = m_.header().version >= grammar::MakeVersion(1, 4);
    for (Id component : fold_components) {
      const Id array = DeclareWhileRewriting(
          b_, declarations_, first_banded_, current_, Op::TypeArray,
          {component, Const(u32, owners_ * subgroup_size_)}, Reuse::kModule);
      const Id pointer = DeclareWhileRewriting(
          b_, declarations_, first_banded_, current_, Op::TypePointer,
          {U(spv::StorageClass::Workgroup), array}, Reuse::kModule);
      Fold& f = folds_[component];
      f.element_pointer = DeclareWhileRewriting(
          b_, declarations_, first_banded_, current_, Op::TypePointer,
          {U(spv::StorageClass::Workgroup), component}, Reuse::kModule);
      b_.SetInsertBeforeFunctions();
      f.array = b_.Add(Op::Variable, pointer, {U(spv::StorageClass::Workgroup)});
      if (listed) added.push_back(f.array);
    }
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      if (m_.opcode(i) != Op::EntryPoint) continue;
      const ir::Inst entry = m_.inst(i);
      std::vector<uint32_t> words(entry.words.begin() + 1, entry.words.end());
      for (Id id : added) {
        if (!InterfaceLists(m_, i, id)) words.push_back(id);
      }
      b_.Replace(i, Op::EntryPoint, words);
    }
    bool has_non_uniform = false;
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      has_non_uniform |= m_.opcode(i) == Op::Capability &&
                         m_.word(i, 1) == U(spv::Capability::GroupNonUniform);
    }
    if (!has_non_uniform) {
      b_.SetInsertBefore(0);
      b_.Add(Op::Capability, 0, {U(spv::Capability::GroupNonUniform)});
    }
  }

  // The first annotation (or, without any, the first type or constant): where decorations go.
  InstIndex FirstAnnotation() const {
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      const ir::Section section = ir::SectionOf(m_.opcode(i));
      if (section == ir::Section::kAnnotation || section >= ir::Section::kGlobal) return i;
    }
    return m_.global_end();
  }

  // This subgroup's first row of an owned type: SubgroupId * height, of integer type `type`.
  Id FirstRow(const BandType& t, Id type) {
    const Id u32 = U32();
    const Id g = b_.Add(Op::Load, u32, {subgroup_id_});
    Id first = b_.Add(Op::IMul, u32, {g, Const(u32, t.height)});
    if (type != u32) first = b_.Add(Op::Bitcast, type, {first});
    return first;
  }

  // The instructions whose words name the subgroup's band (head comment, "Owned rows").
  void RewriteOwned(InstIndex i) {
    const Op op = m_.opcode(i);
    const BandType* rt = Find(m_.type_id(i));
    const bool store_tensor = op == Op::CooperativeMatrixStoreTensorNV && m_.num_words(i) > 2 &&
                              ValueType(m_.word(i, 2));
    if ((op == Op::CooperativeMatrixLoadTensorNV && rt) || store_tensor) {
      const BandType& t = store_tensor ? *ValueType(m_.word(i, 2)) : *rt;
      const std::optional<Slice> s = TensorSlice(i, store_tensor, t);
      if (!s) return Fail(i, "the tensor access cannot be banded");
      b_.SetInsertBefore(i);
      std::vector<uint32_t> words = WordsFrom(i, 1);
      words[store_tensor ? 2 : 4] = BandSlice(*s, t, FirstRow(t, SpanType(*s)));
      b_.Replace(i, op, words);
      return;
    }
    if (op == Op::CooperativeMatrixPerElementOpEXT && rt) {
      const Id row_type = RowFunction(m_.word(i, 4));
      b_.SetInsertBefore(i);
      std::vector<uint32_t> words = WordsFrom(i, 1);
      words[3] = RowOffsetWrapper(m_.word(i, 4));
      words.push_back(FirstRow(*rt, row_type));
      b_.Replace(i, op, words);
      return;
    }
    if (op == Op::CooperativeMatrixReduceEXT && m_.num_words(i) == 6 && m_.word(i, 4) == 3 &&
        (rt || ValueType(m_.word(i, 3)))) {
      return RewriteOwnedFold(i);
    }
    if ((op == Op::CooperativeMatrixLoadKHR && rt) ||
        (op == Op::CooperativeMatrixStoreKHR && m_.num_words(i) > 2 &&
         ValueType(m_.word(i, 2)))) {
      const bool store = op == Op::CooperativeMatrixStoreKHR;
      const uint32_t p = store ? 1 : 3;
      const BandType& t = store ? *ValueType(m_.word(i, 2)) : *rt;
      const InstIndex chain = m_.Def(m_.word(i, p));
      const Id last = m_.word(chain, m_.num_words(chain) - 1);
      const Id index_type = m_.TypeOf(last), stride = m_.word(i, p + 3);
      b_.SetInsertBefore(i);
      // A Stride of another type is a constant (RowMajorAccess).
      const Id stride_id = index_type == m_.TypeOf(stride)
                               ? stride
                               : Const(index_type, *ir::ConstantValue(m_, stride));
      const Id rows = b_.Add(Op::IMul, index_type, {FirstRow(t, index_type), stride_id});
      std::vector<uint32_t> chain_words = WordsFrom(chain, 1);
      chain_words.back() = b_.Add(Op::IAdd, index_type, {last, rows});
      std::vector<uint32_t> words = WordsFrom(i, 1);
      words[store ? 0 : 2] = b_.Add(m_.opcode(chain), chain_words[0],
                                    std::vector<uint32_t>(chain_words.begin() + 2,
                                                          chain_words.end()));
      b_.Replace(i, op, words);
      return;
    }
  }

  // A Row | Column reduction with an owned input or result (head comment, "Owned rows").
  void RewriteOwnedFold(InstIndex i) {
    const Id type = m_.type_id(i), result = m_.result_id(i), in = m_.word(i, 3);
    const Id combine = m_.word(i, 5);
    const Id component = m_.word(m_.Def(m_.TypeOf(in)), 2);
    b_.SetInsertBefore(i);
    const Id part = b_.Add(Op::CooperativeMatrixReduceEXT, m_.TypeOf(in), {in, 3u, combine});
    Id value = b_.Add(Op::CompositeExtract, component, {part, 0u});
    if (ValueType(in)) {
      const Fold& f = folds_.at(component);
      const Id u32 = U32();
      const uint32_t access = vulkan_memory_model_ ? 0x20u : 0u;  // NonPrivatePointer.
      const Id scope = Const(u32, U(spv::Scope::Workgroup));
      // AcquireRelease | WorkgroupMemory, MakeAvailable | MakeVisible under the Vulkan model.
      const Id semantics = Const(u32, vulkan_memory_model_ ? 0x6108u : 0x108u);
      const Id g = b_.Add(Op::Load, u32, {subgroup_id_});
      const Id lane = b_.Add(Op::Load, u32, {lane_});
      const Id slot = b_.Add(Op::IAdd, u32,
                             {b_.Add(Op::IMul, u32, {g, Const(u32, subgroup_size_)}), lane});
      auto store_words = std::vector<uint32_t>{
          b_.Add(Op::AccessChain, f.element_pointer, {f.array, slot}), value};
      if (access) store_words.push_back(access);
      b_.Add(Op::Store, 0, store_words);
      b_.Add(Op::ControlBarrier, 0, {scope, scope, semantics});
      for (uint32_t k = 0; k < owners_; ++k) {
        const Id pointer = b_.Add(Op::AccessChain, f.element_pointer,
                                  {f.array, Const(u32, k * subgroup_size_)});
        std::vector<uint32_t> load_words = {pointer};
        if (access) load_words.push_back(access);
        const Id next = b_.Add(Op::Load, component, load_words);
        value = k == 0 ? next : b_.Add(Op::FunctionCall, component, {combine, value, next});
      }
      b_.Add(Op::ControlBarrier, 0, {scope, scope, semantics});
    }
    b_.Add(Op::CompositeConstruct, type, {value}, result);
    b_.Remove(i);
  }

  void Rewrite(InstIndex i) {
    current_ = i;
    if (owners_) return RewriteOwned(i);
    const Op op = m_.opcode(i);
    const Id type = m_.type_id(i);
    const Id result = m_.result_id(i);
    const BandType* rt = Find(type);
    if (op == Op::CooperativeMatrixLoadTensorNV && rt) {
      const std::optional<Slice> s = TensorSlice(i, false, *rt);
      if (!s) return Fail(i, "the tensor access cannot be banded");
      b_.SetInsertBefore(i);
      std::vector<uint32_t> bands;
      for (uint32_t b = 0; b < rt->count; ++b) {
        std::vector<uint32_t> words = {m_.word(i, 3), BandOf(m_.word(i, 4), b),
                                       BandSlice(*s, *rt, Const(SpanType(*s), b * rt->height))};
        for (uint32_t w = 6; w < m_.num_words(i); ++w) words.push_back(m_.word(i, w));
        bands.push_back(b_.Add(op, rt->band, words));
      }
      b_.Add(Op::CompositeConstruct, type, bands, result);
      b_.Remove(i);
      return;
    }
    if (op == Op::CooperativeMatrixStoreTensorNV && m_.num_words(i) > 2 &&
        ValueType(m_.word(i, 2))) {
      const BandType& t = *ValueType(m_.word(i, 2));
      const std::optional<Slice> s = TensorSlice(i, true, t);
      if (!s) return Fail(i, "the tensor access cannot be banded");
      b_.SetInsertBefore(i);
      for (uint32_t b = 0; b < t.count; ++b) {
        std::vector<uint32_t> words = {m_.word(i, 1), BandOf(m_.word(i, 2), b),
                                       BandSlice(*s, t, Const(SpanType(*s), b * t.height))};
        for (uint32_t w = 4; w < m_.num_words(i); ++w) words.push_back(m_.word(i, w));
        b_.Add(op, 0, words);
      }
      b_.Remove(i);
      return;
    }
    if (op == Op::CooperativeMatrixMulAddKHR && rt) {
      b_.SetInsertBefore(i);
      std::vector<uint32_t> bands;
      for (uint32_t b = 0; b < rt->count; ++b) {
        std::vector<uint32_t> words = {BandOf(m_.word(i, 3), b), m_.word(i, 4),
                                       BandOf(m_.word(i, 5), b)};
        for (uint32_t w = 6; w < m_.num_words(i); ++w) words.push_back(m_.word(i, w));
        bands.push_back(b_.Add(op, rt->band, words));
      }
      b_.Add(Op::CompositeConstruct, type, bands, result);
      b_.Remove(i);
      return;
    }
    if (op == Op::CooperativeMatrixLengthKHR && m_.num_words(i) == 4 && Find(m_.word(i, 3))) {
      // The bands' elements one after another: count times a band's length.
      const BandType& t = *Find(m_.word(i, 3));
      b_.SetInsertBefore(i);
      const Id band_length = b_.Add(op, type, {t.band});
      b_.Add(Op::IMul, type, {band_length, Const(type, t.count)}, result);
      b_.Remove(i);
      return;
    }
    if ((op == Op::AccessChain || op == Op::InBoundsAccessChain) && m_.num_words(i) == 5 &&
        Find(Pointee(m_.word(i, 3)))) {
      // Element e: element e % L of band e / L (L the band's length), as Length counts them.
      const BandType& t = *Find(Pointee(m_.word(i, 3)));
      const Id u32 = U32();
      Id index = m_.word(i, 4);
      b_.SetInsertBefore(i);
      if (m_.TypeOf(index) != u32) index = b_.Add(Op::Bitcast, u32, {index});
      const Id band_length = b_.Add(Op::CooperativeMatrixLengthKHR, u32, {t.band});
      const Id band = b_.Add(Op::UDiv, u32, {index, band_length});
      const Id element = b_.Add(Op::UMod, u32, {index, band_length});
      b_.Add(op, type, {m_.word(i, 3), band, element}, result);
      b_.Remove(i);
      return;
    }
    if (op == Op::CooperativeMatrixPerElementOpEXT && rt) {
      const Id wrapper = RowOffsetWrapper(m_.word(i, 4));
      const Id row_type = RowFunction(m_.word(i, 4));
      b_.SetInsertBefore(i);
      std::vector<uint32_t> bands;
      for (uint32_t b = 0; b < rt->count; ++b) {
        std::vector<uint32_t> words = {BandOf(m_.word(i, 3), b), wrapper};
        for (uint32_t w = 5; w < m_.num_words(i); ++w) words.push_back(BandOf(m_.word(i, w), b));
        words.push_back(Const(row_type, b * rt->height));
        bands.push_back(b_.Add(op, rt->band, words));
      }
      b_.Add(Op::CompositeConstruct, type, bands, result);
      b_.Remove(i);
      return;
    }
    if (op == Op::CooperativeMatrixReduceEXT && (rt || ValueType(m_.word(i, 3)))) {
      return RewriteReduce(i);
    }
    if ((op == Op::CooperativeMatrixLoadKHR && rt) ||
        (op == Op::CooperativeMatrixStoreKHR && m_.num_words(i) > 2 &&
         ValueType(m_.word(i, 2)))) {
      return RewriteRowMajorAccess(i);
    }
    if ((op == Op::CompositeConstruct || op == Op::ConstantComposite) && rt) {
      b_.SetInsertBefore(i);
      const Id band = b_.Add(op, rt->band, {m_.word(i, 3)});
      b_.Add(op, type, std::vector<uint32_t>(rt->count, band), result);
      b_.Remove(i);
      return;
    }
    if (Elementwise(op) && rt) {
      b_.SetInsertBefore(i);
      std::vector<uint32_t> bands;
      for (uint32_t b = 0; b < rt->count; ++b) {
        std::vector<uint32_t> words;
        for (uint32_t w = 3; w < m_.num_words(i); ++w) words.push_back(BandOf(m_.word(i, w), b));
        bands.push_back(b_.Add(op, rt->band, words));
      }
      b_.Add(Op::CompositeConstruct, type, bands, result);
      b_.Remove(i);
      return;
    }
  }

  // Words `from` to the end of instruction i.
  std::vector<uint32_t> WordsFrom(InstIndex i, uint32_t from) const {
    std::vector<uint32_t> words;
    for (uint32_t w = from; w < m_.num_words(i); ++w) words.push_back(m_.word(i, w));
    return words;
  }

  // OpCooperativeMatrixLoadKHR / StoreKHR (RowMajorAccess): band b through the access chain
  // again, its last index b * height * Stride further.
  void RewriteRowMajorAccess(InstIndex i) {
    const bool store = m_.opcode(i) == Op::CooperativeMatrixStoreKHR;
    const uint32_t p = store ? 1 : 3;  // The pointer's word.
    const BandType& t = store ? *ValueType(m_.word(i, 2)) : *Find(m_.type_id(i));
    const InstIndex chain = m_.Def(m_.word(i, p));
    const Id last = m_.word(chain, m_.num_words(chain) - 1);
    const Id index_type = m_.TypeOf(last), stride = m_.word(i, p + 3);
    const auto constant_stride = ir::ConstantValue(m_, stride);
    b_.SetInsertBefore(i);
    std::vector<uint32_t> bands;
    for (uint32_t b = 0; b < t.count; ++b) {
      std::vector<uint32_t> operands = WordsFrom(i, p);
      if (b > 0) {
        const uint32_t rows = b * t.height;
        const Id offset =
            constant_stride
                ? Const(index_type, static_cast<uint32_t>(rows * *constant_stride))
                : b_.Add(Op::IMul, index_type, {stride, Const(index_type, rows)});
        std::vector<uint32_t> chain_words = WordsFrom(chain, 3);
        chain_words.back() = b_.Add(Op::IAdd, index_type, {last, offset});
        operands[0] = b_.Add(m_.opcode(chain), m_.type_id(chain), chain_words);
      }
      if (store) {
        operands[1] = BandOf(m_.word(i, 2), b);
        b_.Add(Op::CooperativeMatrixStoreKHR, 0, operands);
      } else {
        bands.push_back(b_.Add(Op::CooperativeMatrixLoadKHR, t.band, operands));
      }
    }
    if (!store) b_.Add(Op::CompositeConstruct, m_.type_id(i), bands, m_.result_id(i));
    b_.Remove(i);
  }

  // OpCooperativeMatrixReduceEXT with a banded input or result. Rows and 2x2 (both banded alike):
  // band by band. Columns: each band reduced to the result's type (or its band), the results
  // combined element by element (a per-element operation calling CombineFunc); everything: each
  // band reduced, element 0 of each (they all agree) folded through CombineFunc, and splat.
  void RewriteReduce(InstIndex i) {
    const Id type = m_.type_id(i), result = m_.result_id(i), in = m_.word(i, 3);
    const uint32_t mode = m_.word(i, 4);
    const Id combine = m_.word(i, 5);
    const BandType* rt = Find(type);
    const BandType* it = ValueType(in);
    b_.SetInsertBefore(i);
    if (mode == 1 || mode == 4) {
      std::vector<uint32_t> bands;
      for (uint32_t b = 0; b < rt->count; ++b) {
        bands.push_back(b_.Add(Op::CooperativeMatrixReduceEXT, rt->band,
                               {BandOf(in, b), mode, combine}));
      }
      b_.Add(Op::CompositeConstruct, type, bands, result);
      b_.Remove(i);
      return;
    }
    const Id part_type = rt ? rt->band : type;
    const Id component = m_.word(m_.Def(type), 2);
    std::vector<Id> parts;
    for (uint32_t b = 0; b < (it ? it->count : 1); ++b) {
      parts.push_back(
          b_.Add(Op::CooperativeMatrixReduceEXT, part_type, {BandOf(in, b), mode, combine}));
    }
    // The last instruction of the fold is the result when the result has no bands.
    const Id last_id = rt ? 0 : result;
    Id total = parts[0];
    if (parts.size() > 1 && mode == 3) {
      Id value = b_.Add(Op::CompositeExtract, component, {parts[0], 0u});
      for (size_t k = 1; k < parts.size(); ++k) {
        const Id next = b_.Add(Op::CompositeExtract, component, {parts[k], 0u});
        value = b_.Add(Op::FunctionCall, component, {combine, value, next});
      }
      total = b_.Add(Op::CompositeConstruct, part_type, {value}, last_id);
    } else if (parts.size() > 1) {
      const Id wrapper = CombineWrapper(combine, component);
      for (size_t k = 1; k < parts.size(); ++k) {
        total = b_.Add(Op::CooperativeMatrixPerElementOpEXT, part_type,
                       {total, wrapper, parts[k]}, k + 1 == parts.size() ? last_id : 0);
      }
    }
    if (rt) b_.Add(Op::CompositeConstruct, type, std::vector<uint32_t>(rt->count, total), result);
    b_.Remove(i);
  }

  // Func(row, column, x, y) = CombineFunc(x, y): one per CombineFunc, after the module's
  // functions (the per-element operation combining two bands' column reductions).
  Id CombineWrapper(Id combine, Id component) {
    auto it = combine_wrappers_.find(combine);
    if (it != combine_wrappers_.end()) return it->second;
    if (!has_per_element_capability_) {
      has_per_element_capability_ = true;
      b_.SetInsertBefore(0);
      b_.Add(Op::Capability, 0, {U(spv::Capability::CooperativeMatrixPerElementOperationsNV)});
      b_.SetInsertBefore(current_);
    }
    const Id u32 = U32();
    const Id wrapper = Forwarder(component, {u32, u32, component, component}, combine,
                                 [](const std::vector<uint32_t>& p) {
                                   return std::vector<uint32_t>{p[2], p[3]};
                                 });
    combine_wrappers_[combine] = wrapper;
    return wrapper;
  }

  // A function after the module's functions, of parameters of `param_types`, that returns
  // `callee` called with `args(its parameters)` (which may add the instructions that compute
  // them).
  Id Forwarder(Id result_type, const std::vector<uint32_t>& param_types, Id callee,
               const std::function<std::vector<uint32_t>(const std::vector<uint32_t>&)>& args) {
    std::vector<uint32_t> fn_type = {result_type};
    fn_type.insert(fn_type.end(), param_types.begin(), param_types.end());
    const Id type = DeclareWhileRewriting(b_, declarations_, first_banded_, current_,
                                          Op::TypeFunction, fn_type, Reuse::kModule);
    b_.SetInsertAtEnd();
    const Id function = b_.Add(Op::Function, result_type, {0u, type});
    std::vector<uint32_t> params;
    for (uint32_t t : param_types) params.push_back(b_.Add(Op::FunctionParameter, t, {}));
    b_.Add(Op::Label, 0, {});
    std::vector<uint32_t> call = {callee};
    const std::vector<uint32_t> values = args(params);
    call.insert(call.end(), values.begin(), values.end());
    b_.Add(Op::ReturnValue, 0, {b_.Add(Op::FunctionCall, result_type, call)});
    b_.Add(Op::FunctionEnd, 0, {});
    b_.SetInsertBefore(current_);
    return function;
  }

  // Func'(row, column, element, operands..., first_row) = Func(row + first_row, column,
  // element, operands...): one per Func, after the module's functions.
  Id RowOffsetWrapper(Id func) {
    auto it = wrappers_.find(func);
    if (it != wrappers_.end()) return it->second;
    const InstIndex fd = m_.Def(func);
    const InstIndex ft = m_.Def(m_.word(fd, 4));
    const Id row_type = m_.word(ft, 3);
    std::vector<uint32_t> param_types;
    for (uint32_t w = 3; w < m_.num_words(ft); ++w) param_types.push_back(m_.word(ft, w));
    param_types.push_back(row_type);
    const Id wrapper =
        Forwarder(m_.word(fd, 1), param_types, func, [&](const std::vector<uint32_t>& p) {
          // (row + first row, the others as given).
          std::vector<uint32_t> args = {b_.Add(Op::IAdd, row_type, {p[0], p.back()})};
          args.insert(args.end(), p.begin() + 1, p.end() - 1);
          return args;
        });
    wrappers_[func] = wrapper;
    return wrapper;
  }

  void Fail(InstIndex i, const std::string& why) {
    if (error_.empty()) error_ = DescribeInstruction(m_, i) + ": " + why;
  }

  const ir::Module& m_;
  const uint32_t h_;
  const uint32_t owners_ = 0, subgroup_size_ = 0;  // Owned rows: W subgroups of S.
  ir::Builder b_;
  // Owned rows: the built-in inputs, and per component type the Workgroup array of the
  // Row | Column folds.
  struct Fold {
    Id array = 0, element_pointer = 0;
  };
  Id subgroup_id_ = 0, lane_ = 0;
  std::map<Id, Fold> folds_;
  bool vulkan_memory_model_ = false;
  std::map<Id, BandType> types_;
  std::set<Id> clipped_views_;  // View types some OpTensorViewSetClipNV makes.
  std::map<Id, Id> wrappers_;   // Func: its row-offset wrapper.
  std::map<Id, Id> combine_wrappers_;  // CombineFunc: its per-element wrapper.
  std::vector<Id> quads_;              // Input types of 2x2 reductions.
  bool has_per_element_capability_ = false;
  ir::Declarations declarations_{m_};
  InstIndex first_banded_ = ir::kNoInst;
  InstIndex current_ = ir::kNoInst;
  std::string error_;
};

}  // namespace

PassResult BandCoopMatrix2(const ir::Module& module, uint32_t band_rows) {
  return Bander(module, band_rows).Run();
}

PassResult OwnCoopMatrix2Rows(const ir::Module& module, uint32_t subgroup_size, uint32_t min_rows,
                              std::set<ir::Id>* owned) {
  const std::optional<uint64_t> invocations = ir::CommonWorkgroupInvocations(module);
  if (subgroup_size == 0 || !invocations || *invocations % subgroup_size != 0 ||
      *invocations / subgroup_size < 2 || *invocations / subgroup_size > 1024 ||
      module.header().version < grammar::MakeVersion(1, 3)) {
    return PassResult::Unchanged();
  }
  const auto subgroups = static_cast<uint32_t>(*invocations / subgroup_size);
  Bander bander(module, subgroups, subgroup_size, std::max(min_rows, 1u));
  PassResult result = bander.Run();
  if (owned && result.rebuilt) {
    // Each owned type keeps its id unless it merged with another (MergeDuplicateDeclarations):
    // then the id may name a type of the module's own Subgroup-scope matrices too.
    owned->clear();
    const ir::Module& out = *result.rebuilt;
    // The shapes of the module's own Subgroup-scope types (component, scope, rows, columns, use).
    using Shape = std::vector<std::optional<uint64_t>>;
    auto shape_of = [](const ir::Module& m, ir::InstIndex i) {
      Shape shape = {m.word(i, 2)};
      for (uint32_t w = 3; w < 7; ++w) shape.push_back(ir::ConstantValue(m, m.word(i, w)));
      return shape;
    };
    std::set<Shape> subgroup_shapes;
    for (ir::InstIndex i = 0; i < module.global_end(); ++i) {
      if (module.opcode(i) == spv::Op::TypeCooperativeMatrixKHR && module.num_words(i) >= 7 &&
          ir::ConstantValue(module, module.word(i, 3)) != U(spv::Scope::Workgroup)) {
        subgroup_shapes.insert(shape_of(module, i));
      }
    }
    for (ir::Id id : bander.banded_types()) {
      const ir::InstIndex d = out.Def(id);
      if (d == ir::kNoInst || out.opcode(d) != spv::Op::TypeCooperativeMatrixKHR) {
        owned->clear();
        break;
      }
      if (subgroup_shapes.count(shape_of(out, d))) {  // Merged with the band.
        owned->clear();
        break;
      }
      owned->insert(id);
    }
  }
  return result;
}

namespace {
class BandPass : public Pass {
 public:
  explicit BandPass(uint32_t rows) : rows_(rows) {}
  const char* name() const override { return "band-coop-matrix2"; }
  PassResult Run(ir::Module& module) override { return BandCoopMatrix2(module, rows_); }

 private:
  uint32_t rows_;
};
}  // namespace

std::unique_ptr<Pass> CreateBandCoopMatrix2Pass(std::string_view argument, std::string* error) {
  uint32_t rows = 0;
  for (char c : argument) {
    if (c < '0' || c > '9' || rows > 65536) {
      rows = 0;
      break;
    }
    rows = rows * 10 + static_cast<uint32_t>(c - '0');
  }
  if (rows == 0 || rows > 65536) {
    *error = "--band-coop-matrix2 takes the band height (rows, 1 to 65536), not '" +
             std::string(argument) + "'";
    return nullptr;
  }
  return std::make_unique<BandPass>(rows);
}

}  // namespace coopspv::opt
