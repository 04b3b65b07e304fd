// The C API: a thin shell over the C++ API that lets no exception escape.
#include <exception>
#include <new>

#include "include/coopspv/coopspv.h"
#include "include/coopspv/coopspv.hpp"

struct coopspv_context {
  coopspv::ValidatorOptions options;
};

struct coopspv_result {
  coopspv::ValidationResult result;
  std::vector<coopspv_diagnostic> views;  // Point into `result`.
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

coopspv_result* coopspv_validate(const coopspv_context* context, const uint32_t* words,
                                 size_t word_count) {
  if (context == nullptr || (words == nullptr && word_count != 0)) return nullptr;
  try {
    auto* out = new coopspv_result();
    coopspv::Problem problem;
    if (!coopspv::Validate(std::span<const uint32_t>(words, word_count), context->options,
                           &out->result, &problem)) {
      delete out;
      return nullptr;
    }
    out->views.reserve(out->result.diagnostics.size());
    for (const auto& d : out->result.diagnostics) {
      out->views.push_back({d.is_error ? COOPSPV_SEVERITY_ERROR : COOPSPV_SEVERITY_WARNING,
                            d.rule_id.c_str(), d.message.c_str(), d.clause.c_str(),
                            d.has_instruction ? 1 : 0, d.word_offset, d.result_id, d.opcode,
                            d.instruction.c_str()});
    }
    return out;
  } catch (...) {
    return nullptr;
  }
}

int coopspv_result_valid(const coopspv_result* result) {
  return result != nullptr && result->result.valid ? 1 : 0;
}

size_t coopspv_result_diagnostic_count(const coopspv_result* result) {
  return result == nullptr ? 0 : result->views.size();
}

const coopspv_diagnostic* coopspv_result_diagnostic(const coopspv_result* result, size_t index) {
  if (result == nullptr || index >= result->views.size()) return nullptr;
  return &result->views[index];
}

void coopspv_result_destroy(coopspv_result* result) { delete result; }

}  // extern "C"
