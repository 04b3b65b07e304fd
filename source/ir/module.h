// The module IR: the instruction stream of a parsed module plus dense indexes over it.
//
// Instructions stay in the word stream they were read from (no per-instruction or per-operand
// heap allocation); ids are indexed by dense vectors sized by the bound. Functions and blocks are
// ranges of instruction indexes. Analyses (def-use, CFG, dominators, the type table) are built on
// first use and dropped by Invalidate(); passes change a module through ir::Builder, which
// produces a new module.
#ifndef COOPSPV_SOURCE_IR_MODULE_H_
#define COOPSPV_SOURCE_IR_MODULE_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "source/binary/reader.h"
#include "source/common/diagnostic.h"
#include "source/common/workspace.h"
#include "source/grammar/grammar.h"

namespace coopspv::ir {

using Id = uint32_t;
using InstIndex = uint32_t;
inline constexpr InstIndex kNoInst = ~0u;
using Inst = binary::ParsedInstruction;

// The Interface ids of an OpEntryPoint: its words after the Name's literal string (opcode,
// execution model and function come first). Empty when the string runs to the end.
inline std::span<const uint32_t> EntryPointInterface(const Inst& entry_point) {
  const size_t name_words = binary::DecodeString(entry_point.words.subspan(3)).size() / 4 + 1;
  return entry_point.words.subspan(std::min(3 + name_words, entry_point.words.size()));
}

// The sections of the logical layout, in order (SPIR-V 2.4).
enum class Section : uint8_t {
  kCapability,
  kExtension,
  kExtInstImport,
  kMemoryModel,
  kEntryPoint,
  kExecutionMode,
  kDebugString,  // OpString, OpSource*, OpSourceContinued, OpSourceExtension.
  kDebugName,    // OpName, OpMemberName.
  kDebugModuleProcessed,
  kAnnotation,
  kGlobal,  // Types, constants, global variables, OpUndef, OpLine/OpNoLine.
  kFunction,
};

// The section an instruction belongs to by its opcode (kFunction for everything that may only
// appear in a function body). Defined below with the other per-opcode facts.
inline Section SectionOf(spv::Op op);

struct Block {
  InstIndex label;  // The OpLabel.
  InstIndex end;    // One past the terminator.
  uint32_t function;
  uint32_t unused = 0;  // Pads the record to 16 bytes: indexing is a shift.
};

struct Function {
  InstIndex def;  // The OpFunction.
  InstIndex end;  // The OpFunctionEnd (kNoInst if missing).
  uint32_t first_block;
  uint32_t num_blocks;
  InstIndex first_param;  // The instruction after OpFunction.
  uint32_t num_params;
  // False where a debug instruction (OpLine, OpNoLine) sits before or between the
  // OpFunctionParameters: then Module::Param walks instead of adding.
  bool params_contiguous = true;
};

// Analyses built on demand.
class DefUse;
class Cfg;
class DominatorTree;
class TypeTable;

enum Analysis : uint32_t {
  kAnalysisDefUse = 1,
  kAnalysisCfg = 2,
  kAnalysisDominators = 4,
  kAnalysisTypes = 8,
  kAnalysisAll = 15,
};

class Module {
 public:
  COOPSPV_WS_NEW_DELETE
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // Reads a module. Fails only when the binary is malformed (the reader's checks).
  static std::unique_ptr<Module> Read(std::span<const uint32_t> words, Diagnostic* diagnostic,
                                      const binary::ReaderOptions& options = {});
  // As Read, but borrows little-endian words instead of copying them: `words` must outlive the
  // module. The validator reads this way.
  static std::unique_ptr<Module> ReadInPlace(std::span<const uint32_t> words,
                                             Diagnostic* diagnostic,
                                             const binary::ReaderOptions& options = {});

  const binary::Header& header() const { return parsed_.header; }
  // The id bound the tables indexed by id cover: the header's, or, where the header declares far
  // more than the module can use, one past the largest id it holds (binary::IdLimit).
  uint32_t bound() const { return bound_; }
  // The module's words: reading and writing are byte-identical.
  std::span<const uint32_t> words() const { return parsed_.data(); }

  const binary::ParsedModule& parsed() const { return parsed_; }
  // Kept apart from the instruction vector (fixed once read): loops test it at every step.
  size_t num_instructions() const { return num_instructions_; }
  // One past the last module-level declaration: the first OpFunction (or the end). Capabilities,
  // types, constants and global variables all come before it in a well-laid-out module; rules
  // that only look at those stop here (misplaced ones are layout errors).
  InstIndex global_end() const { return global_end_; }
  Inst inst(InstIndex i) const { return parsed_.Get(i); }
  spv::Op opcode(InstIndex i) const { return static_cast<spv::Op>(parsed_.instructions[i].opcode); }
  Id result_id(InstIndex i) const { return parsed_.instructions[i].result_id; }
  Id type_id(InstIndex i) const { return parsed_.instructions[i].type_id; }
  uint32_t word_offset(InstIndex i) const { return parsed_.instructions[i].offset; }
  // Word `n` of instruction `i` (word 0 holds the count and opcode).
  uint32_t word(InstIndex i, size_t n) const { return words_[parsed_.instructions[i].offset + n]; }
  uint32_t num_words(InstIndex i) const { return parsed_.instructions[i].num_words; }

