// The device rules (source/val/device.cc): for each rule, a module that passes plain validation
// and the same module with a device profile that breaks exactly that rule — the built-in
// lavapipe profile, and H100-like test profiles (test/profile/data/h100_like.json, from the
// facts of ../shared/gpu/README.md, changed one field at a time).
#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "source/profile/device_profile.h"
#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using profile::DeviceProfile;
using testing::Mutate;
using testing::ReadFile;

// A 16x16x16 float16 -> float32 multiply-add of constant matrices, in a 32-invocation workgroup.
constexpr const char* kMatmul = R"(
OpCapability Shader
OpCapability Float16
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 32 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%scope = OpConstant %uint 3
%M = OpConstant %uint 16
%N = OpConstant %uint 16
%K = OpConstant %uint 16
%matA = OpTypeCooperativeMatrixKHR %half %scope %M %K %uint_0
%matB = OpTypeCooperativeMatrixKHR %half %scope %K %N %uint_1
%matC = OpTypeCooperativeMatrixKHR %float %scope %M %N %uint_2
%half_1 = OpConstant %half 0x1p+0
%float_0 = OpConstant %float 0
%a = OpConstantComposite %matA %half_1
%b = OpConstantComposite %matB %half_1
%c = OpConstantComposite %matC %float_0
%main = OpFunction %void None %fn
%entry = OpLabel
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c
OpReturn
OpFunctionEnd
)";

// kMatmul with more capabilities and extensions, each in its section.
std::string WithDeclarations(const std::string& capabilities, const std::string& extensions) {
  std::string text = Mutate(kMatmul, "OpCapability CooperativeMatrixKHR",
                            "OpCapability CooperativeMatrixKHR\n" + capabilities);
  return Mutate(text, "OpExtension \"SPV_KHR_cooperative_matrix\"",
                "OpExtension \"SPV_KHR_cooperative_matrix\"\n" + extensions);
}

std::shared_ptr<const DeviceProfile> Load(const std::string& path) {
  std::string error;
  auto p = profile::Parse(ReadFile(path), &error);
  EXPECT_TRUE(p) << path << ": " << error;
  return p ? std::make_shared<const DeviceProfile>(*p) : nullptr;
}

const DeviceProfile& H100Like() {
  static const auto p = Load("test/profile/data/h100_like.json");
  return *p;
}

std::shared_ptr<const DeviceProfile> Lavapipe() {
  static const auto p = std::make_shared<const DeviceProfile>(*profile::BuiltIn("lavapipe"));
  return p;
}

// The H100-like profile with one change.
template <typename F>
std::shared_ptr<const DeviceProfile> H100With(F change) {
  auto p = std::make_shared<DeviceProfile>(H100Like());
  change(*p);
  return p;
}

Result Check(const std::string& text, std::shared_ptr<const DeviceProfile> device) {
  Options options;
  options.env = *ParseTargetEnv("vulkan1.3");
  options.device_profile = std::move(device);
  return testing::ValidateText(text, options);
}

// Valid without a profile; with `device`, reports `rule` (and only rules of family "device").
void ExpectDeviceRule(const std::string& text, std::shared_ptr<const DeviceProfile> device,
                      const char* rule) {
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  const Result r = Check(text, std::move(device));
  EXPECT_RULE(r, rule);
  for (const auto& d : r.diagnostics) {
    EXPECT_EQ(std::string(d.rule->family), "device") << testing::Dump(r);
  }
}

std::shared_ptr<const DeviceProfile> H100() {
  return std::make_shared<const DeviceProfile>(H100Like());
}

// The built-in profile written on the H100 (test/data/profiles/h100.json).
std::shared_ptr<const DeviceProfile> BuiltInH100() {
  static const auto p = [] {
    const auto h100 = profile::BuiltIn("h100");
    EXPECT_TRUE(h100) << "test/data/profiles/h100.json is not built in";
    return h100 ? std::make_shared<const DeviceProfile>(*h100) : nullptr;
  }();
  return p;
}

TEST(DeviceRules, NoProfileNoDeviceRules) {
  EXPECT_CLEAN(testing::ValidateText(kMatmul, "vulkan1.3"));
}

TEST(DeviceRules, SupportedMatmulIsClean) { EXPECT_CLEAN(Check(kMatmul, H100())); }

// ---- Capabilities and extensions (lavapipe has no cooperative extension at all).

TEST(DeviceRules, LavapipeLacksTheCapabilityFeature) {
  ExpectDeviceRule(kMatmul, Lavapipe(), "device.capability");
  EXPECT_RULE_AT(Check(kMatmul, Lavapipe()), "device.capability",
                 "OpCapability CooperativeMatrixKHR");
}

