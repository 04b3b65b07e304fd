// Tests of the AmberScript parser (source/run/parser.cc): what it accepts, what it stores, and
// the line and message of every error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "source/run/format.h"
#include "source/run/script.h"

namespace coopspv::run {
namespace {

constexpr const char* kShader = R"(SHADER compute inc SPIRV-ASM
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
END
)";

bool Parse(const std::string& text, Script* script, ParseError* error) {
  return ParseScript(text, ParseOptions(), script, error);
}

// The script must fail at `line` with a message containing `text`.
void ExpectError(const std::string& script_text, uint32_t line, const std::string& text) {
  Script script;
  ParseError error;
  ASSERT_FALSE(Parse(script_text, &script, &error)) << script_text;
  EXPECT_EQ(error.line, line) << error.ToString();
  EXPECT_NE(error.message.find(text), std::string::npos) << error.ToString();
}

uint32_t U32(const Buffer& b, size_t i) {
  uint32_t v;
  std::memcpy(&v, b.bytes.data() + 4 * i, 4);
  return v;
}

TEST(ParserTest, DataTypes) {
  DataType t;
  ASSERT_TRUE(ParseDataType("int8", &t));
  EXPECT_EQ(t.kind, DataType::kSigned);
  EXPECT_EQ(t.ElementBytes(), 1u);
  ASSERT_TRUE(ParseDataType("uint64", &t));
  EXPECT_EQ(t.ElementBytes(), 8u);
  ASSERT_TRUE(ParseDataType("float16", &t));
  EXPECT_EQ(t.kind, DataType::kFloat);
  EXPECT_EQ(t.bits, 16u);
  ASSERT_TRUE(ParseDataType("vec3<float>", &t));
  EXPECT_EQ(t.components, 3u);
  EXPECT_EQ(t.ElementBytes(), 16u);  // std430: a vec3 takes a vec4's room.
  EXPECT_EQ(t.Name(), "vec3<float>");
  ASSERT_TRUE(ParseDataType("vec2<int16>", &t));
  EXPECT_EQ(t.ElementBytes(), 4u);
  for (const char* bad :
       {"int7", "uint", "float32", "vec5<float>", "vec2<vec2<float>>", "vec2<", "", "vec2<float"}) {
    EXPECT_FALSE(ParseDataType(bad, &t)) << bad;
  }
}

TEST(ParserTest, BuffersFillSeriesAndData) {
  Script s;
  ParseError e;
  ASSERT_TRUE(Parse(R"(# comment
BUFFER a DATA_TYPE uint32 SIZE 4 FILL 7
BUFFER b DATA_TYPE int32 SIZE 3 SERIES_FROM -2 INC_BY 5   # trailing comment
BUFFER c DATA_TYPE float16 DATA
  1.5 -2
  0x1p-2
END
BUFFER d DATA_TYPE vec3<uint8> DATA 1 2 3
4 5 6
END
BUFFER e DATA_TYPE float SIZE 3 SERIES_FROM 0.5 INC_BY 0.25
)",
                    &s, &e))
      << e.ToString();
  ASSERT_EQ(s.buffers.size(), 5u);
  EXPECT_EQ(s.buffers[0].ElementCount(), 4u);
  EXPECT_EQ(U32(s.buffers[0], 3), 7u);
  EXPECT_EQ(static_cast<int32_t>(U32(s.buffers[1], 0)), -2);
  EXPECT_EQ(static_cast<int32_t>(U32(s.buffers[1], 2)), 8);
  // float16 1.5 = 0x3E00, -2 = 0xC000, 0.25 = 0x3400.
  const auto& c = s.buffers[2].bytes;
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(c[0] | c[1] << 8, 0x3E00);
  EXPECT_EQ(c[2] | c[3] << 8, 0xC000);
  EXPECT_EQ(c[4] | c[5] << 8, 0x3400);
  // vec3<uint8>: two elements of 4 bytes, the fourth byte padding.
  const std::vector<uint8_t> d = {1, 2, 3, 0, 4, 5, 6, 0};
  EXPECT_EQ(s.buffers[3].bytes, d);
  float f;
  std::memcpy(&f, s.buffers[4].bytes.data() + 8, 4);
  EXPECT_EQ(f, 1.0f);
}

// What the CTS's compute scripts write, read as Amber reads it.
TEST(ParserTest, AmberBufferForms) {
  const std::string dir = ::testing::TempDir();
  {
    FILE* f = std::fopen((dir + "/values.txt").c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("# A comment line\n0x10 0x20\n# another\n0x30\n", f);
    std::fclose(f);
    f = std::fopen((dir + "/values.bin").c_str(), "wb");
    ASSERT_NE(f, nullptr);
    const uint8_t bytes[8] = {1, 0, 0, 0, 2, 0, 0, 0};
    std::fwrite(bytes, 1, sizeof(bytes), f);
    std::fclose(f);
  }
  Script s;
  ParseError e;
  ParseOptions options;
  options.directory = dir;
  ASSERT_TRUE(ParseScript(R"(BUFFER zeros DATA_TYPE uint32 SIZE 3
BUFFER ints DATA_TYPE vec2<int32> SIZE 2 FILL 0.0
BUFFER one_line DATA_TYPE uint32 DATA 7 8 END
BUFFER wrapped DATA_TYPE int16 DATA
  40206 -1
END
BUFFER unsigned DATA_TYPE uint8 DATA -1 END
BUFFER text DATA_TYPE uint32 SIZE 1296 FILE TEXT values.txt
BUFFER binary DATA_TYPE uint32 SIZE 9 FILE BINARY values.bin
BUFFER m DATA_TYPE mat3x3<float> DATA
  1 2 3  4 5 6  7 8 9
END
BUFFER specials DATA_TYPE float16 DATA nan -inf END
DEVICE_PROPERTY FloatControlsProperties.shaderDenormPreserveFloat16
)",
                          options, &s, &e))
      << e.ToString();
  ASSERT_EQ(s.buffers.size(), 9u);
  EXPECT_EQ(s.buffers[0].bytes, std::vector<uint8_t>(12, 0));  // SIZE alone: zeros.
  EXPECT_EQ(s.buffers[1].bytes, std::vector<uint8_t>(16, 0));
  EXPECT_EQ(U32(s.buffers[2], 0), 7u);
  EXPECT_EQ(U32(s.buffers[2], 1), 8u);
  // 40206 into int16 keeps its bits (-25330), -1 is 0xFFFF; -1 into uint8 is 0xFF.
  EXPECT_EQ(s.buffers[3].bytes, (std::vector<uint8_t>{0x0E, 0x9D, 0xFF, 0xFF}));
  EXPECT_EQ(s.buffers[4].bytes, std::vector<uint8_t>{0xFF});
  // The file's values set the size (SIZE is superseded, as in Amber); '#' starts a comment.
  ASSERT_EQ(s.buffers[5].bytes.size(), 12u);
  EXPECT_EQ(U32(s.buffers[5], 2), 0x30u);
  ASSERT_EQ(s.buffers[6].bytes.size(), 8u);
  EXPECT_EQ(U32(s.buffers[6], 1), 2u);
  // Columns of three floats, each padded to four: 7 lies at float 8.
  ASSERT_EQ(s.buffers[7].bytes.size(), 48u);
  float seven;
  std::memcpy(&seven, s.buffers[7].bytes.data() + 32, 4);
  EXPECT_EQ(seven, 7.0f);
  EXPECT_EQ(s.buffers[8].bytes, (std::vector<uint8_t>{0x00, 0x7E, 0x00, 0xFC}));
  ASSERT_EQ(s.properties.size(), 1u);
  EXPECT_EQ(s.properties[0].line, 14u);
  ExpectError("DEVICE_PROPERTY FloatControlsProperties.noSuchThing\n", 1,
              "unknown DEVICE_PROPERTY 'FloatControlsProperties.noSuchThing'");
  ExpectError("BUFFER b DATA_TYPE uint32 DATA 1 2\n", 1, "BUFFER DATA has no END");
  ExpectError("BUFFER b DATA_TYPE uint32 DATA 1 END 2\n", 1, "unexpected '2' after END");
  ExpectError("BUFFER b DATA_TYPE uint8 DATA 256 END\n", 1, "DATA value 0");
  ExpectError("BUFFER b DATA_TYPE uint32 SIZE 4 FILE TEXT /no/such/file.txt\n", 1, "cannot open");
}

