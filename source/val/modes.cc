// Rules on execution modes (SPIR-V 3.6 Execution Mode, OpExecutionMode / OpExecutionModeId): the
// execution models each mode applies to, id operands only in OpExecutionModeId, modes declared
// once per entry point, the workgroup size (LocalSize, LocalSizeId, WorkgroupSize) and the modes
// that constrain it, FPFastMathDefault's operands, and the Vulkan environment's rules on them.
// That the Entry Point operand names an entry point is execution-mode.target (layout.cc).
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/ir/workgroup_size.h"
#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {

uint32_t ModelBit(uint32_t model) {
  using M = spv::ExecutionModel;
  switch (static_cast<M>(model)) {
    case M::Vertex:
      return kVertex;
    case M::TessellationControl:
      return kTessellationControl;
    case M::TessellationEvaluation:
      return kTessellationEvaluation;
    case M::Geometry:
      return kGeometry;
    case M::Fragment:
      return kFragment;
    case M::GLCompute:
      return kGLCompute;
    case M::Kernel:
      return kKernel;
    case M::TaskNV:
      return kTaskNV;
    case M::MeshNV:
      return kMeshNV;
    case M::RayGenerationKHR:
      return kRayGeneration;
    case M::IntersectionKHR:
      return kIntersection;
    case M::AnyHitKHR:
      return kAnyHit;
    case M::ClosestHitKHR:
      return kClosestHit;
    case M::MissKHR:
      return kMiss;
    case M::CallableKHR:
      return kCallable;
    case M::TaskEXT:
      return kTaskEXT;
    case M::MeshEXT:
      return kMeshEXT;
    default:
      return 0;
  }
}

ws::string ModelSetText(uint32_t set) {
  static constexpr spv::ExecutionModel kModels[] = {
      spv::ExecutionModel::Vertex,
      spv::ExecutionModel::TessellationControl,
      spv::ExecutionModel::TessellationEvaluation,
      spv::ExecutionModel::Geometry,
      spv::ExecutionModel::Fragment,
      spv::ExecutionModel::GLCompute,
      spv::ExecutionModel::Kernel,
      spv::ExecutionModel::TaskNV,
      spv::ExecutionModel::MeshNV,
      spv::ExecutionModel::RayGenerationKHR,
      spv::ExecutionModel::IntersectionKHR,
      spv::ExecutionModel::AnyHitKHR,
      spv::ExecutionModel::ClosestHitKHR,
      spv::ExecutionModel::MissKHR,
      spv::ExecutionModel::CallableKHR,
      spv::ExecutionModel::TaskEXT,
      spv::ExecutionModel::MeshEXT,
  };
  ws::vector<ws::string> names;
  for (const spv::ExecutionModel model : kModels) {
    if (set & ModelBit(static_cast<uint32_t>(model))) {
      names.push_back(
          EnumerantName(grammar::OperandKind::kExecutionModel, static_cast<uint32_t>(model)));
    }
  }
  ws::string text;
  for (size_t k = 0; k < names.size(); ++k) {
    if (k > 0) text += k + 1 == names.size() ? " or " : ", ";
    text += names[k];
  }
  return text;
}