TEST(DeviceRules, LavapipeLacksTheExtension) {
  EXPECT_RULE_AT(Check(kMatmul, Lavapipe()), "device.extension",
                 "OpExtension \"SPV_KHR_cooperative_matrix\"");
}

TEST(DeviceRules, Bfloat16DotProductNeedsItsFeature) {
  const std::string text =
      WithDeclarations("OpCapability BFloat16TypeKHR\nOpCapability BFloat16DotProductKHR",
                       "OpExtension \"SPV_KHR_bfloat16\"");
  ExpectDeviceRule(text, H100(), "device.capability");
  EXPECT_RULE_AT(Check(text, H100()), "device.capability", "BFloat16DotProductKHR");
  EXPECT_CLEAN(
      Check(text, H100With([](DeviceProfile& p) { p.features.shaderBFloat16DotProduct = true; })));
}

TEST(DeviceRules, Float8NeedsTheFeatureAndTheExtension) {
  const std::string text =
      WithDeclarations("OpCapability Float8EXT", "OpExtension \"SPV_EXT_float8\"");
  const Result r = Check(text, H100());
  EXPECT_RULE_AT(r, "device.capability", "Float8EXT");
  EXPECT_RULE_AT(r, "device.extension", "SPV_EXT_float8");
  EXPECT_CLEAN(Check(text, H100With([](DeviceProfile& p) {
                       p.features.shaderFloat8 = true;
                       p.extensions.push_back("VK_EXT_shader_float8");
                     })));
}

TEST(DeviceRules, CoreExtensionNeedsVersionOrExtension) {
  const std::string text = WithDeclarations("", "OpExtension \"SPV_KHR_8bit_storage\"");
  EXPECT_CLEAN(Check(text, H100()));  // Vulkan 1.4: core.
  const Result r = Check(text, H100With([](DeviceProfile& p) {
                           p.apiVersion = "1.1.0";
                           std::erase(p.extensions, "VK_KHR_8bit_storage");
                         }));
  EXPECT_RULE_AT(r, "device.extension", "SPV_KHR_8bit_storage");
}

// ---- Cooperative matrix types and multiply-add against the property lists.

TEST(DeviceRules, MatrixTypeNotInTheList) {
  // 8x16 A: no entry has MSize 8, and 8 is no multiple of the flexible MGranularity 16.
  const std::string text = Mutate(kMatmul, "%M = OpConstant %uint 16", "%M = OpConstant %uint 8");
  ExpectDeviceRule(text, H100(), "device.coop-matrix.type");
  EXPECT_RULE_AT(Check(text, H100()), "device.coop-matrix.type", "%half %uint_3 %uint_8");
}

TEST(DeviceRules, FlexibleDimensionsGranularity) {
  // 48 = 3 x 16: no fixed entry, but a multiple of every flexible granularity.
  const std::string text = Mutate(kMatmul, "%M = OpConstant %uint 16", "%M = OpConstant %uint 48");
  EXPECT_CLEAN(Check(text, H100()));
  const auto fixed_only =
      H100With([](DeviceProfile& p) { p.features.cooperativeMatrixFlexibleDimensions = false; });
  ExpectDeviceRule(text, fixed_only, "device.coop-matrix.type");
  EXPECT_RULE(Check(text, fixed_only), "device.coop-matrix.muladd");
  // 40 is no multiple of 16.
  const std::string forty = Mutate(kMatmul, "%M = OpConstant %uint 16", "%M = OpConstant %uint 40");
  ExpectDeviceRule(forty, H100(), "device.coop-matrix.type");
}

TEST(DeviceRules, FlexibleDimensionsMaximum) {
  const std::string text =
      Mutate(kMatmul, "%M = OpConstant %uint 16", "%M = OpConstant %uint 2048");
  ExpectDeviceRule(text, H100(), "device.coop-matrix.max-dimension");
}

TEST(DeviceRules, MulAddTypesNotOneEntry) {
  // Each type is in some entry (float16 accumulators too), but no entry takes a float32 C to a
  // float16 result.
  std::string text =
      Mutate(kMatmul, "%matC = OpTypeCooperativeMatrixKHR %float %scope %M %N %uint_2",
             "%matC = OpTypeCooperativeMatrixKHR %float %scope %M %N %uint_2\n"
             "%matR = OpTypeCooperativeMatrixKHR %half %scope %M %N %uint_2");
  text = Mutate(text, "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c",
                "%d = OpCooperativeMatrixMulAddKHR %matR %a %b %c");
  ExpectDeviceRule(text, H100(), "device.coop-matrix.muladd");
  EXPECT_FALSE(testing::HasRule(Check(text, H100()), "device.coop-matrix.type"));
}

