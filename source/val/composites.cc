// Composite instructions (SPIR-V 3.42.12): the types OpVectorShuffle, OpCompositeExtract and
// OpCompositeInsert take and give. Cooperative matrices and vectors count as composites of their
// component type, as in the cooperative extensions.
#include <string>

#include "source/common/workspace.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

// The type `index` selects in `composite`, or 0 after a report.
Id Walk(ValidationState& state, InstIndex i, Id composite, std::span<const uint32_t> indexes) {
  Id current = composite;
  for (uint32_t index : indexes) {
    const Op op = state.DefOp(current);
    const InstIndex d = state.module().Def(current);
    uint64_t size = 0;
    Id next = 0;
    switch (op) {
      case Op::TypeVector:
      case Op::TypeMatrix:
        size = state.DefWord(current, 3);
        next = state.DefWord(current, 2);
        break;
      case Op::TypeArray: {
        next = state.DefWord(current, 2);
        const std::optional<int64_t> length = state.IntConstant(state.DefWord(current, 3));
        size = length && *length > 0 ? static_cast<uint64_t>(*length) : ~0ull;
        break;
      }
      case Op::TypeStruct:
        size = state.module().num_words(d) - 2;
        next = index < size ? state.DefWord(current, 2 + index) : 0;
        break;
      case Op::TypeCooperativeMatrixKHR:
      case Op::TypeCooperativeMatrixNV:
      case Op::TypeVectorIdEXT:
        // Sized by the implementation or a specialization constant, or a long vector's constant.
        if (const auto count = state.VectorCount(current)) {
          size = *count;
        } else {
          size = ~0ull;
        }
        next = state.DefWord(current, 2);
        break;
      default:
        state.Report("composite.index", i,
                     state.Describe(i) + ": index " + ws::to_string(index) + " indexes into " +
                         state.Name(current) + ", which is not a composite type");
        return 0;
    }
    if (index >= size) {
      state.Report("composite.index", i,
                   state.Describe(i) + ": index " + ws::to_string(index) + " is out of range for " +
                       state.Name(current) + " of " + ws::to_string(size) + " elements");
      return 0;
    }
    current = next;
  }
  return current;
}

bool IsValue(const ValidationState& state, Id id) {
  const Op op = state.DefOp(id);
  return op != Op::Nop && op != Op::Function && state.TypeOf(id) != 0;
}

void CheckExtractInsert(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const bool insert = m.opcode(i) == Op::CompositeInsert;
  const uint32_t composite_word = insert ? 4 : 3;
  const uint32_t first_index = composite_word + 1;
  if (m.num_words(i) <= composite_word) return;
  const Id result_type = m.word(i, 1);
  const Id composite = m.word(i, composite_word);
  if (!state.IsType(result_type) || !IsValue(state, composite)) return;
  if (m.num_words(i) == first_index) {
    state.Report("composite.index", i, state.Describe(i) + " has no indexes");
    return;
  }
  const Id composite_type = state.TypeOf(composite);
  const Id selected =
      Walk(state, i, composite_type,
           m.words().subspan(m.word_offset(i) + first_index, m.num_words(i) - first_index));
  if (selected == 0) return;
  if (!insert && selected != result_type) {
    state.Report("composite.type", i,
                 state.Describe(i) + ": Result Type " + state.Name(result_type) +
                     " is not the type " + state.Name(selected) + " the indexes select");
  } else if (insert && composite_type != result_type) {
    state.Report("composite.type", i,
                 state.Describe(i) + ": Result Type " + state.Name(result_type) +
                     " is not the type " + state.Name(composite_type) + " of Composite");
  } else if (insert && IsValue(state, m.word(i, 3)) && state.TypeOf(m.word(i, 3)) != selected) {
    state.Report("composite.type", i,
                 state.Describe(i) + ": Object " + state.Name(m.word(i, 3)) + " has type " +
                     state.Name(state.TypeOf(m.word(i, 3))) + ", not the type " +
                     state.Name(selected) + " the indexes select");
  }
}

