// --compact-ids: renumbers ids 1, 2, 3, ... in order of first appearance and lowers the bound
// to match, so the ids a module uses are dense.
#include <vector>

#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

class CompactIdsPass : public Pass {
 public:
  const char* name() const override { return "compact-ids"; }

  PassResult Run(ir::Module& m) override {
    std::vector<uint32_t> words(m.words().begin(), m.words().end());
    std::vector<uint32_t> map(m.bound(), 0);
    uint32_t next = 1;
    bool identity = true;
    for (ir::InstIndex i = 0; i < m.num_instructions(); ++i) {
      const ir::Inst inst = m.inst(i);
      for (const auto& op : inst.operands) {
        if (!grammar::IsIdKind(op.kind)) continue;
        uint32_t& word = words[inst.offset + op.offset];
        if (map[word] == 0) map[word] = next++;
        identity = identity && map[word] == word;
        word = map[word];
      }
    }
    if (identity && next == m.bound()) return PassResult::Unchanged();
    words[3] = next;
    Diagnostic d;
    auto rebuilt = ir::Module::Read(words, &d);
    if (!rebuilt) return PassResult::Failed("could not rebuild the module: " + d.ToString());
    return PassResult::Rebuilt(std::move(rebuilt));
  }
};

}  // namespace

std::unique_ptr<Pass> CreateCompactIdsPass(std::string_view, std::string*) {
  return std::make_unique<CompactIdsPass>();
}

}  // namespace coopspv::opt
