#include "source/binary/writer.h"

#include <bit>
#include <cstring>

namespace coopspv::binary {

std::vector<uint8_t> WordsToBytes(std::span<const uint32_t> words, Endianness endianness) {
  std::vector<uint8_t> bytes(words.size() * 4);
  if (endianness == Endianness::kLittle) {
    if (!words.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
    return bytes;
  }
  for (size_t i = 0; i < words.size(); ++i) {
    const uint32_t w = __builtin_bswap32(words[i]);
    std::memcpy(bytes.data() + 4 * i, &w, 4);
  }
  return bytes;
}

void AppendString(std::string_view text, std::vector<uint32_t>* words) {
  const size_t count = text.size() / 4 + 1;  // Room for the terminating null.
  const size_t start = words->size();
  words->resize(start + count, 0);
  for (size_t i = 0; i < text.size(); ++i) {
    (*words)[start + i / 4] |= static_cast<uint32_t>(static_cast<uint8_t>(text[i]))
                               << (8 * (i % 4));
  }
}

}  // namespace coopspv::binary
