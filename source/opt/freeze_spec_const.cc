// --freeze-spec-const: every specialization constant becomes a constant with its default
// value (OpSpecConstant -> OpConstant, OpSpecConstantTrue/False -> OpConstantTrue/False,
// OpSpecConstantComposite -> OpConstantComposite once its constituents are frozen), and its
// SpecId decoration goes. OpSpecConstantOp stays: --fold-spec-const evaluates it.
#include <vector>

#include "source/ir/builder.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using spv::Op;

class FreezeSpecConstPass : public Pass {
 public:
  const char* name() const override { return "freeze-spec-const"; }

  PassResult Run(ir::Module& m) override {
    ir::Builder b(m);
    std::vector<bool> frozen(m.bound(), false);
    bool changed = false;
    for (ir::InstIndex i = 0; i < m.num_instructions(); ++i) {
      const Op op = m.opcode(i);
      Op to = Op::Nop;
      switch (op) {
        case Op::SpecConstant:
          to = Op::Constant;
          break;
        case Op::SpecConstantTrue:
          to = Op::ConstantTrue;
          break;
        case Op::SpecConstantFalse:
          to = Op::ConstantFalse;
          break;
        case Op::SpecConstantComposite:
        case Op::SpecConstantCompositeReplicateEXT: {
          // Only when every constituent is (or became) a non-specialization constant.
          bool all = true;
          for (size_t w = 3; w < m.num_words(i); ++w) {
            const ir::Id c = m.word(i, w);
            all = all && (frozen[c] ||
                          (ir::IsConstant(m.DefOpcode(c)) && !ir::IsSpecConstant(m.DefOpcode(c))));
          }
          if (all) {
            to = op == Op::SpecConstantComposite ? Op::ConstantComposite
                                                 : Op::ConstantCompositeReplicateEXT;
          }
          break;
        }
        default:
          break;
      }
      if (to == Op::Nop) continue;
      const ir::Inst inst = m.inst(i);
      b.Replace(i, to, inst.words.subspan(1));
      frozen[m.result_id(i)] = true;
      changed = true;
    }
    if (!changed) return PassResult::Unchanged();
    for (ir::InstIndex i = 0; i < m.num_instructions(); ++i) {
      if (m.opcode(i) == Op::Decorate && m.num_words(i) >= 3 &&
          m.word(i, 2) == static_cast<uint32_t>(spv::Decoration::SpecId) && frozen[m.word(i, 1)]) {
        b.Remove(i);
      }
    }
    return FinishRebuilt(b);
  }
};

}  // namespace

std::unique_ptr<Pass> CreateFreezeSpecConstPass(std::string_view, std::string*) {
  return std::make_unique<FreezeSpecConstPass>();
}

}  // namespace coopspv::opt
