// Functions and blocks: their form, function types, calls, returns, variables, merge
// instructions and branch targets.
#include <array>
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/ir/analyses.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

// A table of the opcodes below 256 that `pick` selects: the scans below test an opcode with one
// load.
template <typename Pick>
constexpr std::array<bool, 256> OpcodeTable(Pick pick) {
  std::array<bool, 256> table{};
  for (uint32_t v = 0; v < 256; ++v) table[v] = pick(static_cast<Op>(v));
  return table;
}

// Opcodes that change CheckStructure's state inside a block: all others continue the block.
constexpr std::array<bool, 256> kBlockSpecial = OpcodeTable([](Op op) {
  return op == Op::Label || op == Op::Function || op == Op::FunctionEnd ||
         op == Op::FunctionParameter || op == Op::Branch || op == Op::BranchConditional ||
         op == Op::Switch || op == Op::Kill || op == Op::Return || op == Op::ReturnValue ||
         op == Op::Unreachable;
});
// An instruction inside a block that leaves CheckStructure's state as it is. Above 255 only
// terminators (OpTerminateInvocation ...) are special.
bool ContinuesBlock(Op op) {
  const uint32_t v = static_cast<uint32_t>(op);
  return v < 256 ? !kBlockSpecial[v] : !ir::IsTerminator(op);
}

// Reports a broken function structure at instruction i: the instruction described, then `what`
// (nullptr: a misplaced OpFunctionParameter). Out of line and cold, so that the state machine
// does not pay for building messages. False to stop.
[[gnu::cold, gnu::noinline]] bool FailStructure(ValidationState& state, InstIndex i,
                                                const char* what) {
  state.structure_ok = false;
  return state.Report("function.structure", i,
                      what == nullptr ? ws::string("OpFunctionParameter after the function's "
                                                   "first block")
                                      : state.Describe(i) + what);
}

// Walks the instruction stream as a state machine over OpFunction / OpFunctionParameter /
// OpLabel / terminator / OpFunctionEnd. Sets state.structure_ok = false on any problem.
void CheckStructure(ValidationState& state) {
  const ir::Module& m = state.module();
  enum class Where { kOutside, kParams, kInBlock, kBetweenBlocks } where = Where::kOutside;
  InstIndex function_start = kNoInst;
  auto fail = [&](InstIndex i, const char* what) { return FailStructure(state, i, what); };
  // Moves the state machine over instruction i; false to stop.
  auto step = [&](InstIndex i) {
    const Op op = m.opcode(i);
    switch (where) {
      case Where::kOutside:
        if (op == Op::Function) {
          where = Where::kParams;
          function_start = i;
        } else if (op == Op::FunctionParameter || op == Op::Label || op == Op::FunctionEnd) {
          return fail(i, " appears outside a function");
        }
        return true;
      case Where::kParams:
        if (op == Op::FunctionParameter || op == Op::Line || op == Op::NoLine) return true;
        if (op == Op::FunctionEnd) {
          where = Where::kOutside;  // A declaration: no body.
          return true;
        }
        where = Where::kInBlock;
        if (op == Op::Label) return true;
        return fail(i, " must be preceded by an OpLabel: a function body starts with a block");
      case Where::kInBlock:
        if (ContinuesBlock(op)) return true;
        if (op == Op::Label) {
          return fail(i, " starts a new block before the previous one ended with a terminator");
        }
        if (op == Op::FunctionEnd || op == Op::Function) {
          where = op == Op::Function ? Where::kParams : Where::kOutside;
          function_start = i;
          return fail(i, ": the last block of the function has no terminator");
        }
        if (op == Op::FunctionParameter) {
          return fail(i, nullptr);
        }
        if (ir::IsTerminator(op)) where = Where::kBetweenBlocks;
        return true;
      case Where::kBetweenBlocks:
        if (op == Op::Label) {
          where = Where::kInBlock;
        } else if (op == Op::FunctionEnd) {
          where = Where::kOutside;
        } else if (op != Op::Line && op != Op::NoLine) {
          if (op == Op::Function) where = Where::kParams;
          return fail(i, " follows a block terminator; it must be in a block (after an OpLabel)");
        }
        return true;
    }
    return true;
  };
  // The walk holds the instructions that change the state inside a block or outside functions
  // (StructureVisits); each run of instructions between two of them only matters in a
  // function's parameters or between its blocks, and there only up to the first that starts a
  // block.
  const InstIndex n = static_cast<InstIndex>(m.num_instructions());
  InstIndex next = 0;  // The first instruction the state machine has not seen.
  auto run_to = [&](InstIndex end) {
    for (; next < end && (where == Where::kParams || where == Where::kBetweenBlocks); ++next) {
      if (!step(next)) return false;
    }
    next = end;
    return true;
  };
  for (const InstIndex i : state.Walked(Walk::kStructure)) {
    if (!run_to(i) || !step(i)) return;
    next = i + 1;
  }
  if (!run_to(n)) return;
  if (where != Where::kOutside) {
    fail(function_start, " has no OpFunctionEnd");
  }
}

