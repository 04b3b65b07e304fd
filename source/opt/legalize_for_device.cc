// --legalize-for-device: runs the sub-passes that rewrite a module for a device that lacks some
// of the cooperative extensions it uses (see legalize_for_device.h for the order). Each step
// looks at the capabilities the module declares after the steps before it.
#include "source/opt/legalize_for_device.h"

#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include "source/common/target_env.h"
#include "source/opt/pass_manager.h"
#include "source/opt/passes.h"
#include "source/opt/tile_coop_matrix.h"
#include "source/profile/device_profile.h"
#include "source/val/rules.h"
#include "source/val/validator.h"

namespace coopspv::opt {
namespace {

using spv::Capability;

constexpr uint32_t U(Capability c) { return static_cast<uint32_t>(c); }

// SPV_NV_cooperative_matrix2 and SPV_NV_tensor_addressing (ReductionsNV, ConversionsNV and
// PerElementOperationsNV share their values with the EXT capabilities).
constexpr Capability kMatrix2Capabilities[] = {
    Capability::CooperativeMatrixReductionsNV,
    Capability::CooperativeMatrixConversionsNV,
    Capability::CooperativeMatrixPerElementOperationsNV,
    Capability::CooperativeMatrixTensorAddressingNV,
    Capability::CooperativeMatrixBlockLoadsNV,
    Capability::TensorAddressingNV,
};

bool Declares(const ir::Module& m, Capability c) {
  for (ir::InstIndex i = 0; i < m.global_end(); ++i) {
    if (m.opcode(i) == spv::Op::Capability && m.word(i, 1) == U(c)) return true;
  }
  return false;
}

// What only VK_NV_cooperative_matrix2 gives: one of its capabilities, or a KHR matrix of
// Workgroup scope (its cooperativeMatrixWorkgroupScope feature).
bool UsesMatrix2(const ir::Module& m) {
  for (Capability c : kMatrix2Capabilities) {
    if (Declares(m, c)) return true;
  }
  for (ir::InstIndex i = 0; i < m.global_end(); ++i) {
    if (m.opcode(i) != spv::Op::TypeCooperativeMatrixKHR) continue;
    const ir::InstIndex scope = m.Def(m.word(i, 3));
    if (scope != ir::kNoInst && m.opcode(scope) == spv::Op::Constant &&
        m.word(scope, 3) == static_cast<uint32_t>(spv::Scope::Workgroup)) {
      return true;
    }
  }
  return false;
}

// A cooperative matrix or vector type with a bfloat16 / float8 component: the device keeps it
// (it has the extension), so the scalars cannot become integers under it.
bool KeepsSmallFloatMatrices(const ir::Module& m) {
  for (ir::InstIndex i = 0; i < m.global_end(); ++i) {
    const spv::Op op = m.opcode(i);
    if (op != spv::Op::TypeCooperativeMatrixKHR && op != spv::Op::TypeCooperativeMatrixNV &&
        op != spv::Op::TypeCooperativeVectorNV) {
      continue;
    }
    const ir::InstIndex c = m.Def(m.word(i, 2));
    if (c != ir::kNoInst && m.opcode(c) == spv::Op::TypeFloat && m.num_words(c) > 3) return true;
  }
  return false;
}

bool DeclaresExtension(const ir::Module& m, std::string_view name) {
  for (ir::InstIndex i = 0; i < m.global_end(); ++i) {
    if (m.opcode(i) == spv::Op::Extension &&
        binary::DecodeString(m.inst(i).words.subspan(1)) == name) {
      return true;
    }
  }
  return false;
}

class LegalizeForDevicePass : public Pass {
 public:
  explicit LegalizeForDevicePass(const LegalizeTarget& target) : target_(target) {}
  const char* name() const override { return "legalize-for-device"; }
  std::vector<PassTiming> TakeSubPassTimings() override { return std::move(timings_); }

