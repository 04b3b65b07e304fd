// Rules that depend on the device (Options::device_profile; none of them runs without one): the
// Vulkan valid-usage rules a driver checks at pipeline creation against what it reports —
// the capabilities' features and the extensions, the cooperative matrix and vector property
// lists, scopes, workgroup limits and shader stages.
//
// Values given by specialization constants are unknown until pipeline creation: a type or an
// operand whose dimension, scope or interpretation is not a plain constant is not checked.
// OpTypeCooperativeMatrixNV types and multiply-adds are matched against the profile's
// cooperativeMatrixPropertiesNV list (vkGetPhysicalDeviceCooperativeMatrixPropertiesNV).
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "source/binary/reader.h"
#include "source/common/workspace.h"
#include "source/ir/scalar_eval.h"
#include "source/profile/device_profile.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

using profile::ComponentType;
using profile::DeviceProfile;
using spv::Capability;

constexpr uint32_t kMatrixASigned = 0x1, kMatrixBSigned = 0x2, kMatrixCSigned = 0x4,
                   kMatrixResultSigned = 0x8, kSaturatingAccumulation = 0x10;
constexpr int64_t kUseA = 0, kUseB = 1, kUseAccumulator = 2;

// An OpTypeCooperativeMatrixKHR. Rows and columns given by spec constants are unknown (nullopt)
// and match any size: only what is known is checked.
struct MatrixShape {
  std::optional<int64_t> rows, columns;
  int64_t use = 0, scope = 0;
  Id component = 0;
};

// A dimension of the module against a size of the device: equal, or unknown.
bool Fits(const std::optional<int64_t>& v, uint32_t size) { return !v || *v == size; }
// A dimension against a granularity: a positive multiple, or unknown.
bool FitsMultiple(const std::optional<int64_t>& v, uint32_t granularity) {
  return !v || (granularity != 0 && *v > 0 && *v % granularity == 0);
}
// Two dimensions of the module that must be equal: unless one is unknown.
bool Same(const std::optional<int64_t>& a, const std::optional<int64_t>& b) {
  return !a || !b || *a == *b;
}
ws::string DimText(const std::optional<int64_t>& v) { return v ? ws::to_string(*v) : "?"; }

