#include "source/common/literal.h"

#include <charconv>

#include "source/common/float.h"

namespace coopspv {

bool ParseInteger(std::string_view text, bool* negative, uint64_t* magnitude) {
  *negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    *negative = text[0] == '-';
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *magnitude, base);
  return ec == std::errc() && end == text.data() + text.size();
}

bool EncodeLiteral(std::string_view text, const ScalarType& type, uint64_t* bits,
                   std::string* error) {
  const std::string shown(text);
  if (type.width == 0 || type.width > 64) {
    *error = "literal of unsupported width " + std::to_string(type.width);
    return false;
  }
  if (type.kind == ScalarType::kFloat) {
    if (type.width == 8 && type.fp_encoding == kEncodingFloat8UnsignedE8M0) {
      return ParseE8M0(text, bits, error);
    }
    if (type.width == 8 && type.fp_encoding == kEncodingMXInt8) {
      return ParseMXInt8(text, bits, error);
    }
    const std::optional<FloatFormat> format = FloatFormatOf(type.width, type.fp_encoding);
    if (!format || static_cast<uint32_t>(format->width()) != type.width) {
      // A width or encoding without a float format here: take the bits as an integer.
      bool negative = false;
      if (!ParseInteger(text, &negative, bits) || negative ||
          (type.width < 64 && *bits >> type.width)) {
        *error = "'" + shown + "' does not fit the " + std::to_string(type.width) + "-bit literal";
        return false;
      }
      return true;
    }
    if (!ParseFloat(text, *format, bits, error)) return false;
    if (type.width < 64) *bits &= (1ull << type.width) - 1;
    return true;
  }
  bool negative = false;
  uint64_t magnitude = 0;
  if (!ParseInteger(text, &negative, &magnitude)) {
    *error = "'" + shown + "' is not an integer";
    return false;
  }
  const uint32_t w = type.width;
  const bool is_hex =
      shown.find("0x") != std::string::npos || shown.find("0X") != std::string::npos;
  const bool is_signed = type.kind == ScalarType::kSigned;
  if (negative) {
    if (!is_signed) {
      *error = "cannot put a negative number in an unsigned literal";
      return false;
    }
    if (magnitude > (1ull << (w - 1))) {
      *error = "'" + shown + "' does not fit a " + std::to_string(w) + "-bit signed integer";
      return false;
    }
    *bits = 0 - magnitude;  // Unsigned negation: -2^63 has no positive int64_t.
  } else {
    const uint64_t limit =
        (is_signed && !is_hex) ? (1ull << (w - 1)) - 1 : (w == 64 ? ~0ull : (1ull << w) - 1);
    if (magnitude > limit) {
      *error = "'" + shown + "' does not fit a " + std::to_string(w) + "-bit " +
               (is_signed ? "signed" : "unsigned") + " integer";
      return false;
    }
    *bits = magnitude;
    // Signed values narrower than 32 bits are sign-extended into their word.
    if (is_signed && w < 32 && (*bits >> (w - 1)) & 1) *bits |= ~((1ull << w) - 1);
  }
  if (w <= 32) *bits &= 0xFFFFFFFFu;
  return true;
}

}  // namespace coopspv