// SPIR-V 2.16.1, Logical addressing: a function returns a pointer only with variable pointers,
// to StorageBuffer (VariablePointersStorageBuffer or VariablePointers) or Workgroup
// (VariablePointers) memory.
[[gnu::noinline]] void CheckPointerReturn(ValidationState& state, InstIndex def, Id result_type) {
  const Op op = state.DefOp(result_type);
  if (op != Op::TypePointer && op != Op::TypeUntypedPointerKHR) return;
  const auto& o = state.options();
  if (o.relax_logical_pointer || o.before_hlsl_legalization ||
      state.addressing_model() != spv::AddressingModel::Logical) {
    return;
  }
  const auto sc = static_cast<spv::StorageClass>(state.DefWord(result_type, 2));
  const bool all = state.HasCapability(spv::Capability::VariablePointers);
  const bool buffer = all || state.HasCapability(spv::Capability::VariablePointersStorageBuffer);
  const bool ok = (sc == spv::StorageClass::StorageBuffer && buffer) ||
                  (sc == spv::StorageClass::Workgroup && all);
  if (ok) return;
  state.Report("function.pointer-return", def,
               state.Describe(def) + " returns a pointer to " + StorageClassName(sc) +
                   " memory; under the Logical addressing model a function returns only "
                   "StorageBuffer pointers (with VariablePointersStorageBuffer or "
                   "VariablePointers) and Workgroup ones (with VariablePointers)");
}

void CheckFunctionTypes(ValidationState& state) {
  const ir::Module& m = state.module();
  for (const ir::Function& f : m.functions()) {
    if (state.Full()) return;
    const InstIndex def = f.def;
    const Id fn_type = m.word(def, 4);
    const Id result_type = m.type_id(def);
    CheckPointerReturn(state, def, result_type);
    if (state.DefOp(fn_type) != Op::TypeFunction) {
      if (state.DefOp(fn_type) != Op::Nop) {  // Undefined ids are the id rules' to report.
        state.Report("function.type", def,
                     state.Describe(def) + ": Function Type " + state.Name(fn_type) +
                         " is not an OpTypeFunction");
      }
      continue;
    }
    const ir::Inst type = m.inst(m.Def(fn_type));
    if (type.words[2] != result_type) {
      state.Report("function.type", def,
                   state.Describe(def) + ": Result Type " + state.Name(result_type) +
                       " differs from the return type " + state.Name(type.words[2]) + " of " +
                       state.Name(fn_type));
    }
    const size_t want = type.words.size() - 3;
    if (f.num_params != want) {
      state.Report("function.type", def,
                   state.Describe(def) + " has " + ws::to_string(f.num_params) +
                       " OpFunctionParameter(s); its type " + state.Name(fn_type) + " has " +
                       ws::to_string(want));
      continue;
    }
    for (uint32_t p = 0; p < f.num_params; ++p) {
      const InstIndex param = m.Param(f, p);
      if (m.type_id(param) != type.words[3 + p]) {
        state.Report("function.type", param,
                     state.Describe(param) + ": parameter " + ws::to_string(p) + " has type " +
                         state.Name(m.type_id(param)) + " but " + state.Name(fn_type) + " says " +
                         state.Name(type.words[3 + p]));
      }
    }
  }
}

// The opcodes CheckBodies checks (all below 256).
constexpr std::array<bool, 256> kBodyChecked = OpcodeTable([](Op op) {
  return op == Op::FunctionCall || op == Op::Return || op == Op::ReturnValue ||
         op == Op::Variable || op == Op::SelectionMerge || op == Op::LoopMerge;
});

