#include "source/common/float.h"

#include <bit>
#include <cerrno>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace coopspv {
namespace {

uint64_t Mask(int bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }

// Rounds `value` (an integer with `drop` low bits to discard) to nearest, ties to even.
uint64_t ShiftRoundEven(uint64_t value, int drop) {
  if (drop <= 0) return value << -drop;
  if (drop >= 64) return 0;
  const uint64_t kept = value >> drop;
  const uint64_t rest = value & Mask(drop);
  const uint64_t half = 1ull << (drop - 1);
  if (rest > half || (rest == half && (kept & 1))) return kept + 1;
  return kept;
}

// Encodes sign * significand * 2^exponent (significand != 0, at most 63 bits) into `format`.
// Returns false when the magnitude overflows the largest finite value.
bool EncodeFinite(bool negative, uint64_t significand, int exponent, FloatFormat f,
                  uint64_t* bits) {
  const int top = 63 - std::countl_zero(significand);  // Position of the leading one.
  int unbiased = top + exponent;
  const int bias = f.bias();
  const int min_normal = 1 - bias;
  uint64_t fraction;
  int field;
  if (unbiased >= min_normal) {
    // Normal: keep mantissa_bits bits after the leading one.
    uint64_t rounded = ShiftRoundEven(significand, top - f.mantissa_bits);
    if (rounded >> (f.mantissa_bits + 1)) {  // Rounding carried into a new leading bit.
      rounded >>= 1;
      ++unbiased;
    }
    field = unbiased + bias;
    fraction = rounded & Mask(f.mantissa_bits);
  } else {
    // Subnormal: the value is fraction * 2^(min_normal - mantissa_bits).
    const int drop = (min_normal - f.mantissa_bits) - exponent;
    fraction = ShiftRoundEven(significand, drop);
    field = 0;
    if (fraction >> f.mantissa_bits) {  // Rounded up to the smallest normal.
      field = 1;
      fraction &= Mask(f.mantissa_bits);
    }
  }
  const int all_ones = (1 << f.exponent_bits) - 1;
  if (field > all_ones) return false;
  if (field == all_ones && !f.all_finite && (!f.finite_only || fraction == Mask(f.mantissa_bits))) {
    return false;
  }
  *bits = (static_cast<uint64_t>(negative) << (f.width() - 1)) |
          (static_cast<uint64_t>(field) << f.mantissa_bits) | fraction;
  return true;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool ParseHexFloat(std::string_view text, bool negative, FloatFormat f, uint64_t* bits,
                   std::string* error) {
  // text starts after "0x". Digits, optional '.', digits, 'p', signed exponent.
  uint64_t significand = 0;
  int exponent = 0;
  bool any_digit = false;
  bool seen_point = false;
  bool sticky = false;  // Nonzero digits dropped beyond 60 bits of precision.
  size_t i = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (seen_point) break;
      seen_point = true;
      continue;
    }
    const int d = HexDigit(c);
    if (d < 0) break;
    any_digit = true;
    if (significand >> 56) {
      if (d) sticky = true;
      if (!seen_point) exponent += 4;
      continue;
    }
    significand = significand * 16 + d;
    if (seen_point) exponent -= 4;
  }
  if (!any_digit) {
    *error = "expected hex digits";
    return false;
  }
  if (i < text.size()) {
    if (text[i] != 'p' && text[i] != 'P') {
      *error = "unexpected character in hex float";
      return false;
    }
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exp_negative = text[i++] == '-';
    if (i == text.size()) {
      *error = "missing hex float exponent";
      return false;
    }
    long e = 0;
    for (; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9') {
        *error = "unexpected character in hex float exponent";
        return false;
      }
      e = e * 10 + (text[i] - '0');
      if (e > 100000) {
        *error = "hex float exponent out of range";
        return false;
      }
    }
    exponent += exp_negative ? -static_cast<int>(e) : static_cast<int>(e);
  }
  if (sticky) significand |= 1;
  if (significand == 0) {
    *bits = static_cast<uint64_t>(negative) << (f.width() - 1);
    return true;
  }
  const int top = 63 - std::countl_zero(significand);
  const int unbiased = top + exponent;
  // For finite-only formats the all-ones exponent is mostly finite: only the NaN pattern is
  // spelled through it below.
  const bool nan_pattern = f.finite_only && !f.all_finite &&
                           ((top >= f.mantissa_bits ? significand >> (top - f.mantissa_bits)
                                                    : significand << (f.mantissa_bits - top)) &
                            Mask(f.mantissa_bits)) == Mask(f.mantissa_bits);
  if (unbiased == f.bias() + 1 && !f.all_finite && (!f.finite_only || nan_pattern)) {
    // The all-ones exponent: infinity or NaN, spelled as spirv-dis prints them.
    const uint64_t fraction =
        top >= f.mantissa_bits ? (significand >> (top - f.mantissa_bits)) & Mask(f.mantissa_bits)
                               : (significand << (f.mantissa_bits - top)) & Mask(f.mantissa_bits);
    *bits = (static_cast<uint64_t>(negative) << (f.width() - 1)) |
            (Mask(f.exponent_bits) << f.mantissa_bits) | fraction;
    return true;
  }
  if (!EncodeFinite(negative, significand, exponent, f, bits)) {
    *error = "value out of range for a " + std::to_string(f.width()) + "-bit float";
    return false;
  }
  return true;
}