  // The instruction defining `id` (its first definition), or kNoInst.
  InstIndex Def(Id id) const { return id < bound() ? defs_[id] : kNoInst; }  // defs_: bound().
  // The opcode of id's definition, or Nop when undefined.
  spv::Op DefOpcode(Id id) const {
    const InstIndex d = Def(id);
    return d == kNoInst ? spv::Op::Nop : opcode(d);
  }
  // The type of a value id (0 if it has none or is undefined).
  Id TypeOf(Id id) const {
    const InstIndex d = Def(id);
    return d == kNoInst ? 0 : type_id(d);
  }
  // Ids defined more than once: (id, the later definition).
  const ws::vector<std::pair<Id, InstIndex>>& duplicate_defs() const { return duplicate_defs_; }

  std::span<const Function> functions() const { return functions_; }
  // The OpFunctionParameter of parameter p (< f.num_params) of f.
  InstIndex Param(const Function& f, uint32_t p) const {
    return f.params_contiguous ? f.first_param + p : ParamByWalking(f, p);
  }
  std::span<const Block> blocks() const { return blocks_; }
  std::span<const Block> blocks(const Function& f) const {
    return std::span<const Block>(blocks_).subspan(f.first_block, f.num_blocks);
  }
  // The block an OpLabel id starts, or ~0u.
  uint32_t BlockOfLabel(Id label) const;
  // The function an instruction index is in, or ~0u when outside every function.
  uint32_t FunctionOf(InstIndex i) const;
  // The block index of each instruction inside a block, ~0u otherwise.
  uint32_t BlockOf(InstIndex i) const { return i < num_instructions_ ? block_of_[i].block : ~0u; }
  // The function whose OpFunction defines `id`, or ~0u.
  uint32_t FunctionById(Id id) const;

  // Analyses, built on first use.
  const DefUse& def_use() const;
  const Cfg& cfg() const;
  const DominatorTree& dominators() const;
  const DominatorTree& post_dominators() const;
  const TypeTable& types() const;
  // Drops every analysis not named in `preserved`.
  void Invalidate(uint32_t preserved = 0) const;

  // In-place edits that keep every instruction's size and operand layout (a pass that only
  // changes literal values or swaps an opcode for one with the same operands). The caller
  // invalidates what the edit breaks.
  void SetWord(InstIndex i, size_t n, uint32_t value);
  void SetOpcode(InstIndex i, spv::Op op);

 private:
  uint32_t bound_ = 0;
  InstIndex ParamByWalking(const Function& f, uint32_t p) const;
  Module() = default;
  void Index();

  binary::ParsedModule parsed_;
  ws::vector<InstIndex> defs_;
  ws::vector<std::pair<Id, InstIndex>> duplicate_defs_;
  ws::vector<Function> functions_;
  ws::vector<Block> blocks_;
  // An entry of block_of_, left uninitialized by its default constructor: Index writes every one,
  // so sizing the array need not clear it first.
  struct BlockSlot {
    BlockSlot() {}  // NOLINT(modernize-use-equals-default): `= default` would zero on resize.
    uint32_t block;
  };
  ws::vector<BlockSlot> block_of_;  // Per instruction.
  InstIndex global_end_ = 0;
  size_t num_instructions_ = 0;
  const uint32_t* words_ = nullptr;  // parsed_.data(), without its test for borrowed words.

  mutable std::unique_ptr<DefUse> def_use_;
  mutable std::unique_ptr<Cfg> cfg_;
  mutable std::unique_ptr<DominatorTree> dominators_;
  mutable std::unique_ptr<DominatorTree> post_dominators_;
  mutable std::unique_ptr<TypeTable> types_;
};

// Per-opcode facts, computed at compile time from the grammar into a flat table.
struct OpcodeTraits {
  Section section = Section::kFunction;
  bool is_terminator = false;
  bool is_type_declaration = false;
  bool is_constant = false;
  bool is_spec_constant = false;
  // An IdScope or IdMemorySemantics operand, directly or as an enumerant's parameter
  // (MemoryAccess MakePointerAvailable, ImageOperands MakeTexelVisible, ...).
  bool has_scope_or_semantics = false;
};
namespace internal {
// A constant table computed at compile time from the grammar (module.cc): no start-up cost.
extern const OpcodeTraits* const kOpcodeTraits;
}  // namespace internal
inline const OpcodeTraits& TraitsOf(spv::Op op) {
  static constexpr OpcodeTraits kUnknown{};
  const auto v = static_cast<uint32_t>(op);
  return v <= grammar::kMaxOpcode ? internal::kOpcodeTraits[v] : kUnknown;
}

// True for the instructions that end a block.
inline bool IsTerminator(spv::Op op) { return TraitsOf(op).is_terminator; }
// True for instructions that declare a type (OpTypeForwardPointer excluded).
inline bool IsTypeDeclaration(spv::Op op) { return TraitsOf(op).is_type_declaration; }
// True for constant-creation instructions (spec constants included).
inline bool IsConstant(spv::Op op) { return TraitsOf(op).is_constant; }
inline bool IsSpecConstant(spv::Op op) { return TraitsOf(op).is_spec_constant; }

inline Section SectionOf(spv::Op op) { return TraitsOf(op).section; }

// Whether the instruction at `i` is an OpExtInst or OpExtInstWithForwardRefsKHR of a
// non-semantic set (SPV_KHR_non_semantic_info: an import named "NonSemantic.*", known or not):
// debug info and the like, which may appear among the global declarations, may be removed
// without changing what the module computes, and names any id.
bool IsNonSemanticExtInst(const Module& m, InstIndex i);
// Whether a grammar extended-instruction set index (ParsedInstruction::ext_inst_set) is DebugInfo
// or OpenCL.DebugInfo.100: debug instructions, which the declarations section holds too and
// which may name later ids (SPIR-V 2.4; the sets' own specifications).
bool IsDebugInfoSet(int32_t set);

}  // namespace coopspv::ir

#endif  // COOPSPV_SOURCE_IR_MODULE_H_
