// The module IR (source/ir): reading and indexing a module, the analyses (def-use, CFG,
// dominators, post-dominators, the type table), Declarations, the Builder and in-place edits.
//
// Modules are written in assembly. The assembler numbers ids in order of first appearance, so
// the tests find the id of "%name" by scanning the text the same way (Asm::Id); the OpName
// instructions of each module cross-check that numbering.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "source/binary/reader.h"
#include "source/common/diagnostic.h"
#include "source/ir/analyses.h"
#include "source/ir/builder.h"
#include "source/ir/declarations.h"
#include "source/ir/module.h"
#include "source/ir/scalar_eval.h"
#include "source/text/assembler.h"
#include "source/text/disassembler.h"

namespace coopspv::ir {
namespace {

using spv::Op;
using Words = std::vector<uint32_t>;
constexpr uint32_t kNone = ~0u;

// The ids the assembler gives "%name" spellings: 1, 2, ... in order of first appearance.
std::map<std::string, Id> ScanIds(std::string_view text) {
  std::map<std::string, Id> ids;
  Id next = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ';') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
    } else if (c == '%') {
      size_t j = i + 1;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) ||
                                 text[j] == '_' || text[j] == '.' || text[j] == '-')) {
        ++j;
      }
      if (ids.emplace(std::string(text.substr(i + 1, j - i - 1)), next).second) ++next;
      i = j - 1;
    }
  }
  return ids;
}

Words AssembleOrDie(const std::string& text) {
  Words words;
  Diagnostic d;
  EXPECT_TRUE(text::Assemble(text, {}, &words, &d)) << d.ToString();
  return words;
}

std::string Disassemble(std::span<const uint32_t> words, bool friendly_names = true) {
  text::DisassembleOptions options;
  options.header = false;
  options.indent = false;
  options.friendly_names = friendly_names;
  std::string text;
  Diagnostic d;
  EXPECT_TRUE(text::Disassemble(words, options, &text, &d)) << d.ToString();
  return text;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// An assembled module with name lookups.
struct Asm {
  explicit Asm(const std::string& text) : ids(ScanIds(text)) {
    words = AssembleOrDie(text);
    Diagnostic d;
    module = Module::Read(words, &d);
    EXPECT_NE(module, nullptr) << d.ToString();
    if (module == nullptr) return;
    // Cross-check the numbering with the module's OpNames.
    for (InstIndex i = 0; i < module->num_instructions(); ++i) {
      if (module->opcode(i) != Op::Name) continue;
      const Inst inst = module->inst(i);
      const std::string name(binary::DecodeString(inst.words.subspan(2)));
      auto it = ids.find(name);
      if (it != ids.end()) {
        EXPECT_EQ(inst.words[1], it->second) << "%" << name;
      }
    }
  }
  Id id(const std::string& name) const {
    auto it = ids.find(name);
    if (it == ids.end()) {
      ADD_FAILURE() << "no %" << name;
      return 0;
    }
    return it->second;
  }
  InstIndex def(const std::string& name) const { return module->Def(id(name)); }
  uint32_t block(const std::string& name) const { return module->BlockOfLabel(id(name)); }
  uint32_t function(const std::string& name) const { return module->FunctionById(id(name)); }

  std::map<std::string, Id> ids;
  Words words;
  std::unique_ptr<Module> module;
};

// A compute shader with three functions:
//   main:    an if/else diamond with an OpPhi, then a loop (header, body, continue, merge) with
//            an OpPhi on the back edge, then a call.
//   helper:  one parameter, an early return, a switch with a default and three case blocks
//            (two literals share %case3), an OpPhi at the switch merge, and an unreachable
//            block.
//   spin_fn: a branch to a return or to an infinite loop whose merge block is unreachable.
constexpr char kShader[] = R"(OpCapability Shader
OpExtension "SPV_KHR_storage_buffer_storage_class"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 64 1 1
OpSource GLSL 450
OpName %main "main"
OpName %helper "helper"
OpName %spin_fn "spin_fn"
OpName %x "x"
OpModuleProcessed "ir_test"
OpDecorate %gid BuiltIn GlobalInvocationId
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%ptr_in_v3uint = OpTypePointer Input %v3uint
%ptr_fn_uint = OpTypePointer Function %uint
%fn_void = OpTypeFunction %void
%fn_uint_uint = OpTypeFunction %uint %uint
%true = OpConstantTrue %bool
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_10 = OpConstant %uint 10
%gid = OpVariable %ptr_in_v3uint Input
%main = OpFunction %void None %fn_void
%entry = OpLabel
%i_var = OpVariable %ptr_fn_uint Function
%g = OpLoad %v3uint %gid
%x = OpCompositeExtract %uint %g 0
%cond = OpULessThan %bool %x %uint_10
OpSelectionMerge %merge None
OpBranchConditional %cond %then %else
%then = OpLabel
%a = OpIAdd %uint %x %uint_1
OpBranch %merge
%else = OpLabel
%b = OpISub %uint %x %uint_1
OpBranch %merge
%merge = OpLabel
%phi = OpPhi %uint %a %then %b %else
OpBranch %header
%header = OpLabel
%iv = OpPhi %uint %uint_0 %merge %iv_next %continue
OpLoopMerge %loop_merge %continue None
OpBranch %body
%body = OpLabel
%lc = OpULessThan %bool %iv %phi
OpBranchConditional %lc %continue %loop_merge
%continue = OpLabel
%iv_next = OpIAdd %uint %iv %uint_1
OpBranch %header
%loop_merge = OpLabel
%r = OpFunctionCall %uint %helper %iv
OpStore %i_var %r
OpReturn
OpFunctionEnd
%helper = OpFunction %uint None %fn_uint_uint
%p = OpFunctionParameter %uint
%h_entry = OpLabel
%is0 = OpIEqual %bool %p %uint_0
OpSelectionMerge %h_body None
OpBranchConditional %is0 %early %h_body
%early = OpLabel
OpReturnValue %uint_0
%h_body = OpLabel
OpSelectionMerge %sw_merge None
OpSwitch %p %sw_default 1 %case1 2 %case2 3 %case3 4 %case3
%case1 = OpLabel
OpBranch %sw_merge
%case2 = OpLabel
OpBranch %sw_merge
%case3 = OpLabel
OpBranch %sw_merge
%sw_default = OpLabel
OpBranch %sw_merge
%sw_merge = OpLabel
%sphi = OpPhi %uint %uint_1 %case1 %uint_2 %case2 %p %case3 %uint_0 %sw_default
OpReturnValue %sphi
%dead = OpLabel
OpReturnValue %uint_0
OpFunctionEnd
%spin_fn = OpFunction %void None %fn_void
%s_entry = OpLabel
OpSelectionMerge %s_ret None
OpBranchConditional %true %s_ret %spin
%spin = OpLabel
OpLoopMerge %spin_merge %spin_body None
OpBranch %spin_body
%spin_body = OpLabel
OpBranch %spin
%spin_merge = OpLabel
OpUnreachable
%s_ret = OpLabel
OpReturn
OpFunctionEnd
)";

const char* const kMainBlocks[] = {"entry",  "then", "else",     "merge",
                                   "header", "body", "continue", "loop_merge"};
const char* const kHelperBlocks[] = {"h_entry", "early",      "h_body",   "case1", "case2",
                                     "case3",   "sw_default", "sw_merge", "dead"};
const char* const kSpinBlocks[] = {"s_entry", "spin", "spin_body", "spin_merge", "s_ret"};

// ---------------------------------------------------------------------------------------------
// Module::Read and the indexes.

// The traits table is computed at compile time from the generator's per-instruction facts; here
// every instruction's traits are worked out again from the grammar tables at run time.
TEST(IrModule, OpcodeTraitsAgreeWithTheGrammarTables) {
  auto is_scope = [](grammar::OperandKind k) {
    return k == grammar::OperandKind::kIdScope || k == grammar::OperandKind::kIdMemorySemantics;
  };
  size_t with_scope = 0;
  for (const grammar::InstructionInfo& info : grammar::AllInstructions()) {
    const Op op = static_cast<Op>(info.opcode);
    bool scope = false;
    for (const grammar::OperandInfo& operand : grammar::Operands(info)) {
      scope = scope || is_scope(operand.kind);
      for (const grammar::EnumerantInfo& e : grammar::Enumerants(operand.kind)) {
        for (const grammar::OperandInfo& p : grammar::Parameters(e))
          scope = scope || is_scope(p.kind);
      }
    }
    with_scope += scope;
    const OpcodeTraits& t = TraitsOf(op);
    EXPECT_EQ(t.has_scope_or_semantics, scope) << info.name;
    // Vendor types the grammar files under another class count as type declarations too.
    const bool other_type = op == Op::TypeNodePayloadArrayAMDX || op == Op::TypeTaskSequenceALTERA;
    EXPECT_EQ(t.is_type_declaration,
              (info.klass == grammar::InstructionClass::kTypeDeclaration || other_type) &&
                  op != Op::TypeForwardPointer)
        << info.name;
    if (info.klass == grammar::InstructionClass::kAnnotation) {
      EXPECT_EQ(t.section, Section::kAnnotation) << info.name;
    }
  }
  EXPECT_GT(with_scope, 20u);
  EXPECT_TRUE(TraitsOf(Op::ControlBarrier).has_scope_or_semantics);
  EXPECT_TRUE(TraitsOf(Op::Load).has_scope_or_semantics);  // MemoryAccess MakePointerAvailable.
  EXPECT_TRUE(TraitsOf(Op::CooperativeMatrixLoadKHR).has_scope_or_semantics);
  EXPECT_FALSE(TraitsOf(Op::IAdd).has_scope_or_semantics);
  EXPECT_FALSE(TraitsOf(Op::TypeInt).has_scope_or_semantics);
  // An opcode no instruction has: the default traits.
  uint32_t gap = 1;
  while (grammar::LookupOpcode(gap) != nullptr) ++gap;
  const OpcodeTraits& none = TraitsOf(static_cast<Op>(gap));
  EXPECT_EQ(none.section, Section::kFunction);
  EXPECT_FALSE(none.is_terminator || none.is_constant || none.has_scope_or_semantics);
}

TEST(IrModule, SectionsFollowTheLogicalLayout) {
  Asm s(kShader);
  const Module& m = *s.module;
  EXPECT_EQ(SectionOf(Op::Capability), Section::kCapability);
  EXPECT_EQ(SectionOf(Op::Extension), Section::kExtension);
  EXPECT_EQ(SectionOf(Op::ExtInstImport), Section::kExtInstImport);
  EXPECT_EQ(SectionOf(Op::MemoryModel), Section::kMemoryModel);
  EXPECT_EQ(SectionOf(Op::EntryPoint), Section::kEntryPoint);
  EXPECT_EQ(SectionOf(Op::ExecutionMode), Section::kExecutionMode);
  EXPECT_EQ(SectionOf(Op::ExecutionModeId), Section::kExecutionMode);
  EXPECT_EQ(SectionOf(Op::String), Section::kDebugString);
  EXPECT_EQ(SectionOf(Op::Source), Section::kDebugString);
  EXPECT_EQ(SectionOf(Op::SourceExtension), Section::kDebugString);
  EXPECT_EQ(SectionOf(Op::Name), Section::kDebugName);
  EXPECT_EQ(SectionOf(Op::MemberName), Section::kDebugName);
  EXPECT_EQ(SectionOf(Op::ModuleProcessed), Section::kDebugModuleProcessed);
  EXPECT_EQ(SectionOf(Op::Decorate), Section::kAnnotation);
  EXPECT_EQ(SectionOf(Op::MemberDecorate), Section::kAnnotation);
  EXPECT_EQ(SectionOf(Op::DecorationGroup), Section::kAnnotation);
  EXPECT_EQ(SectionOf(Op::TypeInt), Section::kGlobal);
  EXPECT_EQ(SectionOf(Op::TypeForwardPointer), Section::kGlobal);
  EXPECT_EQ(SectionOf(Op::Constant), Section::kGlobal);
  EXPECT_EQ(SectionOf(Op::SpecConstantOp), Section::kGlobal);
  EXPECT_EQ(SectionOf(Op::Variable), Section::kGlobal);
  EXPECT_EQ(SectionOf(Op::Undef), Section::kGlobal);
  EXPECT_EQ(SectionOf(Op::Line), Section::kGlobal);
  EXPECT_EQ(SectionOf(Op::Function), Section::kFunction);
  EXPECT_EQ(SectionOf(Op::Label), Section::kFunction);
  EXPECT_EQ(SectionOf(Op::IAdd), Section::kFunction);
  EXPECT_EQ(SectionOf(Op::Phi), Section::kFunction);
  EXPECT_EQ(SectionOf(Op::Branch), Section::kFunction);

  // Every section of the layout appears, in order, before the first function.
  ASSERT_EQ(m.functions().size(), 3u);
  const InstIndex first_function = m.functions()[0].def;
  Section previous = Section::kCapability;
  std::vector<Section> seen;
  for (InstIndex i = 0; i < first_function; ++i) {
    const Section section = SectionOf(m.opcode(i));
    EXPECT_GE(section, previous) << "instruction " << i << " out of order";
    EXPECT_NE(section, Section::kFunction) << i;
    EXPECT_EQ(m.FunctionOf(i), kNone) << i;
    if (seen.empty() || seen.back() != section) seen.push_back(section);
    previous = section;
  }
  EXPECT_EQ(seen, (std::vector<Section>{
                      Section::kCapability, Section::kExtension, Section::kExtInstImport,
                      Section::kMemoryModel, Section::kEntryPoint, Section::kExecutionMode,
                      Section::kDebugString, Section::kDebugName, Section::kDebugModuleProcessed,
                      Section::kAnnotation, Section::kGlobal}));
  for (InstIndex i = first_function; i < m.num_instructions(); ++i) {
    EXPECT_NE(m.FunctionOf(i), kNone) << i;
  }
  // Per-opcode facts.
  EXPECT_TRUE(IsTerminator(Op::Return));
  EXPECT_TRUE(IsTerminator(Op::Switch));
  EXPECT_TRUE(IsTerminator(Op::Unreachable));
  EXPECT_FALSE(IsTerminator(Op::LoopMerge));
  EXPECT_FALSE(IsTerminator(Op::FunctionEnd));
  EXPECT_TRUE(IsTypeDeclaration(Op::TypeStruct));
  EXPECT_FALSE(IsTypeDeclaration(Op::TypeForwardPointer));
  EXPECT_TRUE(IsConstant(Op::ConstantNull));
  EXPECT_TRUE(IsConstant(Op::SpecConstant));
  EXPECT_FALSE(IsConstant(Op::Variable));
  EXPECT_TRUE(IsSpecConstant(Op::SpecConstantTrue));
  EXPECT_FALSE(IsSpecConstant(Op::ConstantTrue));
  EXPECT_FALSE(IsTerminator(static_cast<Op>(0xFFFF)));
  EXPECT_EQ(SectionOf(static_cast<Op>(0xFFFF)), Section::kFunction);
}

