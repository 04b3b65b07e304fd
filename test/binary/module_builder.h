// Test helper: builds SPIR-V modules word by word (header, instructions with computed word
// counts, literal strings), independently of the writer under test.
#ifndef COOPSPV_TEST_BINARY_MODULE_BUILDER_H_
#define COOPSPV_TEST_BINARY_MODULE_BUILDER_H_

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "source/grammar/grammar.h"

namespace coopspv::testing {

// The words of a null-terminated, zero-padded literal string (little-endian bytes in each word).
inline std::vector<uint32_t> StringWords(std::string_view text) {
  std::vector<uint32_t> words(text.size() / 4 + 1, 0);
  for (size_t i = 0; i < text.size(); ++i) {
    words[i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(text[i])) << (8 * (i % 4));
  }
  return words;
}

inline std::vector<uint32_t> ByteSwapped(std::span<const uint32_t> words) {
  std::vector<uint32_t> out;
  for (uint32_t w : words) {
    out.push_back((w >> 24) | ((w >> 8) & 0xFF00) | ((w << 8) & 0xFF0000) | (w << 24));
  }
  return out;
}

inline uint32_t FirstWord(uint32_t word_count, spv::Op op) {
  return (word_count << 16) | static_cast<uint32_t>(op);
}

// One or more operand words: a number, an enumerant or a string.
class Operand {
 public:
  Operand(uint32_t word) : words_{word} {}                    // NOLINT: implicit on purpose.
  Operand(int word) : words_{static_cast<uint32_t>(word)} {}  // NOLINT: a literal 0 is no string.
  template <typename E>
  requires std::is_enum_v<E> Operand(E value) : words_{static_cast<uint32_t>(value)} {}  // NOLINT
  Operand(const char* text) : words_(StringWords(text)) {}                               // NOLINT
  const std::vector<uint32_t>& words() const { return words_; }

 private:
  std::vector<uint32_t> words_;
};

class ModuleBuilder {
 public:
  explicit ModuleBuilder(uint32_t bound = 64, uint32_t version = 0x00010600,
                         uint32_t generator = 0x00080001, uint32_t schema = 0)
      : words{spv::kMagicNumber, version, generator, bound, schema} {}

  // Appends an instruction whose word count is computed; returns its word offset.
  size_t Add(spv::Op op, std::initializer_list<Operand> operands = {}) {
    size_t count = 1;
    for (const Operand& o : operands) count += o.words().size();
    return AddCounted(static_cast<uint32_t>(count), op, operands);
  }

  // Appends an instruction with the given (possibly wrong) word count; returns its word offset.
  size_t AddCounted(uint32_t word_count, spv::Op op, std::initializer_list<Operand> operands) {
    const size_t offset = words.size();
    words.push_back(FirstWord(word_count, op));
    for (const Operand& o : operands) words.insert(words.end(), o.words().begin(), o.words().end());
    ++instruction_count;
    return offset;
  }

  std::vector<uint32_t> words;
  size_t instruction_count = 0;  // Instructions appended with Add/AddCounted.
};

}  // namespace coopspv::testing

#endif  // COOPSPV_TEST_BINARY_MODULE_BUILDER_H_
