// GLSL shaders of a script, compiled as Amber compiles them: shaderc, for Vulkan, with the
// Vulkan and SPIR-V versions that Amber gives the SHADER's TARGET_ENV.
#ifndef COOPSPV_SOURCE_RUN_GLSL_H_
#define COOPSPV_SOURCE_RUN_GLSL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coopspv::run {

struct GlslTarget {
  uint32_t vulkan_minor = 0;            // Vulkan 1.x.
  uint32_t spirv_version = 0x00010000;  // 0x00MMmm00.
};

// Amber's ParseSpvEnv (src/shader_compiler.cc): no TARGET_ENV is Vulkan 1.0 with SPIR-V 1.0, a
// spvX.Y the first Vulkan version that takes SPIR-V X.Y, a vulkanX.Y its own SPIR-V version.
// Also spv1.6, vulkan1.3 and vulkan1.4 (Vulkan 1.3, SPIR-V 1.6), which Amber refuses.
// Nullopt for a name coopspv does not know.
std::optional<GlslTarget> GlslTargetForEnv(std::string_view target_env);

// The GLSL source of a compute shader: a script's SHADER block, or a file of its own.
struct GlslSource {
  std::string_view text;
  std::string name;          // Names the source in messages: the shader, or the file's path.
  uint32_t script_line = 0;  // The script line of the text's first line; 0 for a file.
};

// Compiles `source` into `words`. On failure `error` has the compiler's messages, one a line;
// for a SHADER block, a message's "<name>:<line>:" becomes "line <script line>:".
bool CompileGlslCompute(const GlslSource& source, const GlslTarget& target,
                        std::vector<uint32_t>* words, std::string* error);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_GLSL_H_
