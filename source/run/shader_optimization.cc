#include "source/run/shader_optimization.h"

#include <spirv-tools/optimizer.hpp>

namespace coopspv::run {

bool OptimizeWithSpirvTools(const std::vector<uint32_t>& words,
                            const std::vector<std::string>& flags, std::vector<uint32_t>* out,
                            std::string* error) {
  if (words.size() < 5) {
    *error = "not a SPIR-V module";
    return false;
  }
  // Amber optimizes for the shader's target environment; a module's version names it.
  spv_target_env env = SPV_ENV_UNIVERSAL_1_0;
  switch (words[1]) {
    case 0x00010100:
      env = SPV_ENV_UNIVERSAL_1_1;
      break;
    case 0x00010200:
      env = SPV_ENV_UNIVERSAL_1_2;
      break;
    case 0x00010300:
      env = SPV_ENV_UNIVERSAL_1_3;
      break;
    case 0x00010400:
      env = SPV_ENV_UNIVERSAL_1_4;
      break;
    case 0x00010500:
      env = SPV_ENV_UNIVERSAL_1_5;
      break;
    case 0x00010600:
      env = SPV_ENV_UNIVERSAL_1_6;
      break;
    default:
      break;
  }
  std::string messages;
  spvtools::Optimizer optimizer(env);
  optimizer.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
        messages += std::string(messages.empty() ? "" : "; ") + message;
      });
  if (!optimizer.RegisterPassesFromFlags(flags)) {
    *error = "invalid optimizations: " + messages;
    return false;
  }
  if (!optimizer.Run(words.data(), words.size(), out)) {
    *error = "the optimizations failed: " + messages;
    return false;
  }
  return true;
}

}  // namespace coopspv::run
