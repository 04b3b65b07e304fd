// --strip-nonsemantic: removes every non-semantic instruction (SPV_KHR_non_semantic_info: the
// OpExtInst and OpExtInstWithForwardRefsKHR of "NonSemantic.*" sets, as glslang -gV and DXC
// -fspv-debug=vulkan write debug info), their OpExtInstImports, and the extensions only they
// need (SPV_KHR_non_semantic_info, SPV_KHR_relaxed_extended_instruction), as spirv-opt's
// --strip-nonsemantic does. By the extension's definition this changes nothing the module
// computes: non-semantic instructions name other ids but nothing semantic names them.
// --legalize-for-device runs it for a device without VK_KHR_shader_non_semantic_info or, where
// the module forward-references, VK_KHR_shader_relaxed_extended_instruction.
#include <set>
#include <string_view>

#include "source/ir/builder.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;

class StripNonSemanticPass : public Pass {
 public:
  const char* name() const override { return "strip-nonsemantic"; }

  PassResult Run(ir::Module& m) override {
    ir::Builder b(m);
    std::set<Id> sets;
    for (InstIndex i = 0; i < m.global_end(); ++i) {
      if (m.opcode(i) != Op::ExtInstImport) continue;
      const std::string_view name = binary::DecodeString(m.inst(i).words.subspan(2));
      if (name.substr(0, 12) == "NonSemantic.") sets.insert(m.result_id(i));
    }
    if (sets.empty()) return PassResult::Unchanged();
    std::set<Id> removed;
    for (InstIndex i = 0; i < m.num_instructions(); ++i) {
      const Op op = m.opcode(i);
      if (op == Op::ExtInstImport && sets.count(m.result_id(i))) {
        b.Remove(i);
      } else if ((op == Op::ExtInst || op == Op::ExtInstWithForwardRefsKHR) &&
                 m.num_words(i) > 3 && sets.count(m.word(i, 3))) {
        removed.insert(m.result_id(i));
        b.Remove(i);
      } else if (op == Op::Extension) {
        const std::string_view name = binary::DecodeString(m.inst(i).words.subspan(1));
        if (name == "SPV_KHR_non_semantic_info" || name == "SPV_KHR_relaxed_extended_instruction") {
          b.Remove(i);
        }
      }
    }
    // Names and decorations of what went.
    for (InstIndex i = 0; i < m.global_end(); ++i) {
      const Op op = m.opcode(i);
      if ((op == Op::Name || op == Op::Decorate || op == Op::DecorateId ||
           op == Op::DecorateString) &&
          m.num_words(i) > 1 && (removed.count(m.word(i, 1)) || sets.count(m.word(i, 1)))) {
        b.Remove(i);
      }
    }
    return FinishRebuilt(b);
  }
};

}  // namespace

std::unique_ptr<Pass> CreateStripNonSemanticPass(std::string_view, std::string*) {
  return std::make_unique<StripNonSemanticPass>();
}

}  // namespace coopspv::opt