// Amber's line continuation, REPEAT, RUN TIMED_EXECUTION and INSTANCE_EXTENSION.
TEST(ParserTest, AmberCommandForms) {
  Script s;
  ParseError e;
  ASSERT_TRUE(
      Parse(std::string(kShader) + R"(INSTANCE_EXTENSION VK_KHR_get_physical_device_properties2
BUFFER b DATA_TYPE uint32 DATA 0 END
PIPELINE compute p
  ATTACH inc \
    SPECIALIZE 1 AS uint32 2 \
    SPECIALIZE 2 AS uint32 3
  BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 0
END
REPEAT 3
  RUN TIMED_EXECUTION p 1 1 1
  EXPECT b IDX 0 GE 1
END
RUN p 2 1 1
)",
            &s, &e))
      << e.ToString();
  ASSERT_EQ(s.instance_extensions.size(), 1u);
  EXPECT_EQ(s.instance_extensions[0].name, "VK_KHR_get_physical_device_properties2");
  ASSERT_EQ(s.pipelines.size(), 1u);
  ASSERT_EQ(s.pipelines[0].spec_constants.size(), 2u);
  EXPECT_EQ(s.pipelines[0].spec_constants[1].value.bits, 3u);
  ASSERT_EQ(s.commands.size(), 7u);  // (RUN, EXPECT) three times, then RUN.
  EXPECT_EQ(s.commands[4].kind, Command::kRun);
  EXPECT_EQ(s.commands[4].line, 22u);  // Each copy keeps its line.
  EXPECT_EQ(s.commands[5].kind, Command::kExpectIndex);
  EXPECT_EQ(s.commands[6].groups[0], 2u);
  const std::string p = std::string(kShader) +
                        "BUFFER b DATA_TYPE uint32 DATA 0 END\nPIPELINE compute p\n  ATTACH inc\n"
                        "  BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\n";
  ExpectError(p + "REPEAT 2\n  RUN p 1 1 1\n", 18, "REPEAT has no END");
  ExpectError(p + "REPEAT 2\n  BUFFER c DATA_TYPE uint32 SIZE 1\nEND\n", 19,
              "'BUFFER' is not supported in a REPEAT block");
  ExpectError(p + "REPEAT 0\nEND\n", 18, "REPEAT <count>");
}

// SHADER_OPTIMIZATION: the pipeline's own copy of the shader through SPIRV-Tools' optimizer.
TEST(ParserTest, ShaderOptimization) {
  Script s;
  ParseError e;
  const std::string pipeline =
      std::string(kShader) + "PIPELINE compute p\n  ATTACH inc\n  SHADER_OPTIMIZATION inc\n";
  ASSERT_TRUE(Parse(pipeline + "    --eliminate-dead-code-aggressive\n  END\nEND\n", &s, &e))
      << e.ToString();
  ASSERT_EQ(s.shaders.size(), 2u);
  EXPECT_EQ(s.pipelines[0].shader, "inc@p");
  EXPECT_EQ(s.shaders[1].name, "inc@p");
  EXPECT_EQ(s.shaders[1].words[0], 0x07230203u);
  ExpectError(pipeline + "    --no-such-pass\n  END\nEND\n", 15,
              "SHADER_OPTIMIZATION of shader 'inc': invalid optimizations");
  ExpectError(std::string(kShader) +
                  "PIPELINE compute p\n  ATTACH inc\n  SHADER_OPTIMIZATION other\n  END\nEND\n",
              15, "SHADER_OPTIMIZATION must name the attached shader");
  // OPENCL-C needs clspv, which this build lacks: unsupported, not an error in the script.
  Script cl;
  ParseError cl_error;
  ASSERT_FALSE(Parse("SHADER compute k OPENCL-C\nkernel void f() {}\nEND\n", &cl, &cl_error));
  EXPECT_TRUE(cl_error.unsupported);
  EXPECT_NE(cl_error.message.find("clspv"), std::string::npos);
}

TEST(ParserTest, ShaderPipelineRunExpect) {
  Script s;
  ParseError e;
  const std::string text = std::string(kShader) + R"(
DEVICE_FEATURE Float16Int8Features.shaderInt8
DEVICE_EXTENSION VK_KHR_cooperative_matrix
SET ENGINE_DATA fence_timeout_ms 250
BUFFER in DATA_TYPE float SIZE 8 FILL 1.0
BUFFER out DATA_TYPE float SIZE 8 FILL 0
BUFFER pc DATA_TYPE uint32 DATA 3 END
PIPELINE compute p
  ATTACH inc ENTRY_POINT main SPECIALIZE 3 AS uint32 16 SPECIALIZE 4 AS float 0.5
  BIND BUFFER in AS uniform DESCRIPTOR_SET 1 BINDING 2
  BIND BUFFER out AS storage BINDING 0
  BIND BUFFER pc AS push_constant
  SUBGROUP inc
    FULLY_POPULATED on
    REQUIRED_SIZE 32
  END
END
PIPELINE compute q
  ATTACH inc
  SUBGROUP inc REQUIRED_SIZE MAX VARYING_SIZE on
END
RUN p 2 3 4
EXPECT out IDX 8 TOLERANCE 0.1 5% EQ 1.0 2.0
EXPECT out IDX 0 GE 0
EXPECT out EQ_BUFFER in
EXPECT out RMSE_BUFFER in TOLERANCE 0.5
)";
  // Amber reads tokens: "DATA 3 END" on one line is a whole statement.
  ASSERT_TRUE(Parse(text, &s, &e)) << e.ToString();
  ASSERT_EQ(s.shaders.size(), 1u);
  EXPECT_EQ(s.shaders[0].words[0], 0x07230203u);
  EXPECT_EQ(s.fence_timeout_ms, 250u);
  ASSERT_EQ(s.features.size(), 1u);
  EXPECT_EQ(s.features[0].line, 14u);
  EXPECT_EQ(s.extensions[0].name, "VK_KHR_cooperative_matrix");
  ASSERT_EQ(s.pipelines.size(), 2u);
  const Pipeline& p = s.pipelines[0];
  EXPECT_EQ(p.shader, "inc");
  ASSERT_EQ(p.spec_constants.size(), 2u);
  EXPECT_EQ(p.spec_constants[0].id, 3u);
  EXPECT_EQ(p.spec_constants[0].value.bits, 16u);
  EXPECT_EQ(p.spec_constants[1].value.bits, 0x3F000000u);
  ASSERT_EQ(p.bindings.size(), 3u);
  EXPECT_EQ(p.bindings[0].kind, BufferBinding::kUniform);
  EXPECT_EQ(p.bindings[0].set, 1u);
  EXPECT_EQ(p.bindings[0].binding, 2u);
  EXPECT_EQ(p.bindings[1].set, 0u);
  EXPECT_EQ(p.bindings[2].kind, BufferBinding::kPushConstant);
  EXPECT_TRUE(p.fully_populated);
  EXPECT_EQ(p.subgroup_size, Pipeline::SubgroupSize::kExact);
  EXPECT_EQ(p.required_subgroup_size, 32u);
  EXPECT_EQ(s.pipelines[1].subgroup_size, Pipeline::SubgroupSize::kMax);
  EXPECT_TRUE(s.pipelines[1].varying_size);
  ASSERT_EQ(s.commands.size(), 5u);
  EXPECT_EQ(s.commands[0].kind, Command::kRun);
  EXPECT_EQ(s.commands[0].groups[2], 4u);
  const Command& x = s.commands[1];
  EXPECT_EQ(x.kind, Command::kExpectIndex);
  EXPECT_EQ(x.offset, 8u);  // A byte offset, as in Amber: the third float.
  EXPECT_EQ(x.first_component, 2u);
  ASSERT_EQ(x.tolerances.size(), 2u);
  EXPECT_TRUE(x.tolerances[1].percent);
  EXPECT_EQ(x.values[1].value, 2.0);
  EXPECT_EQ(x.text, "EXPECT out IDX 8 TOLERANCE 0.1 5% EQ 1.0 2.0");
  EXPECT_EQ(s.commands[2].compare, Command::Compare::kGe);
  EXPECT_EQ(s.commands[3].kind, Command::kExpectEqualBuffer);
  EXPECT_EQ(s.commands[4].rmse_tolerance, 0.5);
}

