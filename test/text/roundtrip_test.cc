// Round trips through the assembler and the disassembler: the corpus of real modules, one program
// per instruction of the cooperative family, and one program per core instruction class.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "source/binary/reader.h"
#include "source/common/diagnostic.h"
#include "source/grammar/grammar.h"
#include "source/text/assembler.h"
#include "source/text/disassembler.h"

namespace coopspv::text {
namespace {

constexpr char kCorpusDir[] = "test/data/corpus";

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::optional<std::vector<uint32_t>> Asm(const std::string& text,
                                         const AssembleOptions& options = {}) {
  std::vector<uint32_t> words;
  Diagnostic diagnostic;
  if (!Assemble(text, options, &words, &diagnostic)) {
    ADD_FAILURE() << "assembly failed: " << diagnostic.ToString() << "\n" << text;
    return std::nullopt;
  }
  return words;
}

std::optional<std::string> Dis(const std::vector<uint32_t>& words,
                               const DisassembleOptions& options = {}) {
  std::string text;
  Diagnostic diagnostic;
  if (!Disassemble(words, options, &text, &diagnostic)) {
    ADD_FAILURE() << "disassembly failed: " << diagnostic.ToString();
    return std::nullopt;
  }
  return text;
}

struct Inst {
  uint32_t opcode;
  std::vector<uint32_t> words;
};

// Splits a module's words into instructions (after the 5-word header).
std::vector<Inst> Instructions(const std::vector<uint32_t>& words) {
  std::vector<Inst> out;
  size_t i = binary::kHeaderWords;
  while (i < words.size()) {
    const uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) {
      ADD_FAILURE() << "bad word count at word " << i;
      break;
    }
    out.push_back({words[i] & 0xFFFF, {words.begin() + i, words.begin() + i + count}});
    i += count;
  }
  return out;
}

// text -> binary1 -> text2 -> binary2 (binary1 == binary2) -> text3 (text2 == text3).
// Returns binary1 and text2.
std::optional<std::pair<std::vector<uint32_t>, std::string>> RoundTrip(const std::string& text) {
  auto binary1 = Asm(text);
  if (!binary1) return std::nullopt;
  auto text2 = Dis(*binary1);
  if (!text2) return std::nullopt;
  auto binary2 = Asm(*text2);
  if (!binary2) return std::nullopt;
  EXPECT_EQ(*binary1, *binary2) << "text2:\n" << *text2;
  auto text3 = Dis(*binary2);
  if (!text3) return std::nullopt;
  EXPECT_EQ(*text2, *text3);
  return std::make_pair(std::move(*binary1), std::move(*text2));
}

// ---------------------------------------------------------------------------------------------
// The corpus.

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(kCorpusDir, ec)) {
    if (entry.path().extension() == ".spvasm") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CorpusTest, DirectoryListsEveryManifestModule) {
  const std::vector<std::string> files = CorpusFiles();
  ASSERT_FALSE(files.empty()) << "no *.spvasm under " << kCorpusDir;
  std::istringstream manifest(ReadFile(std::filesystem::path(kCorpusDir) / "MANIFEST.tsv"));
  std::string line;
  std::getline(manifest, line);  // Column titles.
  int rows = 0;
  while (std::getline(manifest, line)) {
    if (line.empty()) continue;
    const std::string name = line.substr(0, line.find('\t'));
    EXPECT_TRUE(std::find(files.begin(), files.end(), name) != files.end()) << name;
    ++rows;
  }
  EXPECT_GT(rows, 0);
  EXPECT_EQ(static_cast<size_t>(rows), files.size());
}

class CorpusRoundTrip : public ::testing::TestWithParam<std::string> {
 protected:
  std::string Text() const { return ReadFile(std::filesystem::path(kCorpusDir) / GetParam()); }
};

// With ids preserved, disassembly reproduces spirv-dis's text exactly.
TEST_P(CorpusRoundTrip, PreservedIdsGiveTheSameText) {
  const std::string text = Text();
  ASSERT_FALSE(text.empty());
  AssembleOptions options;
  options.preserve_numeric_ids = true;
  auto binary = Asm(text, options);
  ASSERT_TRUE(binary);
  auto again = Dis(*binary);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, text);
}

// Renumbered ids: the binary is a fixed point of disassemble + assemble.
TEST_P(CorpusRoundTrip, RenumberedIdsAreAFixedPoint) {
  const std::string text1 = Text();
  ASSERT_FALSE(text1.empty());
  auto binary1 = Asm(text1);
  ASSERT_TRUE(binary1);
  auto text2 = Dis(*binary1);
  ASSERT_TRUE(text2);
  auto binary2 = Asm(*text2);
  ASSERT_TRUE(binary2);
  ASSERT_EQ(binary1->size(), binary2->size());
  for (size_t i = 0; i < binary1->size(); ++i) {
    ASSERT_EQ((*binary1)[i], (*binary2)[i]) << "word " << i;
  }
  auto text3 = Dis(*binary2);
  ASSERT_TRUE(text3);
  EXPECT_EQ(*text3, *text2);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusRoundTrip, ::testing::ValuesIn(CorpusFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.find('.'));
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// ---------------------------------------------------------------------------------------------
// Every instruction of the cooperative family (grammar-facts.md, aliases included).

// Types and values the per-opcode programs use. The modules need not be valid, only well formed.
constexpr char kCoopPrelude[] = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%bfloat16 = OpTypeFloat 16 BFloat16KHR
%fp8 = OpTypeFloat 8 Float8E4M3EXT
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_16 = OpConstant %uint 16
%false = OpConstantFalse %bool
%true = OpConstantTrue %bool
%half_1 = OpConstant %half 1
%float_1 = OpConstant %float 1
%ct_f16 = OpConstant %uint 0
%ct_e4m3 = OpConstant %uint 1000491002
%ct_s8packed = OpConstant %uint 1000491000
%vl_infer = OpConstant %uint 2
%vl_train = OpConstant %uint 3
%ml_rowblk = OpConstant %uint 4202
%ml_colblk = OpConstant %uint 4203
%v2half = OpTypeVector %half 2
%v2bf16 = OpTypeVector %bfloat16 2
%v4fp8 = OpTypeVector %fp8 4
%v2uint = OpTypeVector %uint 2
%arr = OpTypeArray %uint %uint_16
%ptr = OpTypePointer StorageBuffer %arr
%buf = OpVariable %ptr StorageBuffer
%matA = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_0
%matAcc = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_2
%matNV = OpTypeCooperativeMatrixNV %half %uint_3 %uint_16 %uint_16
%vec = OpTypeVectorIdEXT %half %uint_16
%tlayout = OpTypeTensorLayoutNV %uint_2 %uint_0
%tview = OpTypeTensorViewNV %uint_2 %false %uint_0 %uint_1
%tensor = OpTypeTensorARM %float %uint_2
%fnty = OpTypeFunction %half %half %half
%a = OpUndef %matA
%acc = OpUndef %matAcc
%nv = OpUndef %matNV
%v = OpUndef %vec
%tl = OpUndef %tlayout
%tv = OpUndef %tview
%t = OpUndef %tensor
%coord = OpUndef %v2uint
%arrv = OpUndef %arr
%h2 = OpUndef %v2half
%b2 = OpUndef %v2bf16
%q4 = OpUndef %v4fp8
%func = OpUndef %fnty
%func2 = OpUndef %fnty
)";

struct CoopCase {
  uint32_t opcode;
  const char* canonical;  // The name disassembly must print.
  const char* line;       // The instruction under test, appended to kCoopPrelude.
  uint32_t word_count;    // Of the instruction under test.
  // (word index, value) pairs of literal words (enumerants, masks) the encoding must have.
  std::vector<std::pair<size_t, uint32_t>> literals = {};
};

void PrintTo(const CoopCase& c, std::ostream* os) { *os << c.line; }