namespace {

using Mode = spv::ExecutionMode;

constexpr uint32_t U(auto e) { return static_cast<uint32_t>(e); }

// The execution models a mode is valid with, as SPIR-V 3.6 Execution Mode and the extensions
// that add modes state it ("Only valid with the Geometry Execution Model", ...). Modes not
// listed are not restricted here.
struct ModeModels {
  Mode mode;
  uint32_t models;
};
constexpr ModeModels kModeModels[] = {
    {Mode::Invocations, kGeometry},
    {Mode::InputPoints, kGeometry},
    {Mode::InputLines, kGeometry},
    {Mode::InputLinesAdjacency, kGeometry},
    {Mode::InputTrianglesAdjacency, kGeometry},
    {Mode::OutputLineStrip, kGeometry},
    {Mode::OutputTriangleStrip, kGeometry},
    {Mode::OutputPoints, kGeometry | kMesh},
    {Mode::SpacingEqual, kTessellation},
    {Mode::SpacingFractionalEven, kTessellation},
    {Mode::SpacingFractionalOdd, kTessellation},
    {Mode::VertexOrderCw, kTessellation},
    {Mode::VertexOrderCcw, kTessellation},
    {Mode::PointMode, kTessellation},
    {Mode::Quads, kTessellation},
    {Mode::Isolines, kTessellation},
    {Mode::Triangles, kGeometry | kTessellation},
    {Mode::OutputVertices, kGeometry | kTessellation | kMesh},
    {Mode::OutputLinesEXT, kMesh},
    {Mode::OutputTrianglesEXT, kMesh},
    {Mode::OutputPrimitivesEXT, kMesh},
    {Mode::PixelCenterInteger, kFragment},
    {Mode::OriginUpperLeft, kFragment},
    {Mode::OriginLowerLeft, kFragment},
    {Mode::EarlyFragmentTests, kFragment},
    {Mode::DepthReplacing, kFragment},
    {Mode::DepthGreater, kFragment},
    {Mode::DepthLess, kFragment},
    {Mode::DepthUnchanged, kFragment},
    {Mode::StencilRefReplacingEXT, kFragment},
    {Mode::NonCoherentColorAttachmentReadEXT, kFragment},
    {Mode::NonCoherentDepthAttachmentReadEXT, kFragment},
    {Mode::NonCoherentStencilAttachmentReadEXT, kFragment},
    {Mode::NonCoherentTileAttachmentReadQCOM, kFragment},
    {Mode::PixelInterlockOrderedEXT, kFragment},
    {Mode::PixelInterlockUnorderedEXT, kFragment},
    {Mode::SampleInterlockOrderedEXT, kFragment},
    {Mode::SampleInterlockUnorderedEXT, kFragment},
    {Mode::ShadingRateInterlockOrderedEXT, kFragment},
    {Mode::ShadingRateInterlockUnorderedEXT, kFragment},
    {Mode::PostDepthCoverage, kFragment},
    {Mode::EarlyAndLateFragmentTestsAMD, kFragment},
    {Mode::StencilRefUnchangedFrontAMD, kFragment},
    {Mode::StencilRefGreaterFrontAMD, kFragment},
    {Mode::StencilRefLessFrontAMD, kFragment},
    {Mode::StencilRefUnchangedBackAMD, kFragment},
    {Mode::StencilRefGreaterBackAMD, kFragment},
    {Mode::StencilRefLessBackAMD, kFragment},
    {Mode::RequireFullQuadsKHR, kFragment},
    {Mode::QuadDerivativesKHR, kFragment | kGLCompute},
    {Mode::LocalSizeHint, kKernel},
    {Mode::LocalSizeHintId, kKernel},
    {Mode::VecTypeHint, kKernel},
    {Mode::ContractionOff, kKernel},
    {Mode::LocalSize, kKernel | kWorkgroupModels},
    {Mode::LocalSizeId, kKernel | kWorkgroupModels},
    // SPV_KHR_compute_shader_derivatives: "any Execution Model that has defined workgroups".
    {Mode::DerivativeGroupQuadsKHR, kKernel | kWorkgroupModels},
    {Mode::DerivativeGroupLinearKHR, kKernel | kWorkgroupModels},
    {Mode::TileShadingRateQCOM, kGLCompute},
};

uint32_t ModelsOf(uint32_t mode) {
  for (const ModeModels& m : kModeModels) {
    if (U(m.mode) == mode) return m.models;
  }
  return kAllModels;
}

// The float-controls modes, which may be declared once per Target Width.
bool PerOperandMode(uint32_t mode) {
  switch (static_cast<Mode>(mode)) {
    case Mode::DenormPreserve:
    case Mode::DenormFlushToZero:
    case Mode::SignedZeroInfNanPreserve:
    case Mode::RoundingModeRTE:
    case Mode::RoundingModeRTZ:
    case Mode::FPFastMathDefault:
    case Mode::RoundingModeRTPINTEL:
    case Mode::RoundingModeRTNINTEL:
    case Mode::FloatingPointModeALTINTEL:
    case Mode::FloatingPointModeIEEEINTEL:
      return true;
    default:
      return false;
  }
}

// Modes of which a shader entry point of `models` declares at least `min` and at most one.
struct ModeGroup {
  uint32_t models;
  uint8_t min;
  std::array<Mode, 6> modes;  // Padded with kEnd.
};
constexpr Mode kEnd = static_cast<Mode>(0x7FFFFFFF);
constexpr ModeGroup kModeGroups[] = {
    {kGeometry,
     1,
     {Mode::InputPoints, Mode::InputLines, Mode::InputLinesAdjacency, Mode::Triangles,
      Mode::InputTrianglesAdjacency, kEnd}},
    {kGeometry,
     1,
     {Mode::OutputPoints, Mode::OutputLineStrip, Mode::OutputTriangleStrip, kEnd, kEnd, kEnd}},
    {kMeshEXT,
     1,
     {Mode::OutputPoints, Mode::OutputLinesEXT, Mode::OutputTrianglesEXT, kEnd, kEnd, kEnd}},
    {kMeshEXT, 1, {Mode::OutputPrimitivesEXT, kEnd, kEnd, kEnd, kEnd, kEnd}},
    {kMeshEXT, 1, {Mode::OutputVertices, kEnd, kEnd, kEnd, kEnd, kEnd}},
    {kFragment, 1, {Mode::OriginUpperLeft, Mode::OriginLowerLeft, kEnd, kEnd, kEnd, kEnd}},
    {kFragment, 0, {Mode::DepthGreater, Mode::DepthLess, Mode::DepthUnchanged, kEnd, kEnd, kEnd}},
    {kFragment,
     0,
     {Mode::PixelInterlockOrderedEXT, Mode::PixelInterlockUnorderedEXT,
      Mode::SampleInterlockOrderedEXT, Mode::SampleInterlockUnorderedEXT,
      Mode::ShadingRateInterlockOrderedEXT, Mode::ShadingRateInterlockUnorderedEXT}},
    {kFragment,
     0,
     {Mode::StencilRefUnchangedFrontAMD, Mode::StencilRefGreaterFrontAMD,
      Mode::StencilRefLessFrontAMD, kEnd, kEnd, kEnd}},
    {kFragment,
     0,
     {Mode::StencilRefUnchangedBackAMD, Mode::StencilRefGreaterBackAMD, Mode::StencilRefLessBackAMD,
      kEnd, kEnd, kEnd}},
    {kTessellation,
     0,
     {Mode::SpacingEqual, Mode::SpacingFractionalEven, Mode::SpacingFractionalOdd, kEnd, kEnd,
      kEnd}},
    {kTessellation, 0, {Mode::VertexOrderCw, Mode::VertexOrderCcw, kEnd, kEnd, kEnd, kEnd}},
    {kTessellation, 0, {Mode::Triangles, Mode::Quads, Mode::Isolines, kEnd, kEnd, kEnd}},
};

struct EntryPoint {
  InstIndex inst;
  Id function;
  uint32_t model;
};

ws::string ModeName(uint32_t mode) {
  return EnumerantName(grammar::OperandKind::kExecutionMode, mode);
}

class ModeRules {
 public:
  explicit ModeRules(ValidationState& state) : state_(state), m_(state.module()) {}