// The Vulkan feature (or, where Vulkan has no feature, the extension) a capability needs:
// VUID-VkShaderModuleCreateInfo-pCode-08740 and the SPIR-V environment appendix.
struct CapabilityNeed {
  Capability capability;
  const char* feature;  // Features member name, or nullptr when `extension` decides.
  bool profile::Features::*member;
  const char* extension;
};
#define COOPSPV_NEED(cap, feature) \
  { Capability::cap, #feature, &profile::Features::feature, nullptr }
#define COOPSPV_NEED_EXT(cap, ext) \
  { Capability::cap, nullptr, nullptr, ext }
const CapabilityNeed kCapabilityNeeds[] = {
    COOPSPV_NEED(CooperativeMatrixKHR, cooperativeMatrix),
    COOPSPV_NEED_EXT(CooperativeMatrixNV, "VK_NV_cooperative_matrix"),
    COOPSPV_NEED(CooperativeMatrixReductionsNV, cooperativeMatrixReductions),
    COOPSPV_NEED(CooperativeMatrixConversionsNV, cooperativeMatrixConversions),
    COOPSPV_NEED(CooperativeMatrixPerElementOperationsNV, cooperativeMatrixPerElementOperations),
    COOPSPV_NEED(CooperativeMatrixTensorAddressingNV, cooperativeMatrixTensorAddressing),
    COOPSPV_NEED(TensorAddressingNV, cooperativeMatrixTensorAddressing),
    COOPSPV_NEED(CooperativeMatrixBlockLoadsNV, cooperativeMatrixBlockLoads),
    COOPSPV_NEED_EXT(CooperativeMatrixDecodeVectorNV, "VK_NV_cooperative_matrix_decode_vector"),
    COOPSPV_NEED_EXT(CooperativeMatrixLayoutsARM, "VK_ARM_cooperative_matrix_layouts"),
    COOPSPV_NEED(CooperativeVectorNV, cooperativeVector),
    COOPSPV_NEED(CooperativeVectorTrainingNV, cooperativeVectorTraining),
    COOPSPV_NEED(BFloat16TypeKHR, shaderBFloat16Type),
    COOPSPV_NEED(BFloat16DotProductKHR, shaderBFloat16DotProduct),
    COOPSPV_NEED(BFloat16CooperativeMatrixKHR, shaderBFloat16CooperativeMatrix),
    COOPSPV_NEED(Float8EXT, shaderFloat8),
    COOPSPV_NEED(Float8CooperativeMatrixEXT, shaderFloat8CooperativeMatrix),
    COOPSPV_NEED(ReplicatedCompositesEXT, shaderReplicatedComposites),
    COOPSPV_NEED(LongVectorEXT, longVector),
    COOPSPV_NEED(Float16, shaderFloat16),
    COOPSPV_NEED(Float64, shaderFloat64),
    COOPSPV_NEED(Int8, shaderInt8),
    COOPSPV_NEED(Int16, shaderInt16),
    COOPSPV_NEED(Int64, shaderInt64),
    COOPSPV_NEED(StorageBuffer16BitAccess, storageBuffer16BitAccess),
    COOPSPV_NEED(UniformAndStorageBuffer16BitAccess, uniformAndStorageBuffer16BitAccess),
    COOPSPV_NEED(StoragePushConstant16, storagePushConstant16),
    COOPSPV_NEED(StorageBuffer8BitAccess, storageBuffer8BitAccess),
    COOPSPV_NEED(UniformAndStorageBuffer8BitAccess, uniformAndStorageBuffer8BitAccess),
    COOPSPV_NEED(StoragePushConstant8, storagePushConstant8),
    COOPSPV_NEED(VulkanMemoryModel, vulkanMemoryModel),
    COOPSPV_NEED(VulkanMemoryModelDeviceScope, vulkanMemoryModelDeviceScope),
    COOPSPV_NEED(PhysicalStorageBufferAddresses, bufferDeviceAddress),
};
#undef COOPSPV_NEED
#undef COOPSPV_NEED_EXT

// The Vulkan extension a SPIR-V extension needs, or the Vulkan version that made it core
// (VUID-VkShaderModuleCreateInfo-pCode-08742 and the SPIR-V environment appendix).
struct ExtensionNeed {
  const char* spirv;
  const char* vulkan;
  uint32_t core_minor;  // Vulkan 1.<core_minor> has it; 0: only the extension.
};
constexpr ExtensionNeed kExtensionNeeds[] = {
    {"SPV_KHR_cooperative_matrix", "VK_KHR_cooperative_matrix", 0},
    {"SPV_NV_cooperative_matrix", "VK_NV_cooperative_matrix", 0},
    {"SPV_NV_cooperative_matrix2", "VK_NV_cooperative_matrix2", 0},
    {"SPV_NV_tensor_addressing", "VK_NV_cooperative_matrix2", 0},
    {"SPV_NV_cooperative_matrix_decode_vector", "VK_NV_cooperative_matrix_decode_vector", 0},
    {"SPV_ARM_cooperative_matrix_layouts", "VK_ARM_cooperative_matrix_layouts", 0},
    {"SPV_NV_cooperative_vector", "VK_NV_cooperative_vector", 0},
    {"SPV_KHR_bfloat16", "VK_KHR_shader_bfloat16", 0},
    {"SPV_EXT_float8", "VK_EXT_shader_float8", 0},
    {"SPV_EXT_replicated_composites", "VK_EXT_shader_replicated_composites", 0},
    {"SPV_EXT_long_vector", "VK_EXT_shader_long_vector", 0},
    {"SPV_KHR_16bit_storage", "VK_KHR_16bit_storage", 1},
    {"SPV_KHR_storage_buffer_storage_class", "VK_KHR_storage_buffer_storage_class", 1},
    {"SPV_KHR_8bit_storage", "VK_KHR_8bit_storage", 2},
    {"SPV_KHR_vulkan_memory_model", "VK_KHR_vulkan_memory_model", 2},
    {"SPV_KHR_physical_storage_buffer", "VK_KHR_buffer_device_address", 2},
    {"SPV_EXT_physical_storage_buffer", "VK_EXT_buffer_device_address", 0},
    {"SPV_KHR_float_controls", "VK_KHR_shader_float_controls", 2},
    {"SPV_KHR_integer_dot_product", "VK_KHR_shader_integer_dot_product", 3},
    // Debug info and other non-semantic instructions (glslang -gV, DXC -fspv-debug=vulkan).
    {"SPV_KHR_non_semantic_info", "VK_KHR_shader_non_semantic_info", 3},
    {"SPV_KHR_relaxed_extended_instruction", "VK_KHR_shader_relaxed_extended_instruction", 0},
};

// VkShaderStageFlagBits of an execution model; 0 for those Vulkan has no stage for.
uint32_t StageBit(uint32_t model) {
  switch (static_cast<spv::ExecutionModel>(model)) {
    case spv::ExecutionModel::Vertex:
      return 0x1;
    case spv::ExecutionModel::TessellationControl:
      return 0x2;
    case spv::ExecutionModel::TessellationEvaluation:
      return 0x4;
    case spv::ExecutionModel::Geometry:
      return 0x8;
    case spv::ExecutionModel::Fragment:
      return 0x10;
    case spv::ExecutionModel::GLCompute:
      return 0x20;
    case spv::ExecutionModel::TaskNV:
    case spv::ExecutionModel::TaskEXT:
      return 0x40;
    case spv::ExecutionModel::MeshNV:
    case spv::ExecutionModel::MeshEXT:
      return 0x80;
    case spv::ExecutionModel::RayGenerationKHR:
      return 0x100;
    case spv::ExecutionModel::AnyHitKHR:
      return 0x200;
    case spv::ExecutionModel::ClosestHitKHR:
      return 0x400;
    case spv::ExecutionModel::MissKHR:
      return 0x800;
    case spv::ExecutionModel::IntersectionKHR:
      return 0x1000;
    case spv::ExecutionModel::CallableKHR:
      return 0x2000;
    default:
      return 0;
  }
}

ws::string StagesText(uint32_t mask) {
  ws::string s;
  for (const profile::StageBit& b : profile::StageBits()) {
    if (mask & b.bit) s += (s.empty() ? "" : ", ") + ws::string(b.name);
  }
  return s.empty() ? "none" : s;
}

ws::string TypeName(ComponentType t) {
  const char* name = profile::ComponentTypeName(t);
  return name ? name : ws::to_string(static_cast<uint32_t>(t));
}

class DeviceRules {
 public:
  DeviceRules(ValidationState& state, const DeviceProfile& device)
      : state_(state), m_(state.module()), device_(device) {}
  void Run();

 private:
  void CheckCapabilities();
  void CheckExtensions();
  void CollectEntryPoints();
  void CheckStages(bool matrices, bool nv_matrices, bool vectors);
  void CheckMatrixType(InstIndex i);
  void CheckWorkgroupSize(InstIndex first_workgroup_matrix);
  void CheckMulAdd(InstIndex i);
  void CheckVectorType(InstIndex i);
  void CheckVectorMatrixMul(InstIndex i);
  void CheckTrainingAccumulation(InstIndex i);
  void CheckMatrixTypeNV(InstIndex i);
  void CheckMulAddNV(InstIndex i);
  void CheckLoadStoreAlignment(InstIndex i);
  void CheckSharedMemory(bool workgroup_matrices);

  // The component type of an integer or float scalar, signedness from OpTypeInt.
  std::optional<ComponentType> OwnType(Id type) const;
  // Bytes of a type without padding between members (a lower bound of any layout's size);
  // nullopt for sizes not known before specialization, and for opaque types.
  std::optional<int64_t> SizeOf(Id type) const;
  // A pointer's byte offset from its variable, as (c, g): offset = c modulo g (g = 0: exactly
  // c). nullopt where a layout decoration is missing or the pointer is not an access chain.
  std::optional<std::pair<int64_t, int64_t>> PointerOffset(Id pointer, int depth = 0) const;
  void CollectLayout();

  // The component types a scalar type can stand for: an integer type either signedness (the
  // instruction's operands decide it), a float type its encoding.
  ws::vector<ComponentType> ComponentTypes(Id type) const;
  std::optional<ComponentType> SignedAs(Id type, bool is_signed) const;
  bool Matches(Id type, ComponentType t) const;
  std::optional<MatrixShape> Shape(Id type) const;
  // The invocations of the one compute entry point's workgroup; nullopt when there is not
  // exactly one, or its size is not a plain constant.
  std::optional<int64_t> WorkgroupInvocations() const;
  ws::string ShapeText(const MatrixShape& s);

  ValidationState& state_;
  const ir::Module& m_;
  const DeviceProfile& device_;
  struct EntryPoint {
    InstIndex inst;
    Id function;
    uint32_t model;
    std::optional<int64_t> invocations;
  };
  ws::vector<EntryPoint> entry_points_;
  ws::unordered_map<Id, int64_t> array_strides_;
  ws::unordered_map<uint64_t, int64_t> member_offsets_;  // (struct << 32) | member.
};

void DeviceRules::Run() {
  CollectLayout();
  CheckCapabilities();
  CheckExtensions();
  CollectEntryPoints();
  bool matrices = false, nv_matrices = false, vectors = false;
  InstIndex first_workgroup_matrix = kNoInst;
  const bool cooperative_vectors = state_.HasCapability(Capability::CooperativeVectorNV) &&
                                   !state_.HasCapability(Capability::LongVectorEXT);
  for (InstIndex i = 0; i < m_.num_instructions() && !state_.Full(); ++i) {
    switch (m_.opcode(i)) {
      case Op::TypeCooperativeMatrixKHR:
        matrices = true;
        CheckMatrixType(i);
        if (const auto scope = KnownValue(state_, m_.word(i, 3));
            scope && *scope == static_cast<int64_t>(spv::Scope::Workgroup) &&
            first_workgroup_matrix == kNoInst) {
          first_workgroup_matrix = i;
        }
        break;
      case Op::TypeCooperativeMatrixNV:
        nv_matrices = true;
        CheckMatrixTypeNV(i);
        break;
      case Op::CooperativeMatrixMulAddNV:
        CheckMulAddNV(i);
        break;
      case Op::CooperativeMatrixLoadKHR:
      case Op::CooperativeMatrixStoreKHR:
      case Op::CooperativeMatrixLoadNV:
      case Op::CooperativeMatrixStoreNV:
        CheckLoadStoreAlignment(i);
        break;
      case Op::TypeVectorIdEXT:
        if (cooperative_vectors) {
          vectors = true;
          CheckVectorType(i);
        }
        break;
      case Op::CooperativeMatrixMulAddKHR:
        CheckMulAdd(i);
        break;
      case Op::CooperativeVectorMatrixMulNV:
      case Op::CooperativeVectorMatrixMulAddNV:
        CheckVectorMatrixMul(i);
        break;
      case Op::CooperativeVectorOuterProductAccumulateNV:
      case Op::CooperativeVectorReduceSumAccumulateNV:
        CheckTrainingAccumulation(i);
        break;
      default:
        break;
    }
  }
  if (first_workgroup_matrix != kNoInst) CheckWorkgroupSize(first_workgroup_matrix);
  CheckSharedMemory(first_workgroup_matrix != kNoInst);
  CheckStages(matrices, nv_matrices, vectors);
}

void DeviceRules::CheckCapabilities() {
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    const Op op = m_.opcode(i);
    if (op != Op::Capability) continue;
    for (const CapabilityNeed& need : kCapabilityNeeds) {
      if (m_.word(i, 1) != static_cast<uint32_t>(need.capability)) continue;
      const bool ok =
          need.member ? device_.features.*need.member : device_.HasExtension(need.extension);
      if (ok) continue;
      const auto* e = grammar::LookupEnumerant(grammar::OperandKind::kCapability, m_.word(i, 1));
      const ws::string cap = e ? e->name : ws::to_string(m_.word(i, 1));
      state_.Report("device.capability", i,
                    "the capability " + cap + " needs " +
                        (need.member ? ws::string("the feature ") + need.feature
                                     : ws::string("the extension ") + need.extension) +
                        ", which the device profile does not have");
    }
  }
}

