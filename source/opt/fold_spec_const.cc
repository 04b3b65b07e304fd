// --fold-spec-const: evaluates OpSpecConstantOp instructions whose operands are all constants
// (integer arithmetic, conversions, shifts, bitwise, comparisons, logical operations, select,
// composite extract / insert, vector shuffle) and OpSpecConstantComposite whose constituents
// are all constants, turning them into plain constants with the same result id. Then types and
// constants that became identical are merged: two cooperative matrix types whose Rows were
// different spec-constant expressions that both fold to 16 become one type.
//
// Instructions are visited in module order, so chains fold in one sweep; a folded value is
// kept in a side table (the builder's edits appear only in the rebuilt module).
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include "source/ir/builder.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;

struct Scalar {
  bool is_bool = false;
  bool is_signed = false;
  uint32_t width = 32;
  uint64_t bits = 0;

  int64_t Signed() const {
    if (width >= 64) return static_cast<int64_t>(bits);
    const int shift = 64 - static_cast<int>(width);
    return static_cast<int64_t>(bits << shift) >> shift;
  }
};

uint64_t MaskTo(uint64_t v, uint32_t width) { return width >= 64 ? v : v & ((1ull << width) - 1); }

class SpecConstFolder {
 public:
  explicit SpecConstFolder(const ir::Module& m) : m_(m), b_(m) {}

  bool Run();
  ir::Builder& builder() { return b_; }

 private:
  Id Resolve(Id id) const {
    for (int hops = 0; hops < 64; ++hops) {
      auto it = alias_.find(id);
      if (it == alias_.end()) return id;
      id = it->second;
    }
    return id;
  }
  // The scalar type of an integer or bool type id.
  std::optional<Scalar> TypeShape(Id type) const;
  std::optional<Scalar> Value(Id id) const;
  // Constituents of a constant composite (original, or folded from a spec composite).
  std::optional<std::vector<Id>> Constituents(Id id) const;
  bool IsFoldedConstant(Id id) const;

  bool FoldOp(InstIndex i);
  void WriteScalar(InstIndex i, Id type, const Scalar& value);

  const ir::Module& m_;
  ir::Builder b_;
  std::map<Id, Scalar> scalars_;              // Folded scalar values.
  std::map<Id, std::vector<Id>> composites_;  // Folded composite constituents.
  std::map<Id, Id> alias_;                    // Results that became another id.
};

std::optional<Scalar> SpecConstFolder::TypeShape(Id type) const {
  const InstIndex d = m_.Def(type);
  if (d == ir::kNoInst) return std::nullopt;
  Scalar s;
  if (m_.opcode(d) == Op::TypeBool) {
    s.is_bool = true;
    s.width = 1;
    return s;
  }
  if (m_.opcode(d) != Op::TypeInt) return std::nullopt;
  s.width = m_.word(d, 2);
  s.is_signed = m_.word(d, 3) != 0;
  if (s.width == 0 || s.width > 64) return std::nullopt;
  return s;
}

std::optional<Scalar> SpecConstFolder::Value(Id id) const {
  id = Resolve(id);
  if (auto it = scalars_.find(id); it != scalars_.end()) return it->second;
  const InstIndex d = m_.Def(id);
  if (d == ir::kNoInst) return std::nullopt;
  auto shape = TypeShape(m_.type_id(d));
  if (!shape) return std::nullopt;
  switch (m_.opcode(d)) {
    case Op::ConstantTrue:
      shape->bits = 1;
      return shape;
    case Op::ConstantFalse:
    case Op::ConstantNull:
      shape->bits = 0;
      return shape;
    case Op::Constant: {
      uint64_t bits = m_.word(d, 3);
      if (shape->width > 32 && m_.num_words(d) > 4)
        bits |= static_cast<uint64_t>(m_.word(d, 4)) << 32;
      shape->bits = MaskTo(bits, shape->width);
      return shape;
    }
    default:
      return std::nullopt;
  }
}

std::optional<std::vector<Id>> SpecConstFolder::Constituents(Id id) const {
  id = Resolve(id);
  if (auto it = composites_.find(id); it != composites_.end()) return it->second;
  const InstIndex d = m_.Def(id);
  if (d == ir::kNoInst || m_.opcode(d) != Op::ConstantComposite) return std::nullopt;
  std::vector<Id> out;
  for (size_t w = 3; w < m_.num_words(d); ++w) out.push_back(m_.word(d, w));
  return out;
}

bool SpecConstFolder::IsFoldedConstant(Id id) const {
  id = Resolve(id);
  if (scalars_.count(id) || composites_.count(id)) return true;
  const Op op = m_.DefOpcode(id);
  return ir::IsConstant(op) && !ir::IsSpecConstant(op);
}