  void Run() {
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      const Op op = m_.opcode(i);
      if (op == Op::EntryPoint && m_.num_words(i) >= 3) {
        entries_.push_back({i, m_.word(i, 2), m_.word(i, 1)});
      } else if ((op == Op::ExecutionMode || op == Op::ExecutionModeId) && m_.num_words(i) >= 3) {
        modes_.push_back(i);
      } else if (op == Op::Decorate && m_.num_words(i) >= 4 &&
                 m_.word(i, 2) == U(spv::Decoration::BuiltIn) &&
                 m_.word(i, 3) == U(spv::BuiltIn::WorkgroupSize)) {
        workgroup_size_ = i;
      } else if (ir::IsTypeDeclaration(op) || op == Op::Function) {
        break;  // Entry points, modes and annotations come before the types.
      }
    }
    for (size_t k = 0; k < modes_.size() && !state_.Full(); ++k) CheckMode(k);
    if (!fast_math_default_.empty()) CheckFastMathCallTrees();
    for (const EntryPoint& e : entries_) {
      if (state_.Full()) return;
      if (state_.HasCapability(spv::Capability::Shader)) CheckModeGroups(e);
      CheckWorkgroupSize(e);
    }
  }

 private:
  bool Has(Id function, Mode mode) const {
    for (const InstIndex i : modes_) {
      if (m_.word(i, 1) == function && m_.word(i, 2) == U(mode)) return true;
    }
    return false;
  }
  InstIndex Find(Id function, Mode mode) const {
    for (const InstIndex i : modes_) {
      if (m_.word(i, 1) == function && m_.word(i, 2) == U(mode)) return i;
    }
    return kNoInst;
  }

