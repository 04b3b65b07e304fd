// What a compute entry point of a SPIR-V module expects from the pipeline: its descriptor-set
// buffers (storage or uniform) and whether it has a push-constant block, and its spec constant
// ids. Read from the words directly; enough to catch a script that binds the wrong thing, which
// a driver would not report (it is undefined behaviour, not an error).
#ifndef COOPSPV_SOURCE_RUN_MODULE_INTERFACE_H_
#define COOPSPV_SOURCE_RUN_MODULE_INTERFACE_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "source/run/script.h"

namespace coopspv::run {

struct ModuleResource {
  enum Kind : uint8_t { kStorage, kUniform, kOther } kind = kOther;
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t variable = 0;  // Result id of the OpVariable.
};

struct ModuleInterface {
  std::vector<ModuleResource> resources;
  bool push_constants = false;
  uint32_t local_size[3] = {0, 0, 0};   // OpExecutionMode LocalSize; 0 when not literal.
  std::vector<std::string> extensions;  // The module's OpExtension names.
};

// False with a message when the module has no GLCompute entry point named `entry_point`.
// Modules of SPIR-V 1.4 and later list every global they use on the entry point; for older
// ones every descriptor variable of the module counts.
bool ReadModuleInterface(std::span<const uint32_t> words, std::string_view entry_point,
                         ModuleInterface* out, std::string* error);

// Reads the interface of the pipeline's entry point and checks the script's bindings against
// it: every storage or uniform buffer the shader declares is bound at its set and binding as the
// same kind, a push-constant block has a push_constant buffer and the other way round. False
// with a message naming the script line.
bool CheckPipelineInterface(const Script& script, const Pipeline& pipeline,
                            ModuleInterface* interface, std::string* error);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_MODULE_INTERFACE_H_