void DeviceRules::CheckExtensions() {
  const uint32_t minor = device_.ApiMinor();
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    const Op op = m_.opcode(i);
    if (op != Op::Extension) continue;
    const ws::string name(binary::DecodeString(m_.inst(i).words.subspan(1)));
    for (const ExtensionNeed& need : kExtensionNeeds) {
      if (name != need.spirv) continue;
      if (device_.HasExtension(need.vulkan) || (need.core_minor && minor >= need.core_minor)) {
        continue;
      }
      state_.Report(
          "device.extension", i,
          "the SPIR-V extension " + name + " needs the device extension " + need.vulkan +
              (need.core_minor ? " or Vulkan 1." + ws::to_string(need.core_minor) : ws::string()) +
              ", which the device profile does not have");
    }
  }
}

void DeviceRules::CollectEntryPoints() {
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    const Op op = m_.opcode(i);
    if (op == Op::EntryPoint) entry_points_.push_back({i, m_.word(i, 2), m_.word(i, 1), {}});
  }
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    const Op op = m_.opcode(i);
    if ((op != Op::ExecutionMode && op != Op::ExecutionModeId) || m_.num_words(i) < 6) continue;
    const uint32_t mode = m_.word(i, 2);
    std::optional<int64_t> product = 1;
    if (mode == static_cast<uint32_t>(spv::ExecutionMode::LocalSize) && op == Op::ExecutionMode) {
      for (size_t k = 3; k < 6; ++k) *product *= m_.word(i, k);
    } else if (mode == static_cast<uint32_t>(spv::ExecutionMode::LocalSizeId) &&
               op == Op::ExecutionModeId) {
      for (size_t k = 3; k < 6 && product; ++k) {
        const auto v = KnownValue(state_, m_.word(i, k));
        product = v ? std::optional<int64_t>(*product * *v) : std::nullopt;
      }
    } else {
      continue;
    }
    for (EntryPoint& e : entry_points_) {
      if (e.function == m_.word(i, 1)) e.invocations = product;
    }
  }
}

std::optional<int64_t> DeviceRules::WorkgroupInvocations() const {
  std::optional<int64_t> found;
  int compute = 0;
  for (const EntryPoint& e : entry_points_) {
    if (e.model != static_cast<uint32_t>(spv::ExecutionModel::GLCompute)) continue;
    ++compute;
    found = e.invocations;
  }
  return compute == 1 ? found : std::nullopt;
}

