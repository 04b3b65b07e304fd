// coopspv: the public C++ API. Reading, writing, assembling and disassembling SPIR-V modules
// that use cooperative matrices and vectors.
#ifndef COOPSPV_INCLUDE_COOPSPV_COOPSPV_HPP_
#define COOPSPV_INCLUDE_COOPSPV_COOPSPV_HPP_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace coopspv {

// The library's version, printed by every tool's --version.
const char* Version();

// Where a problem was found: a word offset for binaries, a line and column for text.
struct Problem {
  std::string message;
  std::optional<size_t> word_offset;
  uint32_t line = 0;  // 0 when not text.
  uint32_t column = 0;

  std::string ToString() const;
};

// The SPIR-V version a target environment name ("spv1.5", "vulkan1.3", ...) allows, as the
// header encodes it (0x00MMmm00); nullopt for an unknown name.
std::optional<uint32_t> SpirvVersionForTargetEnv(std::string_view name);
// The accepted target environment names, comma separated.
const char* TargetEnvNames();

// Bytes of a .spv file to words (either byte order); fails unless the size is a multiple of 4.
bool BytesToWords(std::span<const uint8_t> bytes, std::vector<uint32_t>* words, Problem* problem);
// Words to bytes, little-endian.
std::vector<uint8_t> WordsToBytes(std::span<const uint32_t> words);

struct AssembleOptions {
  // Header version; default from the text's header comment, else default_version.
  std::optional<uint32_t> version;
  uint32_t default_version = 0x00010600;
  bool preserve_numeric_ids = false;
};
bool Assemble(std::string_view text, const AssembleOptions& options, std::vector<uint32_t>* words,
              Problem* problem);

struct DisassembleOptions {
  bool header = true;
  bool indent = true;
  bool friendly_names = true;
};
bool Disassemble(std::span<const uint32_t> words, const DisassembleOptions& options,
                 std::string* text, Problem* problem);

// Checks that the words form a well-formed binary module (header, word counts, operands by the
// grammar, ids below the bound): the reader's checks, without validation rules.
bool ParseCheck(std::span<const uint32_t> words, Problem* problem);

// ---- Validation.

// A device profile as LoadDeviceProfile read it (opaque).
struct DeviceProfileHandle;

struct ValidatorOptions {
  std::string target_env = "spv1.6";
  uint32_t max_errors = 100;  // 0: no limit.
  bool relax_logical_pointer = false;
  bool before_hlsl_legalization = false;
  // Block layout rules, as spirv-val's flags of the same names (relaxed layout is the default
  // from vulkan1.1 on).
  bool relax_block_layout = false;
  bool uniform_buffer_standard_layout = false;
  bool scalar_block_layout = false;
  bool workgroup_scalar_block_layout = false;
  bool skip_block_layout = false;
  // Bit-field instructions on integers other than 32-bit in Vulkan (maintenance9).
  bool allow_vulkan_32_bit_bitwise = false;
  uint32_t max_id_bound = 0x3FFFFF;
  uint32_t max_struct_members = 16383;
  uint32_t max_function_args = 255;
  uint32_t max_control_flow_nesting_depth = 1023;
  uint32_t max_access_chain_indexes = 255;
  std::vector<std::string> suppressed_rules;
  std::vector<std::string> warnings_as_errors;  // Rule ids, or "*" for all warnings.
  // The device the module is meant for (LoadDeviceProfile); with one, the device rules (rule
  // family "device") run too. nullptr: they do not.
  std::shared_ptr<const DeviceProfileHandle> device_profile;
};

// The built-in device profiles: "lavapipe", and "h100" in builds that have its file.
std::vector<std::string> DeviceProfileNames();
// Reads a device profile: a built-in profile's name, or a profile's JSON text
// (docs/device_profile.md). False with the reason (the key path of a bad value) in `problem`.
// One profile may serve any number of validations, on any threads.
bool LoadDeviceProfile(std::string_view name_or_json,
                       std::shared_ptr<const DeviceProfileHandle>* out, Problem* problem);

