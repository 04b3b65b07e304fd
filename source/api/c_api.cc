// The C API: a thin shell over the C++ API that lets no exception escape.
#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "include/coopspv/coopspv.h"
#include "include/coopspv/coopspv.hpp"
#include "source/api/workspace.h"

struct coopspv_context {
  coopspv::ValidatorOptions options;
};

struct coopspv_result {
  // The validator's memory, reused by every validation into this result; the last validation's
  // diagnostics live in it.
  coopspv::ValidationWorkspace workspace;
  bool valid = false;
  std::vector<coopspv_diagnostic> views;  // Point into the workspace's result.
};

struct coopspv_optimized {
  bool ok = false;
  std::string error;
  coopspv::OptimizeResult result;
};

extern "C" {

const char* coopspv_version(void) { return coopspv::Version(); }

coopspv_context* coopspv_context_create(const char* target_env) {
  if (target_env == nullptr || !coopspv::SpirvVersionForTargetEnv(target_env)) return nullptr;
  try {
    auto* context = new coopspv_context();
    context->options.target_env = target_env;
    return context;
  } catch (...) {
    return nullptr;
  }
}

void coopspv_context_destroy(coopspv_context* context) { delete context; }

int coopspv_context_set_max_errors(coopspv_context* context, uint32_t max_errors) {
  if (context == nullptr) return -1;
  context->options.max_errors = max_errors;
  return 0;
}

int coopspv_context_set_block_layout(coopspv_context* context, uint32_t flags) {
  constexpr uint32_t kAll = COOPSPV_BLOCK_LAYOUT_RELAX |
                            COOPSPV_BLOCK_LAYOUT_UNIFORM_BUFFER_STANDARD |
                            COOPSPV_BLOCK_LAYOUT_SCALAR | COOPSPV_BLOCK_LAYOUT_WORKGROUP_SCALAR |
                            COOPSPV_BLOCK_LAYOUT_SKIP;
  if (context == nullptr || (flags & ~kAll) != 0) return -1;
  coopspv::ValidatorOptions& o = context->options;
  o.relax_block_layout = (flags & COOPSPV_BLOCK_LAYOUT_RELAX) != 0;
  o.uniform_buffer_standard_layout = (flags & COOPSPV_BLOCK_LAYOUT_UNIFORM_BUFFER_STANDARD) != 0;
  o.scalar_block_layout = (flags & COOPSPV_BLOCK_LAYOUT_SCALAR) != 0;
  o.workgroup_scalar_block_layout = (flags & COOPSPV_BLOCK_LAYOUT_WORKGROUP_SCALAR) != 0;
  o.skip_block_layout = (flags & COOPSPV_BLOCK_LAYOUT_SKIP) != 0;
  return 0;
}

int coopspv_context_suppress_rule(coopspv_context* context, const char* rule_id) {
  if (context == nullptr || rule_id == nullptr) return -1;
  try {
    for (const auto& rule : coopspv::ValidationRules()) {
      if (rule.id == rule_id) {
        context->options.suppressed_rules.push_back(rule_id);
        return 0;
      }
    }
  } catch (...) {
  }
  return -1;
}

int coopspv_context_set_device_profile(coopspv_context* context, const char* profile) {
  if (context == nullptr) return -1;
  try {
    if (profile == nullptr || *profile == '\0') {
      context->options.device_profile = nullptr;
      return 0;
    }
    return coopspv::LoadDeviceProfile(profile, &context->options.device_profile, nullptr) ? 0 : -1;
  } catch (...) {
  }
  return -1;
}

coopspv_result* coopspv_result_create(void) {
  try {
    return new coopspv_result();
  } catch (...) {
    return nullptr;
  }
}

int coopspv_validate_into(const coopspv_context* context, const uint32_t* words, size_t word_count,
                          coopspv_result* out) {
  if (out == nullptr) return -1;
  out->views.clear();
  out->valid = false;
  if (context == nullptr || (words == nullptr && word_count != 0)) return -1;
  try {
    coopspv::Problem problem;
    const coopspv::val::Result* r = coopspv::ValidateInWorkspace(
        std::span<const uint32_t>(words, word_count), context->options, out->workspace, &problem);
    if (r == nullptr) return -1;
    // Capacity kept: the views grow only past the most diagnostics the result has held.
    out->views.reserve(r->diagnostics.size());
    for (const coopspv::val::Diagnostic& d : r->diagnostics) {
      out->views.push_back({d.severity == coopspv::val::Severity::kError ? COOPSPV_SEVERITY_ERROR
                                                                         : COOPSPV_SEVERITY_WARNING,
                            d.rule->id, d.message.c_str(), d.rule->clause,
                            d.has_instruction ? 1 : 0, d.word_offset, d.result_id, d.opcode,
                            d.instruction_text.c_str()});
    }
    out->valid = r->valid;
    return 0;
  } catch (...) {
    out->views.clear();
    return -1;
  }
}

coopspv_result* coopspv_validate(const coopspv_context* context, const uint32_t* words,
                                 size_t word_count) {
  if (context == nullptr) return nullptr;
  coopspv_result* out = coopspv_result_create();
  if (out == nullptr) return nullptr;
  if (coopspv_validate_into(context, words, word_count, out) != 0) {
    delete out;
    return nullptr;
  }
  return out;
}

int coopspv_result_valid(const coopspv_result* result) {
  return result != nullptr && result->valid ? 1 : 0;
}

size_t coopspv_result_diagnostic_count(const coopspv_result* result) {
  return result == nullptr ? 0 : result->views.size();
}

const coopspv_diagnostic* coopspv_result_diagnostic(const coopspv_result* result, size_t index) {
  if (result == nullptr || index >= result->views.size()) return nullptr;
  return &result->views[index];
}

void coopspv_result_destroy(coopspv_result* result) { delete result; }

coopspv_optimized* coopspv_optimize(const coopspv_context* context, const uint32_t* words,
                                    size_t word_count, const char* const* passes,
                                    size_t pass_count) {
  if (context == nullptr) return nullptr;
  try {
    auto* out = new coopspv_optimized();
    if ((words == nullptr && word_count != 0) || (passes == nullptr && pass_count != 0)) {
      out->error = "NULL words or passes";
      return out;
    }
    coopspv::OptimizerOptions options;
    options.target_env = context->options.target_env;
    for (size_t i = 0; i < pass_count; ++i) {
      if (passes[i] == nullptr) {
        out->error = "pass " + std::to_string(i) + " is NULL";
        return out;
      }
      std::string_view pass = passes[i];
      if (pass.rfind("--", 0) == 0) pass.remove_prefix(2);
      const size_t equals = pass.find('=');
      coopspv::PassRequest request;
      request.flag = std::string(pass.substr(0, equals));
      if (equals != std::string_view::npos) request.argument = std::string(pass.substr(equals + 1));
      options.passes.push_back(std::move(request));
    }
    coopspv::Problem problem;
    if (coopspv::Optimize(std::span<const uint32_t>(words, word_count), options, &out->result,
                          &problem)) {
      out->ok = true;
      return out;
    }
    out->error = problem.ToString();
    // The first error of an invalid input or output says what to fix.
    for (const auto& d : out->result.validation.diagnostics) {
      if (!d.is_error) continue;
      out->error += ": " + d.rule_id + ": " + d.message;
      break;
    }
    out->result.words.clear();
    return out;
  } catch (...) {
    return nullptr;
  }
}

int coopspv_optimized_ok(const coopspv_optimized* optimized) {
  return optimized != nullptr && optimized->ok ? 1 : 0;
}

const char* coopspv_optimized_error(const coopspv_optimized* optimized) {
  return optimized == nullptr ? "NULL result" : optimized->error.c_str();
}

const uint32_t* coopspv_optimized_words(const coopspv_optimized* optimized, size_t* word_count) {
  const bool ok = optimized != nullptr && optimized->ok;
  if (word_count != nullptr) *word_count = ok ? optimized->result.words.size() : 0;
  return ok ? optimized->result.words.data() : nullptr;
}

void coopspv_optimized_destroy(coopspv_optimized* optimized) { delete optimized; }

}  // extern "C"
