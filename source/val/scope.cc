// Scope and Memory Semantics operands. In shaders they are OpConstant; SPV_KHR_cooperative_matrix
// relaxes Scope to any constant instruction (spec constants included) wherever its capability
// is declared, for every instruction's Scope operands.
#include <string>

#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {

bool ScopesVisits(const ValidationState& state, Op op) {
  return ir::TraitsOf(op).has_scope_or_semantics;
}

void ValidateScopes(ValidationState& state) {
  const ir::Module& m = state.module();
  const bool shader = state.HasCapability(spv::Capability::Shader);
  const bool relaxed = state.HasCapability(spv::Capability::CooperativeMatrixKHR);
  const bool vulkan = state.options().env.is_vulkan();
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
    for (const auto& operand : inst.operands) {
      const bool scope = operand.kind == grammar::OperandKind::kIdScope;
      if (!scope && operand.kind != grammar::OperandKind::kIdMemorySemantics) continue;
      const Id id = inst.word(operand);
      const Op def = state.DefOp(id);
      if (def == Op::Nop) continue;  // The id rules report undefined ids.
      const char* rule = scope ? "scope.id" : "memory-semantics.id";
      const char* what = scope ? "Scope" : "Memory Semantics";
      if (!state.IsConstantInstruction(id) || !state.IsInt32(state.TypeOf(id))) {
        state.Report(rule, i,
                     state.Describe(i) + ": " + what + " " + state.Name(id) +
                         " must be a constant instruction of 32-bit integer type");
        continue;
      }
      if (shader && def != Op::Constant && !(scope && relaxed)) {
        state.Report(rule, i,
                     state.Describe(i) + ": " + what + " " + state.Name(id) +
                         " must be an OpConstant in a shader" +
                         (scope ? " (any constant instruction once CooperativeMatrixKHR is "
                                  "declared)"
                                : ""));
        continue;
      }
      if (!scope) {
        // SPIR-V 3.25 Memory Semantics: at most one of Acquire (0x2), Release (0x4),
        // AcquireRelease (0x8) and SequentiallyConsistent (0x10).
        const auto value = KnownValue(state, id);
        const uint32_t order = value ? static_cast<uint32_t>(*value) & 0x1Eu : 0;
        if ((order & (order - 1)) != 0) {
          state.Report("memory-semantics.order", i,
                       state.Describe(i) + ": Memory Semantics " + ValueText(state, id) +
                           " sets more than one of Acquire, Release, AcquireRelease and "
                           "SequentiallyConsistent");
        } else if (vulkan && (order & 0xEu) != 0 && (*value & 0x1940) == 0) {
          // VUID-StandaloneSpirv-MemorySemantics-10870: Acquire, Release or AcquireRelease
          // with UniformMemory (0x40), WorkgroupMemory (0x100), ImageMemory (0x800) or
          // OutputMemory (0x1000).
          state.Report("vulkan.memory-semantics-storage", i,
                       state.Describe(i) + ": Memory Semantics " + ValueText(state, id) +
                           " orders memory but names no UniformMemory, WorkgroupMemory, "
                           "ImageMemory or OutputMemory storage");
        }
        continue;
      }
      const auto value = DefaultValue(state, id);
      if (value && (*value < 0 || *value > 0xFFFFFFFF ||
                    !grammar::LookupEnumerant(grammar::OperandKind::kScope,
                                              static_cast<uint32_t>(*value)))) {
        state.Report(
            rule, i,
            state.Describe(i) + ": Scope " + ValueText(state, id) + " is not a Scope value");
      }
    }
  }
}

}  // namespace coopspv::val
