// The validator: options, diagnostics and the entry point. Rule families live in one file each
// (layout.cc, capability.cc, ids.cc, types.cc, constants.cc, function.cc, ssa.cc, ...); each
// reads the module through ValidationState and reports through it, never changing the module.
#ifndef COOPSPV_SOURCE_VAL_VALIDATOR_H_
#define COOPSPV_SOURCE_VAL_VALIDATOR_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "source/common/target_env.h"
#include "source/common/workspace.h"
#include "source/ir/module.h"
#include "source/profile/device_profile.h"
#include "source/val/rules.h"

namespace coopspv::val {

struct Options {
  TargetEnv env = *ParseTargetEnv("spv1.6");
  // Stop after this many errors (0: no limit). Warnings do not count.
  uint32_t max_errors = 100;

  // spirv-val relax flags that apply to the rules implemented here.
  bool relax_logical_pointer = false;     // Pointers may be operands of any instruction.
  bool before_hlsl_legalization = false;  // Implies relax_logical_pointer.
  // Block layout (block_layout.cc): relaxed vector placement (the default from Vulkan 1.1),
  // base instead of extended alignment for Uniform Blocks, scalar alignment (for Workgroup
  // blocks only, or everywhere), or no layout check at all.
  bool relax_block_layout = false;
  bool uniform_buffer_standard_layout = false;
  bool scalar_block_layout = false;
  bool workgroup_scalar_block_layout = false;
  bool skip_block_layout = false;
  // VUID-RuntimeSpirv-None-10824 lifted: bit-field instructions on 8-, 16- and 64-bit integers
  // (a device with maintenance9; spirv-val's --allow-vulkan-32-bit-bitwise).
  bool allow_vulkan_32_bit_bitwise = false;

  // Limits (SPIR-V's universal limits by default).
  uint32_t max_id_bound = 0x3FFFFF;
  uint32_t max_struct_members = 16383;
  uint32_t max_function_args = 255;
  uint32_t max_control_flow_nesting_depth = 1023;
  uint32_t max_access_chain_indexes = 255;
  uint32_t max_type_nesting_depth = 255;

  // Rule ids whose diagnostics are dropped, and warnings reported as errors ("*": all).
  std::vector<std::string> suppressed_rules;
  std::vector<std::string> warnings_as_errors;

  // The device the module is meant for (docs/device_profile.md): with one, the device rules
  // (family "device": property lists, features, extensions, limits, stages) run too.
  std::shared_ptr<const profile::DeviceProfile> device_profile;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  const Rule* rule = nullptr;
  ws::string message;
  // The offending instruction, when there is one.
  bool has_instruction = false;
  uint32_t word_offset = 0;
  uint32_t result_id = 0;
  uint32_t opcode = 0;
  ws::string instruction_text;  // As the disassembler prints it, friendly names included.
};

struct Result {
  bool valid = true;  // No errors (warnings allowed).
  ws::vector<Diagnostic> diagnostics;
  uint32_t num_errors = 0;
  uint32_t num_warnings = 0;
  bool truncated = false;  // max_errors was reached.
};

Result Validate(std::span<const uint32_t> words, const Options& options);

// What one validation after another reuses (source/common/workspace.h): the pool that every
// container of a validation takes its blocks from, so that validating a module again allocates
// nothing, and the last result. Used by one thread at a time.
struct Workspace {
  ws::Pool pool;               // First: it outlives the containers below, which hold its blocks.
  coopspv::Diagnostic reader;  // The reader's complaint; its text keeps its capacity.
  Result result;
};
// Validates with the workspace's pool open; the result is workspace->result, until the next call.
const Result& Validate(std::span<const uint32_t> words, const Options& options,
                       Workspace* workspace);
// Validates a module already read.
Result Validate(const ir::Module& module, const Options& options);

}  // namespace coopspv::val

#endif  // COOPSPV_SOURCE_VAL_VALIDATOR_H_
