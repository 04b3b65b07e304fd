// Fuzzes the module IR (source/ir) with arbitrary words: ir::Module::Read, the def-use, CFG,
// dominator, post-dominator and type analyses, and ir::Builder. Besides crashes it checks the
// analyses' invariants, and (dominators) compares small functions against a brute-force oracle.
// fuzz-corpus: test/fuzz/corpus/reader_fuzz
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "source/binary/reader.h"
#include "source/ir/analyses.h"
#include "source/ir/builder.h"
#include "source/ir/module.h"
#include "test/fuzz/fuzz_util.h"

namespace {

using namespace coopspv;
using namespace coopspv::ir;

void CheckIndex(const Module& m) {
  const size_t n = m.num_instructions();
  for (InstIndex i = 0; i < n; ++i) {
    const Id id = m.result_id(i);
    if (id != 0) {
      FUZZ_CHECK(id < m.bound());
      FUZZ_CHECK(m.Def(id) <= i && m.result_id(m.Def(id)) == id);
    }
  }
  for (uint32_t b = 0; b < m.blocks().size(); ++b) {
    const Block& block = m.blocks()[b];
    FUZZ_CHECK(block.label < block.end && block.end <= n);
    FUZZ_CHECK(m.opcode(block.label) == spv::Op::Label);
    FUZZ_CHECK(block.function < m.functions().size());
    for (InstIndex i = block.label; i < block.end; ++i) FUZZ_CHECK(m.BlockOf(i) == b);
  }
  for (const Function& f : m.functions()) {
    FUZZ_CHECK(f.def < n && m.opcode(f.def) == spv::Op::Function);
    FUZZ_CHECK(f.first_block + f.num_blocks <= m.blocks().size());
    FUZZ_CHECK(f.end == kNoInst || (f.end > f.def && f.end < n));
    for (const Block& block : m.blocks(f)) FUZZ_CHECK(&m.functions()[block.function] == &f);
  }
}

void CheckDefUse(const Module& m) {
  const DefUse& du = m.def_use();
  size_t total = 0;
  for (InstIndex i = 0; i < m.num_instructions(); ++i) {
    for (const auto& op : m.inst(i).operands) {
      if (grammar::IsIdKind(op.kind) && op.kind != grammar::OperandKind::kIdResult) ++total;
    }
  }
  size_t listed = 0;
  for (Id id = 0; id < m.bound(); ++id) {
    for (const Use& use : du.Uses(id)) {
      const Inst inst = m.inst(use.inst);
      FUZZ_CHECK(use.operand < inst.operands.size());
      FUZZ_CHECK(inst.word(inst.operands[use.operand]) == id);
      ++listed;
    }
  }
  FUZZ_CHECK(du.Uses(m.bound()).empty() && du.Uses(~0u).empty());
  FUZZ_CHECK(listed == total);
}

// Blocks reachable from `from` over `edges`, never entering `removed`.
std::vector<bool> Reach(const std::vector<std::vector<uint32_t>>& edges,
                        const std::vector<uint32_t>& from, uint32_t removed) {
  std::vector<bool> seen(edges.size(), false);
  std::vector<uint32_t> stack;
  for (uint32_t s : from) {
    if (s != removed && !seen[s]) {
      seen[s] = true;
      stack.push_back(s);
    }
  }
  while (!stack.empty()) {
    const uint32_t b = stack.back();
    stack.pop_back();
    for (uint32_t s : edges[b]) {
      if (s != removed && !seen[s]) {
        seen[s] = true;
        stack.push_back(s);
      }
    }
  }
  return seen;
}

constexpr uint32_t kOracleBlocks = 24;

void CheckCfgAndDominators(const Module& m) {
  const Cfg& cfg = m.cfg();
  const DominatorTree& dom = m.dominators();
  const DominatorTree& pdom = m.post_dominators();
  const uint32_t nb = static_cast<uint32_t>(m.blocks().size());
  for (uint32_t b = 0; b < nb; ++b) {
    for (uint32_t s : cfg.Successors(b)) {
      FUZZ_CHECK(s < nb && m.blocks()[s].function == m.blocks()[b].function);
    }
    for (uint32_t p : cfg.Predecessors(b)) FUZZ_CHECK(p < nb);
    FUZZ_CHECK(cfg.merge_block(b) == ~0u || cfg.merge_block(b) < nb);
    FUZZ_CHECK(cfg.continue_target(b) == ~0u || cfg.continue_target(b) < nb);
  }
  for (uint32_t f = 0; f < m.functions().size(); ++f) {
    const Function& fn = m.functions()[f];
    const auto rpo = cfg.ReversePostorder(f);
    FUZZ_CHECK(rpo.size() <= fn.num_blocks);
    if (fn.num_blocks == 0) {
      FUZZ_CHECK(rpo.empty());
      continue;
    }
    FUZZ_CHECK(rpo[0] == fn.first_block);
    for (uint32_t b : rpo) {
      FUZZ_CHECK(b >= fn.first_block && b < fn.first_block + fn.num_blocks);
      FUZZ_CHECK(cfg.Reachable(b));
      FUZZ_CHECK(dom.InTree(b) && dom.Dominates(fn.first_block, b) && dom.Dominates(b, b));
      if (b != fn.first_block) {
        FUZZ_CHECK(dom.Idom(b) != DominatorTree::kNone && dom.Dominates(dom.Idom(b), b));
      }
    }
    if (fn.num_blocks > kOracleBlocks) continue;
    // Brute force over local block numbers.
    const uint32_t first = fn.first_block, count = fn.num_blocks;
    std::vector<std::vector<uint32_t>> succ(count), pred(count);
    for (uint32_t b = 0; b < count; ++b) {
      for (uint32_t s : cfg.Successors(first + b)) succ[b].push_back(s - first);
    }
    const std::vector<bool> reachable = Reach(succ, {0}, ~0u);
    // Post-dominance is over the reachable blocks only (an unreachable block branching into
    // reachable code has no post-dominator either).
    std::vector<uint32_t> exits;
    for (uint32_t b = 0; b < count; ++b) {
      FUZZ_CHECK(cfg.Reachable(first + b) == reachable[b]);
      if (reachable[b] && succ[b].empty()) exits.push_back(b);
      if (!reachable[b]) continue;
      for (uint32_t s : succ[b]) pred[s].push_back(b);
    }
    const std::vector<bool> reaches_exit = Reach(pred, exits, ~0u);
    for (uint32_t a = 0; a < count; ++a) {
      const std::vector<bool> without_a = Reach(succ, {0}, a);
      const std::vector<bool> exit_without_a = Reach(pred, exits, a);
      for (uint32_t x = 0; x < count; ++x) {
        const bool dominates = reachable[a] && reachable[x] && (a == x || !without_a[x]);
        FUZZ_CHECK(dom.Dominates(first + a, first + x) == dominates);
        const bool post_dominates =
            reaches_exit[a] && reaches_exit[x] && (a == x || !exit_without_a[x]);
        FUZZ_CHECK(pdom.Dominates(first + a, first + x) == post_dominates);
      }
      FUZZ_CHECK(dom.InTree(first + a) == reachable[a]);
      FUZZ_CHECK(pdom.InTree(first + a) == reaches_exit[a]);
    }
  }
}

void CheckTypes(const Module& m) {
  const TypeTable& types = m.types();
  for (InstIndex i = 0; i < m.num_instructions(); ++i) {
    const Id id = m.result_id(i);
    if (id == 0 || m.Def(id) != i) continue;
    const Id canonical = types.Canonical(id);
    if (canonical == 0) continue;
    FUZZ_CHECK(m.Def(canonical) <= i);
    FUZZ_CHECK(types.Canonical(canonical) == canonical);
    FUZZ_CHECK(m.opcode(m.Def(canonical)) == m.opcode(i));
    const Inst inst = m.inst(i);
    std::vector<uint32_t> key;
    if (inst.type_id != 0) key.push_back(inst.type_id);
    key.insert(key.end(), inst.words.begin() + (inst.type_id != 0 ? 3 : 2), inst.words.end());
    const Id found = types.Find(m.opcode(i), key);
    const spv::Op op = m.opcode(i);
    if (op != spv::Op::TypeStruct && op != spv::Op::TypeOpaque) FUZZ_CHECK(found == canonical);
  }
  FUZZ_CHECK(types.Canonical(m.bound()) == 0);
}

void CheckBuilder(const Module& m) {
  // No edits: the same words.
  {
    Builder builder(m);
    Diagnostic d;
    std::unique_ptr<Module> same = builder.Finish(&d);
    FUZZ_CHECK(same != nullptr);
    FUZZ_CHECK(
        std::equal(same->words().begin(), same->words().end(), m.words().begin(), m.words().end()));
  }
  // OpNops added before every third instruction and at the end, existing ones removed: always
  // well-formed.
  {
    Builder builder(m);
    size_t expected = m.num_instructions();
    for (InstIndex i = 0; i < m.num_instructions(); ++i) {
      if (i % 3 == 0) {
        builder.SetInsertBefore(i);
        builder.Add(spv::Op::Nop, 0, {});
        ++expected;
      }
      if (m.opcode(i) == spv::Op::Nop) {
        builder.Remove(i);
        --expected;
      }
    }
    builder.SetInsertAtEnd();
    builder.Add(spv::Op::Nop, 0, {});
    ++expected;
    Diagnostic d;
    std::unique_ptr<Module> edited = builder.Finish(&d);
    FUZZ_CHECK(edited != nullptr);
    FUZZ_CHECK(edited->num_instructions() == expected);
    FUZZ_CHECK(edited->bound() == m.bound());
  }
  // Renames may make a module the reader refuses (a literal's type renamed away); they must
  // fail cleanly or give a module whose analyses hold.
  if (m.bound() > 2) {
    Builder builder(m);
    builder.ReplaceAllUsesWith(1, m.bound() - 1);
    builder.ReplaceAllUsesWith(m.bound() - 1, 1);  // A cycle: resolution must stop.
    const Id fresh = builder.FreshId();
    builder.SetInsertBeforeFunctions();
    builder.Add(spv::Op::TypeVoid, 0, {}, fresh);
    Diagnostic d;
    std::unique_ptr<Module> edited = builder.Finish(&d);
    if (edited != nullptr) {
      FUZZ_CHECK(edited->bound() == m.bound() + 1);
      CheckIndex(*edited);
    } else {
      FUZZ_CHECK(!d.message.empty());
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint32_t> words = fuzz::WordsOf(data, size);
  Diagnostic diagnostic;
  std::unique_ptr<Module> module = Module::Read(words, &diagnostic);
  binary::ParsedModule parsed;
  FUZZ_CHECK((module != nullptr) == binary::ParseModule(words, &parsed, nullptr));
  if (module == nullptr) return 0;
  std::unique_ptr<Module> borrowed = Module::ReadInPlace(words, &diagnostic);
  FUZZ_CHECK(borrowed != nullptr && borrowed->num_instructions() == module->num_instructions());

  CheckIndex(*module);
  CheckDefUse(*module);
  CheckCfgAndDominators(*module);
  CheckTypes(*module);
  // Dropping and rebuilding analyses gives the same answers.
  module->Invalidate(kAnalysisCfg);
  CheckCfgAndDominators(*module);
  module->Invalidate();
  CheckTypes(*module);
  CheckBuilder(*module);
  return 0;
}
