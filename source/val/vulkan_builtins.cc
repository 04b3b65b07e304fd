// Rules of the Vulkan environment on the built-ins a compute module declares (Vulkan 15.9
// Built-In Variables, VUID-<BuiltIn>-<BuiltIn>-*): their type, their storage class, the
// execution models that may use them, and which of them may be structure members. Built-ins of
// the graphics stages are not checked here.
#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

using spv::BuiltIn;

// The type Vulkan gives a built-in: 32-bit integers, as a scalar or a vector of 3 or 4.
enum class Shape : uint8_t { kScalar = 1, kVec3 = 3, kVec4 = 4 };

struct BuiltInRule {
  BuiltIn built_in;
  Shape shape;
  bool compute_only;  // Only in GLCompute, MeshEXT, TaskEXT, MeshNV and TaskNV.
  bool member;        // Allowed as a structure member.
  // The numbers of VUID-<BuiltIn>-<BuiltIn>-<n>: execution model, storage class, type (0: none).
  uint16_t model_vuid, storage_vuid, type_vuid;
};

// Vulkan 15.9 Built-In Variables. WorkgroupSize's storage-class entry is its "must be a
// specialization constant or a constant" (04426), which decoration.target checks.
constexpr BuiltInRule kBuiltInRules[] = {
    {BuiltIn::GlobalInvocationId, Shape::kVec3, true, true, 4236, 4237, 4238},
    {BuiltIn::LocalInvocationId, Shape::kVec3, true, true, 4281, 4282, 4283},
    {BuiltIn::NumWorkgroups, Shape::kVec3, true, true, 4296, 4297, 4298},
    {BuiltIn::WorkgroupId, Shape::kVec3, true, true, 4422, 4423, 4424},
    {BuiltIn::WorkgroupSize, Shape::kVec3, true, true, 4425, 0, 4427},
    {BuiltIn::LocalInvocationIndex, Shape::kScalar, true, true, 4284, 4285, 4286},
    {BuiltIn::NumSubgroups, Shape::kScalar, true, false, 4293, 4294, 4295},
    {BuiltIn::SubgroupId, Shape::kScalar, true, false, 4367, 4368, 4369},
    {BuiltIn::SubgroupLocalInvocationId, Shape::kScalar, false, false, 0, 4380, 4381},
    {BuiltIn::SubgroupSize, Shape::kScalar, false, false, 0, 4382, 4383},
    {BuiltIn::SubgroupEqMask, Shape::kVec4, false, false, 0, 4370, 4371},
    {BuiltIn::SubgroupGeMask, Shape::kVec4, false, false, 0, 4372, 4373},
    {BuiltIn::SubgroupGtMask, Shape::kVec4, false, false, 0, 4374, 4375},
    {BuiltIn::SubgroupLeMask, Shape::kVec4, false, false, 0, 4376, 4377},
    {BuiltIn::SubgroupLtMask, Shape::kVec4, false, false, 0, 4378, 4379},
    {BuiltIn::SMCountNV, Shape::kScalar, false, true, 0, 4363, 4364},
    {BuiltIn::SMIDNV, Shape::kScalar, false, true, 0, 4365, 4366},
    {BuiltIn::WarpsPerSMNV, Shape::kScalar, false, true, 0, 4418, 4419},
    {BuiltIn::WarpIDNV, Shape::kScalar, false, true, 0, 4420, 4421},
    {BuiltIn::CoreCountARM, Shape::kScalar, false, true, 0, 7595, 7596},
    {BuiltIn::CoreMaxIDARM, Shape::kScalar, false, true, 0, 7597, 7598},
    {BuiltIn::CoreIDARM, Shape::kScalar, false, true, 0, 7599, 7600},
    {BuiltIn::WarpMaxIDARM, Shape::kScalar, false, true, 0, 7601, 7602},
    {BuiltIn::WarpIDARM, Shape::kScalar, false, true, 0, 7603, 7604},
    {BuiltIn::DeviceIndex, Shape::kScalar, false, true, 0, 4205, 4206},
};