TEST(DeviceRules, MulAddSaturatingAccumulationMustMatch) {
  // The int8 corpus module saturates; every H100 entry has saturatingAccumulation = false.
  const std::string text = ReadFile("test/data/corpus/khr_int8_saturating.spvasm");
  ExpectDeviceRule(text, H100(), "device.coop-matrix.muladd");
  const auto saturating = H100With([](DeviceProfile& p) {
    for (auto types :
         {std::pair{profile::ComponentType::kSint8, profile::ComponentType::kSint32},
          std::pair{profile::ComponentType::kUint8, profile::ComponentType::kUint32}}) {
      p.cooperativeMatrixProperties.push_back({16, 16, 32, types.first, types.first, types.second,
                                               types.second, true, profile::Scope::kSubgroup});
    }
  });
  EXPECT_CLEAN(Check(text, saturating));
}

TEST(DeviceRules, MulAddSignednessComesFromTheOperands) {
  const std::string text = ReadFile("test/data/corpus/khr_int8_saturating.spvasm");
  const std::string signed_line =
      "%123 = OpCooperativeMatrixMulAddKHR %11 %119 %120 %121 "
      "MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|"
      "MatrixResultSignedComponentsKHR|SaturatingAccumulationKHR";
  // B read as unsigned: sint8 x uint8 is no entry, even with saturating entries.
  const std::string mixed = Mutate(text, signed_line,
                                   "%123 = OpCooperativeMatrixMulAddKHR %11 %119 %120 %121 "
                                   "MatrixASignedComponentsKHR|MatrixCSignedComponentsKHR|"
                                   "MatrixResultSignedComponentsKHR|SaturatingAccumulationKHR");
  const auto saturating = H100With([](DeviceProfile& p) {
    for (auto& e : p.cooperativeMatrixProperties) e.saturatingAccumulation = true;
  });
  EXPECT_FALSE(testing::HasRule(Check(text, saturating), "device.coop-matrix.muladd"))
      << testing::Dump(Check(text, saturating));
  EXPECT_RULE(Check(mixed, saturating), "device.coop-matrix.muladd");
}

TEST(DeviceRules, WorkgroupScopeNeedsTheFeature) {
  const std::string text =
      Mutate(kMatmul, "%scope = OpConstant %uint 3", "%scope = OpConstant %uint 2");
  EXPECT_FALSE(testing::HasRule(Check(text, H100()), "device.coop-matrix.workgroup-scope"));
  ExpectDeviceRule(
      text, H100With([](DeviceProfile& p) { p.features.cooperativeMatrixWorkgroupScope = false; }),
      "device.coop-matrix.workgroup-scope");
}

TEST(DeviceRules, WorkgroupScopeSizeLimit) {
  std::string text = Mutate(kMatmul, "%scope = OpConstant %uint 3", "%scope = OpConstant %uint 2");
  EXPECT_CLEAN(Check(text, H100()));  // 32 invocations: the flexible entry for 32.
  text = Mutate(text, "OpExecutionMode %main LocalSize 32 1 1",
                "OpExecutionMode %main LocalSize 512 1 1");
  ExpectDeviceRule(text, H100(), "device.coop-matrix.workgroup-size");
}

TEST(DeviceRules, MatrixStages) {
  ExpectDeviceRule(kMatmul, H100With([](DeviceProfile& p) {
                     p.properties.cooperativeMatrixSupportedStages = 0x10;  // Fragment.
                   }),
                   "device.coop-matrix.stage");
  EXPECT_RULE_AT(Check(kMatmul, Lavapipe()), "device.coop-matrix.stage", "OpEntryPoint GLCompute");
}

TEST(DeviceRules, SpecConstantDimensionsAreNotGuessed) {
  // A size given by a spec constant may be specialized to any value: not an error.
  const std::string text =
      Mutate(kMatmul, "%M = OpConstant %uint 16", "%M = OpSpecConstant %uint 8");
  EXPECT_FALSE(testing::HasRule(Check(text, H100()), "device.coop-matrix.type"));
  EXPECT_FALSE(testing::HasRule(Check(text, H100()), "device.coop-matrix.muladd"));
}

// ---- Load / store alignment (VUID-...-08986 for KHR, -06324 for NV).

