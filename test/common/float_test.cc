#include "source/common/float.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>

namespace coopspv {
namespace {

// Parses `text`, which must succeed, and returns the bits.
::testing::AssertionResult Parses(const std::string& text, FloatFormat format, uint64_t expected) {
  uint64_t bits = ~0ull;
  std::string error;
  if (!ParseFloat(text, format, &bits, &error)) {
    return ::testing::AssertionFailure() << "'" << text << "' failed: " << error;
  }
  if (bits != expected) {
    return ::testing::AssertionFailure()
           << "'" << text << "' gave 0x" << std::hex << bits << ", expected 0x" << expected;
  }
  return ::testing::AssertionSuccess();
}

// Parsing `text` must fail with a message containing `phrase`.
::testing::AssertionResult Fails(const std::string& text, FloatFormat format,
                                 const std::string& phrase) {
  uint64_t bits = 0;
  std::string error;
  if (ParseFloat(text, format, &bits, &error)) {
    return ::testing::AssertionFailure()
           << "'" << text << "' was accepted as 0x" << std::hex << bits;
  }
  if (error.find(phrase) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "'" << text << "': error '" << error << "' lacks '" << phrase << "'";
  }
  return ::testing::AssertionSuccess();
}

uint64_t SingleBits(float value) { return std::bit_cast<uint32_t>(value); }
uint64_t DoubleBits(double value) { return std::bit_cast<uint64_t>(value); }

TEST(FloatFormatTest, Widths) {
  EXPECT_EQ(kHalf.width(), 16);
  EXPECT_EQ(kHalf.bias(), 15);
  EXPECT_EQ(kSingle.width(), 32);
  EXPECT_EQ(kSingle.bias(), 127);
  EXPECT_EQ(kDouble.width(), 64);
  EXPECT_EQ(kDouble.bias(), 1023);
  EXPECT_EQ(kBFloat16.width(), 16);
  EXPECT_EQ(kBFloat16.bias(), 127);
  EXPECT_EQ(kFloat8E4M3.width(), 8);
  EXPECT_EQ(kFloat8E4M3.bias(), 7);
  EXPECT_EQ(kFloat8E5M2.width(), 8);
  EXPECT_EQ(kFloat8E5M2.bias(), 15);
}

// ---------------------------------------------------------------------------------------------
// Half.

TEST(HalfTest, FormatHexFloat) {
  EXPECT_EQ(FormatHexFloat(0x0000, kHalf), "0x0p+0");
  EXPECT_EQ(FormatHexFloat(0x8000, kHalf), "-0x0p+0");
  EXPECT_EQ(FormatHexFloat(0x3C00, kHalf), "0x1p+0");
  EXPECT_EQ(FormatHexFloat(0x3800, kHalf), "0x1p-1");
  EXPECT_EQ(FormatHexFloat(0xC300, kHalf), "-0x1.cp+1");
  EXPECT_EQ(FormatHexFloat(0x3C01, kHalf), "0x1.004p+0");
  EXPECT_EQ(FormatHexFloat(0x7BFF, kHalf), "0x1.ffcp+15");  // 65504, the largest finite.
  EXPECT_EQ(FormatHexFloat(0x0400, kHalf), "0x1p-14");      // Smallest normal.
  EXPECT_EQ(FormatHexFloat(0x0001, kHalf), "0x1p-24");      // Smallest subnormal.
  EXPECT_EQ(FormatHexFloat(0x0003, kHalf), "0x1.8p-23");
  EXPECT_EQ(FormatHexFloat(0x03FF, kHalf), "0x1.ff8p-15");  // Largest subnormal.
  EXPECT_EQ(FormatHexFloat(0x7C00, kHalf), "0x1p+16");      // Infinity.
  EXPECT_EQ(FormatHexFloat(0xFC00, kHalf), "-0x1p+16");
  EXPECT_EQ(FormatHexFloat(0x7E00, kHalf), "0x1.8p+16");    // Quiet NaN.
  EXPECT_EQ(FormatHexFloat(0x7C01, kHalf), "0x1.004p+16");  // Signalling NaN.
  EXPECT_EQ(FormatHexFloat(0xFFFF, kHalf), "-0x1.ffcp+16");
}

TEST(HalfTest, FormatFloatIsHexForHalf) {
  // spirv-dis prints only 32- and 64-bit values in decimal.
  EXPECT_EQ(FormatFloat(0x3C00, kHalf), "0x1p+0");
  EXPECT_EQ(FormatFloat(0x7BFF, kHalf), "0x1.ffcp+15");
  EXPECT_EQ(FormatFloat(0xC400, kHalf), "-0x1p+2");
  EXPECT_EQ(FormatFloat(0x0000, kHalf), "0x0p+0");
}

TEST(HalfTest, ParseExactValues) {
  EXPECT_TRUE(Parses("0", kHalf, 0x0000));
  EXPECT_TRUE(Parses("0.0", kHalf, 0x0000));
  EXPECT_TRUE(Parses("-0", kHalf, 0x8000));
  EXPECT_TRUE(Parses("-0.0", kHalf, 0x8000));
  EXPECT_TRUE(Parses("-0x0p+0", kHalf, 0x8000));
  EXPECT_TRUE(Parses("1", kHalf, 0x3C00));
  EXPECT_TRUE(Parses("+1.0", kHalf, 0x3C00));
  EXPECT_TRUE(Parses("1e0", kHalf, 0x3C00));
  EXPECT_TRUE(Parses("0.5", kHalf, 0x3800));
  EXPECT_TRUE(Parses(".5", kHalf, 0x3800));
  EXPECT_TRUE(Parses("5e-1", kHalf, 0x3800));
  EXPECT_TRUE(Parses("-3.5", kHalf, 0xC300));
  EXPECT_TRUE(Parses("-0x1.cp+1", kHalf, 0xC300));
  EXPECT_TRUE(Parses("0X1.CP+1", kHalf, 0x4300));
  EXPECT_TRUE(Parses("65504", kHalf, 0x7BFF));
  EXPECT_TRUE(Parses("0x1.ffcp+15", kHalf, 0x7BFF));
  EXPECT_TRUE(Parses("0x1p-24", kHalf, 0x0001));
  EXPECT_TRUE(Parses("5.9604644775390625e-8", kHalf, 0x0001));  // 2^-24 in decimal.
  EXPECT_TRUE(Parses("0x0.004p-14", kHalf, 0x0001));            // Written as a subnormal.
  EXPECT_TRUE(Parses("0x1p-14", kHalf, 0x0400));
  EXPECT_TRUE(Parses("0x10p-4", kHalf, 0x3C00));
  EXPECT_TRUE(Parses("0x0.1p+4", kHalf, 0x3C00));
}

TEST(HalfTest, ParseInfinityAndNaN) {
  EXPECT_TRUE(Parses("0x1p+16", kHalf, 0x7C00));
  EXPECT_TRUE(Parses("-0x1p+16", kHalf, 0xFC00));
  EXPECT_TRUE(Parses("0x1.8p+16", kHalf, 0x7E00));
  EXPECT_TRUE(Parses("0x1.004p+16", kHalf, 0x7C01));
  EXPECT_TRUE(Parses("-0x1.ffcp+16", kHalf, 0xFFFF));
}

TEST(HalfTest, ParseRoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): ties go to the even one.
  EXPECT_TRUE(Parses("1.00048828125", kHalf, 0x3C00));
  EXPECT_TRUE(Parses("0x1.002p+0", kHalf, 0x3C00));
  // 1 + 3 * 2^-11 is halfway between 0x3C01 and 0x3C02: up to the even one.
  EXPECT_TRUE(Parses("1.00146484375", kHalf, 0x3C02));
  EXPECT_TRUE(Parses("0x1.006p+0", kHalf, 0x3C02));
  // Just above and below a tie.
  EXPECT_TRUE(Parses("1.00048828125001", kHalf, 0x3C01));
  EXPECT_TRUE(Parses("1.00048828124999", kHalf, 0x3C00));
  EXPECT_TRUE(Parses("0x1.0020000000001p+0", kHalf, 0x3C01));
  EXPECT_TRUE(Parses("0x1.001ffffffffffp+0", kHalf, 0x3C00));
  // A nonzero digit beyond the 60 bits the parser keeps still breaks the tie.
  EXPECT_TRUE(Parses("0x1.00200000000000000000001p+0", kHalf, 0x3C01));
  // Negative values round the same way.
  EXPECT_TRUE(Parses("-1.00146484375", kHalf, 0xBC02));
  // Rounding carries into the exponent.
  EXPECT_TRUE(Parses("0x1.ffep+0", kHalf, 0x4000));
  EXPECT_TRUE(Parses("65519", kHalf, 0x7BFF));  // Below the tie with 65536.
  // Subnormals: 2^-25 is halfway between 0 and the smallest subnormal.
  EXPECT_TRUE(Parses("0x1p-25", kHalf, 0x0000));
  EXPECT_TRUE(Parses("-0x1p-25", kHalf, 0x8000));
  EXPECT_TRUE(Parses("0x1.8p-25", kHalf, 0x0001));
  EXPECT_TRUE(Parses("0x1.8p-24", kHalf, 0x0002));  // 1.5 ulp: tie, to even.
  EXPECT_TRUE(Parses("0x1.4p-23", kHalf, 0x0002));  // 2.5 ulp: tie, to even.
  EXPECT_TRUE(Parses("0x1p-40", kHalf, 0x0000));
  EXPECT_TRUE(Parses("1e-30", kHalf, 0x0000));
  // Halfway between the largest subnormal and the smallest normal: up to the normal.
  EXPECT_TRUE(Parses("0x1.ffcp-15", kHalf, 0x0400));
}

TEST(HalfTest, ParseOutOfRange) {
  EXPECT_TRUE(Fails("65520", kHalf, "out of range"));  // Rounds to 2^16.
  EXPECT_TRUE(Fails("1e5", kHalf, "out of range"));
  EXPECT_TRUE(Fails("-1e5", kHalf, "out of range"));
  EXPECT_TRUE(Fails("0x1p+17", kHalf, "out of range"));
  EXPECT_TRUE(Fails("0x1.ffep+15", kHalf, "out of range"));
  EXPECT_TRUE(Fails("0x1p+200", kHalf, "out of range"));
  EXPECT_TRUE(Fails("1e400", kHalf, "out of range"));
}

TEST(HalfTest, AllBitPatternsRoundTrip) {
  for (uint64_t bits = 0; bits <= 0xFFFF; ++bits) {
    const std::string text = FormatFloat(bits, kHalf);
    uint64_t parsed = ~0ull;
    std::string error;
    ASSERT_TRUE(ParseFloat(text, kHalf, &parsed, &error)) << text << ": " << error;
    ASSERT_EQ(parsed, bits) << text;
  }
}

// ---------------------------------------------------------------------------------------------
// Single.

TEST(SingleTest, FormatFloatDecimal) {
  EXPECT_EQ(FormatFloat(SingleBits(0.0f), kSingle), "0");
  EXPECT_EQ(FormatFloat(SingleBits(-0.0f), kSingle), "-0");
  EXPECT_EQ(FormatFloat(SingleBits(1.0f), kSingle), "1");
  EXPECT_EQ(FormatFloat(SingleBits(0.5f), kSingle), "0.5");
  EXPECT_EQ(FormatFloat(SingleBits(-3.5f), kSingle), "-3.5");
  EXPECT_EQ(FormatFloat(SingleBits(-4.0f), kSingle), "-4");
  EXPECT_EQ(FormatFloat(SingleBits(65504.0f), kSingle), "65504");
  EXPECT_EQ(FormatFloat(SingleBits(0.01f), kSingle), "0.00999999978");
  EXPECT_EQ(FormatFloat(SingleBits(0.1f), kSingle), "0.100000001");
  EXPECT_EQ(FormatFloat(SingleBits(1e20f), kSingle), "1.00000002e+20");
  EXPECT_EQ(FormatFloat(0x7F7FFFFF, kSingle), "3.40282347e+38");
  EXPECT_EQ(FormatFloat(0x00800000, kSingle), "1.17549435e-38");  // Smallest normal.
}

TEST(SingleTest, FormatFloatHexForTheRest) {
  EXPECT_EQ(FormatFloat(0x7F800000, kSingle), "0x1p+128");
  EXPECT_EQ(FormatFloat(0xFF800000, kSingle), "-0x1p+128");
  EXPECT_EQ(FormatFloat(0x7FC00000, kSingle), "0x1.8p+128");
  EXPECT_EQ(FormatFloat(0x7F800001, kSingle), "0x1.000002p+128");
  EXPECT_EQ(FormatFloat(0x00000001, kSingle), "0x1p-149");  // Subnormals are normalized.
  EXPECT_EQ(FormatFloat(0x807FFFFF, kSingle), "-0x1.fffffcp-127");
}

TEST(SingleTest, FormatHexFloat) {
  EXPECT_EQ(FormatHexFloat(SingleBits(0.0f), kSingle), "0x0p+0");
  EXPECT_EQ(FormatHexFloat(SingleBits(-0.0f), kSingle), "-0x0p+0");
  EXPECT_EQ(FormatHexFloat(SingleBits(1.0f), kSingle), "0x1p+0");
  EXPECT_EQ(FormatHexFloat(SingleBits(0.5f), kSingle), "0x1p-1");
  EXPECT_EQ(FormatHexFloat(SingleBits(-3.5f), kSingle), "-0x1.cp+1");
  EXPECT_EQ(FormatHexFloat(SingleBits(0.01f), kSingle), "0x1.47ae14p-7");
  EXPECT_EQ(FormatHexFloat(0x7F7FFFFF, kSingle), "0x1.fffffep+127");
  EXPECT_EQ(FormatHexFloat(0x7F800000, kSingle), "0x1p+128");
}

TEST(SingleTest, Parse) {
  EXPECT_TRUE(Parses("0", kSingle, 0));
  EXPECT_TRUE(Parses("-0", kSingle, 0x80000000));
  EXPECT_TRUE(Parses("-0x0p+0", kSingle, 0x80000000));
  EXPECT_TRUE(Parses("1", kSingle, SingleBits(1.0f)));
  EXPECT_TRUE(Parses("0.5", kSingle, SingleBits(0.5f)));
  EXPECT_TRUE(Parses("-3.5", kSingle, SingleBits(-3.5f)));
  EXPECT_TRUE(Parses("-4", kSingle, SingleBits(-4.0f)));
  EXPECT_TRUE(Parses("65504", kSingle, SingleBits(65504.0f)));
  EXPECT_TRUE(Parses("0.01", kSingle, 0x3C23D70A));
  EXPECT_TRUE(Parses("0.00999999978", kSingle, 0x3C23D70A));
  EXPECT_TRUE(Parses("0x1.47ae14p-7", kSingle, 0x3C23D70A));
  EXPECT_TRUE(Parses("3.40282347e+38", kSingle, 0x7F7FFFFF));
  EXPECT_TRUE(Parses("0x1p-149", kSingle, 0x00000001));
  EXPECT_TRUE(Parses("0x1p-150", kSingle, 0x00000000));  // Tie to even: zero.
  EXPECT_TRUE(Parses("0x1.8p-149", kSingle, 0x00000002));
  EXPECT_TRUE(Parses("0x1.000001p+0", kSingle, 0x3F800000));  // Tie to even.
  EXPECT_TRUE(Parses("0x1.000003p+0", kSingle, 0x3F800002));  // Tie to even, up.
  EXPECT_TRUE(Parses("1.00000006", kSingle, 0x3F800001));     // Nearest: 1 + 2^-23.
  EXPECT_TRUE(Parses("0x1p+128", kSingle, 0x7F800000));
  EXPECT_TRUE(Parses("-0x1p+128", kSingle, 0xFF800000));
  EXPECT_TRUE(Parses("0x1.8p+128", kSingle, 0x7FC00000));
}

TEST(SingleTest, ParseOutOfRange) {
  EXPECT_TRUE(Fails("1e40", kSingle, "out of range for a 32-bit float"));
  EXPECT_TRUE(Fails("-1e40", kSingle, "out of range"));
  EXPECT_TRUE(Fails("0x1p+200", kSingle, "out of range for a 32-bit float"));
  EXPECT_TRUE(Fails("0x1p+129", kSingle, "out of range"));
  EXPECT_TRUE(Fails("0x1.ffffffp+127", kSingle, "out of range"));  // Rounds to 2^128.
}

TEST(SingleTest, RoundTripOfSamplePatterns) {
  // Every 4099th pattern (a prime step, so all exponents and sign bits are visited) plus the
  // special ones.
  std::vector<uint64_t> patterns = {0,          0x80000000, 0x00000001, 0x007FFFFF,
                                    0x00800000, 0x7F7FFFFF, 0x7F800000, 0xFF800000,
                                    0x7FC00000, 0x7F800001, 0xFFFFFFFF, 0x3C23D70A};
  for (uint64_t bits = 0; bits <= 0xFFFFFFFF; bits += 4099 * 251) patterns.push_back(bits);
  for (uint64_t bits : patterns) {
    const std::string text = FormatFloat(bits, kSingle);
    uint64_t parsed = ~0ull;
    std::string error;
    ASSERT_TRUE(ParseFloat(text, kSingle, &parsed, &error)) << text << ": " << error;
    ASSERT_EQ(parsed, bits) << text;
  }
}

// ---------------------------------------------------------------------------------------------
// Double.

TEST(DoubleTest, FormatFloat) {
  EXPECT_EQ(FormatFloat(DoubleBits(0.0), kDouble), "0");
  EXPECT_EQ(FormatFloat(DoubleBits(-0.0), kDouble), "-0");
  EXPECT_EQ(FormatFloat(DoubleBits(1.0), kDouble), "1");
  EXPECT_EQ(FormatFloat(DoubleBits(0.5), kDouble), "0.5");
  EXPECT_EQ(FormatFloat(DoubleBits(-3.5), kDouble), "-3.5");
  EXPECT_EQ(FormatFloat(DoubleBits(65504.0), kDouble), "65504");
  EXPECT_EQ(FormatFloat(DoubleBits(0.1), kDouble), "0.10000000000000001");
  EXPECT_EQ(FormatFloat(DoubleBits(0.01), kDouble), "0.01");
  EXPECT_EQ(FormatFloat(0x7FF0000000000000, kDouble), "0x1p+1024");
  EXPECT_EQ(FormatFloat(0xFFF0000000000000, kDouble), "-0x1p+1024");
  EXPECT_EQ(FormatFloat(0x7FF8000000000000, kDouble), "0x1.8p+1024");
  EXPECT_EQ(FormatFloat(0x0000000000000001, kDouble), "0x1p-1074");
  EXPECT_EQ(FormatHexFloat(DoubleBits(-3.5), kDouble), "-0x1.cp+1");
  EXPECT_EQ(FormatHexFloat(DoubleBits(0.1), kDouble), "0x1.999999999999ap-4");
}

TEST(DoubleTest, Parse) {
  EXPECT_TRUE(Parses("0", kDouble, 0));
  EXPECT_TRUE(Parses("-0", kDouble, 0x8000000000000000));
  EXPECT_TRUE(Parses("1", kDouble, DoubleBits(1.0)));
  EXPECT_TRUE(Parses("0.5", kDouble, DoubleBits(0.5)));
  EXPECT_TRUE(Parses("-3.5", kDouble, DoubleBits(-3.5)));
  EXPECT_TRUE(Parses("0.1", kDouble, 0x3FB999999999999A));
  EXPECT_TRUE(Parses("0.10000000000000001", kDouble, 0x3FB999999999999A));
  EXPECT_TRUE(Parses("0x1.999999999999ap-4", kDouble, 0x3FB999999999999A));
  EXPECT_TRUE(Parses("0x1p-1074", kDouble, 1));
  EXPECT_TRUE(Parses("0x1p+1024", kDouble, 0x7FF0000000000000));
  EXPECT_TRUE(Parses("0x1.8p+1024", kDouble, 0x7FF8000000000000));
  EXPECT_TRUE(Parses("0x1.00000000000008p+0", kDouble, 0x3FF0000000000000));  // Tie to even.
  EXPECT_TRUE(Parses("0x1.00000000000018p+0", kDouble, 0x3FF0000000000002));
  EXPECT_TRUE(Fails("1e400", kDouble, "out of range for a 64-bit float"));
  EXPECT_TRUE(Fails("0x1p+2000", kDouble, "out of range for a 64-bit float"));
  EXPECT_TRUE(Fails("0x1p+1025", kDouble, "out of range"));
}

TEST(DoubleTest, RoundTripOfSamplePatterns) {
  std::vector<uint64_t> patterns = {0,
                                    0x8000000000000000,
                                    1,
                                    0x000FFFFFFFFFFFFF,
                                    0x0010000000000000,
                                    0x7FEFFFFFFFFFFFFF,
                                    0x7FF0000000000000,
                                    0x7FF8000000000001,
                                    0xFFFFFFFFFFFFFFFF};
  uint64_t x = 0x9E3779B97F4A7C15;
  for (int i = 0; i < 20000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    patterns.push_back(x);
  }
  for (uint64_t bits : patterns) {
    const std::string text = FormatFloat(bits, kDouble);
    uint64_t parsed = ~0ull;
    std::string error;
    ASSERT_TRUE(ParseFloat(text, kDouble, &parsed, &error)) << text << ": " << error;
    ASSERT_EQ(parsed, bits) << text;
  }
}

// ---------------------------------------------------------------------------------------------
// bfloat16.

TEST(BFloat16Test, Format) {
  EXPECT_EQ(FormatFloat(0x0000, kBFloat16), "0x0p+0");
  EXPECT_EQ(FormatFloat(0x8000, kBFloat16), "-0x0p+0");
  EXPECT_EQ(FormatFloat(0x3F80, kBFloat16), "0x1p+0");
  EXPECT_EQ(FormatFloat(0x3F00, kBFloat16), "0x1p-1");
  EXPECT_EQ(FormatFloat(0xC060, kBFloat16), "-0x1.cp+1");
  EXPECT_EQ(FormatFloat(0x3F81, kBFloat16), "0x1.02p+0");
  EXPECT_EQ(FormatFloat(0x7F7F, kBFloat16), "0x1.fep+127");
  EXPECT_EQ(FormatFloat(0x0001, kBFloat16), "0x1p-133");
  EXPECT_EQ(FormatFloat(0x7F80, kBFloat16), "0x1p+128");
  EXPECT_EQ(FormatFloat(0xFF80, kBFloat16), "-0x1p+128");
  EXPECT_EQ(FormatFloat(0x7FC0, kBFloat16), "0x1.8p+128");
}

TEST(BFloat16Test, Parse) {
  EXPECT_TRUE(Parses("0", kBFloat16, 0x0000));
  EXPECT_TRUE(Parses("-0", kBFloat16, 0x8000));
  EXPECT_TRUE(Parses("1", kBFloat16, 0x3F80));
  EXPECT_TRUE(Parses("0.5", kBFloat16, 0x3F00));
  EXPECT_TRUE(Parses("-3.5", kBFloat16, 0xC060));
  EXPECT_TRUE(Parses("65504", kBFloat16, 0x4780));  // 65504 rounds to 65536 in 8 bits.
  EXPECT_TRUE(Parses("0.01", kBFloat16, 0x3C24));   // 0x3C23D70A rounded up.
  EXPECT_TRUE(Parses("0x1p-133", kBFloat16, 0x0001));
  EXPECT_TRUE(Parses("0x1p+128", kBFloat16, 0x7F80));
  EXPECT_TRUE(Parses("0x1.8p+128", kBFloat16, 0x7FC0));
  EXPECT_TRUE(Parses("0x1.01p+0", kBFloat16, 0x3F80));  // Tie to even.
  EXPECT_TRUE(Parses("0x1.03p+0", kBFloat16, 0x3F82));  // Tie to even, up.
  EXPECT_TRUE(Fails("1e39", kBFloat16, "out of range for a 16-bit float"));
  EXPECT_TRUE(Fails("0x1p+200", kBFloat16, "out of range"));
}

TEST(BFloat16Test, AllBitPatternsRoundTrip) {
  for (uint64_t bits = 0; bits <= 0xFFFF; ++bits) {
    const std::string text = FormatFloat(bits, kBFloat16);
    uint64_t parsed = ~0ull;
    std::string error;
    ASSERT_TRUE(ParseFloat(text, kBFloat16, &parsed, &error)) << text << ": " << error;
    ASSERT_EQ(parsed, bits) << text;
  }
}

// ---------------------------------------------------------------------------------------------
// float8.

TEST(Float8Test, E4M3) {
  EXPECT_EQ(FormatFloat(0x00, kFloat8E4M3), "0x0p+0");
  EXPECT_EQ(FormatFloat(0x80, kFloat8E4M3), "-0x0p+0");
  EXPECT_EQ(FormatFloat(0x38, kFloat8E4M3), "0x1p+0");
  EXPECT_EQ(FormatFloat(0x30, kFloat8E4M3), "0x1p-1");
  EXPECT_EQ(FormatFloat(0xC6, kFloat8E4M3), "-0x1.cp+1");
  EXPECT_EQ(FormatFloat(0x39, kFloat8E4M3), "0x1.2p+0");
  EXPECT_EQ(FormatFloat(0x01, kFloat8E4M3), "0x1p-9");  // Smallest subnormal.
  EXPECT_EQ(FormatFloat(0x07, kFloat8E4M3), "0x1.cp-7");
  EXPECT_EQ(FormatFloat(0x77, kFloat8E4M3), "0x1.ep+7");
  EXPECT_EQ(FormatFloat(0x7F, kFloat8E4M3), "0x1.ep+8");
  EXPECT_TRUE(Parses("0", kFloat8E4M3, 0x00));
  EXPECT_TRUE(Parses("-0", kFloat8E4M3, 0x80));
  EXPECT_TRUE(Parses("1", kFloat8E4M3, 0x38));
  EXPECT_TRUE(Parses("0.5", kFloat8E4M3, 0x30));
  EXPECT_TRUE(Parses("-3.5", kFloat8E4M3, 0xC6));
  EXPECT_TRUE(Parses("0x1p-9", kFloat8E4M3, 0x01));
  EXPECT_TRUE(Parses("0.001953125", kFloat8E4M3, 0x01));  // 2^-9.
  EXPECT_TRUE(Parses("1.0625", kFloat8E4M3, 0x38));       // 1 + 2^-4: tie to even.
  EXPECT_TRUE(Parses("1.1875", kFloat8E4M3, 0x3A));       // 1 + 3 * 2^-4: tie to even, up.
  EXPECT_TRUE(Parses("0x1p-10", kFloat8E4M3, 0x00));      // Half the smallest subnormal.
  EXPECT_TRUE(Parses("0x1.ep+8", kFloat8E4M3, 0x7F));
  EXPECT_TRUE(Fails("1e4", kFloat8E4M3, "out of range for a 8-bit float"));
  EXPECT_TRUE(Fails("0x1p+200", kFloat8E4M3, "out of range"));
}

TEST(Float8Test, E5M2) {
  EXPECT_EQ(FormatFloat(0x00, kFloat8E5M2), "0x0p+0");
  EXPECT_EQ(FormatFloat(0x80, kFloat8E5M2), "-0x0p+0");
  EXPECT_EQ(FormatFloat(0x3C, kFloat8E5M2), "0x1p+0");
  EXPECT_EQ(FormatFloat(0x38, kFloat8E5M2), "0x1p-1");
  EXPECT_EQ(FormatFloat(0xC3, kFloat8E5M2), "-0x1.cp+1");
  EXPECT_EQ(FormatFloat(0x01, kFloat8E5M2), "0x1p-16");    // Smallest subnormal.
  EXPECT_EQ(FormatFloat(0x7B, kFloat8E5M2), "0x1.cp+15");  // 57344, the largest finite.
  EXPECT_EQ(FormatFloat(0x7C, kFloat8E5M2), "0x1p+16");    // Infinity.
  EXPECT_EQ(FormatFloat(0xFC, kFloat8E5M2), "-0x1p+16");
  EXPECT_EQ(FormatFloat(0x7E, kFloat8E5M2), "0x1.8p+16");  // NaN.
  EXPECT_TRUE(Parses("0", kFloat8E5M2, 0x00));
  EXPECT_TRUE(Parses("-0", kFloat8E5M2, 0x80));
  EXPECT_TRUE(Parses("1", kFloat8E5M2, 0x3C));
  EXPECT_TRUE(Parses("0.5", kFloat8E5M2, 0x38));
  EXPECT_TRUE(Parses("-3.5", kFloat8E5M2, 0xC3));
  EXPECT_TRUE(Parses("57344", kFloat8E5M2, 0x7B));
  EXPECT_TRUE(Parses("0x1p-16", kFloat8E5M2, 0x01));
  EXPECT_TRUE(Parses("1.125", kFloat8E5M2, 0x3C));  // 1 + 2^-3: tie to even.
  EXPECT_TRUE(Parses("1.375", kFloat8E5M2, 0x3E));  // 1 + 3 * 2^-3: tie to even, up.
  EXPECT_TRUE(Parses("0x1p+16", kFloat8E5M2, 0x7C));
  EXPECT_TRUE(Parses("-0x1p+16", kFloat8E5M2, 0xFC));
  EXPECT_TRUE(Parses("0x1.8p+16", kFloat8E5M2, 0x7E));
  EXPECT_TRUE(Fails("65504", kFloat8E5M2, "out of range for a 8-bit float"));
  EXPECT_TRUE(Fails("0x1p+17", kFloat8E5M2, "out of range"));
}

TEST(Float8Test, AllBitPatternsRoundTrip) {
  for (FloatFormat format : {kFloat8E4M3, kFloat8E5M2}) {
    SCOPED_TRACE(format.exponent_bits);
    for (uint64_t bits = 0; bits <= 0xFF; ++bits) {
      const std::string text = FormatFloat(bits, format);
      uint64_t parsed = ~0ull;
      std::string error;
      ASSERT_TRUE(ParseFloat(text, format, &parsed, &error)) << text << ": " << error;
      ASSERT_EQ(parsed, bits) << text;
      // The hex spelling parses back too.
      ASSERT_TRUE(ParseFloat(FormatHexFloat(bits, format), format, &parsed, &error)) << error;
      ASSERT_EQ(parsed, bits);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// OCP microscaling (SPV_EXT_ocp_microscaling_types): FP4 E2M1 and FP6 E2M3 / E3M2 have no
// infinities nor NaN, so every pattern is finite; E8M0 and MXINT8 print as spirv-dis prints them.

TEST(MicroscalingTest, Fp4E2M1) {
  EXPECT_EQ(kFloat4E2M1.width(), 4);
  EXPECT_EQ(kFloat4E2M1.bias(), 1);
  EXPECT_EQ(FormatFloat(0x0, kFloat4E2M1), "0x0p+0");
  EXPECT_EQ(FormatFloat(0x1, kFloat4E2M1), "0x1p-1");  // The one subnormal, 0.5.
  EXPECT_EQ(FormatFloat(0x2, kFloat4E2M1), "0x1p+0");
  EXPECT_EQ(FormatFloat(0x3, kFloat4E2M1), "0x1.8p+0");
  EXPECT_EQ(FormatFloat(0x6, kFloat4E2M1), "0x1p+2");
  EXPECT_EQ(FormatFloat(0x7, kFloat4E2M1), "0x1.8p+2");  // 6, the largest: not NaN.
  EXPECT_EQ(FormatFloat(0xF, kFloat4E2M1), "-0x1.8p+2");
  EXPECT_TRUE(Parses("6", kFloat4E2M1, 0x7));
  EXPECT_TRUE(Parses("-6", kFloat4E2M1, 0xF));
  EXPECT_TRUE(Parses("0.5", kFloat4E2M1, 0x1));
  EXPECT_TRUE(Parses("0.25", kFloat4E2M1, 0x0));  // Half the subnormal: tie to even, zero.
  EXPECT_TRUE(Parses("5", kFloat4E2M1, 0x6));     // Between 4 and 6: tie to even, 4.
  EXPECT_TRUE(Parses("0x1.8p+2", kFloat4E2M1, 0x7));
  EXPECT_TRUE(Fails("7", kFloat4E2M1, "out of range for a 4-bit float"));
  EXPECT_TRUE(Fails("0x1p+3", kFloat4E2M1, "out of range"));
}

TEST(MicroscalingTest, Fp6E2M3AndE3M2) {
  EXPECT_EQ(kFloat6E2M3.width(), 6);
  EXPECT_EQ(kFloat6E3M2.width(), 6);
  EXPECT_EQ(kFloat6E3M2.bias(), 3);
  EXPECT_EQ(FormatFloat(0x1F, kFloat6E2M3), "0x1.ep+2");  // 7.5, the largest.
  EXPECT_EQ(FormatFloat(0x01, kFloat6E2M3), "0x1p-3");    // Smallest subnormal.
  EXPECT_EQ(FormatFloat(0x1F, kFloat6E3M2), "0x1.cp+4");  // 28, the largest.
  EXPECT_EQ(FormatFloat(0x01, kFloat6E3M2), "0x1p-4");
  EXPECT_EQ(FormatFloat(0x3F, kFloat6E3M2), "-0x1.cp+4");
  EXPECT_TRUE(Parses("7.5", kFloat6E2M3, 0x1F));
  EXPECT_TRUE(Parses("28", kFloat6E3M2, 0x1F));
  EXPECT_TRUE(Parses("-1", kFloat6E3M2, 0x2C));
  EXPECT_TRUE(Fails("8", kFloat6E2M3, "out of range for a 6-bit float"));
  EXPECT_TRUE(Fails("32", kFloat6E3M2, "out of range"));
}

TEST(MicroscalingTest, AllBitPatternsRoundTrip) {
  for (FloatFormat format : {kFloat4E2M1, kFloat6E2M3, kFloat6E3M2}) {
    SCOPED_TRACE(format.exponent_bits * 10 + format.mantissa_bits);
    for (uint64_t bits = 0; bits < (1u << format.width()); ++bits) {
      const std::string text = FormatFloat(bits, format);
      uint64_t parsed = ~0ull;
      std::string error;
      ASSERT_TRUE(ParseFloat(text, format, &parsed, &error)) << text << ": " << error;
      ASSERT_EQ(parsed, bits) << text;
    }
  }
  for (uint64_t bits = 0; bits <= 0xFF; ++bits) {
    uint64_t parsed = ~0ull;
    std::string error;
    ASSERT_TRUE(ParseE8M0(FormatE8M0(bits), &parsed, &error)) << FormatE8M0(bits) << error;
    ASSERT_EQ(parsed, bits);
    ASSERT_TRUE(ParseMXInt8(FormatMXInt8(bits), &parsed, &error)) << FormatMXInt8(bits) << error;
    ASSERT_EQ(parsed, bits);
  }
}

TEST(MicroscalingTest, E8M0) {
  EXPECT_EQ(FormatE8M0(0), "0x1p-127");  // No zero: the smallest power of two.
  EXPECT_EQ(FormatE8M0(127), "0x1p+0");
  EXPECT_EQ(FormatE8M0(254), "0x1p+127");
  EXPECT_EQ(FormatE8M0(255), "0x1p+128");  // NaN.
  uint64_t bits = 0;
  std::string error;
  EXPECT_TRUE(ParseE8M0("1", &bits, &error));
  EXPECT_EQ(bits, 127u);
  EXPECT_TRUE(ParseE8M0("0.25", &bits, &error));
  EXPECT_EQ(bits, 125u);
  for (const char* bad : {"0", "-1", "3", "0x1p+129", "0x1p-128", "x"}) {
    EXPECT_FALSE(ParseE8M0(bad, &bits, &error)) << bad;
  }
  EXPECT_FALSE(ParseE8M0("3", &bits, &error));
  EXPECT_NE(error.find("is not an E8M0 value"), std::string::npos) << error;
}

TEST(MicroscalingTest, MXInt8) {
  EXPECT_EQ(FormatMXInt8(0x00), "0x0p+0");
  EXPECT_EQ(FormatMXInt8(0x40), "0x1p+0");
  EXPECT_EQ(FormatMXInt8(0x01), "0x1p-6");
  EXPECT_EQ(FormatMXInt8(0x7F), "0x1.fcp+0");
  EXPECT_EQ(FormatMXInt8(0x80), "-0x1p+1");
  EXPECT_EQ(FormatMXInt8(0xFF), "-0x1p-6");
  uint64_t bits = 0;
  std::string error;
  EXPECT_TRUE(ParseMXInt8("-2", &bits, &error));
  EXPECT_EQ(bits, 0x80u);
  EXPECT_TRUE(ParseMXInt8("0.5", &bits, &error));
  EXPECT_EQ(bits, 0x20u);
  EXPECT_TRUE(ParseMXInt8("-0", &bits, &error));
  EXPECT_EQ(bits, 0u);
  for (const char* bad : {"2", "-2.015625", "0x1p-7", "0.1", "x"}) {
    EXPECT_FALSE(ParseMXInt8(bad, &bits, &error)) << bad;
  }
  EXPECT_FALSE(ParseMXInt8("2", &bits, &error));
  EXPECT_NE(error.find("is not an MXINT8 value"), std::string::npos) << error;
}

TEST(MicroscalingTest, FormatOfEncoding) {
  EXPECT_EQ(FloatFormatOf(32, -1)->width(), 32);
  EXPECT_EQ(FloatFormatOf(16, 0)->exponent_bits, 8);  // BFloat16KHR.
  EXPECT_EQ(FloatFormatOf(4, 4225)->width(), 4);
  EXPECT_EQ(FloatFormatOf(6, 4223)->mantissa_bits, 3);
  EXPECT_EQ(FloatFormatOf(6, 4224)->mantissa_bits, 2);
  EXPECT_FALSE(FloatFormatOf(8, kEncodingFloat8UnsignedE8M0).has_value());
  EXPECT_FALSE(FloatFormatOf(8, kEncodingMXInt8).has_value());
  EXPECT_FALSE(FloatFormatOf(8, -1).has_value());
}

// ---------------------------------------------------------------------------------------------
// Text that is not a number.

TEST(ParseFloatTest, JunkIsRejectedInEveryFormat) {
  const FloatFormat formats[] = {kHalf,       kSingle,     kDouble,     kBFloat16,  kFloat8E4M3,
                                 kFloat8E5M2, kFloat4E2M1, kFloat6E2M3, kFloat6E3M2};
  for (const FloatFormat& format : formats) {
    SCOPED_TRACE(format.width());
    EXPECT_TRUE(Fails("abc", format, "'abc' is not a floating-point number"));
    EXPECT_TRUE(Fails("1.2.3", format, "'1.2.3' is not a floating-point number"));
    EXPECT_TRUE(Fails("", format, "'' is not a floating-point number"));
    EXPECT_TRUE(Fails("0x", format, "'0x' is not a floating-point number"));
    EXPECT_TRUE(Fails("-", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails("+", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails(".", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails("--1", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails("1e", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails("1e+", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails("e5", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails("1f", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails("1.0 ", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails(" 1.0", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails("inf", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails("nan", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails("1,5", format, "is not a floating-point number"));
    EXPECT_TRUE(Fails("0x.p+1", format, "expected hex digits"));
    EXPECT_TRUE(Fails("0xp+1", format, "expected hex digits"));
    EXPECT_TRUE(Fails("-0xg", format, "expected hex digits"));
    EXPECT_TRUE(Fails("0x1.2.3p+0", format, "unexpected character in hex float"));
    EXPECT_TRUE(Fails("0x1q", format, "unexpected character in hex float"));
    EXPECT_TRUE(Fails("0x1p", format, "missing hex float exponent"));
    EXPECT_TRUE(Fails("0x1p-", format, "missing hex float exponent"));
    EXPECT_TRUE(Fails("0x1p+1x", format, "unexpected character in hex float exponent"));
    EXPECT_TRUE(Fails("0x1p++1", format, "unexpected character in hex float exponent"));
    EXPECT_TRUE(Fails("0x1p+9999999", format, "hex float exponent out of range"));
  }
}

// Decimal text is rounded once, to the target format: a value just above a tie must not be
// rounded to the tie by an intermediate double and then to even.
TEST(HalfTest, DecimalParseHasNoDoubleRounding) {
  // Just above 1 + 2^-11, the tie between 0x3C00 and 0x3C01.
  EXPECT_TRUE(Parses("1.00048828125000000000001", kHalf, 0x3C01));
  EXPECT_TRUE(Parses("1.00048828125", kHalf, 0x3C00));  // The exact tie goes to even.
  // Just above 2^-25, half of the smallest subnormal.
  EXPECT_TRUE(Parses("2.98023223876953126e-08", kHalf, 0x0001));
  EXPECT_TRUE(Parses("2.98023223876953125e-08", kHalf, 0x0000));
}

// E4M3 follows OCP FP8 "FN": no infinities, the all-ones exponent holds 256..448, and only
// S.1111.111 is NaN.
TEST(Float8Test, E4M3HasNoInfinities) {
  EXPECT_TRUE(Parses("448", kFloat8E4M3, 0x7E));
  EXPECT_TRUE(Parses("256", kFloat8E4M3, 0x78));
  EXPECT_TRUE(Parses("-256", kFloat8E4M3, 0xF8));
  EXPECT_TRUE(Fails("480", kFloat8E4M3, "out of range"));
  EXPECT_EQ(FormatFloat(0x7E, kFloat8E4M3), "0x1.cp+8");
  // The NaN pattern round-trips through its hex spelling.
  EXPECT_TRUE(Parses(FormatFloat(0x7F, kFloat8E4M3), kFloat8E4M3, 0x7F));
  // E5M2 keeps IEEE infinities.
  EXPECT_TRUE(Parses("0x1p+16", kFloat8E5M2, 0x7C));
}

}  // namespace
}  // namespace coopspv
