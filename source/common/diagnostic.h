// A diagnostic from the binary reader or the assembler: a message and where it applies.
#ifndef COOPSPV_SOURCE_COMMON_DIAGNOSTIC_H_
#define COOPSPV_SOURCE_COMMON_DIAGNOSTIC_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace coopspv {

struct Diagnostic {
  static constexpr size_t kNoOffset = static_cast<size_t>(-1);

  std::string message;
  size_t word_offset = kNoOffset;  // Binary input: the word the problem was found at.
  uint32_t line = 0;               // Text input: 1-based line and column, 0 when unknown.
  uint32_t column = 0;

  // "word 12: message", "3:7: message" or "message".
  std::string ToString() const {
    if (line != 0) return std::to_string(line) + ":" + std::to_string(column) + ": " + message;
    if (word_offset != kNoOffset) return "word " + std::to_string(word_offset) + ": " + message;
    return message;
  }
};

}  // namespace coopspv

#endif  // COOPSPV_SOURCE_COMMON_DIAGNOSTIC_H_