void DeviceRules::CheckStages(bool matrices, bool nv_matrices, bool vectors) {
  // The NV list only where the profile gives it (older profiles do not): unknown is no rule.
  const auto& nv_stages = device_.properties.cooperativeMatrixSupportedStagesNV;
  struct {
    bool used;
    uint32_t supported;
    const char* rule;
    const char* what;
    const char* property;
  } const uses[] = {
      {matrices, device_.properties.cooperativeMatrixSupportedStages, "device.coop-matrix.stage",
       "cooperative matrices", "cooperativeMatrixSupportedStages"},
      {vectors, device_.properties.cooperativeVectorSupportedStages, "device.coop-vector.stage",
       "cooperative vectors", "cooperativeVectorSupportedStages"},
      {nv_matrices && nv_stages.has_value(), nv_stages.value_or(0), "device.coop-matrix-nv.stage",
       "NV cooperative matrices", "cooperativeMatrixSupportedStagesNV"},
  };
  for (const auto& use : uses) {
    if (!use.used) continue;
    for (const EntryPoint& e : entry_points_) {
      const uint32_t bit = StageBit(e.model);
      if (bit == 0 || (use.supported & bit)) continue;
      const auto* model = grammar::LookupEnumerant(grammar::OperandKind::kExecutionModel, e.model);
      state_.Report(use.rule, e.inst,
                    ws::string("the module uses ") + use.what + " but entry point " +
                        state_.Name(e.function) + " is a " + (model ? model->name : "?") +
                        " shader; the device's " + use.property + " are " +
                        StagesText(use.supported));
    }
  }
}

std::optional<ComponentType> DeviceRules::SignedAs(Id type, bool is_signed) const {
  const uint32_t width = state_.ScalarWidth(type);
  if (!state_.IsIntType(type)) return std::nullopt;
  switch (width) {
    case 8:
      return is_signed ? ComponentType::kSint8 : ComponentType::kUint8;
    case 16:
      return is_signed ? ComponentType::kSint16 : ComponentType::kUint16;
    case 32:
      return is_signed ? ComponentType::kSint32 : ComponentType::kUint32;
    case 64:
      return is_signed ? ComponentType::kSint64 : ComponentType::kUint64;
    default:
      return std::nullopt;
  }
}

ws::vector<ComponentType> DeviceRules::ComponentTypes(Id type) const {
  if (state_.IsIntType(type)) {
    ws::vector<ComponentType> out;
    for (bool s : {true, false}) {
      if (auto t = SignedAs(type, s)) out.push_back(*t);
    }
    return out;
  }
  if (!state_.IsFloatType(type)) return {};
  const uint32_t width = state_.ScalarWidth(type);
  if (m_.num_words(m_.Def(type)) > 3) {
    switch (static_cast<spv::FPEncoding>(state_.DefWord(type, 3))) {
      case spv::FPEncoding::BFloat16KHR:
        return {ComponentType::kBFloat16};
      case spv::FPEncoding::Float8E4M3EXT:
        return {ComponentType::kFloat8E4M3};
      case spv::FPEncoding::Float8E5M2EXT:
        return {ComponentType::kFloat8E5M2};
      default:
        return {};
    }
  }
  if (width == 16) return {ComponentType::kFloat16};
  if (width == 32) return {ComponentType::kFloat32};
  if (width == 64) return {ComponentType::kFloat64};
  return {};
}

bool DeviceRules::Matches(Id type, ComponentType t) const {
  for (ComponentType c : ComponentTypes(type)) {
    if (c == t) return true;
  }
  return false;
}

std::optional<MatrixShape> DeviceRules::Shape(Id type) const {
  if (state_.DefOp(type) != Op::TypeCooperativeMatrixKHR) return std::nullopt;
  const auto scope = KnownValue(state_, state_.DefWord(type, 3));
  const auto use = KnownValue(state_, state_.DefWord(type, 6));
  if (!scope || !use) return std::nullopt;
  return MatrixShape{KnownValue(state_, state_.DefWord(type, 4)),
                     KnownValue(state_, state_.DefWord(type, 5)), *use, *scope,
                     state_.DefWord(type, 2)};
}

ws::string DeviceRules::ShapeText(const MatrixShape& s) {
  const auto types = ComponentTypes(s.component);
  ws::string type = state_.Name(s.component);
  if (types.size() == 1) type = TypeName(types[0]);
  const char* use = s.use == kUseA ? "MatrixA" : s.use == kUseB ? "MatrixB" : "MatrixAccumulator";
  return DimText(s.rows) + "x" + DimText(s.columns) + " " + type + " " + use + " " +
         ScopeName(s.scope);
}