// A 16x16 float16 A matrix loaded from and stored to a float16 storage buffer (ArrayStride 2),
// RowMajor: a row is 32 bytes, so Pointer and Stride need 16-byte alignment.
constexpr const char* kLoadStore = R"(
OpCapability Shader
OpCapability Float16
OpCapability StorageBuffer16BitAccess
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %buf %wgid
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %rta ArrayStride 2
OpMemberDecorate %block 0 Offset 0
OpDecorate %block Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %wgid BuiltIn WorkgroupId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%half = OpTypeFloat 16
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%ptr_in = OpTypePointer Input %v3uint
%wgid = OpVariable %ptr_in Input
%uint_0 = OpConstant %uint 0
%uint_8 = OpConstant %uint 8
%uint_16 = OpConstant %uint 16
%index = OpConstant %uint 32
%stride = OpConstant %uint 16
%scope = OpConstant %uint 3
%rta = OpTypeRuntimeArray %half
%block = OpTypeStruct %rta
%ptr_block = OpTypePointer StorageBuffer %block
%ptr_half = OpTypePointer StorageBuffer %half
%buf = OpVariable %ptr_block StorageBuffer
%matA = OpTypeCooperativeMatrixKHR %half %scope %uint_16 %uint_16 %uint_0
%main = OpFunction %void None %fn
%entry = OpLabel
%id = OpLoad %v3uint %wgid
%x = OpCompositeExtract %uint %id 0
%dyn = OpIMul %uint %x %uint_8
%p = OpAccessChain %ptr_half %buf %uint_0 %index
%a = OpCooperativeMatrixLoadKHR %matA %p %uint_0 %stride
OpCooperativeMatrixStoreKHR %p %a %uint_0 %stride
OpReturn
OpFunctionEnd
)";

TEST(DeviceRules, LoadStoreAlignedIsClean) {
  EXPECT_CLEAN(Check(kLoadStore, H100()));
  EXPECT_CLEAN(Check(kLoadStore, BuiltInH100()));
  // A dynamic index (8 x the workgroup id, 16 bytes in fact) is not judged.
  EXPECT_CLEAN(Check(Mutate(kLoadStore, "%p = OpAccessChain %ptr_half %buf %uint_0 %index",
                            "%p = OpAccessChain %ptr_half %buf %uint_0 %dyn"),
                     H100()));
}

TEST(DeviceRules, LoadStoreStrideAlignment) {
  // 12 float16 elements: 24 bytes, no multiple of 16.
  const std::string text =
      Mutate(kLoadStore, "%stride = OpConstant %uint 16", "%stride = OpConstant %uint 12");
  for (const auto& device : {H100(), BuiltInH100(), Lavapipe()}) {
    ExpectDeviceRule(text, device, "device.coop-matrix.load-store-alignment");
  }
  EXPECT_RULE_AT(Check(text, H100()), "device.coop-matrix.load-store-alignment",
                 "OpCooperativeMatrixLoadKHR");
  EXPECT_RULE_AT(Check(text, H100()), "device.coop-matrix.load-store-alignment",
                 "OpCooperativeMatrixStoreKHR");
}

TEST(DeviceRules, LoadStorePointerAlignment) {
  // Element 36: byte 72, 8 past a 16-byte boundary.
  const std::string text =
      Mutate(kLoadStore, "%index = OpConstant %uint 32", "%index = OpConstant %uint 36");
  for (const auto& device : {H100(), BuiltInH100(), Lavapipe()}) {
    ExpectDeviceRule(text, device, "device.coop-matrix.load-store-alignment");
  }
  EXPECT_RULE(Check(text, H100()), "device.coop-matrix.load-store-alignment");
}

TEST(DeviceRules, LoadStoreColumnMajorUsesColumns) {
  // ColumnMajor 16x16: a column is 32 bytes as well; a Stride of 8 elements (16 bytes) is fine,
  // 4 elements (8 bytes) is not.
  std::string text = Mutate(kLoadStore, "%a = OpCooperativeMatrixLoadKHR %matA %p %uint_0 %stride",
                            "%a = OpCooperativeMatrixLoadKHR %matA %p %uint_1 %stride");
  text = Mutate(text, "OpCooperativeMatrixStoreKHR %p %a %uint_0 %stride",
                "OpCooperativeMatrixStoreKHR %p %a %uint_1 %stride");
  text = Mutate(text, "%uint_0 = OpConstant %uint 0",
                "%uint_0 = OpConstant %uint 0\n%uint_1 = OpConstant %uint 1");
  EXPECT_CLEAN(
      Check(Mutate(text, "%stride = OpConstant %uint 16", "%stride = OpConstant %uint 8"), H100()));
  ExpectDeviceRule(Mutate(text, "%stride = OpConstant %uint 16", "%stride = OpConstant %uint 4"),
                   H100(), "device.coop-matrix.load-store-alignment");
}

