// Device profiles: the built-in ones read, the writer's text reads back to the same profile, and
// every kind of bad input is an error naming its key path.
#include "source/profile/device_profile.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "source/profile/json.h"

namespace coopspv::profile {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(DeviceProfile, BuiltInsRead) {
  const auto names = BuiltInNames();
  ASSERT_NE(std::find(names.begin(), names.end(), "lavapipe"), names.end());
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const auto p = BuiltIn(name);
    ASSERT_TRUE(p);
    EXPECT_FALSE(p->deviceName.empty());
    EXPECT_GT(p->properties.maxComputeWorkGroupInvocations, 0u);
    // A real device with VK_KHR_cooperative_matrix reports at least one entry.
    EXPECT_EQ(p->HasExtension("VK_KHR_cooperative_matrix"),
              !p->cooperativeMatrixProperties.empty());
  }
  EXPECT_FALSE(BuiltIn("no-such-device"));
}

TEST(DeviceProfile, H100IsBuiltIn) {
  // Written on the H100 by coopspv-run --write-profile; ../shared/gpu/README.md's facts.
  const auto p = BuiltIn("h100");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->cooperativeMatrixProperties.size(), 11u);
  EXPECT_EQ(p->cooperativeMatrixFlexibleDimensionsProperties.size(), 25u);
  EXPECT_EQ(p->cooperativeVectorProperties.size(), 16u);
  // The legacy NV list: the KHR entries 0-9 (no bfloat16 one).
  ASSERT_EQ(p->cooperativeMatrixPropertiesNV.size(), 10u);
  for (size_t i = 0; i < 10; ++i) {
    const auto& nv = p->cooperativeMatrixPropertiesNV[i];
    const auto& khr = p->cooperativeMatrixProperties[i];
    EXPECT_EQ(nv.MSize, khr.MSize);
    EXPECT_EQ(nv.KSize, khr.KSize);
    EXPECT_EQ(nv.AType, khr.AType);
    EXPECT_EQ(nv.ResultType, khr.ResultType);
  }
  EXPECT_EQ(p->properties.maxCooperativeVectorComponents, 512u);
  EXPECT_EQ(p->properties.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize, 256u);
  EXPECT_FALSE(p->properties.cooperativeVectorTrainingFloat32Accumulation);
  EXPECT_FALSE(p->HasExtension("VK_EXT_shader_float8"));
}

TEST(DeviceProfile, LavapipeHasNoCooperativeExtension) {
  const auto p = BuiltIn("lavapipe");
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->features.cooperativeMatrix);
  EXPECT_FALSE(p->HasExtension("VK_KHR_cooperative_matrix"));
  EXPECT_TRUE(p->features.vulkanMemoryModel);
  EXPECT_EQ(p->properties.subgroupSize, 8u);
}