TEST(ParserTest, ImageFormats) {
  DataType t;
  ASSERT_TRUE(ParseDataType("R8G8B8A8_UNORM", &t));
  EXPECT_EQ(t.kind, DataType::kUnsigned);
  EXPECT_EQ(t.components, 4u);
  EXPECT_EQ(t.ElementBytes(), 4u);
  EXPECT_EQ(t.Name(), "R8G8B8A8_UNORM");
  ASSERT_TRUE(ParseDataType("R32G32B32_SFLOAT", &t));
  EXPECT_EQ(t.ElementBytes(), 12u);  // A texel: no std430 padding.
  EXPECT_EQ(ProbeChannel(t, 2), 'B');
  ASSERT_TRUE(ParseDataType("B8G8R8A8_SNORM", &t));
  EXPECT_EQ(t.kind, DataType::kSigned);
  EXPECT_EQ(ProbeChannel(t, 0), 'B');
  EXPECT_EQ(ComponentNumericFormat(t, 0), NumericFormat::kSNorm);
  // A packed format is one unsigned word, as Amber reads it.
  ASSERT_TRUE(ParseDataType("B10G11R11_UFLOAT_PACK32", &t));
  EXPECT_EQ(t.kind, DataType::kUnsigned);
  EXPECT_EQ(t.ComponentCount(), 1u);
  EXPECT_EQ(t.ElementBytes(), 4u);
  // Data types read by a probe: every component of a vector against red.
  ASSERT_TRUE(ParseDataType("vec4<float>", &t));
  EXPECT_EQ(ProbeChannel(t, 3), 'R');
  EXPECT_EQ(ImageFormatOf(t), FindImageFormat("R32G32B32A32_SFLOAT")->vk_format);
  ASSERT_TRUE(ParseDataType("vec3<float>", &t));
  EXPECT_FALSE(ImageFormatOf(t).has_value());  // Padded to a vec4's room: no texel.
  ASSERT_TRUE(ParseDataType("int16", &t));
  EXPECT_EQ(ImageFormatOf(t), FindImageFormat("R16_SINT")->vk_format);
  const ImageFormat* d = FindImageFormat("X8_D24_UNORM_PACK32");
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->HasDepth());
  EXPECT_EQ(d->TexelBytes(), 4u);
  // Components of different widths are not one buffer element type.
  EXPECT_FALSE(ParseDataType("D24_UNORM_S8_UINT", &t));
  EXPECT_FALSE(ParseDataType("R8G8B8A8_UNROM", &t));
  EXPECT_FALSE(ParseDataType("vec2<R32_SFLOAT>", &t));
}