void SpecConstFolder::WriteScalar(InstIndex i, Id type, const Scalar& v) {
  const Id result = m_.result_id(i);
  scalars_[result] = v;
  if (v.is_bool) {
    const uint32_t words[2] = {type, result};
    b_.Replace(i, v.bits ? Op::ConstantTrue : Op::ConstantFalse, words);
    return;
  }
  uint64_t bits = MaskTo(v.bits, v.width);
  // Below 32 bits, signed values are sign-extended into their word.
  if (v.is_signed && v.width < 32 && ((bits >> (v.width - 1)) & 1))
    bits |= ~((1ull << v.width) - 1);
  std::vector<uint32_t> words = {type, result, static_cast<uint32_t>(bits)};
  if (v.width > 32) words.push_back(static_cast<uint32_t>(bits >> 32));
  b_.Replace(i, Op::Constant, words);
}

bool SpecConstFolder::FoldOp(InstIndex i) {
  const ir::Inst inst = m_.inst(i);
  const Op op = static_cast<Op>(inst.words[3]);
  const Id type = inst.type_id;
  const Id result = inst.result_id;
  std::vector<Id> ids;  // Id operands of the operation, in order.
  std::vector<uint32_t> literals;
  for (const auto& operand : inst.operands) {
    if (operand.offset < 4) continue;
    if (grammar::IsIdKind(operand.kind)) {
      ids.push_back(inst.word(operand));
    } else {
      literals.push_back(inst.word(operand));
    }
  }
  for (Id id : ids) {
    if (!IsFoldedConstant(id)) return false;
  }
  // Operations that pick or build composites.
  if (op == Op::CompositeExtract && ids.size() == 1) {
    Id current = Resolve(ids[0]);
    for (uint32_t index : literals) {
      auto parts = Constituents(current);
      if (!parts || index >= parts->size()) return false;
      current = Resolve((*parts)[index]);
    }
    alias_[result] = current;
    b_.ReplaceAllUsesWith(result, current);
    b_.Remove(i);
    return true;
  }
  if (op == Op::CompositeInsert && ids.size() == 2 && literals.size() == 1) {
    auto parts = Constituents(ids[1]);
    if (!parts || literals[0] >= parts->size()) return false;
    (*parts)[literals[0]] = Resolve(ids[0]);
    composites_[result] = *parts;
    std::vector<uint32_t> words = {type, result};
    words.insert(words.end(), parts->begin(), parts->end());
    b_.Replace(i, Op::ConstantComposite, words);
    return true;
  }
  if (op == Op::VectorShuffle && ids.size() == 2) {
    auto a = Constituents(ids[0]), c = Constituents(ids[1]);
    if (!a || !c) return false;
    std::vector<Id> parts;
    for (uint32_t index : literals) {
      if (index < a->size()) {
        parts.push_back((*a)[index]);
      } else if (index - a->size() < c->size()) {
        parts.push_back((*c)[index - a->size()]);
      } else {
        return false;  // 0xFFFFFFFF (undefined component) or out of range.
      }
    }
    composites_[result] = parts;
    std::vector<uint32_t> words = {type, result};
    words.insert(words.end(), parts.begin(), parts.end());
    b_.Replace(i, Op::ConstantComposite, words);
    return true;
  }
  if (op == Op::Select && ids.size() == 3) {
    const auto cond = Value(ids[0]);
    if (!cond || !cond->is_bool) return false;
    const Id chosen = Resolve(cond->bits ? ids[1] : ids[2]);
    alias_[result] = chosen;
    b_.ReplaceAllUsesWith(result, chosen);
    b_.Remove(i);
    return true;
  }
  // Scalar integer and Boolean operations.
  auto shape = TypeShape(type);
  if (!shape) return false;
  std::vector<Scalar> v;
  for (Id id : ids) {
    auto value = Value(id);
    if (!value) return false;
    v.push_back(*value);
  }
  Scalar r = *shape;
  const uint32_t w = r.width;
  auto unary = [&] { return v.size() == 1; };
  auto binary = [&] { return v.size() == 2; };
  switch (op) {
    case Op::UConvert:
      if (!unary()) return false;
      r.bits = MaskTo(v[0].bits, w);
      break;
    case Op::SConvert:
      if (!unary()) return false;
      r.bits = MaskTo(static_cast<uint64_t>(v[0].Signed()), w);
      break;
    case Op::SNegate:
      if (!unary()) return false;
      r.bits = MaskTo(0 - v[0].bits, w);
      break;
    case Op::Not:
      if (!unary()) return false;
      r.bits = MaskTo(~v[0].bits, w);
      break;
    case Op::IAdd:
      if (!binary()) return false;
      r.bits = MaskTo(v[0].bits + v[1].bits, w);
      break;
    case Op::ISub:
      if (!binary()) return false;
      r.bits = MaskTo(v[0].bits - v[1].bits, w);
      break;
    case Op::IMul:
      if (!binary()) return false;
      r.bits = MaskTo(v[0].bits * v[1].bits, w);
      break;
    case Op::UDiv:
    case Op::UMod:
      if (!binary() || v[1].bits == 0) return false;  // Undefined: leave it.
      r.bits = op == Op::UDiv ? v[0].bits / v[1].bits : v[0].bits % v[1].bits;
      break;
    case Op::SDiv:
    case Op::SRem:
    case Op::SMod: {
      if (!binary()) return false;
      const int64_t a = v[0].Signed(), d = v[1].Signed();
      if (d == 0 || (d == -1 && a == std::numeric_limits<int64_t>::min())) return false;
      int64_t q = 0;
      if (op == Op::SDiv) {
        q = a / d;
      } else if (op == Op::SRem) {
        q = a % d;  // Sign of the dividend.
      } else {
        q = a % d;  // SMod: sign of the divisor.
        if (q != 0 && ((q < 0) != (d < 0))) q += d;
      }
      r.bits = MaskTo(static_cast<uint64_t>(q), w);
      break;
    }
    case Op::ShiftRightLogical:
    case Op::ShiftRightArithmetic:
    case Op::ShiftLeftLogical: {
      if (!binary() || v[1].bits >= w) return false;  // Undefined shift amounts.
      const uint64_t s = v[1].bits;
      if (op == Op::ShiftLeftLogical) {
        r.bits = MaskTo(v[0].bits << s, w);
      } else if (op == Op::ShiftRightLogical) {
        r.bits = MaskTo(v[0].bits, w) >> s;
      } else {
        r.bits = MaskTo(static_cast<uint64_t>(v[0].Signed() >> s), w);
      }
      break;
    }
    case Op::BitwiseOr:
      if (!binary()) return false;
      r.bits = v[0].bits | v[1].bits;
      break;
    case Op::BitwiseXor:
      if (!binary()) return false;
      r.bits = v[0].bits ^ v[1].bits;
      break;
    case Op::BitwiseAnd:
      if (!binary()) return false;
      r.bits = v[0].bits & v[1].bits;
      break;
    case Op::IEqual:
    case Op::INotEqual:
    case Op::ULessThan:
    case Op::SLessThan:
    case Op::UGreaterThan:
    case Op::SGreaterThan:
    case Op::ULessThanEqual:
    case Op::SLessThanEqual:
    case Op::UGreaterThanEqual:
    case Op::SGreaterThanEqual: {
      if (!binary() || !r.is_bool) return false;
      const uint64_t a = v[0].bits, c = v[1].bits;
      const int64_t sa = v[0].Signed(), sc = v[1].Signed();
      bool x = false;
      switch (op) {
        case Op::IEqual:
          x = a == c;
          break;
        case Op::INotEqual:
          x = a != c;
          break;
        case Op::ULessThan:
          x = a < c;
          break;
        case Op::SLessThan:
          x = sa < sc;
          break;
        case Op::UGreaterThan:
          x = a > c;
          break;
        case Op::SGreaterThan:
          x = sa > sc;
          break;
        case Op::ULessThanEqual:
          x = a <= c;
          break;
        case Op::SLessThanEqual:
          x = sa <= sc;
          break;
        case Op::UGreaterThanEqual:
          x = a >= c;
          break;
        default:
          x = sa >= sc;
          break;
      }
      r.bits = x;
      break;
    }
    case Op::LogicalOr:
    case Op::LogicalAnd:
    case Op::LogicalEqual:
    case Op::LogicalNotEqual:
      if (!binary() || !r.is_bool) return false;
      r.bits = op == Op::LogicalOr      ? (v[0].bits | v[1].bits)
               : op == Op::LogicalAnd   ? (v[0].bits & v[1].bits)
               : op == Op::LogicalEqual ? (v[0].bits == v[1].bits)
                                        : (v[0].bits != v[1].bits);
      break;
    case Op::LogicalNot:
      if (!unary() || !r.is_bool) return false;
      r.bits = !v[0].bits;
      break;
    default:
      return false;
  }
  WriteScalar(i, type, r);
  return true;
}

