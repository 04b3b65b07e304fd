// Regression tests for source/ir against hostile input: what test/fuzz/ir_builder_fuzz found
// (utils/fuzz.sh), and CFG shapes that made the analyses superlinear. Each input is embedded.
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "source/ir/analyses.h"
#include "source/ir/module.h"

namespace coopspv::ir {
namespace {

std::unique_ptr<Module> Read(const std::vector<uint32_t>& words) {
  Diagnostic d;
  std::unique_ptr<Module> m = Module::Read(words, &d);
  EXPECT_NE(m, nullptr) << d.ToString();
  return m;
}

// DefUse::Uses(0xFFFFFFFF) computed id + 1 in 32 bits, wrapped to 0, passed the range check and
// read offsets_[0xFFFFFFFF].
TEST(IrFuzzRegression, UsesOfTheLargestIdIsEmpty) {
  auto m = Read({0x07230203, 0x00010000, 0, 4, 0, 0x00020013, 1});
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(m->def_use().Uses(0xFFFFFFFFu).empty());
  EXPECT_TRUE(m->def_use().Uses(4).empty());
  EXPECT_EQ(m->def_use().NumUses(0xFFFFFFFFu), 0u);
}

// Words of a module with one function: an entry block whose OpSwitch goes to a chain of
// `chain` blocks and to `wide` exit blocks, the chain's last block switching to all exits too;
// then `extra_switches` more blocks (unreachable) each switching to every exit. Ids: 1 void,
// 2 function type, 3 uint, 4 constant 0, 5 main, 6 entry, then chain, exits, extra blocks.
std::vector<uint32_t> WideSwitchModule(uint32_t chain, uint32_t wide, uint32_t extra_switches) {
  std::vector<uint32_t> w = {0x07230203, 0x00010000, 0, 0, 0};
  auto op = [&](spv::Op opcode, std::initializer_list<uint32_t> operands) {
    w.push_back((static_cast<uint32_t>(operands.size() + 1) << 16) | static_cast<uint32_t>(opcode));
    w.insert(w.end(), operands);
  };
  const uint32_t first_chain = 7, first_exit = first_chain + chain;
  const uint32_t first_extra = first_exit + wide, bound = first_extra + extra_switches;
  // OpSwitch %c0 %default 1 %exit1 2 %exit2 ...
  auto switch_to_exits = [&](uint32_t default_target) {
    w.push_back(((3 + 2 * wide) << 16) | static_cast<uint32_t>(spv::Op::Switch));
    w.push_back(4);
    w.push_back(default_target);
    for (uint32_t i = 0; i < wide; ++i) {
      w.push_back(i + 1);
      w.push_back(first_exit + i);
    }
  };
  op(spv::Op::Capability, {1});
  op(spv::Op::MemoryModel, {0, 1});
  op(spv::Op::TypeVoid, {1});
  op(spv::Op::TypeFunction, {2, 1});
  op(spv::Op::TypeInt, {3, 32, 0});
  op(spv::Op::Constant, {3, 4, 0});
  op(spv::Op::Function, {1, 5, 0, 2});
  op(spv::Op::Label, {6});
  switch_to_exits(first_chain);
  for (uint32_t i = 0; i < chain; ++i) {
    op(spv::Op::Label, {first_chain + i});
    if (i + 1 < chain) {
      op(spv::Op::Branch, {first_chain + i + 1});
    } else {
      switch_to_exits(first_exit);
    }
  }
  for (uint32_t i = 0; i < wide; ++i) {
    op(spv::Op::Label, {first_exit + i});
    op(spv::Op::Return, {});
  }
  for (uint32_t i = 0; i < extra_switches; ++i) {
    op(spv::Op::Label, {first_extra + i});
    switch_to_exits(first_exit);
  }
  op(spv::Op::FunctionEnd, {});
  w[3] = bound;
  return w;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Cooper-Harvey-Kennedy dominators walked the whole chain for each of the exits' two
// predecessors (the entry and the chain's end): chain x exits steps, 17 s at -O2 for this 4 MB
// module. Dominators must be near-linear in the size of the CFG.
TEST(IrFuzzRegression, DominatorsOfLongChainAndWideSwitchAreNearLinear) {
  constexpr uint32_t kChain = 200000, kWide = 32000;
  const std::vector<uint32_t> words = WideSwitchModule(kChain, kWide, 0);
  auto m = Read(words);
  ASSERT_NE(m, nullptr);
  const auto start = std::chrono::steady_clock::now();
  const DominatorTree& dom = m->dominators();
  const DominatorTree& pdom = m->post_dominators();
  EXPECT_LT(SecondsSince(start), 10.0);
  // Blocks: 0 entry, 1..kChain the chain, then the exits.
  ASSERT_EQ(m->blocks().size(), 1 + kChain + kWide);
  EXPECT_EQ(dom.Idom(0), DominatorTree::kNone);
  EXPECT_EQ(dom.Idom(1), 0u);
  EXPECT_EQ(dom.Idom(kChain), kChain - 1);
  EXPECT_TRUE(dom.Dominates(1, kChain));
  for (uint32_t x = kChain + 1; x < m->blocks().size(); ++x) {
    ASSERT_EQ(dom.Idom(x), 0u) << x;
    ASSERT_EQ(pdom.Idom(x), DominatorTree::kNone) << x;  // Each exit is a root.
  }
  EXPECT_FALSE(pdom.Dominates(kChain + 1, 0));
  EXPECT_EQ(pdom.Idom(1), 2u);  // The chain's blocks post-dominate their predecessors.
}

// The CFG kept one edge per distinct successor by scanning the block's earlier edges for each
// new one: quadratic in the targets of an OpSwitch (0.45 s at -O2 for 32000 targets), and so
// linear in the input with a large constant for a function of many such blocks.
TEST(IrFuzzRegression, CfgOfManyWideSwitchesIsLinear) {
  constexpr uint32_t kWide = 32000, kSwitches = 24;
  const std::vector<uint32_t> words = WideSwitchModule(1, kWide, kSwitches);
  auto m = Read(words);
  ASSERT_NE(m, nullptr);
  const auto start = std::chrono::steady_clock::now();
  const Cfg& cfg = m->cfg();
  EXPECT_LT(SecondsSince(start), 10.0);
  ASSERT_EQ(m->blocks().size(), 2 + kWide + kSwitches);
  EXPECT_EQ(cfg.Successors(0).size(), 1u + kWide);
  EXPECT_EQ(cfg.Successors(m->blocks().size() - 1).size(), kWide);  // Default repeats exit 1.
  EXPECT_EQ(cfg.Predecessors(2).size(), 2u + kSwitches);
  EXPECT_EQ(cfg.Predecessors(3).size(), 2u + kSwitches);
}

}  // namespace
}  // namespace coopspv::ir
