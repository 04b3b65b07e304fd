// Floating-point literals of every width and encoding SPIR-V types use (IEEE half / single /
// double, bfloat16, float8 E4M3 and E5M2): decoding from bits, printing as spirv-dis prints them,
// and parsing text into bits with round-to-nearest-even.
#ifndef COOPSPV_SOURCE_COMMON_FLOAT_H_
#define COOPSPV_SOURCE_COMMON_FLOAT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace coopspv {

struct FloatFormat {
  int exponent_bits;
  int mantissa_bits;
  // OCP "FN" formats (E4M3): no infinities; the all-ones exponent holds finite values and only
  // the all-ones pattern is NaN.
  bool finite_only = false;

  int width() const { return 1 + exponent_bits + mantissa_bits; }
  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
};

inline constexpr FloatFormat kHalf{5, 10};
inline constexpr FloatFormat kSingle{8, 23};
inline constexpr FloatFormat kDouble{11, 52};
inline constexpr FloatFormat kBFloat16{8, 7};
inline constexpr FloatFormat kFloat8E4M3{4, 3, true};
inline constexpr FloatFormat kFloat8E5M2{5, 2};

// The value of the bits of an IEEE float of `width` 16, 32 or 64 (any other width reads as 16),
// exactly (every such value is a double).
double IeeeFloatValue(uint64_t bits, uint32_t width);

// "[-]0x1.8p+3"; zero is "0x0p+0"; subnormals are normalized; the all-ones exponent prints as
// bias + 1 (infinity "0x1p+128" for single, NaNs with their fraction).
std::string FormatHexFloat(uint64_t bits, FloatFormat format);

// As spirv-dis prints a floating-point literal: 32- and 64-bit zero and normal values in decimal
// with enough digits to round-trip, everything else in hex float.
std::string FormatFloat(uint64_t bits, FloatFormat format);

// Parses a decimal or hex-float literal into the format's bits. Hex floats whose exponent is
// bias + 1 encode infinities and NaNs exactly. Returns false with a message when the text is not
// a number or its magnitude is out of the format's range.
bool ParseFloat(std::string_view text, FloatFormat format, uint64_t* bits, std::string* error);

}  // namespace coopspv

#endif  // COOPSPV_SOURCE_COMMON_FLOAT_H_
