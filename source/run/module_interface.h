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
  enum Kind : uint8_t {
    kStorage,
    kUniform,
    kStorageImage,          // OpTypeImage, Sampled 2.
    kSampledImage,          // OpTypeImage, Sampled 1.
    kImage,                 // OpTypeImage, Sampled 0: sampled or storage, known at run time.
    kSampler,               // OpTypeSampler.
    kCombinedImageSampler,  // OpTypeSampledImage.
    kUniformTexelBuffer,    // OpTypeImage, Dim Buffer, Sampled 1.
    kStorageTexelBuffer,    // OpTypeImage, Dim Buffer, Sampled 2.
    kOther                  // An acceleration structure, a tensor, ...
  } kind = kOther;
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t variable = 0;  // Result id of the OpVariable.
  // An array of descriptors: its length (the binding's least descriptorCount); 1 for one; 0 for
  // a runtime array (any count).
  uint32_t count = 1;
  // Images (OpTypeImage, also inside OpTypeSampledImage): the operands that must agree with the
  // bound image's view.
  struct Image {
    uint32_t dim = 0;  // spv::Dim.
    bool arrayed = false;
    bool multisampled = false;
    // The Sampled Type: 'f' float, 'i' signed, 'u' unsigned integer; 0 when void or unknown.
    char sampled_type = 0;
  } image;
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
// it: every descriptor the entry point uses is bound at its set and binding as a kind of
// descriptor that Vulkan lets the variable's type read (Shader Resource and Descriptor Type
// Correspondence), with at least the array's length of descriptors, images with the view type,
// sample count and numeric format the image type needs; a push-constant block has a
// push_constant buffer and the other way round. False with a message naming the script line.
bool CheckPipelineInterface(const Script& script, const Pipeline& pipeline,
                            ModuleInterface* interface, std::string* error);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_MODULE_INTERFACE_H_
