// --fold-spec-const: evaluates OpSpecConstantOp instructions whose operands are all constants
// (integer arithmetic, conversions, shifts, bitwise, comparisons, logical operations, select,
// composite extract / insert, vector shuffle) and OpSpecConstantComposite whose constituents
// are all constants, turning them into plain constants with the same result id. Then types and
// constants that became identical are merged: two cooperative matrix types whose Rows were
// different spec-constant expressions that both fold to 16 become one type.
//
// Instructions are visited in module order, so chains fold in one sweep; a folded value is
// kept in a side table (the builder's edits appear only in the rebuilt module).
#include <map>
#include <optional>
#include <vector>

#include "source/ir/builder.h"
#include "source/ir/scalar_eval.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;

using ir::MaskTo;
using ir::Scalar;

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

std::optional<Scalar> SpecConstFolder::Value(Id id) const {
  id = Resolve(id);
  if (auto it = scalars_.find(id); it != scalars_.end()) return it->second;
  const InstIndex d = m_.Def(id);
  if (d == ir::kNoInst) return std::nullopt;
  auto shape = ir::ScalarShape(m_, m_.type_id(d));
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
  auto shape = ir::ScalarShape(m_, type);
  if (!shape) return false;
  std::vector<Scalar> v;
  for (Id id : ids) {
    auto value = Value(id);
    if (!value) return false;
    v.push_back(*value);
  }
  const std::optional<Scalar> r = ir::EvaluateScalarOp(op, *shape, v);
  if (!r) return false;
  WriteScalar(i, type, *r);
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