const std::vector<CoopCase>& CoopCases() {
  static const std::vector<CoopCase> cases = {
      {4163, "OpTypeTensorARM", "%r = OpTypeTensorARM %float %uint_2 %arrv", 5},
      // TensorOperands: NontemporalARM (0x1) has no parameter, OutOfBoundsValueARM (0x2) has one.
      {4164,
       "OpTensorReadARM",
       "%r = OpTensorReadARM %float %t %coord NontemporalARM|OutOfBoundsValueARM %float_1",
       7,
       {{5, 0x3}}},
      {4165,
       "OpTensorWriteARM",
       "OpTensorWriteARM %t %coord %float_1 MakeElementAvailableARM|NonPrivateElementARM %uint_2",
       6,
       {{4, 0x14}}},
      {4166, "OpTensorQuerySizeARM", "%r = OpTensorQuerySizeARM %uint %t %uint_0", 5},
      {4456, "OpTypeCooperativeMatrixKHR",
       "%r = OpTypeCooperativeMatrixKHR %bfloat16 %uint_3 %uint_16 %uint_16 %uint_1", 7},
      {4457,
       "OpCooperativeMatrixLoadKHR",
       "%r = OpCooperativeMatrixLoadKHR %matA %buf %ml_rowblk %uint_16 Aligned|Nontemporal 16",
       8,
       {{6, 0x6}, {7, 16}}},
      {4458,
       "OpCooperativeMatrixStoreKHR",
       "OpCooperativeMatrixStoreKHR %buf %a %ml_colblk %uint_16 "
       "MakePointerAvailable|NonPrivatePointer %uint_1",
       7,
       {{5, 0x28}}},
      {4459,
       "OpCooperativeMatrixMulAddKHR",
       "%r = OpCooperativeMatrixMulAddKHR %matAcc %a %a %acc "
       "MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|"
       "MatrixResultSignedComponentsKHR|SaturatingAccumulationKHR",
       7,
       {{6, 0x1F}}},
      {4460, "OpCooperativeMatrixLengthKHR", "%r = OpCooperativeMatrixLengthKHR %uint %matA", 4},
      {4461, "OpConstantCompositeReplicateEXT",
       "%r = OpConstantCompositeReplicateEXT %v2half %half_1", 4},
      {4462, "OpSpecConstantCompositeReplicateEXT",
       "%r = OpSpecConstantCompositeReplicateEXT %matAcc %float_1", 4},
      {4463, "OpCompositeConstructReplicateEXT",
       "%r = OpCompositeConstructReplicateEXT %matA %half_1", 4},
      {4497, "OpBitCastArrayQCOM", "%r = OpBitCastArrayQCOM %arr %arrv", 4},
      {4540, "OpCompositeConstructCoopMatQCOM", "%r = OpCompositeConstructCoopMatQCOM %matA %arrv",
       4},
      {4541, "OpCompositeExtractCoopMatQCOM", "%r = OpCompositeExtractCoopMatQCOM %arr %a", 4},
      {4542, "OpExtractSubArrayQCOM", "%r = OpExtractSubArrayQCOM %arr %arrv %uint_1", 5},
      {5288, "OpTypeVectorIdEXT", "%r = OpTypeVectorIdEXT %float %uint_16", 4},
      {5288, "OpTypeVectorIdEXT", "%r = OpTypeCooperativeVectorNV %fp8 %uint_16", 4},
      {5289,
       "OpCooperativeVectorMatrixMulNV",
       "%r = OpCooperativeVectorMatrixMulNV %vec %v %ct_e4m3 %buf %uint_0 %ct_e4m3 %uint_16 "
       "%uint_16 %vl_infer %false %uint_16 MatrixBSignedComponentsKHR",
       14,
       {{13, 0x2}}},
      {5290, "OpCooperativeVectorOuterProductAccumulateNV",
       "OpCooperativeVectorOuterProductAccumulateNV %buf %uint_0 %v %v %vl_train %ct_f16 %uint_16",
       8},
      {5291, "OpCooperativeVectorReduceSumAccumulateNV",
       "OpCooperativeVectorReduceSumAccumulateNV %buf %uint_0 %v", 4},
      {5292,
       "OpCooperativeVectorMatrixMulAddNV",
       "%r = OpCooperativeVectorMatrixMulAddNV %vec %v %ct_s8packed %buf %uint_0 %ct_s8packed "
       "%buf %uint_16 %ct_f16 %uint_16 %uint_16 %vl_infer %false %uint_16 "
       "MatrixASignedComponentsKHR|SaturatingAccumulationKHR",
       17,
       {{16, 0x11}}},
      {5293, "OpCooperativeMatrixConvertUseEXT", "%r = OpCooperativeMatrixConvertUseEXT %matA %acc",
       4},
      {5293, "OpCooperativeMatrixConvertUseEXT", "%r = OpCooperativeMatrixConvertNV %matA %acc", 4},
      {5302,
       "OpCooperativeVectorLoadNV",
       "%r = OpCooperativeVectorLoadNV %vec %buf %uint_0 Aligned 16",
       7,
       {{5, 0x2}, {6, 16}}},
      {5303,
       "OpCooperativeVectorStoreNV",
       "OpCooperativeVectorStoreNV %buf %uint_0 %v Nontemporal",
       5,
       {{4, 0x4}}},
      {5358, "OpTypeCooperativeMatrixNV",
       "%r = OpTypeCooperativeMatrixNV %float %uint_3 %uint_16 %uint_16", 6},
      {5359,
       "OpCooperativeMatrixLoadNV",
       "%r = OpCooperativeMatrixLoadNV %matNV %buf %uint_16 %false Volatile",
       7,
       {{6, 0x1}}},
      {5360, "OpCooperativeMatrixStoreNV", "OpCooperativeMatrixStoreNV %buf %nv %uint_16 %true", 5},
      {5361, "OpCooperativeMatrixMulAddNV", "%r = OpCooperativeMatrixMulAddNV %matNV %nv %nv %nv",
       6},
      {5362, "OpCooperativeMatrixLengthNV", "%r = OpCooperativeMatrixLengthNV %uint %matNV", 4},
      {5363, "OpCooperativeMatrixGetCoordinateEXT",
       "%r = OpCooperativeMatrixGetCoordinateEXT %v2uint %a %uint_1", 5},
      // CooperativeMatrixReduce: Row|Column and 2x2.
      {5366,
       "OpCooperativeMatrixReduceEXT",
       "%r = OpCooperativeMatrixReduceEXT %matA %a Row|Column %func",
       6,
       {{4, 0x3}}},
      {5366,
       "OpCooperativeMatrixReduceEXT",
       "%r = OpCooperativeMatrixReduceNV %matA %a 2x2 %func",
       6,
       {{4, 0x4}}},
      {5366,
       "OpCooperativeMatrixReduceEXT",
       "%r = OpCooperativeMatrixReduceEXT %matA %a Column %func",
       6,
       {{4, 0x2}}},
      // Every TensorAddressingOperands bit, each with its IdRef parameter, after a memory operand
      // with its own parameter.
      {5367,
       "OpCooperativeMatrixLoadTensorNV",
       "%r = OpCooperativeMatrixLoadTensorNV %matA %buf %a %tl Aligned 4 "
       "TensorView|DecodeFunc|DecodeVectorFunc %tv %func %func2",
       12,
       {{6, 0x2}, {7, 4}, {8, 0x7}}},
      {5367,
       "OpCooperativeMatrixLoadTensorNV",
       "%r = OpCooperativeMatrixLoadTensorNV %matA %buf %a %tl None DecodeVectorFunc %func2",
       9,
       {{6, 0}, {7, 0x4}}},
      {5368,
       "OpCooperativeMatrixStoreTensorNV",
       "OpCooperativeMatrixStoreTensorNV %buf %a %tl None TensorView %tv",
       7,
       {{4, 0}, {5, 0x1}}},
      {5368,
       "OpCooperativeMatrixStoreTensorNV",
       "OpCooperativeMatrixStoreTensorNV %buf %a %tl Nontemporal None",
       6,
       {{4, 0x4}, {5, 0}}},
      {5369, "OpCooperativeMatrixPerElementOpEXT",
       "%r = OpCooperativeMatrixPerElementOpEXT %matA %a %func %half_1 %uint_0", 7},
      {5369, "OpCooperativeMatrixPerElementOpEXT",
       "%r = OpCooperativeMatrixPerElementOpNV %matA %a %func", 5},
      {5370, "OpTypeTensorLayoutNV", "%r = OpTypeTensorLayoutNV %uint_3 %uint_2", 4},
      {5371, "OpTypeTensorViewNV", "%r = OpTypeTensorViewNV %uint_3 %true %uint_2 %uint_1 %uint_0",
       7},
      {5372, "OpCreateTensorLayoutNV", "%r = OpCreateTensorLayoutNV %tlayout", 3},
      {5373, "OpTensorLayoutSetDimensionNV",
       "%r = OpTensorLayoutSetDimensionNV %tlayout %tl %uint_16 %uint_16", 6},
      {5374, "OpTensorLayoutSetStrideNV",
       "%r = OpTensorLayoutSetStrideNV %tlayout %tl %uint_16 %uint_1", 6},
      {5375, "OpTensorLayoutSliceNV",
       "%r = OpTensorLayoutSliceNV %tlayout %tl %uint_0 %uint_16 %uint_0 %uint_16", 8},
      {5376, "OpTensorLayoutSetClampValueNV",
       "%r = OpTensorLayoutSetClampValueNV %tlayout %tl %uint_0", 5},
      {5377, "OpCreateTensorViewNV", "%r = OpCreateTensorViewNV %tview", 3},
      {5378, "OpTensorViewSetDimensionNV",
       "%r = OpTensorViewSetDimensionNV %tview %tv %uint_16 %uint_16", 6},
      {5379, "OpTensorViewSetStrideNV", "%r = OpTensorViewSetStrideNV %tview %tv %uint_16 %uint_1",
       6},
      {5382, "OpTensorViewSetClipNV",
       "%r = OpTensorViewSetClipNV %tview %tv %uint_0 %uint_16 %uint_0 %uint_16", 8},
      {5384, "OpTensorLayoutSetBlockSizeNV",
       "%r = OpTensorLayoutSetBlockSizeNV %tlayout %tl %uint_2 %uint_2", 6},
      {5390, "OpCooperativeMatrixTransposeNV", "%r = OpCooperativeMatrixTransposeNV %matA %a", 4},
      {6116, "OpConvertFToBF16INTEL", "%r = OpConvertFToBF16INTEL %uint %float_1", 4},
      {6117, "OpConvertBF16ToFINTEL", "%r = OpConvertBF16ToFINTEL %float %uint_1", 4},
      {6426, "OpRoundFToTF32INTEL", "%r = OpRoundFToTF32INTEL %float %float_1", 4},
      {6916, "OpFDot2MixAcc32VALVE", "%r = OpFDot2MixAcc32VALVE %float %b2 %b2 %float_1", 6},
      {6917, "OpFDot2MixAcc16VALVE", "%r = OpFDot2MixAcc16VALVE %half %h2 %h2 %half_1", 6},
      {6918, "OpFDot4MixAcc32VALVE", "%r = OpFDot4MixAcc32VALVE %float %q4 %q4 %float_1", 6},
  };
  return cases;
}