TEST(ParserTest, ImagesSamplersAndDescriptors) {
  Script s;
  ParseError e;
  const std::string text = std::string(kShader) + R"(
IMAGE color FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 4 HEIGHT 2 FILL 255
IMAGE vol DATA_TYPE vec4<int32> DIM_3D WIDTH 2 HEIGHT 2 DEPTH 2 SERIES_FROM 0 INC_BY 1
IMAGE ms FORMAT R32_UINT SAMPLES 4 WIDTH 8 HEIGHT 8
IMAGE mips MIP_LEVELS 3 FORMAT R16_SFLOAT DIM_1D WIDTH 8 DATA
  0 1 2 3 4 5 6 7
END
BUFFER old DATA_TYPE float WIDTH 2 HEIGHT 3 FILL 1
SAMPLER smp MAG_FILTER linear ADDRESS_MODE_V clamp_to_border BORDER_COLOR int_opaque_white \
  MIN_LOD 1 MAX_LOD 4.5 COMPARE on COMPARE_OP less_or_equal
SAMPLER raw UNNORMALIZED_COORDS
BUFFER a DATA_TYPE int32 SIZE 256 FILL 0
BUFFER b DATA_TYPE int32 SIZE 256 FILL 0
PIPELINE compute p
  ATTACH inc
  BIND BUFFER color AS storage_image DESCRIPTOR_SET 1 BINDING 0
  BIND BUFFER mips AS combined_image_sampler SAMPLER smp DESCRIPTOR_SET 1 BINDING 1 BASE_MIP_LEVEL 2
  BIND SAMPLER_ARRAY smp raw BINDING 2
  BIND BUFFER a AS uniform_dynamic BINDING 3 OFFSET 256 DESCRIPTOR_OFFSET 512 DESCRIPTOR_RANGE 16
  BIND BUFFER_ARRAY a b a AS storage_dynamic BINDING 4 OFFSET 0 256 512 DESCRIPTOR_RANGE -1 4 8
  BIND BUFFER_ARRAY a b AS storage BINDING 5 DESCRIPTOR_OFFSET 16 32
  BIND BUFFER old AS uniform_texel_buffer BINDING 6
END
RUN p 1 1 1
EXPECT color IDX 1 1 SIZE 3 1 EQ_RGBA 255 255 255 255 TOLERANCE 1 2 3 4%
EXPECT color IDX 0 0 SIZE 1 1 EQ_RGB 255 255 255
EXPECT color IDX 28 EQ 255 255 255 255
)";
  ASSERT_TRUE(Parse(text, &s, &e)) << e.ToString();
  ASSERT_EQ(s.buffers.size(), 7u);
  const Buffer& color = s.buffers[0];
  EXPECT_EQ(color.image.dimensions, 2u);
  EXPECT_EQ(color.image.width, 4u);
  EXPECT_EQ(color.bytes.size(), 4u * 2 * 4);
  EXPECT_EQ(color.bytes[31], 255);
  EXPECT_EQ(color.type.Name(), "R8G8B8A8_UNORM");
  const Buffer& vol = s.buffers[1];
  EXPECT_EQ(vol.image.dimensions, 3u);
  EXPECT_EQ(vol.bytes.size(), 8u * 16);
  EXPECT_EQ(U32(vol, 31), 31u);
  EXPECT_EQ(vol.image.Declaration(), "DIM_3D WIDTH 2 HEIGHT 2 DEPTH 2");
  const Buffer& ms = s.buffers[2];
  EXPECT_EQ(ms.image.dimensions, 2u);  // No DIM_: Amber's 2D.
  EXPECT_EQ(ms.image.samples, 4u);
  EXPECT_EQ(ms.bytes.size(), 8u * 8 * 4);  // Zeros without an initializer.
  EXPECT_EQ(s.buffers[3].image.mip_levels, 3u);
  EXPECT_EQ(s.buffers[3].image.Declaration(), "DIM_1D WIDTH 8 MIP_LEVELS 3");
  EXPECT_EQ(s.buffers[3].bytes.size(), 16u);
  EXPECT_EQ(s.buffers[4].image.dimensions, 2u);
  EXPECT_EQ(s.buffers[4].image.height, 3u);
  ASSERT_EQ(s.samplers.size(), 2u);
  const Sampler& smp = s.samplers[0];
  EXPECT_EQ(smp.mag_filter, 1u);       // VK_FILTER_LINEAR.
  EXPECT_EQ(smp.min_filter, 0u);       // Nearest by default.
  EXPECT_EQ(smp.address_mode[0], 0u);  // Repeat by default.
  EXPECT_EQ(smp.address_mode[1], 3u);  // VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER.
  EXPECT_EQ(smp.border_color, 5u);     // VK_BORDER_COLOR_INT_OPAQUE_WHITE.
  EXPECT_EQ(smp.min_lod, 1.0f);
  EXPECT_EQ(smp.max_lod, 4.5f);
  EXPECT_TRUE(smp.compare);
  EXPECT_EQ(smp.compare_op, 3u);  // VK_COMPARE_OP_LESS_OR_EQUAL.
  EXPECT_FALSE(s.samplers[1].normalized_coordinates);
  EXPECT_EQ(s.samplers[1].max_lod, 0.0f);  // Amber: unnormalized coordinates take LOD 0.
  const auto& b = s.pipelines[0].bindings;
  ASSERT_EQ(b.size(), 7u);
  EXPECT_EQ(b[0].kind, BufferBinding::kStorageImage);
  EXPECT_EQ(b[0].set, 1u);
  EXPECT_EQ(b[1].kind, BufferBinding::kCombinedImageSampler);
  EXPECT_EQ(b[1].sampler, "smp");
  EXPECT_EQ(b[1].base_mip_level, 2u);
  EXPECT_EQ(b[2].kind, BufferBinding::kSampler);
  ASSERT_EQ(b[2].elements.size(), 2u);
  EXPECT_EQ(b[2].elements[1].name, "raw");
  EXPECT_EQ(b[3].kind, BufferBinding::kUniformDynamic);
  EXPECT_EQ(b[3].elements[0].dynamic_offset, 256u);
  EXPECT_EQ(b[3].elements[0].offset, 512u);
  EXPECT_EQ(b[3].elements[0].range, 16u);
  ASSERT_EQ(b[4].elements.size(), 3u);
  EXPECT_EQ(b[4].elements[2].name, "a");
  EXPECT_EQ(b[4].elements[2].dynamic_offset, 512u);
  EXPECT_EQ(b[4].elements[0].range, kWholeSize);
  EXPECT_EQ(b[4].elements[1].range, 4u);
  EXPECT_EQ(b[5].elements[1].offset, 32u);
  EXPECT_EQ(b[5].elements[1].range, kWholeSize);
  EXPECT_EQ(b[6].kind, BufferBinding::kUniformTexelBuffer);
  ASSERT_EQ(s.commands.size(), 4u);
  const Command& probe = s.commands[1];
  EXPECT_EQ(probe.kind, Command::kExpectProbe);
  EXPECT_EQ(probe.probe_rect[0], 1u);
  EXPECT_EQ(probe.probe_rect[2], 3u);
  EXPECT_TRUE(probe.probe_alpha);
  EXPECT_EQ(probe.probe_color[3], 1.0);
  ASSERT_EQ(probe.tolerances.size(), 4u);
  EXPECT_TRUE(probe.tolerances[3].percent);
  EXPECT_FALSE(s.commands[2].probe_alpha);
  EXPECT_EQ(s.commands[3].kind, Command::kExpectIndex);
  EXPECT_EQ(s.commands[3].first_component, 28u);
}

