/* coopspv: the C API, for drivers that validate every module before a shader cache accepts it.
 *
 * A context holds the options (target environment, limits); it is immutable once configured, so
 * one context may validate many modules concurrently from different threads. No exception
 * crosses this API; every function is safe to call with NULL handles (it then does nothing or
 * returns a failure value).
 *
 *   coopspv_context* ctx = coopspv_context_create("vulkan1.3");
 *   coopspv_result* r = coopspv_validate(ctx, words, word_count);
 *   if (!coopspv_result_valid(r)) {
 *     for (size_t i = 0; i < coopspv_result_diagnostic_count(r); ++i) {
 *       const coopspv_diagnostic* d = coopspv_result_diagnostic(r, i);
 *       fprintf(stderr, "%s: %s\n", d->rule_id, d->message);
 *     }
 *   }
 *   coopspv_result_destroy(r);
 *   coopspv_context_destroy(ctx);
 */
#ifndef COOPSPV_INCLUDE_COOPSPV_COOPSPV_H_
#define COOPSPV_INCLUDE_COOPSPV_COOPSPV_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header. The major version is the SONAME's (libcoopspv.so.0): it changes
 * only when a function's signature or a struct's layout does. */
#define COOPSPV_VERSION_MAJOR 0
#define COOPSPV_VERSION_MINOR 2
#define COOPSPV_VERSION_PATCH 0

typedef struct coopspv_context coopspv_context;
typedef struct coopspv_result coopspv_result;

typedef enum coopspv_severity {
  COOPSPV_SEVERITY_ERROR = 0,
  COOPSPV_SEVERITY_WARNING = 1,
} coopspv_severity;

typedef struct coopspv_diagnostic {
  coopspv_severity severity;
  const char* rule_id;  /* Stable rule id, e.g. "id.undefined". */
  const char* message;  /* One line naming the instruction and what is wrong. */
  const char* clause;   /* The spec clause or VUID the rule enforces. */
  int has_instruction;  /* Whether the fields below describe an instruction. */
  uint32_t word_offset; /* Word offset of the instruction in the module. */
  uint32_t result_id;   /* Its result id, 0 if none. */
  uint32_t opcode;
  const char* instruction; /* The instruction as the disassembler prints it. */
} coopspv_diagnostic;

/* The library version, e.g. "coopspv 0.1.0". */
const char* coopspv_version(void);

/* A context for a target environment: "spv1.0" ... "spv1.6", "vulkan1.0" ... "vulkan1.4".
 * Returns NULL for an unknown name or when out of memory. */
coopspv_context* coopspv_context_create(const char* target_env);
void coopspv_context_destroy(coopspv_context* context);
/* Stop after this many errors (0: no limit). Default 100. Returns 0 on success. */
int coopspv_context_set_max_errors(coopspv_context* context, uint32_t max_errors);
/* Drop the diagnostics of a rule. Returns 0 on success, -1 for an unknown rule id. */
int coopspv_context_suppress_rule(coopspv_context* context, const char* rule_id);
/* Validate for a device too: `profile` is a built-in device profile's name ("lavapipe", "h100")
 * or a device profile's JSON text (docs/device_profile.md); the device rules (rule family
 * "device") then run. NULL or "" turns them off again. Returns 0 on success, -1 for a NULL
 * context, an unknown name or a profile that does not read (coopspv-val --device-profile
 * prints why). */
int coopspv_context_set_device_profile(coopspv_context* context, const char* profile);

/* Block layout rules, as coopspv-val's flags of the same names (since 0.2). */
typedef enum coopspv_block_layout {
  COOPSPV_BLOCK_LAYOUT_DEFAULT = 0,
  COOPSPV_BLOCK_LAYOUT_RELAX = 1 << 0,                   /* --relax-block-layout */
  COOPSPV_BLOCK_LAYOUT_UNIFORM_BUFFER_STANDARD = 1 << 1, /* --uniform-buffer-standard-layout */
  COOPSPV_BLOCK_LAYOUT_SCALAR = 1 << 2,                  /* --scalar-block-layout */
  COOPSPV_BLOCK_LAYOUT_WORKGROUP_SCALAR = 1 << 3,        /* --workgroup-scalar-block-layout */
  COOPSPV_BLOCK_LAYOUT_SKIP = 1 << 4,                    /* --skip-block-layout */
} coopspv_block_layout;
/* Sets the block layout flags: an OR of coopspv_block_layout values, replacing those set before
 * (COOPSPV_BLOCK_LAYOUT_DEFAULT: the target environment's defaults). Returns 0 on success, -1
 * for a NULL context or a bit no value names. */
int coopspv_context_set_block_layout(coopspv_context* context, uint32_t flags);

/* Validates a module of `word_count` host-order words, read where they are (no copy is made; the
 * words need stay unchanged only during the call, the result refers to none of them). Returns
 * NULL only when out of memory or for a NULL context. */
coopspv_result* coopspv_validate(const coopspv_context* context, const uint32_t* words,
                                 size_t word_count);

/* An empty result (not valid, no diagnostics) for coopspv_validate_into; NULL if out of memory. */
coopspv_result* coopspv_result_create(void);
/* Validates like coopspv_validate into `result`, replacing what it held (the diagnostics it
 * held are invalidated). The result holds the validator's whole working memory and reuses it:
 * validating again a module it already validated with the same context allocates nothing
 * (docs/c_api.md, "Reusing a result"). Returns 0 on success, -1 for a NULL context or result or
 * when out of memory (the result then holds no diagnostic and is not valid). A result is used by
 * one thread at a time. */
int coopspv_validate_into(const coopspv_context* context, const uint32_t* words, size_t word_count,
                          coopspv_result* result);
/* 1 when the module has no errors (warnings allowed), else 0. */
int coopspv_result_valid(const coopspv_result* result);
size_t coopspv_result_diagnostic_count(const coopspv_result* result);
/* The i-th diagnostic, valid until the result is destroyed; NULL when out of range. */
const coopspv_diagnostic* coopspv_result_diagnostic(const coopspv_result* result, size_t index);
void coopspv_result_destroy(coopspv_result* result);

/* The optimizer, for a driver that legalizes in-process. */
typedef struct coopspv_optimized coopspv_optimized;
/* Runs passes in order on a module, in the context's target environment: each is coopspv-opt's
 * flag, with or without the leading "--", and its argument after '=' where the pass takes one
 * ("freeze-spec-const", "--set-spec-const-default-value=0:16 1:32"). The input is validated
 * first and the output after the passes. Returns NULL only when out of memory or for a NULL
 * context; a failure (unknown pass, bad argument, invalid input or output) is a result whose
 * coopspv_optimized_ok is 0 and whose coopspv_optimized_error says why. */
coopspv_optimized* coopspv_optimize(const coopspv_context* context, const uint32_t* words,
                                    size_t word_count, const char* const* passes,
                                    size_t pass_count);
/* 1 when the passes ran and the output is valid, else 0. */
int coopspv_optimized_ok(const coopspv_optimized* optimized);
/* Why it failed; "" when it did not. Valid until the result is destroyed. */
const char* coopspv_optimized_error(const coopspv_optimized* optimized);
/* The optimized module (host-order words) and its size; NULL and 0 when it failed. */
const uint32_t* coopspv_optimized_words(const coopspv_optimized* optimized, size_t* word_count);
void coopspv_optimized_destroy(coopspv_optimized* optimized);

#ifdef __cplusplus
}
#endif

#endif /* COOPSPV_INCLUDE_COOPSPV_COOPSPV_H_ */
