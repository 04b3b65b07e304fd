// --tile-coop-matrix[=<device profile>]: splits every Subgroup-scope KHR cooperative matrix type
// whose shape and component type the target does not list (VkCooperativeMatrixPropertiesKHR)
// into a grid of tiles of a shape it lists, so that a driver with only VK_KHR_cooperative_matrix
// and a fixed shape list takes the module. --lower-coop-matrix2 keeps the Workgroup shapes (a
// 64 x 64 Workgroup-scope matrix becomes a 64 x 64 Subgroup-scope one, its multiply-adds split
// by rows into 8 x 64 ones, ...); with a device profile it runs this pass at its end, and so does
// --legalize-for-device for a device with KHR matrices.
//
// The shapes: the profile's VkCooperativeMatrixPropertiesKHR entries of Subgroup scope. Without
// a profile, the entries of the H100 / H200 driver (test/data/profiles/h100.json: 16x16x16 and
// 16x8x16 and 16x8x8 float16 x float16 + float16 or float32, 16x16x32 and 16x8x32 (s|u)int8 x
// (s|u)int8 + (s|u)int32, 16x16x16 bfloat16 x bfloat16 + float32), because Vulkan requires no
// particular shape of an implementation: only that one entry of its list has power-of-two
// sizes. Those shapes are also what other vendors list for 16-bit floats and 8-bit integers
// (16x16x16, 16x16x32), so the default suits most drivers.
//
// Which tile: a matrix type is tiled when no entry lists it (for its Use: MatrixA M x K and
// AType, MatrixB K x N and BType, the accumulator M x N and CType or ResultType). For each
// OpCooperativeMatrixMulAddKHR (R x K times K x C plus R x C) touching such a type, the entry of
// the right component types (an integer operand's signedness is the operand mask's), saturation
// and Subgroup scope whose M, N and K divide R, C and K and agree with the tiles its types
// already have, with the most M * N * K, gives the tiles: A in M x K, B in K x N, C and the result
// in M x N. One matrix type has one tiling in the whole module (a type used as A in one
// multiply-add and loaded or stored elsewhere is tiled the same everywhere). An element-wise
// instruction between two types (a conversion) gives both the same tiles, or leaves both whole
// when one stays as it is (its multiply-add has no listed shape: ggml's bfloat16 matmul with a
// float16 accumulator on the H100, converted to float). A type tiled by none of
// these takes the largest entry shape of its Use and component type that divides it. A type no
// shape divides stays as it is (the validator's device rules report it; --lower-coop-matrix2
// with a profile refuses it, UnlistedCoopMatrix); so does a type whose dimensions are
// specialization constants (freeze them first).
//
// Data layout: an R x C type T tiled in m x n becomes, under the same id, OpTypeArray of G =
// (R / m) * (C / n) Subgroup-scope m x n tiles (same component type and Use), tile t = i * (C /
// n) + j holding rows [i * m, (i + 1) * m) and columns [j * n, (j + 1) * n). The tiles live where
// the matrix lived (values, Function variables); every invocation of the subgroup holds its part
// of every tile, as for any KHR matrix; apart from element access (a Function variable, below)
// nothing goes through memory, and no barrier is added.
//
// From a Workgroup-scope matrix (--lower-coop-matrix2=S,<profile>): the lowering makes an R x C
// Workgroup-scope matrix an R x C Subgroup-scope one that every subgroup holds whole, its shared
// steps going through the workgroup's one Workgroup region between Workgroup-scope barriers
// (lower_coop_matrix2.cc); a split multiply-add gives each subgroup R / W rows, which the
// lowering then keeps a multiple of the profile's smallest M. This pass makes each of those
// values an array of listed tiles, in every subgroup, where the value was; the region copies
// become one KHR load or store per tile at the tile's offset in the region (stride C, as
// before), between the same barriers. The tiling itself adds no memory and no barrier: a tile
// is an ordinary Subgroup-scope matrix, and the tiles of one matrix are independent values.
//
// Values of the type (OpPhi, OpSelect, OpUndef, OpConstantNull, OpCopyObject, variables, loads,
// stores, function parameters, calls and returns) keep their instructions. Rewritten:
// - OpCooperativeMatrixLoadKHR / StoreKHR: one per tile, the Pointer (an access chain) advanced
//   by the tile's first element: RowMajor i * m * Stride + j * n, ColumnMajor j * n * Stride +
//   i * m (in units of the pointee; a vector pointee needs the column offset to be a multiple of
//   its size); the access chain's last index moves; Layout, Stride and the memory operands stay
//   (an Aligned alignment drops to the pointee's size for the tiles after the first).
// - OpCooperativeMatrixMulAddKHR: the tile product C[i][j] = sum over k of A[i][k] B[k][j],
//   a chain of multiply-adds with the instruction's operands (signedness, saturation) for each
//   result tile.
// - Element-wise arithmetic and conversions (OpFNegate, OpSNegate, OpFAdd, OpFSub, OpFMul,
//   OpFDiv, OpIAdd, OpISub, OpIMul, OpSDiv, OpUDiv, OpMatrixTimesScalar, OpFConvert,
//   OpSConvert, OpUConvert, OpConvert{F,S,U}To{F,S,U}): tile by tile; all matrix operands and the
//   result must have the same tiles.
// - OpCompositeConstruct and OpConstantComposite of one scalar (a splat): a splat tile, then the
//   array of G of it.
// - OpCooperativeMatrixLengthKHR of T: G times L, the length of a tile.
// - OpCompositeExtract / OpCompositeInsert of element e (one index into the matrix itself): the
//   matrix is stored to a Function variable of the type, and element e % L of tile e / L is read
//   or written there through OpAccessChain (L = OpCooperativeMatrixLengthKHR of the tile: which
//   invocation owns which element is implementation-defined anyway, so this is as good a
//   numbering as the untiled one). OpAccessChain / OpInBoundsAccessChain through a variable of
//   the type: the element index becomes the two indices (e / L, e % L).
// OpCompositeExtract / OpCompositeInsert of a whole matrix out of (into) an aggregate of matrices
// (the row bands of band_coop_matrix2.cc) keep their words.
// Everything else that reads or writes a tiled type fails, naming the instruction (indices
// through a tiled matrix inside an aggregate, specialization constant composites,
// OpCooperativeMatrixTransposeNV ...): no wrong code is written silently.
#include "source/opt/tile_coop_matrix.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "source/ir/builder.h"
#include "source/ir/declarations.h"
#include "source/ir/scalar_eval.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using profile::ComponentType;
using spv::Op;
using Reuse = ir::Declarations::Reuse;

