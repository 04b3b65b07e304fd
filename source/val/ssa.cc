// SSA form: every use of an id defined in a function is dominated by its definition; OpPhi
// takes its values from the ends of its block's predecessors.
#include <algorithm>
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/ir/analyses.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

// True when the definition at `def` is available at the end of block `block`.
bool AvailableAtEnd(const ir::Module& m, const ir::DominatorTree& dom, InstIndex def,
                    uint32_t block) {
  const uint32_t def_block = m.BlockOf(def);
  if (def_block == ~0u) return true;  // Parameters and globals.
  return dom.Dominates(def_block, block);
}

[[gnu::noinline]] void CheckPhi(ValidationState& state, InstIndex i, uint32_t block) {
  const ir::Module& m = state.module();
  const ir::Cfg& cfg = m.cfg();
  const ir::DominatorTree& dom = m.dominators();
  const ir::Inst inst = m.inst(i);
  const ir::Block& b = m.blocks()[block];
  for (InstIndex k = b.label + 1; k < i; ++k) {
    const Op before = m.opcode(k);
    if (before != Op::Phi && before != Op::Line && before != Op::NoLine) {
      state.Report("ssa.phi", i,
                   state.Describe(i) + " must come before every other instruction of its block");
      return;
    }
  }
  const auto preds = cfg.Predecessors(block);
  const size_t pairs = (inst.words.size() - 3) / 2;
  if ((inst.words.size() - 3) % 2 != 0) {
    state.Report("ssa.phi", i, state.Describe(i) + " has an operand without its parent block");
    return;
  }
  if (cfg.Reachable(block)) {
    size_t reachable_preds = 0;
    for (uint32_t p : preds) reachable_preds += cfg.Reachable(p) ? 1 : 0;
    (void)reachable_preds;
    if (pairs != preds.size()) {
      state.Report("ssa.phi", i,
                   state.Describe(i) + " has " + ws::to_string(pairs) +
                       " (value, parent) pairs; its block has " + ws::to_string(preds.size()) +
                       " predecessor(s)");
    }
  }
  ws::vector<uint32_t> seen_parents;
  for (size_t p = 0; p < pairs; ++p) {
    const Id value = inst.words[3 + 2 * p];
    const Id parent = inst.words[4 + 2 * p];
    const uint32_t parent_block = m.BlockOfLabel(parent);
    if (parent_block == ~0u) continue;  // The id rules report non-labels.
    if (std::find(seen_parents.begin(), seen_parents.end(), parent_block) != seen_parents.end()) {
      state.Report("ssa.phi", i,
                   state.Describe(i) + ": parent " + state.Name(parent) + " appears twice");
      continue;
    }
    seen_parents.push_back(parent_block);
    if (std::find(preds.begin(), preds.end(), parent_block) == preds.end()) {
      state.Report("ssa.phi", i,
                   state.Describe(i) + ": parent " + state.Name(parent) +
                       " is not a predecessor of its block");
      continue;
    }
    const InstIndex def = m.Def(value);
    if (def == kNoInst) continue;
    if (m.type_id(def) != inst.type_id && m.type_id(def) != 0) {
      state.Report("ssa.phi", i,
                   state.Describe(i) + ": value " + state.Name(value) + " has type " +
                       state.Name(m.type_id(def)) + ", not the result type " +
                       state.Name(inst.type_id));
    }
    const uint32_t def_function =
        m.BlockOf(def) == ~0u ? m.FunctionOf(def) : m.blocks()[m.BlockOf(def)].function;
    if (def_function != ~0u && def_function != b.function) {
      state.Report("ssa.dominance", i,
                   state.Describe(i) + " uses " + state.Name(value) +
                       ", which is defined in another function");
    } else if (cfg.Reachable(parent_block) && !AvailableAtEnd(m, dom, def, parent_block)) {
      state.Report("ssa.phi", i,
                   state.Describe(i) + ": value " + state.Name(value) +
                       " does not dominate the end of its parent " + state.Name(parent));
    }
  }
}