// Vulkan 15.9: the execution models the other built-ins are used in ("used only within the
// Fragment Execution Model", ...), with the number of that VUID-<BuiltIn>-<BuiltIn>-*.
struct ModelRule {
  BuiltIn built_in;
  uint32_t models;
  uint16_t vuid;
};
constexpr uint32_t kRayHit = kIntersection | kAnyHit | kClosestHit;
constexpr uint32_t kRayTracing = kRayGeneration | kRayHit | kMiss | kCallable;
constexpr uint32_t kPreRaster = kVertex | kTessellation | kGeometry | kMesh;
constexpr ModelRule kModelRules[] = {
    {BuiltIn::Position, kPreRaster, 4318},
    {BuiltIn::PointSize, kPreRaster, 4314},
    {BuiltIn::ClipDistance, kPreRaster | kFragment, 4187},
    {BuiltIn::CullDistance, kPreRaster | kFragment, 4196},
    {BuiltIn::FragCoord, kFragment, 4210},
    {BuiltIn::FragDepth, kFragment, 4213},
    {BuiltIn::FrontFacing, kFragment, 4229},
    {BuiltIn::HelperInvocation, kFragment, 4239},
    {BuiltIn::SampleId, kFragment, 4354},
    {BuiltIn::SampleMask, kFragment, 4357},
    {BuiltIn::SamplePosition, kFragment, 4360},
    {BuiltIn::PointCoord, kFragment, 4311},
    {BuiltIn::FragStencilRefEXT, kFragment, 4223},
    {BuiltIn::BaryCoordKHR, kFragment, 4154},
    {BuiltIn::BaryCoordNoPerspKHR, kFragment, 4160},
    {BuiltIn::InvocationId, kTessellationControl | kGeometry, 4257},
    {BuiltIn::InstanceIndex, kVertex, 4263},
    {BuiltIn::VertexIndex, kVertex, 4398},
    {BuiltIn::BaseInstance, kVertex, 4181},
    {BuiltIn::BaseVertex, kVertex, 4184},
    {BuiltIn::DrawIndex, kVertex | kTaskNV | kMeshNV | kTaskEXT | kMeshEXT, 4207},
    {BuiltIn::Layer, kVertex | kTessellationEvaluation | kGeometry | kFragment | kMesh, 4272},
    {BuiltIn::ViewportIndex, kVertex | kTessellationEvaluation | kGeometry | kFragment | kMesh,
     4404},
    {BuiltIn::PatchVertices, kTessellation, 4308},
    {BuiltIn::TessCoord, kTessellationEvaluation, 4387},
    {BuiltIn::TessLevelOuter, kTessellation, 4390},
    {BuiltIn::TessLevelInner, kTessellation, 4394},
    {BuiltIn::PrimitiveId, kTessellation | kGeometry | kFragment | kMesh | kRayHit, 4330},
    {BuiltIn::ViewIndex, kAllModels & ~kGLCompute, 4401},
    {BuiltIn::HitKindKHR, kAnyHit | kClosestHit, 4242},
    {BuiltIn::HitTNV, kAnyHit | kClosestHit, 4245},
    {BuiltIn::InstanceCustomIndexKHR, kRayHit, 4251},
    {BuiltIn::InstanceId, kRayHit, 4254},
    {BuiltIn::RayGeometryIndexKHR, kRayHit, 4345},
    {BuiltIn::ObjectRayDirectionKHR, kRayHit, 4299},
    {BuiltIn::ObjectRayOriginKHR, kRayHit, 4302},
    {BuiltIn::ObjectToWorldKHR, kRayHit, 4305},
    {BuiltIn::WorldToObjectKHR, kRayHit, 4434},
    {BuiltIn::IncomingRayFlagsKHR, kRayHit | kMiss, 4248},
    {BuiltIn::CullMaskKHR, kRayHit | kMiss, 6735},
    {BuiltIn::RayTmaxKHR, kRayHit | kMiss, 4348},
    {BuiltIn::RayTminKHR, kRayHit | kMiss, 4351},
    {BuiltIn::WorldRayDirectionKHR, kRayHit | kMiss, 4428},
    {BuiltIn::WorldRayOriginKHR, kRayHit | kMiss, 4431},
    {BuiltIn::LaunchIdKHR, kRayTracing, 4266},
    {BuiltIn::LaunchSizeKHR, kRayTracing, 4269},
};

const ModelRule* ModelRuleOf(uint32_t built_in) {
  for (const ModelRule& r : kModelRules) {
    if (static_cast<uint32_t>(r.built_in) == built_in) return &r;
  }
  return nullptr;
}

const BuiltInRule* RuleOf(uint32_t built_in) {
  for (const BuiltInRule& r : kBuiltInRules) {
    if (static_cast<uint32_t>(r.built_in) == built_in) return &r;
  }
  return nullptr;
}

ws::string BuiltInName(BuiltIn b) {
  return EnumerantName(grammar::OperandKind::kBuiltIn, static_cast<uint32_t>(b));
}

ws::string Vuid(BuiltIn b, uint16_t n) {
  const ws::string name = BuiltInName(b);
  ws::string number = ws::to_string(n);
  while (number.size() < 5) number = "0" + number;
  return "VUID-" + name + "-" + name + "-" + number;
}