// ---- Workgroup memory (VUID-RuntimeSpirv-Workgroup-06530 and -maxComputeSharedMemorySize-10168).

// kMatmul with a Workgroup array of `floats` float32 values.
std::string WithShared(const std::string& text, int floats) {
  std::string out = Mutate(text, "OpEntryPoint GLCompute %main \"main\"",
                           "OpEntryPoint GLCompute %main \"main\" %shared");
  return Mutate(out, "%float_0 = OpConstant %float 0",
                "%float_0 = OpConstant %float 0\n%len = OpConstant %uint " +
                    std::to_string(floats) +
                    "\n%arr = OpTypeArray %float %len\n"
                    "%ptr_wg = OpTypePointer Workgroup %arr\n"
                    "%shared = OpVariable %ptr_wg Workgroup");
}

TEST(DeviceRules, SharedMemoryLimit) {
  // H100: 49152 bytes; lavapipe: 32768.
  EXPECT_CLEAN(Check(WithShared(kMatmul, 12288), H100()));
  ExpectDeviceRule(WithShared(kMatmul, 12289), H100(), "device.shared-memory");
  ExpectDeviceRule(WithShared(kMatmul, 12289), BuiltInH100(), "device.shared-memory");
  EXPECT_FALSE(
      testing::HasRule(Check(WithShared(kMatmul, 8192), Lavapipe()), "device.shared-memory"));
  ExpectDeviceRule(WithShared(kMatmul, 8193), Lavapipe(), "device.shared-memory");
  EXPECT_RULE_AT(Check(WithShared(kMatmul, 8193), Lavapipe()), "device.shared-memory",
                 "OpEntryPoint GLCompute");
}

TEST(DeviceRules, HugeWorkgroupArraysSaturate) {
  // 2^31 x 2^31 floats: 2^64 bytes, counted without overflowing, and reported.
  const std::string text =
      Mutate(WithShared(kMatmul, 1), "%arr = OpTypeArray %float %len",
             "%big = OpConstant %uint 2147483648\n%inner = OpTypeArray %float %big\n"
             "%arr = OpTypeArray %inner %big");
  ExpectDeviceRule(text, H100(), "device.shared-memory");
}

TEST(DeviceRules, WorkgroupScopeReservesSharedMemory) {
  // With Workgroup-scope matrices the H100 reserves 8192 of its 49152 bytes: 40960 are left.
  const std::string workgroup =
      Mutate(kMatmul, "%scope = OpConstant %uint 3", "%scope = OpConstant %uint 2");
  EXPECT_CLEAN(Check(WithShared(workgroup, 10240), H100()));
  for (const auto& device : {H100(), BuiltInH100()}) {
    ExpectDeviceRule(WithShared(workgroup, 10241), device,
                     "device.coop-matrix.workgroup-shared-memory");
  }
  // Subgroup scope: no reservation.
  EXPECT_CLEAN(Check(WithShared(kMatmul, 10241), H100()));
}

// ---- SPV_NV_cooperative_matrix against the NV property list.

// kMatmul in SPV_NV_cooperative_matrix: the same types without Use, OpCooperativeMatrixMulAddNV.
const std::string& MatmulNV() {
  static const std::string text = [] {
    std::string t =
        Mutate(kMatmul, "OpCapability CooperativeMatrixKHR", "OpCapability CooperativeMatrixNV");
    t = Mutate(t, "OpExtension \"SPV_KHR_cooperative_matrix\"",
               "OpExtension \"SPV_NV_cooperative_matrix\"");
    for (const char* m : {"A", "B", "C"}) {
      const std::string old_line = std::string("%mat") + m + " = OpTypeCooperativeMatrixKHR";
      const size_t at = t.find(old_line);
      const size_t end = t.find('\n', at);
      std::string line = t.substr(at, end - at);
      line.replace(0, old_line.size(), std::string("%mat") + m + " = OpTypeCooperativeMatrixNV");
      line.erase(line.rfind(' '));  // The Use operand.
      t = Mutate(t, t.substr(at, end - at), line);
    }
    return Mutate(t, "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c",
                  "%d = OpCooperativeMatrixMulAddNV %matC %a %b %c");
  }();
  return text;
}

TEST(DeviceRules, NVMatmulIsClean) {
  EXPECT_CLEAN(Check(MatmulNV(), H100()));
  EXPECT_CLEAN(Check(MatmulNV(), BuiltInH100()));
}

