// The emulated VK_NV_cooperative_vector without a device: vkConvertCooperativeVectorMatrixNV on
// the host (size queries, VK_INCOMPLETE, layouts, strides, component conversions, refusals), the
// advertised combinations and properties, the lowering's argument, the capability scan.
#include "source/layer/emulate_coopvec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "source/layer/emulate.h"
#include "source/profile/device_profile.h"

namespace coopspv::layer {
namespace {

using profile::ComponentType;

constexpr uint32_t kF16 = 0, kF32 = 1, kS8 = 3, kU8 = 7, kE4M3 = 1000491002, kE5M2 = 1000491003;
constexpr uint32_t kRow = 0, kCol = 1, kInferencing = 2, kTraining = 3;

run::ConvertCooperativeVectorMatrixInfoNV Info(const void* src, size_t src_size, void* dst,
                                               size_t* dst_size, uint32_t src_type,
                                               uint32_t dst_type, uint32_t rows, uint32_t columns,
                                               uint32_t src_layout, size_t src_stride,
                                               uint32_t dst_layout, size_t dst_stride) {
  run::ConvertCooperativeVectorMatrixInfoNV info{};
  info.sType = run::kConvertCooperativeVectorMatrixInfoNV;
  info.srcSize = src_size;
  info.srcData.hostAddress = src;
  info.pDstSize = dst_size;
  info.dstData.hostAddress = dst;
  info.srcComponentType = src_type;
  info.dstComponentType = dst_type;
  info.numRows = rows;
  info.numColumns = columns;
  info.srcLayout = src_layout;
  info.srcStride = src_stride;
  info.dstLayout = dst_layout;
  info.dstStride = dst_stride;
  return info;
}

TEST(ConvertMatrixOnHost, SizeQueryThenConversionIntoTheOptimalLayout) {
  // 2 x 3 int8, row-major with a stride of 4 bytes (one byte of padding per row).
  const std::vector<int8_t> src = {1, 2, 3, 99, 4, 5, 6, 99};
  size_t size = 0;
  std::string error;
  auto query = Info(nullptr, 0, nullptr, &size, kS8, kS8, 2, 3, kRow, 4, kInferencing, 0);
  ASSERT_EQ(ConvertMatrixOnHost(query, &error), VK_SUCCESS) << error;
  EXPECT_EQ(size, 6u);  // The optimal layout: row-major, tight.
  std::vector<int8_t> dst(8, 0);
  auto convert =
      Info(src.data(), src.size(), dst.data(), &size, kS8, kS8, 2, 3, kRow, 4, kInferencing, 0);
  ASSERT_EQ(ConvertMatrixOnHost(convert, &error), VK_SUCCESS) << error;
  EXPECT_EQ(size, 6u);
  EXPECT_EQ(dst, (std::vector<int8_t>{1, 2, 3, 4, 5, 6, 0, 0}));
  // And back, column-major with a stride of 2: (r, c) at c * 2 + r.
  std::vector<int8_t> back(6, 0);
  size = back.size();
  auto column = Info(dst.data(), 6, back.data(), &size, kS8, kS8, 2, 3, kTraining, 0, kCol, 2);
  ASSERT_EQ(ConvertMatrixOnHost(column, &error), VK_SUCCESS) << error;
  EXPECT_EQ(back, (std::vector<int8_t>{1, 4, 2, 5, 3, 6}));
  // A row-major destination's size: the last row whole, the others a stride apart.
  auto strided = Info(nullptr, 0, nullptr, &size, kS8, kS8, 2, 3, kRow, 0, kRow, 16);
  ASSERT_EQ(ConvertMatrixOnHost(strided, &error), VK_SUCCESS) << error;
  EXPECT_EQ(size, 16u + 3u);
}

TEST(ConvertMatrixOnHost, TooSmallADestinationIsIncompleteAndUntouched) {
  const std::vector<int8_t> src = {1, 2, 3, 4};
  std::vector<int8_t> dst(4, 7);
  size_t size = 3;
  std::string error;
  auto info = Info(src.data(), 4, dst.data(), &size, kU8, kU8, 2, 2, kRow, 0, kInferencing, 0);
  EXPECT_EQ(ConvertMatrixOnHost(info, &error), VK_INCOMPLETE);
  EXPECT_EQ(dst, (std::vector<int8_t>{7, 7, 7, 7}));
  EXPECT_TRUE(error.empty());
}

TEST(ConvertMatrixOnHost, FloatConversionsRoundToNearestEvenAndFloat8Saturates) {
  // float32 -> float16: 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to even (1).
  const std::vector<float> f32 = {1.0f, 1.0f + 0x1p-11f, -2.5f, 1e6f};
  std::vector<uint16_t> f16(4, 0);
  size_t size = 8;
  std::string error;
  auto to_half = Info(f32.data(), 16, f16.data(), &size, kF32, kF16, 1, 4, kRow, 0, kRow, 0);
  ASSERT_EQ(ConvertMatrixOnHost(to_half, &error), VK_SUCCESS) << error;
  EXPECT_EQ(f16, (std::vector<uint16_t>{0x3c00, 0x3c00, 0xc100, 0x7c00}));  // 1e6: infinity.
  // float16 -> E4M3: 1, -2.5, and 1000 saturates to 448 (0x7e), not NaN.
  const std::vector<uint16_t> half = {0x3c00, 0xc100, 0x63d0};  // 1, -2.5, 1000.
  std::vector<uint8_t> e4m3(3, 0);
  size = 3;
  auto to_e4m3 =
      Info(half.data(), 6, e4m3.data(), &size, kF16, kE4M3, 3, 1, kCol, 0, kInferencing, 0);
  ASSERT_EQ(ConvertMatrixOnHost(to_e4m3, &error), VK_SUCCESS) << error;
  EXPECT_EQ(e4m3, (std::vector<uint8_t>{0x38, 0xc2, 0x7e}));
  // E5M2 -> float32: 0x3c is 1, 0x7b is 57344 (the largest), 0x01 is 2^-16.
  const std::vector<uint8_t> e5m2 = {0x3c, 0x7b, 0x01};
  std::vector<float> out(3, 0);
  size = 12;
  auto from_e5m2 = Info(e5m2.data(), 3, out.data(), &size, kE5M2, kF32, 1, 3, kRow, 0, kRow, 0);
  ASSERT_EQ(ConvertMatrixOnHost(from_e5m2, &error), VK_SUCCESS) << error;
  EXPECT_EQ(out, (std::vector<float>{1.0f, 57344.0f, 0x1p-16f}));
}

TEST(ConvertMatrixOnHost, ValidUsageBreaksAreRefusedWithAReason) {
  const std::vector<int8_t> src(16, 1);
  std::vector<int8_t> dst(16, 0);
  size_t size = dst.size();
  std::string error;
  // An integer converts only to itself.
  auto int_to_float = Info(src.data(), 16, dst.data(), &size, kS8, kF16, 2, 2, kRow, 0, kRow, 0);
  EXPECT_EQ(ConvertMatrixOnHost(int_to_float, &error), VK_ERROR_UNKNOWN);
  EXPECT_NE(error.find("float types on both sides"), std::string::npos) << error;
  // A stride shorter than a row.
  error.clear();
  auto short_stride = Info(src.data(), 16, dst.data(), &size, kS8, kS8, 2, 4, kRow, 3, kRow, 0);
  EXPECT_EQ(ConvertMatrixOnHost(short_stride, &error), VK_ERROR_UNKNOWN);
  EXPECT_NE(error.find("srcStride 3"), std::string::npos) << error;
  // A source smaller than the matrix.
  error.clear();
  auto small = Info(src.data(), 5, dst.data(), &size, kS8, kS8, 2, 4, kRow, 0, kRow, 0);
  EXPECT_EQ(ConvertMatrixOnHost(small, &error), VK_ERROR_UNKNOWN);
  EXPECT_NE(error.find("pInfo-10074"), std::string::npos) << error;
  // No source, a destination.
  error.clear();
  auto no_source = Info(nullptr, 0, dst.data(), &size, kS8, kS8, 2, 4, kRow, 0, kRow, 0);
  EXPECT_EQ(ConvertMatrixOnHost(no_source, &error), VK_ERROR_UNKNOWN);
  EXPECT_NE(error.find("pInfo-10073"), std::string::npos) << error;
  // A packed type is no matrix's.
  error.clear();
  auto packed =
      Info(src.data(), 16, dst.data(), &size, 1000491000, 1000491000, 2, 2, kRow, 0, kRow, 0);
  EXPECT_EQ(ConvertMatrixOnHost(packed, &error), VK_ERROR_UNKNOWN);
  EXPECT_NE(error.find("no matrix has"), std::string::npos) << error;
}

TEST(EmulatedVectors, CombinationsFollowTheDeviceTypes) {
  profile::DeviceProfile device;
  auto has = [](const std::vector<profile::CooperativeVectorProperties>& list, ComponentType input,
                ComponentType interpretation, ComponentType matrix) {
    for (const auto& p : list) {
      if (p.inputType == input && p.inputInterpretation == interpretation &&
          p.matrixInterpretation == matrix && p.transpose) {
        return true;
      }
    }
    return false;
  };
  auto bare = EmulatedVectorProperties(device);
  EXPECT_EQ(bare.size(), 1u);  // float32 alone.
  EXPECT_TRUE(has(bare, ComponentType::kFloat32, ComponentType::kFloat32, ComponentType::kFloat32));
  device.features.shaderFloat16 = device.features.shaderInt8 = true;
  auto all = EmulatedVectorProperties(device);
  EXPECT_TRUE(has(all, ComponentType::kFloat16, ComponentType::kFloat16, ComponentType::kFloat16));
  EXPECT_TRUE(
      has(all, ComponentType::kFloat16, ComponentType::kFloat8E4M3, ComponentType::kFloat8E4M3));
  EXPECT_TRUE(has(all, ComponentType::kUint32, ComponentType::kSint8Packed, ComponentType::kSint8));
  EXPECT_TRUE(has(all, ComponentType::kUint8, ComponentType::kUint8, ComponentType::kUint8));
  EXPECT_FALSE(has(all, ComponentType::kFloat32, ComponentType::kUint8, ComponentType::kUint8));
  EXPECT_EQ(all.size(), 1u + 3u + 13u);  // float32, float16 and float8, NVIDIA's 13 integer ones.
}

TEST(EmulatedVectors, TrainingWhereTheDeviceAddsFloatsAtomically) {
  VectorEmulation e;
  e.vectors = true;
  EXPECT_FALSE(e.training());
  EXPECT_EQ(LowerCoopVectorArgument(e), "optimal-as-row-major");
  e.atomics.float32 = true;  // lavapipe.
  EXPECT_TRUE(e.training());
  EXPECT_EQ(LowerCoopVectorArgument(e), "optimal-as-row-major,atomic-float32-add");
  const run::CooperativeVectorDevicePropertiesNV p = EmulatedVectorDeviceProperties(e);
  EXPECT_EQ(p.cooperativeVectorSupportedStages, VK_SHADER_STAGE_COMPUTE_BIT);
  EXPECT_FALSE(p.cooperativeVectorTrainingFloat16Accumulation);
  EXPECT_TRUE(p.cooperativeVectorTrainingFloat32Accumulation);

  Emulation emulation;
  emulation.vector = e;
  emulation.vector.replicated_composites = true;
  const profile::DeviceProfile seen = Advertised(profile::DeviceProfile(), emulation);
  EXPECT_TRUE(seen.HasExtension(kNvCooperativeVector));
  EXPECT_TRUE(seen.HasExtension(kExtReplicatedComposites));
  EXPECT_TRUE(seen.features.cooperativeVector && seen.features.cooperativeVectorTraining);
  EXPECT_TRUE(seen.features.shaderReplicatedComposites);
  EXPECT_EQ(seen.properties.maxCooperativeVectorComponents, 512u);
  profile::DeviceProfile hidden = seen;
  RemoveNativeVectors(&hidden);
  EXPECT_FALSE(hidden.HasExtension(kNvCooperativeVector));
  EXPECT_TRUE(hidden.cooperativeVectorProperties.empty());
  EXPECT_FALSE(hidden.features.cooperativeVectorTraining);

  // The feature and property structures of a chain.
  CooperativeVectorFeaturesNV features;
  ReplicatedCompositesFeaturesEXT replicated;
  features.pNext = &replicated;
  FillFeatures(&features, emulation);
  EXPECT_TRUE(features.cooperativeVector && features.cooperativeVectorTraining);
  EXPECT_TRUE(replicated.shaderReplicatedComposites);
  run::CooperativeVectorDevicePropertiesNV properties;
  FillProperties(&properties, emulation, profile::DeviceProfile());
  EXPECT_EQ(properties.maxCooperativeVectorComponents, 512u);
  EXPECT_EQ(properties.pNext, nullptr);
}

TEST(EmulatedVectors, CapabilityScan) {
  // Header, OpCapability Shader, OpCapability CooperativeVectorNV, then OpMemoryModel.
  const std::vector<uint32_t> vectors = {
      0x07230203, 0x10600, 0, 10, 0, (2 << 16) | 17, 1, (2 << 16) | 17, 5394, (3 << 16) | 14, 0, 1};
  EXPECT_TRUE(DeclaresCoopVectors(vectors));
  EXPECT_FALSE(DeclaresCapability(vectors, kReplicatedCompositesEXT));
  const std::vector<uint32_t> replicated = {0x07230203, 0x10600, 0, 10, 0, (2 << 16) | 17, 6024};
  EXPECT_FALSE(DeclaresCoopVectors(replicated));
  EXPECT_TRUE(DeclaresCapability(replicated, kReplicatedCompositesEXT));
  const std::vector<uint32_t> plain = {
      0x07230203, 0x10600, 0, 10, 0, (2 << 16) | 17, 1, (3 << 16) | 14, 0, 1, (2 << 16) | 17, 5394};
  EXPECT_FALSE(DeclaresCoopVectors(plain));  // Capabilities come first.
}

}  // namespace
}  // namespace coopspv::layer