TEST(IrModule, Functions) {
  Asm s(kShader);
  const Module& m = *s.module;
  ASSERT_EQ(m.functions().size(), 3u);
  const char* const names[] = {"main", "helper", "spin_fn"};
  const std::vector<std::vector<std::string>> blocks = {
      {std::begin(kMainBlocks), std::end(kMainBlocks)},
      {std::begin(kHelperBlocks), std::end(kHelperBlocks)},
      {std::begin(kSpinBlocks), std::end(kSpinBlocks)}};
  const uint32_t params[] = {0, 1, 0};
  uint32_t first_block = 0;
  for (uint32_t f = 0; f < 3; ++f) {
    SCOPED_TRACE(names[f]);
    const Function& fn = m.functions()[f];
    EXPECT_EQ(fn.def, s.def(names[f]));
    EXPECT_EQ(m.opcode(fn.def), Op::Function);
    EXPECT_EQ(m.result_id(fn.def), s.id(names[f]));
    ASSERT_NE(fn.end, kNoInst);
    EXPECT_EQ(m.opcode(fn.end), Op::FunctionEnd);
    EXPECT_LT(fn.def, fn.end);
    if (f > 0) {
      EXPECT_EQ(fn.def, m.functions()[f - 1].end + 1);
    }
    EXPECT_EQ(fn.num_params, params[f]);
    EXPECT_EQ(fn.first_param, fn.def + 1);
    for (uint32_t k = 0; k < fn.num_params; ++k) {
      EXPECT_EQ(m.opcode(fn.first_param + k), Op::FunctionParameter);
    }
    EXPECT_EQ(m.opcode(fn.first_param + fn.num_params), Op::Label);
    EXPECT_EQ(fn.first_block, first_block);
    ASSERT_EQ(fn.num_blocks, blocks[f].size());
    const auto fblocks = m.blocks(fn);
    ASSERT_EQ(fblocks.size(), blocks[f].size());
    for (uint32_t k = 0; k < fblocks.size(); ++k) {
      SCOPED_TRACE(blocks[f][k]);
      const Block& b = fblocks[k];
      EXPECT_EQ(b.label, s.def(blocks[f][k]));
      EXPECT_EQ(m.opcode(b.label), Op::Label);
      EXPECT_EQ(b.function, f);
      EXPECT_TRUE(IsTerminator(m.opcode(b.end - 1)));
      // Blocks are contiguous: each ends where the next starts, the last at OpFunctionEnd.
      EXPECT_EQ(b.end, k + 1 < fblocks.size() ? fblocks[k + 1].label : fn.end);
      EXPECT_EQ(&b, &m.blocks()[fn.first_block + k]);
      for (InstIndex i = b.label; i < b.end - 1; ++i) {
        EXPECT_FALSE(IsTerminator(m.opcode(i))) << i;
      }
    }
    first_block += fn.num_blocks;
  }
  EXPECT_EQ(m.blocks().size(), first_block);
  EXPECT_EQ(m.blocks().size(), 22u);
  // The entry block's instructions, one by one.
  const Block& entry = m.blocks()[s.block("entry")];
  EXPECT_EQ(entry.end - entry.label, 7u);
  EXPECT_EQ(m.opcode(entry.label + 1), Op::Variable);
  EXPECT_EQ(m.opcode(entry.end - 2), Op::SelectionMerge);
  EXPECT_EQ(m.opcode(entry.end - 1), Op::BranchConditional);
}

TEST(IrModule, BlockOfAndFunctionOf) {
  Asm s(kShader);
  const Module& m = *s.module;
  // Every instruction of a block maps to it; OpFunction, parameters, OpFunctionEnd and the
  // global instructions are in no block.
  std::vector<uint32_t> expected(m.num_instructions(), kNone);
  for (uint32_t b = 0; b < m.blocks().size(); ++b) {
    for (InstIndex i = m.blocks()[b].label; i < m.blocks()[b].end; ++i) expected[i] = b;
  }
  for (InstIndex i = 0; i < m.num_instructions(); ++i) EXPECT_EQ(m.BlockOf(i), expected[i]) << i;
  EXPECT_EQ(m.BlockOf(s.def("main")), kNone);
  EXPECT_EQ(m.BlockOf(s.def("p")), kNone);
  EXPECT_EQ(m.BlockOf(m.functions()[0].end), kNone);
  EXPECT_EQ(m.BlockOf(s.def("uint")), kNone);
  EXPECT_EQ(m.BlockOf(static_cast<InstIndex>(m.num_instructions())), kNone);
  EXPECT_EQ(m.BlockOf(kNoInst), kNone);
  EXPECT_EQ(m.BlockOf(s.def("a")), s.block("then"));
  EXPECT_EQ(m.BlockOf(s.def("iv_next")), s.block("continue"));
  EXPECT_EQ(m.BlockOf(s.def("sphi")), s.block("sw_merge"));
  EXPECT_EQ(m.BlockOf(s.def("i_var")), s.block("entry"));

  // BlockOfLabel: labels only.
  EXPECT_EQ(s.block("entry"), 0u);
  EXPECT_EQ(s.block("loop_merge"), 7u);
  EXPECT_EQ(s.block("h_entry"), 8u);
  EXPECT_EQ(s.block("dead"), 16u);
  EXPECT_EQ(s.block("s_ret"), 21u);
  EXPECT_EQ(m.BlockOfLabel(s.id("a")), kNone);
  EXPECT_EQ(m.BlockOfLabel(s.id("main")), kNone);
  EXPECT_EQ(m.BlockOfLabel(0), kNone);
  EXPECT_EQ(m.BlockOfLabel(m.bound()), kNone);
  EXPECT_EQ(m.BlockOfLabel(0xFFFFFFFFu), kNone);

  // FunctionOf.
  EXPECT_EQ(m.FunctionOf(0), kNone);
  EXPECT_EQ(m.FunctionOf(s.def("gid")), kNone);
  for (uint32_t f = 0; f < 3; ++f) {
    const Function& fn = m.functions()[f];
    EXPECT_EQ(m.FunctionOf(fn.def), f);
    EXPECT_EQ(m.FunctionOf(fn.end), f);
    EXPECT_EQ(m.FunctionOf(fn.def + 1), f);
  }
  EXPECT_EQ(m.FunctionOf(s.def("p")), 1u);
  EXPECT_EQ(m.FunctionOf(s.def("dead")), 1u);
  EXPECT_EQ(m.FunctionOf(s.def("iv")), 0u);
  EXPECT_EQ(m.FunctionOf(static_cast<InstIndex>(m.num_instructions())), kNone);
  EXPECT_EQ(m.FunctionOf(kNoInst), kNone);

  // FunctionById.
  EXPECT_EQ(s.function("main"), 0u);
  EXPECT_EQ(s.function("helper"), 1u);
  EXPECT_EQ(s.function("spin_fn"), 2u);
  EXPECT_EQ(m.FunctionById(s.id("fn_void")), kNone);
  EXPECT_EQ(m.FunctionById(s.id("entry")), kNone);
  EXPECT_EQ(m.FunctionById(0), kNone);
  EXPECT_EQ(m.FunctionById(0xFFFFFFFFu), kNone);
}

TEST(IrModule, DefinitionsAndTypes) {
  Asm s(kShader);
  const Module& m = *s.module;
  EXPECT_EQ(m.bound(), s.ids.size() + 1);
  EXPECT_EQ(m.header().bound, m.bound());
  EXPECT_EQ(m.header().magic, spv::kMagicNumber);
  for (const auto& [name, id] : s.ids) {
    const InstIndex d = m.Def(id);
    ASSERT_NE(d, kNoInst) << name;
    EXPECT_EQ(m.result_id(d), id) << name;
  }
  EXPECT_EQ(m.DefOpcode(s.id("uint")), Op::TypeInt);
  EXPECT_EQ(m.DefOpcode(s.id("v3uint")), Op::TypeVector);
  EXPECT_EQ(m.DefOpcode(s.id("uint_10")), Op::Constant);
  EXPECT_EQ(m.DefOpcode(s.id("gid")), Op::Variable);
  EXPECT_EQ(m.DefOpcode(s.id("main")), Op::Function);
  EXPECT_EQ(m.DefOpcode(s.id("p")), Op::FunctionParameter);
  EXPECT_EQ(m.DefOpcode(s.id("merge")), Op::Label);
  EXPECT_EQ(m.DefOpcode(s.id("phi")), Op::Phi);
  EXPECT_EQ(m.DefOpcode(s.id("glsl")), Op::ExtInstImport);
  EXPECT_EQ(m.DefOpcode(s.id("r")), Op::FunctionCall);
  EXPECT_EQ(m.DefOpcode(0), Op::Nop);
  EXPECT_EQ(m.DefOpcode(m.bound()), Op::Nop);
  EXPECT_EQ(m.Def(0), kNoInst);
  EXPECT_EQ(m.Def(m.bound()), kNoInst);
  EXPECT_EQ(m.Def(0xFFFFFFFFu), kNoInst);

  EXPECT_EQ(m.TypeOf(s.id("x")), s.id("uint"));
  EXPECT_EQ(m.TypeOf(s.id("cond")), s.id("bool"));
  EXPECT_EQ(m.TypeOf(s.id("g")), s.id("v3uint"));
  EXPECT_EQ(m.TypeOf(s.id("gid")), s.id("ptr_in_v3uint"));
  EXPECT_EQ(m.TypeOf(s.id("main")), s.id("void"));
  EXPECT_EQ(m.TypeOf(s.id("helper")), s.id("uint"));
  EXPECT_EQ(m.TypeOf(s.id("uint_0")), s.id("uint"));
  EXPECT_EQ(m.TypeOf(s.id("uint")), 0u);
  EXPECT_EQ(m.TypeOf(s.id("entry")), 0u);
  EXPECT_EQ(m.TypeOf(0), 0u);
  EXPECT_EQ(m.TypeOf(m.bound() + 5), 0u);
  EXPECT_TRUE(m.duplicate_defs().empty());

  // word() and num_words() on an instruction with a string and one with an id list.
  const InstIndex ep = 4;
  ASSERT_EQ(m.opcode(ep), Op::EntryPoint);
  EXPECT_EQ(m.num_words(ep), 6u);  // Opcode, model, function, "main" (2 words), %gid.
  EXPECT_EQ(m.word(ep, 0), (6u << 16) | static_cast<uint32_t>(Op::EntryPoint));
  EXPECT_EQ(m.word(ep, 2), s.id("main"));
  EXPECT_EQ(m.word(ep, 5), s.id("gid"));
  EXPECT_EQ(m.words()[m.word_offset(ep)], m.word(ep, 0));
  EXPECT_EQ(m.word_offset(0), binary::kHeaderWords);
}

TEST(IrModule, DuplicateDefinitions) {
  // Assemble with distinct names, then give %c2 the id of %c1 and %d2, %d3 the id of %d1.
  const std::string text = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%uint = OpTypeInt 32 0
%c1 = OpConstant %uint 1
%c2 = OpConstant %uint 2
%d1 = OpConstant %uint 3
%d2 = OpConstant %uint 4
%d3 = OpConstant %uint 5
)";
  Asm s(text);
  Words words = s.words;
  const Module& original = *s.module;
  auto result_word = [&](const char* name) {
    return original.word_offset(s.def(name)) + 2;  // Opcode, type, result.
  };
  words[result_word("c2")] = s.id("c1");
  words[result_word("d2")] = s.id("d1");
  words[result_word("d3")] = s.id("d1");
  Diagnostic d;
  auto m = Module::Read(words, &d);
  ASSERT_NE(m, nullptr) << d.ToString();
  // The first definition wins; the later ones are listed in order.
  EXPECT_EQ(m->Def(s.id("c1")), s.def("c1"));
  EXPECT_EQ(m->Def(s.id("d1")), s.def("d1"));
  EXPECT_EQ(m->duplicate_defs(),
            (ws::vector<std::pair<Id, InstIndex>>{
                {s.id("c1"), s.def("c2")}, {s.id("d1"), s.def("d2")}, {s.id("d1"), s.def("d3")}}));
  // The ids no longer defined.
  EXPECT_EQ(m->Def(s.id("c2")), kNoInst);
  EXPECT_EQ(m->Def(s.id("d3")), kNoInst);
  EXPECT_EQ(m->DefOpcode(s.id("d2")), Op::Nop);
}