TEST(DeviceRules, NVMatrixStages) {
  // VUID-RuntimeSpirv-OpTypeCooperativeMatrixNV-06322 against the NV structure's stages, when
  // the profile gives them; the KHR list does not apply to NV matrices.
  const auto nv_fragment_only = H100With([](DeviceProfile& p) {
    p.properties.cooperativeMatrixSupportedStagesNV = 0x10;  // Fragment.
  });
  ExpectDeviceRule(MatmulNV(), nv_fragment_only, "device.coop-matrix-nv.stage");
  EXPECT_RULE_AT(Check(MatmulNV(), nv_fragment_only), "device.coop-matrix-nv.stage",
                 "OpEntryPoint GLCompute");
  EXPECT_CLEAN(Check(MatmulNV(), H100With([](DeviceProfile& p) {
                       p.properties.cooperativeMatrixSupportedStagesNV = 0x20;  // Compute.
                       p.properties.cooperativeMatrixSupportedStages = 0x10;
                     })));
  // A profile without the key (written before it): unknown, so not checked.
  EXPECT_CLEAN(Check(MatmulNV(), H100With([](DeviceProfile& p) {
                       p.properties.cooperativeMatrixSupportedStagesNV.reset();
                     })));
  // The built-in H100 profile gives compute only, as its driver reports.
  const auto h100 = profile::BuiltIn("h100");
  ASSERT_TRUE(h100.has_value());
  EXPECT_EQ(h100->properties.cooperativeMatrixSupportedStagesNV, std::optional<uint32_t>(0x20));
}

TEST(DeviceRules, NVMatrixTypeNotInTheList) {
  // No NV entry has M = 8.
  const std::string text =
      Mutate(MatmulNV(), "%M = OpConstant %uint 16", "%M = OpConstant %uint 8");
  for (const auto& device : {H100(), BuiltInH100()}) {
    ExpectDeviceRule(text, device, "device.coop-matrix-nv.type");
  }
  EXPECT_RULE_AT(Check(text, H100()), "device.coop-matrix-nv.type", "%half %uint_3 %uint_8");
  // The KHR list has bfloat16; the NV list does not.
  const auto no_nv = H100With([](DeviceProfile& p) { p.cooperativeMatrixPropertiesNV.clear(); });
  ExpectDeviceRule(MatmulNV(), no_nv, "device.coop-matrix-nv.type");
  // Lavapipe has no VK_NV_cooperative_matrix: the capability is what it refuses.
  ExpectDeviceRule(MatmulNV(), Lavapipe(), "device.capability");
  EXPECT_FALSE(testing::HasRule(Check(text, Lavapipe()), "device.coop-matrix-nv.type"));
}

TEST(DeviceRules, NVMulAddNotOneEntry) {
  // float32 C to a float16 D: every type is in some entry, the combination in none.
  std::string text = Mutate(MatmulNV(), "%matC = OpTypeCooperativeMatrixNV %float %scope %M %N",
                            "%matC = OpTypeCooperativeMatrixNV %float %scope %M %N\n"
                            "%matR = OpTypeCooperativeMatrixNV %half %scope %M %N");
  text = Mutate(text, "%d = OpCooperativeMatrixMulAddNV %matC %a %b %c",
                "%d = OpCooperativeMatrixMulAddNV %matR %a %b %c");
  for (const auto& device : {H100(), BuiltInH100()}) {
    ExpectDeviceRule(text, device, "device.coop-matrix-nv.muladd");
    EXPECT_FALSE(testing::HasRule(Check(text, device), "device.coop-matrix-nv.type"));
  }
}

// ---- Cooperative vectors.

const std::string& Mlp() {
  static const std::string text = ReadFile("test/data/corpus/coopvec_mlp_f16.spvasm");
  return text;
}

TEST(DeviceRules, MlpIsCleanOnH100Like) { EXPECT_CLEAN(Check(Mlp(), H100())); }

TEST(DeviceRules, VectorComponentCount) {
  const std::string text = Mutate(Mlp(), "%19 = OpTypeCooperativeVectorNV %half %IN_DIM",
                                  "%19 = OpTypeCooperativeVectorNV %half %IN_DIM\n"
                                  "%uint_600 = OpConstant %uint 600\n"
                                  "%wide = OpTypeCooperativeVectorNV %half %uint_600");
  ExpectDeviceRule(text, H100(), "device.coop-vector.components");
  EXPECT_RULE_AT(Check(text, H100()), "device.coop-vector.components", "%half %uint_600");
}

TEST(DeviceRules, VectorComponentType) {
  // Only the int8 entries: float16 is no inputType or resultType.
  const auto int8_only = H100With([](DeviceProfile& p) {
    std::erase_if(p.cooperativeVectorProperties, [](const auto& e) {
      return e.inputType == profile::ComponentType::kFloat16 ||
             e.resultType == profile::ComponentType::kFloat16;
    });
  });
  ExpectDeviceRule(Mlp(), int8_only, "device.coop-vector.type");
}