constexpr uint32_t U(auto e) { return static_cast<uint32_t>(e); }
constexpr uint32_t kUseA = 0, kUseB = 1;
// Cooperative matrix operand bits.
constexpr uint32_t kASigned = 0x1, kBSigned = 0x2, kCSigned = 0x4, kResultSigned = 0x8,
                   kSaturating = 0x10;
constexpr uint32_t kAlignedMask = 0x2;  // MemoryAccess Aligned.

// The entries of test/data/profiles/h100.json (see the head comment).
std::vector<TileShape> DefaultShapes() {
  using CT = ComponentType;
  std::vector<TileShape> out;
  for (CT acc : {CT::kFloat16, CT::kFloat32}) {
    out.push_back({16, 16, 16, CT::kFloat16, CT::kFloat16, acc, acc, false});
    out.push_back({16, 8, 16, CT::kFloat16, CT::kFloat16, acc, acc, false});
    out.push_back({16, 8, 8, CT::kFloat16, CT::kFloat16, acc, acc, false});
  }
  for (auto [in, acc] : {std::pair{CT::kUint8, CT::kUint32}, std::pair{CT::kSint8, CT::kSint32}}) {
    out.push_back({16, 16, 32, in, in, acc, acc, false});
    out.push_back({16, 8, 32, in, in, acc, acc, false});
  }
  out.push_back({16, 16, 16, CT::kBFloat16, CT::kBFloat16, CT::kFloat32, CT::kFloat32, false});
  return out;
}

struct MatrixType {
  Id component = 0;
  uint32_t rows = 0, columns = 0, use = 0;
  Id size_type = 0;  // The type of the rows constant (for the new constants).
  // The tiles (rows == m and columns == n: not tiled).
  uint32_t m = 0, n = 0;
  Id tile = 0;  // The tile type (the type itself when not tiled).
  bool tiled() const { return m != rows || n != columns; }
  uint32_t grid_rows() const { return rows / m; }
  uint32_t grid_columns() const { return columns / n; }
  uint32_t count() const { return grid_rows() * grid_columns(); }
};

class Tiler {
 public:
  Tiler(const ir::Module& m, std::vector<TileShape> shapes)
      : m_(m), shapes_(std::move(shapes)), b_(m) {}

