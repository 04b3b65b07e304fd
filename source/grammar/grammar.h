// Instruction, operand-kind and enumerant tables of SPIR-V, generated at build time from the
// spirv-headers grammar merged with the project's grammar for the cooperative family.
// Every lookup is O(1) over static data: there is no start-up cost.
#ifndef COOPSPV_SOURCE_GRAMMAR_GRAMMAR_H_
#define COOPSPV_SOURCE_GRAMMAR_GRAMMAR_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "source/grammar/grammar_generated.h"

namespace coopspv::grammar {

enum class OperandCategory : uint8_t { kId, kLiteral, kComposite, kValueEnum, kBitEnum };

enum class Quantifier : uint8_t { kOne, kOptional, kVariadic };

// A version as the grammar states it: (major << 16) | (minor << 8); kNoVersion when the entry is
// not part of any core version (it needs a capability or extension).
inline constexpr uint32_t kNoVersion = 0xFFFFFFFFu;
constexpr uint32_t MakeVersion(uint32_t major, uint32_t minor) {
  return (major << 16) | (minor << 8);
}

struct OperandInfo {
  OperandKind kind;
  Quantifier quantifier;
  const char* name;  // "" where the grammar gives none.
};

struct OperandKindInfo {
  const char* name;
  OperandCategory category;
  uint32_t enumerant_begin;
  uint32_t enumerant_count;
  uint32_t valid_mask;      // BitEnum: the union of all defined bits.
  uint32_t parameter_mask;  // BitEnum: the bits whose enumerants take parameters.
};

struct EnumerantInfo {
  OperandKind kind;
  const char* name;
  uint32_t value;
  uint32_t capability_begin, capability_count;
  uint32_t extension_begin, extension_count;
  uint32_t parameter_begin, parameter_count;
  uint32_t version;
  uint32_t alias_begin, alias_count;
};

struct InstructionInfo {
  const char* name;
  uint32_t opcode;
  const char* instruction_class;
  uint32_t operand_begin, operand_count;
  uint32_t capability_begin, capability_count;
  uint32_t extension_begin, extension_count;
  uint32_t version;
  bool has_result_type;
  bool has_result;
  uint32_t alias_begin, alias_count;
  InstructionClass klass;
  // The binary reader's fast layout: the first `reader_fixed` operands are one word each (ids,
  // LiteralInteger or enumerants without parameters); reader_tail 1: only optional operands
  // follow (or, for a closing value enumerant, its one-word parameters), 2: one variadic IdRef or
  // LiteralInteger follows, 3: one LiteralString ends the instruction, 4: one
  // LiteralContextDependentNumber as wide as the result type ends it, 0: no fast layout.
  uint8_t reader_fixed;
  uint8_t reader_tail;
};

struct ExtInstSetInfo {
  const char* name;  // As written in OpExtInstImport.
  uint32_t instruction_begin, instruction_count;
};

struct ExtInstInfo {
  uint32_t set;
  const char* name;
  uint32_t opcode;
  uint32_t operand_begin, operand_count;
  uint32_t capability_begin, capability_count;
};

struct HashSlot {
  uint32_t hash;
  uint32_t index_plus_one;  // 0: empty slot.
};

struct GeneratorInfo {
  uint32_t id;
  const char* vendor;
  const char* tool;
};

namespace generated {
// Defined in the generated tables; declared here so the hottest lookups inline.
extern const InstructionInfo kInstructions[];
extern const uint16_t kOpcodeIndex[];
extern const OperandInfo kOperandPool[];
extern const OperandKindInfo kOperandKinds[];
}  // namespace generated

// Instructions.
inline const InstructionInfo* LookupOpcode(uint32_t opcode) {
  if (opcode > kMaxOpcode) return nullptr;
  const uint16_t index = generated::kOpcodeIndex[opcode];
  return index == 0 ? nullptr : &generated::kInstructions[index - 1];
}
// By spelling, aliases included (e.g. "OpTypeCooperativeVectorNV" finds opcode 5288).
const InstructionInfo* LookupInstruction(std::string_view name);
inline std::span<const OperandInfo> Operands(const InstructionInfo& inst) {
  return {generated::kOperandPool + inst.operand_begin, inst.operand_count};
}
std::span<const uint32_t> Capabilities(const InstructionInfo& inst);
std::span<const char* const> Extensions(const InstructionInfo& inst);
std::span<const char* const> Aliases(const InstructionInfo& inst);
std::span<const InstructionInfo> AllInstructions();

// Operand kinds and their enumerants.
inline const OperandKindInfo& GetOperandKind(OperandKind kind) {
  return generated::kOperandKinds[static_cast<size_t>(kind)];
}
std::span<const EnumerantInfo> Enumerants(OperandKind kind);
// Whether some enumerant of the kind needs a capability, an extension or a version beyond 1.0
// (computed at compile time).
bool IsGatedKind(OperandKind kind);
const EnumerantInfo* LookupEnumerant(OperandKind kind, uint32_t value);
const EnumerantInfo* LookupEnumerant(OperandKind kind, std::string_view name);
std::span<const OperandInfo> Parameters(const EnumerantInfo& e);
std::span<const uint32_t> Capabilities(const EnumerantInfo& e);
std::span<const char* const> Extensions(const EnumerantInfo& e);
std::span<const char* const> Aliases(const EnumerantInfo& e);
// True when the kind is one of the id kinds (IdRef, IdResult, IdScope, ...).
inline bool IsIdKind(OperandKind kind) { return static_cast<int>(kind) < kNumIdKinds; }

// True when some instruction or enumerant of the tables names this extension.
bool IsKnownExtension(std::string_view name);

// Extended instruction sets.
int LookupExtInstSet(std::string_view import_name);  // -1 if unknown.
const ExtInstSetInfo& GetExtInstSet(int set);
const ExtInstInfo* LookupExtInst(int set, uint32_t opcode);
const ExtInstInfo* LookupExtInst(int set, std::string_view name);
std::span<const OperandInfo> Operands(const ExtInstInfo& inst);

// Generator registry (spir-v.xml): the tool for the upper 16 bits of the header's generator word.
const GeneratorInfo* LookupGenerator(uint32_t tool_id);
const GeneratorInfo* LookupGeneratorByName(std::string_view vendor_and_tool);

}  // namespace coopspv::grammar

#endif  // COOPSPV_SOURCE_GRAMMAR_GRAMMAR_H_
