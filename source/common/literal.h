// Literal numbers as text: integers (decimal, 0x hex, negative) and the scalar literals of
// OpConstant / OpSpecConstant, encoded by the type's width, signedness and float encoding.
#ifndef COOPSPV_SOURCE_COMMON_LITERAL_H_
#define COOPSPV_SOURCE_COMMON_LITERAL_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace coopspv {

// Decimal or 0x hex, optionally signed. False on junk or a magnitude beyond 64 bits.
bool ParseInteger(std::string_view text, bool* negative, uint64_t* magnitude);

struct ScalarType {
  enum Kind : uint8_t { kUnsigned, kSigned, kFloat } kind = kUnsigned;
  uint32_t width = 32;
  int32_t fp_encoding = -1;  // FPEncoding value of an OpTypeFloat, -1 for IEEE.
};

// The bits of a literal of `type` written as `text`: integers range-checked (hex may fill a
// signed type's bits) and, below 32 bits, sign-extended into the word for signed types; floats
// rounded to nearest even in the type's format. False with a message on failure.
bool EncodeLiteral(std::string_view text, const ScalarType& type, uint64_t* bits,
                   std::string* error);

}  // namespace coopspv

#endif  // COOPSPV_SOURCE_COMMON_LITERAL_H_