  // The multiply-adds (a type whose multiply-add has no listed shape stays whole, so the
  // multiply-add is the cause) and then the Subgroup-scope matrix types (module order) that no
  // shape lists: the first described (empty when there is none), and with `types` the result
  // types of those multiply-adds and those types. A multiply-add is listed when a shape has its
  // M, N, K, the four component types (an integer's signedness from the operand mask) and its
  // saturation; a type when a shape has its dimensions and component type for its Use.
  std::string Unlisted(std::vector<Id>* types) {
    CollectTypes();
    std::string first;
    for (InstIndex i = m_.global_end(); i < m_.num_instructions(); ++i) {
      if (m_.opcode(i) != Op::CooperativeMatrixMulAddKHR || m_.num_words(i) < 6) continue;
      const MatrixType* t[4] = {Find(m_.TypeOf(m_.word(i, 3))), Find(m_.TypeOf(m_.word(i, 4))),
                                Find(m_.TypeOf(m_.word(i, 5))), Find(m_.type_id(i))};
      if (!t[0] || !t[1] || !t[2] || !t[3]) continue;
      const uint32_t mask = m_.num_words(i) > 6 ? m_.word(i, 6) : 0;
      const uint32_t M = t[0]->rows, K = t[0]->columns, N = t[1]->columns;
      const bool listed = std::any_of(shapes_.begin(), shapes_.end(), [&](const TileShape& s) {
        return s.m == M && s.n == N && s.k == K && TypesFit(s, *t[0], *t[1], *t[2], *t[3], mask);
      });
      if (listed) continue;
      if (types) types->push_back(m_.type_id(i));
      if (first.empty()) {
        first = DescribeInstruction(m_, i) + ": M=" + std::to_string(M) +
                " N=" + std::to_string(N) + " K=" + std::to_string(K) + " " +
                ScalarText(t[0]->component) + " x " + ScalarText(t[1]->component) + " + " +
                ScalarText(t[2]->component) + " -> " + ScalarText(t[3]->component) +
                ((mask & kSaturating) ? " saturating" : "") +
                " of Subgroup scope, which no cooperative matrix shape of the device lists, in "
                "any tiling (VUID-RuntimeSpirv-OpCooperativeMatrixMulAddKHR-10060)";
      }
      if (!types) return first;
    }
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      if (m_.opcode(i) != Op::TypeCooperativeMatrixKHR) continue;
      const MatrixType* t = Find(m_.result_id(i));
      if (!t || Supported(*t)) continue;
      if (types) types->push_back(m_.result_id(i));
      if (first.empty()) {
        static constexpr const char* kUses[] = {"MatrixA", "MatrixB", "MatrixAccumulator"};
        first = DescribeInstruction(m_, i) + ": a " + std::to_string(t->rows) + " x " +
                std::to_string(t->columns) + " " + ScalarText(t->component) + " " +
                (t->use < 3 ? kUses[t->use] : "matrix") +
                " of Subgroup scope, which no cooperative matrix shape of the device lists for "
                "its Use, in any tiling (VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163)";
      }
      if (!types) return first;
    }
    return first;
  }

  PassResult Run() {
    CollectTypes();
    if (types_.empty()) return PassResult::Unchanged();
    ChooseTiles();
    if (!error_.empty()) return PassResult::Failed(error_);
    bool any = false;
    for (auto& [id, t] : types_) any = any || t.tiled();
    if (!any) return PassResult::Unchanged();
    DeclareTiles();
    for (InstIndex i = 0; i < m_.num_instructions() && error_.empty(); ++i) Rewrite(i);
    if (!error_.empty()) return PassResult::Failed(error_);
    return FinishMergingDeclarations(b_);
  }

 private:
  std::optional<uint32_t> ConstantValue(Id id) const { return ir::ConstantValue(m_, id); }

  // The Subgroup-scope KHR matrix types with constant dimensions.
  void CollectTypes() {
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      if (m_.opcode(i) != Op::TypeCooperativeMatrixKHR) continue;
      const auto scope = ConstantValue(m_.word(i, 3));
      const auto rows = ConstantValue(m_.word(i, 4));
      const auto columns = ConstantValue(m_.word(i, 5));
      const auto use = ConstantValue(m_.word(i, 6));
      if (!scope || *scope != U(spv::Scope::Subgroup) || !rows || !columns || !use || *rows == 0 ||
          *columns == 0) {
        continue;
      }
      MatrixType t;
      t.component = m_.word(i, 2);
      t.rows = *rows;
      t.columns = *columns;
      t.use = *use;
      t.size_type = m_.TypeOf(m_.word(i, 4));
      types_[m_.result_id(i)] = t;
    }
  }

  bool IsInt(Id type) const { return m_.DefOpcode(type) == Op::TypeInt; }
  // A scalar type in the profile's component type names (float16, sint8, bfloat16, ...).
  std::string ScalarText(Id type) const {
    const InstIndex d = m_.Def(type);
    if (d == ir::kNoInst || m_.num_words(d) < 3) return "%" + std::to_string(type);
    const std::string width = std::to_string(m_.word(d, 2));
    if (m_.opcode(d) == Op::TypeInt) {
      return (m_.num_words(d) > 3 && m_.word(d, 3) ? "sint" : "uint") + width;
    }
    if (m_.opcode(d) != Op::TypeFloat) return "%" + std::to_string(type);
    if (m_.num_words(d) > 3) {
      switch (static_cast<spv::FPEncoding>(m_.word(d, 3))) {
        case spv::FPEncoding::BFloat16KHR:
          return "bfloat16";
        case spv::FPEncoding::Float8E4M3EXT:
          return "float8_e4m3";
        case spv::FPEncoding::Float8E5M2EXT:
          return "float8_e5m2";
        default:
          return "%" + std::to_string(type);
      }
    }
    return "float" + width;
  }
  uint32_t Width(Id type) const {
    const InstIndex d = m_.Def(type);
    return d == ir::kNoInst || m_.num_words(d) < 3 ? 0 : m_.word(d, 2);
  }

  // Whether the scalar type `type` is component type `c` (an integer either signedness unless
  // `sign` says which).
  bool Matches(Id type, ComponentType c, std::optional<bool> sign = std::nullopt) const {
    const InstIndex d = m_.Def(type);
    if (d == ir::kNoInst) return false;
    using CT = ComponentType;
    if (m_.opcode(d) == Op::TypeInt) {
      const uint32_t w = m_.word(d, 2);
      const bool is_signed =
          c == CT::kSint8 || c == CT::kSint16 || c == CT::kSint32 || c == CT::kSint64;
      const uint32_t cw = (c == CT::kSint8 || c == CT::kUint8)     ? 8
                          : (c == CT::kSint16 || c == CT::kUint16) ? 16
                          : (c == CT::kSint32 || c == CT::kUint32) ? 32
                          : (c == CT::kSint64 || c == CT::kUint64) ? 64
                                                                   : 0;
      return cw == w && (!sign || *sign == is_signed);
    }
    if (m_.opcode(d) != Op::TypeFloat) return false;
    const uint32_t w = m_.word(d, 2);
    if (m_.num_words(d) > 3) {
      switch (static_cast<spv::FPEncoding>(m_.word(d, 3))) {
        case spv::FPEncoding::BFloat16KHR:
          return c == CT::kBFloat16;
        case spv::FPEncoding::Float8E4M3EXT:
          return c == CT::kFloat8E4M3;
        case spv::FPEncoding::Float8E5M2EXT:
          return c == CT::kFloat8E5M2;
        default:
          return false;
      }
    }
    return (w == 16 && c == CT::kFloat16) || (w == 32 && c == CT::kFloat32) ||
           (w == 64 && c == CT::kFloat64);
  }

  // Whether a multiply-add of A, B, C and result types `a`, `b`, `c`, `r` with operand mask
  // `mask` has the component types (an integer's signedness from the mask) and saturation of
  // shape `s`.
  bool TypesFit(const TileShape& s, const MatrixType& a, const MatrixType& b, const MatrixType& c,
                const MatrixType& r, uint32_t mask) const {
    return Matches(a.component, s.a, (mask & kASigned) != 0) &&
           Matches(b.component, s.b, (mask & kBSigned) != 0) &&
           Matches(c.component, s.c, (mask & kCSigned) != 0) &&
           Matches(r.component, s.result, (mask & kResultSigned) != 0) &&
           s.saturating == ((mask & kSaturating) != 0);
  }

  // The tile a shape gives a matrix of this Use, when its component type fits.
  std::optional<std::pair<uint32_t, uint32_t>> TileOf(const MatrixType& t,
                                                      const TileShape& s) const {
    if (t.use == kUseA) {
      if (!Matches(t.component, s.a)) return std::nullopt;
      return std::pair{s.m, s.k};
    }
    if (t.use == kUseB) {
      if (!Matches(t.component, s.b)) return std::nullopt;
      return std::pair{s.k, s.n};
    }
    if (!Matches(t.component, s.c) && !Matches(t.component, s.result)) return std::nullopt;
    return std::pair{s.m, s.n};
  }

  bool Supported(const MatrixType& t) const {
    for (const TileShape& s : shapes_) {
      const auto tile = TileOf(t, s);
      if (tile && tile->first == t.rows && tile->second == t.columns) return true;
    }
    return false;
  }

  MatrixType* Find(Id type) {
    auto it = types_.find(type);
    return it == types_.end() ? nullptr : &it->second;
  }



  void ChooseTiles() {
    std::set<Id> unsupported;
    for (auto& [id, t] : types_) {
      if (!Supported(t)) unsupported.insert(id);
    }
    std::map<Id, std::pair<uint32_t, uint32_t>> chosen;
    std::set<Id> pinned;
    // Multiply-adds first.
    for (InstIndex i = m_.global_end(); i < m_.num_instructions(); ++i) {
      if (m_.opcode(i) != Op::CooperativeMatrixMulAddKHR || m_.num_words(i) < 6) continue;
      const Id ids[4] = {m_.TypeOf(m_.word(i, 3)), m_.TypeOf(m_.word(i, 4)),
                         m_.TypeOf(m_.word(i, 5)), m_.type_id(i)};
      MatrixType* t[4];
      bool touches = false;
      for (int k = 0; k < 4; ++k) {
        t[k] = Find(ids[k]);
        if (!t[k]) break;
        touches = touches || unsupported.count(ids[k]);
      }
      if (!t[0] || !t[1] || !t[2] || !t[3] || !touches) continue;
      const uint32_t mask = m_.num_words(i) > 6 ? m_.word(i, 6) : 0;
      const uint32_t R = t[0]->rows, K = t[0]->columns, C = t[1]->columns;
      const TileShape* best = nullptr;
      for (const TileShape& s : shapes_) {
        if (!TypesFit(s, *t[0], *t[1], *t[2], *t[3], mask) || R % s.m || C % s.n || K % s.k)
          continue;
        const std::pair<uint32_t, uint32_t> want[4] = {
            {s.m, s.k}, {s.k, s.n}, {s.m, s.n}, {s.m, s.n}};
        bool agrees = true;
        for (int k = 0; k < 4; ++k) {
          auto it = chosen.find(ids[k]);
          if (it != chosen.end() && it->second != want[k]) agrees = false;
        }
        if (!agrees) continue;
        if (!best || s.m * s.n * s.k > best->m * best->n * best->k) best = &s;
      }
      if (!best) {
        // No listed shape fits: its types stay as they are (unless another instruction tiles
        // them, and then the rewrite fails naming this one); the validator reports them.
        for (Id id : ids) pinned.insert(id);
        continue;
      }
      const std::pair<uint32_t, uint32_t> want[4] = {
          {best->m, best->k}, {best->k, best->n}, {best->m, best->n}, {best->m, best->n}};
      for (int k = 0; k < 4; ++k) chosen[ids[k]] = want[k];
    }
    // Element-wise instructions between two types give both the same tiles.
    for (bool again = true; again;) {
      again = false;
      for (InstIndex i = m_.global_end(); i < m_.num_instructions(); ++i) {
        if (!IsPiecewiseMatrixOp(m_.opcode(i)) || !Find(m_.type_id(i))) continue;
        const Id r = m_.type_id(i);
        for (uint32_t w = 3; w < m_.num_words(i); ++w) {
          const Id o = m_.TypeOf(m_.word(i, w));
          if (o == r || !Find(o)) continue;
          const bool has_r = chosen.count(r), has_o = chosen.count(o);
          const bool pin_r = pinned.count(r), pin_o = pinned.count(o);
          if (has_r && !has_o && !pin_o) {
            chosen[o] = chosen[r];
            again = true;
          } else if (has_o && !has_r && !pin_r) {
            chosen[r] = chosen[o];
            again = true;
          } else if (pin_r != pin_o && !has_r && !has_o) {
            // A type that stays (its multiply-add has no listed shape) keeps its partner whole.
            pinned.insert(pin_r ? o : r);
            again = true;
          }
        }
      }
    }
    // The rest: the largest listed shape of their Use that divides them.
    for (Id id : unsupported) {
      if (chosen.count(id) || pinned.count(id)) continue;
      const MatrixType& t = types_[id];
      std::optional<std::pair<uint32_t, uint32_t>> best;
      for (const TileShape& s : shapes_) {
        const auto tile = TileOf(t, s);
        if (!tile || t.rows % tile->first || t.columns % tile->second) continue;
        if (!best || tile->first * tile->second > best->first * best->second) best = tile;
      }
      if (best) chosen[id] = *best;
    }
    for (auto& [id, t] : types_) {
      auto it = chosen.find(id);
      t.m = t.rows;
      t.n = t.columns;
      t.tile = id;
      if (it == chosen.end()) continue;
      if (t.rows % it->second.first || t.columns % it->second.second) {
        error_ = "cannot tile %" + std::to_string(id) + " (" + std::to_string(t.rows) + "x" +
                 std::to_string(t.columns) + ") in " + std::to_string(it->second.first) + "x" +
                 std::to_string(it->second.second) +
                 " tiles, which an instruction between it and another tiled type needs";
        return;
      }
      t.m = it->second.first;
      t.n = it->second.second;
    }
  }

  // Constants of `type` (an integer type): the tiles' sizes before the first tiled type, those
  // the functions use before the functions (their type may be declared after the matrices).
  // Never the module's own: a tile's sizes must come before the first tiled type, and the
  // module's may not.
  Id Const(Id type, uint32_t value) {
    return DeclareWhileRewriting(b_, declarations_, first_tiled_, current_, Op::Constant,
                                 {type, value}, Reuse::kNever);
  }

  void DeclareTiles() {
    first_tiled_ = ir::kNoInst;
    for (auto& [id, t] : types_) {
      if (t.tiled() && (first_tiled_ == ir::kNoInst || m_.Def(id) < first_tiled_)) {
        first_tiled_ = m_.Def(id);
      }
    }
    for (auto& [id, t] : types_) {
      if (!t.tiled()) continue;
      const InstIndex d = m_.Def(id);
      const Id rows = Const(t.size_type, t.m), columns = Const(t.size_type, t.n);
      const Id count = Const(t.size_type, t.count());
      b_.SetInsertBefore(d);
      t.tile = b_.Add(Op::TypeCooperativeMatrixKHR, 0,
                      {t.component, m_.word(d, 3), rows, columns, m_.word(d, 6)});
      b_.Replace(d, Op::TypeArray, std::vector<uint32_t>{id, t.tile, count});
    }
  }

  void Fail(InstIndex i, const std::string& why) {
    if (error_.empty()) {
      error_ = DescribeInstruction(m_, i) + ": " + why;
    }
  }

  // Tile t of `value` (the value itself for a type that is not tiled).
  Id TileValue(Id value, uint32_t t) {
    const MatrixType* type = Find(m_.TypeOf(value));
    if (!type || !type->tiled()) return value;
    return b_.Add(Op::CompositeExtract, type->tile, {value, t});
  }

  std::string Text(Id type) const {
    const auto& t = types_.at(type);
    return "%" + std::to_string(type) + " (" + std::to_string(t.rows) + "x" +
           std::to_string(t.columns) + " in " + std::to_string(t.m) + "x" + std::to_string(t.n) +
           " tiles)";
  }

  // The pointer to the element `offset_rows` * Stride + `offset_columns` after `pointer`, added
  // before instruction i; 0 (and a failure) when that cannot be written.
  Id Advance(InstIndex i, Id pointer, Id stride, uint32_t offset_rows, uint32_t offset_columns) {
    if (offset_rows == 0 && offset_columns == 0) return pointer;
    const InstIndex chain = m_.Def(pointer);
    if (chain == ir::kNoInst ||
        (m_.opcode(chain) != Op::AccessChain && m_.opcode(chain) != Op::InBoundsAccessChain) ||
        m_.num_words(chain) < 5) {
      Fail(i, "the Pointer is not an access chain, so the tiles' pointers cannot be written");
      return 0;
    }
    // The pointee: a vector counts its components.
    const InstIndex pointer_type = m_.Def(m_.type_id(chain));
    if (pointer_type == ir::kNoInst || m_.opcode(pointer_type) != Op::TypePointer) {
      Fail(i, "the Pointer's type is not a pointer type");
      return 0;
    }
    const Id pointee = m_.word(pointer_type, 3);
    uint32_t vector = 1;
    if (m_.DefOpcode(pointee) == Op::TypeVector) vector = m_.word(m_.Def(pointee), 3);
    if (offset_columns % vector) {
      Fail(i, "a tile starts inside a vector of the Pointer's type");
      return 0;
    }
    const Id last = m_.word(chain, m_.num_words(chain) - 1);
    const Id index_type = m_.TypeOf(last);
    if (!IsInt(index_type)) {
      Fail(i, "the access chain's last index is not an integer");
      return 0;
    }
    Id offset = 0;
    if (offset_rows) {
      if (!stride) {
        Fail(i, "a tile below the first needs the Stride operand");
        return 0;
      }
      Id s = stride;
      const Id stride_type = m_.TypeOf(stride);
      if (stride_type != index_type) {
        if (!IsInt(stride_type)) {
          Fail(i, "the Stride is not an integer");
          return 0;
        }
        s = b_.Add(Width(stride_type) == Width(index_type) ? Op::Bitcast : Op::UConvert, index_type,
                   {stride});
      }
      offset = b_.Add(Op::IMul, index_type, {s, Const(index_type, offset_rows)});
    }
    if (offset_columns) {
      const Id columns = Const(index_type, offset_columns / vector);
      offset = offset ? b_.Add(Op::IAdd, index_type, {offset, columns}) : columns;
    }
    const Id index = b_.Add(Op::IAdd, index_type, {last, offset});
    std::vector<uint32_t> words;
    for (uint32_t w = 3; w + 1 < m_.num_words(chain); ++w) words.push_back(m_.word(chain, w));
    words.push_back(index);
    return b_.Add(m_.opcode(chain), m_.type_id(chain), words);
  }

  // A tile after the first starts where the instruction's Aligned operand (the literal after the
  // memory operand mask at word `mask` of instruction i) need not hold any more: it becomes the
  // size of the pointee, which every element's address has. `words` are the new instruction's
  // operands, word w of i being words[w - first].
  void LowerAlignment(InstIndex i, uint32_t mask, bool moved, std::vector<uint32_t>* words,
                      uint32_t first) {
    if (!moved || m_.num_words(i) <= mask + 1 || (m_.word(i, mask) & kAlignedMask) == 0) {
      return;
    }
    const Id pointer = m_.word(i, mask == 6 ? 3 : 1);
    const InstIndex pointer_type = m_.Def(m_.TypeOf(pointer));
    if (pointer_type == ir::kNoInst || m_.opcode(pointer_type) != Op::TypePointer) return;
    const Id pointee = m_.word(pointer_type, 3);
    uint32_t bytes = 0;
    if (m_.DefOpcode(pointee) == Op::TypeVector) {
      const InstIndex v = m_.Def(pointee);
      bytes = Width(m_.word(v, 2)) / 8 * m_.word(v, 3);
    } else {
      bytes = Width(pointee) / 8;
    }
    uint32_t& alignment = (*words)[mask + 1 - first];
    if (bytes && bytes < alignment) alignment = bytes;
  }

  // The type one index into `type` reaches: IndexedType, a struct's member by the constant
  // `index` (or the literal one).
  Id Walk(Id type, Id index, bool literal) const {
    return IndexedType(m_, type, literal ? std::optional<uint32_t>(index) : ConstantValue(index));
  }

  // An OpTypePointer (storage class, pointee): the module's, else one added before the functions.
  Id PointerTo(spv::StorageClass storage, Id pointee) {
    auto add = [&](Op op, std::span<const uint32_t> words) {
      b_.SetInsertBeforeFunctions();
      const Id id = b_.AddDeclaration(op, words);
      b_.SetInsertBefore(current_);
      return id;
    };
    return declarations_.FindOrAdd(Op::TypePointer, {U(storage), pointee}, Reuse::kModule, add);
  }

  // A Function variable of the tiled type `type` in the function of instruction i, after the
  // function's own variables (one per function and type).
  Id ScratchVariable(InstIndex i, Id type) {
    const uint32_t f = m_.FunctionOf(i);
    const auto key = std::pair{f, type};
    if (auto it = scratch_.find(key); it != scratch_.end()) return it->second;
    const Id pointer = PointerTo(spv::StorageClass::Function, type);
    InstIndex at = m_.blocks()[m_.functions()[f].first_block].label;
    while (at + 1 < m_.num_instructions() && m_.opcode(at + 1) == Op::Variable) ++at;
    b_.SetInsertAfter(at);
    const Id variable = b_.Add(Op::Variable, pointer, {U(spv::StorageClass::Function)});
    b_.SetInsertBefore(current_);
    scratch_[key] = variable;
    return variable;
  }

  // The 32-bit unsigned integer type: the module's, else one added before the first tiled type.
  Id U32Type() {
    auto add = [&](Op op, std::span<const uint32_t> words) {
      b_.SetInsertBefore(first_tiled_);
      const Id id = b_.AddDeclaration(op, words);
      if (current_ != ir::kNoInst) b_.SetInsertBefore(current_);
      return id;
    };
    return declarations_.FindOrAdd(Op::TypeInt, {32, 0}, Reuse::kModule, add);
  }

  // (tile, element in the tile) of element `index` (an id of the 32-bit integer type `type`) of
  // the tiled type `t`: index / L and index % L in uint32 (a signed index, such as GLSL's
  // `m[0]`, is reinterpreted), L the tile's OpCooperativeMatrixLengthKHR, whose result type is
  // uint32.
  std::pair<Id, Id> SplitIndex(const MatrixType& t, Id index, Id type) {
    const Id u32 = U32Type();
    if (type != u32) index = b_.Add(Op::Bitcast, u32, {index});
    const Id length = b_.Add(Op::CooperativeMatrixLengthKHR, u32, {t.tile});
    return {b_.Add(Op::UDiv, u32, {index, length}), b_.Add(Op::UMod, u32, {index, length})};
  }

  // OpAccessChain / OpInBoundsAccessChain through a tiled type: its element index becomes the
  // tile and the element in the tile. False (unchanged) when no index goes through one.
  bool RewriteAccessChain(InstIndex i) {
    if (m_.num_words(i) < 5) return false;
    const InstIndex base_type = m_.Def(m_.TypeOf(m_.word(i, 3)));
    if (base_type == ir::kNoInst || m_.opcode(base_type) != Op::TypePointer) return false;
    Id type = m_.word(base_type, 3);
    bool through = false;
    for (uint32_t w = 4; w < m_.num_words(i) && type; ++w) {
      const MatrixType* t = Find(type);
      if (t && t->tiled()) through = true;
      type = Walk(type, m_.word(i, w), false);
    }
    if (!through) return false;
    b_.SetInsertBefore(i);
    std::vector<uint32_t> words = {m_.word(i, 3)};
    type = m_.word(base_type, 3);
    for (uint32_t w = 4; w < m_.num_words(i); ++w) {
      const MatrixType* t = Find(type);
      const Id index = m_.word(i, w);
      if (t && t->tiled()) {
        const Id index_type = m_.TypeOf(index);
        if (!IsInt(index_type) || Width(index_type) != 32) {
          Fail(i, "an index into a tiled matrix is not a 32-bit integer");
          return true;
        }
        const auto [tile, element] = SplitIndex(*t, index, index_type);
        words.push_back(tile);
        words.push_back(element);
      } else {
        words.push_back(index);
      }
      type = Walk(type, index, false);
    }
    b_.Add(m_.opcode(i), m_.type_id(i), words, m_.result_id(i));
    b_.Remove(i);
    return true;
  }

  // OpCompositeExtract / OpCompositeInsert of element e of a tiled matrix (one index): through a
  // Function variable of the type, the access chain (tile e / L, element e % L).
  void RewriteElementAccess(InstIndex i, const MatrixType& t) {
    const bool insert = m_.opcode(i) == Op::CompositeInsert;
    const uint32_t composite_word = insert ? 4 : 3;
    if (m_.num_words(i) != composite_word + 2) {
      Fail(i, "only one index into a tiled matrix is lowered");
      return;
    }
    const Id type = m_.TypeOf(m_.word(i, composite_word));
    b_.SetInsertBefore(i);
    const Id variable = ScratchVariable(i, type);
    b_.Add(Op::Store, 0, {variable, m_.word(i, composite_word)});
    const auto [tile, element] =
        SplitIndex(t, Const(t.size_type, m_.word(i, composite_word + 1)), t.size_type);
    const Id component = m_.TypeOf(m_.word(i, 3));
    const Id pointer = b_.Add(
        Op::AccessChain, PointerTo(spv::StorageClass::Function, insert ? component : m_.type_id(i)),
        {variable, tile, element});
    if (insert) {
      b_.Add(Op::Store, 0, {pointer, m_.word(i, 3)});
      b_.Add(Op::Load, m_.type_id(i), {variable}, m_.result_id(i));
    } else {
      b_.Add(Op::Load, m_.type_id(i), {pointer}, m_.result_id(i));
    }
    b_.Remove(i);
  }

  // The element offsets (rows of Stride, columns) of tile t under this layout.
  std::optional<std::pair<uint32_t, uint32_t>> TileOffset(InstIndex i, const MatrixType& t,
                                                          Id layout, uint32_t tile) {
    const auto l = ConstantValue(layout);
    const uint32_t r = tile / t.grid_columns() * t.m, c = tile % t.grid_columns() * t.n;
    if (l && *l == U(spv::CooperativeMatrixLayout::RowMajorKHR)) return std::pair{r, c};
    if (l && *l == U(spv::CooperativeMatrixLayout::ColumnMajorKHR)) return std::pair{c, r};
    Fail(i, "the Layout is not a constant RowMajorKHR or ColumnMajorKHR");
    return std::nullopt;
  }

  void Rewrite(InstIndex i) {
    current_ = i;
    const Op op = m_.opcode(i);
    const Id result = m_.result_id(i);
    const Id type = m_.type_id(i);
    const MatrixType* rt = Find(type);
    const bool result_tiled = rt && rt->tiled();
    auto tiled_operand = [&](uint32_t from) {
      for (uint32_t w = from; w < m_.num_words(i); ++w) {
        const MatrixType* t = Find(m_.TypeOf(m_.word(i, w)));
        if (t && t->tiled()) return true;
      }
      return false;
    };
    switch (op) {
      // Values whose instructions stay.
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
      case Op::TypeCooperativeMatrixKHR:
      case Op::TypePointer:
      case Op::TypeFunction:
      case Op::TypeArray:
      case Op::TypeRuntimeArray:
      case Op::TypeStruct:
      case Op::Name:
      case Op::MemberName:
        return;
      default:
        break;
    }
    // Too short for their operands (the validator reports them): left alone.
    const uint32_t shortest = op == Op::CooperativeMatrixLoadKHR     ? 5
                              : op == Op::CooperativeMatrixStoreKHR  ? 4
                              : op == Op::CooperativeMatrixMulAddKHR ? 6
                              : op == Op::CooperativeMatrixLengthKHR ? 4
                                                                     : 0;
    if (m_.num_words(i) < shortest) {
      Fail(i, "it has too few operands");
      return;
    }
    if (op == Op::CooperativeMatrixLoadKHR && result_tiled) {
      b_.SetInsertBefore(i);
      const Id stride = m_.num_words(i) > 5 ? m_.word(i, 5) : 0;
      std::vector<uint32_t> tiles;
      for (uint32_t t = 0; t < rt->count(); ++t) {
        const auto offset = TileOffset(i, *rt, m_.word(i, 4), t);
        if (!offset) return;
        const Id pointer = Advance(i, m_.word(i, 3), stride, offset->first, offset->second);
        if (!pointer) return;
        std::vector<uint32_t> words = {pointer};
        for (uint32_t w = 4; w < m_.num_words(i); ++w) words.push_back(m_.word(i, w));
        LowerAlignment(i, 6, pointer != m_.word(i, 3), &words, 3);
        tiles.push_back(b_.Add(op, rt->tile, words));
      }
      b_.Add(Op::CompositeConstruct, type, tiles, result);
      b_.Remove(i);
      return;
    }
    if (op == Op::CooperativeMatrixStoreKHR) {
      const MatrixType* ot = Find(m_.TypeOf(m_.word(i, 2)));
      if (!ot || !ot->tiled()) return;
      b_.SetInsertBefore(i);
      const Id stride = m_.num_words(i) > 4 ? m_.word(i, 4) : 0;
      for (uint32_t t = 0; t < ot->count(); ++t) {
        const auto offset = TileOffset(i, *ot, m_.word(i, 3), t);
        if (!offset) return;
        const Id pointer = Advance(i, m_.word(i, 1), stride, offset->first, offset->second);
        if (!pointer) return;
        std::vector<uint32_t> words = {pointer, TileValue(m_.word(i, 2), t)};
        for (uint32_t w = 3; w < m_.num_words(i); ++w) words.push_back(m_.word(i, w));
        LowerAlignment(i, 5, pointer != m_.word(i, 1), &words, 1);
        b_.Add(op, 0, words);
      }
      b_.Remove(i);
      return;
    }
    if (op == Op::CooperativeMatrixMulAddKHR) {
      if (!result_tiled && !tiled_operand(3)) return;
      const MatrixType* a = Find(m_.TypeOf(m_.word(i, 3)));
      const MatrixType* bt = Find(m_.TypeOf(m_.word(i, 4)));
      const MatrixType* c = Find(m_.TypeOf(m_.word(i, 5)));
      if (!a || !bt || !c || !rt || a->m != c->m || a->m != rt->m || a->n != bt->m ||
          bt->n != c->n || bt->n != rt->n || a->grid_columns() != bt->grid_rows()) {
        Fail(i, "its operands' tiles do not line up (no listed shape fits all of them)");
        return;
      }
      b_.SetInsertBefore(i);
      std::vector<uint32_t> extra;
      for (uint32_t w = 6; w < m_.num_words(i); ++w) extra.push_back(m_.word(i, w));
      std::map<std::pair<Id, uint32_t>, Id> extracted;
      auto tile_of = [&](Id value, uint32_t t) {
        auto& slot = extracted[{value, t}];
        if (!slot) slot = TileValue(value, t);
        return slot;
      };
      std::vector<uint32_t> tiles;
      const uint32_t gk = a->grid_columns(), gc = rt->grid_columns();
      for (uint32_t r = 0; r < rt->grid_rows(); ++r) {
        for (uint32_t col = 0; col < gc; ++col) {
          Id acc = tile_of(m_.word(i, 5), r * gc + col);
          for (uint32_t k = 0; k < gk; ++k) {
            std::vector<uint32_t> words = {tile_of(m_.word(i, 3), r * gk + k),
                                           tile_of(m_.word(i, 4), k * gc + col), acc};
            words.insert(words.end(), extra.begin(), extra.end());
            const bool last = !rt->tiled() && k + 1 == gk;
            acc = b_.Add(op, rt->tile, words, last ? result : 0);
          }
          tiles.push_back(acc);
        }
      }
      if (rt->tiled()) b_.Add(Op::CompositeConstruct, type, tiles, result);
      b_.Remove(i);
      return;
    }
    if (op == Op::CooperativeMatrixLengthKHR) {
      const MatrixType* t = Find(m_.word(i, 3));
      if (!t || !t->tiled()) return;
      b_.SetInsertBefore(i);
      const Id tile_length = b_.Add(op, type, {t->tile});
      b_.Add(Op::IMul, type, {tile_length, Const(type, t->count())}, result);
      b_.Remove(i);
      return;
    }
    if ((op == Op::CompositeConstruct || op == Op::ConstantComposite) && result_tiled) {
      if (m_.num_words(i) != 4) {
        Fail(i, "only a splat (one scalar) of a tiled matrix type is lowered");
        return;
      }
      b_.SetInsertBefore(i);
      const Id tile = b_.Add(op, rt->tile, {m_.word(i, 3)});
      b_.Add(op, type, std::vector<uint32_t>(rt->count(), tile), result);
      b_.Remove(i);
      return;
    }
    if (IsPiecewiseMatrixOp(op) && result_tiled) {
      for (uint32_t w = 3; w < m_.num_words(i); ++w) {
        const MatrixType* t = Find(m_.TypeOf(m_.word(i, w)));
        if (t && (t->m != rt->m || t->n != rt->n || t->rows != rt->rows)) {
          Fail(i, "its operand's tiles differ from its result's " + Text(type));
          return;
        }
      }
      b_.SetInsertBefore(i);
      std::vector<uint32_t> tiles;
      for (uint32_t t = 0; t < rt->count(); ++t) {
        std::vector<uint32_t> words;
        for (uint32_t w = 3; w < m_.num_words(i); ++w) {
          words.push_back(TileValue(m_.word(i, w), t));
        }
        tiles.push_back(b_.Add(op, rt->tile, words));
      }
      b_.Add(Op::CompositeConstruct, type, tiles, result);
      b_.Remove(i);
      return;
    }
    if ((op == Op::AccessChain || op == Op::InBoundsAccessChain) && RewriteAccessChain(i)) return;
    if (op == Op::CompositeExtract || op == Op::CompositeInsert) {
      const uint32_t composite = op == Op::CompositeInsert ? 4 : 3;
      const MatrixType* t =
          m_.num_words(i) > composite ? Find(m_.TypeOf(m_.word(i, composite))) : nullptr;
      if (t && t->tiled()) return RewriteElementAccess(i, *t);
      // An index through a tiled matrix inside an aggregate is not lowered.
      Id walked = m_.num_words(i) > composite ? m_.TypeOf(m_.word(i, composite)) : 0;
      for (uint32_t w = composite + 1; w < m_.num_words(i) && walked; ++w) {
        const MatrixType* inner = Find(walked);
        if (inner && inner->tiled()) {
          Fail(i, "an index goes through the tiled matrix type " + Text(walked) +
                      " inside an aggregate, which is not tiled yet");
          return;
        }
        walked = Walk(walked, m_.word(i, w), true);
      }
      // A matrix taken out of (put into) an aggregate of matrices, such as the row bands of
      // --lower-coop-matrix2 (band_coop_matrix2.cc): the aggregate holds the tiles' arrays.
      return;
    }
    // An aggregate of matrices: its constituents are tiled the same way wherever they go.
    if (op == Op::CompositeConstruct && !result_tiled) return;
    if (result_tiled) {
      Fail(i, "its result has the tiled matrix type " + Text(type) +
                  ", and this instruction is not tiled yet");
      return;
    }
    if (i >= m_.global_end() && tiled_operand(result ? 3 : 1)) {
      Fail(i, "it reads a value of a tiled matrix type, and this instruction is not tiled yet");
    }
  }

  const ir::Module& m_;
  std::vector<TileShape> shapes_;
  ir::Builder b_;
  std::map<Id, MatrixType> types_;
  ir::Declarations declarations_{m_};              // Constants and pointer types.
  std::map<std::pair<uint32_t, Id>, Id> scratch_;  // (function, type): variable.
  InstIndex first_tiled_ = ir::kNoInst;
  InstIndex current_ = ir::kNoInst;  // The instruction being rewritten (new code goes before).
  std::string error_;
};

