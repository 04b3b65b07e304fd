// --band-coop-matrix2 (source/opt/band_coop_matrix2.cc): Workgroup matrices in row bands.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "test/util/pass_run.h"

namespace coopspv {
namespace {

using testing::PassRun;

std::string FileText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

size_t Count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The module in bands of `rows`, then lowered to plain code (subgroups of 8).
PassRun BandedAndLowered(const std::string& text, const std::string& rows) {
  return testing::RunPasses(text, {{"freeze-spec-const", ""},
                                   {"fold-spec-const", ""},
                                   {"band-coop-matrix2", rows},
                                   {"lower-coop-matrix2", "8"},
                                   {"lower-coop-matrix", "8"}});
}

PassRun Band(const std::string& corpus, const std::string& rows) {
  return testing::RunPasses(FileText("test/data/corpus/" + corpus + ".spvasm"),
                            {{"freeze-spec-const", ""},
                             {"fold-spec-const", ""},
                             {"band-coop-matrix2", rows}});
}

// cm2_decode_q4: A (128 x 32, loaded with DecodeFunc), the half accumulator and the float result
// (128 x 128) work row by row: each becomes 4 bands of 32 rows, its tensor loads and stores one
// per band through a slice of the access's slice, its multiply-add and conversion one per band;
// B (32 x 128, the multiply-add's B) stays whole.
TEST(BandCoopMatrix2, DecodeQ4GoesBandByBand) {
  const PassRun r = Band("cm2_decode_q4", "32");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(Count(r.text, "_uint_4 = OpTypeArray"), 3u) << r.text;
  EXPECT_EQ(Count(r.text, "OpCooperativeMatrixStoreTensorNV"), 4u) << r.text;
  EXPECT_EQ(Count(r.text, "OpCooperativeMatrixMulAddKHR"), 4u) << r.text;
  // A's loads in bands (4), B's whole (1).
  EXPECT_EQ(Count(r.text, "OpCooperativeMatrixLoadTensorNV"), 5u) << r.text;
  // Band b's slice: offset 32 * b, span 32 in the rows' dimension, the whole slice across.
  EXPECT_TRUE(Contains(r.text, "%uint_96 %uint_32 %uint_0 ")) << r.text;
  for (const char* band : {"%half %uint_2 %uint_32 %uint_32 %uint_0",  // A: 32 x BK (32)
                           "%half %uint_2 %uint_32 %BM %uint_2",       // the half accumulator
                           "%float %uint_2 %uint_32 %BM %uint_2"}) {   // the float result
    EXPECT_TRUE(Contains(r.text, std::string("OpTypeCooperativeMatrixKHR ") + band)) << r.text;
  }
}

// Bands as tall as the matrix (or taller, or not dividing it) change nothing.
TEST(BandCoopMatrix2, BandsThatDoNotSplitChangeNothing) {
  for (const char* rows : {"128", "256", "48", "100"}) {
    const PassRun r = Band("cm2_decode_q4", rows);
    ASSERT_TRUE(r.ok) << rows << ": " << r.error;
    EXPECT_EQ(Count(r.text, "OpCooperativeMatrixStoreTensorNV"), 1u) << rows;
  }
}

// cm2_softmax_reduce (64 x 64, bands of 16: 4 of them) reduces its rows, its columns, its whole
// matrix and its 2x2 blocks, and stores the float32 pooled matrix (32 x 32) row-major through
// OpCooperativeMatrixStoreKHR: every type goes in 4 bands (the pooled ones of 8 rows). Rows and
// 2x2 go band by band; columns: each band reduced, then combined by per-element operations
// calling CombineFunc through a wrapper; everything: element 0 of each band's reduction folded by
// CombineFunc, then splat. The pooled store goes band by band, 8 * 32 elements further each.
TEST(BandCoopMatrix2, ReductionsAndRowMajorStoresGoBandByBand) {
  const PassRun whole = testing::RunPasses(
      FileText("test/data/corpus/cm2_softmax_reduce.spvasm"),
      {{"freeze-spec-const", ""}, {"fold-spec-const", ""}});
  ASSERT_TRUE(whole.ok) << whole.error;
  const PassRun r = Band("cm2_softmax_reduce", "16");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(Count(r.text, "OpCooperativeMatrixStoreTensorNV"), 4u) << r.text;
  EXPECT_EQ(Count(r.text, "OpCooperativeMatrixStoreKHR"), 4u) << r.text;
  // Bands 1 to 3 of the pooled store: 256, 512 and 768 elements after band 0's start.
  for (const char* offset : {"%uint_256\n", "%uint_512\n", "%uint_768\n"}) {
    EXPECT_EQ(Count(r.text, std::string(" = OpIAdd %uint %172 ") + offset), 1u) << r.text;
  }
  // Row (2), Column, Row|Column and 2x2: 4 bands each.
  EXPECT_EQ(Count(r.text, "= OpCooperativeMatrixReduceEXT %"), 20u) << r.text;
  EXPECT_EQ(Count(r.text, " Column %sumReduce_f1_f1_"), 4u) << r.text;
  // The column sums combined: 3 per-element operations through one wrapper (with the 3
  // row-offset wrappers of the per-element functions).
  EXPECT_EQ(Count(r.text, "= OpFunction "), Count(whole.text, "= OpFunction ") + 4) << r.text;
  EXPECT_EQ(Count(r.text, "= OpFunctionCall %float %sumReduce_f1_f1_"),
            Count(whole.text, "= OpFunctionCall %float %sumReduce_f1_f1_") + 1 + 3)
      << r.text;
  // (%Br: the columns, 64, folded with the rows' constant; %Br2: 32.)
  for (const char* band : {"%float %uint_2 %uint_16 %Br %uint_2", "%half %uint_2 %uint_16 %Br %uint_2",
                           "%half %uint_2 %uint_8 %Br2 %uint_2",
                           "%float %uint_2 %uint_8 %Br2 %uint_2"}) {
    EXPECT_TRUE(Contains(r.text, std::string("OpTypeCooperativeMatrixKHR ") + band)) << r.text;
  }
  // Lowered to plain code, it validates.
  const PassRun lowered =
      BandedAndLowered(FileText("test/data/corpus/cm2_softmax_reduce.spvasm"), "16");
  ASSERT_TRUE(lowered.ok) << lowered.error;
  EXPECT_FALSE(Contains(lowered.text, "CooperativeMatrix")) << lowered.text;
}

// cm2_decode_q4 with its float result reduced by rows (a sum) and then given its row number by a
// per-element operation: both go band by band, the per-element function through a wrapper that
// adds the band's first row (one more function), and the output validates.
TEST(BandCoopMatrix2, RowReductionsAndPerElementOperationsGoBandByBand) {
  std::string text = FileText("test/data/corpus/cm2_decode_q4.spvasm");
  auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("OpCapability CooperativeMatrixKHR\n",
          "OpCapability CooperativeMatrixKHR\nOpCapability CooperativeMatrixReductionsNV\n"
          "OpCapability CooperativeMatrixPerElementOperationsNV\n");
  replace("%165 = OpTypeCooperativeMatrixKHR %float %uint_2 %BM %BN %uint_2\n",
          "%165 = OpTypeCooperativeMatrixKHR %float %uint_2 %BM %BN %uint_2\n"
          "%rowfn_t = OpTypeFunction %float %uint %uint %float\n"
          "%addfn_t = OpTypeFunction %float %float %float\n");
  replace("%170 = OpLoad %165 %out32\n",
          "%170a = OpLoad %165 %out32\n"
          "%170r = OpCooperativeMatrixReduceNV %165 %170a Row %addfn\n"
          "%170 = OpCooperativeMatrixPerElementOpNV %165 %170r %rowfn\n");
  text +=
      "%rowfn = OpFunction %float None %rowfn_t\n%bpr = OpFunctionParameter %uint\n"
      "%bpc = OpFunctionParameter %uint\n%bpe = OpFunctionParameter %float\n%brl = OpLabel\n"
      "%bprf = OpConvertUToF %float %bpr\n%bps = OpFAdd %float %bpe %bprf\nOpReturnValue %bps\n"
      "OpFunctionEnd\n"
      "%addfn = OpFunction %float None %addfn_t\n%aa = OpFunctionParameter %float\n"
      "%ab = OpFunctionParameter %float\n%al = OpLabel\n%as = OpFAdd %float %aa %ab\n"
      "OpReturnValue %as\nOpFunctionEnd\n";
  const PassRun whole = testing::RunPasses(
      text, {{"freeze-spec-const", ""}, {"fold-spec-const", ""}});
  ASSERT_TRUE(whole.ok) << whole.error;
  const PassRun r = testing::RunPasses(
      text, {{"freeze-spec-const", ""}, {"fold-spec-const", ""}, {"band-coop-matrix2", "32"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(Count(r.text, "= OpCooperativeMatrixReduceEXT %"), 4u) << r.text;
  // The wrapper's call of the per-element function.
  EXPECT_EQ(Count(r.text, "= OpFunctionCall %float "),
            Count(whole.text, "= OpFunctionCall %float ") + 1)
      << r.text;
  EXPECT_EQ(Count(r.text, "= OpCooperativeMatrixPerElementOpEXT %"), 4u) << r.text;
  EXPECT_EQ(Count(r.text, "= OpFunction "), Count(whole.text, "= OpFunction ") + 1) << r.text;
  // Band b passes its first row, 32 * b, to the wrapper.
  EXPECT_EQ(Count(r.text, " %uint_96\n"), 1u) << r.text;
  EXPECT_FALSE(Contains(r.text, "%rowfn %uint")) << r.text;  // Not the function itself.
  // Through --lower-coop-matrix2 and on to plain code, it still validates.
  const PassRun lowered = BandedAndLowered(text, "32");
  ASSERT_TRUE(lowered.ok) << lowered.error;
  EXPECT_FALSE(Contains(lowered.text, "CooperativeMatrix")) << lowered.text;
}

TEST(BandCoopMatrix2, TheArgumentIsABandHeight) {
  const PassRun r = Band("cm2_decode_q4", "rows");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error, "--band-coop-matrix2 takes the band height")) << r.error;
}

}  // namespace
}  // namespace coopspv