// Parses a literal as a double, exactly or not at all.
bool ParseExact(std::string_view text, double* value, std::string* error) {
  uint64_t bits = 0;
  if (!ParseFloat(text, kDouble, &bits, error)) return false;
  *value = std::bit_cast<double>(bits);
  return true;
}

}  // namespace

std::optional<FloatFormat> FloatFormatOf(uint32_t width, int32_t encoding) {
  switch (encoding) {
    case -1:
      if (width == 16) return kHalf;
      if (width == 32) return kSingle;
      if (width == 64) return kDouble;
      return std::nullopt;
    case 0:  // BFloat16KHR.
      return kBFloat16;
    case 4214:  // Float8E4M3EXT.
      return kFloat8E4M3;
    case 4215:  // Float8E5M2EXT.
      return kFloat8E5M2;
    case 4223:  // Float6E2M3EXT.
      return kFloat6E2M3;
    case 4224:  // Float6E3M2EXT.
      return kFloat6E3M2;
    case 4225:  // Float4E2M1EXT.
      return kFloat4E2M1;
    default:
      return std::nullopt;
  }
}

double IeeeFloatValue(uint64_t bits, uint32_t width) {
  if (width == 64) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  if (width == 32) {
    const uint32_t b = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  const uint32_t sign = (bits >> 15) & 1, exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
  double value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<double>(mantissa), -24);
  } else if (exponent == 31) {
    value = mantissa ? std::numeric_limits<double>::quiet_NaN()
                     : std::numeric_limits<double>::infinity();
  } else {
    value = std::ldexp(static_cast<double>(mantissa | 0x400), static_cast<int>(exponent) - 25);
  }
  return sign ? -value : value;
}

std::string FormatHexFloat(uint64_t bits, FloatFormat f) {
  const bool negative = (bits >> (f.width() - 1)) & 1;
  const uint64_t field = (bits >> f.mantissa_bits) & Mask(f.exponent_bits);
  uint64_t fraction = bits & Mask(f.mantissa_bits);
  std::string out = negative ? "-0x" : "0x";
  if (field == 0 && fraction == 0) return out + "0p+0";
  int exponent;
  if (field == 0) {
    // Subnormal: normalize so the leading one becomes the implicit bit.
    exponent = 1 - f.bias();
    while (!((fraction >> f.mantissa_bits) & 1)) {
      fraction <<= 1;
      --exponent;
    }
    fraction &= Mask(f.mantissa_bits);
  } else {
    exponent = static_cast<int>(field) - f.bias();
  }
  out += '1';
  // Left-align the fraction to whole hex digits and drop trailing zero digits.
  const int digits = (f.mantissa_bits + 3) / 4;
  uint64_t aligned = fraction << (digits * 4 - f.mantissa_bits);
  std::string hex;
  for (int d = digits - 1; d >= 0; --d) hex += "0123456789abcdef"[(aligned >> (d * 4)) & 0xF];
  while (!hex.empty() && hex.back() == '0') hex.pop_back();
  if (!hex.empty()) out += "." + hex;
  out += 'p';
  out += exponent < 0 ? '-' : '+';
  out += std::to_string(exponent < 0 ? -exponent : exponent);
  return out;
}

std::string FormatFloat(uint64_t bits, FloatFormat f) {
  char buffer[64];
  if (f.exponent_bits == kSingle.exponent_bits && f.mantissa_bits == kSingle.mantissa_bits) {
    const float value = std::bit_cast<float>(static_cast<uint32_t>(bits));
    const int c = std::fpclassify(value);
    if (c == FP_ZERO || c == FP_NORMAL) {
      std::snprintf(buffer, sizeof(buffer), "%.9g", static_cast<double>(value));
      return buffer;
    }
  } else if (f.exponent_bits == kDouble.exponent_bits && f.mantissa_bits == kDouble.mantissa_bits) {
    const double value = std::bit_cast<double>(bits);
    const int c = std::fpclassify(value);
    if (c == FP_ZERO || c == FP_NORMAL) {
      std::snprintf(buffer, sizeof(buffer), "%.17g", value);
      return buffer;
    }
  }
  return FormatHexFloat(bits, f);
}