TEST(ParserTest, ImageAndDescriptorErrors) {
  const std::string shader(kShader);
  ExpectError("IMAGE i FORMAT R8G8B8A8_UNROM WIDTH 4 HEIGHT 4\n", 1,
              "unknown FORMAT 'R8G8B8A8_UNROM'");
  ExpectError("IMAGE i FORMAT D24_UNORM_S8_UINT WIDTH 4 HEIGHT 4\n", 1, "differ in width or kind");
  ExpectError("IMAGE i DATA_TYPE vec3<float> WIDTH 4 HEIGHT 4\n", 1, "has no image format");
  ExpectError("IMAGE i DATA_TYPE mat2x2<float> WIDTH 4 HEIGHT 4\n", 1, "has no image format");
  ExpectError("IMAGE i WIDTH 4 HEIGHT 4\n", 1, "IMAGE needs FORMAT");
  ExpectError("IMAGE i FORMAT R32_SFLOAT DIM_2D WIDTH 4\n", 1, "DIM_2D needs HEIGHT");
  ExpectError("IMAGE i FORMAT R32_SFLOAT DIM_3D WIDTH 4 HEIGHT 4\n", 1, "DIM_3D needs DEPTH");
  ExpectError("IMAGE i FORMAT R32_SFLOAT DIM_2D HEIGHT 4\n", 1, "IMAGE needs WIDTH");
  ExpectError("IMAGE i FORMAT R32_SFLOAT DIM_1D WIDTH 4 HEIGHT 2\n", 1, "DIM_1D takes no HEIGHT");
  ExpectError("IMAGE i FORMAT R32_SFLOAT WIDTH 0 HEIGHT 2\n", 1, "WIDTH must be a number");
  ExpectError("IMAGE i FORMAT R32_SFLOAT WIDTH 4 HEIGHT 4 SAMPLES 3\n", 1,
              "SAMPLES must be 1, 2, 4");
  ExpectError("IMAGE i FORMAT R32_SFLOAT WIDTH 4 HEIGHT 4 MIP_LEVELS 4\n", 1,
              "MIP_LEVELS 4 is more than the 3 levels");
  ExpectError("IMAGE i FORMAT R32_SFLOAT WIDTH 4 HEIGHT 4 SAMPLES 4 MIP_LEVELS 2\n", 1,
              "SAMPLES above 1 needs a 2D image of one mip level");
  ExpectError("IMAGE i FORMAT R32_SFLOAT WIDTH 2 HEIGHT 2 DATA 1 2 3 END\n", 1,
              "DATA has 3 texels for an image of 4");
  ExpectError("IMAGE i FORMAT R32_SFLOAT WIDTH 2 HEIGHT 2 NOPE\n", 1, "unexpected 'NOPE'");
  ExpectError("IMAGE i FORMAT R8G8B8A8_UNORM WIDTH 2 HEIGHT 2 FILL 256\n", 1, "FILL");
  ExpectError("BUFFER b DATA_TYPE float WIDTH 2 FILL 0\n", 1, "WIDTH <w> HEIGHT <h>");
  ExpectError("SAMPLER s MAG_FILTER cubic\n", 1, "SAMPLER: bad MAG_FILTER 'cubic'");
  ExpectError("SAMPLER s ADDRESS_MODE_Q repeat\n", 1, "unexpected 'ADDRESS_MODE_Q'");
  ExpectError("SAMPLER s MIN_LOD 2 MAX_LOD 1\n", 1, "MAX_LOD is below MIN_LOD");
  ExpectError("SAMPLER s COMPARE maybe\n", 1, "bad COMPARE");
  ExpectError("BUFFER s DATA_TYPE float SIZE 1\nSAMPLER s\n", 2, "'s' is already declared");
  const std::string decls =
      "BUFFER b DATA_TYPE int32 SIZE 128 FILL 0\n"    // Line 13.
      "IMAGE img FORMAT R32_SINT WIDTH 4 HEIGHT 4\n"  // 14
      "SAMPLER smp\n"                                 // 15
      "PIPELINE compute p\n  ATTACH inc\n";           // 16, 17
  auto bind = [&](const std::string& line, const std::string& text) {
    ExpectError(shader + decls + "  " + line + "\nEND\n", 18, text);
  };
  bind("BIND BUFFER b AS uniform_dynamic BINDING 0", "uniform_dynamic needs OFFSET <bytes>");
  bind("BIND BUFFER b AS storage_dynamic BINDING 0 OFFSET", "OFFSET needs a number");
  bind("BIND BUFFER b AS storage BINDING 0 OFFSET 16", "OFFSET goes with uniform_dynamic");
  bind("BIND BUFFER_ARRAY b b AS storage_dynamic BINDING 0 OFFSET 0",
       "OFFSET needs a value for each of the 2 buffers");
  bind("BIND BUFFER_ARRAY b b AS storage BINDING 0 DESCRIPTOR_OFFSET 0 16 32",
       "unexpected '32' in BIND");
  bind("BIND BUFFER_ARRAY b AS storage BINDING 0", "BUFFER_ARRAY needs two or more names");
  bind("BIND BUFFER_ARRAY b b AS push_constant", "BUFFER_ARRAY cannot be a push_constant");
  bind("BIND BUFFER b AS storage BINDING 0 DESCRIPTOR_OFFSET 512",
       "DESCRIPTOR_OFFSET 512 and DESCRIPTOR_RANGE (to the end) do not fit in 'b' (512 bytes)");
  bind("BIND BUFFER b AS storage BINDING 0 DESCRIPTOR_OFFSET 256 DESCRIPTOR_RANGE 512",
       "do not fit in 'b'");
  bind("BIND BUFFER b AS uniform_dynamic BINDING 0 OFFSET 512",
       "DESCRIPTOR_OFFSET 0 + OFFSET 512 and DESCRIPTOR_RANGE (to the end) do not fit");
  bind("BIND BUFFER b AS storage BINDING 0 DESCRIPTOR_RANGE 0", "do not fit in 'b'");
  bind("BIND BUFFER img AS storage_image BINDING 0 DESCRIPTOR_OFFSET 0",
       "DESCRIPTOR_OFFSET goes with storage, uniform");
  bind("BIND BUFFER b AS storage_image BINDING 0",
       "'b' is bound AS storage_image but is not an "
       "image");
  bind("BIND BUFFER img AS combined_image_sampler BINDING 0",
       "combined_image_sampler needs SAMPLER <name>");
  bind("BIND BUFFER img AS combined_image_sampler SAMPLER nope BINDING 0",
       "unknown sampler 'nope'");
  bind("BIND BUFFER img AS sampled_image BINDING 0 BASE_MIP_LEVEL 1",
       "BASE_MIP_LEVEL 1 is not below the MIP_LEVELS of 'img' (1)");
  bind("BIND BUFFER b AS storage BINDING 0 BASE_MIP_LEVEL 0", "BASE_MIP_LEVEL goes with");
  bind("BIND BUFFER img AS depth_stencil BINDING 0", "buffer kind 'depth_stencil'");
  bind("BIND SAMPLER nope BINDING 0", "unknown sampler 'nope'");
  bind("BIND SAMPLER smp DESCRIPTOR_SET 0", "needs BINDING");
  bind("BIND SAMPLER_ARRAY smp BINDING 0", "SAMPLER_ARRAY needs two or more names");
  bind("BIND TEXTURE img BINDING 0", "BIND BUFFER|BUFFER_ARRAY");
  // Probes: a rectangle inside the image, EQ_RGB or EQ_RGBA with 0 to 255.
  const std::string image = "IMAGE i FORMAT R8G8B8A8_UNORM WIDTH 4 HEIGHT 2\n";
  ExpectError(image + "EXPECT i IDX 1 1 EQ 0\n", 2, "needs SIZE <width> <height>");
  ExpectError(image + "EXPECT i IDX 3 0 SIZE 2 1 EQ_RGB 0 0 0\n", 2,
              "the probe's texels 3, 0 to 4, 0 are outside 'i' (4x2)");
  ExpectError(image + "EXPECT i IDX 0 0 SIZE 1 1 EQ_RGBA 0 0 0\n", 2, "invalid A value (0 to 255)");
  ExpectError(image + "EXPECT i IDX 0 0 SIZE 1 1 EQ_RGB 0 256 0\n", 2, "invalid G value");
  ExpectError(image + "EXPECT i IDX 0 0 SIZE 1 1 EQ 0 0 0\n", 2, "compares with EQ_RGB or");
  ExpectError(image + "EXPECT i IDX 0 0 SIZE 1 1 EQ_RGB 0 0 0 TOLERANCE 1 1 1 1\n", 2,
              "TOLERANCE takes one to 3 values");
  ExpectError(image + "EXPECT i IDX 0 0 SIZE 1 1 EQ_RGB 0 0 0 5\n", 2, "unexpected '5'");
  ExpectError(image + "BUFFER f DATA_TYPE R8G8B8A8_UNORM SIZE 8\nEXPECT i EQ_BUFFER f\n", 3,
              "differ in WIDTH or HEIGHT");
}

TEST(ParserTest, LineContinuation) {
  // Amber's backslash joins a statement's lines; the statement keeps its first line's number.
  Script s;
  ParseError e;
  ASSERT_TRUE(
      Parse("IMAGE i FORMAT R32_SFLOAT \\\n  DIM_2D WIDTH 2 \\\n HEIGHT 2 FILL 1\n"
            "SAMPLER s \\\n",
            &s, &e))
      << e.ToString();
  EXPECT_EQ(s.buffers[0].image.height, 2u);
  EXPECT_EQ(s.samplers.size(), 1u);
  ExpectError("# a\nIMAGE i FORMAT R32_SFLOAT \\\n  WIDTH 2 \\\n NOPE\n", 2, "unexpected 'NOPE'");
}

TEST(ParserTest, AssemblyErrorsPointIntoTheBlock) {
  // Line 4 of the script is the bad instruction (the block starts on line 2).
  ExpectError("# x\nSHADER compute s SPIRV-ASM\nOpCapability Shader\nOpNoSuchThing\nEND\n", 4,
              "SPIR-V assembly of shader 's'");
}