// EntryPointInterface skips the Name whatever its length (a null word of its own for a multiple
// of four bytes); ConstantValue reads only 32-bit OpConstants.
TEST(IrModule, EntryPointInterfaceAndConstantValue) {
  Asm s(R"(
OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "" %in %out
OpEntryPoint GLCompute %main "abc" %out
OpEntryPoint GLCompute %main "abcd" %in
OpEntryPoint GLCompute %main "abcdefgh"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%ptr = OpTypePointer Input %uint
%optr = OpTypePointer Output %uint
%in = OpVariable %ptr Input
%out = OpVariable %optr Output
%uint_7 = OpConstant %uint 7
%ulong_7 = OpConstant %ulong 7
%float_1 = OpConstant %float 1
%spec = OpSpecConstant %uint 7
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_NE(s.module, nullptr);
  const Module& m = *s.module;
  using Ids = std::vector<uint32_t>;
  auto interface = [&](InstIndex i) {
    EXPECT_EQ(m.opcode(i), Op::EntryPoint);
    const auto span = EntryPointInterface(m.inst(i));
    return Ids(span.begin(), span.end());
  };
  EXPECT_EQ(interface(3), (Ids{s.id("in"), s.id("out")}));
  EXPECT_EQ(interface(4), (Ids{s.id("out")}));
  EXPECT_EQ(interface(5), (Ids{s.id("in")}));
  EXPECT_EQ(interface(6), Ids{});

  EXPECT_EQ(ConstantValue(m, s.id("uint_7")), 7u);
  EXPECT_EQ(ConstantValue(m, s.id("float_1")), 0x3F800000u);
  EXPECT_EQ(ConstantValue(m, s.id("ulong_7")), std::nullopt);
  EXPECT_EQ(ConstantValue(m, s.id("spec")), std::nullopt);
  EXPECT_EQ(ConstantValue(m, s.id("uint")), std::nullopt);
  EXPECT_EQ(ConstantValue(m, 0), std::nullopt);
  EXPECT_EQ(ConstantValue(m, m.bound() + 3), std::nullopt);
}

TEST(IrModule, ReadWriteIdentityAndBorrowing) {
  Asm s(kShader);
  const Words& input = s.words;
  Diagnostic d;
  auto copied = Module::Read(input, &d);
  ASSERT_NE(copied, nullptr) << d.ToString();
  auto borrowed = Module::ReadInPlace(input, &d);
  ASSERT_NE(borrowed, nullptr) << d.ToString();
  for (const Module* m : {copied.get(), borrowed.get()}) {
    ASSERT_EQ(m->words().size(), input.size());
    EXPECT_TRUE(std::equal(input.begin(), input.end(), m->words().begin()));
    EXPECT_EQ(m->num_instructions(), s.module->num_instructions());
    // The instructions cover the words after the header, in order, without gaps.
    uint32_t offset = binary::kHeaderWords;
    for (InstIndex i = 0; i < m->num_instructions(); ++i) {
      EXPECT_EQ(m->word_offset(i), offset);
      EXPECT_EQ(m->inst(i).words.data(), m->words().data() + offset);
      EXPECT_EQ(m->num_words(i), m->word(i, 0) >> 16);
      offset += m->num_words(i);
    }
    EXPECT_EQ(offset, input.size());
  }
  EXPECT_EQ(borrowed->words().data(), input.data());
  EXPECT_NE(copied->words().data(), input.data());
  EXPECT_EQ(borrowed->inst(3).words.data(), input.data() + borrowed->word_offset(3));

  // A copy survives its input.
  Words scratch = input;
  auto from_scratch = Module::Read(scratch, &d);
  ASSERT_NE(from_scratch, nullptr);
  std::fill(scratch.begin(), scratch.end(), 0u);
  scratch.clear();
  scratch.shrink_to_fit();
  EXPECT_TRUE(std::equal(input.begin(), input.end(), from_scratch->words().begin(),
                         from_scratch->words().end()));
  EXPECT_EQ(Disassemble(from_scratch->words()), Disassemble(input));
}

// Big-endian input is read into host order (reader.h): both reads copy it, byte-swapped.
TEST(IrModule, BigEndianInputIsCopiedInHostOrder) {
  Asm s(kShader);
  Words swapped = s.words;
  for (uint32_t& w : swapped) {
    w = (w >> 24) | ((w >> 8) & 0xFF00u) | ((w << 8) & 0xFF0000u) | (w << 24);
  }
  Diagnostic d;
  for (bool in_place : {false, true}) {
    SCOPED_TRACE(in_place);
    auto m = in_place ? Module::ReadInPlace(swapped, &d) : Module::Read(swapped, &d);
    ASSERT_NE(m, nullptr) << d.ToString();
    EXPECT_EQ(m->header().endianness, binary::Endianness::kBig);
    EXPECT_NE(m->words().data(), swapped.data());
    EXPECT_TRUE(std::equal(m->words().begin(), m->words().end(), s.words.begin(), s.words.end()));
    EXPECT_EQ(m->functions().size(), 3u);
    EXPECT_EQ(m->DefOpcode(s.id("phi")), Op::Phi);
  }
}

TEST(IrModule, MalformedInputIsRefused) {
  Asm s(kShader);
  Words truncated(s.words.begin(), s.words.end() - 1);  // OpFunctionEnd's word count lies.
  truncated.back() = (9u << 16) | static_cast<uint32_t>(Op::Return);
  Diagnostic d;
  EXPECT_EQ(Module::Read(truncated, &d), nullptr);
  EXPECT_FALSE(d.message.empty());
  Diagnostic d2;
  EXPECT_EQ(Module::ReadInPlace(std::span<const uint32_t>(s.words.data(), 3), &d2), nullptr);
  EXPECT_FALSE(d2.message.empty());
}

// A function whose OpFunctionEnd is missing still owns its blocks (module.cc: "A function
// without OpFunctionEnd still owns the blocks read after it"). When such a function is followed
// by another function, Index() never sets its num_blocks: blocks()[k].function names the
// function while blocks(function) is empty, so the CFG gives it no reverse postorder.
TEST(IrModule, FunctionWithoutFunctionEndBeforeAnotherOwnsItsBlocks) {
  Asm s(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f1 = OpFunction %void None %fn
%a1 = OpLabel
OpBranch %a2
%a2 = OpLabel
OpReturn
%f2 = OpFunction %void None %fn
%b1 = OpLabel
OpReturn
OpFunctionEnd
)");
  const Module& m = *s.module;
  ASSERT_EQ(m.functions().size(), 2u);
  EXPECT_EQ(m.functions()[0].end, kNoInst);
  ASSERT_EQ(m.blocks().size(), 3u);
  EXPECT_EQ(m.blocks()[s.block("a1")].function, 0u);
  EXPECT_EQ(m.blocks()[s.block("a2")].function, 0u);
  EXPECT_EQ(m.functions()[0].num_blocks, 2u);
  EXPECT_EQ(m.blocks(m.functions()[0]).size(), 2u);
  EXPECT_EQ(m.cfg().ReversePostorder(0).size(), 2u);
  EXPECT_TRUE(m.cfg().Reachable(s.block("a2")));
}

// The same, when the function is the last: this case is handled.
TEST(IrModule, LastFunctionWithoutFunctionEndOwnsItsBlocks) {
  Asm s(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f1 = OpFunction %void None %fn
%a1 = OpLabel
OpBranch %a2
%a2 = OpLabel
OpReturn
)");
  const Module& m = *s.module;
  ASSERT_EQ(m.functions().size(), 1u);
  EXPECT_EQ(m.functions()[0].end, kNoInst);
  EXPECT_EQ(m.functions()[0].num_blocks, 2u);
  EXPECT_EQ(m.FunctionOf(s.def("a2")), 0u);
  EXPECT_EQ(m.cfg().ReversePostorder(0).size(), 2u);
  EXPECT_EQ(m.dominators().Idom(s.block("a2")), s.block("a1"));
}

// Blocks left without a terminator end where the next block, the function's end or the module's
// end begins; an instruction after a terminator belongs to no block.
TEST(IrModule, BlocksWithoutTerminatorsEndWhereTheNextThingBegins) {
  Asm s(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f1 = OpFunction %void None %fn
%a1 = OpLabel
OpNop
%a2 = OpLabel
OpNop
OpFunctionEnd
%f2 = OpFunction %void None %fn
%b1 = OpLabel
OpReturn
OpNop
%b2 = OpLabel
OpNop
)");
  const Module& m = *s.module;
  ASSERT_EQ(m.functions().size(), 2u);
  ASSERT_EQ(m.blocks().size(), 4u);
  const InstIndex a1 = s.def("a1"), a2 = s.def("a2"), b1 = s.def("b1"), b2 = s.def("b2");
  const InstIndex f1_end = m.functions()[0].end;
  EXPECT_EQ(m.opcode(f1_end), Op::FunctionEnd);
  EXPECT_EQ(m.blocks()[s.block("a1")].end, a2);
  EXPECT_EQ(m.blocks()[s.block("a2")].end, f1_end);
  EXPECT_EQ(m.blocks()[s.block("b1")].end, b1 + 2);
  EXPECT_EQ(m.blocks()[s.block("b2")].end, m.num_instructions());
  EXPECT_EQ(m.BlockOf(a1 + 1), s.block("a1"));
  EXPECT_EQ(m.BlockOf(a2 + 1), s.block("a2"));
  EXPECT_EQ(m.BlockOf(f1_end), ~0u);
  EXPECT_EQ(m.BlockOf(m.functions()[1].def), ~0u);
  EXPECT_EQ(m.BlockOf(b1 + 1), s.block("b1"));
  EXPECT_EQ(m.BlockOf(b1 + 2), ~0u);  // The OpNop after OpReturn.
  EXPECT_EQ(m.BlockOf(b2 + 1), s.block("b2"));
  EXPECT_EQ(m.functions()[0].num_blocks, 2u);
  EXPECT_EQ(m.functions()[1].num_blocks, 2u);
  EXPECT_EQ(m.functions()[1].end, kNoInst);
}

// ---------------------------------------------------------------------------------------------
// DefUse.

// The uses of `id` as (instruction, operand) pairs.
std::vector<std::pair<InstIndex, uint16_t>> UsesOf(const Module& m, Id id) {
  std::vector<std::pair<InstIndex, uint16_t>> out;
  for (const Use& u : m.def_use().Uses(id)) out.emplace_back(u.inst, u.operand);
  return out;
}

TEST(IrDefUse, UsesListOperandPositions) {
  Asm s(kShader);
  const Module& m = *s.module;
  using Pairs = std::vector<std::pair<InstIndex, uint16_t>>;
  // Operand indexes count the result type and the result id.
  const InstIndex name_x = 10;
  ASSERT_EQ(m.opcode(name_x), Op::Name);
  EXPECT_EQ(UsesOf(m, s.id("x")),
            (Pairs{{name_x, 0}, {s.def("cond"), 2}, {s.def("a"), 2}, {s.def("b"), 2}}));
  EXPECT_EQ(UsesOf(m, s.id("uint_1")),
            (Pairs{{s.def("a"), 3}, {s.def("b"), 3}, {s.def("iv_next"), 3}, {s.def("sphi"), 2}}));
  // Labels: branch targets, phi parents and merge operands.
  const InstIndex entry_branch = m.blocks()[s.block("entry")].end - 1;
  EXPECT_EQ(UsesOf(m, s.id("then")), (Pairs{{entry_branch, 1}, {s.def("phi"), 3}}));
  const InstIndex header_merge = m.blocks()[s.block("header")].end - 2;
  ASSERT_EQ(m.opcode(header_merge), Op::LoopMerge);
  const InstIndex body_branch = m.blocks()[s.block("body")].end - 1;
  EXPECT_EQ(UsesOf(m, s.id("continue")),
            (Pairs{{s.def("iv"), 5}, {header_merge, 1}, {body_branch, 1}}));
  // Two switch literals target %case3: two uses by the OpSwitch.
  const InstIndex sw = m.blocks()[s.block("h_body")].end - 1;
  ASSERT_EQ(m.opcode(sw), Op::Switch);
  EXPECT_EQ(UsesOf(m, s.id("case3")), (Pairs{{sw, 7}, {sw, 9}, {s.def("sphi"), 7}}));
  EXPECT_EQ(UsesOf(m, s.id("p")), (Pairs{{s.def("is0"), 2}, {sw, 0}, {s.def("sphi"), 6}}));
  // Forward reference: %iv_next is used (by the header's phi) before it is defined.
  EXPECT_EQ(UsesOf(m, s.id("iv_next")), (Pairs{{s.def("iv"), 4}}));
  EXPECT_EQ(UsesOf(m, s.id("iv")),
            (Pairs{{s.def("lc"), 2}, {s.def("iv_next"), 2}, {s.def("r"), 3}}));
  // Entry point, execution mode, name, decoration and call operands.
  EXPECT_EQ(UsesOf(m, s.id("main")), (Pairs{{4, 1}, {5, 0}, {7, 0}}));
  const InstIndex decorate = 12;
  ASSERT_EQ(m.opcode(decorate), Op::Decorate);
  EXPECT_EQ(UsesOf(m, s.id("gid")), (Pairs{{4, 3}, {decorate, 0}, {s.def("g"), 2}}));
  EXPECT_EQ(UsesOf(m, s.id("helper")), (Pairs{{8, 0}, {s.def("r"), 2}}));
  const InstIndex store = s.def("r") + 1;
  ASSERT_EQ(m.opcode(store), Op::Store);
  EXPECT_EQ(UsesOf(m, s.id("r")), (Pairs{{store, 1}}));
  EXPECT_EQ(UsesOf(m, s.id("i_var")), (Pairs{{store, 0}}));
  // The result type counts as a use: %uint is the type of 4 constants, 7 values of main, the
  // helper function, its parameter and its phi, and an operand of %v3uint, %ptr_fn_uint and
  // (twice) %fn_uint_uint.
  EXPECT_EQ(m.def_use().NumUses(s.id("uint")), 18u);
  EXPECT_EQ(m.def_use().NumUses(s.id("bool")), 4u);  // %true, %cond, %lc, %is0.
  // Ids without uses.
  EXPECT_TRUE(m.def_use().Uses(s.id("dead")).empty());
  EXPECT_TRUE(m.def_use().Uses(s.id("glsl")).empty());
  EXPECT_EQ(m.def_use().NumUses(s.id("spin_merge")), 1u);  // Its OpLoopMerge.
  EXPECT_TRUE(m.def_use().Uses(0).empty());
  EXPECT_TRUE(m.def_use().Uses(m.bound()).empty());
  EXPECT_TRUE(m.def_use().Uses(0xFFFFFFFFu).empty());
}

TEST(IrDefUse, ResultIdsAreNotUses) {
  Asm s(kShader);
  const Module& m = *s.module;
  size_t total = 0;
  for (Id id = 0; id < m.bound(); ++id) {
    for (const Use& u : m.def_use().Uses(id)) {
      ++total;
      const Inst inst = m.inst(u.inst);
      ASSERT_LT(u.operand, inst.operands.size());
      const auto& operand = inst.operands[u.operand];
      EXPECT_EQ(inst.word(operand), id);
      EXPECT_TRUE(grammar::IsIdKind(operand.kind));
      EXPECT_NE(operand.kind, grammar::OperandKind::kIdResult);
      // A use is never the instruction's own result.
      EXPECT_FALSE(m.result_id(u.inst) == id && u.operand == (m.type_id(u.inst) ? 1 : 0));
    }
  }
  // Every id operand that is not a result is listed once.
  size_t expected = 0;
  for (InstIndex i = 0; i < m.num_instructions(); ++i) {
    for (const auto& operand : m.inst(i).operands) {
      if (grammar::IsIdKind(operand.kind) && operand.kind != grammar::OperandKind::kIdResult) {
        ++expected;
      }
    }
  }
  EXPECT_EQ(total, expected);
  // A value's own definition is not among its uses.
  EXPECT_EQ(m.def_use().NumUses(s.id("sphi")), 1u);  // OpReturnValue.
  EXPECT_EQ(m.def_use().NumUses(s.id("lc")), 1u);    // The body's branch.
  for (const Use& u : m.def_use().Uses(s.id("phi"))) EXPECT_NE(u.inst, s.def("phi"));
}

// ---------------------------------------------------------------------------------------------
// Cfg.

std::vector<uint32_t> ToVector(std::span<const uint32_t> s) { return {s.begin(), s.end()}; }

TEST(IrCfg, DiamondLoopAndSwitchEdges) {
  Asm s(kShader);
  const Module& m = *s.module;
  const Cfg& cfg = m.cfg();
  auto B = [&](const char* name) { return s.block(name); };
  using V = std::vector<uint32_t>;
  // Diamond.
  EXPECT_EQ(ToVector(cfg.Successors(B("entry"))), (V{B("then"), B("else")}));
  EXPECT_EQ(ToVector(cfg.Successors(B("then"))), (V{B("merge")}));
  EXPECT_EQ(ToVector(cfg.Successors(B("else"))), (V{B("merge")}));
  EXPECT_EQ(ToVector(cfg.Predecessors(B("merge"))), (V{B("then"), B("else")}));
  EXPECT_TRUE(cfg.Predecessors(B("entry")).empty());
  EXPECT_EQ(cfg.merge_kind(B("entry")), MergeKind::kSelection);
  EXPECT_EQ(cfg.merge_block(B("entry")), B("merge"));
  EXPECT_EQ(cfg.continue_target(B("entry")), kNone);
  EXPECT_EQ(cfg.merge_kind(B("then")), MergeKind::kNone);
  EXPECT_EQ(cfg.merge_block(B("then")), kNone);
  // Loop: the back edge from the continue target.
  EXPECT_EQ(ToVector(cfg.Successors(B("merge"))), (V{B("header")}));
  EXPECT_EQ(ToVector(cfg.Successors(B("header"))), (V{B("body")}));
  EXPECT_EQ(ToVector(cfg.Successors(B("body"))), (V{B("continue"), B("loop_merge")}));
  EXPECT_EQ(ToVector(cfg.Successors(B("continue"))), (V{B("header")}));
  EXPECT_EQ(ToVector(cfg.Predecessors(B("header"))), (V{B("merge"), B("continue")}));
  EXPECT_EQ(ToVector(cfg.Predecessors(B("loop_merge"))), (V{B("body")}));
  EXPECT_TRUE(cfg.Successors(B("loop_merge")).empty());
  EXPECT_EQ(cfg.merge_kind(B("header")), MergeKind::kLoop);
  EXPECT_EQ(cfg.merge_block(B("header")), B("loop_merge"));
  EXPECT_EQ(cfg.continue_target(B("header")), B("continue"));
  EXPECT_EQ(cfg.merge_kind(B("body")), MergeKind::kNone);
  // Switch: default first, then the cases in order; %case3 (two literals) once.
  EXPECT_EQ(ToVector(cfg.Successors(B("h_body"))),
            (V{B("sw_default"), B("case1"), B("case2"), B("case3")}));
  EXPECT_EQ(ToVector(cfg.Predecessors(B("case3"))), (V{B("h_body")}));
  EXPECT_EQ(ToVector(cfg.Predecessors(B("sw_merge"))),
            (V{B("case1"), B("case2"), B("case3"), B("sw_default")}));
  EXPECT_EQ(cfg.merge_kind(B("h_body")), MergeKind::kSelection);
  EXPECT_EQ(cfg.merge_block(B("h_body")), B("sw_merge"));
  EXPECT_EQ(cfg.continue_target(B("h_body")), kNone);
  // Early return: the merge of the h_entry selection is also a branch target.
  EXPECT_EQ(ToVector(cfg.Successors(B("h_entry"))), (V{B("early"), B("h_body")}));
  EXPECT_EQ(cfg.merge_block(B("h_entry")), B("h_body"));
  EXPECT_TRUE(cfg.Successors(B("early")).empty());
  EXPECT_TRUE(cfg.Successors(B("sw_merge")).empty());
  // The infinite loop and its unreachable merge.
  EXPECT_EQ(ToVector(cfg.Successors(B("s_entry"))), (V{B("s_ret"), B("spin")}));
  EXPECT_EQ(ToVector(cfg.Successors(B("spin_body"))), (V{B("spin")}));
  EXPECT_EQ(cfg.merge_kind(B("spin")), MergeKind::kLoop);
  EXPECT_EQ(cfg.merge_block(B("spin")), B("spin_merge"));
  EXPECT_EQ(cfg.continue_target(B("spin")), B("spin_body"));
  EXPECT_TRUE(cfg.Predecessors(B("spin_merge")).empty());
  EXPECT_TRUE(cfg.bad_targets().empty());

  // Successor and predecessor lists mirror each other.
  size_t edges = 0;
  for (uint32_t b = 0; b < m.blocks().size(); ++b) {
    for (uint32_t t : cfg.Successors(b)) {
      ++edges;
      EXPECT_EQ(m.blocks()[t].function, m.blocks()[b].function);
      const auto preds = cfg.Predecessors(t);
      EXPECT_EQ(std::count(preds.begin(), preds.end(), b), 1);
    }
  }
  size_t pred_edges = 0;
  for (uint32_t b = 0; b < m.blocks().size(); ++b) pred_edges += cfg.Predecessors(b).size();
  EXPECT_EQ(edges, pred_edges);
  EXPECT_EQ(edges, 23u);
}

TEST(IrCfg, ConditionalBranchToOneLabelIsOneEdge) {
  Asm s(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%bool = OpTypeBool
%true = OpConstantTrue %bool
%fn = OpTypeFunction %void
%f = OpFunction %void None %fn
%e = OpLabel
OpSelectionMerge %m None
OpBranchConditional %true %m %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  const Cfg& cfg = s.module->cfg();
  EXPECT_EQ(ToVector(cfg.Successors(s.block("e"))), (std::vector<uint32_t>{s.block("m")}));
  EXPECT_EQ(ToVector(cfg.Predecessors(s.block("m"))), (std::vector<uint32_t>{s.block("e")}));
  EXPECT_EQ(s.module->dominators().Idom(s.block("m")), s.block("e"));
  EXPECT_EQ(s.module->post_dominators().Idom(s.block("e")), s.block("m"));
}

TEST(IrCfg, ReversePostorderAndReachability) {
  Asm s(kShader);
  const Module& m = *s.module;
  const Cfg& cfg = m.cfg();
  const DominatorTree& dom = m.dominators();
  const size_t expected_sizes[] = {8, 8, 4};  // helper: %dead; spin_fn: %spin_merge.
  for (uint32_t f = 0; f < 3; ++f) {
    SCOPED_TRACE(f);
    const Function& fn = m.functions()[f];
    const auto rpo = cfg.ReversePostorder(f);
    ASSERT_EQ(rpo.size(), expected_sizes[f]);
    EXPECT_EQ(rpo[0], fn.first_block);  // The entry first.
    std::vector<uint32_t> position(m.blocks().size(), kNone);
    for (uint32_t k = 0; k < rpo.size(); ++k) {
      ASSERT_GE(rpo[k], fn.first_block);
      ASSERT_LT(rpo[k], fn.first_block + fn.num_blocks);
      EXPECT_EQ(position[rpo[k]], kNone) << "listed twice: " << rpo[k];
      position[rpo[k]] = k;
      EXPECT_TRUE(cfg.Reachable(rpo[k]));
    }
    for (uint32_t b = fn.first_block; b < fn.first_block + fn.num_blocks; ++b) {
      EXPECT_EQ(cfg.Reachable(b), position[b] != kNone) << b;
      if (position[b] == kNone) continue;
      // Each block after its dominator; each forward edge (not to a dominator) goes forward.
      if (b != fn.first_block) {
        EXPECT_LT(position[dom.Idom(b)], position[b]) << b;
      }
      for (uint32_t t : cfg.Successors(b)) {
        if (!dom.Dominates(t, b)) {
          EXPECT_LT(position[b], position[t]) << b << " -> " << t;
        }
      }
    }
  }
  EXPECT_FALSE(cfg.Reachable(s.block("dead")));
  EXPECT_FALSE(cfg.Reachable(s.block("spin_merge")));
  EXPECT_TRUE(cfg.Reachable(s.block("early")));
  EXPECT_TRUE(cfg.Reachable(s.block("spin_body")));
  EXPECT_TRUE(cfg.Reachable(s.block("continue")));
  // Within the loop: header, body, then continue after the body.
  const auto rpo = cfg.ReversePostorder(0);
  auto pos = [&](const char* name) {
    return std::find(rpo.begin(), rpo.end(), s.block(name)) - rpo.begin();
  };
  EXPECT_LT(pos("merge"), pos("header"));
  EXPECT_LT(pos("header"), pos("body"));
  EXPECT_LT(pos("body"), pos("continue"));
  EXPECT_LT(pos("body"), pos("loop_merge"));
  EXPECT_LT(pos("then"), pos("merge"));
  EXPECT_LT(pos("else"), pos("merge"));
}

TEST(IrCfg, BranchesOutOfTheFunctionAreBadTargets) {
  Asm s(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%bool = OpTypeBool
%true = OpConstantTrue %bool
%fn = OpTypeFunction %void
%f1 = OpFunction %void None %fn
%l1 = OpLabel
OpBranch %l2
%l1b = OpLabel
OpSelectionMerge %l2b None
OpBranchConditional %true %l1c %true
%l1c = OpLabel
OpReturn
OpFunctionEnd
%f2 = OpFunction %void None %fn
%l2 = OpLabel
OpLoopMerge %l1c %l2b None
OpBranchConditional %true %l2b %l1
%l2b = OpLabel
OpBranch %l2
OpFunctionEnd
)");
  const Module& m = *s.module;
  const Cfg& cfg = m.cfg();
  const InstIndex br1 = m.blocks()[s.block("l1")].end - 1;
  const InstIndex merge1b = m.blocks()[s.block("l1b")].end - 2;
  const InstIndex br1b = m.blocks()[s.block("l1b")].end - 1;
  const InstIndex loop2 = m.blocks()[s.block("l2")].end - 2;
  const InstIndex br2 = m.blocks()[s.block("l2")].end - 1;
  ASSERT_EQ(m.opcode(br1), Op::Branch);
  ASSERT_EQ(m.opcode(merge1b), Op::SelectionMerge);
  ASSERT_EQ(m.opcode(loop2), Op::LoopMerge);
  std::vector<std::pair<InstIndex, uint16_t>> bad(cfg.bad_targets().begin(),
                                                  cfg.bad_targets().end());
  std::sort(bad.begin(), bad.end());
  // %l2 and %l2b (other function), %true (not a label), %l1c and %l1 (other function).
  std::vector<std::pair<InstIndex, uint16_t>> expected = {
      {br1, 0}, {merge1b, 0}, {br1b, 2}, {loop2, 0}, {br2, 2}};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(bad, expected);
  // Bad targets make no edges; the good ones remain.
  EXPECT_TRUE(cfg.Successors(s.block("l1")).empty());
  EXPECT_EQ(ToVector(cfg.Successors(s.block("l1b"))), (std::vector<uint32_t>{s.block("l1c")}));
  EXPECT_EQ(ToVector(cfg.Successors(s.block("l2"))), (std::vector<uint32_t>{s.block("l2b")}));
  EXPECT_EQ(ToVector(cfg.Predecessors(s.block("l2"))), (std::vector<uint32_t>{s.block("l2b")}));
  EXPECT_EQ(ToVector(cfg.Predecessors(s.block("l1"))), (std::vector<uint32_t>{}));
  // Merges naming another function's label are dropped, the good continue target kept.
  EXPECT_EQ(cfg.merge_kind(s.block("l1b")), MergeKind::kSelection);
  EXPECT_EQ(cfg.merge_block(s.block("l1b")), kNone);
  EXPECT_EQ(cfg.merge_kind(s.block("l2")), MergeKind::kLoop);
  EXPECT_EQ(cfg.merge_block(s.block("l2")), kNone);
  EXPECT_EQ(cfg.continue_target(s.block("l2")), s.block("l2b"));
  // Only f1's entry is reachable in f1.
  EXPECT_TRUE(cfg.Reachable(s.block("l1")));
  EXPECT_FALSE(cfg.Reachable(s.block("l1b")));
  EXPECT_FALSE(cfg.Reachable(s.block("l1c")));
  EXPECT_EQ(cfg.ReversePostorder(0).size(), 1u);
  EXPECT_EQ(cfg.ReversePostorder(1).size(), 2u);
  // The dominator trees build.
  EXPECT_EQ(m.dominators().Idom(s.block("l2b")), s.block("l2"));
  EXPECT_FALSE(m.dominators().InTree(s.block("l1c")));
}

// ---------------------------------------------------------------------------------------------
// Dominators and post-dominators.

TEST(IrDominators, DiamondLoopSwitch) {
  Asm s(kShader);
  const Module& m = *s.module;
  const DominatorTree& dom = m.dominators();
  auto B = [&](const char* name) { return s.block(name); };
  auto idom = [&](const char* name) { return dom.Idom(B(name)); };
  // Diamond.
  EXPECT_EQ(idom("entry"), kNone);
  EXPECT_EQ(idom("then"), B("entry"));
  EXPECT_EQ(idom("else"), B("entry"));
  EXPECT_EQ(idom("merge"), B("entry"));
  EXPECT_TRUE(dom.Dominates(B("entry"), B("merge")));
  EXPECT_FALSE(dom.Dominates(B("then"), B("merge")));
  EXPECT_FALSE(dom.Dominates(B("else"), B("merge")));
  EXPECT_FALSE(dom.Dominates(B("then"), B("else")));
  EXPECT_FALSE(dom.Dominates(B("merge"), B("entry")));
  // Loop.
  EXPECT_EQ(idom("header"), B("merge"));
  EXPECT_EQ(idom("body"), B("header"));
  EXPECT_EQ(idom("continue"), B("body"));
  EXPECT_EQ(idom("loop_merge"), B("body"));
  EXPECT_TRUE(dom.Dominates(B("header"), B("continue")));
  EXPECT_FALSE(dom.Dominates(B("continue"), B("header")));
  EXPECT_FALSE(dom.Dominates(B("continue"), B("loop_merge")));
  // Every reachable block is dominated by the entry and by itself.
  for (const char* name : kMainBlocks) {
    EXPECT_TRUE(dom.InTree(B(name))) << name;
    EXPECT_TRUE(dom.Dominates(B("entry"), B(name))) << name;
    EXPECT_TRUE(dom.Dominates(B(name), B(name))) << name;
  }
  // Switch and early return.
  EXPECT_EQ(idom("h_entry"), kNone);
  EXPECT_EQ(idom("early"), B("h_entry"));
  EXPECT_EQ(idom("h_body"), B("h_entry"));
  for (const char* name : {"case1", "case2", "case3", "sw_default", "sw_merge"}) {
    EXPECT_EQ(idom(name), B("h_body")) << name;
  }
  EXPECT_FALSE(dom.Dominates(B("case1"), B("sw_merge")));
  EXPECT_TRUE(dom.Dominates(B("h_body"), B("sw_merge")));
  EXPECT_FALSE(dom.Dominates(B("early"), B("h_body")));
  // Unreachable blocks are not in the tree.
  EXPECT_FALSE(dom.InTree(B("dead")));
  EXPECT_EQ(idom("dead"), kNone);
  EXPECT_FALSE(dom.Dominates(B("h_entry"), B("dead")));
  EXPECT_FALSE(dom.Dominates(B("dead"), B("dead")));
  EXPECT_FALSE(dom.InTree(B("spin_merge")));
  EXPECT_FALSE(dom.Dominates(B("spin"), B("spin_merge")));
  // Infinite loop.
  EXPECT_EQ(idom("spin"), B("s_entry"));
  EXPECT_EQ(idom("spin_body"), B("spin"));
  EXPECT_EQ(idom("s_ret"), B("s_entry"));
  // No dominance across functions.
  EXPECT_FALSE(dom.Dominates(B("entry"), B("h_entry")));
  EXPECT_TRUE(dom.Dominates(B("h_entry"), B("case1")));
  EXPECT_FALSE(dom.Dominates(B("s_entry"), B("loop_merge")));
}

// Dominates (interval numbers) agrees with the Idom chains for every pair of blocks, across
// functions too, in both trees.
TEST(IrDominators, DominatesMatchesIdomChains) {
  Asm s(kShader);
  const Module& m = *s.module;
  const uint32_t n = static_cast<uint32_t>(m.blocks().size());
  for (const DominatorTree* tree : {&m.dominators(), &m.post_dominators()}) {
    for (uint32_t b = 0; b < n; ++b) {
      std::vector<bool> above(n, false);
      if (tree->InTree(b)) {
        for (uint32_t x = b; x != DominatorTree::kNone; x = tree->Idom(x)) above[x] = true;
      }
      for (uint32_t a = 0; a < n; ++a) {
        EXPECT_EQ(tree->Dominates(a, b), above[a] && tree->InTree(a)) << a << " over " << b;
      }
    }
  }
}

TEST(IrDominators, PostDominators) {
  Asm s(kShader);
  const Module& m = *s.module;
  const DominatorTree& pdom = m.post_dominators();
  auto B = [&](const char* name) { return s.block(name); };
  auto ipdom = [&](const char* name) { return pdom.Idom(B(name)); };
  // The merge post-dominates both arms; a branch block's immediate post-dominator is its merge.
  EXPECT_TRUE(pdom.Dominates(B("merge"), B("then")));
  EXPECT_TRUE(pdom.Dominates(B("merge"), B("else")));
  EXPECT_FALSE(pdom.Dominates(B("then"), B("entry")));
  EXPECT_EQ(ipdom("entry"), B("merge"));
  EXPECT_EQ(ipdom("then"), B("merge"));
  EXPECT_EQ(ipdom("else"), B("merge"));
  EXPECT_EQ(ipdom("merge"), B("header"));
  EXPECT_EQ(ipdom("header"), B("body"));
  EXPECT_EQ(ipdom("continue"), B("header"));
  EXPECT_EQ(ipdom("body"), B("loop_merge"));
  EXPECT_EQ(ipdom("loop_merge"), kNone);  // The exit.
  EXPECT_TRUE(pdom.InTree(B("loop_merge")));
  for (const char* name : kMainBlocks) {
    EXPECT_TRUE(pdom.Dominates(B("loop_merge"), B(name))) << name;
  }
  EXPECT_FALSE(pdom.Dominates(B("continue"), B("body")));

  // Two returns: both are roots under the virtual exit, so the entry has no post-dominator
  // block but is in the tree.
  EXPECT_EQ(ipdom("early"), kNone);
  EXPECT_EQ(ipdom("sw_merge"), kNone);
  EXPECT_TRUE(pdom.InTree(B("early")));
  EXPECT_TRUE(pdom.InTree(B("sw_merge")));
  EXPECT_EQ(ipdom("h_entry"), kNone);
  EXPECT_TRUE(pdom.InTree(B("h_entry")));
  EXPECT_FALSE(pdom.Dominates(B("sw_merge"), B("h_entry")));
  EXPECT_FALSE(pdom.Dominates(B("early"), B("h_entry")));
  EXPECT_EQ(ipdom("h_body"), B("sw_merge"));
  for (const char* name : {"case1", "case2", "case3", "sw_default"}) {
    EXPECT_EQ(ipdom(name), B("sw_merge")) << name;
    EXPECT_TRUE(pdom.Dominates(B("sw_merge"), B(name))) << name;
    EXPECT_FALSE(pdom.Dominates(B(name), B("h_body"))) << name;
  }
  EXPECT_FALSE(pdom.InTree(B("dead")));  // Unreachable, and no way in.

  // The infinite loop cannot reach the exit: no post-dominators.
  EXPECT_FALSE(pdom.InTree(B("spin")));
  EXPECT_FALSE(pdom.InTree(B("spin_body")));
  EXPECT_EQ(ipdom("spin"), kNone);
  EXPECT_EQ(ipdom("spin_body"), kNone);
  EXPECT_FALSE(pdom.Dominates(B("s_ret"), B("spin")));
  EXPECT_FALSE(pdom.Dominates(B("spin"), B("spin")));
  EXPECT_EQ(ipdom("s_entry"), B("s_ret"));
  EXPECT_TRUE(pdom.Dominates(B("s_ret"), B("s_entry")));
  EXPECT_FALSE(pdom.InTree(B("spin_merge")));
  // Across functions.
  EXPECT_FALSE(pdom.Dominates(B("loop_merge"), B("h_entry")));
  EXPECT_FALSE(pdom.Dominates(B("sw_merge"), B("s_entry")));
}

TEST(IrDominators, AFunctionWithoutExitHasNoPostDominators) {
  Asm s(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpFunction %void None %fn
%e = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %m %h None
OpBranch %h
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  const Module& m = *s.module;
  // %m returns but is unreachable, so it is no exit.
  EXPECT_FALSE(m.cfg().Reachable(s.block("m")));
  for (const char* name : {"e", "h", "m"}) {
    EXPECT_FALSE(m.post_dominators().InTree(s.block(name))) << name;
    EXPECT_EQ(m.post_dominators().Idom(s.block(name)), kNone) << name;
  }
  EXPECT_EQ(m.dominators().Idom(s.block("h")), s.block("e"));
  EXPECT_EQ(ToVector(m.cfg().Predecessors(s.block("h"))),
            (std::vector<uint32_t>{s.block("e"), s.block("h")}));
}

// analyses.h: "blocks that cannot reach it (infinite loops) and unreachable blocks have no
// immediate (post-)dominator". An unreachable block without a return has no post-dominator
// only when nothing reachable follows it: the post-dominator DFS walks predecessors, which
// include unreachable blocks, so %u below (unreachable, branching to the reachable %m) gets
// %m as its immediate post-dominator, and Dominates(%m, %u) is true.
TEST(IrDominators, UnreachableBlockBranchingIntoReachableCodeHasNoPostDominator) {
  Asm s(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpFunction %void None %fn
%e = OpLabel
OpBranch %m
%u = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  const Module& m = *s.module;
  ASSERT_FALSE(m.cfg().Reachable(s.block("u")));
  EXPECT_FALSE(m.dominators().InTree(s.block("u")));
  EXPECT_EQ(m.post_dominators().Idom(s.block("u")), kNone);
  EXPECT_FALSE(m.post_dominators().InTree(s.block("u")));
  EXPECT_FALSE(m.post_dominators().Dominates(s.block("m"), s.block("u")));
}

// What the post-dominator tree does give the reachable blocks of that function.
TEST(IrDominators, UnreachablePredecessorDoesNotDisturbReachableBlocks) {
  Asm s(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpFunction %void None %fn
%e = OpLabel
OpBranch %m
%u = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  const Module& m = *s.module;
  EXPECT_EQ(m.post_dominators().Idom(s.block("e")), s.block("m"));
  EXPECT_EQ(m.post_dominators().Idom(s.block("m")), kNone);
  EXPECT_EQ(m.dominators().Idom(s.block("m")), s.block("e"));
  EXPECT_EQ(ToVector(m.cfg().Predecessors(s.block("m"))),
            (std::vector<uint32_t>{s.block("e"), s.block("u")}));
}

// Large control flow: 50,000 blocks in a chain, and nested diamonds 16,667 deep. Building both
// trees must be near-linear and must not recurse per block.
TEST(IrDominators, LongChain) {
  constexpr int kBlocks = 50000;
  std::string text = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpFunction %void None %fn
)";
  for (int i = 0; i < kBlocks; ++i) {
    text += "%b" + std::to_string(i) + " = OpLabel\n";
    text += i + 1 < kBlocks ? "OpBranch %b" + std::to_string(i + 1) + "\n" : "OpReturn\n";
  }
  text += "OpFunctionEnd\n";
  Asm s(text);
  const Module& m = *s.module;
  ASSERT_EQ(m.blocks().size(), static_cast<size_t>(kBlocks));
  const auto start = std::chrono::steady_clock::now();
  const DominatorTree& dom = m.dominators();
  const DominatorTree& pdom = m.post_dominators();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("dominators_seconds", std::to_string(seconds));
  // Block k is %b<k>.
  ASSERT_EQ(s.block("b0"), 0u);
  ASSERT_EQ(s.block("b49999"), static_cast<uint32_t>(kBlocks - 1));
  EXPECT_EQ(m.cfg().ReversePostorder(0).size(), static_cast<size_t>(kBlocks));
  for (uint32_t b = 0; b < kBlocks; ++b) {
    ASSERT_EQ(m.cfg().ReversePostorder(0)[b], b);
    ASSERT_EQ(dom.Idom(b), b == 0 ? kNone : b - 1) << b;
    ASSERT_EQ(pdom.Idom(b), b + 1 == kBlocks ? kNone : b + 1) << b;
  }
  EXPECT_TRUE(dom.Dominates(0, kBlocks - 1));
  EXPECT_TRUE(dom.Dominates(12345, 40000));
  EXPECT_FALSE(dom.Dominates(40000, 12345));
  EXPECT_TRUE(pdom.Dominates(kBlocks - 1, 0));
  EXPECT_TRUE(pdom.Dominates(40000, 12345));
  EXPECT_FALSE(pdom.Dominates(12345, 40000));
}

TEST(IrDominators, DeeplyNestedDiamonds) {
  // h<i>: selection with merge m<i>, branching to h<i+1> (the nested diamond) or e<i>.
  // h<D> branches to m<D-1>; m<i> branches to m<i-1>; m0 returns.
  constexpr int kDepth = 16667;
  std::string text = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%bool = OpTypeBool
%c = OpConstantTrue %bool
%fn = OpTypeFunction %void
%f = OpFunction %void None %fn
)";
  auto n = [](const char* prefix, int i) { return std::string(prefix) + std::to_string(i); };
  for (int i = 0; i < kDepth; ++i) {
    text += "%" + n("h", i) + " = OpLabel\nOpSelectionMerge %" + n("m", i) +
            " None\nOpBranchConditional %c %" + n("h", i + 1) + " %" + n("e", i) + "\n";
    text += "%" + n("e", i) + " = OpLabel\nOpBranch %" + n("m", i) + "\n";
  }
  text += "%" + n("h", kDepth) + " = OpLabel\nOpBranch %" + n("m", kDepth - 1) + "\n";
  for (int i = kDepth - 1; i >= 0; --i) {
    text += "%" + n("m", i) + " = OpLabel\n";
    text += i > 0 ? "OpBranch %" + n("m", i - 1) + "\n" : "OpReturn\n";
  }
  text += "OpFunctionEnd\n";
  Asm s(text);
  const Module& m = *s.module;
  ASSERT_EQ(m.blocks().size(), static_cast<size_t>(3 * kDepth + 1));
  const DominatorTree& dom = m.dominators();
  const DominatorTree& pdom = m.post_dominators();
  EXPECT_EQ(m.cfg().ReversePostorder(0).size(), m.blocks().size());
  for (int i = 0; i < kDepth; ++i) {
    const uint32_t h = s.block(n("h", i)), e = s.block(n("e", i)), mi = s.block(n("m", i));
    const uint32_t inner = s.block(n("h", i + 1));
    ASSERT_EQ(dom.Idom(inner), h) << i;
    ASSERT_EQ(dom.Idom(e), h) << i;
    ASSERT_EQ(dom.Idom(mi), h) << i;
    ASSERT_EQ(pdom.Idom(h), mi) << i;
    ASSERT_EQ(pdom.Idom(e), mi) << i;
    ASSERT_EQ(pdom.Idom(mi), i > 0 ? s.block(n("m", i - 1)) : kNone) << i;
    ASSERT_EQ(m.cfg().merge_block(h), mi);
  }
  EXPECT_EQ(pdom.Idom(s.block(n("h", kDepth))), s.block(n("m", kDepth - 1)));
  const uint32_t deepest = s.block(n("h", kDepth));
  EXPECT_TRUE(dom.Dominates(s.block("h0"), deepest));
  EXPECT_TRUE(dom.Dominates(s.block("h100"), deepest));
  EXPECT_FALSE(dom.Dominates(s.block("e100"), deepest));
  EXPECT_FALSE(dom.Dominates(s.block("m100"), s.block("m99")));
  EXPECT_TRUE(dom.Dominates(s.block("h99"), s.block("m100")));
  EXPECT_TRUE(pdom.Dominates(s.block("m0"), deepest));
  EXPECT_TRUE(pdom.Dominates(s.block("m100"), s.block("e5000")));
  EXPECT_FALSE(pdom.Dominates(s.block("m5000"), s.block("e100")));
}

// ---------------------------------------------------------------------------------------------
// TypeTable.

constexpr char kTypes[] = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%uint_dup = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4uint = OpTypeVector %uint 4
%v3uint = OpTypeVector %uint 3
%v4uint_dup = OpTypeVector %uint 4
%v4uint_of_dup = OpTypeVector %uint_dup 4
%s1 = OpTypeStruct %uint %float
%s2 = OpTypeStruct %uint %float
%ptr = OpTypePointer Private %s1
%uint_5 = OpConstant %uint 5
%int_5 = OpConstant %int 5
%uint_5_dup = OpConstant %uint 5
%uint_6 = OpConstant %uint 6
%true = OpConstantTrue %bool
%true_dup = OpConstantTrue %bool
%false = OpConstantFalse %bool
%vc = OpConstantComposite %v4uint %uint_5 %uint_5 %uint_6 %uint_6
%vc_dup = OpConstantComposite %v4uint %uint_5 %uint_5 %uint_6 %uint_6
%vc_other = OpConstantComposite %v4uint %uint_5 %uint_6 %uint_5 %uint_6
%null = OpConstantNull %v4uint
%null_dup = OpConstantNull %v4uint
%spec = OpSpecConstant %uint 5
%spec_dup = OpSpecConstant %uint 5
%var = OpVariable %ptr Private
)";

TEST(IrTypes, Canonical) {
  Asm s(kTypes);
  const TypeTable& types = s.module->types();
  auto canonical = [&](const char* name) { return types.Canonical(s.id(name)); };
  for (const char* first : {"void", "bool", "uint", "int", "float", "v4uint", "v3uint", "uint_5",
                            "int_5", "uint_6", "true", "false", "vc", "vc_other", "null"}) {
    EXPECT_EQ(canonical(first), s.id(first)) << first;
  }
  EXPECT_EQ(canonical("uint_dup"), s.id("uint"));
  EXPECT_EQ(canonical("v4uint_dup"), s.id("v4uint"));
  EXPECT_EQ(canonical("uint_5_dup"), s.id("uint_5"));
  EXPECT_EQ(canonical("true_dup"), s.id("true"));
  EXPECT_EQ(canonical("vc_dup"), s.id("vc"));
  EXPECT_EQ(canonical("null_dup"), s.id("null"));
  // Declarations compare by their words: a vector of the duplicate int is another declaration.
  EXPECT_EQ(canonical("v4uint_of_dup"), s.id("v4uint_of_dup"));
  // Structs are their own canonical ids.
  EXPECT_EQ(canonical("s1"), s.id("s1"));
  EXPECT_EQ(canonical("s2"), s.id("s2"));
  EXPECT_EQ(canonical("ptr"), s.id("ptr"));
  // Spec constants are never merged; variables are neither types nor constants.
  EXPECT_NE(canonical("spec_dup"), s.id("spec"));
  EXPECT_EQ(canonical("var"), 0u);
  EXPECT_EQ(types.Canonical(0), 0u);
  EXPECT_EQ(types.Canonical(s.module->bound()), 0u);
  EXPECT_EQ(types.Canonical(0xFFFFFFFFu), 0u);
}

TEST(IrTypes, Find) {
  Asm s(kTypes);
  const TypeTable& types = s.module->types();
  using W = std::vector<uint32_t>;
  auto find = [&](Op op, const W& words) { return types.Find(op, words); };
  EXPECT_EQ(find(Op::TypeVoid, {}), s.id("void"));
  EXPECT_EQ(find(Op::TypeBool, {}), s.id("bool"));
  EXPECT_EQ(find(Op::TypeInt, {32, 0}), s.id("uint"));
  EXPECT_EQ(find(Op::TypeInt, {32, 1}), s.id("int"));
  EXPECT_EQ(find(Op::TypeInt, {64, 0}), 0u);
  EXPECT_EQ(find(Op::TypeInt, {32}), 0u);
  EXPECT_EQ(find(Op::TypeInt, {32, 0, 0}), 0u);
  EXPECT_EQ(find(Op::TypeFloat, {32, 0}), 0u);
  EXPECT_EQ(find(Op::TypeFloat, {32}), s.id("float"));
  EXPECT_EQ(find(Op::TypeVector, {s.id("uint"), 4}), s.id("v4uint"));
  EXPECT_EQ(find(Op::TypeVector, {s.id("uint"), 3}), s.id("v3uint"));
  EXPECT_EQ(find(Op::TypeVector, {s.id("uint_dup"), 4}), s.id("v4uint_of_dup"));
  EXPECT_EQ(find(Op::TypeVector, {s.id("int"), 4}), 0u);
  EXPECT_EQ(find(Op::TypePointer, {6 /* Private */, s.id("s1")}), s.id("ptr"));
  EXPECT_EQ(find(Op::TypePointer, {6, s.id("s2")}), 0u);
  EXPECT_EQ(find(Op::TypeMatrix, {s.id("v4uint"), 4}), 0u);
  // Constants: the result type first.
  EXPECT_EQ(find(Op::Constant, {s.id("uint"), 5}), s.id("uint_5"));
  EXPECT_EQ(find(Op::Constant, {s.id("int"), 5}), s.id("int_5"));
  EXPECT_EQ(find(Op::Constant, {s.id("uint"), 6}), s.id("uint_6"));
  EXPECT_EQ(find(Op::Constant, {s.id("uint"), 7}), 0u);
  EXPECT_EQ(find(Op::Constant, {s.id("uint")}), 0u);
  EXPECT_EQ(find(Op::Constant, {}), 0u);
  EXPECT_EQ(find(Op::ConstantTrue, {s.id("bool")}), s.id("true"));
  EXPECT_EQ(find(Op::ConstantFalse, {s.id("bool")}), s.id("false"));
  EXPECT_EQ(find(Op::ConstantNull, {s.id("v4uint")}), s.id("null"));
  EXPECT_EQ(find(Op::ConstantNull, {s.id("uint")}), 0u);
  const Id u5 = s.id("uint_5"), u6 = s.id("uint_6");
  EXPECT_EQ(find(Op::ConstantComposite, {s.id("v4uint"), u5, u5, u6, u6}), s.id("vc"));
  EXPECT_EQ(find(Op::ConstantComposite, {s.id("v4uint"), u5, u6, u5, u6}), s.id("vc_other"));
  EXPECT_EQ(find(Op::ConstantComposite, {s.id("v4uint"), u6, u6, u5, u5}), 0u);
  // The opcode is part of the key.
  EXPECT_EQ(find(Op::SpecConstant, {s.id("uint"), 5}), 0u);
  EXPECT_EQ(find(Op::ConstantComposite, {s.id("uint"), 5}), 0u);
}

TEST(IrTypes, ManyConstants) {
  // 1,000 distinct constants, each declared twice, interleaved with more types.
  std::string text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%uint = OpTypeInt 32 0\n";
  constexpr int kCount = 1000;
  for (int i = 0; i < kCount; ++i)
    text += "%c" + std::to_string(i) + " = OpConstant %uint " + std::to_string(i * 7919) + "\n";
  for (int i = 0; i < kCount; ++i) {
    text += "%d" + std::to_string(i) + " = OpConstant %uint " + std::to_string(i * 7919) + "\n";
    text += "%a" + std::to_string(i) + " = OpTypeArray %uint %c" + std::to_string(i) + "\n";
  }
  Asm s(text);
  const TypeTable& types = s.module->types();
  for (int i = 0; i < kCount; ++i) {
    const std::string k = std::to_string(i);
    ASSERT_EQ(types.Canonical(s.id("c" + k)), s.id("c" + k)) << i;
    ASSERT_EQ(types.Canonical(s.id("d" + k)), s.id("c" + k)) << i;
    ASSERT_EQ(types.Canonical(s.id("a" + k)), s.id("a" + k)) << i;
    ASSERT_EQ(types.Find(Op::Constant,
                         std::vector<uint32_t>{s.id("uint"), static_cast<uint32_t>(i * 7919)}),
              s.id("c" + k))
        << i;
    ASSERT_EQ(types.Find(Op::TypeArray, std::vector<uint32_t>{s.id("uint"), s.id("c" + k)}),
              s.id("a" + k))
        << i;
  }
  EXPECT_EQ(types.Find(Op::Constant, std::vector<uint32_t>{s.id("uint"), 1}), 0u);
}

// ---------------------------------------------------------------------------------------------
// Builder.

// Ids: %main 1, %x 2, %y 3, %void 4, %uint 5, %fn 6, %uint_1 7, %uint_2 8, %entry 9, %z 10.
constexpr char kSmall[] = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpName %x "x"
OpName %y "y"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %void
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIAdd %uint %uint_1 %uint_2
%y = OpIMul %uint %x %x
%z = OpISub %uint %y %x
OpReturn
OpFunctionEnd
)";

constexpr char kSmallPrefix[] = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpName %x "x"
OpName %y "y"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%6 = OpTypeFunction %void
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
)";