  void CheckMode(size_t k) {
    const InstIndex i = modes_[k];
    const Op op = m_.opcode(i);
    const Id function = m_.word(i, 1);
    const uint32_t mode = m_.word(i, 2);
    // SPIR-V OpExecutionMode / OpExecutionModeId: a mode with id operands is declared with
    // OpExecutionModeId, every other one with OpExecutionMode.
    const bool takes_ids = EnumerantTakesIds(grammar::OperandKind::kExecutionMode, mode);
    if (takes_ids != (op == Op::ExecutionModeId)) {
      state_.Report("execution-mode.instruction", i,
                    state_.Describe(i) + " " + ModeName(mode) + ": " +
                        (takes_ids ? "a mode with id operands is declared with OpExecutionModeId"
                                   : "OpExecutionModeId declares only modes with id operands; "
                                     "this one is declared with OpExecutionMode"));
      return;
    }
    // Declared once per entry point; the float-controls modes once per Target Width.
    for (size_t j = 0; j < k; ++j) {
      const InstIndex other = modes_[j];
      if (m_.word(other, 1) != function || m_.word(other, 2) != mode) continue;
      if (PerOperandMode(mode) &&
          (m_.num_words(i) < 4 || m_.num_words(other) < 4 || m_.word(i, 3) != m_.word(other, 3))) {
        continue;
      }
      state_.Report("execution-mode.once", i,
                    state_.Describe(i) + " " + ModeName(mode) + ": " + state_.Name(function) +
                        " already declares it" +
                        (PerOperandMode(mode) ? " for the same Target Width" : ""));
      return;
    }
    const uint32_t allowed = ModelsOf(mode);
    for (const EntryPoint& e : entries_) {
      if (e.function != function) continue;
      const uint32_t bit = ModelBit(e.model);
      if (bit == 0 || (allowed & bit)) continue;
      state_.Report("execution-mode.model", i,
                    state_.Describe(i) + " " + ModeName(mode) + ": the mode is valid with " +
                        ModelSetText(allowed) + " entry points; " + state_.Name(function) +
                        " is a " + EnumerantName(grammar::OperandKind::kExecutionModel, e.model) +
                        " entry point");
      return;
    }
    // VUID-StandaloneSpirv-OriginLowerLeft-04653, VUID-StandaloneSpirv-PixelCenterInteger-04654.
    if (state_.options().env.is_vulkan() &&
        (mode == U(Mode::OriginLowerLeft) || mode == U(Mode::PixelCenterInteger))) {
      state_.Report(
          "execution-mode.vulkan-fragment", i,
          state_.Describe(i) + " " + ModeName(mode) + ": not used in a Vulkan environment (" +
              (mode == U(Mode::OriginLowerLeft) ? "VUID-StandaloneSpirv-OriginLowerLeft-04653"
                                                : "VUID-StandaloneSpirv-PixelCenterInteger-04654") +
              ")");
      return;
    }
    if (mode == U(Mode::FPFastMathDefault)) {
      fast_math_default_.push_back(function);
      CheckFastMathDefault(i);
    }
    if (mode == U(Mode::TileShadingRateQCOM) && m_.num_words(i) >= 6) {
      // SPV_QCOM_tile_shading: "x rate and y rate are a power of 2".
      const uint32_t x = m_.word(i, 3), y = m_.word(i, 4);
      if ((x & (x - 1)) != 0 || (y & (y - 1)) != 0 || x == 0 || y == 0) {
        state_.Report("execution-mode.tile-shading-rate", i,
                      state_.Describe(i) + " TileShadingRateQCOM: x rate " + ws::to_string(x) +
                          " and y rate " + ws::to_string(y) + " must be powers of 2");
      }
    }
  }