bool SpecConstFolder::Run() {
  bool changed = false;
  for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
    const Op op = m_.opcode(i);
    if (op == Op::SpecConstantOp) {
      changed = FoldOp(i) || changed;
    } else if (op == Op::SpecConstantComposite) {
      bool all = true;
      std::vector<Id> parts;
      for (size_t w = 3; w < m_.num_words(i); ++w) {
        const Id c = Resolve(m_.word(i, w));
        all = all && IsFoldedConstant(c);
        parts.push_back(c);
      }
      if (!all) continue;
      composites_[m_.result_id(i)] = parts;
      std::vector<uint32_t> words = {m_.type_id(i), m_.result_id(i)};
      words.insert(words.end(), parts.begin(), parts.end());
      b_.Replace(i, Op::ConstantComposite, words);
      changed = true;
    }
  }
  return changed;
}

class FoldSpecConstPass : public Pass {
 public:
  const char* name() const override { return "fold-spec-const"; }

  PassResult Run(ir::Module& m) override {
    Diagnostic d;
    std::unique_ptr<ir::Module> folded;
    SpecConstFolder folder(m);
    if (folder.Run()) {
      folded = folder.builder().Finish(&d);
      if (!folded) return PassResult::Failed("could not rebuild the module: " + d.ToString());
    }
    const ir::Module& current = folded ? *folded : m;
    auto merged = MergeDuplicateDeclarations(current, &d);
    if (merged) return PassResult::Rebuilt(std::move(merged));
    if (!d.message.empty()) return PassResult::Failed(d.ToString());
    if (folded) return PassResult::Rebuilt(std::move(folded));
    return PassResult::Unchanged();
  }
};

}  // namespace