class TileCoopMatrixPass : public Pass {
 public:
  explicit TileCoopMatrixPass(std::vector<TileShape> shapes) : shapes_(std::move(shapes)) {}
  const char* name() const override { return "tile-coop-matrix"; }
  PassResult Run(ir::Module& module) override { return Tiler(module, shapes_).Run(); }

 private:
  std::vector<TileShape> shapes_;
};

class LowerUnlistedPass : public Pass {
 public:
  LowerUnlistedPass(uint32_t subgroup_size, std::vector<TileShape> shapes)
      : subgroup_size_(subgroup_size), shapes_(std::move(shapes)) {}
  const char* name() const override { return "lower-unlisted-coop-matrix"; }
  PassResult Run(ir::Module& module) override {
    return LowerUnlistedCoopMatrices(module, subgroup_size_, shapes_);
  }

 private:
  uint32_t subgroup_size_;
  std::vector<TileShape> shapes_;
};

}  // namespace

bool IsPiecewiseMatrixOp(spv::Op op) {
  switch (op) {
    case Op::FNegate:
    case Op::SNegate:
    case Op::FAdd:
    case Op::FSub:
    case Op::FMul:
    case Op::FDiv:
    case Op::IAdd:
    case Op::ISub:
    case Op::IMul:
    case Op::SDiv:
    case Op::UDiv:
    case Op::MatrixTimesScalar:
    case Op::FConvert:
    case Op::SConvert:
    case Op::UConvert:
    case Op::ConvertFToU:
    case Op::ConvertFToS:
    case Op::ConvertSToF:
    case Op::ConvertUToF:
      return true;
    default:
      return false;
  }
}