  // SPV_KHR_float_controls2, FPFastMathDefault: Target Type is a floating-point scalar type;
  // Fast-Math Mode a constant 32-bit integer (not a spec constant) holding FP Fast Math Mode
  // bits, not Fast, with AllowContract and AllowReassoc wherever AllowTransform is set. It does
  // not share an entry point with ContractionOff or SignedZeroInfNanPreserve.
  void CheckFastMathDefault(InstIndex i) {
    if (m_.num_words(i) < 5) return;
    const Id type = m_.word(i, 3);
    if (!state_.IsFloatType(type)) {
      state_.Report("execution-mode.fp-fast-math-default", i,
                    state_.Describe(i) + " FPFastMathDefault: Target Type " + state_.Name(type) +
                        " is not a floating-point scalar type");
      return;
    }
    const Id mode_id = m_.word(i, 4);
    const std::optional<int64_t> bits =
        state_.DefOp(mode_id) == Op::Constant && state_.IsInt32(state_.TypeOf(mode_id))
            ? state_.IntConstant(mode_id)
            : std::nullopt;
    ws::string problem;
    if (!bits) {
      problem = "Fast-Math Mode " + state_.Name(mode_id) +
                " is not a 32-bit integer OpConstant (spec constants are not allowed)";
    } else {
      const auto v = static_cast<uint32_t>(*bits);
      constexpr uint32_t kContractReassoc =
          U(spv::FPFastMathMode::AllowContract) | U(spv::FPFastMathMode::AllowReassoc);
      if (v & ~grammar::GetOperandKind(grammar::OperandKind::kFPFastMathMode).valid_mask) {
        problem = "Fast-Math Mode has bits no FP Fast Math Mode defines";
      } else if (v & U(spv::FPFastMathMode::Fast)) {
        problem = "Fast-Math Mode includes Fast";
      } else if ((v & U(spv::FPFastMathMode::AllowTransform)) &&
                 (v & kContractReassoc) != kContractReassoc) {
        problem = "Fast-Math Mode has AllowTransform without AllowContract and AllowReassoc";
      }
    }
    const Id function = m_.word(i, 1);
    if (problem.empty() && Has(function, Mode::ContractionOff)) {
      problem = "the entry point also declares ContractionOff";
    } else if (problem.empty() && Has(function, Mode::SignedZeroInfNanPreserve)) {
      problem = "the entry point also declares SignedZeroInfNanPreserve";
    }
    if (!problem.empty()) {
      state_.Report("execution-mode.fp-fast-math-default", i,
                    state_.Describe(i) + " FPFastMathDefault: " + problem);
    }
  }

  void CheckModeGroups(const EntryPoint& e) {
    const uint32_t bit = ModelBit(e.model);
    for (const ModeGroup& g : kModeGroups) {
      if (!(g.models & bit)) continue;
      uint32_t count = 0;
      ws::string names;
      for (const Mode mode : g.modes) {
        if (mode == kEnd) break;
        names += (names.empty() ? "" : ", ") + ModeName(U(mode));
        count += Has(e.function, mode);
      }
      if (count >= g.min && count <= 1) continue;
      state_.Report("execution-mode.stage-modes", e.inst,
                    state_.Describe(e.inst) + " " + state_.Name(e.function) + ": a " +
                        EnumerantName(grammar::OperandKind::kExecutionModel, e.model) +
                        " entry point declares " + (g.min == 1 ? "exactly one" : "at most one") +
                        " of " + names + "; it declares " + ws::to_string(count));
      return;
    }
  }

