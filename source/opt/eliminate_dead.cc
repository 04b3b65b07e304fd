// --eliminate-dead: removes what nothing live uses: functions no entry point reaches, types,
// constants and global variables no live instruction names, function variables that are never
// used, and the names and decorations of everything removed. Repeats until nothing changes
// (removing a variable can free its initializer and type).
//
// Liveness starts from the module-level instructions that always stay (capabilities,
// extensions, imports, memory model, entry points with their interfaces, execution modes, BuiltIn
// and SpecId decorations with what they decorate) and from every instruction of a live function; a
// declaration is live when a live instruction uses its result; decorations of live ids keep what
// they reference alive.
#include <vector>

#include "source/ir/builder.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;

class EliminateDeadPass : public Pass {
 public:
  const char* name() const override { return "eliminate-dead"; }

  PassResult Run(ir::Module& module) override {
    std::unique_ptr<ir::Module> current;
    for (int round = 0; round < 32; ++round) {
      const ir::Module& m = current ? *current : module;
      Diagnostic d;
      bool changed = false;
      auto next = Sweep(m, &changed, &d);
      if (!changed) break;
      if (!next) return PassResult::Failed("could not rebuild the module: " + d.ToString());
      current = std::move(next);
    }
    if (!current) return PassResult::Unchanged();
    return PassResult::Rebuilt(std::move(current));
  }

 private:
  // A BuiltIn or SpecId decoration (OpMemberDecorate's decoration comes after the member).
  static bool MeansSomething(const ir::Module& m, InstIndex i) {
    const size_t at = m.opcode(i) == Op::Decorate ? 2 : 3;
    if (m.num_words(i) <= at) return false;
    const uint32_t decoration = m.word(i, at);
    return decoration == static_cast<uint32_t>(spv::Decoration::BuiltIn) ||
           decoration == static_cast<uint32_t>(spv::Decoration::SpecId);
  }

  static std::unique_ptr<ir::Module> Sweep(const ir::Module& m, bool* changed, Diagnostic* d) {
    const size_t n = m.num_instructions();
    std::vector<bool> live_id(m.bound(), false);
    std::vector<bool> live_inst(n, false);
    std::vector<Id> work;
    auto mark_id = [&](Id id) {
      if (id != 0 && id < live_id.size() && !live_id[id]) {
        live_id[id] = true;
        work.push_back(id);
      }
    };
    auto mark_operands = [&](InstIndex i) {
      const ir::Inst inst = m.inst(i);
      for (const auto& op : inst.operands) {
        if (grammar::IsIdKind(op.kind) && op.kind != grammar::OperandKind::kIdResult) {
          mark_id(inst.word(op));
        }
      }
    };
    auto mark_inst = [&](InstIndex i) {
      if (live_inst[i]) return;
      live_inst[i] = true;
      mark_operands(i);
      if (m.result_id(i)) mark_id(m.result_id(i));
    };
    // Roots.
    for (InstIndex i = 0; i < n; ++i) {
      const ir::Section s = ir::SectionOf(m.opcode(i));
      if (s <= ir::Section::kExecutionMode || m.opcode(i) == Op::ModuleProcessed ||
          m.opcode(i) == Op::String || m.opcode(i) == Op::Source ||
          m.opcode(i) == Op::SourceContinued || m.opcode(i) == Op::SourceExtension) {
        mark_inst(i);
      }
      // Non-semantic instructions at module scope (debug info) stay with what they name.
      if ((m.opcode(i) == Op::ExtInst || m.opcode(i) == Op::ExtInstWithForwardRefsKHR) &&
          m.FunctionOf(i) == ~0u) {
        mark_inst(i);
      }
      // What a built-in or a SpecId decorates has meaning of its own, used or not: a constant
      // decorated BuiltIn WorkgroupSize sets the workgroup size over LocalSize (SPIR-V 3.2.2),
      // a SpecId is what the pipeline specializes.
      if ((m.opcode(i) == Op::Decorate || m.opcode(i) == Op::MemberDecorate) &&
          MeansSomething(m, i)) {
        mark_inst(i);
      }
    }
    // Propagate: a live id keeps its definition alive; a live function keeps its body.
    while (!work.empty()) {
      const Id id = work.back();
      work.pop_back();
      const InstIndex def = m.Def(id);
      if (def == ir::kNoInst) continue;
      if (m.opcode(def) == Op::Function) {
        const uint32_t f = m.FunctionOf(def);
        const ir::Function& fn = m.functions()[f];
        const InstIndex end = fn.end == ir::kNoInst ? static_cast<InstIndex>(n) - 1 : fn.end;
        for (InstIndex k = fn.def; k <= end; ++k) {
          // Function variables are live only when used; see below.
          if (m.opcode(k) == Op::Variable) continue;
          mark_inst(k);
        }
        continue;
      }
      if (m.opcode(def) == Op::Variable && m.FunctionOf(def) != ~0u) {
        mark_inst(def);
        continue;
      }
      mark_inst(def);
      // OpTypeForwardPointer stays with its pointer type.
    }
    // Decorations and names follow their targets; a live target's decorations keep the ids
    // they reference (OpDecorateId) alive, which may make more declarations live.
    bool grew = true;
    while (grew) {
      grew = false;
      for (InstIndex i = 0; i < n; ++i) {
        const Op op = m.opcode(i);
        if (live_inst[i]) continue;
        if ((IsDecoration(op) && live_id[m.word(i, 1)]) ||
            (op == Op::TypeForwardPointer && live_id[m.word(i, 1)])) {
          mark_inst(i);
          grew = true;
        }
      }
      while (!work.empty()) {
        const Id id = work.back();
        work.pop_back();
        const InstIndex def = m.Def(id);
        if (def != ir::kNoInst && !live_inst[def]) {
          mark_inst(def);
          grew = true;
        }
      }
    }
    ir::Builder b(m);
    for (InstIndex i = 0; i < n; ++i) {
      const Op op = m.opcode(i);
      bool keep = live_inst[i];
      if (op == Op::Name || op == Op::MemberName || op == Op::DecorationGroup ||
          op == Op::GroupDecorate || op == Op::GroupMemberDecorate) {
        keep = op == Op::Name || op == Op::MemberName ? live_id[m.word(i, 1)] : true;
      }
      if (op == Op::Line || op == Op::NoLine) keep = true;
      // Inside a live function everything is kept except unused variables.
      if (!keep && m.FunctionOf(i) != ~0u && op != Op::Variable) {
        keep = live_id[m.result_id(m.functions()[m.FunctionOf(i)].def)];
      }
      if (!keep) {
        b.Remove(i);
        *changed = true;
      }
    }
    if (!*changed) return nullptr;
    return b.Finish(d);
  }
};

}  // namespace

std::unique_ptr<Pass> CreateEliminateDeadPass(std::string_view, std::string*) {
  return std::make_unique<EliminateDeadPass>();
}

}  // namespace coopspv::opt