// The header version of the module of "SHADER compute s <format>" with `body`.
uint32_t ShaderVersion(const std::string& format, const std::string& body) {
  Script s;
  ParseError e;
  EXPECT_TRUE(Parse("SHADER compute s " + format + "\n" + body + "END\n", &s, &e))
      << format << ": " << e.ToString();
  return s.shaders.empty() || s.shaders[0].words.size() < 5 ? 0 : s.shaders[0].words[1];
}

TEST(ParserTest, AssemblyVersions) {
  // TARGET_ENV, else the "; Version:" header comment, else Amber's 1.0.
  const std::string body(std::strchr(kShader, '\n') + 1, std::strstr(kShader, "END\n"));
  EXPECT_EQ(ShaderVersion("SPIRV-ASM", body), 0x00010000u);
  EXPECT_EQ(ShaderVersion("SPIRV-ASM", "; SPIR-V\n; Version: 1.5\n" + body), 0x00010500u);
  EXPECT_EQ(ShaderVersion("SPIRV-ASM TARGET_ENV spv1.3", "; Version: 1.5\n" + body), 0x00010300u);
  EXPECT_EQ(ShaderVersion("SPIRV-ASM TARGET_ENV vulkan1.2", body), 0x00010500u);
}

constexpr const char* kGlsl = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { uint data[]; };
void main() { data[gl_GlobalInvocationID.x] += 1u; }
)";

TEST(ParserTest, GlslShadersAtAmbersTargetEnvironments) {
  // Amber (src/shader_compiler.cc, ParseSpvEnv): no TARGET_ENV is SPIR-V 1.0, vulkan1.1 is 1.3,
  // vulkan1.2 is 1.5.
  EXPECT_EQ(ShaderVersion("GLSL", kGlsl), 0x00010000u);
  EXPECT_EQ(ShaderVersion("GLSL TARGET_ENV spv1.3", kGlsl), 0x00010300u);
  EXPECT_EQ(ShaderVersion("GLSL TARGET_ENV spv1.4", kGlsl), 0x00010400u);
  EXPECT_EQ(ShaderVersion("GLSL TARGET_ENV vulkan1.1", kGlsl), 0x00010300u);
  EXPECT_EQ(ShaderVersion("GLSL TARGET_ENV vulkan1.1spv1.4", kGlsl), 0x00010400u);
  EXPECT_EQ(ShaderVersion("GLSL TARGET_ENV vulkan1.2", kGlsl), 0x00010500u);
  EXPECT_EQ(ShaderVersion("GLSL TARGET_ENV vulkan1.3", kGlsl), 0x00010600u);
  EXPECT_EQ(ShaderVersion("GLSL TARGET_ENV spv1.6", kGlsl), 0x00010600u);
}

TEST(ParserTest, GlslFromAFile) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ParseOptions options;
  options.directory = tmp != nullptr ? tmp : "/tmp";
  std::ofstream(options.directory + "/inc.comp") << kGlsl;
  std::ofstream(options.directory + "/bad.comp") << "#version 450\n\nvoid main() { x = 1; }\n";
  Script s;
  ParseError e;
  ASSERT_TRUE(
      ParseScript("SHADER compute s GLSL TARGET_ENV vulkan1.1 FILE inc.comp\n", options, &s, &e))
      << e.ToString();
  ASSERT_EQ(s.shaders.size(), 1u);
  EXPECT_EQ(s.shaders[0].words[1], 0x00010300u);
  // A file's messages keep the file's own lines.
  ASSERT_FALSE(ParseScript("\nSHADER compute s GLSL FILE bad.comp\n", options, &s, &e));
  EXPECT_EQ(e.line, 2u);
  EXPECT_NE(e.message.find("GLSL compile of shader 's' (bad.comp) failed:\n  bad.comp:3: error: "
                           "'x' : undeclared identifier"),
            std::string::npos)
      << e.ToString();
  ASSERT_FALSE(ParseScript("SHADER compute s GLSL FILE missing.comp\n", options, &s, &e));
  EXPECT_NE(e.message.find("cannot open"), std::string::npos) << e.ToString();
}

TEST(ParserTest, GlslErrorsNameScriptLines) {
  // The SHADER line is 2, so the block's line 3 is the script's line 5.
  ExpectError(
      "# x\nSHADER compute s GLSL\n#version 450\nlayout(local_size_x = 1) in;\n"
      "void main() { int y = 1.5; }\nEND\n",
      2,
      "GLSL compile of shader 's' failed:\n  line 5: error: '=' :  cannot convert from "
      "' const float' to ' temp highp int'");
  // Each message on a line of its own.
  ExpectError("SHADER compute s GLSL\n#version 450\nvoid main() { a = 1; b = 2; }\nEND\n", 1,
              "line 3: error: 'a' : undeclared identifier\n  line 3: error: 'b' : undeclared");
  // A compute shader needs a main; the linker's message names no line.
  ExpectError("SHADER compute s GLSL\n#version 450\nEND\n", 1, "Missing entry point");
  ExpectError("SHADER compute s GLSL TARGET_ENV vulkan9\nEND\n", 1, "unknown TARGET_ENV");
  ExpectError("SHADER compute s GLSL\n#version 450\n", 1, "SHADER has no END");
}

