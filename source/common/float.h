// Floating-point literals of every width and encoding SPIR-V types use (IEEE half / single /
// double, bfloat16, float8 E4M3 and E5M2, the OCP microscaling FP4 E2M1, FP6 E2M3 / E3M2, E8M0
// and MXINT8): decoding from bits, printing as spirv-dis prints them, and parsing text into bits
// with round-to-nearest-even.
#ifndef COOPSPV_SOURCE_COMMON_FLOAT_H_
#define COOPSPV_SOURCE_COMMON_FLOAT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace coopspv {

struct FloatFormat {
  int exponent_bits;
  int mantissa_bits;
  // OCP "FN" formats (E4M3): no infinities; the all-ones exponent holds finite values and only
  // the all-ones pattern is NaN.
  bool finite_only = false;
  // OCP FP4 / FP6 (E2M1, E2M3, E3M2): no infinities and no NaN; every pattern is finite.
  bool all_finite = false;

  int width() const { return 1 + exponent_bits + mantissa_bits; }
  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
};

inline constexpr FloatFormat kHalf{5, 10};
inline constexpr FloatFormat kSingle{8, 23};
inline constexpr FloatFormat kDouble{11, 52};
inline constexpr FloatFormat kBFloat16{8, 7};
inline constexpr FloatFormat kFloat8E4M3{4, 3, true};
inline constexpr FloatFormat kFloat8E5M2{5, 2};
inline constexpr FloatFormat kFloat4E2M1{2, 1, true, true};
inline constexpr FloatFormat kFloat6E2M3{2, 3, true, true};
inline constexpr FloatFormat kFloat6E3M2{3, 2, true, true};

// FPEncoding values (SPV_KHR_bfloat16, SPV_EXT_float8, SPV_EXT_ocp_microscaling_types) of the
// encodings whose literals are not sign / exponent / mantissa formats.
inline constexpr int32_t kEncodingFloat8UnsignedE8M0 = 4226;
inline constexpr int32_t kEncodingMXInt8 = 4227;

// The format of an OpTypeFloat of `width` and FPEncoding `encoding` (-1: IEEE 754); nullopt for
// Float8UnsignedE8M0EXT, MXInt8EXT, unknown encodings and IEEE widths other than 16, 32, 64.
std::optional<FloatFormat> FloatFormatOf(uint32_t width, int32_t encoding);

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

// OCP E8M0 (Float8UnsignedE8M0EXT): bits e are 2^(e - 127), 0xFF is NaN. Printed as spirv-dis
// prints them, "0x1p-127" ... "0x1p+127" and "0x1p+128" for NaN; parsed from any literal of an
// exact power of two in that range.
std::string FormatE8M0(uint64_t bits);
bool ParseE8M0(std::string_view text, uint64_t* bits, std::string* error);

// OCP MXINT8 (MXInt8EXT): a two's complement 8-bit integer times 2^-6, printed as a hex float
// as spirv-dis prints it ("0x1p+0" for 0x40, "-0x1p+1" for 0x80); parsed from any literal of an
// exact multiple of 2^-6 from -2 to 127/64.
std::string FormatMXInt8(uint64_t bits);
bool ParseMXInt8(std::string_view text, uint64_t* bits, std::string* error);

}  // namespace coopspv

#endif  // COOPSPV_SOURCE_COMMON_FLOAT_H_