void CheckVectorShuffle(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  if (m.num_words(i) < 5) return;
  const Id result_type = m.word(i, 1);
  const Id v1 = m.word(i, 3), v2 = m.word(i, 4);
  if (!state.IsType(result_type) || !IsValue(state, v1) || !IsValue(state, v2)) return;
  // SPV_EXT_long_vector: "a vector type", OpTypeVectorIdEXT included; a spec-constant count is
  // known only once specialized.
  if (!state.IsVectorType(result_type)) {
    state.Report(
        "composite.type", i,
        state.Describe(i) + ": Result Type " + state.Name(result_type) + " is not a vector type");
    return;
  }
  const uint32_t components = m.num_words(i) - 5;
  if (const auto count = state.VectorCount(result_type); count && components != *count) {
    state.Report("composite.type", i,
                 state.Describe(i) + ": " + ws::to_string(components) +
                     " Components select into Result Type " + state.Name(result_type) + " of " +
                     ws::to_string(*count) + " components");
    return;
  }
  const Id component = state.DefWord(result_type, 2);
  uint64_t total = 0;
  bool total_known = true;
  for (Id v : {v1, v2}) {
    const Id type = state.TypeOf(v);
    if (!state.IsVectorType(type) || state.DefWord(type, 2) != component) {
      state.Report("composite.type", i,
                   state.Describe(i) + ": " + state.Name(v) + " is not a vector of " +
                       state.Name(component) + ", the Result Type's component type");
      return;
    }
    const auto count = state.VectorCount(type);
    total += count.value_or(0);
    total_known = total_known && count.has_value();
  }
  for (uint32_t w = 5; w < m.num_words(i) && total_known; ++w) {
    const uint32_t c = m.word(i, w);
    if (c != 0xFFFFFFFFu && c >= total) {
      state.Report("composite.index", i,
                   state.Describe(i) + ": component " + ws::to_string(c) +
                       " is out of range for the " + ws::to_string(total) +
                       " components of both vectors");
      return;
    }
  }
}

// OpCompositeConstruct: one constituent per member, element or column, of its type; for a
// vector, scalars and vectors of its component type whose components add up to its size.
void CheckConstruct(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const Id type = m.word(i, 1);
  const uint32_t first = 3;
  const uint32_t given = m.num_words(i) - first;
  const InstIndex def = m.Def(type);
  if (def == kNoInst) return;
  for (uint32_t w = first; w < m.num_words(i); ++w) {
    if (!IsValue(state, m.word(i, w))) return;  // The id rules.
  }
  auto fail = [&](const ws::string& why) {
    state.Report("composite.type", i, state.Describe(i) + ": " + why);
  };
  auto expect = [&](uint32_t w, Id want) {
    const Id have = state.TypeOf(m.word(i, w));
    if (have == want) return true;
    fail("constituent " + state.Name(m.word(i, w)) + " has type " + state.Name(have) + ", not " +
         state.Name(want));
    return false;
  };
  switch (m.opcode(def)) {
    case Op::TypeVector:
    case Op::TypeVectorIdEXT: {
      // An OpTypeVectorIdEXT that is no long vector is a cooperative vector: coop_vector.cc's.
      if (!state.IsVectorType(type)) return;
      const Id component = m.word(def, 2);
      uint64_t total = 0;
      bool total_known = true;
      for (uint32_t w = first; w < m.num_words(i); ++w) {
        const Id t = state.TypeOf(m.word(i, w));
        if (state.IsVectorType(t) && state.DefWord(t, 2) == component) {
          const auto count = state.VectorCount(t);
          total += count.value_or(0);
          total_known = total_known && count.has_value();
        } else if (!expect(w, component)) {
          return;
        } else {
          ++total;
        }
      }
      const auto want = state.VectorCount(type);
      if (total_known && want && total != *want) {
        fail("the constituents have " + ws::to_string(total) + " components; Result Type " +
             state.Name(type) + " has " + ws::to_string(*want));
      }
      return;
    }
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeStruct: {
      const Op op = m.opcode(def);
      uint64_t want = op == Op::TypeMatrix ? m.word(def, 3) : m.num_words(def) - 2;
      if (op == Op::TypeArray) {
        const std::optional<int64_t> length = state.IntConstant(m.word(def, 3));
        if (!length) return;  // A spec-constant length: known only once specialized.
        want = static_cast<uint64_t>(*length);
      }
      if (given != want) {
        fail(ws::to_string(given) + " constituents for Result Type " + state.Name(type) +
             ", which needs " + ws::to_string(want));
        return;
      }
      for (uint32_t w = first; w < m.num_words(i); ++w) {
        const Id member = op == Op::TypeStruct ? m.word(def, 2 + (w - first)) : m.word(def, 2);
        if (!expect(w, member)) return;
      }
      return;
    }
    default:
      return;  // Cooperative types: their families; others: constant / id rules.
  }
}

}  // namespace

bool CompositesVisits(const ValidationState& state, Op op) {
  return op == Op::CompositeExtract || op == Op::CompositeInsert || op == Op::VectorShuffle ||
         op == Op::CompositeConstruct;
}

void ValidateComposites(ValidationState& state) {
  const ir::Module& m = state.module();
  for (const InstIndex i : state.Walked(Walk::kComposites, m.global_end())) {
    if (state.Full()) break;
    switch (m.opcode(i)) {
      case Op::CompositeExtract:
      case Op::CompositeInsert:
        CheckExtractInsert(state, i);
        break;
      case Op::VectorShuffle:
        CheckVectorShuffle(state, i);
        break;
      case Op::CompositeConstruct:
        if (m.num_words(i) >= 3) CheckConstruct(state, i);
        break;
      default:
        break;
    }
  }
}

}  // namespace coopspv::val