PassResult LowerUnlistedCoopMatrices(ir::Module& module, uint32_t subgroup_size,
                                     const std::vector<TileShape>& shapes) {
  std::vector<uint32_t> types;
  const std::string unlisted = UnlistedCoopMatrix(module, shapes, &types);
  if (unlisted.empty()) return PassResult::Unchanged();
  PassResult plain = LowerCoopMatrixTypes(module, subgroup_size, types);
  if (plain.status == PassStatus::kFailed || !plain.rebuilt) {
    return PassResult::Failed(unlisted + "; lowering it to plain code failed: " +
                              (plain.error.empty() ? "nothing changed" : plain.error));
  }
  return plain;
}

std::unique_ptr<Pass> CreateLowerUnlistedCoopMatrixPass(uint32_t subgroup_size,
                                                        std::vector<TileShape> shapes) {
  return std::make_unique<LowerUnlistedPass>(subgroup_size, std::move(shapes));
}

std::vector<TileShape> TileShapesOf(const profile::DeviceProfile& profile) {
  std::vector<TileShape> out;
  for (const auto& e : profile.cooperativeMatrixProperties) {
    if (e.scope != profile::Scope::kSubgroup || !e.MSize || !e.NSize || !e.KSize) continue;
    out.push_back({e.MSize, e.NSize, e.KSize, e.AType, e.BType, e.CType, e.ResultType,
                   e.saturatingAccumulation});
  }
  return out;
}

