// Everything a C API result says, as text: equal texts, equal results (threads_test,
// reuse_test).
#ifndef COOPSPV_TEST_API_DESCRIBE_H_
#define COOPSPV_TEST_API_DESCRIBE_H_

#include <string>

#include "include/coopspv/coopspv.h"

namespace coopspv::test {

inline std::string Describe(const coopspv_result* r) {
  std::string out = coopspv_result_valid(r) ? "valid\n" : "invalid\n";
  for (size_t i = 0; i < coopspv_result_diagnostic_count(r); ++i) {
    const coopspv_diagnostic* d = coopspv_result_diagnostic(r, i);
    out += std::to_string(d->severity) + " " + d->rule_id + " " + d->message + " [" + d->clause +
           "] " + std::to_string(d->has_instruction) + " " + std::to_string(d->word_offset) + " " +
           std::to_string(d->result_id) + " " + std::to_string(d->opcode) + " " + d->instruction +
           "\n";
  }
  return out;
}

}  // namespace coopspv::test

#endif  // COOPSPV_TEST_API_DESCRIBE_H_