void DeviceRules::CheckMatrixType(InstIndex i) {
  const auto shape = Shape(m_.result_id(i));
  if (!shape) return;
  const MatrixShape& s = *shape;
  const auto& features = device_.features;
  if (s.scope == static_cast<int64_t>(spv::Scope::Workgroup) &&
      !features.cooperativeMatrixWorkgroupScope) {
    state_.Report("device.coop-matrix.workgroup-scope", i,
                  state_.Describe(i) +
                      " has Workgroup scope but the device profile does not have the "
                      "cooperativeMatrixWorkgroupScope feature");
    return;
  }
  // VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163: one of the matrices of an entry.
  for (const auto& e : device_.cooperativeMatrixProperties) {
    if (static_cast<int64_t>(e.scope) != s.scope) continue;
    const bool ok =
        s.use == kUseA
            ? Fits(s.rows, e.MSize) && Fits(s.columns, e.KSize) && Matches(s.component, e.AType)
        : s.use == kUseB
            ? Fits(s.rows, e.KSize) && Fits(s.columns, e.NSize) && Matches(s.component, e.BType)
            : Fits(s.rows, e.MSize) && Fits(s.columns, e.NSize) &&
                  (Matches(s.component, e.CType) || Matches(s.component, e.ResultType));
    if (ok) return;
  }
  // VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-10165: or a multiple of the
  // granularities of a flexible-dimensions entry.
  const std::optional<int64_t> invocations = WorkgroupInvocations();
  if (features.cooperativeMatrixFlexibleDimensions) {
    const uint32_t max = device_.properties.cooperativeMatrixFlexibleDimensionsMaxDimension;
    if (max != 0 && ((s.rows && *s.rows > max) || (s.columns && *s.columns > max))) {
      state_.Report("device.coop-matrix.max-dimension", i,
                    state_.Describe(i) + " (" + ShapeText(s) +
                        ") has a dimension above the device's "
                        "cooperativeMatrixFlexibleDimensionsMaxDimension " +
                        ws::to_string(max));
      return;
    }
    for (const auto& e : device_.cooperativeMatrixFlexibleDimensionsProperties) {
      if (static_cast<int64_t>(e.scope) != s.scope) continue;
      if (s.scope == static_cast<int64_t>(spv::Scope::Workgroup) && invocations &&
          *invocations != e.workgroupInvocations) {
        continue;
      }
      const bool ok =
          s.use == kUseA
              ? FitsMultiple(s.rows, e.MGranularity) && FitsMultiple(s.columns, e.KGranularity) &&
                    Matches(s.component, e.AType)
          : s.use == kUseB
              ? FitsMultiple(s.rows, e.KGranularity) && FitsMultiple(s.columns, e.NGranularity) &&
                    Matches(s.component, e.BType)
              : FitsMultiple(s.rows, e.MGranularity) && FitsMultiple(s.columns, e.NGranularity) &&
                    (Matches(s.component, e.CType) || Matches(s.component, e.ResultType));
      if (ok) return;
    }
  }
  state_.Report("device.coop-matrix.type", i,
                state_.Describe(i) + " (" + ShapeText(s) +
                    ") matches no VkCooperativeMatrixPropertiesKHR entry of the device profile" +
                    (features.cooperativeMatrixFlexibleDimensions
                         ? " and no VkCooperativeMatrixFlexibleDimensionsPropertiesNV entry"
                         : ""));
}

void DeviceRules::CheckWorkgroupSize(InstIndex first) {
  const uint32_t max = device_.properties.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
  if (!device_.features.cooperativeMatrixWorkgroupScope) return;  // Reported per type.
  for (const EntryPoint& e : entry_points_) {
    if (e.model != static_cast<uint32_t>(spv::ExecutionModel::GLCompute) || !e.invocations ||
        *e.invocations <= static_cast<int64_t>(max)) {
      continue;
    }
    state_.Report("device.coop-matrix.workgroup-size", first,
                  state_.Describe(first) + " has Workgroup scope and entry point " +
                      state_.Name(e.function) + " has " + ws::to_string(*e.invocations) +
                      " invocations per workgroup, above the device's "
                      "cooperativeMatrixWorkgroupScopeMaxWorkgroupSize " +
                      ws::to_string(max));
  }
}

void DeviceRules::CheckMulAdd(InstIndex i) {
  const auto a = Shape(state_.TypeOf(m_.word(i, 3)));
  const auto b = Shape(state_.TypeOf(m_.word(i, 4)));
  const auto c = Shape(state_.TypeOf(m_.word(i, 5)));
  const auto r = Shape(m_.type_id(i));
  if (!a || !b || !c || !r) return;
  const uint32_t mask = m_.num_words(i) > 6 ? m_.word(i, 6) : 0;
  // An integer operand's signedness is the operand mask's, not its type's.
  auto as = [&](const MatrixShape& s, uint32_t signed_bit) -> std::optional<ComponentType> {
    if (state_.IsIntType(s.component)) return SignedAs(s.component, (mask & signed_bit) != 0);
    const auto t = ComponentTypes(s.component);
    return t.size() == 1 ? std::optional<ComponentType>(t[0]) : std::nullopt;
  };
  const auto at = as(*a, kMatrixASigned), bt = as(*b, kMatrixBSigned), ct = as(*c, kMatrixCSigned),
             rt = as(*r, kMatrixResultSigned);
  if (!at || !bt || !ct || !rt) return;
  const bool saturating = (mask & kSaturatingAccumulation) != 0;
  // M, N and K as far as any operand knows them.
  const auto m = a->rows ? a->rows : c->rows ? c->rows : r->rows;
  const auto k = a->columns ? a->columns : b->rows;
  const auto n = b->columns ? b->columns : c->columns ? c->columns : r->columns;
  const bool shapes_agree = Same(a->rows, m) && Same(c->rows, m) && Same(r->rows, m) &&
                            Same(a->columns, k) && Same(b->rows, k) && Same(b->columns, n) &&
                            Same(c->columns, n) && Same(r->columns, n);
  if (!shapes_agree) return;  // coop-matrix.muladd.dims reports it.
  for (const auto& e : device_.cooperativeMatrixProperties) {
    // VUID-RuntimeSpirv-OpCooperativeMatrixMulAddKHR-10060.
    if (Fits(m, e.MSize) && Fits(k, e.KSize) && Fits(n, e.NSize) && e.AType == *at &&
        e.BType == *bt && e.CType == *ct && e.ResultType == *rt &&
        e.saturatingAccumulation == saturating && static_cast<int64_t>(e.scope) == a->scope) {
      return;
    }
  }
  if (device_.features.cooperativeMatrixFlexibleDimensions) {
    // VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-10166.
    const auto invocations = WorkgroupInvocations();
    for (const auto& e : device_.cooperativeMatrixFlexibleDimensionsProperties) {
      if (FitsMultiple(m, e.MGranularity) && FitsMultiple(k, e.KGranularity) &&
          FitsMultiple(n, e.NGranularity) && e.AType == *at && e.BType == *bt && e.CType == *ct &&
          e.ResultType == *rt && e.saturatingAccumulation == saturating &&
          static_cast<int64_t>(e.scope) == a->scope &&
          (a->scope != static_cast<int64_t>(spv::Scope::Workgroup) || !invocations ||
           *invocations == e.workgroupInvocations)) {
        return;
      }
    }
  }
  state_.Report("device.coop-matrix.muladd", i,
                state_.Describe(i) + ": M=" + DimText(m) + " N=" + DimText(n) + " K=" + DimText(k) +
                    " " + TypeName(*at) + " x " + TypeName(*bt) + " + " + TypeName(*ct) + " -> " +
                    TypeName(*rt) + (saturating ? " saturating" : "") + " " + ScopeName(a->scope) +
                    " matches no entry of the device profile's cooperative matrix properties");
}

