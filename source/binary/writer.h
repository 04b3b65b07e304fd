// The SPIR-V binary writer: words out, in the byte order the module was read in.
#ifndef COOPSPV_SOURCE_BINARY_WRITER_H_
#define COOPSPV_SOURCE_BINARY_WRITER_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "source/binary/reader.h"

namespace coopspv::binary {

// Serializes host-order words into bytes of the given byte order.
std::vector<uint8_t> WordsToBytes(std::span<const uint32_t> words,
                                  Endianness endianness = Endianness::kLittle);

// Appends the words of a null-terminated, zero-padded literal string.
void AppendString(std::string_view text, std::vector<uint32_t>* words);

// Builds instructions word by word; the first word's count is filled in by End().
class InstructionWriter {
 public:
  explicit InstructionWriter(std::vector<uint32_t>* out) : out_(out) {}
  void Begin(uint16_t opcode) {
    start_ = out_->size();
    out_->push_back(opcode);
  }
  void Add(uint32_t word) { out_->push_back(word); }
  void AddString(std::string_view text) { AppendString(text, out_); }
  // Returns false when the instruction exceeds 65535 words.
  bool End() {
    const size_t count = out_->size() - start_;
    if (count > 0xFFFF) return false;
    (*out_)[start_] |= static_cast<uint32_t>(count) << 16;
    return true;
  }

 private:
  std::vector<uint32_t>* out_;
  size_t start_ = 0;
};

}  // namespace coopspv::binary

#endif  // COOPSPV_SOURCE_BINARY_WRITER_H_