// The opcodes of grammar-facts.md's Instructions table, with their older spellings.
const std::map<uint32_t, std::vector<std::string>>& FactOpcodes() {
  static const std::map<uint32_t, std::vector<std::string>> facts = {
      {4163, {"OpTypeTensorARM"}},
      {4164, {"OpTensorReadARM"}},
      {4165, {"OpTensorWriteARM"}},
      {4166, {"OpTensorQuerySizeARM"}},
      {4456, {"OpTypeCooperativeMatrixKHR"}},
      {4457, {"OpCooperativeMatrixLoadKHR"}},
      {4458, {"OpCooperativeMatrixStoreKHR"}},
      {4459, {"OpCooperativeMatrixMulAddKHR"}},
      {4460, {"OpCooperativeMatrixLengthKHR"}},
      {4461, {"OpConstantCompositeReplicateEXT"}},
      {4462, {"OpSpecConstantCompositeReplicateEXT"}},
      {4463, {"OpCompositeConstructReplicateEXT"}},
      {4497, {"OpBitCastArrayQCOM"}},
      {4540, {"OpCompositeConstructCoopMatQCOM"}},
      {4541, {"OpCompositeExtractCoopMatQCOM"}},
      {4542, {"OpExtractSubArrayQCOM"}},
      {5288, {"OpTypeVectorIdEXT", "OpTypeCooperativeVectorNV"}},
      {5289, {"OpCooperativeVectorMatrixMulNV"}},
      {5290, {"OpCooperativeVectorOuterProductAccumulateNV"}},
      {5291, {"OpCooperativeVectorReduceSumAccumulateNV"}},
      {5292, {"OpCooperativeVectorMatrixMulAddNV"}},
      {5293, {"OpCooperativeMatrixConvertUseEXT", "OpCooperativeMatrixConvertNV"}},
      {5302, {"OpCooperativeVectorLoadNV"}},
      {5303, {"OpCooperativeVectorStoreNV"}},
      {5358, {"OpTypeCooperativeMatrixNV"}},
      {5359, {"OpCooperativeMatrixLoadNV"}},
      {5360, {"OpCooperativeMatrixStoreNV"}},
      {5361, {"OpCooperativeMatrixMulAddNV"}},
      {5362, {"OpCooperativeMatrixLengthNV"}},
      {5363, {"OpCooperativeMatrixGetCoordinateEXT"}},
      {5366, {"OpCooperativeMatrixReduceEXT", "OpCooperativeMatrixReduceNV"}},
      {5367, {"OpCooperativeMatrixLoadTensorNV"}},
      {5368, {"OpCooperativeMatrixStoreTensorNV"}},
      {5369, {"OpCooperativeMatrixPerElementOpEXT", "OpCooperativeMatrixPerElementOpNV"}},
      {5370, {"OpTypeTensorLayoutNV"}},
      {5371, {"OpTypeTensorViewNV"}},
      {5372, {"OpCreateTensorLayoutNV"}},
      {5373, {"OpTensorLayoutSetDimensionNV"}},
      {5374, {"OpTensorLayoutSetStrideNV"}},
      {5375, {"OpTensorLayoutSliceNV"}},
      {5376, {"OpTensorLayoutSetClampValueNV"}},
      {5377, {"OpCreateTensorViewNV"}},
      {5378, {"OpTensorViewSetDimensionNV"}},
      {5379, {"OpTensorViewSetStrideNV"}},
      {5382, {"OpTensorViewSetClipNV"}},
      {5384, {"OpTensorLayoutSetBlockSizeNV"}},
      {5390, {"OpCooperativeMatrixTransposeNV"}},
      {6116, {"OpConvertFToBF16INTEL"}},
      {6117, {"OpConvertBF16ToFINTEL"}},
      {6426, {"OpRoundFToTF32INTEL"}},
      {6916, {"OpFDot2MixAcc32VALVE"}},
      {6917, {"OpFDot2MixAcc16VALVE"}},
      {6918, {"OpFDot4MixAcc32VALVE"}},
  };
  return facts;
}

// The first word of `line` that starts with "Op".
std::string SpelledOpcode(const std::string& line) {
  std::istringstream in(line);
  std::string word;
  while (in >> word) {
    if (word.rfind("Op", 0) == 0) return word;
  }
  return "";
}

TEST(CoopFamilyCoverage, EveryFactOpcodeAndSpellingHasAProgram) {
  std::set<std::pair<uint32_t, std::string>> covered;
  for (const CoopCase& c : CoopCases()) covered.insert({c.opcode, SpelledOpcode(c.line)});
  for (const auto& [opcode, names] : FactOpcodes()) {
    for (const std::string& name : names) {
      EXPECT_TRUE(covered.count({opcode, name})) << opcode << " " << name;
    }
  }
  for (const CoopCase& c : CoopCases()) {
    auto it = FactOpcodes().find(c.opcode);
    ASSERT_NE(it, FactOpcodes().end()) << c.opcode;
    EXPECT_EQ(it->second[0], c.canonical);
  }
}

class CoopFamilyRoundTrip : public ::testing::TestWithParam<CoopCase> {};

