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
#include "source/run/specialization.h"

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
  // The workgroup size once specialized (the WorkgroupSize built-in, LocalSizeId or LocalSize);
  // 0 when not known.
  uint32_t local_size[3] = {0, 0, 0};
  std::vector<std::string> extensions;  // The module's OpExtension names.
};

// False with a message when the module cannot be read or has no GLCompute entry point named
// `entry_point`. The resources are the descriptor and push-constant variables the entry point
// statically uses (Vulkan's interface matching looks at no others: an unused variable needs no
// binding, whatever the SPIR-V version), found in the functions the entry point reaches. `spec`
// specializes the workgroup size.
bool ReadModuleInterface(std::span<const uint32_t> words, std::string_view entry_point,
                         ModuleInterface* out, std::string* error,
                         std::span<const SpecConstant> spec = {});

// Reads the interface of the pipeline's entry point and checks the script's bindings against
// it: every storage or uniform buffer the shader declares is bound at its set and binding as the
// same kind, a push-constant block has a push_constant buffer and the other way round. False
// with a message naming the script line.
bool CheckPipelineInterface(const Script& script, const Pipeline& pipeline,
                            ModuleInterface* interface, std::string* error);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_MODULE_INTERFACE_H_