bool ParseFloat(std::string_view text, FloatFormat f, uint64_t* bits, std::string* error) {
  std::string_view body = text;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
    return ParseHexFloat(body.substr(2), negative, f, bits, error);
  }
  // Decimal: digits, optional fraction, optional exponent; nothing else (no "inf", "nan").
  size_t i = 0;
  bool any_digit = false;
  while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i, any_digit = true;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i, any_digit = true;
  }
  if (any_digit && i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    const size_t start = i;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i;
    if (i == start) any_digit = false;
  }
  if (!any_digit || i != body.size()) {
    *error = "'" + std::string(text) + "' is not a floating-point number";
    return false;
  }
  const std::string copy(text);
  errno = 0;
  if (f.exponent_bits == kSingle.exponent_bits && f.mantissa_bits == kSingle.mantissa_bits) {
    const float value = std::strtof(copy.c_str(), nullptr);
    if (std::isinf(value)) {
      *error = "value out of range for a 32-bit float";
      return false;
    }
    *bits = std::bit_cast<uint32_t>(value);
    return true;
  }
  // Narrow formats: read toward zero and keep whether digits were dropped as a sticky bit, so
  // the one rounding to the target format is correct (no double rounding).
  const bool narrow = f.mantissa_bits < 52;
  const int saved_mode = std::fegetround();
  if (narrow) {
    std::fesetround(FE_TOWARDZERO);
    std::feclearexcept(FE_INEXACT);
  }
  const double value = std::strtod(copy.c_str(), nullptr);
  const bool inexact = narrow && std::fetestexcept(FE_INEXACT);
  if (narrow) std::fesetround(saved_mode);
  if (std::isinf(value)) {
    *error = "value out of range for a " + std::to_string(f.width()) + "-bit float";
    return false;
  }
  if (f.exponent_bits == kDouble.exponent_bits && f.mantissa_bits == kDouble.mantissa_bits) {
    *bits = std::bit_cast<uint64_t>(value);
    return true;
  }
  const uint64_t d = std::bit_cast<uint64_t>(value);
  const uint64_t field = (d >> 52) & 0x7FF;
  uint64_t significand = d & Mask(52);
  if (field == 0 && significand == 0) {
    *bits = static_cast<uint64_t>(negative) << (f.width() - 1);
    return true;
  }
  int exponent;
  if (field == 0) {
    exponent = -1074;
  } else {
    significand |= 1ull << 52;
    exponent = static_cast<int>(field) - 1075;
  }
  if (inexact) {
    // Make room for the sticky bit below the double's precision.
    significand = (significand << 1) | 1;
    --exponent;
  }
  if (!EncodeFinite(negative, significand, exponent, f, bits)) {
    *error = "value out of range for a " + std::to_string(f.width()) + "-bit float";
    return false;
  }
  return true;
}

std::string FormatE8M0(uint64_t bits) {
  const int exponent = static_cast<int>(bits & 0xFF) - 127;
  return std::string("0x1p") + (exponent < 0 ? "-" : "+") + std::to_string(std::abs(exponent));
}

bool ParseE8M0(std::string_view text, uint64_t* bits, std::string* error) {
  double value = 0;
  if (!ParseExact(text, &value, error)) return false;
  int exponent = 0;
  // frexp gives value = m * 2^exponent with m in [0.5, 1): a power of two has m = 0.5.
  if (value > 0 && std::frexp(value, &exponent) == 0.5 && exponent - 1 >= -127 &&
      exponent - 1 <= 128) {
    *bits = static_cast<uint64_t>(exponent - 1 + 127);
    return true;
  }
  *error = "'" + std::string(text) +
           "' is not an E8M0 value (a power of two from 0x1p-127 to 0x1p+127, or 0x1p+128 for NaN)";
  return false;
}

std::string FormatMXInt8(uint64_t bits) {
  const int8_t value = static_cast<int8_t>(bits & 0xFF);
  const float scaled = std::ldexp(static_cast<float>(value), -6);  // Exact.
  return FormatHexFloat(std::bit_cast<uint32_t>(scaled), kSingle);
}

bool ParseMXInt8(std::string_view text, uint64_t* bits, std::string* error) {
  double value = 0;
  if (!ParseExact(text, &value, error)) return false;
  const double scaled = std::ldexp(value, 6);
  if (scaled >= -128 && scaled <= 127 && scaled == std::trunc(scaled)) {
    *bits = static_cast<uint64_t>(static_cast<int64_t>(scaled)) & 0xFF;
    return true;
  }
  *error = "'" + std::string(text) +
           "' is not an MXINT8 value (a multiple of 0x1p-6 from -2 to 0x1.fcp+0)";
  return false;
}

}  // namespace coopspv