std::unique_ptr<Module> FinishOrDie(Builder& builder) {
  Diagnostic d;
  auto m = builder.Finish(&d);
  EXPECT_NE(m, nullptr) << d.ToString();
  return m;
}

TEST(IrBuilder, NoEditsIsTheIdentity) {
  Asm s(kSmall);
  ASSERT_EQ(s.module->bound(), 11u);
  Builder builder(*s.module);
  EXPECT_EQ(&builder.module(), s.module.get());
  auto out = FinishOrDie(builder);
  ASSERT_NE(out, nullptr);
  EXPECT_NE(out.get(), s.module.get());
  EXPECT_TRUE(std::equal(out->words().begin(), out->words().end(), s.words.begin(), s.words.end()));
  // The disassembly as expected (and friendly names as the tests below rely on).
  EXPECT_EQ(Disassemble(out->words()),
            std::string(kSmallPrefix) + R"(%main = OpFunction %void None %6
%9 = OpLabel
%x = OpIAdd %uint %uint_1 %uint_2
%y = OpIMul %uint %x %x
%10 = OpISub %uint %y %x
OpReturn
OpFunctionEnd
)");
}

TEST(IrBuilder, AddWithFreshIdsBeforeFunctions) {
  Asm s(kSmall);
  Builder builder(*s.module);
  builder.SetInsertBeforeFunctions();
  EXPECT_EQ(builder.Add(Op::Constant, s.id("uint"), {3}), 11u);
  EXPECT_EQ(builder.Add(Op::Constant, s.id("uint"), {4}), 12u);
  const Id fresh = builder.FreshId();
  EXPECT_EQ(fresh, 13u);
  EXPECT_EQ(builder.Add(Op::Constant, s.id("uint"), {5}, fresh), fresh);
  // A fresh id for an instruction added later in the function.
  builder.SetInsertBefore(s.def("z"));
  const Id w = builder.Add(Op::IAdd, s.id("uint"), {11, 12});
  EXPECT_EQ(w, 14u);
  // The original is untouched.
  EXPECT_EQ(s.module->bound(), 11u);
  auto out = FinishOrDie(builder);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->bound(), 15u);
  EXPECT_EQ(out->num_instructions(), s.module->num_instructions() + 4);
  EXPECT_EQ(out->DefOpcode(13), Op::Constant);
  EXPECT_EQ(out->FunctionOf(out->Def(13)), kNone);
  EXPECT_EQ(out->FunctionOf(out->Def(14)), 0u);
  EXPECT_EQ(Disassemble(out->words()), std::string(kSmallPrefix) + R"(%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_5 = OpConstant %uint 5
%main = OpFunction %void None %6
%9 = OpLabel
%x = OpIAdd %uint %uint_1 %uint_2
%y = OpIMul %uint %x %x
%14 = OpIAdd %uint %uint_3 %uint_4
%10 = OpISub %uint %y %x
OpReturn
OpFunctionEnd
)");
}