// The dominance report, out of line so that the operand loop keeps its state in registers.
[[gnu::cold, gnu::noinline]] void ReportDominance(ValidationState& state, InstIndex i, Id id,
                                                  const char* why) {
  state.Report("ssa.dominance", i, state.Describe(i) + " uses " + state.Name(id) + why);
}

// The function of parameter `param` used in function `f`: `f` when `param` is one of its
// parameters, else ~0u. The structure being sound, `f` holds exactly the parameters between its
// OpFunction and OpFunctionEnd: no search through the functions. Out of line, as the search
// was: the loop over the uses keeps its registers.
[[gnu::noinline]] uint32_t FunctionOfParameter(const ir::Module& m, uint32_t f, InstIndex param) {
  const ir::Function& fn = m.functions()[f];
  return param > fn.def && param < fn.end ? f : ~0u;
}

}  // namespace

void ValidateSsa(ValidationState& state) {
  if (!state.structure_ok) return;
  const ir::Module& m = state.module();
  if (m.functions().empty()) return;
  const ir::Cfg& cfg = m.cfg();
  const ir::DominatorTree& dom = m.dominators();
  const binary::ParsedModule& parsed = m.parsed();
  const binary::ParsedModule::Instruction* const records = parsed.instructions.data();
  const binary::ParsedOperand* const all_operands = parsed.operands.data();
  const uint32_t* const words = m.words().data();
  const std::span<const ir::Block> blocks = m.blocks();
  for (uint32_t block = 0; block < blocks.size() && !state.Full(); ++block) {
    const ir::Block& b = blocks[block];
    const bool reachable = cfg.Reachable(block);
    // Only this loop's reports can fill the list: it is tested after each of them.
    for (InstIndex i = b.label + 1; i < b.end; ++i) {
      const binary::ParsedModule::Instruction& rec = records[i];
      if (static_cast<Op>(rec.opcode) == Op::Phi) {
        CheckPhi(state, i, block);  // Out of line: few instructions are OpPhi.
        if (state.Full()) return;
        continue;
      }
      const uint32_t* const inst_words = words + rec.offset;
      const binary::ParsedOperand* const operands = all_operands + rec.operand_begin;
      // The Result Type and the Result come first when present (the reader keeps them in the
      // record); neither is a use.
      const uint32_t first = (rec.type_id != 0) + (rec.result_id != 0);
      for (uint32_t k = first; k < rec.operand_count; ++k) {
        if (!grammar::IsIdKind(operands[k].kind)) continue;
        const Id id = inst_words[operands[k].offset];
        const InstIndex def = m.Def(id);
        if (def == kNoInst) continue;
        // The common case: defined just above in this block (a block is a range of instructions).
        if (def > b.label && def < i) continue;
        const uint32_t def_block = m.BlockOf(def);
        const Op def_op = static_cast<Op>(records[def].opcode);
        if (def_op == Op::Label || def_op == Op::Function) continue;  // Not SSA values.
        uint32_t def_function;
        if (def_block != ~0u) {
          def_function = blocks[def_block].function;
        } else if (def_op == Op::FunctionParameter) {
          def_function = FunctionOfParameter(m, b.function, def);
        } else {
          continue;  // Module-scope: available everywhere.
        }
        if (def_function != b.function) {
          ReportDominance(state, i, id, ", which is defined in another function");
          if (state.Full()) return;
          continue;
        }
        if (def_block == ~0u || !reachable) continue;  // Parameters; unreachable code.
        const bool ok = def_block == block ? def < i : dom.Dominates(def_block, block);
        if (!ok) {
          ReportDominance(state, i, id, ", whose definition does not dominate this use");
          if (state.Full()) return;
        }
      }
    }
  }
}

}  // namespace coopspv::val
