#include "source/run/glsl.h"

#include <algorithm>
#include <shaderc/shaderc.hpp>

#include "source/common/target_env.h"

namespace coopspv::run {
namespace {

// The <line> of a "<prefix><line>:" message line, and where its text after the ':' starts.
std::optional<uint32_t> MessageLine(std::string_view message, std::string_view prefix,
                                    size_t* rest) {
  if (!message.starts_with(prefix)) return std::nullopt;
  uint32_t line = 0;
  size_t i = prefix.size();
  const size_t digits = i;
  for (; i < message.size() && message[i] >= '0' && message[i] <= '9'; ++i) {
    if (line > 100000000) return std::nullopt;
    line = line * 10 + static_cast<uint32_t>(message[i] - '0');
  }
  if (i == digits || i >= message.size() || message[i] != ':') return std::nullopt;
  *rest = i + 1;
  return line;
}

}  // namespace

std::optional<GlslTarget> GlslTargetForEnv(std::string_view target_env) {
  if (target_env.empty()) return GlslTarget{};
  const auto env = ParseTargetEnv(target_env);
  if (!env) return std::nullopt;
  GlslTarget target;
  target.spirv_version = env->spirv_version;
  if (env->is_vulkan()) {
    // shaderc 2023.2 knows Vulkan up to 1.3.
    target.vulkan_minor = std::min<uint32_t>(env->api_minor, 3);
  } else {
    // The first Vulkan version whose SPIR-V versions include it.
    const uint32_t minor = (env->spirv_version >> 8) & 0xFF;
    target.vulkan_minor = minor == 0 ? 0 : minor <= 3 ? 1 : minor <= 5 ? 2 : 3;
  }
  return target;
}

bool CompileGlslCompute(const GlslSource& source, const GlslTarget& target,
                        std::vector<uint32_t>* words, std::string* error) {
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, (1u << 22) | (target.vulkan_minor << 12));
  options.SetTargetSpirv(static_cast<shaderc_spirv_version>(target.spirv_version));
  const shaderc::Compiler compiler;
  const shaderc::SpvCompilationResult result = compiler.CompileGlslToSpv(
      source.text.data(), source.text.size(), shaderc_compute_shader, source.name.c_str(), options);
  if (result.GetCompilationStatus() == shaderc_compilation_status_success) {
    words->assign(result.cbegin(), result.cend());
    return true;
  }
  error->clear();
  const std::string message = result.GetErrorMessage();
  const std::string prefix = source.name + ":";
  size_t start = 0;
  while (start < message.size()) {
    size_t end = message.find('\n', start);
    if (end == std::string::npos) end = message.size();
    const std::string_view line = std::string_view(message).substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    if (!error->empty()) error->push_back('\n');
    size_t rest = 0;
    const auto number = source.script_line != 0 ? MessageLine(line, prefix, &rest) : std::nullopt;
    if (number && *number != 0) {
      *error += "line " + std::to_string(source.script_line + *number - 1) + ":" +
                std::string(line.substr(rest));
    } else {
      error->append(line);
    }
  }
  if (error->empty()) {
    *error = "shaderc failed with status " + std::to_string(result.GetCompilationStatus());
  }
  return false;
}

}  // namespace coopspv::run
