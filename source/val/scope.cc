// Scope and Memory Semantics operands. In shaders they are OpConstant; SPV_KHR_cooperative_matrix
// and SPV_NV_cooperative_matrix relax Scope to any constant instruction (spec constants included)
// wherever their capability is declared, for every instruction's Scope operands (the NV one
// relaxes Memory Semantics too). The Memory Semantics rules are memory_semantics.cc's.
#include <string>

#include "source/val/cooperative.h"
#include "source/val/memory_semantics.h"
#include "source/val/state.h"

namespace coopspv::val {

bool ScopesVisits(const ValidationState& state, Op op) {
  return ir::TraitsOf(op).has_scope_or_semantics;
}

void ValidateScopes(ValidationState& state) {
  const ir::Module& m = state.module();
  const bool shader = state.HasCapability(spv::Capability::Shader);
  const bool relaxed = state.HasCapability(spv::Capability::CooperativeMatrixKHR) ||
                       state.HasCapability(spv::Capability::CooperativeMatrixNV);
  for (const InstIndex i : state.Walked(Walk::kScopes)) {
    if (state.Full()) break;
    // Most visits are loads and stores: their only Scope operands are those of the Memory
    // Operands MakePointerAvailable (0x8) and MakePointerVisible (0x10).
    const Op op = m.opcode(i);
    if (op == Op::Load || op == Op::Store) {
      const uint32_t mask_word = op == Op::Load ? 4 : 3;
      if (m.num_words(i) <= mask_word || (m.word(i, mask_word) & 0x18u) == 0) continue;
    }
    const ir::Inst inst = m.inst(i);
    SemanticsOperands semantics;
    Id last_scope = 0;             // The Scope operand a Memory Semantics operand goes with.
    bool memory_operands = false;  // Past a Memory Operands mask: its Scopes are memory Scopes.
    for (const auto& operand : inst.operands) {
      if (operand.kind == grammar::OperandKind::kMemoryAccess) memory_operands = true;
      if (operand.kind == grammar::OperandKind::kIdMemorySemantics) {
        if (semantics.count < 2) semantics.ids[semantics.count++] = inst.word(operand);
        if (semantics.memory_scope == 0) {
          semantics.memory_scope = last_scope;
          if (last_scope != 0) CheckMemoryScope(state, i, last_scope, false);
        }
        continue;
      }
      if (operand.kind != grammar::OperandKind::kIdScope) continue;
      const Id id = inst.word(operand);
      const Op def = state.DefOp(id);
      if (def == Op::Nop) continue;  // The id rules report undefined ids.
      if (!state.IsConstantInstruction(id) || !state.IsInt32(state.TypeOf(id))) {
        state.Report("scope.id", i,
                     state.Describe(i) + ": Scope " + state.Name(id) +
                         " must be a constant instruction of 32-bit integer type");
        continue;
      }
      // OpConstantNull is a known 0 (CrossDevice), as the reference validator reads it.
      if (shader && def != Op::Constant && def != Op::ConstantNull && !relaxed) {
        state.Report("scope.id", i,
                     state.Describe(i) + ": Scope " + state.Name(id) +
                         " must be an OpConstant in a shader (any constant instruction once "
                         "CooperativeMatrixKHR or CooperativeMatrixNV is declared)");
        continue;
      }
      const auto value = DefaultValue(state, id);
      if (value && (*value < 0 || *value > 0xFFFFFFFF ||
                    !grammar::LookupEnumerant(grammar::OperandKind::kScope,
                                              static_cast<uint32_t>(*value)))) {
        state.Report(
            "scope.id", i,
            state.Describe(i) + ": Scope " + ValueText(state, id) + " is not a Scope value");
        continue;
      }
      last_scope = id;
      if (memory_operands) CheckMemoryScope(state, i, id, true);
    }
    if (semantics.count != 0) CheckMemorySemantics(state, i, semantics);
  }
}

}  // namespace coopspv::val