TEST_P(CoopFamilyRoundTrip, AssemblesToItsOpcodeAndRoundTrips) {
  const CoopCase& c = GetParam();
  const std::string prelude = kCoopPrelude;
  auto prelude_binary = Asm(prelude);
  ASSERT_TRUE(prelude_binary);
  const size_t prelude_count = Instructions(*prelude_binary).size();

  auto result = RoundTrip(prelude + c.line + "\n");
  ASSERT_TRUE(result);
  const auto& [binary, text] = *result;
  const std::vector<Inst> insts = Instructions(binary);
  ASSERT_EQ(insts.size(), prelude_count + 1);
  const Inst& inst = insts.back();
  EXPECT_EQ(inst.opcode, c.opcode);
  EXPECT_EQ(inst.words.size(), c.word_count);
  for (const auto& [index, value] : c.literals) {
    ASSERT_LT(index, inst.words.size());
    EXPECT_EQ(inst.words[index], value) << "word " << index;
  }

  // The disassembly spells the opcode by its current name, never by an alias.
  std::istringstream lines(text);
  std::string line, last;
  while (std::getline(lines, line)) {
    if (!line.empty()) last = line;
  }
  EXPECT_EQ(SpelledOpcode(last), c.canonical) << last;
  const std::string spelled = SpelledOpcode(c.line);
  if (spelled != c.canonical) {
    EXPECT_EQ(text.find(spelled + " "), std::string::npos) << text;
  }
}

INSTANTIATE_TEST_SUITE_P(Instructions, CoopFamilyRoundTrip, ::testing::ValuesIn(CoopCases()),
                         [](const ::testing::TestParamInfo<CoopCase>& info) {
                           return std::to_string(info.index) + "_" +
                                  SpelledOpcode(info.param.line).substr(2);
                         });

// FPEncoding on OpTypeFloat, and literals of the encoded types.
TEST(CoopFamilyRoundTrip, FPEncodingTypesAndConstants) {
  const std::string text = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%bf = OpTypeFloat 16 BFloat16KHR
%e4 = OpTypeFloat 8 Float8E4M3EXT
%e5 = OpTypeFloat 8 Float8E5M2EXT
%c1 = OpConstant %bf 1.5
%c2 = OpConstant %bf -2
%c3 = OpConstant %e4 -0.5
%c4 = OpConstant %e4 240
%c5 = OpConstant %e4 0x1.cp+8
%c6 = OpConstant %e5 57344
%c7 = OpConstant %e5 0.125
%c8 = OpSpecConstant %bf 0x1.8p+0
%c9 = OpConstant %e4 0x1p-9
%c10 = OpConstant %e4 448
%c11 = OpConstant %e4 -256
)";
  auto result = RoundTrip(text);
  ASSERT_TRUE(result);
  const auto& [binary, dis] = *result;
  const std::vector<Inst> insts = Instructions(binary);
  ASSERT_EQ(insts.size(), 16u);
  // OpTypeFloat <id> <width> <encoding>.
  EXPECT_EQ(insts[2].words, (std::vector<uint32_t>{0x00040016, 1, 16, 0}));
  EXPECT_EQ(insts[3].words, (std::vector<uint32_t>{0x00040016, 2, 8, 4214}));
  EXPECT_EQ(insts[4].words, (std::vector<uint32_t>{0x00040016, 3, 8, 4215}));
  // The constants' value words (the high bits of narrow floats are zero).
  // E4M3 has no infinities: the all-ones exponent holds finite values up to 448.
  const std::vector<uint32_t> expected = {0x3FC0, 0xC000, 0xB0, 0x77, 0x7E, 0x7B,
                                          0x30,   0x3FC0, 0x01, 0x7E, 0xF8};
  for (size_t i = 0; i < expected.size(); ++i) {
    const Inst& inst = insts[5 + i];
    ASSERT_EQ(inst.words.size(), 4u) << i;
    EXPECT_EQ(inst.words[3], expected[i]) << "constant " << i;
  }
  EXPECT_EQ(insts[12].opcode, static_cast<uint32_t>(spv::Op::SpecConstant));
  // Types are named after their encodings; narrow float literals are printed in hex.
  EXPECT_NE(dis.find("%bfloat16 = OpTypeFloat 16 BFloat16KHR\n"), std::string::npos) << dis;
  EXPECT_NE(dis.find("%fp8e4m3 = OpTypeFloat 8 Float8E4M3EXT\n"), std::string::npos) << dis;
  EXPECT_NE(dis.find("%fp8e5m2 = OpTypeFloat 8 Float8E5M2EXT\n"), std::string::npos) << dis;
  EXPECT_NE(dis.find("OpConstant %bfloat16 0x1.8p+0\n"), std::string::npos) << dis;
  EXPECT_NE(dis.find("OpConstant %bfloat16 -0x1p+1\n"), std::string::npos) << dis;
  EXPECT_NE(dis.find("OpConstant %fp8e4m3 -0x1p-1\n"), std::string::npos) << dis;
  EXPECT_NE(dis.find("OpConstant %fp8e5m2 0x1.cp+15\n"), std::string::npos) << dis;
  EXPECT_NE(dis.find("OpConstant %fp8e4m3 0x1p-9\n"), std::string::npos) << dis;
}

// SPV_EXT_ocp_microscaling_types: the FP4 / FP6 / E8M0 / MXINT8 types, their literals (hex
// floats, as spirv-dis prints them) and OpBitcastExtractEXT.
TEST(CoopFamilyRoundTrip, MicroscalingTypesConstantsAndBitcastExtract) {
  const std::string text = R"(OpCapability Shader
OpCapability Int8
OpCapability Float4EXT
OpCapability Float6EXT
OpCapability Float8UnsignedE8M0EXT
OpCapability MXInt8EXT
OpCapability BitcastExtractEXT
OpExtension "SPV_EXT_float8"
OpExtension "SPV_EXT_ocp_microscaling_types"
OpMemoryModel Logical GLSL450
%f4 = OpTypeFloat 4 Float4E2M1EXT
%f6a = OpTypeFloat 6 Float6E2M3EXT
%f6b = OpTypeFloat 6 Float6E3M2EXT
%e8m0 = OpTypeFloat 8 Float8UnsignedE8M0EXT
%mx = OpTypeFloat 8 MXInt8EXT
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%c1 = OpConstant %f4 -1.5
%c2 = OpConstant %f4 6
%c3 = OpConstant %f6a 0x1p-3
%c4 = OpConstant %f6b 28
%c5 = OpConstant %e8m0 0.5
%c6 = OpConstant %e8m0 0x1p+128
%c7 = OpConstant %mx -2
%c8 = OpSpecConstant %mx 0.25
%c9 = OpConstant %uchar 7
%c10 = OpConstant %uint 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpBitcastExtractEXT %f4 %c9 %c10
OpReturn
OpFunctionEnd
)";
  auto result = RoundTrip(text);
  ASSERT_TRUE(result);
  const auto& [binary, dis] = *result;
  const std::vector<Inst> insts = Instructions(binary);
  ASSERT_EQ(insts.size(), 34u);
  EXPECT_EQ(insts[10].words, (std::vector<uint32_t>{0x00040016, 1, 4, 4225}));
  EXPECT_EQ(insts[11].words, (std::vector<uint32_t>{0x00040016, 2, 6, 4223}));
  EXPECT_EQ(insts[12].words, (std::vector<uint32_t>{0x00040016, 3, 6, 4224}));
  EXPECT_EQ(insts[13].words, (std::vector<uint32_t>{0x00040016, 4, 8, 4226}));
  EXPECT_EQ(insts[14].words, (std::vector<uint32_t>{0x00040016, 5, 8, 4227}));
  // -1.5 = S.01.1, 6 = 0.11.1, 2^-3 = the smallest E2M3 subnormal, 28 = 0.111.11, 2^-1 = 126,
  // NaN = 0xFF, -2 = 0x80, 0.25 = 16 * 2^-6.
  const std::vector<uint32_t> expected = {0xB, 0x7, 0x01, 0x1F, 126, 0xFF, 0x80, 0x10};
  for (size_t i = 0; i < expected.size(); ++i) {
    const Inst& inst = insts[17 + i];
    ASSERT_EQ(inst.words.size(), 4u) << i;
    EXPECT_EQ(inst.words[3], expected[i]) << "constant " << i;
  }
  EXPECT_EQ(insts[31].opcode, 4195u);  // OpBitcastExtractEXT.
  EXPECT_EQ(insts[31].words.size(), 5u);
  // Named and printed as spirv-dis names and prints them.
  for (const char* line :
       {"%fp4e2m1 = OpTypeFloat 4 Float4E2M1EXT\n", "%fp6e2m3 = OpTypeFloat 6 Float6E2M3EXT\n",
        "%fp6e3m2 = OpTypeFloat 6 Float6E3M2EXT\n",
        "%fp8e8m0 = OpTypeFloat 8 Float8UnsignedE8M0EXT\n", "%mxint8 = OpTypeFloat 8 MXInt8EXT\n",
        "OpConstant %fp4e2m1 -0x1.8p+0\n", "OpConstant %fp4e2m1 0x1.8p+2\n",
        "OpConstant %fp6e2m3 0x1p-3\n", "OpConstant %fp6e3m2 0x1.cp+4\n",
        "OpConstant %fp8e8m0 0x1p-1\n", "OpConstant %fp8e8m0 0x1p+128\n",
        "OpConstant %mxint8 -0x1p+1\n", "OpSpecConstant %mxint8 0x1p-2\n",
        "OpBitcastExtractEXT %fp4e2m1 %uchar_7 %uint_4\n"}) {
    EXPECT_NE(dis.find(line), std::string::npos) << line << dis;
  }
}