TEST(ParserTest, MalformedScripts) {
  const std::string shader(kShader);  // 12 lines.
  ExpectError("BUFFER b DATA_TYPE uint32 SIZE\n", 1, "SIZE must be an element count");
  ExpectError("BUFFER b DATA_TYPE uint32 SIZE 0 FILL 1\n", 1, "SIZE must be an element count");
  ExpectError("BUFFER b DATA_TYPE uint32 SIZE 4 NOPE 1\n", 1, "SIZE takes FILL <value>");
  ExpectError("BUFFER b DATA_TYPE uint32 SIZE 99999999999999 FILL 0\n", 1, "SIZE");
  ExpectError("BUFFER b DATA_TYPE uint8 SIZE 2 FILL 256\n", 1, "FILL");
  ExpectError("BUFFER b DATA_TYPE int8 DATA 1 2 -129\nEND\n", 1, "DATA value 2");
  ExpectError("BUFFER b DATA_TYPE vec2<float> DATA 1 2 3\nEND\n", 1, "whole number of");
  ExpectError("BUFFER b DATA_TYPE float DATA 1 2\n", 1, "BUFFER DATA has no END");
  ExpectError("BUFFER b DATA_TYPE floaty SIZE 1 FILL 0\n", 1, "unknown DATA_TYPE 'floaty'");
  ExpectError("BUFFER b FORMAT R32_SFLOAT\n", 1, "a buffer sized by a framebuffer");
  ExpectError("BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\nBUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\n",
              2, "'b' is already declared");
  ExpectError("SHADER vertex v GLSL\n", 1, "shader type 'vertex' is not supported");
  ExpectError("SHADER compute s HLSL\nEND\n", 1, "shader format 'HLSL'");
  ExpectError("SHADER compute s SPIRV-ASM\nOpCapability Shader\n", 1, "SHADER has no END");
  ExpectError("SHADER compute s SPIRV-BINARY\n", 1, "SPIRV-BINARY needs FILE");
  ExpectError("SHADER compute s SPIRV-BINARY FILE /nonexistent/x.spv\n", 1, "cannot open");
  ExpectError("SHADER compute s SPIRV-ASM TARGET_ENV vulkan9\nEND\n", 1, "unknown TARGET_ENV");
  ExpectError(shader + "PIPELINE graphics p\nEND\n", 13, "pipeline type 'graphics'");
  ExpectError(shader + "PIPELINE compute p\n  ATTACH nope\nEND\n", 14, "unknown shader 'nope'");
  ExpectError(shader + "PIPELINE compute p\nEND\n", 13, "has no ATTACH");
  ExpectError(shader + "PIPELINE compute p\n  ATTACH inc\n", 13, "PIPELINE has no END");
  ExpectError(shader + "PIPELINE compute p\n  ATTACH inc\n  FRAMEBUFFER_SIZE 1 1\nEND\n", 15,
              "'FRAMEBUFFER_SIZE' is not supported in a PIPELINE");
  ExpectError(shader + "PIPELINE compute p\n  ATTACH inc SPECIALIZE 1 AS int8 3\nEND\n", 14,
              "32- or 64-bit scalar");
  ExpectError(shader + "PIPELINE compute p\n  ATTACH inc SPECIALIZE 1 AS\nEND\n", 14,
              "SPECIALIZE <id> AS <type> <value>");
  ExpectError(shader +
                  "BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\nPIPELINE compute p\n"
                  "  ATTACH inc\n  BIND BUFFER b AS storage DESCRIPTOR_SET 0\nEND\n",
              16, "needs BINDING");
  ExpectError(shader +
                  "BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\nPIPELINE compute p\n"
                  "  ATTACH inc\n  BIND BUFFER b AS storage BINDING 0\n"
                  "  BIND BUFFER b AS uniform BINDING 0\nEND\n",
              17, "bound twice");
  ExpectError(shader +
                  "BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\nPIPELINE compute p\n"
                  "  ATTACH inc\n  BIND BUFFER b AS sampler BINDING 0\nEND\n",
              16, "buffer kind 'sampler'");
  ExpectError(shader +
                  "PIPELINE compute p\n  ATTACH inc\n  BIND BUFFER nope AS storage BINDING 0\n"
                  "END\n",
              15, "unknown buffer 'nope'");
  ExpectError(shader + "PIPELINE compute p\n  ATTACH inc\n  SUBGROUP inc REQUIRED_SIZE 12\nEND\n",
              15, "power of two");
  ExpectError(shader + "PIPELINE compute p\n  ATTACH inc\n  SUBGROUP other\nEND\n", 15,
              "SUBGROUP must name the attached shader");
  ExpectError(shader +
                  "PIPELINE compute p\n  ATTACH inc\n  SUBGROUP inc\n    FULLY_POPULATED yes\n"
                  "  END\nEND\n",
              16, "takes on or off");
  ExpectError(shader + "PIPELINE compute p\n  ATTACH inc\nEND\nRUN p 1 1\n", 16, "RUN <pipeline>");
  ExpectError(shader + "PIPELINE compute p\n  ATTACH inc\nEND\nRUN p 0 1 1\n", 16, "positive");
  ExpectError("RUN nope 1 1 1\n", 1, "unknown pipeline 'nope'");
  ExpectError("BUFFER b DATA_TYPE uint32 SIZE 4 FILL 0\nEXPECT b IDX 12 EQ 0 0\n", 2,
              "reads past the end of 'b' (4 elements, 16 bytes)");
  ExpectError("BUFFER b DATA_TYPE uint32 SIZE 4 FILL 0\nEXPECT b IDX 16 EQ 0\n", 2,
              "reads past the end");
  ExpectError("BUFFER b DATA_TYPE uint32 SIZE 4 FILL 0\nEXPECT b IDX 2 EQ 0\n", 2,
              "IDX 2 is not the byte offset of a component of 'b'");
  // A vec3<float> element takes 16 bytes; bytes 12 to 15 are padding.
  ExpectError("BUFFER b DATA_TYPE vec3<float> SIZE 4 FILL 0\nEXPECT b IDX 12 EQ 0\n", 2,
              "IDX 12 is not the byte offset of a component of 'b' (vec3<float>: 16 bytes");
  ExpectError("BUFFER b DATA_TYPE uint32 SIZE 4 FILL 0\nEXPECT b IDX 0 TOLERANCE 1 EQ 0\n", 2,
              "TOLERANCE needs a float buffer");
  ExpectError("BUFFER b DATA_TYPE float SIZE 4 FILL 0\nEXPECT b IDX 0 TOLERANCE -1 EQ 0\n", 2,
              "bad TOLERANCE");
  ExpectError("BUFFER b DATA_TYPE float SIZE 4 FILL 0\nEXPECT b IDX 0 EQ_RGBA 0\n", 2,
              "needs EQ, NE, LT, LE, GT or GE");
  ExpectError("BUFFER b DATA_TYPE float SIZE 4 FILL 0\nEXPECT b IDX 0 EQ\n", 2, "needs values");
  ExpectError("BUFFER b DATA_TYPE float SIZE 4 FILL 0\nEXPECT b EQ_HISTOGRAM_EMD_BUFFER b\n", 2,
              "'EQ_HISTOGRAM_EMD_BUFFER' is not supported");
  ExpectError(
      "BUFFER a DATA_TYPE float SIZE 4 FILL 0\nBUFFER b DATA_TYPE float SIZE 5 FILL 0\n"
      "EXPECT a EQ_BUFFER b\n",
      3, "differ in type or size");
  ExpectError("BUFFER a DATA_TYPE float SIZE 4 FILL 0\nEXPECT a RMSE_BUFFER a\n", 2,
              "RMSE_BUFFER <b> TOLERANCE <t>");
  ExpectError("DEVICE_FEATURE\n", 1, "takes one name");
  ExpectError("SET ENGINE_DATA fence_timeout_ms 0\n", 1, "fence_timeout_ms");
  ExpectError("\n\nCLEAR_COLOR p 0 0 0 0\n", 3, "'CLEAR_COLOR' is not supported by coopspv-run");
  ExpectError("REPEAT 3\nEND\n", 1, "REPEAT with no command in it");
}