struct ValidationDiagnostic {
  bool is_error = true;
  std::string rule_id;
  std::string message;
  std::string clause;
  bool has_instruction = false;
  uint32_t word_offset = 0;
  uint32_t result_id = 0;
  uint32_t opcode = 0;
  std::string instruction;  // As the disassembler prints it.
};

struct ValidationResult {
  bool valid = true;
  uint32_t errors = 0;
  uint32_t warnings = 0;
  bool truncated = false;  // Stopped at max_errors.
  std::vector<ValidationDiagnostic> diagnostics;
};

// Memory that one validation after another reuses: the validator's working state (the parsed
// instructions, id tables, analyses, every rule family's containers, the diagnostics' text) takes
// its blocks from the workspace and gives them back to it, not to the heap. Validating the same
// module again with the same options and the same workspace, into the same result, allocates
// nothing (docs/c_api.md says what else is guaranteed). Used by one thread at a time; it holds
// the largest amount of memory a validation through it has needed, until destroyed.
class ValidationWorkspace {
 public:
  ValidationWorkspace();
  ~ValidationWorkspace();
  ValidationWorkspace(const ValidationWorkspace&) = delete;
  ValidationWorkspace& operator=(const ValidationWorkspace&) = delete;

  struct Impl;  // The library's own (source/api/workspace.h).
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// Validates a module. Fails (returns false, with `problem`) only for a bad option such as an
// unknown target environment or rule id; an invalid module is a successful validation whose
// result says valid = false. Without a workspace, the call uses a temporary one. `result`'s
// diagnostics are assigned in place, so a result reused for a module with no more diagnostics
// keeps their storage.
bool Validate(std::span<const uint32_t> words, const ValidatorOptions& options,
              ValidationResult* result, Problem* problem, ValidationWorkspace* workspace = nullptr);

// "error: <rule-id>: <message> [<clause>]" plus the instruction line.
std::string FormatDiagnostic(const ValidationDiagnostic& d);
// The result as JSON.
std::string FormatJson(const ValidationResult& result);

// Every rule: id, severity ("error" / "warning"), clause and summary.
struct RuleInfo {
  std::string id;
  std::string severity;
  std::string clause;
  std::string summary;
};
std::vector<RuleInfo> ValidationRules();

// ---- Optimization.

// A pass as its command-line flag (without "--") and argument ("" when it takes none), e.g.
// {"fold-coop-length", "32"} or {"set-spec-const-default-value", "0:16 1:8"}.
struct PassRequest {
  std::string flag;
  std::string argument;
};

struct OptimizerOptions {
  std::string target_env = "spv1.6";
  std::vector<PassRequest> passes;
  bool validate_after_each = false;  // Validate after every pass; name the pass that broke it.
  bool skip_validation = false;      // Do not validate the input first.
};

struct PassReport {
  std::string pass;    // "driver/sub-pass" for the passes a driver pass ran.
  std::string status;  // "changed", "unchanged" or "failed".
  double milliseconds = 0;
  uint64_t instructions_before = 0;
  uint64_t instructions_after = 0;
};

struct OptimizeResult {
  std::vector<uint32_t> words;  // The optimized module.
  std::vector<PassReport> passes;
  // Validation of the input (when it failed) or of the output.
  ValidationResult validation;
};

// Runs the passes in order. Fails with `problem` for an unknown pass or bad argument, an
// invalid input (see result->validation), a failing pass, or an invalid output.
bool Optimize(std::span<const uint32_t> words, const OptimizerOptions& options,
              OptimizeResult* result, Problem* problem);

struct PassHelp {
  std::string flag;
  std::string argument;  // "" when the pass takes none.
  std::string help;
};
std::vector<PassHelp> OptimizerPasses();

}  // namespace coopspv

#endif  // COOPSPV_INCLUDE_COOPSPV_COOPSPV_HPP_