// CooperativeVector ComponentType / MatrixLayout and CooperativeMatrixLayout values are ids of
// constants; the constants carry the enumerant values of grammar-facts.md.
TEST(CoopFamilyRoundTrip, EnumerantValuesAsConstants) {
  struct Value {
    grammar::OperandKind kind;
    const char* name;
    uint32_t value;
  };
  const std::vector<Value> values = {
      {grammar::OperandKind::kComponentType, "Float16NV", 0},
      {grammar::OperandKind::kComponentType, "UnsignedInt64NV", 10},
      {grammar::OperandKind::kComponentType, "SignedInt8PackedNV", 1000491000},
      {grammar::OperandKind::kComponentType, "UnsignedInt8PackedNV", 1000491001},
      {grammar::OperandKind::kComponentType, "FloatE4M3NV", 1000491002},
      {grammar::OperandKind::kComponentType, "FloatE5M2NV", 1000491003},
      {grammar::OperandKind::kCooperativeVectorMatrixLayout, "InferencingOptimalNV", 2},
      {grammar::OperandKind::kCooperativeVectorMatrixLayout, "TrainingOptimalNV", 3},
      {grammar::OperandKind::kCooperativeMatrixLayout, "RowBlockedInterleavedARM", 4202},
      {grammar::OperandKind::kCooperativeMatrixLayout, "ColumnBlockedInterleavedARM", 4203},
      {grammar::OperandKind::kCooperativeMatrixUse, "MatrixAccumulatorKHR", 2},
      {grammar::OperandKind::kTensorClampMode, "RepeatMirrored", 4},
  };
  std::string text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%uint = OpTypeInt 32 0\n";
  for (size_t i = 0; i < values.size(); ++i) {
    const grammar::EnumerantInfo* e = grammar::LookupEnumerant(values[i].kind, values[i].name);
    ASSERT_NE(e, nullptr) << values[i].name;
    ASSERT_EQ(e->value, values[i].value) << values[i].name;
    text += "%c" + std::to_string(i) + " = OpConstant %uint " + std::to_string(e->value) + "\n";
  }
  text += "%vec = OpTypeCooperativeVectorNV %uint %c7\n";
  auto result = RoundTrip(text);
  ASSERT_TRUE(result);
  const auto& [binary, dis] = *result;
  const std::vector<Inst> insts = Instructions(binary);
  ASSERT_EQ(insts.size(), 3 + values.size() + 1);
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(insts[3 + i].words[3], values[i].value) << values[i].name;
    EXPECT_NE(dis.find("OpConstant %uint " + std::to_string(values[i].value) + "\n"),
              std::string::npos)
        << values[i].name;
  }
  EXPECT_EQ(insts.back().opcode, 5288u);
}

// ---------------------------------------------------------------------------------------------
// One program per core instruction class.

struct ClassCase {
  const char* instruction_class;  // As the grammar's "class" spells it.
  const char* text;
};

void PrintTo(const ClassCase& c, std::ostream* os) { *os << c.instruction_class; }

