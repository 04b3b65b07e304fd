// VK_LAYER_coopspv's module work without a device: the cache keys, verdicts read back, the
// specialization read from a VkSpecializationInfo, the emulated shapes, the capability scan.
#include "source/layer/shaders.h"

#include <gtest/gtest.h>

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
  EXPECT_EQ(EmulatedMatrixShapes(lavapipe).size(), 10u);  // 6 float16, 4 int8.
  EXPECT_EQ(EmulatedFlexibleDimensions(lavapipe).size(), 20u);
  lavapipe.features.shaderInt8 = false;
  EXPECT_EQ(EmulatedMatrixShapes(lavapipe).size(), 6u);
  lavapipe.features.shaderFloat16 = false;
  EXPECT_TRUE(EmulatedMatrixShapes(lavapipe).empty());

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
}

}  // namespace
}  // namespace coopspv::layer