TEST(DeviceRules, VectorMatrixMulCombination) {
  // float16 stays an input type (the fp8 entries), but no entry has a float16 matrix.
  const auto no_f16_matrix = H100With([](DeviceProfile& p) {
    std::erase_if(p.cooperativeVectorProperties, [](const auto& e) {
      return e.matrixInterpretation == profile::ComponentType::kFloat16;
    });
  });
  ExpectDeviceRule(Mlp(), no_f16_matrix, "device.coop-vector.matmul");
  EXPECT_FALSE(testing::HasRule(Check(Mlp(), no_f16_matrix), "device.coop-vector.type"));
}

TEST(DeviceRules, VectorMatrixMulTranspose) {
  std::string text =
      Mutate(Mlp(), "%bool = OpTypeBool", "%bool = OpTypeBool\n%true = OpConstantTrue %bool");
  text = Mutate(text,
                "%66 = OpCooperativeVectorMatrixMulAddNV %38 %41 %int_0 %47 %53 %int_0 %54 %57 "
                "%int_0 %58 %59 %WLayout %false %65",
                "%66 = OpCooperativeVectorMatrixMulAddNV %38 %41 %int_0 %47 %53 %int_0 %54 %57 "
                "%int_0 %58 %59 %WLayout %true %65");
  EXPECT_CLEAN(Check(text, H100()));  // The float16 entry allows transpose.
  ExpectDeviceRule(text, H100With([](DeviceProfile& p) {
                     for (auto& e : p.cooperativeVectorProperties) e.transpose = false;
                   }),
                   "device.coop-vector.matmul");
}

TEST(DeviceRules, VectorStages) {
  ExpectDeviceRule(Mlp(), H100With([](DeviceProfile& p) {
                     p.properties.cooperativeVectorSupportedStages = 0x1;  // Vertex.
                   }),
                   "device.coop-vector.stage");
}

TEST(DeviceRules, TrainingAccumulation) {
  // coopvec_training accumulates float32 outer products; the H100 has no float32 accumulation.
  const std::string text = ReadFile("test/data/corpus/coopvec_training.spvasm");
  ExpectDeviceRule(text, H100(), "device.coop-vector.training-accumulation");
  EXPECT_RULE_AT(Check(text, H100()), "device.coop-vector.training-accumulation",
                 "OpCooperativeVectorOuterProductAccumulateNV");
  EXPECT_CLEAN(Check(text, H100With([](DeviceProfile& p) {
                       p.properties.cooperativeVectorTrainingFloat32Accumulation = true;
                     })));
}

TEST(DeviceRules, TrainingNeedsTheFeature) {
  const std::string text = ReadFile("test/data/corpus/coopvec_training.spvasm");
  const Result r = Check(text, H100With([](DeviceProfile& p) {
                           p.features.cooperativeVectorTraining = false;
                           p.properties.cooperativeVectorTrainingFloat32Accumulation = true;
                         }));
  EXPECT_RULE_AT(r, "device.capability", "CooperativeVectorTrainingNV");
}

// ---- The corpus: no false errors for a device that has everything a module needs.

struct CorpusModule {
  std::string file, env;
};

std::vector<CorpusModule> Corpus() {
  std::istringstream manifest(ReadFile("test/data/corpus/MANIFEST.tsv"));
  std::vector<CorpusModule> out;
  std::string line;
  std::getline(manifest, line);  // Header.
  while (std::getline(manifest, line)) {
    std::istringstream fields(line);
    CorpusModule m;
    std::string bytes, version;
    std::getline(fields, m.file, '\t');
    std::getline(fields, bytes, '\t');
    std::getline(fields, version, '\t');
    std::getline(fields, m.env, '\t');
    if (!m.file.empty()) out.push_back(m);
  }
  return out;
}

Result CheckCorpus(const CorpusModule& m, std::shared_ptr<const DeviceProfile> device) {
  Options options;
  options.env = *ParseTargetEnv(m.env);
  options.device_profile = std::move(device);
  return testing::ValidateText(ReadFile("test/data/corpus/" + m.file), options);
}

TEST(DeviceCorpus, EveryModuleIsCleanForADeviceWithEverything) {
  const auto device = Load("test/profile/data/every_feature.json");
  const auto corpus = Corpus();
  ASSERT_GE(corpus.size(), 29u);
  for (const auto& m : corpus) {
    SCOPED_TRACE(m.file);
    EXPECT_CLEAN(CheckCorpus(m, device));
  }
}