TEST(DeviceProfile, H100LikeReads) {
  std::string error;
  const auto p = Parse(ReadFile("test/profile/data/h100_like.json"), &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(p->cooperativeMatrixProperties.size(), 11u);
  EXPECT_EQ(p->cooperativeMatrixFlexibleDimensionsProperties.size(), 25u);
  EXPECT_EQ(p->cooperativeVectorProperties.size(), 16u);
  const auto& bf16 = p->cooperativeMatrixProperties[10];
  EXPECT_EQ(bf16.AType, ComponentType::kBFloat16);
  EXPECT_EQ(bf16.ResultType, ComponentType::kFloat32);
  EXPECT_EQ(bf16.scope, Scope::kSubgroup);
  const auto& packed = p->cooperativeVectorProperties[4];
  EXPECT_EQ(packed.inputInterpretation, ComponentType::kSint8Packed);
  EXPECT_EQ(p->cooperativeVectorProperties[14].matrixInterpretation, ComponentType::kFloat8E4M3);
  EXPECT_TRUE(p->cooperativeVectorProperties[0].transpose);
  EXPECT_EQ(p->cooperativeMatrixFlexibleDimensionsProperties[24].workgroupInvocations, 256u);
  EXPECT_EQ(p->properties.cooperativeMatrixSupportedStages, 0x20u);
  EXPECT_EQ(p->properties.cooperativeVectorSupportedStages, 0x3FFFu);
  EXPECT_EQ(p->properties.maxComputeWorkGroupSize[2], 64u);
  EXPECT_TRUE(p->features.cooperativeMatrixFlexibleDimensions);
  EXPECT_FALSE(p->features.shaderBFloat16DotProduct);
}

TEST(DeviceProfile, WriteReadsBack) {
  std::string error;
  for (const std::string& text :
       {ReadFile("test/profile/data/h100_like.json"), Write(*BuiltIn("lavapipe"))}) {
    const auto p = Parse(text, &error);
    ASSERT_TRUE(p) << error;
    const std::string written = Write(*p);
    const auto again = Parse(written, &error);
    ASSERT_TRUE(again) << error << "\n" << written;
    EXPECT_EQ(Write(*again), written);
    EXPECT_EQ(again->cooperativeVectorProperties.size(), p->cooperativeVectorProperties.size());
  }
}

TEST(DeviceProfile, TheNVMatrixStagesAreWrittenOnlyWhenKnown) {
  // Absent from older profiles (and for devices without VK_NV_cooperative_matrix): left out on
  // writing, so "unknown" reads back as unknown rather than as "no stage".
  const DeviceProfile lavapipe = *BuiltIn("lavapipe");
  EXPECT_FALSE(lavapipe.properties.cooperativeMatrixSupportedStagesNV.has_value());
  EXPECT_EQ(Write(lavapipe).find("cooperativeMatrixSupportedStagesNV"), std::string::npos);
  const DeviceProfile h100 = *BuiltIn("h100");
  ASSERT_TRUE(h100.properties.cooperativeMatrixSupportedStagesNV.has_value());
  const std::string written = Write(h100);
  EXPECT_NE(written.find("\"cooperativeMatrixSupportedStagesNV\": [\"compute\"]"),
            std::string::npos)
      << written;
  std::string error;
  const auto back = Parse(written, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->properties.cooperativeMatrixSupportedStagesNV,
            h100.properties.cooperativeMatrixSupportedStagesNV);
}

TEST(DeviceProfile, WriteQuotesStrings) {
  DeviceProfile p;
  p.deviceName = "a \"quoted\"\\name\n";
  std::string error;
  const auto back = Parse(Write(p), &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->deviceName, p.deviceName);
}

// The error for `text`, or "" when it reads.
std::string ErrorOf(const std::string& text) {
  std::string error;
  return Parse(text, &error) ? "" : error;
}

std::string Profile(const std::string& members) {
  return R"({"format": "coopspv-device-profile", "version": 1)" +
         (members.empty() ? "" : ", " + members) + "}";
}

TEST(DeviceProfile, MinimalReads) {
  EXPECT_EQ(ErrorOf(Profile("")), "");
  EXPECT_EQ(ErrorOf(Profile(R"("features": {"cooperativeMatrix": true})")), "");
}

TEST(DeviceProfile, ErrorsNameTheKeyPath) {
  const std::pair<std::string, std::string> cases[] = {
      {Profile(R"("bogus": 1)"), "bogus: unknown key"},
      {Profile(R"("features": {"cooperativeMatrix": 1})"),
       "features.cooperativeMatrix: expected a boolean, got a number"},
      {Profile(R"("features": {"cooperativeMatrixx": true})"),
       "features.cooperativeMatrixx: unknown key"},
      {Profile(R"("properties": {"subgroupSize": -1})"),
       "properties.subgroupSize: expected an integer in [0, 4294967295], got -1"},
      {Profile(R"("properties": {"subgroupSize": 1.5})"),
       "properties.subgroupSize: expected an integer in [0, 4294967295], got 1.5"},
      {Profile(R"("properties": {"subgroupSize": 4294967296})"),
       "properties.subgroupSize: expected an integer in [0, 4294967295], got 4294967296"},
      {Profile(R"("properties": {"maxComputeWorkGroupSize": [1, 2]})"),
       "properties.maxComputeWorkGroupSize: expected 3 integers"},
      {Profile(R"("properties": {"cooperativeVectorSupportedStages": ["compute", "pixel"]})"),
       "properties.cooperativeVectorSupportedStages[1]: unknown shader stage \"pixel\""},
      {Profile(R"("extensions": ["VK_a", 3])"), "extensions[1]: expected a string, got a number"},
      {Profile(R"("cooperativeMatrixPropertiesNV": [{"MSize": 16, "NSize": 16, "KSize": 16,
          "AType": "float16", "BType": "float16", "CType": "float16", "ResultType": "float16",
          "scope": "subgroup"}])"),
       "cooperativeMatrixPropertiesNV[0].ResultType: unknown key"},
      {Profile(R"("cooperativeMatrixProperties": [{"MSize": 16, "NSize": 16, "KSize": 16,
          "AType": "half", "BType": "float16", "CType": "float16", "ResultType": "float16",
          "saturatingAccumulation": false, "scope": "subgroup"}])"),
       "cooperativeMatrixProperties[0].AType: unknown component type \"half\""},
      {Profile(R"("cooperativeMatrixProperties": [{"MSize": 16, "NSize": 16, "KSize": 16,
          "AType": "float16", "BType": "float16", "CType": "float16", "ResultType": "float16",
          "saturatingAccumulation": false}])"),
       "cooperativeMatrixProperties[0]: missing key \"scope\""},
      {Profile(R"("cooperativeMatrixFlexibleDimensionsProperties": [{"MGranularity": 16}])"),
       "cooperativeMatrixFlexibleDimensionsProperties[0]: missing key \"AType\""},
      {Profile(R"("cooperativeVectorProperties": [{"inputType": "float16", "inputInterpretation":
          "float16", "matrixInterpretation": "float16", "biasInterpretation": "float16",
          "resultType": "float16", "transpose": false, "extra": 1}])"),
       "cooperativeVectorProperties[0].extra: unknown key"},
      {Profile(R"("cooperativeMatrixProperties": [{"MSize": 16, "NSize": 16, "KSize": 16,
          "AType": "float16", "BType": "float16", "CType": "float16", "ResultType": "float16",
          "saturatingAccumulation": false, "scope": "cluster"}])"),
       "cooperativeMatrixProperties[0].scope: unknown scope \"cluster\" (device, workgroup, "
       "subgroup, queue_family)"},
      {R"({"version": 1})", "missing key \"format\" (\"coopspv-device-profile\")"},
      {R"({"format": "coopspv-device-profile"})", "missing key \"version\""},
      {R"({"format": "coopspv-device-profile", "version": 2})",
       "version: this build reads version 1"},
      {R"({"format": "other", "version": 1})", "format: expected \"coopspv-device-profile\""},
      {"[]", ": expected an object, got an array"},
      {R"({"format": "a", "format": "b"})",
       "not valid JSON: line 1, column 25: duplicate key \"format\""},
      {"{\n  \"version\": 1,\n  \"format\": tru\n}",
       "not valid JSON: line 3, column 13: unexpected character"},
      {R"({"a": "\ud800"})", "not valid JSON: line 1, column 14: unpaired surrogate"},
      {R"({"a": 1} x)", "not valid JSON: line 1, column 10: unexpected text after the JSON value"},
      {"", "not valid JSON: line 1, column 1: unexpected end of input"},
      {R"({"a": 01})", "not valid JSON: line 1, column 8: expected ',' or '}'"},
  };
  for (const auto& [text, expected] : cases) {
    SCOPED_TRACE(text);
    EXPECT_EQ(ErrorOf(text), expected);
  }
}

