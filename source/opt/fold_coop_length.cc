// --fold-coop-length=<subgroup size>: replaces OpCooperativeMatrixLengthKHR / NV (and their
// OpSpecConstantOp forms) with a constant, for matrices whose Rows, Columns and Scope are known.
//
// --fold-coop-length=<S>[,tile]: the element distribution this assumes is the one
// --lower-coop-matrix with the same argument uses for Subgroup-scope matrices
// (coop_matrix_distribution.h: linear, or with ",tile" per Use and shape; e.g. a 16 x 16 MatrixA
// then holds 16 / 8 * 16 = 32 elements per invocation at S = 32). Workgroup-scope matrices
// of S invocations (the workgroup size: the WorkgroupSize built-in, LocalSizeId or LocalSize,
// when every entry point agrees on it) have the linear distribution: e = r * C + c numbered
// row-major, invocation i holding elements i, i + S, ..., ceil(R * C / S) of them. Matrices of
// other scopes are left alone.
#include <map>
#include <optional>

#include "source/common/literal.h"
#include "source/ir/builder.h"
#include "source/ir/workgroup_size.h"
#include "source/opt/coop_matrix_distribution.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;

std::optional<uint64_t> KnownUint(const ir::Module& m, Id id) {
  const InstIndex d = m.Def(id);
  if (d == ir::kNoInst || m.opcode(d) != Op::Constant) return std::nullopt;
  const InstIndex t = m.Def(m.type_id(d));
  if (t == ir::kNoInst || m.opcode(t) != Op::TypeInt || m.word(t, 2) != 32) return std::nullopt;
  return m.word(d, 3);
}

class FoldCoopLengthPass : public Pass {
 public:
  explicit FoldCoopLengthPass(const CoopDistributionChoice& choice) : choice_(choice) {}
  const char* name() const override { return "fold-coop-length"; }

  PassResult Run(ir::Module& m) override {
    const std::optional<uint64_t> workgroup = ir::CommonWorkgroupInvocations(m);
    ir::Builder b(m);
    std::map<std::pair<Id, uint64_t>, Id> made;  // (type, value) -> constant id we created.
    bool changed = false;
    for (InstIndex i = 0; i < m.num_instructions(); ++i) {
      const Op op = m.opcode(i);
      const bool spec = op == Op::SpecConstantOp;
      const Op length_op = spec ? static_cast<Op>(m.word(i, 3)) : op;
      if (length_op != Op::CooperativeMatrixLengthKHR &&
          length_op != Op::CooperativeMatrixLengthNV) {
        continue;
      }
      const Id matrix_type = m.word(i, spec ? 4 : 3);
      const InstIndex t = m.Def(matrix_type);
      if (t == ir::kNoInst || (m.opcode(t) != Op::TypeCooperativeMatrixKHR &&
                               m.opcode(t) != Op::TypeCooperativeMatrixNV)) {
        continue;
      }
      const auto scope = KnownUint(m, m.word(t, 3));
      const auto rows = KnownUint(m, m.word(t, 4));
      const auto columns = KnownUint(m, m.word(t, 5));
      if (!scope || !rows || !columns) continue;
      uint64_t length = 0;
      if (*scope == static_cast<uint32_t>(spv::Scope::Subgroup)) {
        std::optional<uint32_t> use;
        if (m.opcode(t) == Op::TypeCooperativeMatrixKHR && m.num_words(t) > 6) {
          const auto known = KnownUint(m, m.word(t, 6));
          if (!known) continue;
          use = static_cast<uint32_t>(*known);
        }
        const CoopDistribution d = DistributionOf(choice_, use, *rows, *columns);
        length = DistributedLength(d, *rows, *columns, choice_.subgroup_size);
      } else if (*scope == static_cast<uint32_t>(spv::Scope::Workgroup) && workgroup &&
                 *workgroup != 0) {
        length = (*rows * *columns + *workgroup - 1) / *workgroup;
      } else {
        continue;
      }
      if (length > 0xFFFFFFFFu) continue;
      const Id type = m.type_id(i);
      const Id result = m.result_id(i);
      if (spec) {
        const uint32_t words[3] = {type, result, static_cast<uint32_t>(length)};
        b.Replace(i, Op::Constant, words);
      } else {
        auto [it, fresh] = made.emplace(std::make_pair(type, length), 0);
        if (fresh) {
          b.SetInsertBeforeFunctions();
          it->second = b.Add(Op::Constant, type, {static_cast<uint32_t>(length)});
        }
        b.ReplaceAllUsesWith(result, it->second);
        b.Remove(i);
      }
      changed = true;
    }
    if (!changed) return PassResult::Unchanged();
    // Constants we added may duplicate existing ones.
    return FinishMergingDeclarations(b);
  }

 private:
  CoopDistributionChoice choice_;
};

}  // namespace

std::unique_ptr<Pass> CreateFoldCoopLengthPass(std::string_view argument, std::string* error) {
  CoopDistributionChoice choice;
  std::string_view size_text;
  if (!ParseCoopDistributionStrategy(argument, &size_text, &choice, error)) return nullptr;
  bool negative = false;
  uint64_t size = 0;
  if (!ParseInteger(size_text, &negative, &size) || negative || size == 0 || size > 4096) {
    *error = "expected a subgroup size between 1 and 4096, found '" + std::string(size_text) + "'";
    return nullptr;
  }
  choice.subgroup_size = static_cast<uint32_t>(size);
  return std::make_unique<FoldCoopLengthPass>(choice);
}

}  // namespace coopspv::opt