const std::vector<ClassCase>& ClassCases() {
  static const std::vector<ClassCase> cases = {
      {"Miscellaneous", R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%uint = OpTypeInt 32 0
%u = OpUndef %uint
OpNop
)"},
      {"Debug", R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpSourceContinued "continued \"text\""
%file = OpString "C:\\shaders\\a \"b\".comp"
%multi = OpString "first line
second line"
OpSource GLSL 450 %file "#version 450
void main() { /* \"quoted\" \\ */ }"
OpSourceExtension "GL_EXT_test"
OpName %S "S\"quoted\\"
OpMemberName %S 0 "member\"0\""
OpMemberName %S 1 "a\\b
c"
OpModuleProcessed "opt -O \"all\""
%uint = OpTypeInt 32 0
%S = OpTypeStruct %uint %uint
OpLine %file 42 7
%u = OpUndef %S
OpNoLine
)"},
      {"Annotation", R"(OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginUpperLeft
OpDecorate %out Location 0
OpDecorate %out RelaxedPrecision
OpDecorate %sc SpecId 7
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 3
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 16
OpMemberDecorate %S 1 ColMajor
OpMemberDecorate %S 1 MatrixStride 16
OpDecorate %arr ArrayStride 4
OpDecorate %grp NonWritable
%grp = OpDecorationGroup
OpGroupDecorate %grp %buf %out
OpGroupMemberDecorate %grp %S 0 %S 1
OpDecorateId %buf CounterBuffer %buf
OpDecorateString %out UserSemantic "sem\"x\""
OpMemberDecorateString %S 0 UserSemantic "m"
OpDecorate %out FPRoundingMode RTZ
OpDecorate %buf LinkageAttributes "lname" Export
%void = OpTypeVoid
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%v4float = OpTypeVector %float 4
%mat4 = OpTypeMatrix %v4float 4
%uint_4 = OpConstant %uint 4
%arr = OpTypeArray %float %uint_4
%S = OpTypeStruct %float %mat4
%sc = OpSpecConstant %uint 4
%ps = OpTypePointer Uniform %S
%buf = OpVariable %ps Uniform
%po = OpTypePointer Output %v4float
%out = OpVariable %po Output
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
)"},
      {"Extension", R"(OpCapability Shader
OpExtension "SPV_KHR_storage_buffer_storage_class"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%fn = OpTypeFunction %void
%f1 = OpConstant %float 1.5
%f2 = OpConstant %float -2
%v = OpConstantComposite %v3float %f1 %f2 %f1
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpExtInst %float %glsl FMax %f1 %f2
%b = OpExtInst %float %glsl Sqrt %a
%c = OpExtInst %float %glsl FClamp %a %f1 %f2
%d = OpExtInst %v3float %glsl Cross %v %v
%e = OpExtInst %float %glsl Length %d
%g = OpExtInst %float %glsl 40 %a %b
OpReturn
OpFunctionEnd
)"},
      {"Mode-Setting", R"(OpCapability Shader
OpCapability Geometry
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpEntryPoint Geometry %geom "geom_main"
OpExecutionMode %main LocalSize 64 2 1
OpExecutionModeId %main LocalSizeId %u8 %u1 %u1
OpExecutionMode %geom Triangles
OpExecutionMode %geom OutputTriangleStrip
OpExecutionMode %geom OutputVertices 3
OpExecutionMode %geom Invocations 2
OpDecorate %gid BuiltIn GlobalInvocationId
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%pin = OpTypePointer Input %v3uint
%gid = OpVariable %pin Input
%u8 = OpConstant %uint 8
%u1 = OpConstant %uint 1
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
%geom = OpFunction %void None %fn
%l2 = OpLabel
OpReturn
OpFunctionEnd
)"},
      {"Type-Declaration", R"(OpCapability Shader
OpCapability Float64
OpCapability Int64
OpCapability Int16
OpCapability Int8
OpCapability Float16
OpCapability Sampled1D
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpTypeForwardPointer %fwd PhysicalStorageBuffer
%void = OpTypeVoid
%bool = OpTypeBool
%i8 = OpTypeInt 8 1
%u16 = OpTypeInt 16 0
%i64 = OpTypeInt 64 1
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%v2double = OpTypeVector %double 2
%m3 = OpTypeMatrix %v2double 3
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%img1 = OpTypeImage %float 1D 2 1 1 2 Rgba8 ReadWrite
%simg = OpTypeSampledImage %img
%samp = OpTypeSampler
%u32 = OpTypeInt 32 0
%c4 = OpConstant %u32 4
%arr = OpTypeArray %half %c4
%rta = OpTypeRuntimeArray %i64
%st = OpTypeStruct %bool %i8 %u16 %arr %rta
%fwd = OpTypePointer PhysicalStorageBuffer %st
%op = OpTypeOpaque "opaque\"name"
%pf = OpTypePointer Function %m3
%fnty = OpTypeFunction %double %pf %half %fwd
%fnv = OpTypeFunction %void
)"},
      {"Constant-Creation", R"(OpCapability Shader
OpCapability Kernel
OpCapability Int64
OpCapability Float64
OpCapability LiteralSampler
OpMemoryModel Logical GLSL450
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%long = OpTypeInt 64 1
%ulong = OpTypeInt 64 0
%double = OpTypeFloat 64
%float = OpTypeFloat 32
%v2int = OpTypeVector %int 2
%samp = OpTypeSampler
%t = OpConstantTrue %bool
%f = OpConstantFalse %bool
%i1 = OpConstant %int -2147483648
%i2 = OpConstant %int 2147483647
%i3 = OpConstant %int -1
%u1 = OpConstant %uint 4294967295
%l1 = OpConstant %long -9223372036854775808
%l2 = OpConstant %long 81985529216486895
%ul = OpConstant %ulong 18446744073709551615
%d1 = OpConstant %double 3.1415926535897931
%d2 = OpConstant %double -1e-300
%d3 = OpConstant %double 0x1.fffffffffffffp+1023
%fl = OpConstant %float -0.1
%cc = OpConstantComposite %v2int %i1 %i3
%nul = OpConstantNull %v2int
%cs = OpConstantSampler %samp ClampToEdge 1 Linear
%st = OpSpecConstantTrue %bool
%sf = OpSpecConstantFalse %bool
%s1 = OpSpecConstant %int -5
%s2 = OpSpecConstant %long -6
%s3 = OpSpecConstant %double 2.5
%sc = OpSpecConstantComposite %v2int %s1 %i2
%o1 = OpSpecConstantOp %int IAdd %s1 %i3
%o2 = OpSpecConstantOp %int CompositeExtract %sc 1
%o3 = OpSpecConstantOp %v2int VectorShuffle %sc %cc 3 0
%o4 = OpSpecConstantOp %int Select %st %s1 %i2
%o5 = OpSpecConstantOp %bool SLessThan %s1 %o1
%o6 = OpSpecConstantOp %long SConvert %s1
)"},
      {"Memory", R"(OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability Addresses
OpMemoryModel Logical Vulkan
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u4 = OpConstant %uint 4
%arr = OpTypeArray %uint %u4
%rta = OpTypeRuntimeArray %uint
%S = OpTypeStruct %rta
%pS = OpTypePointer StorageBuffer %S
%pu = OpTypePointer StorageBuffer %uint
%pfa = OpTypePointer Function %arr
%pfu = OpTypePointer Function %uint
%pw = OpTypePointer Workgroup %uint
%buf = OpVariable %pS StorageBuffer
%wg = OpVariable %pw Workgroup
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%var = OpVariable %pfa Function
%var2 = OpVariable %pfu Function %u1
%ac = OpAccessChain %pu %buf %u0 %u1
%iac = OpInBoundsAccessChain %pfu %var %u1
%pac = OpPtrAccessChain %pu %ac %u1
%x = OpLoad %uint %ac Aligned|MakePointerVisible|NonPrivatePointer 4 %u1
%y = OpLoad %uint %iac Volatile
%z = OpLoad %uint %var2 None
OpStore %ac %x MakePointerAvailable|NonPrivatePointer|Aligned 16 %u1
OpStore %wg %y Nontemporal
OpCopyMemory %var2 %iac Aligned 4 Volatile
OpCopyMemorySized %var2 %iac %u4 Aligned|Nontemporal 8
%len = OpArrayLength %uint %buf 0
OpReturn
OpFunctionEnd
)"},
      {"Function", R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%pfi = OpTypePointer Function %int
%fnv = OpTypeFunction %void
%fni = OpTypeFunction %int %int %pfi %float
%c = OpConstant %int 3
%f1 = OpConstant %float 1
%callee = OpFunction %int Inline|Pure %fni
%a = OpFunctionParameter %int
%b = OpFunctionParameter %pfi
%fp = OpFunctionParameter %float
%l1 = OpLabel
%r = OpIAdd %int %a %c
OpReturnValue %r
OpFunctionEnd
%main = OpFunction %void DontInline|Const %fnv
%l2 = OpLabel
%v = OpVariable %pfi Function
%call = OpFunctionCall %int %callee %c %v %f1
OpReturn
OpFunctionEnd
)"},
      {"Image", R"(OpCapability Shader
OpCapability StorageImageWriteWithoutFormat
OpCapability ImageQuery
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%void = OpTypeVoid
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%v2int = OpTypeVector %int 2
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%simg_ptr = OpTypePointer UniformConstant %simg
%st = OpTypeImage %float 2D 0 0 0 2 Unknown
%st_ptr = OpTypePointer UniformConstant %st
%tex = OpVariable %simg_ptr UniformConstant
%stor = OpVariable %st_ptr UniformConstant
%samp = OpTypeSampler
%sp = OpTypePointer UniformConstant %samp
%s = OpVariable %sp UniformConstant
%f0 = OpConstant %float 0.25
%i0 = OpConstant %int 1
%uv = OpConstantComposite %v2float %f0 %f0
%off = OpConstantComposite %v2int %i0 %i0
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%si = OpLoad %simg %tex
%im = OpImage %img %si
%sm = OpLoad %samp %s
%si2 = OpSampledImage %simg %im %sm
%a = OpImageSampleImplicitLod %v4float %si2 %uv Bias|ConstOffset %f0 %off
%b = OpImageSampleExplicitLod %v4float %si %uv Lod %f0
%c = OpImageSampleExplicitLod %v4float %si %uv Grad|ConstOffset %uv %uv %off
%d = OpImageFetch %v4float %im %off Lod %i0
%e = OpImageGather %v4float %si %uv %i0 Offset %off
%g = OpImageQuerySizeLod %v2int %im %i0
%h = OpImageSampleDrefImplicitLod %float %si %uv %f0 None
%sto = OpLoad %st %stor
%r = OpImageRead %v4float %sto %off
OpImageWrite %sto %off %a
OpReturn
OpFunctionEnd
)"},
      {"Conversion", R"(OpCapability Shader
OpCapability Int64
OpCapability Float16
OpCapability Float64
OpMemoryModel Logical GLSL450
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%long = OpTypeInt 64 1
%ulong = OpTypeInt 64 0
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%f = OpConstant %float 2.5
%i = OpConstant %int -3
%u = OpConstant %uint 7
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpConvertFToU %uint %f
%b = OpConvertFToS %int %f
%c = OpConvertSToF %float %i
%d = OpConvertUToF %double %u
%e = OpUConvert %ulong %u
%g = OpSConvert %long %i
%h = OpFConvert %half %f
%k = OpQuantizeToF16 %float %f
%m = OpBitcast %float %u
OpReturn
OpFunctionEnd
)"},
      {"Composite", R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%v2float = OpTypeVector %float 2
%m4 = OpTypeMatrix %v4float 4
%S = OpTypeStruct %float %v4float
%f = OpConstant %float 1
%u1 = OpConstant %uint 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%v = OpCompositeConstruct %v4float %f %f %f %f
%e = OpCompositeExtract %float %v 2
%ins = OpCompositeInsert %v4float %e %v 0
%s = OpCompositeConstruct %S %f %v
%e2 = OpCompositeExtract %float %s 1 3
%ved = OpVectorExtractDynamic %float %v %u1
%vid = OpVectorInsertDynamic %v4float %v %f %u1
%sh = OpVectorShuffle %v2float %v %ins 7 0xFFFFFFFF
%cp = OpCopyObject %v4float %v
%m = OpCompositeConstruct %m4 %v %v %v %v
%t = OpTranspose %m4 %m
OpReturn
OpFunctionEnd
)"},
      {"Arithmetic", R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%m4 = OpTypeMatrix %v4float 4
%res = OpTypeStruct %uint %uint
%i = OpConstant %int -9
%u = OpConstant %uint 9
%f = OpConstant %float 0.75
%v = OpConstantComposite %v4float %f %f %f %f
%m = OpConstantComposite %m4 %v %v %v %v
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%1 = OpSNegate %int %i
%2 = OpFNegate %float %f
%3 = OpIAdd %int %i %1
%4 = OpFAdd %float %f %2
%5 = OpISub %uint %u %u
%6 = OpFSub %float %f %f
%7 = OpIMul %int %i %i
%8 = OpFMul %float %f %f
%9 = OpUDiv %uint %u %u
%10 = OpSDiv %int %i %i
%11 = OpFDiv %float %f %f
%12 = OpUMod %uint %u %u
%13 = OpSRem %int %i %i
%14 = OpSMod %int %i %i
%15 = OpFRem %float %f %f
%16 = OpFMod %float %f %f
%17 = OpVectorTimesScalar %v4float %v %f
%18 = OpMatrixTimesVector %v4float %m %v
%19 = OpDot %float %v %v
%20 = OpIAddCarry %res %u %u
%21 = OpUMulExtended %res %u %u
%22 = OpMatrixTimesMatrix %m4 %m %m
OpReturn
OpFunctionEnd
)"},
      {"Bit", R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%i = OpConstant %int -9
%u = OpConstant %uint 0x80000001
%s = OpConstant %uint 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpShiftRightLogical %uint %u %s
%b = OpShiftRightArithmetic %int %i %s
%c = OpShiftLeftLogical %uint %u %s
%d = OpBitwiseOr %uint %u %s
%e = OpBitwiseXor %uint %u %s
%f = OpBitwiseAnd %uint %u %s
%g = OpNot %uint %u
%h = OpBitFieldInsert %uint %u %s %s %s
%j = OpBitFieldSExtract %int %i %s %s
%k = OpBitFieldUExtract %uint %u %s %s
%m = OpBitReverse %uint %u
%n = OpBitCount %uint %u
OpReturn
OpFunctionEnd
)"},
      {"Relational_and_Logical", R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%bool = OpTypeBool
%v2bool = OpTypeVector %bool 2
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%t = OpConstantTrue %bool
%bv = OpConstantComposite %v2bool %t %t
%i = OpConstant %int -1
%u = OpConstant %uint 1
%f = OpConstant %float 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpAny %bool %bv
%b = OpAll %bool %bv
%c = OpIsNan %bool %f
%d = OpIsInf %bool %f
%e = OpLogicalEqual %bool %a %b
%g = OpLogicalNotEqual %bool %a %b
%h = OpLogicalOr %bool %a %b
%j = OpLogicalAnd %bool %a %b
%k = OpLogicalNot %bool %a
%m = OpSelect %int %k %i %i
%n = OpIEqual %bool %i %i
%o = OpINotEqual %bool %u %u
%p = OpUGreaterThan %bool %u %u
%q = OpSLessThanEqual %bool %i %i
%r = OpFOrdEqual %bool %f %f
%s = OpFUnordNotEqual %bool %f %f
%w = OpFOrdGreaterThanEqual %bool %f %f
OpReturn
OpFunctionEnd
)"},
      {"Derivative", R"(OpCapability Shader
OpCapability DerivativeControl
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%float = OpTypeFloat 32
%f = OpConstant %float 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpDPdx %float %f
%b = OpDPdy %float %f
%c = OpFwidth %float %f
%d = OpDPdxFine %float %f
%e = OpDPdyCoarse %float %f
%g = OpFwidthFine %float %f
OpReturn
OpFunctionEnd
)"},
      {"Control-Flow", R"(OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%bool = OpTypeBool
%int = OpTypeInt 32 1
%long = OpTypeInt 64 1
%ulong = OpTypeInt 64 0
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i10 = OpConstant %int 10
%sel = OpConstant %long -5
%usel = OpConstant %ulong 0x100000000
%void = OpTypeVoid
%fn = OpTypeFunction %void
%fni = OpTypeFunction %int
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %header
%header = OpLabel
%i = OpPhi %int %i0 %entry %next %cont
OpLoopMerge %exit %cont Unroll|DependencyLength 4
OpBranch %body
%body = OpLabel
%cond = OpSLessThan %bool %i %i10
OpSelectionMerge %sm Flatten
OpBranchConditional %cond %then %sm 10 20
%then = OpLabel
OpBranch %sm
%sm = OpLabel
OpBranch %cont
%cont = OpLabel
%next = OpIAdd %int %i %i1
%c2 = OpSLessThan %bool %next %i10
OpBranchConditional %c2 %header %exit
%exit = OpLabel
OpSelectionMerge %after None
OpSwitch %sel %d -5 %c1 -9223372036854775808 %c3 9223372036854775807 %c3
%c1 = OpLabel
OpBranch %after
%c3 = OpLabel
OpBranch %after
%d = OpLabel
OpBranch %after
%after = OpLabel
OpSelectionMerge %end None
OpSwitch %usel %end 0xFFFFFFFF00000000 %k1 4294967296 %k2
%k1 = OpLabel
OpKill
%k2 = OpLabel
OpUnreachable
%end = OpLabel
OpReturn
OpFunctionEnd
%f2 = OpFunction %int None %fni
%l2 = OpLabel
OpReturnValue %i1
OpFunctionEnd
%f3 = OpFunction %void None %fn
%l3 = OpLabel
OpTerminateInvocation
OpFunctionEnd
)"},
      {"Atomic", R"(OpCapability Shader
OpCapability VulkanMemoryModel
OpMemoryModel Logical Vulkan
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%pw = OpTypePointer Workgroup %uint
%pwi = OpTypePointer Workgroup %int
%v = OpVariable %pw Workgroup
%vi = OpVariable %pwi Workgroup
%scope = OpConstant %uint 2
%sem = OpConstant %uint 0x108
%relaxed = OpConstant %uint 0
%one = OpConstant %uint 1
%neg = OpConstant %int -1
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpAtomicLoad %uint %v %scope %sem
OpAtomicStore %v %scope %sem %a
%b = OpAtomicExchange %uint %v %scope %sem %one
%c = OpAtomicCompareExchange %uint %v %scope %sem %relaxed %one %a
%d = OpAtomicIIncrement %uint %v %scope %sem
%e = OpAtomicIDecrement %uint %v %scope %sem
%f = OpAtomicIAdd %uint %v %scope %sem %one
%g = OpAtomicISub %uint %v %scope %sem %one
%h = OpAtomicSMin %int %vi %scope %sem %neg
%i = OpAtomicUMax %uint %v %scope %sem %one
%j = OpAtomicAnd %uint %v %scope %sem %one
%k = OpAtomicOr %uint %v %scope %sem %one
%m = OpAtomicXor %uint %v %scope %sem %one
OpReturn
OpFunctionEnd
)"},
      {"Primitive", R"(OpCapability Geometry
OpCapability GeometryStreams
OpMemoryModel Logical GLSL450
OpEntryPoint Geometry %main "main"
OpExecutionMode %main InputPoints
OpExecutionMode %main OutputPoints
OpExecutionMode %main OutputVertices 2
%void = OpTypeVoid
%int = OpTypeInt 32 1
%s0 = OpConstant %int 0
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpEmitVertex
OpEndPrimitive
OpEmitStreamVertex %s0
OpEndStreamPrimitive %s0
OpReturn
OpFunctionEnd
)"},
      {"Barrier", R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%wg = OpConstant %uint 2
%dev = OpConstant %uint 1
%sem = OpConstant %uint 264
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpControlBarrier %wg %wg %sem
OpMemoryBarrier %dev %sem
OpReturn
OpFunctionEnd
)"},
      {"Group", R"(OpCapability Shader
OpCapability Groups
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%sg = OpConstant %uint 3
%u = OpConstant %uint 5
%f = OpConstant %float 1
%t = OpConstantTrue %bool
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpGroupAll %bool %sg %t
%b = OpGroupAny %bool %sg %t
%c = OpGroupBroadcast %uint %sg %u %u
%d = OpGroupIAdd %uint %sg Reduce %u
%e = OpGroupFMin %float %sg InclusiveScan %f
%g = OpGroupUMax %uint %sg ExclusiveScan %u
OpReturn
OpFunctionEnd
)"},
      {"Non-Uniform", R"(OpCapability Shader
OpCapability GroupNonUniform
OpCapability GroupNonUniformVote
OpCapability GroupNonUniformBallot
OpCapability GroupNonUniformShuffle
OpCapability GroupNonUniformArithmetic
OpCapability GroupNonUniformClustered
OpCapability GroupNonUniformQuad
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4uint = OpTypeVector %uint 4
%sg = OpConstant %uint 3
%u = OpConstant %uint 5
%four = OpConstant %uint 4
%f = OpConstant %float 1
%t = OpConstantTrue %bool
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpGroupNonUniformElect %bool %sg
%b = OpGroupNonUniformAll %bool %sg %t
%c = OpGroupNonUniformAny %bool %sg %t
%d = OpGroupNonUniformAllEqual %bool %sg %u
%e = OpGroupNonUniformBroadcast %uint %sg %u %u
%g = OpGroupNonUniformBroadcastFirst %uint %sg %u
%h = OpGroupNonUniformBallot %v4uint %sg %t
%i = OpGroupNonUniformBallotBitCount %uint %sg Reduce %h
%j = OpGroupNonUniformShuffle %uint %sg %u %u
%k = OpGroupNonUniformShuffleXor %uint %sg %u %u
%m = OpGroupNonUniformIAdd %uint %sg Reduce %u
%n = OpGroupNonUniformFMin %float %sg InclusiveScan %f
%o = OpGroupNonUniformIMul %uint %sg ClusteredReduce %u %four
%p = OpGroupNonUniformQuadBroadcast %uint %sg %u %u
%q = OpGroupNonUniformQuadSwap %uint %sg %u %u
%r = OpGroupNonUniformBitwiseAnd %uint %sg ExclusiveScan %u
OpReturn
OpFunctionEnd
)"},
  };
  return cases;
}