TEST(IrBuilder, InsertionOrderAtEachAnchor) {
  Asm s(kSmall);
  Builder builder(*s.module);
  const Id uint = s.id("uint"), one = s.id("uint_1");
  builder.SetInsertAfter(s.def("x"));
  const Id a1 = builder.Add(Op::IAdd, uint, {s.id("x"), one});
  const Id a2 = builder.Add(Op::IAdd, uint, {a1, one});
  builder.SetInsertBefore(s.def("z"));
  const Id b1 = builder.Add(Op::IMul, uint, {a2, one});
  builder.SetInsertBefore(s.def("y"));
  const Id c1 = builder.Add(Op::ISub, uint, {a2, one});
  builder.SetInsertAfter(s.def("x"));  // Back to the first anchor: after a2.
  const Id a3 = builder.Add(Op::IAdd, uint, {a2, one});
  builder.SetInsertBefore(s.def("z"));
  const Id b2 = builder.Add(Op::IMul, uint, {b1, one});
  builder.SetInsertAfter(s.def("z"));
  const Id after_z = builder.Add(Op::Not, uint, {s.id("z")});
  EXPECT_EQ(std::vector<Id>({a1, a2, b1, c1, a3, b2, after_z}),
            std::vector<Id>({11, 12, 13, 14, 15, 16, 17}));
  auto out = FinishOrDie(builder);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(Disassemble(out->words(), false),
            R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %1 "main"
OpExecutionMode %1 LocalSize 1 1 1
OpName %1 "main"
OpName %2 "x"
OpName %3 "y"
%4 = OpTypeVoid
%5 = OpTypeInt 32 0
%6 = OpTypeFunction %4
%7 = OpConstant %5 1
%8 = OpConstant %5 2
%1 = OpFunction %4 None %6
%9 = OpLabel
%2 = OpIAdd %5 %7 %8
%11 = OpIAdd %5 %2 %7
%12 = OpIAdd %5 %11 %7
%15 = OpIAdd %5 %12 %7
%14 = OpISub %5 %12 %7
%3 = OpIMul %5 %2 %2
%13 = OpIMul %5 %12 %7
%16 = OpIMul %5 %13 %7
%10 = OpISub %5 %3 %2
%17 = OpNot %5 %10
OpReturn
OpFunctionEnd
)");
  EXPECT_EQ(out->bound(), 18u);
  EXPECT_EQ(out->blocks().size(), 1u);
  EXPECT_EQ(out->blocks()[0].end - out->blocks()[0].label, 12u);
}

