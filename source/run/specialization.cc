#include "source/run/specialization.h"

#include <cstdio>

#include "include/coopspv/coopspv.hpp"
#include "source/common/float.h"
#include "source/ir/module.h"

namespace coopspv::run {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;

constexpr uint32_t U(auto e) { return static_cast<uint32_t>(e); }

}  // namespace

std::string SpecializationDefaults(std::span<const uint32_t> words,
                                   std::span<const SpecConstant> spec) {
  std::string values;
  if (spec.empty()) return values;
  Diagnostic d;
  const auto m = ir::Module::Read(words, &d);
  for (const SpecConstant& c : spec) {
    // The type of the constant with this SpecId: the pipeline hands over the bytes of the
    // SPECIALIZE value, which the constant reads as its own type (a float constant given
    // "AS uint32 1065353216" is 1.0, a Boolean is a VkBool32).
    Id type = 0;
    bool found = m == nullptr;
    for (InstIndex i = 0; m && i < m->global_end(); ++i) {
      if (m->opcode(i) == Op::Decorate && m->num_words(i) == 4 &&
          m->word(i, 2) == U(spv::Decoration::SpecId) && m->word(i, 3) == c.id) {
        found = true;
        type = m->TypeOf(m->word(i, 1));
      }
    }
    // Vulkan: "If a constant ID is not found in the shader, the map entry does not affect the
    // behavior of the pipeline" (vk_cooperative_matrix_perf passes SpecIds its kernels lack).
    if (!found) continue;
    const InstIndex t = m ? m->Def(type) : ir::kNoInst;
    const Op kind = t == ir::kNoInst ? Op::Nop : m->opcode(t);
    const uint32_t width = kind == Op::TypeInt || kind == Op::TypeFloat ? m->word(t, 2) : 0;
    const bool own_type = width == c.type.bits || kind == Op::TypeBool;
    char buf[64];
    if (kind == Op::TypeBool) {
      std::snprintf(buf, sizeof(buf), "%s", c.value.bits ? "true" : "false");
    } else if (own_type && kind == Op::TypeFloat) {
      std::snprintf(buf, sizeof(buf), "%.17g", IeeeFloatValue(c.value.bits, width));
    } else if (own_type && kind == Op::TypeInt && m->word(t, 3) != 0) {
      const int shift = 64 - static_cast<int>(width);
      const int64_t v = static_cast<int64_t>(c.value.bits << shift) >> shift;
      std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
    } else if (own_type && kind == Op::TypeInt) {
      std::snprintf(buf, sizeof(buf), "%llu", static_cast<unsigned long long>(c.value.bits));
    } else if (c.type.kind == DataType::kFloat) {  // Sizes differ: the value as written.
      std::snprintf(buf, sizeof(buf), "%.17g", c.value.value);
    } else if (c.type.kind == DataType::kSigned) {
      const int shift = 64 - static_cast<int>(c.type.bits);
      const int64_t v = static_cast<int64_t>(c.value.bits << shift) >> shift;
      std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
    } else {
      std::snprintf(buf, sizeof(buf), "%llu", static_cast<unsigned long long>(c.value.bits));
    }
    values += (values.empty() ? "" : " ") + std::to_string(c.id) + ":" + buf;
  }
  return values;
}

std::vector<uint32_t> Specialized(std::span<const uint32_t> words,
                                  std::span<const SpecConstant> spec, const std::string& target_env,
                                  bool freeze) {
  const std::string defaults = SpecializationDefaults(words, spec);
  if (defaults.empty()) return {};
  for (const bool frozen : {freeze, false}) {
    OptimizerOptions set;
    set.target_env = target_env;
    set.skip_validation = true;
    set.passes = {{"set-spec-const-default-value", defaults}};
    if (frozen) {
      set.passes.insert(set.passes.end(), {{"freeze-spec-const", ""}, {"fold-spec-const", ""}});
    }
    OptimizeResult r;
    Problem problem;
    if (Optimize(words, set, &r, &problem)) return std::move(r.words);
    if (!frozen) break;
  }
  return {};
}

}  // namespace coopspv::run