PassResult TileCoopMatrices(ir::Module& module, std::vector<TileShape> shapes) {
  return Tiler(module, std::move(shapes)).Run();
}

std::string UnlistedCoopMatrix(const ir::Module& module, std::vector<TileShape> shapes,
                               std::vector<uint32_t>* types) {
  return Tiler(module, std::move(shapes)).Unlisted(types);
}

std::unique_ptr<Pass> CreateTileCoopMatrixPass(std::vector<TileShape> shapes) {
  return std::make_unique<TileCoopMatrixPass>(std::move(shapes));
}

bool TileShapesFromArgument(std::string_view argument, std::vector<TileShape>* shapes,
                            std::string* error) {
  if (argument.empty()) {
    *shapes = DefaultShapes();
    return true;
  }
  LegalizeTarget target;
  if (!LegalizeTargetFromProfile(argument, &target, error)) return false;
  *shapes = TileShapesOf(*target.profile);
  return true;
}

std::unique_ptr<Pass> CreateTileCoopMatrixPass(std::string_view argument, std::string* error) {
  std::vector<TileShape> shapes;
  if (!TileShapesFromArgument(argument, &shapes, error)) return nullptr;
  return CreateTileCoopMatrixPass(std::move(shapes));
}

}  // namespace coopspv::opt