  PassResult Run(ir::Module& module) override {
    timings_.clear();
    std::unique_ptr<ir::Module> current;
    auto now = [&]() -> const ir::Module& { return current ? *current : module; };
    std::string error;
    auto step = [&](std::unique_ptr<Pass> pass) {
      // Module::Read copies, so the caller's module stays untouched until the driver succeeds.
      if (!current) {
        Diagnostic d;
        current = ir::Module::Read(module.words(), &d);
        if (!current) {
          error = "could not copy the module: " + d.ToString();
          return false;
        }
      }
      PassManager manager;
      manager.Add(std::move(pass));
      return manager.Run(&current, PassManagerOptions{}, &timings_, &error);
    };

    // Debug info the device cannot take goes first: by definition it changes nothing computed.
    if ((!target_.has_non_semantic && DeclaresExtension(now(), "SPV_KHR_non_semantic_info")) ||
        (!target_.has_relaxed_extended_instruction &&
         DeclaresExtension(now(), "SPV_KHR_relaxed_extended_instruction"))) {
      if (!step(CreateStripNonSemanticPass("", &error))) return PassResult::Failed(error);
    }
    if (!target_.has_decode_vector &&
        Declares(now(), Capability::CooperativeMatrixDecodeVectorNV)) {
      if (!step(CreateStripDecodeVectorPass("", &error))) return PassResult::Failed(error);
    }
    if (!target_.has_matrix2 && UsesMatrix2(now())) {
      // Onto Subgroup-scope KHR matrices; the KHR step below lowers those further where the
      // device lacks them too.
      if (target_.subgroup_size == 0) {
        return PassResult::Failed(
            "the device lacks VK_NV_cooperative_matrix2, and --lower-coop-matrix2 needs the "
            "device's subgroup size, which the target does not give");
      }
      // On a device with KHR matrices, only shapes it lists (the lowering tiles its output).
      // The output must fit the device's shared memory (the lowering fails naming why not).
      std::unique_ptr<Pass> pass =
          target_.profile
              ? CreateLowerCoopMatrix2DevicePass(
                    target_.subgroup_size,
                    target_.has_khr_coop_matrix ? std::optional(TileShapesOf(*target_.profile))
                                                : std::nullopt,
                    target_.profile->properties.maxComputeSharedMemorySize)
              : CreateLowerCoopMatrix2Pass(std::to_string(target_.subgroup_size), &error);
      if (!pass) return PassResult::Failed("--lower-coop-matrix2: " + error);
      if (!step(std::move(pass))) return PassResult::Failed(error);
    }
    if (!target_.has_nv_coop_matrix && target_.has_khr_coop_matrix &&
        Declares(now(), Capability::CooperativeMatrixNV)) {
      const uint32_t smallest =
          target_.min_subgroup_size ? target_.min_subgroup_size : target_.subgroup_size;
      auto pass = CreateCoopMatrixNvToKhrPass(smallest ? std::to_string(smallest) : "", &error);
      if (!pass) return PassResult::Failed("--coop-matrix-nv-to-khr: " + error);
      if (!step(std::move(pass))) return PassResult::Failed(error);
    }
    // KHR matrices of shapes the device does not list become grids of listed tiles.
    if (target_.has_khr_coop_matrix && target_.profile &&
        Declares(now(), Capability::CooperativeMatrixKHR)) {
      if (!step(CreateTileCoopMatrixPass(TileShapesOf(*target_.profile)))) {
        return PassResult::Failed(error);
      }
      // What no listed shape takes even as tiles becomes plain code (with the matrices it
      // meets): the device would refuse it.
      if (target_.subgroup_size &&
          !step(CreateLowerUnlistedCoopMatrixPass(target_.subgroup_size,
                                                  TileShapesOf(*target_.profile)))) {
        return PassResult::Failed(error);
      }
    }
    const bool lower_matrix =
        (!target_.has_nv_coop_matrix && Declares(now(), Capability::CooperativeMatrixNV)) ||
        (!target_.has_khr_coop_matrix && Declares(now(), Capability::CooperativeMatrixKHR));
    if (lower_matrix) {
      if (target_.subgroup_size == 0) {
        return PassResult::Failed(
            "the device lacks the module's cooperative matrix extension, and lowering the "
            "matrices needs the device's subgroup size, which the target does not give");
      }
      auto pass = CreateLowerCoopMatrixPass(std::to_string(target_.subgroup_size), &error);
      if (!pass) return PassResult::Failed("--lower-coop-matrix: " + error);
      if (!step(std::move(pass))) return PassResult::Failed(error);
    }
    // SPV_EXT_long_vector: without longVector, long vectors become arrays (or 2-4 component
    // vectors) in the same pass.
    const bool lower_long = !target_.has_long_vector && Declares(now(), Capability::LongVectorEXT);
    if ((!target_.has_coop_vector && (Declares(now(), Capability::CooperativeVectorNV) ||
                                      Declares(now(), Capability::CooperativeVectorTrainingNV))) ||
        lower_long) {
      auto pass = CreateLowerCoopVectorPass(lower_long ? "lower-long-vectors" : "", &error);
      if (!pass) return PassResult::Failed("--lower-coop-vector: " + error);
      if (!step(std::move(pass))) return PassResult::Failed(error);
    }
    // After the lowerings, which leave the matrices' and vectors' components as scalars. Where
    // the device keeps such matrices, the device check below names the missing feature.
    if (((!target_.has_bfloat16 && Declares(now(), Capability::BFloat16TypeKHR)) ||
         (!target_.has_float8 && Declares(now(), Capability::Float8EXT))) &&
        !KeepsSmallFloatMatrices(now())) {
      if (!step(CreateLowerSmallFloatsPass("", &error))) return PassResult::Failed(error);
    }
    if (target_.profile) {
      // What the sub-passes cannot change (a shape or type combination the device does not
      // list, a feature it lacks) is still refused: say so rather than hand out a module the
      // device's driver may reject or miscompile.
      val::Options options;
      options.env = *ParseTargetEnv("vulkan1.3");
      options.max_errors = 0;
      options.device_profile = target_.profile;
      const val::Result result = val::Validate(now(), options);
      std::vector<const val::Diagnostic*> refused;
      for (const val::Diagnostic& d : result.diagnostics) {
        if (d.severity == val::Severity::kError && d.rule != nullptr &&
            std::string_view(d.rule->id).starts_with("device.")) {
          refused.push_back(&d);
        }
      }
      if (!refused.empty()) {
        const val::Diagnostic& d = *refused.front();
        std::string message =
            "the device still cannot take the module: " + std::string(d.rule->id) + ": ";
        message += d.message;
        if (d.has_instruction) (message += " (") += d.instruction_text + ")";
        if (refused.size() > 1) {
          message += "; " + std::to_string(refused.size() - 1) + " more device rule error(s)";
        }
        return PassResult::Failed(message);
      }
    }
    const bool changed = std::any_of(timings_.begin(), timings_.end(), [](const PassTiming& t) {
      return t.status == PassStatus::kChanged;
    });
    if (!changed) return PassResult::Unchanged();
    return PassResult::Rebuilt(std::move(current));
  }