void DeviceRules::CollectLayout() {
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    const Op op = m_.opcode(i);
    if (op == Op::Decorate && m_.num_words(i) >= 4 &&
        m_.word(i, 2) == static_cast<uint32_t>(spv::Decoration::ArrayStride)) {
      array_strides_[m_.word(i, 1)] = m_.word(i, 3);
    } else if (op == Op::MemberDecorate && m_.num_words(i) >= 5 &&
               m_.word(i, 3) == static_cast<uint32_t>(spv::Decoration::Offset)) {
      member_offsets_[(uint64_t{m_.word(i, 1)} << 32) | m_.word(i, 2)] = m_.word(i, 4);
    }
  }
}

std::optional<ComponentType> DeviceRules::OwnType(Id type) const {
  if (state_.IsIntType(type)) return SignedAs(type, state_.IsSignedInt(type));
  const auto t = ComponentTypes(type);
  return t.size() == 1 ? std::optional<ComponentType>(t[0]) : std::nullopt;
}

void DeviceRules::CheckMatrixTypeNV(InstIndex i) {
  // Without the extension, device.capability reports the capability; no list to match.
  if (!device_.HasExtension("VK_NV_cooperative_matrix") || m_.num_words(i) < 6) return;
  const Id component = m_.word(i, 2);
  const auto scope = KnownValue(state_, m_.word(i, 3));
  const auto rows = KnownValue(state_, m_.word(i, 4));
  const auto columns = KnownValue(state_, m_.word(i, 5));
  const auto type = OwnType(component);
  if (!scope || !type) return;
  // VUID-RuntimeSpirv-OpTypeCooperativeMatrixNV-06316: A, B, C or D of some entry.
  for (const auto& e : device_.cooperativeMatrixPropertiesNV) {
    if (static_cast<int64_t>(e.scope) != *scope) continue;
    if ((Fits(rows, e.MSize) && Fits(columns, e.KSize) && *type == e.AType) ||
        (Fits(rows, e.KSize) && Fits(columns, e.NSize) && *type == e.BType) ||
        (Fits(rows, e.MSize) && Fits(columns, e.NSize) &&
         (*type == e.CType || *type == e.ResultType))) {
      return;
    }
  }
  state_.Report("device.coop-matrix-nv.type", i,
                state_.Describe(i) + " (" + DimText(rows) + "x" + DimText(columns) + " " +
                    TypeName(*type) + " " + ScopeName(*scope) +
                    ") matches no matrix of the device profile's cooperativeMatrixPropertiesNV");
}

void DeviceRules::CheckMulAddNV(InstIndex i) {
  if (!device_.HasExtension("VK_NV_cooperative_matrix") || m_.num_words(i) < 6) return;
  // Rows, columns, component type and scope of an OpTypeCooperativeMatrixNV.
  struct NV {
    std::optional<int64_t> rows, columns, scope;
    std::optional<ComponentType> type;
  };
  auto nv = [&](Id type) -> std::optional<NV> {
    if (state_.DefOp(type) != Op::TypeCooperativeMatrixNV) return std::nullopt;
    return NV{KnownValue(state_, state_.DefWord(type, 4)),
              KnownValue(state_, state_.DefWord(type, 5)),
              KnownValue(state_, state_.DefWord(type, 3)), OwnType(state_.DefWord(type, 2))};
  };
  const auto a = nv(state_.TypeOf(m_.word(i, 3))), b = nv(state_.TypeOf(m_.word(i, 4))),
             c = nv(state_.TypeOf(m_.word(i, 5))), r = nv(m_.type_id(i));
  if (!a || !b || !c || !r || !a->type || !b->type || !c->type || !r->type || !a->scope) return;
  const auto m = a->rows ? a->rows : r->rows;
  const auto k = a->columns ? a->columns : b->rows;
  const auto n = b->columns ? b->columns : r->columns;
  // VUID-RuntimeSpirv-OpTypeCooperativeMatrixMulAddNV-10059.
  for (const auto& e : device_.cooperativeMatrixPropertiesNV) {
    if (Fits(m, e.MSize) && Fits(k, e.KSize) && Fits(n, e.NSize) && *a->type == e.AType &&
        *b->type == e.BType && *c->type == e.CType && *r->type == e.ResultType &&
        *a->scope == static_cast<int64_t>(spv::Scope::Subgroup) &&
        e.scope == profile::Scope::kSubgroup) {
      return;
    }
  }
  state_.Report("device.coop-matrix-nv.muladd", i,
                state_.Describe(i) + ": M=" + DimText(m) + " N=" + DimText(n) + " K=" + DimText(k) +
                    " " + TypeName(*a->type) + " x " + TypeName(*b->type) + " + " +
                    TypeName(*c->type) + " -> " + TypeName(*r->type) + " " + ScopeName(*a->scope) +
                    " matches no entry of the device profile's cooperativeMatrixPropertiesNV");
}

std::optional<int64_t> DeviceRules::SizeOf(Id type) const {
  return ir::PlainTypeBytes(m_, type, [this](Id id) { return KnownValue(state_, id); });
}

std::optional<std::pair<int64_t, int64_t>> DeviceRules::PointerOffset(Id pointer, int depth) const {
  if (depth > 64) return std::nullopt;
  const Op op = state_.DefOp(pointer);
  if (op == Op::Variable) return std::pair<int64_t, int64_t>{0, 0};
  if (op != Op::AccessChain && op != Op::InBoundsAccessChain) return std::nullopt;
  const InstIndex def = m_.Def(pointer);
  const Id base = m_.word(def, 3);
  auto offset = PointerOffset(base, depth + 1);
  if (!offset) return std::nullopt;
  auto [c, g] = *offset;
  Id type = state_.PointeeType(state_.TypeOf(base));
  for (size_t k = 4; k < m_.num_words(def); ++k) {
    const Id index = m_.word(def, k);
    const auto value = KnownValue(state_, index);
    const Op type_op = state_.DefOp(type);
    if (type_op == Op::TypeStruct) {
      if (!value) return std::nullopt;
      const auto it = member_offsets_.find((uint64_t{type} << 32) | static_cast<uint32_t>(*value));
      if (it == member_offsets_.end()) return std::nullopt;
      c += it->second;
      if (c > (int64_t{1} << 48)) return std::nullopt;
      type = state_.DefWord(type, 2 + static_cast<size_t>(*value));
      continue;
    }
    int64_t stride = 0;
    if (type_op == Op::TypeArray || type_op == Op::TypeRuntimeArray) {
      const auto it = array_strides_.find(type);
      if (it == array_strides_.end()) return std::nullopt;
      stride = it->second;
    } else if (type_op == Op::TypeVector) {
      const auto size = SizeOf(state_.DefWord(type, 2));
      if (!size) return std::nullopt;
      stride = *size;
    } else {
      return std::nullopt;
    }
    if (value) {
      if (*value < -(int64_t{1} << 24) || *value > (int64_t{1} << 24)) return std::nullopt;
      c += *value * stride;
      if (c < -(int64_t{1} << 48) || c > (int64_t{1} << 48)) return std::nullopt;
    } else {
      g = std::gcd(g, stride);
    }
    type = state_.DefWord(type, 2);
  }
  return std::pair<int64_t, int64_t>{c, g};
}