  // SPV_KHR_float_controls2 (2.16.1): the call tree of an entry point with FPFastMathDefault
  // holds no instruction decorated NoContraction or FPFastMathMode with Fast.
  void CheckFastMathCallTrees() {
    const auto functions = m_.functions();
    ws::vector<bool> reached(functions.size(), false);
    ws::vector<uint32_t> work;
    for (const Id f : fast_math_default_) {
      const uint32_t k = m_.FunctionById(f);
      if (k < functions.size() && !reached[k]) reached[k] = true, work.push_back(k);
    }
    while (!work.empty()) {
      const uint32_t f = work.back();
      work.pop_back();
      const InstIndex end = functions[f].end == kNoInst ? m_.num_instructions() : functions[f].end;
      for (InstIndex i = functions[f].def; i < end; ++i) {
        if (m_.opcode(i) != Op::FunctionCall || m_.num_words(i) < 4) continue;
        const uint32_t callee = m_.FunctionById(m_.word(i, 3));
        if (callee < functions.size() && !reached[callee]) {
          reached[callee] = true;
          work.push_back(callee);
        }
      }
    }
    for (InstIndex i = 0; i < m_.global_end() && !state_.Full(); ++i) {
      if (m_.opcode(i) != Op::Decorate || m_.num_words(i) < 3) continue;
      const uint32_t d = m_.word(i, 2);
      const bool fast = d == U(spv::Decoration::FPFastMathMode) && m_.num_words(i) >= 4 &&
                        (m_.word(i, 3) & U(spv::FPFastMathMode::Fast));
      if (d != U(spv::Decoration::NoContraction) && !fast) continue;
      if (!InReachedFunction(m_.word(i, 1), reached)) continue;
      state_.Report("execution-mode.fp-fast-math-default", i,
                    state_.Describe(i) + ": " + state_.Name(m_.word(i, 1)) +
                        " is in the call tree of an entry point with FPFastMathDefault, which "
                        "allows neither NoContraction nor FPFastMathMode Fast");
    }
  }

  // Whether `id` is defined in a reached function or, defined outside functions (a spec
  // constant operation), used there directly or through other module-scope ids.
  bool InReachedFunction(Id id, const ws::vector<bool>& reached) {
    const InstIndex def = m_.Def(id);
    if (def == kNoInst) return false;
    if (def >= m_.global_end()) {
      const uint32_t f = m_.FunctionOf(def);
      return f < reached.size() && reached[f];
    }
    ws::vector<Id> work{id};
    ws::unordered_set<Id> seen{id};
    while (!work.empty()) {
      const Id next = work.back();
      work.pop_back();
      for (const ir::Use& use : m_.def_use().Uses(next)) {
        if (use.inst >= m_.global_end()) {
          const uint32_t f = m_.FunctionOf(use.inst);
          if (f < reached.size() && reached[f]) return true;
          continue;
        }
        const Op op = m_.opcode(use.inst);
        const Id result = m_.result_id(use.inst);
        if (result != 0 && op != Op::Decorate && op != Op::Name && seen.insert(result).second) {
          work.push_back(result);
        }
      }
    }
    return false;
  }

