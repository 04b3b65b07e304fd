#include "source/ir/workgroup_size.h"

#include "source/ir/scalar_eval.h"

namespace coopspv::ir {
namespace {

using spv::Op;

constexpr uint32_t U(auto e) { return static_cast<uint32_t>(e); }

// The SpecId literal decorating `id`, if one does.
std::optional<uint32_t> SpecIdOf(const Module& m, Id id) {
  for (InstIndex i = 0; i < m.global_end(); ++i) {
    if (m.opcode(i) == Op::Decorate && m.num_words(i) >= 4 && m.word(i, 1) == id &&
        m.word(i, 2) == U(spv::Decoration::SpecId)) {
      return m.word(i, 3);
    }
  }
  return std::nullopt;
}

// SpecializedValue, with `budget` bounding the instructions an expression may visit.
std::optional<uint64_t> Evaluate(const Module& m, Id id, const SpecValue* spec, int* budget) {
  if (--*budget < 0) return std::nullopt;
  const InstIndex d = m.Def(id);
  if (d == kNoInst) return std::nullopt;
  const std::optional<Scalar> shape = ScalarShape(m, m.type_id(d));
  if (!shape) return std::nullopt;
  const Op op = m.opcode(d);
  switch (op) {
    case Op::ConstantTrue:
      return 1;
    case Op::ConstantFalse:
    case Op::ConstantNull:
      return 0;
    case Op::Constant:
    case Op::SpecConstant: {
      if (m.num_words(d) < 4) return std::nullopt;
      uint64_t bits = m.word(d, 3);
      if (shape->width > 32 && m.num_words(d) >= 5) bits |= uint64_t{m.word(d, 4)} << 32;
      if (op == Op::Constant) return MaskTo(bits, shape->width);
      break;
    }
    case Op::SpecConstantTrue:
    case Op::SpecConstantFalse:
    case Op::SpecConstantOp:
      break;
    default:
      return std::nullopt;
  }
  if (spec == nullptr) return std::nullopt;
  if (op != Op::SpecConstantOp) {
    const std::optional<uint32_t> spec_id = SpecIdOf(m, id);
    const std::optional<uint64_t> given = spec_id ? (*spec)(*spec_id) : std::nullopt;
    if (given) return shape->is_bool ? uint64_t{*given != 0} : MaskTo(*given, shape->width);
    if (op == Op::SpecConstantTrue) return 1;
    if (op == Op::SpecConstantFalse) return 0;
    uint64_t bits = m.word(d, 3);
    if (shape->width > 32 && m.num_words(d) >= 5) bits |= uint64_t{m.word(d, 4)} << 32;
    return MaskTo(bits, shape->width);
  }
  // OpSpecConstantOp: a scalar integer / Boolean operation on scalar operands.
  Scalar args[3];
  size_t num_args = 0;
  for (uint32_t w = 4; w < m.num_words(d); ++w) {
    const Id arg = m.word(d, w);
    std::optional<Scalar> value = ScalarShape(m, m.TypeOf(arg));
    if (!value || num_args == std::size(args)) return std::nullopt;
    const std::optional<uint64_t> v = Evaluate(m, arg, spec, budget);
    if (!v) return std::nullopt;
    value->bits = *v;
    args[num_args++] = *value;
  }
  const std::optional<Scalar> r = EvaluateScalarOp(static_cast<Op>(m.word(d, 3)), *shape,
                                                   std::span<const Scalar>(args, num_args));
  if (!r) return std::nullopt;
  return r->bits;
}

}  // namespace

std::optional<uint64_t> SpecializedValue(const Module& m, Id id, const SpecValue* spec) {
  int budget = 256;  // Expressions are small; this bounds hostile nesting.
  return Evaluate(m, id, spec, &budget);
}

std::optional<std::array<uint64_t, 3>> WorkgroupSize(const Module& m, Id entry,
                                                     const SpecValue* spec) {
  // The three ids (LocalSizeId, or a WorkgroupSize composite) or literals (LocalSize).
  std::optional<std::array<uint64_t, 3>> from_mode;
  std::optional<std::array<Id, 3>> ids;
  bool built_in = false;
  for (InstIndex i = 0; i < m.global_end(); ++i) {
    const Op op = m.opcode(i);
    if ((op == Op::ExecutionMode || op == Op::ExecutionModeId) && m.num_words(i) == 6 &&
        m.word(i, 1) == entry && !built_in) {
      if (op == Op::ExecutionMode && m.word(i, 2) == U(spv::ExecutionMode::LocalSize)) {
        from_mode = {m.word(i, 3), m.word(i, 4), m.word(i, 5)};
        ids.reset();
      } else if (op == Op::ExecutionModeId && m.word(i, 2) == U(spv::ExecutionMode::LocalSizeId)) {
        ids = {m.word(i, 3), m.word(i, 4), m.word(i, 5)};
        from_mode.reset();
      }
    }
    if (op == Op::Decorate && m.num_words(i) == 4 && m.word(i, 2) == U(spv::Decoration::BuiltIn) &&
        m.word(i, 3) == U(spv::BuiltIn::WorkgroupSize)) {
      const InstIndex d = m.Def(m.word(i, 1));
      if (d == kNoInst || m.num_words(d) != 6 ||
          (m.opcode(d) != Op::ConstantComposite && m.opcode(d) != Op::SpecConstantComposite)) {
        return std::nullopt;
      }
      built_in = true;
      ids = {m.word(d, 3), m.word(d, 4), m.word(d, 5)};
      from_mode.reset();
    }
  }
  if (!ids) return from_mode;
  std::array<uint64_t, 3> size;
  for (int k = 0; k < 3; ++k) {
    const std::optional<uint64_t> v = SpecializedValue(m, (*ids)[k], spec);
    if (!v) return std::nullopt;
    size[k] = *v;
  }
  return size;
}

std::optional<uint64_t> CommonWorkgroupInvocations(const Module& m) {
  std::optional<uint64_t> common;
  for (InstIndex i = 0; i < m.global_end(); ++i) {
    if (m.opcode(i) != Op::EntryPoint || m.num_words(i) < 3) continue;
    const auto size = WorkgroupSize(m, m.word(i, 2));
    if (!size) return std::nullopt;
    const uint64_t n = (*size)[0] * (*size)[1] * (*size)[2];
    if (common && *common != n) return std::nullopt;
    common = n;
  }
  return common;
}

}  // namespace coopspv::ir
