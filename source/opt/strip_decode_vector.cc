// --strip-decode-vector: drops the DecodeVectorFunc operand of every
// OpCooperativeMatrixLoadTensorNV (SPV_NV_cooperative_matrix_decode_vector), for devices without
// VK_NV_cooperative_matrix_decode_vector.
//
// This never changes what a load reads: DecodeVectorFunc only appears together with DecodeFunc,
// and the extension lets the implementation call DecodeFunc for every element instead of
// DecodeVectorFunc for a group of them; without the operand it always does. Afterwards nothing
// needs the CooperativeMatrixDecodeVectorNV capability, so it goes with its OpExtension; a
// decode-vector function that nothing else names (no call, no other operand) goes too, with the
// names and decorations of its ids.
#include <algorithm>
#include <bit>
#include <set>
#include <vector>

#include "source/ir/analyses.h"
#include "source/ir/builder.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;

constexpr uint32_t kDecodeVectorFunc =
    static_cast<uint32_t>(spv::TensorAddressingOperands::DecodeVectorFunc);

bool IsNameOrDecoration(Op op) {
  return op == Op::Name || op == Op::MemberName || IsDecoration(op);
}

class StripDecodeVectorPass : public Pass {
 public:
  const char* name() const override { return "strip-decode-vector"; }

  PassResult Run(ir::Module& m) override {
    ir::Builder b(m);
    std::set<Id> stripped_functions;
    std::set<InstIndex> edited;
    for (InstIndex i = m.global_end(); i < m.num_instructions(); ++i) {
      if (m.opcode(i) != Op::CooperativeMatrixLoadTensorNV) continue;
      const ir::Inst inst = m.inst(i);
      const binary::ParsedOperand* mask = nullptr;
      for (const auto& operand : inst.operands) {
        if (operand.kind == grammar::OperandKind::kTensorAddressingOperands) mask = &operand;
      }
      if (mask == nullptr || (inst.word(*mask) & kDecodeVectorFunc) == 0) continue;
      const uint32_t bits = inst.word(*mask);
      // The parameters follow the mask in bit order; DecodeVectorFunc's is after those of the
      // lower bits (TensorView, DecodeFunc).
      const size_t at = mask->offset + 1 + std::popcount(bits & (kDecodeVectorFunc - 1));
      if (at >= inst.words.size()) {
        return PassResult::Failed("OpCooperativeMatrixLoadTensorNV %" +
                                  std::to_string(m.result_id(i)) +
                                  " lacks its DecodeVectorFunc operand");
      }
      stripped_functions.insert(inst.words[at]);
      std::vector<uint32_t> words(inst.words.begin() + 1, inst.words.end());
      words[mask->offset - 1] = bits & ~kDecodeVectorFunc;
      words.erase(words.begin() + static_cast<long>(at - 1));
      b.Replace(i, Op::CooperativeMatrixLoadTensorNV, words);
      edited.insert(i);
    }
    bool declared = false;
    for (InstIndex i = 0; i < m.global_end(); ++i) {
      const Op op = m.opcode(i);
      if (op == Op::Capability &&
          m.word(i, 1) == static_cast<uint32_t>(spv::Capability::CooperativeMatrixDecodeVectorNV)) {
        b.Remove(i);
        declared = true;
      } else if (op == Op::Extension && binary::DecodeString(m.inst(i).words.subspan(1)) ==
                                            "SPV_NV_cooperative_matrix_decode_vector") {
        b.Remove(i);
        declared = true;
      }
    }
    if (edited.empty() && !declared) return PassResult::Unchanged();

    // Functions that only the stripped operands named.
    const ir::DefUse& du = m.def_use();
    for (Id f : stripped_functions) {
      const uint32_t index = m.FunctionById(f);
      if (index == ~0u) continue;
      const ir::Function& fn = m.functions()[index];
      if (fn.end == ir::kNoInst) continue;
      const bool used_elsewhere = std::any_of(du.Uses(f).begin(), du.Uses(f).end(), [&](auto u) {
        return !edited.count(u.inst) && !IsNameOrDecoration(m.opcode(u.inst));
      });
      if (used_elsewhere) continue;
      std::set<Id> defined;
      for (InstIndex i = fn.def; i <= fn.end; ++i) {
        if (m.result_id(i) != 0) defined.insert(m.result_id(i));
        b.Remove(i);
      }
      for (Id id : defined) {
        for (const ir::Use& u : du.Uses(id)) {
          if (IsNameOrDecoration(m.opcode(u.inst))) b.Remove(u.inst);
        }
      }
    }
    return FinishRebuilt(b);
  }
};

}  // namespace

std::unique_ptr<Pass> CreateStripDecodeVectorPass(std::string_view, std::string*) {
  return std::make_unique<StripDecodeVectorPass>();
}

}  // namespace coopspv::opt