TEST(IrBuilder, AddAtEndAndInstructionsWithoutResults) {
  Asm s(kSmall);
  Builder builder(*s.module);
  // A second function at the end of the module.
  builder.SetInsertAtEnd();
  const Id f = builder.Add(Op::Function, s.id("void"), {0, s.id("fn")});
  const Id label = builder.Add(Op::Label, 0, {});
  EXPECT_EQ(builder.Add(Op::Return, 0, {}), 0u);
  EXPECT_EQ(builder.Add(Op::FunctionEnd, 0, {}), 0u);
  EXPECT_EQ(f, 11u);
  EXPECT_EQ(label, 12u);
  // A name for it, among the names.
  builder.SetInsertAfter(6);
  std::vector<uint32_t> name = {f};
  const std::vector<uint32_t> text = Builder::StringWords("second");
  EXPECT_EQ(text.size(), 2u);  // "second" and its terminator.
  name.insert(name.end(), text.begin(), text.end());
  EXPECT_EQ(builder.Add(Op::Name, 0, name), 0u);
  auto out = FinishOrDie(builder);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->bound(), 13u);
  ASSERT_EQ(out->functions().size(), 2u);
  const Function& second = out->functions()[1];
  EXPECT_EQ(out->result_id(second.def), f);
  EXPECT_EQ(second.num_blocks, 1u);
  EXPECT_EQ(out->BlockOfLabel(label), 1u);
  EXPECT_EQ(out->opcode(second.end), Op::FunctionEnd);
  EXPECT_EQ(second.end, out->num_instructions() - 1);
  const auto lines = Lines(Disassemble(out->words()));
  ASSERT_GE(lines.size(), 12u);
  EXPECT_EQ(lines[7], "OpName %second \"second\"");
  EXPECT_EQ(std::vector<std::string>(lines.end() - 4, lines.end()),
            (std::vector<std::string>{"%second = OpFunction %void None %6", "%12 = OpLabel",
                                      "OpReturn", "OpFunctionEnd"}));
}

