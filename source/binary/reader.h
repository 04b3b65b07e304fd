// The SPIR-V binary reader: header and instruction stream, every operand typed from the grammar.
// It checks form only (word counts, operand counts, strings, ids against the bound); meaning is
// the validator's business.
#ifndef COOPSPV_SOURCE_BINARY_READER_H_
#define COOPSPV_SOURCE_BINARY_READER_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "source/common/diagnostic.h"
#include "source/common/workspace.h"
#include "source/grammar/grammar.h"

namespace coopspv::binary {

inline constexpr uint32_t kHeaderWords = 5;
// SPIR-V's universal limit on the id bound; the reader refuses larger bounds by default.
inline constexpr uint32_t kDefaultMaxIdBound = 0x3FFFFF;

enum class Endianness : uint8_t { kLittle, kBig };

struct Header {
  uint32_t magic = 0;
  uint32_t version = 0;  // 0x00MMmm00.
  uint32_t generator = 0;
  uint32_t bound = 0;
  uint32_t schema = 0;
  Endianness endianness = Endianness::kLittle;

  uint32_t major_version() const { return (version >> 16) & 0xFF; }
  uint32_t minor_version() const { return (version >> 8) & 0xFF; }
};

// How a literal number is to be read; set for LiteralContextDependentNumber operands
// (OpConstant, OpSpecConstant, OpSwitch case values), whose width follows a type.
enum class NumberKind : uint8_t { kNone, kUnsigned, kSigned, kFloat };

struct ParsedOperand {
  // Left uninitialized: the reader sizes a module's operand array before it writes every entry,
  // which costs nothing this way.
  ParsedOperand() {}  // NOLINT(modernize-use-equals-default): `= default` would zero on resize.
  constexpr ParsedOperand(uint16_t offset, uint16_t num_words, grammar::OperandKind kind,
                          NumberKind number_kind, uint8_t number_width, uint16_t fp_encoding)
      : offset(offset),
        num_words(num_words),
        kind(kind),
        number_kind(number_kind),
        number_width(number_width),
        fp_encoding(fp_encoding) {}

  uint16_t offset;     // First word, counted from the instruction's first word.
  uint16_t num_words;  // 1 except for strings and 64-bit numbers.
  grammar::OperandKind kind;
  NumberKind number_kind;
  uint8_t number_width;  // Bits, for numbers.
  uint16_t fp_encoding;  // FPEncoding value + 1 for float numbers of an encoded type, else 0.
};

struct ParsedInstruction {
  std::span<const uint32_t> words;  // All of the instruction's words.
  uint32_t offset;                  // Word offset of the instruction in the module.
  uint16_t opcode;
  uint32_t type_id;      // 0 if none.
  uint32_t result_id;    // 0 if none.
  int32_t ext_inst_set;  // OpExtInst: the grammar's set index, -1 if unknown or not OpExtInst.
  const grammar::InstructionInfo* info;
  std::span<const ParsedOperand> operands;

  uint32_t word(const ParsedOperand& op, size_t i = 0) const { return words[op.offset + i]; }
};

class InstructionHandler {
 public:
  virtual ~InstructionHandler() = default;
  virtual bool OnHeader(const Header& header) { return true; }
  // Returning false stops the parse (Parse then reports success with what was seen).
  virtual bool OnInstruction(const ParsedInstruction& inst) = 0;
};

struct ReaderOptions {
  uint32_t max_id_bound = kDefaultMaxIdBound;
};

// Converts a byte image to words; fails when the size is not a multiple of four.
bool BytesToWords(std::span<const uint8_t> bytes, std::vector<uint32_t>* words,
                  Diagnostic* diagnostic);

// Parses a module given as host-order words (either byte order of the magic is accepted).
bool Parse(std::span<const uint32_t> words, InstructionHandler& handler, Diagnostic* diagnostic,
           const ReaderOptions& options = {});

// A whole module, kept as its words plus an index of instructions and operands.
struct ParsedModule {
  struct Instruction {
    uint32_t offset;
    uint16_t num_words;
    uint16_t opcode;
    uint32_t type_id;
    uint32_t result_id;
    int32_t ext_inst_set;
    uint32_t operand_begin;
    uint32_t operand_count;
    uint32_t unused = 0;  // Pads the record to 32 bytes: indexing is a shift.
  };
  static_assert(sizeof(Instruction) == 32);

  Header header;
  ws::vector<uint32_t> words;          // Host order, header included (empty for a borrowed module).
  std::span<const uint32_t> borrowed;  // The caller's words, for ParseModuleInPlace.
  ws::vector<Instruction> instructions;
  ws::vector<ParsedOperand> operands;

  // The module's words, owned or borrowed.
  std::span<const uint32_t> data() const {
    return borrowed.empty() ? std::span<const uint32_t>(words) : borrowed;
  }
  ParsedInstruction Get(size_t index) const {
    const Instruction& i = instructions[index];
    return ParsedInstruction{
        data().subspan(i.offset, i.num_words),
        i.offset,
        i.opcode,
        i.type_id,
        i.result_id,
        i.ext_inst_set,
        grammar::LookupOpcode(i.opcode),
        std::span<const ParsedOperand>(operands).subspan(i.operand_begin, i.operand_count)};
  }
};

// Parses into `module`, which keeps a copy of the words.
bool ParseModule(std::span<const uint32_t> words, ParsedModule* module, Diagnostic* diagnostic,
                 const ReaderOptions& options = {});
// As ParseModule, but little-endian input is borrowed, not copied: `words` must outlive the
// module. (Big-endian input is still copied, byte-swapped.)
bool ParseModuleInPlace(std::span<const uint32_t> words, ParsedModule* module,
                        Diagnostic* diagnostic, const ReaderOptions& options = {});

// One more than the largest id the module defines or names: the header's bound unless that is far
// larger than the module could use (a module of a few words may declare a bound of 0xFFFFFFFF),
// so that tables indexed by id follow what the module holds, not what its header promises.
uint32_t IdLimit(const ParsedModule& module);

// Decodes the null-terminated string of a LiteralString operand.
std::string_view DecodeString(std::span<const uint32_t> words);

}  // namespace coopspv::binary

#endif  // COOPSPV_SOURCE_BINARY_READER_H_