TEST(DeviceCorpus, H100LikeRefusesExactlyWhatTheH100Lacks) {
  // What ../shared/gpu/README.md says the H100 lacks: decode-vector, ARM layouts, float8, float32
  // training accumulation, saturating accumulation. Every other module is clean.
  const std::pair<const char*, const char*> refused[] = {
      {"cm2_decode_vector", "device.extension"},
      {"khr_arm_layouts", "device.coop-matrix.type"},
      {"khr_bf16_fp8", "device.capability"},
      {"coopvec_training", "device.coop-vector.training-accumulation"},
      {"khr_int8_saturating", "device.coop-matrix.muladd"},
  };
  for (const auto& device : {H100(), BuiltInH100()}) {
    ASSERT_NE(device, nullptr);
    SCOPED_TRACE(device->deviceName);
    for (const auto& m : Corpus()) {
      SCOPED_TRACE(m.file);
      const Result r = CheckCorpus(m, device);
      const char* expected = nullptr;
      for (const auto& [prefix, rule] : refused) {
        if (m.file.rfind(prefix, 0) == 0) expected = rule;
      }
      if (expected == nullptr) {
        EXPECT_CLEAN(r);
      } else {
        EXPECT_RULE(r, expected);
      }
    }
  }
}

TEST(DeviceRules, BuiltInH100AgreesWithH100Like) {
  // The per-rule modules that the unchanged H100-like profile refuses: the measured profile
  // refuses them for the same rule, and accepts the supported matmul.
  ASSERT_NE(BuiltInH100(), nullptr);
  EXPECT_CLEAN(Check(kMatmul, BuiltInH100()));
  EXPECT_CLEAN(Check(Mlp(), BuiltInH100()));
  const std::pair<std::string, const char*> cases[] = {
      {Mutate(kMatmul, "%M = OpConstant %uint 16", "%M = OpConstant %uint 8"),
       "device.coop-matrix.type"},
      {Mutate(kMatmul, "%M = OpConstant %uint 16", "%M = OpConstant %uint 2048"),
       "device.coop-matrix.max-dimension"},
      {Mutate(Mutate(kMatmul, "%scope = OpConstant %uint 3", "%scope = OpConstant %uint 2"),
              "OpExecutionMode %main LocalSize 32 1 1", "OpExecutionMode %main LocalSize 512 1 1"),
       "device.coop-matrix.workgroup-size"},
      {WithDeclarations("OpCapability BFloat16TypeKHR\nOpCapability BFloat16DotProductKHR",
                        "OpExtension \"SPV_KHR_bfloat16\""),
       "device.capability"},
      {WithDeclarations("OpCapability Float8EXT", "OpExtension \"SPV_EXT_float8\""),
       "device.extension"},
      {ReadFile("test/data/corpus/coopvec_training.spvasm"),
       "device.coop-vector.training-accumulation"},
  };
  for (const auto& [text, rule] : cases) {
    SCOPED_TRACE(rule);
    EXPECT_RULE(Check(text, H100()), rule);
    EXPECT_RULE(Check(text, BuiltInH100()), rule);
  }
  // 48 rows: a multiple of the flexible granularities on both.
  EXPECT_CLEAN(Check(Mutate(kMatmul, "%M = OpConstant %uint 16", "%M = OpConstant %uint 48"),
                     BuiltInH100()));
}

TEST(DeviceCorpus, LavapipeRefusesEveryCooperativeModule) {
  for (const auto& m : Corpus()) {
    SCOPED_TRACE(m.file);
    EXPECT_RULE(CheckCorpus(m, Lavapipe()), "device.capability");
  }
}

// Debug info needs its Vulkan extensions too (glslang -gV on a device without
// VK_KHR_shader_relaxed_extended_instruction: the driver would fail the pipeline).
TEST(DeviceExtension, RelaxedExtendedInstructionNeedsItsDeviceExtension) {
  const std::string text = R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
OpExtension "SPV_KHR_relaxed_extended_instruction"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%ptr = OpExtInstWithForwardRefsKHR %void %dbg DebugTypePointer %none %uint_0 %uint_0
%none = OpExtInst %void %dbg DebugInfoNone
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_RULE_AT(Check(text, H100With([](DeviceProfile&) {})), "device.extension",
                 "SPV_KHR_relaxed_extended_instruction", "VK_KHR_shader_relaxed_extended_instruction");
  EXPECT_CLEAN(Check(text, H100With([](DeviceProfile& p) {
    p.extensions.push_back("VK_KHR_shader_relaxed_extended_instruction");
    std::sort(p.extensions.begin(), p.extensions.end());
  })));
}

}  // namespace
}  // namespace coopspv::val