TEST(IrBuilder, ReplaceAndRemove) {
  Asm s(kSmall);
  Builder builder(*s.module);
  const Id uint = s.id("uint"), x = s.id("x"), y = s.id("y");
  // Replace: the whole instruction after the opcode, result type and id included.
  const std::vector<uint32_t> sub = {uint, y, x, s.id("uint_1")};
  builder.Replace(s.def("y"), Op::ISub, sub);
  builder.Remove(s.def("z"));
  EXPECT_TRUE(builder.IsRemoved(s.def("z")));
  EXPECT_FALSE(builder.IsRemoved(s.def("y")));
  EXPECT_FALSE(builder.IsRemoved(s.def("x")));
  // Instructions anchored at a removed instruction stay.
  builder.SetInsertAfter(s.def("z"));
  const Id w = builder.Add(Op::IAdd, uint, {y, y});
  auto out = FinishOrDie(builder);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->num_instructions(), s.module->num_instructions());
  EXPECT_EQ(out->Def(s.id("z")), kNoInst);
  EXPECT_EQ(out->DefOpcode(y), Op::ISub);
  EXPECT_EQ(out->num_words(out->Def(y)), 5u);
  EXPECT_EQ(out->DefOpcode(w), Op::IAdd);
  EXPECT_EQ(out->bound(), 12u);
  EXPECT_EQ(Disassemble(out->words()),
            std::string(kSmallPrefix) + R"(%main = OpFunction %void None %6
%9 = OpLabel
%x = OpIAdd %uint %uint_1 %uint_2
%y = OpISub %uint %x %uint_1
%11 = OpIAdd %uint %y %y
OpReturn
OpFunctionEnd
)");
  // A second Replace of the same instruction wins; a shorter instruction is fine.
  Builder again(*s.module);
  again.Replace(s.def("y"), Op::ISub, sub);
  again.Replace(s.def("y"), Op::Not, std::vector<uint32_t>{uint, y, x});
  auto out2 = FinishOrDie(again);
  ASSERT_NE(out2, nullptr);
  EXPECT_EQ(Lines(Disassemble(out2->words()))[15], "%y = OpNot %uint %x");
}

TEST(IrBuilder, ReplaceAllUsesWith) {
  Asm s(kSmall);
  Builder builder(*s.module);
  builder.ReplaceAllUsesWith(s.id("x"), s.id("uint_1"));
  auto out = FinishOrDie(builder);
  ASSERT_NE(out, nullptr);
  // Uses change (OpName's target is a use too); the definition of %x stays.
  EXPECT_EQ(Disassemble(out->words(), false), R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %1 "main"
OpExecutionMode %1 LocalSize 1 1 1
OpName %1 "main"
OpName %7 "x"
OpName %3 "y"
%4 = OpTypeVoid
%5 = OpTypeInt 32 0
%6 = OpTypeFunction %4
%7 = OpConstant %5 1
%8 = OpConstant %5 2
%1 = OpFunction %4 None %6
%9 = OpLabel
%2 = OpIAdd %5 %7 %8
%3 = OpIMul %5 %7 %7
%10 = OpISub %5 %3 %7
OpReturn
OpFunctionEnd
)");
  EXPECT_EQ(out->def_use().NumUses(s.id("x")), 0u);
  EXPECT_EQ(out->Def(s.id("x")), s.def("x"));
}

TEST(IrBuilder, ReplaceAllUsesWithFollowsChainsIntoNewInstructions) {
  Asm s(kSmall);
  Builder builder(*s.module);
  builder.SetInsertBeforeFunctions();
  const Id c3 = builder.Add(Op::Constant, s.id("uint"), {3});
  // uint_1 -> uint_2 -> c3, recorded in either order.
  builder.ReplaceAllUsesWith(s.id("uint_2"), c3);
  builder.ReplaceAllUsesWith(s.id("uint_1"), s.id("uint_2"));
  // An added instruction using %uint_1 is renamed too.
  builder.SetInsertAfter(s.def("x"));
  const Id w = builder.Add(Op::IAdd, s.id("uint"), {s.id("uint_1"), s.id("x")});
  // A self-rename is a no-op.
  builder.ReplaceAllUsesWith(s.id("y"), s.id("y"));
  auto out = FinishOrDie(builder);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(Disassemble(out->words()), std::string(kSmallPrefix) + R"(%uint_3 = OpConstant %uint 3
%main = OpFunction %void None %6
%9 = OpLabel
%x = OpIAdd %uint %uint_3 %uint_3
%12 = OpIAdd %uint %uint_3 %x
%y = OpIMul %uint %x %x
%10 = OpISub %uint %y %x
OpReturn
OpFunctionEnd
)");
  EXPECT_EQ(w, 12u);
  EXPECT_EQ(out->def_use().NumUses(s.id("uint_1")), 0u);
  EXPECT_EQ(out->def_use().NumUses(s.id("uint_2")), 0u);
  EXPECT_EQ(out->def_use().NumUses(c3), 3u);
  // The constants themselves are still defined.
  EXPECT_EQ(out->DefOpcode(s.id("uint_1")), Op::Constant);
}

TEST(IrBuilder, RenameCycleTerminates) {
  Asm s(kSmall);
  Builder builder(*s.module);
  builder.ReplaceAllUsesWith(s.id("uint_1"), s.id("uint_2"));
  builder.ReplaceAllUsesWith(s.id("uint_2"), s.id("uint_1"));
  auto out = FinishOrDie(builder);
  ASSERT_NE(out, nullptr);
  const Inst x = out->inst(out->Def(s.id("x")));
  for (int k = 2; k <= 3; ++k) {
    const Id operand = x.word(x.operands[k]);
    EXPECT_TRUE(operand == s.id("uint_1") || operand == s.id("uint_2")) << operand;
  }
}

TEST(IrBuilder, BorrowedModuleAndMalformedAdditions) {
  Asm s(kSmall);
  const Words input = s.words;
  Diagnostic d;
  auto borrowed = Module::ReadInPlace(s.words, &d);
  ASSERT_NE(borrowed, nullptr);
  {
    Builder builder(*borrowed);
    builder.Remove(borrowed->Def(s.id("z")));
    builder.ReplaceAllUsesWith(s.id("x"), s.id("uint_2"));
    auto out = FinishOrDie(builder);
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(out->num_instructions(), borrowed->num_instructions() - 1);
    EXPECT_NE(out->words().data(), s.words.data());
  }
  // Neither the input nor the module read from it changed.
  EXPECT_EQ(s.words, input);
  EXPECT_EQ(borrowed->words().data(), s.words.data());
  EXPECT_EQ(borrowed->DefOpcode(s.id("z")), Op::ISub);

  // An added instruction with missing operands fails Finish with a diagnostic.
  Builder bad(*s.module);
  bad.SetInsertBeforeFunctions();
  bad.Add(Op::TypeInt, 0, {});
  Diagnostic problem;
  EXPECT_EQ(bad.Finish(&problem), nullptr);
  EXPECT_FALSE(problem.message.empty());
}

