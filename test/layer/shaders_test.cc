// VK_LAYER_coopspv's module work without a device: the cache keys, verdicts read back, the
// specialization read from a VkSpecializationInfo, the emulated shapes, the capability scan.
#include "source/layer/shaders.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "source/layer/cache.h"
#include "source/layer/emulate.h"
#include "source/profile/device_profile.h"

namespace coopspv::layer {
namespace {

TEST(Hasher, EveryAddCounts) {
  auto key = [](std::initializer_list<std::string> parts) {
    Hasher h;
    for (const std::string& p : parts) h.Add(p);
    return h.Finish();
  };
  EXPECT_EQ(key({"ab", "c"}), key({"ab", "c"}));
  EXPECT_NE(key({"ab", "c"}), key({"a", "bc"}));
  EXPECT_NE(key({"abcdefgh1"}), key({"abcdefgh2"}));
  EXPECT_NE(key({""}), key({}));
  EXPECT_EQ(key({"x"}).Hex().size(), 32u);
}

// The build's own hash: read from this binary (the test links the layer's code), the same on
// every call, and part of a module's key.
TEST(BuildKey, HashesThisBinaryOnce) {
  const CacheKey& key = BuildKey();
  EXPECT_NE(key, CacheKey{});
  EXPECT_EQ(&key, &BuildKey());
  const std::vector<uint32_t> words = {0x07230203, 0x00010600, 0, 8, 0};
  Hasher without_build;
  without_build.Add(Version());
  const CacheKey words_key = HashBytes(words.data(), words.size() * 4);
  without_build.Add(&words_key, sizeof(words_key));
  EXPECT_NE(ModuleKey(words), without_build.Finish());
}

TEST(HashBytes, EveryByteAndTheLengthCount) {
  std::vector<uint32_t> words(1000);
  for (size_t i = 0; i < words.size(); ++i) words[i] = static_cast<uint32_t>(i * 2654435761u);
  const CacheKey key = HashBytes(words.data(), words.size() * 4);
  EXPECT_EQ(key, HashBytes(words.data(), words.size() * 4));
  // A word in each of the four lanes, and one in the tail past the last 32-byte stripe.
  for (size_t i : {0, 1, 2, 3, 7, 500, 998, 999}) {
    std::vector<uint32_t> changed = words;
    changed[i] ^= 1u << (i % 32);
    EXPECT_NE(HashBytes(changed.data(), changed.size() * 4), key) << i;
    EXPECT_NE(ModuleKey(changed), ModuleKey(words)) << i;
  }
  EXPECT_NE(HashBytes(words.data(), 3996), key);
  EXPECT_NE(HashBytes(words.data(), 0), HashBytes(words.data(), 4));
  std::vector<uint32_t> zeros(8, 0);
  EXPECT_NE(HashBytes(zeros.data(), 28), HashBytes(zeros.data(), 32));
}

TEST(Cache, ParsedEntriesInMemory) {
  Cache& cache = Cache::ForDirectory("");
  const CacheKey key{3, 4};
  EXPECT_EQ(cache.FindParsed<Verdict>(key, "verdict"), nullptr);
  auto v = std::make_shared<Verdict>();
  v->valid = false;
  cache.PutParsed(key, "verdict", v);
  EXPECT_EQ(cache.FindParsed<Verdict>(key, "verdict"), v);
  EXPECT_EQ(cache.FindParsed<Verdict>(key, "spv"), nullptr);
  EXPECT_EQ(cache.FindParsed<Verdict>({3, 5}, "verdict"), nullptr);
}

TEST(Cache, MemoryAndDirectory) {
  const std::string dir = std::string(getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp") +
                          "/coopspv_layer_cache_test";
  std::remove((dir + "/00000000000000010000000000000002.verdict").c_str());
  Cache& cache = Cache::ForDirectory(dir);
  EXPECT_EQ(&cache, &Cache::ForDirectory(dir));
  const CacheKey key{1, 2};
  bool from_disk = true;
  EXPECT_FALSE(cache.Find(key, "verdict", &from_disk));
  cache.Put(key, "verdict", "bytes");
  EXPECT_EQ(cache.Find(key, "verdict", &from_disk).value_or(""), "bytes");
  EXPECT_FALSE(from_disk);
  EXPECT_FALSE(cache.Find(key, "spv", &from_disk));
  // Another directory object over the same files (another process) finds it on disk.
  Cache& again = Cache::ForDirectory(dir + "/.");
  EXPECT_EQ(again.Find(key, "verdict", &from_disk).value_or(""), "bytes");
  EXPECT_TRUE(from_disk);
}

TEST(Verdict, ReadsBack) {
  Verdict v;
  v.valid = false;
  ValidationDiagnostic d;
  d.rule_id = "device.coop-matrix.type";
  d.message = "a\ttab, a\nnewline and a \\ backslash";
  d.clause = "VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163";
  d.has_instruction = true;
  d.instruction = "%13 = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8 %uint_8 %uint_2";
  v.diagnostics.push_back(d);
  d.is_error = false;
  d.has_instruction = false;
  d.instruction.clear();
  v.diagnostics.push_back(d);
  Verdict back;
  ASSERT_TRUE(DeserializeVerdict(SerializeVerdict(v), &back));
  EXPECT_FALSE(back.valid);
  ASSERT_EQ(back.diagnostics.size(), 2u);
  EXPECT_TRUE(back.diagnostics[0].is_error);
  EXPECT_FALSE(back.diagnostics[1].is_error);
  EXPECT_EQ(back.diagnostics[0].message, d.message);
  EXPECT_EQ(back.diagnostics[0].instruction, v.diagnostics[0].instruction);
  EXPECT_TRUE(back.diagnostics[0].has_instruction);
  EXPECT_FALSE(DeserializeVerdict("garbage\n", &back));
  EXPECT_FALSE(DeserializeVerdict("coopspv-layer-verdict 1\nvalid 1\nE\tonly two\n", &back));
}

TEST(Specialization, MapEntriesAsValues) {
  const uint8_t data[] = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 7, 0, 0, 0, 0, 0, 0, 0};
  const VkSpecializationMapEntry entries[] = {
      {0, 0, 4}, {3, 4, 4}, {5, 8, 8}, {6, 12, 8} /* past the data */, {7, 0, 3} /* size 3 */};
  const VkSpecializationInfo info{5, entries, sizeof(data), data};
  const std::vector<run::SpecConstant> spec = SpecConstantsOf(&info);
  ASSERT_EQ(spec.size(), 3u);
  EXPECT_EQ(spec[0].id, 0u);
  EXPECT_EQ(spec[0].value.bits, 1u);
  EXPECT_EQ(spec[1].value.bits, 0xffffffffu);
  EXPECT_EQ(spec[1].type.bits, 32u);
  EXPECT_EQ(spec[2].value.bits, 7u);
  EXPECT_EQ(spec[2].type.bits, 64u);
  EXPECT_TRUE(SpecConstantsOf(nullptr).empty());
}

TEST(Emulate, ShapesFollowTheDevicesTypes) {
  profile::DeviceProfile lavapipe = *profile::BuiltIn("lavapipe");
  // On lavapipe's subgroups of 8, 8x8xK first: 8 float16, 6 int8 and the same 6 saturating.
  EXPECT_EQ(EmulatedMatrixShapes(lavapipe, Emulation{}).size(), 20u);
  EXPECT_EQ(EmulatedMatrixShapes(lavapipe, Emulation{}).front().MSize, 8u);
  Emulation bf16;
  bf16.bfloat16 = true;
  // And 4 bfloat16 into float32.
  const auto with_bf16 = EmulatedMatrixShapes(lavapipe, bf16);
  ASSERT_EQ(with_bf16.size(), 24u);
  EXPECT_EQ(std::count_if(with_bf16.begin(), with_bf16.end(),
                          [](const profile::CooperativeMatrixProperties& m) {
                            return m.AType == profile::ComponentType::kBFloat16 &&
                                   m.ResultType == profile::ComponentType::kFloat32;
                          }),
            4);
  EXPECT_EQ(std::count_if(with_bf16.begin(), with_bf16.end(),
                          [](const profile::CooperativeMatrixProperties& m) {
                            return m.saturatingAccumulation;
                          }),
            6);
  // NV: no bfloat16, no saturating accumulation.
  EXPECT_EQ(EmulatedMatrixShapesNV(lavapipe).size(), 14u);
  // Five granularities of 2 float16 and 4 8-bit integer type sets.
  EXPECT_EQ(EmulatedFlexibleDimensions(lavapipe, Emulation{}).size(), 30u);
  lavapipe.features.shaderInt8 = false;
  EXPECT_EQ(EmulatedMatrixShapes(lavapipe, Emulation{}).size(), 8u);
  // Subgroups of 16 or more: NVIDIA's shapes only (16x16x16, 16x8x16, 16x8x8 per type set).
  profile::DeviceProfile wide = lavapipe;
  wide.properties.subgroupSize = 32;
  EXPECT_EQ(EmulatedMatrixShapes(wide, Emulation{}).size(), 6u);
  EXPECT_EQ(EmulatedMatrixShapes(wide, Emulation{}).front().MSize, 16u);
  lavapipe.features.shaderFloat16 = false;
  EXPECT_TRUE(EmulatedMatrixShapes(lavapipe, Emulation{}).empty());
  EXPECT_TRUE(EmulatedMatrixShapesNV(lavapipe).empty());

  const profile::DeviceProfile seen =
      Advertised(*profile::BuiltIn("lavapipe"), Emulation{true, true});
  EXPECT_TRUE(seen.HasExtension(kKhrCooperativeMatrix));
  EXPECT_TRUE(seen.HasExtension(kNvCooperativeMatrix2));
  EXPECT_TRUE(std::is_sorted(seen.extensions.begin(), seen.extensions.end()));
  EXPECT_TRUE(seen.features.cooperativeMatrix && seen.features.cooperativeMatrixWorkgroupScope);
  EXPECT_EQ(seen.properties.cooperativeMatrixWorkgroupScopeReservedSharedMemory, 8192u);
  // It reads back as a profile.
  std::string error;
  EXPECT_TRUE(profile::Parse(profile::Write(seen), &error)) << error;
  EXPECT_FALSE(seen.HasExtension(kNvCooperativeMatrix) || seen.HasExtension(kKhrShaderBfloat16));
  Emulation all;
  all.matrices = all.matrix2 = all.matrices_nv = all.bfloat16 = true;
  const profile::DeviceProfile all_seen = Advertised(*profile::BuiltIn("lavapipe"), all);
  EXPECT_TRUE(all_seen.HasExtension(kNvCooperativeMatrix));
  EXPECT_TRUE(all_seen.HasExtension(kKhrShaderBfloat16));
  EXPECT_TRUE(all_seen.features.shaderBFloat16Type &&
              all_seen.features.shaderBFloat16CooperativeMatrix);
  EXPECT_EQ(all_seen.properties.cooperativeMatrixSupportedStagesNV.value_or(0),
            static_cast<uint32_t>(VK_SHADER_STAGE_COMPUTE_BIT));
  EXPECT_EQ(all_seen.cooperativeMatrixPropertiesNV.size(), 14u);
  EXPECT_TRUE(profile::Parse(profile::Write(all_seen), &error)) << error;

  profile::DeviceProfile h100 = *profile::BuiltIn("h100");
  RemoveNativeMatrices(&h100);
  RemoveNativeMatrix2(&h100);
  EXPECT_FALSE(h100.HasExtension(kKhrCooperativeMatrix) ||
               h100.HasExtension(kNvCooperativeMatrix2));
  EXPECT_TRUE(h100.cooperativeMatrixProperties.empty());
  EXPECT_FALSE(h100.features.cooperativeMatrixWorkgroupScope);
}

TEST(Emulate, CapabilityScan) {
  // Header, OpCapability Shader, OpCapability CooperativeMatrixKHR, OpMemoryModel.
  std::vector<uint32_t> words = {0x07230203, 0x00010600,      0, 10,
                                 0,          (2u << 16) | 17, 1, (2u << 16) | 17,
                                 6022,       (3u << 16) | 14, 0, 3};
  EXPECT_TRUE(DeclaresKhrMatrices(words));
  words[8] = 6023;
  EXPECT_FALSE(DeclaresKhrMatrices(words));
  EXPECT_FALSE(DeclaresKhrMatrices(std::vector<uint32_t>{0x07230203, 0, 0, 0, 0, 0}));

  // What needs the emulation: KHR matrices where KHR matrices or matrix2 are emulated, NV
  // matrices where they are, bfloat16 where it is.
  Emulation nv;
  nv.matrices_nv = true;
  Emulation khr;
  khr.matrices = true;
  words[8] = 6022;
  EXPECT_TRUE(NeedsMatrixEmulation(words, khr));
  EXPECT_FALSE(NeedsMatrixEmulation(words, nv));
  words[8] = 5357;  // CooperativeMatrixNV.
  EXPECT_TRUE(NeedsMatrixEmulation(words, nv));
  EXPECT_FALSE(NeedsMatrixEmulation(words, khr));
  words[8] = 5116;  // BFloat16TypeKHR.
  EXPECT_FALSE(NeedsMatrixEmulation(words, khr));
  khr.bfloat16 = true;
  EXPECT_TRUE(NeedsMatrixEmulation(words, khr));
}

// A GLCompute module's first sections, word by word: capabilities, OpMemoryModel, the entry
// point %1 "main", its LocalSize, then `rest` (decorations, types, ...).
std::vector<uint32_t> ComputeModule(std::vector<uint32_t> capabilities,
                                    std::vector<uint32_t> rest) {
  std::vector<uint32_t> w = {0x07230203, 0x00010600, 0, 100, 0};
  for (uint32_t c : capabilities) w.insert(w.end(), {(2u << 16) | 17, c});
  w.insert(w.end(), {(3u << 16) | 14, 0, 3});                           // Logical Vulkan.
  w.insert(w.end(), {(5u << 16) | 15, 5, 1, 0x6e69616d, 0});              // GLCompute %1 "main".
  w.insert(w.end(), {(6u << 16) | 16, 1, 17, 32, 1, 1});                  // LocalSize 32 1 1.
  w.insert(w.end(), rest.begin(), rest.end());
  return w;
}

TEST(Emulate, IdenticalInvocations) {
  const uint32_t shader = 1, khr = 6022;
  // WorkgroupId alone: the 32 invocations do the same work.
  const std::vector<uint32_t> workgroup_id = {(4u << 16) | 71, 7, 11, 26};
  EXPECT_EQ(IdenticalInvocations(ComputeModule({shader, khr}, workgroup_id)), 32u);
  // LocalInvocationId (27) tells them apart; so would a member built-in.
  EXPECT_EQ(IdenticalInvocations(ComputeModule({shader, khr}, {(4u << 16) | 71, 7, 11, 27})), 0u);
  EXPECT_EQ(IdenticalInvocations(ComputeModule({shader}, {(5u << 16) | 72, 7, 0, 11, 26})), 0u);
  // Subgroup operations (GroupNonUniform) and atomics (OpAtomicIAdd) too.
  EXPECT_EQ(IdenticalInvocations(ComputeModule({shader, 61}, {})), 0u);
  EXPECT_EQ(IdenticalInvocations(ComputeModule({shader}, {(7u << 16) | 234, 2, 3, 4, 5, 6, 7})),
            0u);
  // A Subgroup-scope matrix (scope %9 = OpConstant 3) is fine, a Workgroup-scope one (2) or one
  // whose scope is no OpConstant is not.
  auto matrix = [](uint32_t scope_value) {
    return std::vector<uint32_t>{(4u << 16) | 43, 8, 9, scope_value,
                                 (7u << 16) | 4456, 10, 11, 9, 12, 12, 2};
  };
  EXPECT_EQ(IdenticalInvocations(ComputeModule({shader, khr}, matrix(3))), 32u);
  EXPECT_EQ(IdenticalInvocations(ComputeModule({shader, khr}, matrix(2))), 0u);
  std::vector<uint32_t> spec_scope = matrix(3);
  spec_scope[0] = (4u << 16) | 50;  // OpSpecConstant.
  EXPECT_EQ(IdenticalInvocations(ComputeModule({shader, khr}, spec_scope)), 0u);

  // The LocalSize becomes x 1 1, and nothing else changes.
  const std::vector<uint32_t> words = ComputeModule({shader, khr}, matrix(3));
  const std::vector<uint32_t> narrowed = WithLocalSize(words, 8);
  ASSERT_EQ(narrowed.size(), words.size());
  EXPECT_EQ(IdenticalInvocations(narrowed), 8u);
  size_t changed = 0;
  for (size_t i = 0; i < words.size(); ++i) changed += words[i] != narrowed[i];
  EXPECT_EQ(changed, 1u);
}

}  // namespace
}  // namespace coopspv::layer