  void CheckWorkgroupSize(const EntryPoint& e) {
    const uint32_t bit = ModelBit(e.model);
    const InstIndex local_size = Find(e.function, Mode::LocalSize);
    const InstIndex local_size_id = Find(e.function, Mode::LocalSizeId);
    const InstIndex tile_rate = Find(e.function, Mode::TileShadingRateQCOM);
    if (state_.options().env.is_vulkan() && (bit & kWorkgroupModels)) {
      // VUID-StandaloneSpirv-None-10685: a compute-like entry point states its workgroup size.
      if (local_size == kNoInst && local_size_id == kNoInst && tile_rate == kNoInst &&
          workgroup_size_ == kNoInst) {
        state_.Report("execution-mode.vulkan-workgroup-size", e.inst,
                      state_.Describe(e.inst) + " " + state_.Name(e.function) + ": a " +
                          EnumerantName(grammar::OperandKind::kExecutionModel, e.model) +
                          " entry point declares LocalSize or LocalSizeId, or the module a "
                          "WorkgroupSize built-in (VUID-StandaloneSpirv-None-10685)");
        return;
      }
      // VUID-StandaloneSpirv-TileShadingRateQCOM-10692.
      if (tile_rate != kNoInst && (local_size != kNoInst || local_size_id != kNoInst)) {
        const InstIndex at = local_size != kNoInst ? local_size : local_size_id;
        state_.Report("execution-mode.vulkan-workgroup-size", at,
                      state_.Describe(at) + ": " + state_.Name(e.function) +
                          " declares TileShadingRateQCOM, which replaces LocalSize and "
                          "LocalSizeId (VUID-StandaloneSpirv-TileShadingRateQCOM-10692)");
        return;
      }
      // VUID-RuntimeSpirv-LocalSizeId-06434: LocalSizeId needs maintenance4, core in Vulkan
      // 1.3 (a device profile states the feature itself).
      if (local_size_id != kNoInst && state_.options().env.api_minor < 3 &&
          !state_.options().device_profile) {
        state_.Report("execution-mode.vulkan-workgroup-size", local_size_id,
                      state_.Describe(local_size_id) +
                          " LocalSizeId: needs the maintenance4 feature, which Vulkan " + "1." +
                          ws::to_string(state_.options().env.api_minor) +
                          " does not have (VUID-RuntimeSpirv-LocalSizeId-06434)");
        return;
      }
    }
    if (local_size == kNoInst && local_size_id == kNoInst && workgroup_size_ == kNoInst) return;
    // A WorkgroupSize spec constant is known only once specialized.
    if (workgroup_size_ != kNoInst &&
        state_.DefOp(m_.word(workgroup_size_, 1)) == Op::SpecConstantComposite) {
      return;
    }
    // LocalSize alone: its literals (ir::WorkgroupSize looks through the whole module).
    const std::optional<std::array<uint64_t, 3>> size =
        local_size != kNoInst && local_size_id == kNoInst && workgroup_size_ == kNoInst &&
                m_.num_words(local_size) == 6
            ? std::optional<std::array<uint64_t, 3>>(
                  {m_.word(local_size, 3), m_.word(local_size, 4), m_.word(local_size, 5)})
            : ir::WorkgroupSize(m_, e.function);
    if (!size) return;
    const InstIndex at = workgroup_size_ != kNoInst ? workgroup_size_
                         : local_size != kNoInst    ? local_size
                                                    : local_size_id;
    const ws::string dims = "(" + ws::to_string((*size)[0]) + ", " + ws::to_string((*size)[1]) +
                            ", " + ws::to_string((*size)[2]) + ")";
    const uint64_t product = (*size)[0] * (*size)[1] * (*size)[2];
    if (product == 0) {
      state_.Report("execution-mode.workgroup-size", at,
                    state_.Describe(at) + ": the workgroup size of " + state_.Name(e.function) +
                        " is " + dims + ", with no invocation");
      return;
    }
    // VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151, -DerivativeGroupLinearKHR-10152.
    if (Has(e.function, Mode::DerivativeGroupQuadsKHR) &&
        ((*size)[0] % 2 != 0 || (*size)[1] % 2 != 0)) {
      state_.Report("execution-mode.workgroup-size", at,
                    state_.Describe(at) + ": the workgroup size of " + state_.Name(e.function) +
                        " is " + dims +
                        "; with DerivativeGroupQuadsKHR its X and Y are multiples of 2 "
                        "(VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151)");
    } else if (Has(e.function, Mode::DerivativeGroupLinearKHR) && product % 4 != 0) {
      state_.Report("execution-mode.workgroup-size", at,
                    state_.Describe(at) + ": the workgroup size of " + state_.Name(e.function) +
                        " is " + dims +
                        "; with DerivativeGroupLinearKHR its invocation count is a multiple of 4 "
                        "(VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152)");
    }
  }

  ValidationState& state_;
  const ir::Module& m_;
  ws::vector<EntryPoint> entries_;
  ws::vector<InstIndex> modes_;
  InstIndex workgroup_size_ = kNoInst;
  ws::vector<Id> fast_math_default_;  // Entry points with FPFastMathDefault.
};

}  // namespace

void ValidateExecutionModes(ValidationState& state) { ModeRules(state).Run(); }

}  // namespace coopspv::val
