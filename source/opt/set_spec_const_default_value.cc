// --set-spec-const-default-value "<spec id>:<value> ...": sets the default value of the
// specialization constants with those SpecIds, as spirv-opt does. Only literal words (and the
// opcode of Boolean spec constants) change, so the edit is made in place and every analysis is
// preserved.
#include <map>
#include <string>

#include "source/common/literal.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using spv::Op;

class SetSpecConstDefaultValuePass : public Pass {
 public:
  explicit SetSpecConstDefaultValuePass(std::map<uint32_t, std::string> values)
      : values_(std::move(values)) {}
  const char* name() const override { return "set-spec-const-default-value"; }
  uint32_t preserved() const override { return ir::kAnalysisAll; }

  PassResult Run(ir::Module& m) override {
    // Several constants may share a SpecId (glslang gives local_size_x_id both the LocalSizeId
    // operand and gl_WorkGroupSize's component): each gets the value.
    std::multimap<uint32_t, ir::Id> by_spec_id;
    for (ir::InstIndex i = 0; i < m.num_instructions(); ++i) {
      if (m.opcode(i) == Op::Decorate && m.num_words(i) >= 4 &&
          m.word(i, 2) == static_cast<uint32_t>(spv::Decoration::SpecId)) {
        by_spec_id.emplace(m.word(i, 3), m.word(i, 1));
      }
    }
    bool changed = false;
    for (const auto& [spec_id, text] : values_) {
      if (by_spec_id.count(spec_id) == 0) {
        return PassResult::Failed("no specialization constant is decorated with SpecId " +
                                  std::to_string(spec_id));
      }
      for (auto [it, end] = by_spec_id.equal_range(spec_id); it != end; ++it) {
        const ir::InstIndex d = m.Def(it->second);
        if (d == ir::kNoInst) {
          return PassResult::Failed("SpecId " + std::to_string(spec_id) +
                                    " decorates an undefined id");
        }
        const Op op = m.opcode(d);
        if (op == Op::SpecConstantTrue || op == Op::SpecConstantFalse) {
          if (text != "true" && text != "false") {
            return PassResult::Failed("SpecId " + std::to_string(spec_id) +
                                      " is a Boolean: its value must be true or false, not '" +
                                      text + "'");
          }
          const Op want = text == "true" ? Op::SpecConstantTrue : Op::SpecConstantFalse;
          if (want != op) {
            m.SetOpcode(d, want);
            changed = true;
          }
          continue;
        }
        if (op != Op::SpecConstant) {
          return PassResult::Failed("SpecId " + std::to_string(spec_id) +
                                    " decorates an instruction without a default value to set");
        }
        const ir::Id type = m.type_id(d);
        const ir::InstIndex type_def = m.Def(type);
        if (type_def == ir::kNoInst) return PassResult::Failed("spec constant of undefined type");
        ScalarType scalar;
        scalar.width = m.word(type_def, 2);
        if (m.opcode(type_def) == Op::TypeFloat) {
          scalar.kind = ScalarType::kFloat;
          if (m.num_words(type_def) > 3)
            scalar.fp_encoding = static_cast<int32_t>(m.word(type_def, 3));
        } else if (m.opcode(type_def) == Op::TypeInt) {
          scalar.kind = m.word(type_def, 3) ? ScalarType::kSigned : ScalarType::kUnsigned;
        } else {
          return PassResult::Failed("spec constant of non-numeric type");
        }
        uint64_t bits = 0;
        std::string error;
        if (!EncodeLiteral(text, scalar, &bits, &error)) {
          return PassResult::Failed("SpecId " + std::to_string(spec_id) + ": " + error);
        }
        const size_t words = scalar.width > 32 ? 2 : 1;
        if (m.num_words(d) != 3 + words) return PassResult::Failed("malformed OpSpecConstant");
        const uint32_t low = static_cast<uint32_t>(bits), high = static_cast<uint32_t>(bits >> 32);
        if (m.word(d, 3) != low || (words == 2 && m.word(d, 4) != high)) {
          m.SetWord(d, 3, low);
          if (words == 2) m.SetWord(d, 4, high);
          changed = true;
        }
      }
    }
    return changed ? PassResult::ChangedInPlace() : PassResult::Unchanged();
  }

 private:
  std::map<uint32_t, std::string> values_;
};

}  // namespace

std::unique_ptr<Pass> CreateSetSpecConstDefaultValuePass(std::string_view argument,
                                                         std::string* error) {
  // "<spec id>:<value>" pairs separated by whitespace.
  std::map<uint32_t, std::string> values;
  size_t pos = 0;
  while (pos < argument.size()) {
    while (pos < argument.size() && isspace(static_cast<unsigned char>(argument[pos]))) ++pos;
    if (pos == argument.size()) break;
    size_t end = pos;
    while (end < argument.size() && !isspace(static_cast<unsigned char>(argument[end]))) ++end;
    const std::string_view pair = argument.substr(pos, end - pos);
    pos = end;
    const size_t colon = pair.find(':');
    bool negative = false;
    uint64_t id = 0;
    if (colon == std::string_view::npos || colon + 1 == pair.size() ||
        !ParseInteger(pair.substr(0, colon), &negative, &id) || negative || id > 0xFFFFFFFFu) {
      *error = "expected <spec id>:<value>, found '" + std::string(pair) + "'";
      return nullptr;
    }
    values[static_cast<uint32_t>(id)] = std::string(pair.substr(colon + 1));
  }
  if (values.empty()) {
    *error = "expected at least one <spec id>:<value> pair";
    return nullptr;
  }
  return std::make_unique<SetSpecConstDefaultValuePass>(std::move(values));
}

}  // namespace coopspv::opt
