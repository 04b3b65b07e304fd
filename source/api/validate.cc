// The public validation API (C++), over source/val.
#include <cstdio>
#include <memory>

#include "include/coopspv/coopspv.hpp"
#include "source/api/workspace.h"
#include "source/common/target_env.h"
#include "source/val/validator.h"

namespace coopspv {

struct DeviceProfileHandle {
  profile::DeviceProfile profile;
};

namespace {

bool ToInternal(const ValidatorOptions& in, val::Options* out, Problem* problem) {
  const auto env = ParseTargetEnv(in.target_env);
  if (!env) {
    if (problem) {
      problem->message = "unknown target environment '" + in.target_env + "' (expected one of " +
                         AllTargetEnvNames() + ")";
    }
    return false;
  }
  for (const auto* list : {&in.suppressed_rules, &in.warnings_as_errors}) {
    for (const std::string& id : *list) {
      if (id != "*" && val::FindRule(id) == nullptr) {
        if (problem) problem->message = "unknown rule id '" + id + "'";
        return false;
      }
    }
  }
  out->env = *env;
  out->max_errors = in.max_errors;
  out->relax_logical_pointer = in.relax_logical_pointer || in.before_hlsl_legalization;
  out->before_hlsl_legalization = in.before_hlsl_legalization;
  out->relax_block_layout = in.relax_block_layout;
  out->uniform_buffer_standard_layout = in.uniform_buffer_standard_layout;
  out->scalar_block_layout = in.scalar_block_layout;
  out->workgroup_scalar_block_layout = in.workgroup_scalar_block_layout;
  out->skip_block_layout = in.skip_block_layout;
  out->allow_vulkan_32_bit_bitwise = in.allow_vulkan_32_bit_bitwise;
  out->max_id_bound = in.max_id_bound;
  out->max_struct_members = in.max_struct_members;
  out->max_function_args = in.max_function_args;
  out->max_control_flow_nesting_depth = in.max_control_flow_nesting_depth;
  out->max_access_chain_indexes = in.max_access_chain_indexes;
  out->suppressed_rules = in.suppressed_rules;
  out->warnings_as_errors = in.warnings_as_errors;
  if (in.device_profile != nullptr) {
    // Shares the handle's ownership.
    out->device_profile = std::shared_ptr<const profile::DeviceProfile>(
        in.device_profile, &in.device_profile->profile);
  } else {
    out->device_profile = nullptr;
  }
  return true;
}

void AppendJsonString(std::string_view s, std::string* out) {
  *out += '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      *out += '\\';
      *out += c;
    } else if (c == '\n') {
      *out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
      *out += buffer;
    } else {
      *out += c;
    }
  }
  *out += '"';
}

}  // namespace

std::vector<std::string> DeviceProfileNames() { return profile::BuiltInNames(); }

bool LoadDeviceProfile(std::string_view name_or_json,
                       std::shared_ptr<const DeviceProfileHandle>* out, Problem* problem) {
  std::string error;
  auto parsed = profile::FromNameOrText(name_or_json, &error);
  if (!parsed) {
    if (problem) problem->message = "device profile: " + error;
    return false;
  }
  *out = std::make_shared<const DeviceProfileHandle>(DeviceProfileHandle{std::move(*parsed)});
  return true;
}

std::shared_ptr<const DeviceProfileHandle> MakeDeviceProfileHandle(profile::DeviceProfile profile) {
  return std::make_shared<const DeviceProfileHandle>(DeviceProfileHandle{std::move(profile)});
}

ValidationWorkspace::ValidationWorkspace() : impl_(std::make_unique<Impl>()) {}
ValidationWorkspace::~ValidationWorkspace() = default;

const val::Result* ValidateInWorkspace(std::span<const uint32_t> words,
                                       const ValidatorOptions& options,
                                       ValidationWorkspace& workspace, Problem* problem) {
  ValidationWorkspace::Impl& impl = workspace.impl();
  if (!ToInternal(options, &impl.options, problem)) return nullptr;
  return &val::Validate(words, impl.options, &impl.workspace);
}

bool Validate(std::span<const uint32_t> words, const ValidatorOptions& options,
              ValidationResult* result, Problem* problem, ValidationWorkspace* workspace) {
  if (workspace == nullptr) {
    ValidationWorkspace temporary;
    return Validate(words, options, result, problem, &temporary);
  }
  const val::Result* validated = ValidateInWorkspace(words, options, *workspace, problem);
  if (validated == nullptr) return false;
  const val::Result& r = *validated;
  result->valid = r.valid;
  result->errors = r.num_errors;
  result->warnings = r.num_warnings;
  result->truncated = r.truncated;
  // Assigned into the diagnostics the result already holds, so that a result reused for a
  // module with as many diagnostics keeps its strings' storage (the C API's reused results).
  result->diagnostics.resize(r.diagnostics.size());
  for (size_t i = 0; i < r.diagnostics.size(); ++i) {
    const val::Diagnostic& d = r.diagnostics[i];
    ValidationDiagnostic& out = result->diagnostics[i];
    out.is_error = d.severity == val::Severity::kError;
    out.rule_id = d.rule->id;
    out.message = d.message;
    out.clause = d.rule->clause;
    out.has_instruction = d.has_instruction;
    out.word_offset = d.word_offset;
    out.result_id = d.result_id;
    out.opcode = d.opcode;
    out.instruction = d.instruction_text;
  }
  return true;
}

std::string FormatDiagnostic(const ValidationDiagnostic& d) {
  std::string out = d.is_error ? "error: " : "warning: ";
  out += d.rule_id + ": " + d.message + " [" + d.clause + "]\n";
  if (d.has_instruction) out += "  " + d.instruction + "\n";
  return out;
}

std::string FormatJson(const ValidationResult& result) {
  std::string out = "{\"valid\": ";
  out += result.valid ? "true" : "false";
  out += ", \"errors\": " + std::to_string(result.errors);
  out += ", \"warnings\": " + std::to_string(result.warnings);
  out += ", \"truncated\": ";
  out += result.truncated ? "true" : "false";
  out += ", \"diagnostics\": [";
  bool first = true;
  for (const ValidationDiagnostic& d : result.diagnostics) {
    out += first ? "\n  {" : ",\n  {";
    first = false;
    out += "\"severity\": ";
    out += d.is_error ? "\"error\"" : "\"warning\"";
    out += ", \"rule\": ";
    AppendJsonString(d.rule_id, &out);
    out += ", \"message\": ";
    AppendJsonString(d.message, &out);
    out += ", \"clause\": ";
    AppendJsonString(d.clause, &out);
    if (d.has_instruction) {
      out += ", \"word_offset\": " + std::to_string(d.word_offset);
      out += ", \"result_id\": " + std::to_string(d.result_id);
      out += ", \"opcode\": " + std::to_string(d.opcode);
      out += ", \"instruction\": ";
      AppendJsonString(d.instruction, &out);
    }
    out += "}";
  }
  out += first ? "]}\n" : "\n]}\n";
  return out;
}

std::vector<RuleInfo> ValidationRules() {
  std::vector<RuleInfo> out;
  for (const val::Rule& r : val::AllRules()) {
    out.push_back(
        {r.id, r.severity == val::Severity::kError ? "error" : "warning", r.clause, r.summary});
  }
  return out;
}

}  // namespace coopspv