TEST(DeviceProfile, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_NE(ErrorOf(deep).find("nesting deeper than 64 levels"), std::string::npos);
}

TEST(DeviceProfile, JsonStrings) {
  std::string error;
  const auto v = json::Parse(R"(["a\"b\\c\/d\n\u00e9\ud83d\ude00"])", &error);
  ASSERT_TRUE(v) << error;
  EXPECT_EQ(v->elements[0].text, "a\"b\\c/d\n\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(json::Quote("a\"\x01"), "\"a\\\"\\u0001\"");
}

TEST(DeviceProfile, FromNameOrText) {
  std::string error;
  EXPECT_TRUE(FromNameOrText("lavapipe", &error));
  EXPECT_TRUE(FromNameOrText(Profile(""), &error)) << error;
  EXPECT_FALSE(FromNameOrText("h100x", &error));
  EXPECT_NE(error.find("is neither a built-in device profile ("), std::string::npos) << error;
  EXPECT_NE(error.find("lavapipe"), std::string::npos) << error;
}

TEST(DeviceProfile, ComponentTypeNames) {
  EXPECT_EQ(ParseComponentType("bfloat16"), ComponentType::kBFloat16);
  EXPECT_STREQ(ComponentTypeName(ComponentType::kUint8Packed), "uint8_packed");
  EXPECT_FALSE(ParseComponentType("float128"));
  EXPECT_TRUE(IsKnownComponentType(1000491003));
  EXPECT_FALSE(IsKnownComponentType(11));
}

}  // namespace
}  // namespace coopspv::profile