void CheckBodies(ValidationState& state) {
  const ir::Module& m = state.module();
  // In block `prefix_block`, the instructions from its label up to `prefix_end` are variables and
  // debug lines: the scan for "variables first" only moves forward, so it stays linear.
  uint32_t prefix_block = ~0u;
  InstIndex prefix_end = 0;
  for (const InstIndex i : state.Walked(Walk::kFunctions)) {
    const Op op = m.opcode(i);
    // SPV_KHR_untyped_pointers: OpUntypedVariableKHR is a variable like OpVariable.
    if ((static_cast<uint32_t>(op) >= 256 || !kBodyChecked[static_cast<uint32_t>(op)]) &&
        op != Op::UntypedVariableKHR) {
      continue;
    }
    if (state.Full()) break;
    switch (op) {
      case Op::FunctionCall: {
        const ir::Inst inst = m.inst(i);
        const Id callee = inst.words[3];
        const InstIndex def = m.Def(callee);
        if (def == kNoInst || m.opcode(def) != Op::Function) break;  // Id rules.
        const Id fn_type = m.word(def, 4);
        if (state.DefOp(fn_type) != Op::TypeFunction) break;
        const ir::Inst type = m.inst(m.Def(fn_type));
        if (inst.type_id != type.words[2]) {
          state.Report("function.call", i,
                       state.Describe(i) + ": Result Type " + state.Name(inst.type_id) +
                           " is not the return type " + state.Name(type.words[2]) + " of " +
                           state.Name(callee));
        }
        const size_t args = inst.words.size() - 4, params = type.words.size() - 3;
        if (args > state.options().max_function_args) {
          state.Report("function.call", i,
                       state.Describe(i) + " passes " + ws::to_string(args) +
                           " arguments; the limit is " +
                           ws::to_string(state.options().max_function_args));
        }
        if (args != params) {
          state.Report("function.call", i,
                       state.Describe(i) + " passes " + ws::to_string(args) + " argument(s) to " +
                           state.Name(callee) + ", which takes " + ws::to_string(params));
          break;
        }
        for (size_t a = 0; a < args; ++a) {
          const Id arg = inst.words[4 + a];
          if (state.DefOp(arg) != Op::Nop && state.TypeOf(arg) != type.words[3 + a]) {
            state.Report("function.call", i,
                         state.Describe(i) + ": argument " + ws::to_string(a) + " " +
                             state.Name(arg) + " has type " + state.Name(state.TypeOf(arg)) +
                             ", the parameter " + state.Name(type.words[3 + a]));
          }
        }
        break;
      }
      case Op::Return:
      case Op::ReturnValue: {
        const uint32_t f = m.FunctionOf(i);
        if (f == ~0u) break;
        const Id return_type = m.type_id(m.functions()[f].def);
        const bool is_void = state.DefOp(return_type) == Op::TypeVoid;
        if (op == Op::Return && !is_void) {
          state.Report("function.return", i,
                       "OpReturn in a function returning " + state.Name(return_type) +
                           "; use OpReturnValue");
        } else if (op == Op::ReturnValue) {
          const Id value = m.word(i, 1);
          if (is_void) {
            state.Report("function.return", i, "OpReturnValue in a function returning void");
          } else if (state.DefOp(value) != Op::Nop && state.TypeOf(value) != return_type) {
            state.Report("function.return", i,
                         "OpReturnValue " + state.Name(value) + " has type " +
                             state.Name(state.TypeOf(value)) + ", the function returns " +
                             state.Name(return_type));
          }
        }
        break;
      }
      case Op::Variable:
      case Op::UntypedVariableKHR: {
        const Id type = m.type_id(i);
        const auto sc = static_cast<spv::StorageClass>(m.word(i, 3));
        const uint32_t block = m.BlockOf(i);
        if (auto pointer_sc = state.PointerStorageClass(type); pointer_sc && *pointer_sc != sc) {
          state.Report("function.variable", i,
                       state.Describe(i) +
                           ": its Storage Class differs from that of its pointer "
                           "type " +
                           state.Name(type));
        } else if (state.IsType(type) && !pointer_sc) {
          state.Report(
              "function.variable", i,
              state.Describe(i) + ": Result Type " + state.Name(type) + " is not a pointer type");
        }
        if (block == ~0u) {
          if (sc == spv::StorageClass::Function) {
            state.Report("function.variable", i,
                         state.Describe(i) +
                             ": a module-scope variable cannot have Function "
                             "storage class");
          }
          break;
        }
        if (sc != spv::StorageClass::Function) {
          state.Report("function.variable", i,
                       state.Describe(i) +
                           ": a variable inside a function must have Function "
                           "storage class");
          break;
        }
        const ir::Block& b = m.blocks()[block];
        const ir::Function& fn = m.functions()[b.function];
        if (prefix_block != block) {
          prefix_block = block;
          prefix_end = b.label + 1;
        }
        for (; prefix_end < i; ++prefix_end) {
          const Op before = m.opcode(prefix_end);
          if (before != Op::Variable && before != Op::UntypedVariableKHR && before != Op::Line &&
              before != Op::NoLine) {
            break;
          }
        }
        const bool first = block == fn.first_block && prefix_end >= i;
        if (!first) {
          state.Report("function.variable", i,
                       state.Describe(i) +
                           ": Function-storage variables must come first in the "
                           "function's first block");
        }
        break;
      }
      case Op::SelectionMerge:
      case Op::LoopMerge: {
        const Op next = i + 1 < m.num_instructions() ? m.opcode(i + 1) : Op::Nop;
        const bool ok = op == Op::LoopMerge ? (next == Op::Branch || next == Op::BranchConditional)
                                            : (next == Op::BranchConditional || next == Op::Switch);
        if (!ok) {
          state.Report("block.merge", i,
                       state.Describe(i) + " must be immediately followed by " +
                           (op == Op::LoopMerge ? "OpBranch or OpBranchConditional"
                                                : "OpBranchConditional or OpSwitch"));
        }
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace

namespace {

// 2.17 Universal Limits: structured control-flow constructs nest no deeper than
// max_control_flow_nesting_depth. Blocks come in structured order, so a stack of the open
// constructs' merge blocks, popped when a merge block's label is reached, gives each header's
// depth in one pass.
void CheckNestingDepth(ValidationState& state) {
  const ir::Module& m = state.module();
  const uint32_t limit = state.options().max_control_flow_nesting_depth;
  ws::vector<Id> open;
  for (const ir::Function& fn : m.functions()) {
    open.clear();
    for (uint32_t b = fn.first_block; b < fn.first_block + fn.num_blocks; ++b) {
      const ir::Block& block = m.blocks()[b];
      const Id label = m.result_id(block.label);
      while (!open.empty() && open.back() == label) open.pop_back();
      if (block.end < block.label + 2) continue;
      const InstIndex merge = block.end - 2;
      const Op op = m.opcode(merge);
      if ((op != Op::SelectionMerge && op != Op::LoopMerge) || m.num_words(merge) < 2) continue;
      open.push_back(m.word(merge, 1));
      if (open.size() > limit) {
        state.Report("function.nesting-depth", merge,
                     state.Describe(merge) + " opens a construct nested " +
                         ws::to_string(open.size()) + " deep, more than the limit of " +
                         ws::to_string(limit));
        break;  // Once per function.
      }
    }
  }
}

}  // namespace

// CheckBodies' walk.
bool FunctionsVisits(const ValidationState& /*state*/, Op op) {
  const uint32_t v = static_cast<uint32_t>(op);
  return (v < 256 && kBodyChecked[v]) || op == Op::UntypedVariableKHR;
}

// CheckStructure's walk: the instructions that do not simply continue a block.
bool StructureVisits(const ValidationState& /*state*/, Op op) { return !ContinuesBlock(op); }

void ValidateFunctions(ValidationState& state) {
  CheckStructure(state);
  if (state.Full()) return;
  CheckFunctionTypes(state);
  CheckBodies(state);
  if (!state.structure_ok || state.Full()) return;
  const ir::Module& m = state.module();
  for (const auto& [i, operand] : m.cfg().bad_targets()) {
    const ir::Inst inst = m.inst(i);
    const Id target = inst.word(inst.operands[operand]);
    if (state.DefOp(target) == Op::Nop) continue;  // Undefined: the id rules report it.
    if (!state.Report("cfg.branch-target", i,
                      state.Describe(i) + ": target " + state.Name(target) +
                          " is not a block of the same function")) {
      return;
    }
  }
  CheckNestingDepth(state);
}

}  // namespace coopspv::val