void DeviceRules::CheckLoadStoreAlignment(InstIndex i) {
  const Op op = m_.opcode(i);
  const bool khr = op == Op::CooperativeMatrixLoadKHR || op == Op::CooperativeMatrixStoreKHR;
  const bool load = op == Op::CooperativeMatrixLoadKHR || op == Op::CooperativeMatrixLoadNV;
  const size_t first = load ? 3 : 1;  // The Pointer operand.
  const Id pointer = m_.word(i, first);
  const Id matrix = load ? m_.type_id(i) : state_.TypeOf(m_.word(i, 2));
  if (!IsCoopMatrixType(state_, matrix)) return;
  // KHR: Pointer, MemoryLayout, [Stride]; NV: Pointer, Stride, ColumnMajor.
  const size_t after = load ? 4 : 3;
  if (m_.num_words(i) <= after) return;
  std::optional<int64_t> column_major;
  Id stride = 0;
  if (khr) {
    column_major = KnownValue(state_, m_.word(i, after));
    if (m_.num_words(i) > after + 1) stride = m_.word(i, after + 1);
    // RowMajorKHR = 0, ColumnMajorKHR = 1; the ARM blocked layouts have rules of their own.
    if (column_major && *column_major != 0 && *column_major != 1) return;
  } else {
    if (m_.num_words(i) <= after + 1) return;
    stride = m_.word(i, after);
    const Op bool_op = state_.DefOp(m_.word(i, after + 1));
    if (bool_op == Op::ConstantTrue) column_major = 1;
    if (bool_op == Op::ConstantFalse) column_major = 0;
  }
  const auto rows = KnownValue(state_, state_.DefWord(matrix, 4));
  const auto columns = KnownValue(state_, state_.DefWord(matrix, 5));
  const auto component = SizeOf(state_.DefWord(matrix, 2));
  const auto element = SizeOf(state_.PointeeType(state_.TypeOf(pointer)));
  if (!column_major || !component || *component <= 0 || !element || *element <= 0) return;
  const auto line = *column_major ? rows : columns;  // Elements of a column / row.
  if (!line || *line <= 0) return;
  const int64_t need = std::min<int64_t>(16, *line * *component);
  const char* vuid_layout = *column_major ? "column" : "row";
  auto report = [&](const ws::string& what) {
    state_.Report("device.coop-matrix.load-store-alignment", i,
                  state_.Describe(i) + ": " + what + " is not aligned to " + ws::to_string(need) +
                      " bytes (the lesser of 16 and a " + vuid_layout + " of the matrix, " +
                      ws::to_string(*line * *component) + " bytes)");
  };
  if (stride != 0) {
    if (const auto s = KnownValue(state_, stride);
        s && *s >= 0 && *s < (int64_t{1} << 32) && (*s * *element) % need != 0) {
      report("the Stride, " + ws::to_string(*s) + " elements of " + ws::to_string(*element) +
             " bytes,");
    }
  }
  const auto offset = PointerOffset(pointer);
  if (!offset) return;
  const auto [c, g] = *offset;
  if ((g == 0 || g % need == 0) && ((c % need) + need) % need != 0) {
    report("the Pointer, at byte offset " + ws::to_string(c) +
           (g ? " plus a multiple of " + ws::to_string(g) : ws::string()) + " in its variable,");
  }
}

void DeviceRules::CheckSharedMemory(bool workgroup_matrices) {
  const auto& p = device_.properties;
  if (p.maxComputeSharedMemorySize == 0) return;  // The profile does not say.
  ws::vector<InstIndex> variables;
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    if (m_.opcode(i) == Op::Variable && m_.num_words(i) >= 4 &&
        m_.word(i, 3) == static_cast<uint32_t>(spv::StorageClass::Workgroup)) {
      variables.push_back(i);
    }
  }
  if (variables.empty()) return;
  const bool listed = state_.version() >= 0x10400;  // From SPIR-V 1.4 the interface lists them all.
  for (const EntryPoint& e : entry_points_) {
    if (e.model != static_cast<uint32_t>(spv::ExecutionModel::GLCompute)) continue;
    int64_t total = 0;
    bool known = true;
    for (InstIndex v : variables) {
      if (listed) {
        bool in_interface = false;
        for (const Id id : ir::EntryPointInterface(m_.inst(e.inst))) {
          in_interface |= id == m_.result_id(v);
        }
        if (!in_interface) continue;
      }
      const auto size = SizeOf(state_.PointeeType(m_.type_id(v)));
      if (!size) {
        known = false;
        break;
      }
      total = std::min(int64_t{1} << 40, total + *size);
    }
    if (!known) continue;
    const InstIndex at = e.inst;
    // VUID-RuntimeSpirv-Workgroup-06530.
    if (total > static_cast<int64_t>(p.maxComputeSharedMemorySize)) {
      state_.Report("device.shared-memory", at,
                    "entry point " + state_.Name(e.function) + " has " + ws::to_string(total) +
                        " bytes of Workgroup variables, above the device's "
                        "maxComputeSharedMemorySize " +
                        ws::to_string(p.maxComputeSharedMemorySize));
      continue;
    }
    // VUID-RuntimeSpirv-maxComputeSharedMemorySize-10168.
    const int64_t left =
        static_cast<int64_t>(p.maxComputeSharedMemorySize) -
        static_cast<int64_t>(p.cooperativeMatrixWorkgroupScopeReservedSharedMemory);
    if (workgroup_matrices && total > left) {
      state_.Report("device.coop-matrix.workgroup-shared-memory", at,
                    "entry point " + state_.Name(e.function) + " has " + ws::to_string(total) +
                        " bytes of Workgroup variables in a module with Workgroup-scope "
                        "matrices, above maxComputeSharedMemorySize " +
                        ws::to_string(p.maxComputeSharedMemorySize) + " minus the " +
                        ws::to_string(p.cooperativeMatrixWorkgroupScopeReservedSharedMemory) +
                        " bytes of cooperativeMatrixWorkgroupScopeReservedSharedMemory");
    }
  }
}