class CoreClassRoundTrip : public ::testing::TestWithParam<ClassCase> {};

TEST_P(CoreClassRoundTrip, RoundTrips) {
  const ClassCase& c = GetParam();
  auto result = RoundTrip(c.text);
  ASSERT_TRUE(result);
  // The program exercises its class: at least two instructions of it.
  int in_class = 0;
  for (const Inst& inst : Instructions(result->first)) {
    const grammar::InstructionInfo* info = grammar::LookupOpcode(inst.opcode);
    ASSERT_NE(info, nullptr) << inst.opcode;
    if (std::string(info->instruction_class) == c.instruction_class) ++in_class;
  }
  EXPECT_GE(in_class, 2) << c.instruction_class;
}

INSTANTIATE_TEST_SUITE_P(Classes, CoreClassRoundTrip, ::testing::ValuesIn(ClassCases()),
                         [](const ::testing::TestParamInfo<ClassCase>& info) {
                           std::string name = info.param.instruction_class;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// Exact encodings of the literals the class programs rely on.
TEST(CoreClassRoundTrip, LiteralEncodings) {
  const ClassCase* constants = nullptr;
  const ClassCase* control = nullptr;
  const ClassCase* debug = nullptr;
  for (const ClassCase& c : ClassCases()) {
    if (std::string(c.instruction_class) == "Constant-Creation") constants = &c;
    if (std::string(c.instruction_class) == "Control-Flow") control = &c;
    if (std::string(c.instruction_class) == "Debug") debug = &c;
  }
  ASSERT_TRUE(constants && control && debug);

  // Constants: find each OpConstant's value words in order.
  auto binary = Asm(constants->text);
  ASSERT_TRUE(binary);
  std::vector<std::vector<uint32_t>> values;
  for (const Inst& inst : Instructions(*binary)) {
    if (inst.opcode == static_cast<uint32_t>(spv::Op::Constant)) {
      values.emplace_back(inst.words.begin() + 3, inst.words.end());
    }
  }
  auto words64 = [](uint64_t bits) {
    return std::vector<uint32_t>{static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)};
  };
  const std::vector<std::vector<uint32_t>> expected = {
      {0x80000000u},               // int -2147483648
      {0x7FFFFFFFu},               // int 2147483647
      {0xFFFFFFFFu},               // int -1
      {0xFFFFFFFFu},               // uint 4294967295
      {0x00000000u, 0x80000000u},  // long min, low word first
      {0x89ABCDEFu, 0x01234567u},  // 81985529216486895 = 0x0123456789ABCDEF
      {0xFFFFFFFFu, 0xFFFFFFFFu},  // ulong max
      words64(std::bit_cast<uint64_t>(3.1415926535897931)),
      words64(std::bit_cast<uint64_t>(-1e-300)),
      {0xFFFFFFFFu, 0x7FEFFFFFu},  // 0x1.fffffffffffffp+1023
      {std::bit_cast<uint32_t>(-0.1f)},
  };
  ASSERT_EQ(values.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(values[i], expected[i]) << "constant " << i;
  }

  // OpSwitch with 64-bit selectors: each case literal is two words, low word first.
  binary = Asm(control->text);
  ASSERT_TRUE(binary);
  std::vector<Inst> switches;
  for (const Inst& inst : Instructions(*binary)) {
    if (inst.opcode == static_cast<uint32_t>(spv::Op::Switch)) switches.push_back(inst);
  }
  ASSERT_EQ(switches.size(), 2u);
  // OpSwitch %sel %default (lo hi %label) x3.
  ASSERT_EQ(switches[0].words.size(), 3u + 3 * 3);
  EXPECT_EQ(switches[0].words[3], 0xFFFFFFFBu);  // -5
  EXPECT_EQ(switches[0].words[4], 0xFFFFFFFFu);
  EXPECT_EQ(switches[0].words[6], 0u);  // INT64_MIN
  EXPECT_EQ(switches[0].words[7], 0x80000000u);
  EXPECT_EQ(switches[0].words[9], 0xFFFFFFFFu);  // INT64_MAX
  EXPECT_EQ(switches[0].words[10], 0x7FFFFFFFu);
  ASSERT_EQ(switches[1].words.size(), 3u + 2 * 3);
  EXPECT_EQ(switches[1].words[3], 0u);
  EXPECT_EQ(switches[1].words[4], 0xFFFFFFFFu);
  EXPECT_EQ(switches[1].words[6], 0u);
  EXPECT_EQ(switches[1].words[7], 1u);

  // Debug strings keep their quotes, backslashes and newlines.
  auto debug_binary = Asm(debug->text);
  ASSERT_TRUE(debug_binary);
  std::vector<std::string> strings;
  for (const Inst& inst : Instructions(*debug_binary)) {
    if (inst.opcode == static_cast<uint32_t>(spv::Op::String)) {
      strings.emplace_back(binary::DecodeString(std::span<const uint32_t>(inst.words).subspan(2)));
    }
  }
  EXPECT_EQ(strings,
            (std::vector<std::string>{"C:\\shaders\\a \"b\".comp", "first line\nsecond line"}));
  auto text = Dis(*debug_binary);
  ASSERT_TRUE(text);
  EXPECT_NE(text->find("OpString \"C:\\\\shaders\\\\a \\\"b\\\".comp\"\n"), std::string::npos)
      << *text;
  EXPECT_NE(text->find("OpString \"first line\nsecond line\"\n"), std::string::npos) << *text;
  EXPECT_NE(text->find("OpLine %1 42 7\n"), std::string::npos) << *text;
}

}  // namespace
}  // namespace coopspv::text