// A BuiltIn decoration of a variable or constant (member ~0u) or of a structure member.
struct Decorated {
  const BuiltInRule* rule;
  InstIndex decoration;
  Id target;
  uint32_t member;
};

void CheckType(ValidationState& state, const Decorated& d) {
  Id type = 0;
  if (d.member != ~0u) {
    type = state.DefWord(d.target, 2 + d.member);
  } else if (state.DefOp(d.target) == Op::Variable) {
    type = state.PointeeType(state.TypeOf(d.target));
  } else if (state.IsConstantInstruction(d.target)) {
    type = state.TypeOf(d.target);
  }
  if (type == 0) return;  // decoration.target, decoration.member.
  const auto components = static_cast<uint32_t>(d.rule->shape);
  Id scalar = type;
  uint32_t count = 1;
  if (state.DefOp(type) == Op::TypeVector) {
    scalar = state.DefWord(type, 2);
    count = state.DefWord(type, 3);
  }
  if (count == components && state.IsInt32(scalar)) return;
  const ws::string what = d.member == ~0u
                              ? state.Name(d.target)
                              : "member " + ws::to_string(d.member) + " of " + state.Name(d.target);
  state.Report("vulkan.builtin-type", d.decoration,
               state.Describe(d.decoration) + ": " + what + " has type " + state.Name(type) + "; " +
                   BuiltInName(d.rule->built_in) + " is " +
                   (components == 1   ? "a 32-bit integer scalar"
                    : components == 3 ? "a vector of three 32-bit integers"
                                      : "a vector of four 32-bit integers") +
                   " (" + Vuid(d.rule->built_in, d.rule->type_vuid) + ")");
}

[[gnu::cold]] void ReportStorageClass(ValidationState& state, const Decorated& d, InstIndex at,
                                      spv::StorageClass sc) {
  state.Report(
      "vulkan.builtin-storage-class", at,
      state.Describe(at) + ": " + StorageClassName(sc) + " storage for " +
          (d.member == ~0u ? state.Name(d.target)
                           : "member " + ws::to_string(d.member) + " of " + state.Name(d.target)) +
          ", decorated BuiltIn " + BuiltInName(d.rule->built_in) +
          "; it is declared in the Input storage class (" +
          Vuid(d.rule->built_in, d.rule->storage_vuid) + ")");
}

// VUID-<BuiltIn>-<BuiltIn>-*: "must be declared using the Input Storage Class". For a member,
// every pointer to its structure (or to an array of it) is an Input pointer.
void CheckStorageClass(ValidationState& state, const Decorated& d) {
  if (d.rule->storage_vuid == 0) return;
  const ir::Module& m = state.module();
  if (d.member == ~0u) {
    if (state.DefOp(d.target) != Op::Variable) return;
    const std::optional<spv::StorageClass> sc = state.PointerStorageClass(state.TypeOf(d.target));
    if (sc && *sc != spv::StorageClass::Input) ReportStorageClass(state, d, m.Def(d.target), *sc);
    return;
  }
  for (InstIndex i = 0; i < m.global_end() && !state.Full(); ++i) {
    if (m.opcode(i) != Op::TypePointer || m.num_words(i) < 4) continue;
    Id pointee = m.word(i, 3);
    while (state.DefOp(pointee) == Op::TypeArray || state.DefOp(pointee) == Op::TypeRuntimeArray) {
      pointee = state.DefWord(pointee, 2);
    }
    const auto sc = static_cast<spv::StorageClass>(m.word(i, 2));
    if (pointee == d.target && sc != spv::StorageClass::Input) ReportStorageClass(state, d, i, sc);
  }
}

}  // namespace