 private:
  LegalizeTarget target_;
  std::vector<PassTiming> timings_;
};

}  // namespace

bool LegalizeTargetFromProfile(std::string_view profile, LegalizeTarget* target,
                               std::string* error) {
  // A built-in name, the JSON text itself (a layer hands over the live device's), else a file.
  std::string text(profile);
  const size_t first = profile.find_first_not_of(" \t\r\n");
  const bool json = first != std::string_view::npos && profile[first] == '{';
  if (!json && !profile::BuiltIn(profile)) {
    std::ifstream in{std::string(profile), std::ios::binary};
    if (!in) {
      std::string names;
      for (const std::string& n : profile::BuiltInNames()) names += (names.empty() ? "" : ", ") + n;
      *error = "cannot read the device profile '" + std::string(profile) +
               "': no such file, and not a built-in profile (" + names + ")";
      return false;
    }
    std::stringstream s;
    s << in.rdbuf();
    text = s.str();
  }
  std::string why;
  const std::optional<profile::DeviceProfile> p = profile::FromNameOrText(text, &why);
  if (!p) {
    *error = "cannot read the device profile '" +
             (json ? std::string("(JSON text)") : std::string(profile)) + "': " + why;
    return false;
  }
  target->has_khr_coop_matrix =
      p->HasExtension("VK_KHR_cooperative_matrix") && p->features.cooperativeMatrix;
  target->has_nv_coop_matrix = p->HasExtension("VK_NV_cooperative_matrix");
  target->has_decode_vector = p->HasExtension("VK_NV_cooperative_matrix_decode_vector");
  target->has_coop_vector =
      p->HasExtension("VK_NV_cooperative_vector") && p->features.cooperativeVector;
  target->has_matrix2 = p->HasExtension("VK_NV_cooperative_matrix2");
  target->has_long_vector = p->HasExtension("VK_EXT_shader_long_vector") && p->features.longVector;
  target->has_non_semantic =
      p->HasExtension("VK_KHR_shader_non_semantic_info") || p->ApiMinor() >= 3;
  target->has_relaxed_extended_instruction =
      p->HasExtension("VK_KHR_shader_relaxed_extended_instruction");
  target->has_bfloat16 = p->features.shaderBFloat16Type;
  target->has_float8 = p->features.shaderFloat8;
  target->subgroup_size = p->properties.subgroupSize;
  target->min_subgroup_size = p->properties.minSubgroupSize;
  target->profile = std::make_shared<const profile::DeviceProfile>(*p);
  return true;
}

std::unique_ptr<Pass> CreateLegalizeForDevicePass(const LegalizeTarget& target) {
  return std::make_unique<LegalizeForDevicePass>(target);
}

std::unique_ptr<Pass> CreateLegalizeForDeviceFromProfile(std::string_view argument,
                                                         std::string* error) {
  LegalizeTarget target;
  if (!LegalizeTargetFromProfile(argument, &target, error)) return nullptr;
  return CreateLegalizeForDevicePass(target);
}

}  // namespace coopspv::opt
