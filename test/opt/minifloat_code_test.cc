// The software float decode / encode that --lower-coop-vector and --lower-small-floats emit as
// SPIR-V, evaluated in C++ through the same code (minifloat_code.h) and compared with
// source/common/float: every encoding of E4M3, E5M2, half and bfloat16 decodes to the float32
// the literal parser gives, and float32 values across the whole range encode to what the parser
// rounds them to (round to nearest even), with saturation or infinity past the largest finite
// value.
#include "source/opt/minifloat_code.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "source/common/float.h"

namespace coopspv::opt {
namespace {

struct EvalOps {
  using Value = uint32_t;
  using Bool = bool;
  Value Const(uint32_t v) { return v; }
  Value And(Value a, Value b) { return a & b; }
  Value Or(Value a, Value b) { return a | b; }
  // SPIR-V leaves shifts by 32 or more undefined; the code only lets a Select drop them.
  Value Shl(Value a, Value b) { return b >= 32 ? 0xDEADBEEF : a << b; }
  Value Shr(Value a, Value b) { return b >= 32 ? 0xDEADBEEF : a >> b; }
  Value Add(Value a, Value b) { return a + b; }
  Value Sub(Value a, Value b) { return a - b; }
  Bool ULess(Value a, Value b) { return a < b; }
  Bool Equal(Value a, Value b) { return a == b; }
  Bool LogicalOr(Bool a, Bool b) { return a || b; }
  Bool LogicalAnd(Bool a, Bool b) { return a && b; }
  Value Select(Bool c, Value a, Value b) { return c ? a : b; }
  Value FindUMsb(Value a) { return a == 0 ? ~0u : 31 - std::countl_zero(a); }
};

bool IsNaN32(uint32_t bits) { return (bits & 0x7F800000) == 0x7F800000 && (bits & 0x7FFFFF); }

bool IsNaNIn(uint32_t bits, FloatFormat f) {
  const uint32_t magnitude = bits & ((1u << (f.width() - 1)) - 1);
  if (f.finite_only) return magnitude == (1u << (f.width() - 1)) - 1;
  return (magnitude >> f.mantissa_bits) == (1u << f.exponent_bits) - 1 &&
         (magnitude & ((1u << f.mantissa_bits) - 1)) != 0;
}

void ExpectDecodesLikeTheParser(FloatFormat f, const char* name) {
  EvalOps o;
  const uint32_t sign_bit = 1u << (f.width() - 1);
  int checked = 0;
  for (uint32_t x = 0; x < (1u << f.width()); ++x) {
    const uint32_t got = minifloat::DecodeToFloat32Bits(o, x, f);
    if (IsNaNIn(x, f)) {
      EXPECT_TRUE(IsNaN32(got)) << name << " " << x;
      EXPECT_EQ(got >> 31, x >> (f.width() - 1)) << name << " NaN sign " << x;
      continue;
    }
    if (!f.finite_only && (x & (sign_bit - 1)) == minifloat::Infinity(f)) {
      EXPECT_EQ(got, (x & sign_bit ? 0x80000000u : 0u) | 0x7F800000u) << name << " inf " << x;
      continue;
    }
    uint64_t want = 0;
    std::string error;
    ASSERT_TRUE(ParseFloat(FormatHexFloat(x, f), kSingle, &want, &error))
        << name << " " << x << ": " << error;
    EXPECT_EQ(got, want) << name << " " << x << " = " << FormatHexFloat(x, f);
    ++checked;
  }
  EXPECT_GT(checked, (1 << f.width()) * 9 / 10);
}

TEST(MinifloatCode, DecodesEveryE4M3E5M2HalfAndBFloat16Encoding) {
  ExpectDecodesLikeTheParser(kFloat8E4M3, "E4M3");
  ExpectDecodesLikeTheParser(kFloat8E5M2, "E5M2");
  ExpectDecodesLikeTheParser(kHalf, "half");
  ExpectDecodesLikeTheParser(kBFloat16, "bfloat16");  // --lower-small-floats.
}

void ExpectEncodesLikeTheParser(FloatFormat f, bool saturate, const char* name) {
  EvalOps o;
  const uint32_t sign_bit = 1u << (f.width() - 1);
  auto check = [&](uint32_t x) {
    const uint32_t got = minifloat::EncodeFromFloat32Bits(o, x, f, saturate);
    const uint32_t sign = (x >> 31) ? sign_bit : 0;
    if (IsNaN32(x)) {
      EXPECT_EQ(got, sign | minifloat::QuietNaN(f)) << name << " NaN " << x;
      return;
    }
    uint64_t want = 0;
    std::string error;
    // Hex text is exact; but a hex float whose exponent is the target's bias + 1 reads as an
    // infinity or NaN encoding, so those (integers of at most 24 bits, exact in decimal) go
    // as decimal.
    const int exponent = static_cast<int>((x >> 23) & 0xFF) - 127;
    const std::string text =
        exponent == f.bias() + 1 ? FormatFloat(x, kSingle) : FormatHexFloat(x, kSingle);
    if (!ParseFloat(text, f, &want, &error)) {
      // Past the largest finite value (infinity included).
      want =
          sign | ((saturate || f.finite_only) ? minifloat::MaxFinite(f) : minifloat::Infinity(f));
    }
    EXPECT_EQ(got, want) << name << " " << FormatHexFloat(x, kSingle);
  };
  // Every exponent, with mantissas dense near the rounding points of the target: all low
  // patterns of the bits the target drops, and a stride through the rest.
  for (uint32_t sign = 0; sign < 2; ++sign) {
    for (uint32_t e = 0; e < 256; ++e) {
      for (uint32_t m = 0; m < (1u << 23); m += 4099) check(sign << 31 | e << 23 | m);
      const uint32_t drop = 23 - f.mantissa_bits;
      for (uint32_t low = 0; low < 16; ++low) {
        for (uint32_t kept = 0; kept < 4; ++kept) {
          const uint32_t half = 1u << (drop - 1);
          for (uint32_t m : {half - 1, half, half + 1, low, (kept << drop) | half}) {
            check(sign << 31 | e << 23 | ((m + (kept << drop)) & 0x7FFFFF));
          }
        }
      }
    }
  }
}

TEST(MinifloatCode, EncodesFloat32LikeTheParserRoundsIt) {
  ExpectEncodesLikeTheParser(kFloat8E4M3, true, "E4M3");
  ExpectEncodesLikeTheParser(kFloat8E5M2, true, "E5M2 saturating");
  ExpectEncodesLikeTheParser(kFloat8E5M2, false, "E5M2");
  ExpectEncodesLikeTheParser(kHalf, false, "half");
  ExpectEncodesLikeTheParser(kBFloat16, false, "bfloat16");
}

TEST(MinifloatCode, KnownValues) {
  EvalOps o;
  // 448 is E4M3's largest value, 57344 E5M2's; 1.0 and the smallest subnormals.
  EXPECT_EQ(minifloat::DecodeToFloat32Bits(o, 0x7E, kFloat8E4M3), std::bit_cast<uint32_t>(448.0f));
  EXPECT_EQ(minifloat::DecodeToFloat32Bits(o, 0x7B, kFloat8E5M2),
            std::bit_cast<uint32_t>(57344.0f));
  EXPECT_EQ(minifloat::DecodeToFloat32Bits(o, 0x38, kFloat8E4M3), std::bit_cast<uint32_t>(1.0f));
  EXPECT_EQ(minifloat::DecodeToFloat32Bits(o, 0x01, kFloat8E4M3),
            std::bit_cast<uint32_t>(0.001953125f));
  EXPECT_EQ(minifloat::DecodeToFloat32Bits(o, 0x8001, kHalf),
            std::bit_cast<uint32_t>(-5.9604645e-08f));
  EXPECT_EQ(
      minifloat::EncodeFromFloat32Bits(o, std::bit_cast<uint32_t>(1000.0f), kFloat8E4M3, true),
      0x7Eu);
  EXPECT_EQ(minifloat::EncodeFromFloat32Bits(o, std::bit_cast<uint32_t>(-1e6f), kHalf, false),
            0xFC00u);
  // 1.0625 lies halfway between E4M3's 1.0 and 1.125: even mantissa wins.
  EXPECT_EQ(
      minifloat::EncodeFromFloat32Bits(o, std::bit_cast<uint32_t>(1.0625f), kFloat8E4M3, true),
      0x38u);
  EXPECT_EQ(
      minifloat::EncodeFromFloat32Bits(o, std::bit_cast<uint32_t>(1.1875f), kFloat8E4M3, true),
      0x3Au);
}

// The helpers ask for the GLSL.std.450 import only where UsesFindUMsb says FindUMsb is called.
struct CountingOps : EvalOps {
  int find_umsb = 0;
  Value FindUMsb(Value a) {
    ++find_umsb;
    return EvalOps::FindUMsb(a);
  }
};

TEST(MinifloatCode, UsesFindUMsbSaysWhichCodeCallsIt) {
  const FloatFormat formats[] = {kFloat8E4M3, kFloat8E5M2, kHalf, kBFloat16};
  for (const FloatFormat f : formats) {
    CountingOps decode;
    minifloat::DecodeToFloat32Bits(decode, 1, f);
    EXPECT_EQ(decode.find_umsb > 0, minifloat::UsesFindUMsb(f, false)) << f.exponent_bits;
    for (const bool saturate : {false, true}) {
      CountingOps encode;
      minifloat::EncodeFromFloat32Bits(encode, 0x3F800000, f, saturate);
      EXPECT_EQ(encode.find_umsb > 0, minifloat::UsesFindUMsb(f, true)) << f.exponent_bits;
    }
  }
  // bfloat16 shares float32's exponent range; the narrower formats decode subnormals with it.
  EXPECT_FALSE(minifloat::UsesFindUMsb(kBFloat16, false));
  EXPECT_TRUE(minifloat::UsesFindUMsb(kFloat8E4M3, false));
}

}  // namespace
}  // namespace coopspv::opt