std::unique_ptr<ir::Module> MergeDuplicateDeclarations(const ir::Module& m,
                                                       Diagnostic* diagnostic) {
  // Ids that carry decorations keep their identity.
  std::vector<bool> pinned(m.bound(), false);
  for (InstIndex i = 0; i < m.num_instructions(); ++i) {
    switch (m.opcode(i)) {
      case Op::Decorate:
      case Op::DecorateId:
      case Op::DecorateString:
      case Op::MemberDecorate:
      case Op::MemberDecorateString:
        pinned[m.word(i, 1)] = true;
        break;
      case Op::GroupDecorate:
      case Op::GroupMemberDecorate:
        for (size_t w = 2; w < m.num_words(i); w += m.opcode(i) == Op::GroupDecorate ? 1 : 2) {
          pinned[m.word(i, w)] = true;
        }
        break;
      case Op::TypeForwardPointer:
        pinned[m.word(i, 1)] = true;
        break;
      default:
        break;
    }
  }
  std::vector<Id> rename(m.bound(), 0);
  auto renamed = [&](Id id) { return id < rename.size() && rename[id] ? rename[id] : id; };
  std::map<std::vector<uint32_t>, Id> seen;
  ir::Builder b(m);
  bool changed = false;
  std::vector<uint32_t> key;
  for (InstIndex i = 0; i < m.num_instructions(); ++i) {
    const Op op = m.opcode(i);
    if (op == Op::Function) break;  // Declarations precede the functions.
    const bool mergeable =
        (ir::IsTypeDeclaration(op) && op != Op::TypeStruct && op != Op::TypeOpaque) ||
        (ir::IsConstant(op) && !ir::IsSpecConstant(op));
    const Id result = m.result_id(i);
    if (!mergeable || result == 0 || pinned[result]) continue;
    const ir::Inst inst = m.inst(i);
    key.assign(1, static_cast<uint32_t>(op));
    for (const auto& operand : inst.operands) {
      if (operand.kind == grammar::OperandKind::kIdResult) continue;
      for (uint16_t k = 0; k < operand.num_words; ++k) {
        const uint32_t word = inst.word(operand, k);
        key.push_back(grammar::IsIdKind(operand.kind) ? renamed(word) : word);
      }
    }
    auto [it, inserted] = seen.emplace(key, result);
    if (inserted) continue;
    rename[result] = it->second;
    b.ReplaceAllUsesWith(result, it->second);
    b.Remove(i);
    changed = true;
  }
  if (!changed) return nullptr;
  // Names of merged-away ids go with them.
  for (InstIndex i = 0; i < m.num_instructions(); ++i) {
    const Op op = m.opcode(i);
    if ((op == Op::Name || op == Op::MemberName) && rename[m.word(i, 1)] != 0) b.Remove(i);
  }
  return b.Finish(diagnostic);
}

std::unique_ptr<Pass> CreateFoldSpecConstPass(std::string_view, std::string*) {
  return std::make_unique<FoldSpecConstPass>();
}

}  // namespace coopspv::opt