void DeviceRules::CheckVectorType(InstIndex i) {
  const Id component = m_.word(i, 2);
  // VUID-RuntimeSpirv-maxCooperativeVectorComponents-10094.
  if (const auto count = KnownValue(state_, m_.word(i, 3));
      count && *count > static_cast<int64_t>(device_.properties.maxCooperativeVectorComponents)) {
    state_.Report("device.coop-vector.components", i,
                  state_.Describe(i) + " has " + ws::to_string(*count) +
                      " components, above the device's maxCooperativeVectorComponents " +
                      ws::to_string(device_.properties.maxCooperativeVectorComponents));
  }
  // VUID-RuntimeSpirv-OpTypeCooperativeVector-10095: an inputType or resultType of an entry.
  for (const auto& e : device_.cooperativeVectorProperties) {
    if (Matches(component, e.inputType) || Matches(component, e.resultType)) return;
  }
  state_.Report("device.coop-vector.type", i,
                state_.Describe(i) + ": the component type " + state_.Name(component) +
                    " is no inputType or resultType of the device's cooperative vector "
                    "properties");
}

void DeviceRules::CheckVectorMatrixMul(InstIndex i) {
  const bool add = m_.opcode(i) == Op::CooperativeVectorMatrixMulAddNV;
  const size_t tail = add ? 11 : 8;
  if (m_.num_words(i) < tail + 4) return;
  const Id input_type = state_.TypeOf(m_.word(i, 3));
  if (state_.DefOp(input_type) != Op::TypeVectorIdEXT ||
      state_.DefOp(m_.type_id(i)) != Op::TypeVectorIdEXT) {
    return;
  }
  const Id input_component = state_.DefWord(input_type, 2);
  const Id result_component = state_.DefWord(m_.type_id(i), 2);
  const auto input_interp = KnownValue(state_, m_.word(i, 4));
  const auto matrix_interp = KnownValue(state_, m_.word(i, 7));
  const auto bias_interp = add ? KnownValue(state_, m_.word(i, 10)) : std::optional<int64_t>(0);
  const auto transpose = KnownValue(state_, m_.word(i, tail + 3));
  if (!input_interp || !matrix_interp || !bias_interp || !transpose) return;
  // VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10089: all from one entry.
  for (const auto& e : device_.cooperativeVectorProperties) {
    if (Matches(input_component, e.inputType) &&
        static_cast<int64_t>(e.inputInterpretation) == *input_interp &&
        static_cast<int64_t>(e.matrixInterpretation) == *matrix_interp &&
        (!add || static_cast<int64_t>(e.biasInterpretation) == *bias_interp) &&
        Matches(result_component, e.resultType) && (!*transpose || e.transpose)) {
      return;
    }
  }
  auto interp = [](int64_t v) {
    return profile::IsKnownComponentType(static_cast<uint32_t>(v))
               ? TypeName(static_cast<ComponentType>(v))
               : ws::to_string(v);
  };
  state_.Report("device.coop-vector.matmul", i,
                state_.Describe(i) + ": input " + state_.Name(input_component) + " as " +
                    interp(*input_interp) + ", matrix as " + interp(*matrix_interp) +
                    (add ? ", bias as " + interp(*bias_interp) : ws::string()) + ", result " +
                    state_.Name(result_component) + (*transpose ? ", transposed" : "") +
                    " matches no entry of the device's cooperative vector properties");
}

void DeviceRules::CheckTrainingAccumulation(InstIndex i) {
  std::optional<ComponentType> accumulated;
  if (m_.opcode(i) == Op::CooperativeVectorReduceSumAccumulateNV) {
    // VUID-RuntimeSpirv-OpCooperativeVectorReduceSumAccumulateNV-10092.
    const Id type = state_.TypeOf(m_.word(i, 3));
    if (state_.DefOp(type) != Op::TypeVectorIdEXT) return;
    const auto types = ComponentTypes(state_.DefWord(type, 2));
    if (types.size() == 1) accumulated = types[0];
  } else if (const auto v = KnownValue(state_, m_.word(i, 6))) {
    // VUID-RuntimeSpirv-OpCooperativeVectorOuterProductAccumulateNV-10093.
    if (profile::IsKnownComponentType(static_cast<uint32_t>(*v))) {
      accumulated = static_cast<ComponentType>(*v);
    }
  }
  if (!accumulated) return;
  const auto& p = device_.properties;
  const char* missing = nullptr;
  if (*accumulated == ComponentType::kFloat16 && !p.cooperativeVectorTrainingFloat16Accumulation) {
    missing = "cooperativeVectorTrainingFloat16Accumulation";
  } else if (*accumulated == ComponentType::kFloat32 &&
             !p.cooperativeVectorTrainingFloat32Accumulation) {
    missing = "cooperativeVectorTrainingFloat32Accumulation";
  } else if (*accumulated != ComponentType::kFloat16 && *accumulated != ComponentType::kFloat32) {
    state_.Report("device.coop-vector.training-accumulation", i,
                  state_.Describe(i) + " accumulates " + TypeName(*accumulated) +
                      "; Vulkan accumulates only float16 or float32");
    return;
  }
  if (missing == nullptr) return;
  state_.Report("device.coop-vector.training-accumulation", i,
                state_.Describe(i) + " accumulates " + TypeName(*accumulated) +
                    " but the device profile's " + missing + " is false");
}

}  // namespace

void ValidateDevice(ValidationState& state) {
  if (state.options().device_profile == nullptr) return;
  DeviceRules(state, *state.options().device_profile).Run();
}

}  // namespace coopspv::val