TEST(ParserTest, BufferAddressAndConvertMatrix) {
  Script script;
  ParseError error;
  const std::string text =
      "BUFFER a DATA_TYPE float16 SIZE 24 FILL 1\n"
      "BUFFER opt DATA_TYPE uint8 SIZE 4096 FILL 0\n"
      "BUFFER pc DATA_TYPE uint64 SIZE 2 FILL 0\n"
      "BUFFER_ADDRESS opt INTO pc OFFSET 8\n"
      "CONVERT_MATRIX a opt ROWS 4 COLUMNS 6 SRC_LAYOUT row_major SRC_TYPE float16 "
      "DST_LAYOUT inferencing_optimal DST_TYPE float_e4m3 DST_OFFSET 64\n";
  ASSERT_TRUE(Parse(text, &script, &error)) << error.ToString();
  ASSERT_EQ(script.addresses.size(), 1u);
  EXPECT_EQ(script.addresses[0].buffer, "opt");
  EXPECT_EQ(script.addresses[0].target, "pc");
  EXPECT_EQ(script.addresses[0].offset, 8u);
  ASSERT_EQ(script.commands.size(), 1u);
  const MatrixConversion& m = script.commands[0].conversion;
  EXPECT_EQ(script.commands[0].kind, Command::kConvertMatrix);
  EXPECT_EQ(m.rows, 4u);
  EXPECT_EQ(m.columns, 6u);
  EXPECT_EQ(m.source_layout, MatrixConversion::kRowMajor);
  EXPECT_EQ(m.destination_layout, MatrixConversion::kInferencingOptimal);
  EXPECT_EQ(m.source_type, 0u);                // VK_COMPONENT_TYPE_FLOAT16_KHR.
  EXPECT_EQ(m.destination_type, 1000491002u);  // VK_COMPONENT_TYPE_FLOAT_E4M3_NV.
  EXPECT_EQ(m.source_stride, 12u);             // A tight row of 6 float16.
  EXPECT_EQ(m.destination_offset, 64u);
  EXPECT_EQ(ComponentTypeName(1000491003), "float_e5m2");

  const std::string buffers =
      "BUFFER a DATA_TYPE float16 SIZE 24 FILL 1\nBUFFER pc DATA_TYPE uint32 SIZE 4 FILL 0\n";
  ExpectError(buffers + "BUFFER_ADDRESS a INTO pc OFFSET 12\n", 3, "a multiple of 8");
  ExpectError(buffers + "BUFFER_ADDRESS a INTO pc OFFSET 16\n", 3, "inside 'pc' (16 bytes)");
  ExpectError(buffers + "BUFFER_ADDRESS a INTO nope OFFSET 0\n", 3, "unknown buffer 'nope'");
  ExpectError(buffers + "BUFFER_ADDRESS a pc OFFSET 0\n", 3, "BUFFER_ADDRESS <buffer> INTO");
  ExpectError(buffers + "BUFFER_ADDRESS a INTO pc OFFSET 0\nBUFFER_ADDRESS pc INTO pc OFFSET 0\n",
              4, "already hold an address");
  const std::string convert =
      buffers + "CONVERT_MATRIX a pc ROWS 2 COLUMNS 4 SRC_LAYOUT row_major ";
  ExpectError(convert + "SRC_TYPE float16 DST_LAYOUT column_major DST_TYPE float32\n", 3,
              "the destination matrix needs 32 bytes of 'pc', which has 16");
  ExpectError(convert + "SRC_TYPE float16 DST_LAYOUT diagonal\n", 3, "bad DST_LAYOUT 'diagonal'");
  ExpectError(convert + "SRC_TYPE bfloat16 DST_LAYOUT row_major\n", 3, "bad SRC_TYPE 'bfloat16'");
  ExpectError(convert + "DST_LAYOUT row_major\n", 3, "needs SRC_TYPE");
  ExpectError(convert + "SRC_TYPE float16 DST_LAYOUT row_major SRC_STRIDE 6\n", 3,
              "SRC_STRIDE 6 is shorter than a row");
  ExpectError(convert + "SRC_TYPE float16 DST_LAYOUT row_major SRC_TYPE int8\n", 3,
              "'SRC_TYPE' is given twice");
  ExpectError(convert + "SRC_TYPE float16 DST_LAYOUT row_major COLOR red\n", 3,
              "unknown key 'COLOR'");
  ExpectError(convert + "SRC_TYPE float16 DST_LAYOUT row_major SRC_OFFSET 40\n", 3,
              "the source matrix needs 56 bytes of 'a', which has 48");
  ExpectError(buffers +
                  "CONVERT_MATRIX a a ROWS 1 COLUMNS 1 SRC_LAYOUT row_major SRC_TYPE int8 "
                  "DST_LAYOUT row_major\n",
              3, "source and destination are one buffer");
}

TEST(ParserTest, GarbageNeverCrashes) {
  // Every prefix of a valid script, and bytes of every value: a result or an error, never a
  // crash (ASan/UBSan in CI).
  const std::string text =
      std::string(kShader) +
      "BUFFER b DATA_TYPE vec4<int16> DATA 1 2 3 4\nEND\n"
      "PIPELINE compute p\n  ATTACH inc\n  BIND BUFFER b AS storage BINDING 0\n"
      "END\nRUN p 1 1 1\nEXPECT b IDX 0 EQ 1 2 3 4\n";
  Script s;
  ParseError e;
  ASSERT_TRUE(Parse(text, &s, &e)) << e.ToString();
  for (size_t n = 0; n < text.size(); ++n) Parse(text.substr(0, n), &s, &e);
  // Images, samplers and descriptors: every prefix, and every statement with one word dropped.
  const std::string images =
      std::string(kShader) +
      "IMAGE i FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 2 HEIGHT 2 \\\n MIP_LEVELS 2 SAMPLES 1 FILL 1\n"
      "IMAGE j DATA_TYPE vec2<float> DIM_3D WIDTH 1 HEIGHT 1 DEPTH 2 DATA 1 2 3 4 END\n"
      "BUFFER t DATA_TYPE uint32 WIDTH 2 HEIGHT 1 SERIES_FROM 1 INC_BY 2\n"
      "SAMPLER s MIN_FILTER linear ADDRESS_MODE_W mirrored_repeat MAX_LOD 2 COMPARE off\n"
      "BUFFER b DATA_TYPE int32 SIZE 128 FILL 0\n"
      "PIPELINE compute p\n  ATTACH inc\n"
      "  BIND BUFFER i AS combined_image_sampler SAMPLER s DESCRIPTOR_SET 1 BINDING 0 "
      "BASE_MIP_LEVEL 1\n"
      "  BIND BUFFER_ARRAY b b AS uniform_dynamic BINDING 1 OFFSET 0 256 DESCRIPTOR_OFFSET 0 0 "
      "DESCRIPTOR_RANGE 16 -1\n"
      "  BIND SAMPLER_ARRAY s s BINDING 2\n  BIND BUFFER t AS storage_texel_buffer BINDING 3\n"
      "END\nRUN p 1 1 1\nEXPECT i IDX 0 1 SIZE 2 1 EQ_RGBA 1 1 1 1 TOLERANCE 1 2 3 4\n"
      "EXPECT i IDX 4 EQ 1 1 1 1\n";
  ASSERT_TRUE(Parse(images, &s, &e)) << e.ToString();
  for (size_t n = 0; n < images.size(); ++n) Parse(images.substr(0, n), &s, &e);
  const size_t body = std::string(kShader).size();
  for (size_t at = body; at < images.size(); at = images.find_first_of(" \n", at) + 1) {
    const size_t end = images.find_first_of(" \n", at);
    if (end == std::string::npos) break;
    Parse(images.substr(0, at) + images.substr(end), &s, &e);
  }
  std::string noise;
  for (int i = 0; i < 4096; ++i) noise.push_back(static_cast<char>((i * 7919) % 256));
  EXPECT_FALSE(Parse(noise, &s, &e));
  // The GLSL compiler too: every 16th prefix of a shader, and the noise as a shader.
  const std::string glsl = std::string("SHADER compute s GLSL\n") + kGlsl + "END\n";
  ASSERT_TRUE(Parse(glsl, &s, &e)) << e.ToString();
  for (size_t n = 0; n < glsl.size(); n += 16) Parse(glsl.substr(0, n) + "\nEND\n", &s, &e);
  std::string noisy = noise;
  std::replace(noisy.begin(), noisy.end(), '\n', ' ');
  EXPECT_FALSE(Parse("SHADER compute s GLSL\n" + noisy + "\nEND\n", &s, &e));
}

}  // namespace
}  // namespace coopspv::run