// A use is an instruction of an entry point's call tree that names the restricted object, or a
// module-scope id built from it (a pointer to its structure, a variable of that type, a
// constant made of it).
void CheckModelRestrictions(ValidationState& state, std::span<const ModelRestriction> uses) {
  const ir::Module& m = state.module();
  ws::vector<InstIndex> entries;
  uint32_t models = 0;  // Of the entry points.
  for (InstIndex e = 0; e < m.global_end(); ++e) {
    if (m.opcode(e) == Op::EntryPoint && m.num_words(e) >= 4) {
      entries.push_back(e);
      models |= ModelBit(m.word(e, 1));
    }
  }
  const ir::DefUse* def_use = nullptr;
  const auto functions = m.functions();
  for (const ModelRestriction& d : uses) {
    if (state.Full()) return;
    if ((models & ~d.models) == 0) continue;  // Every entry point may use it.
    if (def_use == nullptr) def_use = &m.def_use();
    // The first instruction of each function that uses the built-in.
    ws::vector<InstIndex> first_use(functions.size(), kNoInst);
    ws::vector<bool> seen(m.bound(), false);
    ws::vector<Id> work{d.object};
    seen[d.object] = true;
    while (!work.empty()) {
      const Id id = work.back();
      work.pop_back();
      for (const ir::Use& use : def_use->Uses(id)) {
        const InstIndex i = use.inst;
        const Op op = m.opcode(i);
        if (op == Op::Decorate || op == Op::MemberDecorate || op == Op::Name ||
            op == Op::MemberName || op == Op::EntryPoint || op == Op::DecorateId) {
          continue;
        }
        if (i < m.global_end()) {
          const Id result = m.result_id(i);
          if (result != 0 && result < seen.size() && !seen[result]) {
            seen[result] = true;
            work.push_back(result);
          }
          continue;
        }
        const uint32_t f = m.FunctionOf(i);
        if (f < functions.size() && (first_use[f] == kNoInst || i < first_use[f])) {
          first_use[f] = i;
        }
      }
    }
    for (const InstIndex e : entries) {
      if (d.models & ModelBit(m.word(e, 1))) continue;
      const uint32_t root = m.FunctionById(m.word(e, 2));
      if (root >= functions.size()) continue;  // entry-point.function.
      ws::vector<bool> visited(functions.size(), false);
      ws::vector<uint32_t> stack{root};
      visited[root] = true;
      InstIndex use = kNoInst;
      while (!stack.empty() && use == kNoInst) {
        const uint32_t f = stack.back();
        stack.pop_back();
        use = first_use[f];
        const InstIndex end = functions[f].end == kNoInst ? m.num_instructions() : functions[f].end;
        for (InstIndex i = functions[f].def; i < end && use == kNoInst; ++i) {
          if (m.opcode(i) != Op::FunctionCall || m.num_words(i) < 4) continue;
          const uint32_t callee = m.FunctionById(m.word(i, 3));
          if (callee < functions.size() && !visited[callee]) {
            visited[callee] = true;
            stack.push_back(callee);
          }
        }
      }
      if (use == kNoInst) continue;
      const bool built_in = d.storage_class == ~0u;
      const auto sc = static_cast<spv::StorageClass>(d.storage_class);
      const ws::string what =
          built_in ? BuiltInName(static_cast<BuiltIn>(d.built_in))
                   : state.Name(d.object) + ", of " + StorageClassName(sc) + " storage,";
      state.Report(built_in ? "vulkan.builtin-execution-model" : "vulkan.storage-class-model", use,
                   state.Describe(use) + ": uses " + what + " in the call tree of a " +
                       EnumerantName(grammar::OperandKind::kExecutionModel, m.word(e, 1)) +
                       " entry point; " + (built_in ? ws::string("it") : StorageClassName(sc)) +
                       " is used only with " + ModelSetText(d.models) + " (" +
                       (built_in ? Vuid(static_cast<BuiltIn>(d.built_in), d.vuid_number)
                                 : ws::string(d.vuid)) +
                       ")");
    }
  }
}

void CheckVulkanBuiltIns(ValidationState& state, std::span<const InstIndex> decorations) {
  const ir::Module& m = state.module();
  ws::vector<Decorated> decorated;
  ws::vector<ModelRestriction> model_uses;
  for (const InstIndex i : decorations) {
    const bool member_decoration = m.opcode(i) == Op::MemberDecorate;
    const Id target = m.word(i, 1);
    const uint32_t member = member_decoration ? m.word(i, 2) : ~0u;
    const uint32_t built_in = m.word(i, member_decoration ? 4 : 3);
    if (member_decoration &&
        (state.DefOp(target) != Op::TypeStruct || 2 + member >= m.num_words(m.Def(target)))) {
      continue;  // decoration.member.
    }
    if (const BuiltInRule* r = RuleOf(built_in)) {
      decorated.push_back({r, i, target, member});
      if (r->compute_only) {
        model_uses.push_back({target, kWorkgroupModels, built_in, ~0u, r->model_vuid, nullptr});
      }
    } else if (const ModelRule* r = ModelRuleOf(built_in)) {
      model_uses.push_back({target, r->models, built_in, ~0u, r->vuid, nullptr});
    }
  }
  for (const Decorated& d : decorated) {
    if (state.Full()) return;
    if (d.member != ~0u && !d.rule->member) {
      state.Report("vulkan.builtin-member", d.decoration,
                   state.Describe(d.decoration) + ": " + BuiltInName(d.rule->built_in) +
                       " decorates member " + ws::to_string(d.member) + " of " +
                       state.Name(d.target) + "; Vulkan declares it as a variable");
      continue;
    }
    CheckType(state, d);
    CheckStorageClass(state, d);
  }
  if (!model_uses.empty()) CheckModelRestrictions(state, model_uses);
}

}  // namespace coopspv::val