// ---------------------------------------------------------------------------------------------
// Declarations.

TEST(IrDeclarations, FindOrAddReusesTheModulesOrItsOwn) {
  Asm s(kSmall);
  Declarations decls(*s.module);
  std::vector<std::pair<Op, Words>> added;
  auto add = [&](Op op, std::span<const uint32_t> words) {
    added.emplace_back(op, Words(words.begin(), words.end()));
    return Id(100 + added.size());
  };
  using Reuse = Declarations::Reuse;
  // The module's own first equal declaration, with Reuse::kModule.
  EXPECT_EQ(decls.FindOrAdd(Op::TypeInt, {32, 0}, Reuse::kModule, add), s.id("uint"));
  EXPECT_EQ(decls.FindOrAdd(Op::Constant, {s.id("uint"), 2}, Reuse::kModule, add), s.id("uint_2"));
  EXPECT_TRUE(added.empty());
  // Reuse::kNever adds one even where the module has it, once.
  EXPECT_EQ(decls.FindOrAdd(Op::Constant, {s.id("uint"), 2}, Reuse::kNever, add), 101u);
  EXPECT_EQ(decls.FindOrAdd(Op::Constant, {s.id("uint"), 2}, Reuse::kNever, add), 101u);
  // Not in the module: added once per reuse, then found.
  EXPECT_EQ(decls.FindOrAdd(Op::Constant, {s.id("uint"), 3}, Reuse::kModule, add), 102u);
  EXPECT_EQ(decls.FindOrAdd(Op::Constant, {s.id("uint"), 3}, Reuse::kModule, add), 102u);
  EXPECT_EQ(decls.FindOrAdd(Op::Constant, {s.id("uint"), 3}, Reuse::kNever, add), 103u);
  // The opcode and every operand are part of the key.
  EXPECT_EQ(decls.FindOrAdd(Op::SpecConstant, {s.id("uint"), 3}, Reuse::kModule, add), 104u);
  EXPECT_EQ(decls.FindOrAdd(Op::TypeInt, {32, 1}, Reuse::kModule, add), 105u);
  EXPECT_EQ(decls.FindOrAdd(Op::TypeInt, {16, 0}, Reuse::kModule, add), 106u);
  ASSERT_EQ(added.size(), 6u);
  EXPECT_EQ(added[0], (std::pair<Op, Words>{Op::Constant, {s.id("uint"), 2}}));
  EXPECT_EQ(added[5], (std::pair<Op, Words>{Op::TypeInt, {16, 0}}));
  // A declaration made inside `add` (an operand of the one being added) keeps both slots.
  const Id vector = decls.FindOrAdd(Op::TypeVector, {106, 4}, Reuse::kModule, [&](Op, auto) {
    return decls.FindOrAdd(Op::TypeFloat, {16}, Reuse::kModule, add) + 1000;
  });
  EXPECT_EQ(vector, 1107u);
  EXPECT_EQ(decls.FindOrAdd(Op::TypeVector, {106, 4}, Reuse::kModule, add), 1107u);
  EXPECT_EQ(decls.FindOrAdd(Op::TypeFloat, {16}, Reuse::kModule, add), 107u);
  // Lookup gives back what an id was found or added with, and nothing for other ids.
  Op op = Op::Nop;
  std::span<const uint32_t> words;
  ASSERT_TRUE(decls.Lookup(105, &op, &words));
  EXPECT_EQ(op, Op::TypeInt);
  EXPECT_EQ(Words(words.begin(), words.end()), (Words{32, 1}));
  ASSERT_TRUE(decls.Lookup(s.id("uint_2"), &op, &words));
  EXPECT_EQ(op, Op::Constant);
  EXPECT_EQ(Words(words.begin(), words.end()), (Words{s.id("uint"), 2}));
  EXPECT_FALSE(decls.Lookup(s.id("uint_1"), &op, &words));
  EXPECT_FALSE(decls.Lookup(999, &op, &words));
}

TEST(IrDeclarations, FindOrAppendWritesWholeInstructions) {
  Asm s(kSmall);
  Declarations decls(*s.module);
  Words section;
  Id next_id = s.module->bound();
  using Reuse = Declarations::Reuse;
  const Id float16 = decls.FindOrAppend(Op::TypeFloat, {16}, Reuse::kModule, &section, &next_id);
  const Id half =
      decls.FindOrAppend(Op::Constant, {float16, 0x3800}, Reuse::kModule, &section, &next_id);
  const Id null =
      decls.FindOrAppend(Op::ConstantNull, {float16}, Reuse::kNever, &section, &next_id);
  EXPECT_EQ(decls.FindOrAppend(Op::TypeInt, {32, 0}, Reuse::kModule, &section, &next_id),
            s.id("uint"));
  EXPECT_EQ(decls.FindOrAppend(Op::TypeFloat, {16}, Reuse::kModule, &section, &next_id), float16);
  EXPECT_EQ(float16, 11u);
  EXPECT_EQ(half, 12u);
  EXPECT_EQ(null, 13u);
  EXPECT_EQ(next_id, 14u);
  // A type's result id comes first, a constant's after its result type.
  EXPECT_EQ(section, (Words{(3u << 16) | uint32_t(Op::TypeFloat), 11, 16,
                            (4u << 16) | uint32_t(Op::Constant), 11, 12, 0x3800,
                            (3u << 16) | uint32_t(Op::ConstantNull), 11, 13}));
  // Builder::AddDeclaration takes the same operands.
  Builder builder(*s.module);
  builder.SetInsertBeforeFunctions();
  const Id t = builder.AddDeclaration(Op::TypeFloat, Words{16});
  const Id c = builder.AddDeclaration(Op::Constant, Words{t, 0x3800});
  auto out = FinishOrDie(builder);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->DefOpcode(t), Op::TypeFloat);
  EXPECT_EQ(out->type_id(out->Def(c)), t);
  EXPECT_EQ(out->word(out->Def(c), 3), 0x3800u);
}

// ---------------------------------------------------------------------------------------------
// In-place edits and Invalidate.

TEST(IrModule, SetWordAndSetOpcodeOnACopy) {
  Asm s(kSmall);
  const Words input = s.words;
  Diagnostic d;
  auto m = Module::Read(s.words, &d);
  ASSERT_NE(m, nullptr);
  const InstIndex c1 = m->Def(s.id("uint_1"));
  const uint32_t* data = m->words().data();
  m->SetWord(c1, 3, 42);
  EXPECT_EQ(m->word(c1, 3), 42u);
  EXPECT_EQ(m->inst(c1).words[3], 42u);
  EXPECT_EQ(m->words()[m->word_offset(c1) + 3], 42u);
  EXPECT_EQ(m->words().data(), data);  // Already owned: edited where it is.
  EXPECT_EQ(s.words, input);
  const InstIndex y = m->Def(s.id("y"));
  m->SetOpcode(y, Op::ISub);
  EXPECT_EQ(m->opcode(y), Op::ISub);
  EXPECT_EQ(m->word(y, 0), (5u << 16) | static_cast<uint32_t>(Op::ISub));
  EXPECT_EQ(m->num_words(y), 5u);
  const auto lines = Lines(Disassemble(m->words()));
  EXPECT_NE(std::find(lines.begin(), lines.end(), "%y = OpISub %uint %x %x"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "%uint_42 = OpConstant %uint 42"), lines.end());
  EXPECT_EQ(s.words, input);
  // Rereading the edited words gives the same module.
  Words edited(m->words().begin(), m->words().end());
  auto reread = Module::Read(edited, &d);
  ASSERT_NE(reread, nullptr);
  EXPECT_EQ(reread->opcode(y), Op::ISub);
}

TEST(IrModule, SetWordOnABorrowedModuleCopiesFirst) {
  Asm s(kSmall);
  const Words input = s.words;
  Diagnostic d;
  auto m = Module::ReadInPlace(s.words, &d);
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->words().data(), s.words.data());
  const InstIndex x = m->Def(s.id("x"));
  m->SetOpcode(x, Op::ISub);
  EXPECT_EQ(s.words, input);  // The borrowed buffer is unchanged.
  EXPECT_NE(m->words().data(), s.words.data());
  EXPECT_EQ(m->opcode(x), Op::ISub);
  EXPECT_EQ(m->word(x, 0) & 0xFFFFu, static_cast<uint32_t>(Op::ISub));
  EXPECT_EQ(m->word(x, 0) >> 16, 5u);
  // Everything else is the same.
  ASSERT_EQ(m->words().size(), input.size());
  size_t differing = 0;
  for (size_t k = 0; k < input.size(); ++k) differing += m->words()[k] != input[k];
  EXPECT_EQ(differing, 1u);
  // Instructions read after the copy see the copy.
  EXPECT_EQ(m->inst(x).words.data(), m->words().data() + m->word_offset(x));
  m->SetWord(m->Def(s.id("uint_2")), 3, 9);
  EXPECT_EQ(s.words, input);
  EXPECT_EQ(m->word(m->Def(s.id("uint_2")), 3), 9u);
  EXPECT_EQ(m->word(x, 0) & 0xFFFFu, static_cast<uint32_t>(Op::ISub));  // The first edit kept.
}

TEST(IrModule, InvalidateDropsAnalyses) {
  Asm s(kShader);
  Module& m = *s.module;
  const uint32_t then_block = s.block("then");
  const uint32_t merge = s.block("merge");
  const uint32_t else_block = s.block("else");
  const Cfg* cfg = &m.cfg();
  const DefUse* def_use = &m.def_use();
  const TypeTable* types = &m.types();
  EXPECT_EQ(m.dominators().Idom(merge), s.block("entry"));
  EXPECT_EQ(m.def_use().NumUses(s.id("else")), 2u);
  // Retarget %then's branch from %merge to %else.
  const InstIndex branch = m.blocks()[then_block].end - 1;
  ASSERT_EQ(m.opcode(branch), Op::Branch);
  m.SetWord(branch, 1, s.id("else"));
  // Preserved analyses are the same objects, stale.
  m.Invalidate(kAnalysisCfg | kAnalysisDefUse | kAnalysisTypes | kAnalysisDominators);
  EXPECT_EQ(&m.cfg(), cfg);
  EXPECT_EQ(&m.def_use(), def_use);
  EXPECT_EQ(&m.types(), types);
  EXPECT_EQ(ToVector(m.cfg().Successors(then_block)), (std::vector<uint32_t>{merge}));
  EXPECT_EQ(m.dominators().Idom(merge), s.block("entry"));
  EXPECT_EQ(m.def_use().NumUses(s.id("else")), 2u);
  m.Invalidate(kAnalysisCfg);
  EXPECT_EQ(&m.cfg(), cfg);
  EXPECT_EQ(ToVector(m.cfg().Successors(then_block)), (std::vector<uint32_t>{merge}));
  // Dominators were dropped (they were not preserved), and rebuilt from the stale CFG.
  EXPECT_EQ(m.dominators().Idom(merge), s.block("entry"));
  EXPECT_EQ(m.def_use().NumUses(s.id("else")), 3u);  // Def-use was not preserved: rebuilt.
  // Everything dropped: rebuilt from the edited words.
  m.Invalidate(0);
  EXPECT_EQ(ToVector(m.cfg().Successors(then_block)), (std::vector<uint32_t>{else_block}));
  EXPECT_EQ(ToVector(m.cfg().Predecessors(merge)), (std::vector<uint32_t>{else_block}));
  EXPECT_EQ(m.dominators().Idom(merge), else_block);
  EXPECT_EQ(m.dominators().Idom(else_block), s.block("entry"));
  EXPECT_EQ(m.post_dominators().Idom(then_block), else_block);
  EXPECT_EQ(m.def_use().NumUses(s.id("else")), 3u);
  EXPECT_EQ(m.def_use().NumUses(s.id("merge")), 3u);  // Merge operand, %else's branch, %iv.
}

TEST(IrModule, InvalidatingTheCfgDropsTheDominators) {
  Asm s(kShader);
  Module& m = *s.module;
  const uint32_t then_block = s.block("then");
  const uint32_t merge = s.block("merge");
  const uint32_t else_block = s.block("else");
  EXPECT_EQ(m.dominators().Idom(merge), s.block("entry"));
  const InstIndex branch = m.blocks()[then_block].end - 1;
  m.SetWord(branch, 1, s.id("else"));
  // Keeping the dominators but not the CFG drops both: dominators of a new CFG.
  m.Invalidate(kAnalysisDominators);
  EXPECT_EQ(ToVector(m.cfg().Successors(then_block)), (std::vector<uint32_t>{else_block}));
  EXPECT_EQ(m.dominators().Idom(merge), else_block);
  // Types survive an edit they do not depend on when preserved, and are rebuilt otherwise.
  const InstIndex c10 = s.def("uint_10");
  m.SetWord(c10, 3, 11);
  m.Invalidate(kAnalysisAll & ~kAnalysisTypes);
  EXPECT_EQ(m.types().Find(Op::Constant, std::vector<uint32_t>{s.id("uint"), 11}), s.id("uint_10"));
  EXPECT_EQ(m.types().Find(Op::Constant, std::vector<uint32_t>{s.id("uint"), 10}), 0u);
}

}  // namespace
}  // namespace coopspv::ir
