#include "source/binary/reader.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#include "source/common/workspace.h"

namespace coopspv::binary {
namespace {

using grammar::OperandCategory;
using grammar::OperandInfo;
using grammar::OperandKind;
using grammar::Quantifier;

static_assert(std::endian::native == std::endian::little,
              "strings are decoded in place: the host must be little-endian");

constexpr uint16_t OpcodeOf(spv::Op op) { return static_cast<uint16_t>(op); }

// True when a word of a literal string holds its terminating null byte.
constexpr bool HasNullByte(uint32_t w) {
  return (w & 0xFF) == 0 || (w & 0xFF00) == 0 || (w & 0xFF0000) == 0 || (w & 0xFF000000) == 0;
}

// What the reader remembers of an id to type later operands: the numeric shape of scalar types
// (for literal widths) and the type of each value (for OpSwitch selectors).
struct NumericType {
  NumberKind kind = NumberKind::kNone;
  uint16_t width = 0;
  uint16_t fp_encoding = 0;
};

// Writes the record of a one-word operand at word `index` of its instruction: the first eight
// bytes as one store (its top two bytes are the number kind kNone and width 0), then the zero
// encoding. The record's bytes are laid out as a little-endian uint64_t of the fields would be.
static_assert(std::endian::native == std::endian::little);
static_assert(std::is_trivially_copyable_v<ParsedOperand> && sizeof(ParsedOperand) == 10 &&
              offsetof(ParsedOperand, num_words) == 2 && offsetof(ParsedOperand, kind) == 4 &&
              sizeof(OperandKind) == 2 && offsetof(ParsedOperand, number_kind) == 6 &&
              offsetof(ParsedOperand, number_width) == 7 &&
              offsetof(ParsedOperand, fp_encoding) == 8 &&
              static_cast<int>(NumberKind::kNone) == 0);
inline void PutOneWord(ParsedOperand* out, size_t index, OperandKind kind) {
  const uint64_t head =
      static_cast<uint64_t>(index) | (uint64_t{1} << 16) | (static_cast<uint64_t>(kind) << 32);
  const uint16_t encoding = 0;
  std::memcpy(reinterpret_cast<char*>(out), &head, sizeof(head));
  std::memcpy(reinterpret_cast<char*>(out) + 8, &encoding, sizeof(encoding));
}

class Reader {
 public:
  Reader(std::span<const uint32_t> words, InstructionHandler* handler, Diagnostic* diagnostic,
         const ReaderOptions& options)
      : words_(words), handler_(handler), diagnostic_(diagnostic), options_(options) {}
  // Reads straight into `module` (no handler): the instruction records as they come, the
  // operands in place into module->operands, which must have room for one per word.
  Reader(std::span<const uint32_t> words, ParsedModule* module, Diagnostic* diagnostic,
         const ReaderOptions& options)
      : words_(words), module_(module), diagnostic_(diagnostic), options_(options) {
    operands_ = module->operands.data();
  }
  // The number of operands read (direct reading).
  size_t module_operands() const { return module_operands_; }

  bool Run();

 private:
  bool Fail(size_t offset, ws::string message) {
    if (diagnostic_) {
      diagnostic_->message = std::move(message);
      diagnostic_->word_offset = offset;
    }
    return false;
  }

  bool ParseInstruction(size_t offset, bool* keep_going);
  // Reads the operands of an instruction by the build-time layout of its opcode. False when
  // something does not fit (an id out of bounds, an enumerant with parameters or none, a word
  // count the layout does not cover): the general way then reads it again and says what is wrong.
  bool ReadByLayout(const grammar::InstructionInfo& info, std::span<const uint32_t> inst) {
    const size_t count = inst.size();
    const size_t fixed = info.reader_fixed;
    const uint8_t tail = info.reader_tail;
    if (count - 1 < fixed || (tail >= 3 && count - 1 == fixed)) return false;
    const OperandInfo* const expected = grammar::Operands(info).data();
    const uint32_t bound_less_one = header_.bound - 1u;
    ParsedOperand* const out = operands_;
    size_t index = 1;
    for (; index <= fixed; ++index) {
      const OperandKind kind = expected[index - 1].kind;
      if (grammar::IsIdKind(kind)) {
        if (inst[index] - 1u >= bound_less_one) return false;
      } else if (kind != OperandKind::kLiteralInteger &&
                 !IsPlainEnumerant(expected[index - 1], inst[index])) {
        // An enumerant with parameters may close the fixed operands (OpDecorate's Offset n): its
        // parameters then end the instruction.
        if (tail != 1 || index != fixed ||
            !ReadClosingEnumerant(expected[index - 1], inst, index)) {
          return false;
        }
        index = count;
        break;
      }
      PutOneWord(out + index - 1, index, kind);
    }
    if (index < count) {
      const OperandKind kind = expected[fixed].kind;
      if (tail == 1) {  // Optional operands: an enumerant and its parameters may end it.
        if (!ReadClosingEnumerant(expected[fixed], inst, index)) return false;
        num_operands_ = count - 1;
      } else if (tail == 3) {  // A string that must end with the instruction.
        for (size_t k = index; k < count; ++k) {
          if (HasNullByte(inst[k]) != (k + 1 == count)) return false;
        }
        out[index - 1] = {static_cast<uint16_t>(index),
                          static_cast<uint16_t>(count - index),
                          kind,
                          NumberKind::kNone,
                          0,
                          0};
        num_operands_ = fixed + 1;
      } else if (tail == 4) {  // A number as wide as the result type (word 1), up to 64 bits.
        const NumericType type = Aux(inst[1]).numeric;
        const size_t words = type.width > 32 ? 2 : 1;
        if (type.kind == NumberKind::kNone || type.width == 0 || type.width > 64 ||
            count - index != words) {
          return false;
        }
        out[index - 1] = {static_cast<uint16_t>(index),
                          static_cast<uint16_t>(words),
                          kind,
                          type.kind,
                          static_cast<uint8_t>(type.width),
                          type.fp_encoding};
        num_operands_ = fixed + 1;
      } else {  // The variadic tail: all of one kind.
        const bool is_id = grammar::IsIdKind(kind);
        for (; index < count; ++index) {
          if (is_id && inst[index] - 1u >= bound_less_one) return false;
          PutOneWord(out + index - 1, index, kind);
        }
        num_operands_ = count - 1;
      }
    } else {
      num_operands_ = count - 1;
    }
    type_id_ = info.has_result_type ? inst[1] : 0;
    result_id_ = info.has_result ? inst[1u + info.has_result_type] : 0;
    return true;
  }
  // The enumerant or mask at word `index` and the parameters it brings, when they end the
  // instruction and each is one word (an id, a LiteralInteger or an enumerant without
  // parameters): their records. False otherwise.
  [[gnu::noinline]] bool ReadClosingEnumerant(const OperandInfo& expected,
                                              std::span<const uint32_t> inst, size_t index) {
    const grammar::OperandKindInfo& kind = grammar::GetOperandKind(expected.kind);
    const uint32_t word = inst[index];
    size_t at = index + 1;
    const auto read_parameters = [&](const grammar::EnumerantInfo* e) {
      if (e == nullptr || at + e->parameter_count > inst.size()) return false;
      for (const OperandInfo& parameter : grammar::Parameters(*e)) {
        if (grammar::IsIdKind(parameter.kind)) {
          if (inst[at] - 1u >= header_.bound - 1u) return false;
        } else if (parameter.kind != OperandKind::kLiteralInteger &&
                   !IsPlainEnumerant(parameter, inst[at])) {
          return false;
        }
        PutOneWord(operands_ + at - 1, at, parameter.kind);
        ++at;
      }
      return true;
    };
    if (kind.category == OperandCategory::kValueEnum) {
      if (!read_parameters(grammar::LookupEnumerant(expected.kind, word))) return false;
    } else if (kind.category == OperandCategory::kBitEnum && (word & ~kind.valid_mask) == 0) {
      // The parameters of the mask's bits, lowest bit first.
      for (uint32_t bits = word & kind.parameter_mask; bits != 0; bits &= bits - 1) {
        if (!read_parameters(grammar::LookupEnumerant(expected.kind, bits & (~bits + 1)))) {
          return false;
        }
      }
    } else {
      return false;
    }
    if (at != inst.size()) return false;
    PutOneWord(operands_ + index - 1, index, expected.kind);
    return true;
  }
  // Records the instruction whose operands are read (and what later ones need to know of it).
  [[gnu::always_inline]] inline bool FinishInstruction(size_t offset,
                                                       std::span<const uint32_t> inst,
                                                       uint16_t opcode,
                                                       const grammar::InstructionInfo* info,
                                                       int32_t ext_set, bool* keep_going);
  // The messages about malformed instructions are built out of line, keeping the parse loop
  // small; each returns false.
  [[gnu::cold, gnu::noinline]] bool FailWordCount(size_t offset);
  [[gnu::cold, gnu::noinline]] bool FailUnknownOpcode(size_t offset);
  [[gnu::cold, gnu::noinline]] bool FailMissingOperand(size_t offset,
                                                       const grammar::InstructionInfo& info,
                                                       const OperandInfo& expected);
  [[gnu::cold, gnu::noinline]] bool FailLeftOver(size_t offset,
                                                 const grammar::InstructionInfo& info,
                                                 size_t index);
  bool ParseOperand(const OperandInfo& expected, size_t offset, std::span<const uint32_t> inst,
                    size_t* index, uint16_t opcode, const char* inst_name);
  [[gnu::cold, gnu::noinline]] bool CheckId(uint32_t id, size_t offset, const char* inst_name,
                                            const OperandInfo& expected);
  // Checks an id operand at word `at` of the instruction and remembers what it means.
  bool NoteId(const OperandInfo& expected, uint32_t word, size_t at, size_t offset, uint16_t opcode,
              const char* inst_name) {
    if (word == 0 || word >= header_.bound) {
      return CheckId(word, offset + at, inst_name, expected);
    }
    if (expected.kind == OperandKind::kIdResultType) {
      type_id_ = word;
      context_type_ = word;
    } else if (expected.kind == OperandKind::kIdResult) {
      result_id_ = word;
    }
    // OpSwitch case literals are as wide as the selector's type.
    if (opcode == OpcodeOf(spv::Op::Switch) && at == 1) context_type_ = TypeOf(word);
    return true;
  }
  // A valid value of an enum kind that brings no parameters.
  static bool IsPlainEnumerant(const OperandInfo& expected, uint32_t word) {
    const grammar::OperandKindInfo& kind = grammar::GetOperandKind(expected.kind);
    if (kind.category == OperandCategory::kValueEnum) {
      const grammar::EnumerantInfo* e = grammar::LookupEnumerant(expected.kind, word);
      return e != nullptr && e->parameter_count == 0;
    }
    return kind.category == OperandCategory::kBitEnum && (word & ~kind.valid_mask) == 0 &&
           (word & kind.parameter_mask) == 0;
  }
  void PushOperands(std::span<const OperandInfo> ops) {
    for (size_t i = ops.size(); i-- > 0;) pending_.push_back(ops[i]);
  }

  std::span<const uint32_t> words_;
  InstructionHandler* handler_ = nullptr;
  ParsedModule* module_ = nullptr;  // Direct reading: the module the instructions go to.
  size_t module_operands_ = 0;      // Operands written into module_ before this instruction.
  Diagnostic* diagnostic_;
  ReaderOptions options_;
  Header header_;

  ws::vector<OperandInfo> pending_;  // Expected operands, next one at the back.
  // Operands of the current instruction. An instruction has at most 65535 words, no more than
  // the module has, and every operand takes at least one, so a buffer of the smaller size needs
  // no capacity checks (and a small module does not pay for a 786 KB one). Direct reading writes
  // into the module's operand array instead.
  std::unique_ptr<ParsedOperand[], ws::Free> own_operands_{
      module_ != nullptr ? nullptr
                         : static_cast<ParsedOperand*>(ws::Allocate(
                               sizeof(ParsedOperand) *
                               std::max<size_t>(1, std::min<size_t>(0x10000, words_.size()))))};
  ParsedOperand* operands_ = own_operands_.get();  // The current instruction's first operand.
  size_t num_operands_ = 0;
  void AddOperand(const ParsedOperand& op) { operands_[num_operands_++] = op; }
  // Per id, grown on demand up to the bound, so memory follows the ids actually defined: a
  // value's type id, or for a numeric scalar type or an OpExtInstImport the index of its entry in
  // aux_ (entries name their id, so a stale or mistaken index finds nothing).
  struct AuxInfo {
    uint32_t id;
    NumericType numeric;       // A numeric scalar type's shape.
    int32_t ext_inst_set = 0;  // OpExtInstImport: the grammar's set index + 1 (0: unknown).
  };
  uint32_t TypeOf(uint32_t id) const { return id < ids_.size() ? ids_[id] : 0; }
  const AuxInfo& Aux(uint32_t id) const {
    static const AuxInfo kNone{};
    if (id >= ids_.size()) return kNone;
    const uint32_t k = ids_[id];
    return k < aux_.size() && aux_[k].id == id ? aux_[k] : kNone;
  }
  uint32_t& Record(uint32_t id) {
    if (id < ids_.size()) [[likely]] {
      return ids_[id];
    }
    return Grow(id);
  }
  [[gnu::noinline]] uint32_t& Grow(uint32_t id) {
    ids_.resize(std::min<size_t>(header_.bound, std::max<size_t>({id + 1, ids_.size() * 2, 64})));
    return ids_[id];
  }
  ws::vector<uint32_t> ids_;
  ws::vector<AuxInfo> aux_;

  // Per-instruction state filled while operands are read.
  uint32_t type_id_ = 0;
  uint32_t result_id_ = 0;
  uint32_t context_type_ = 0;  // Type that sizes LiteralContextDependentNumber operands.
  int32_t ext_set_ = -1;
};

bool Reader::Run() {
  if (words_.size() < kHeaderWords) {
    return Fail(0, "truncated header: " + ws::to_string(words_.size()) +
                       " words, a SPIR-V module needs at least 5");
  }
  header_.magic = words_[0];
  header_.version = words_[1];
  header_.generator = words_[2];
  header_.bound = words_[3];
  header_.schema = words_[4];
  if (header_.magic != spv::kMagicNumber) {
    char buffer[80];
    std::snprintf(buffer, sizeof(buffer), "invalid magic number 0x%08x (expected 0x07230203)",
                  header_.magic);
    return Fail(0, buffer);
  }
  if (header_.bound == 0) return Fail(3, "id bound is 0: a module needs a bound of at least 1");
  if (header_.bound > options_.max_id_bound) {
    return Fail(3, "id bound " + ws::to_string(header_.bound) + " exceeds the limit of " +
                       ws::to_string(options_.max_id_bound));
  }
  if (module_ != nullptr) {
    module_->header = header_;
  } else if (!handler_->OnHeader(header_)) {
    return true;
  }
  // No module defines more ids than it has words: reserving that much (untouched) memory up front
  // saves the copies of growing one id at a time.
  ids_.reserve(std::min<size_t>(header_.bound, words_.size()));
  pending_.reserve(64);
  size_t offset = kHeaderWords;
  while (offset < words_.size()) {
    bool keep_going = true;
    const size_t size = words_[offset] >> 16;
    if (!ParseInstruction(offset, &keep_going)) return false;
    if (!keep_going) return true;
    offset += size;
  }
  return true;
}

bool Reader::CheckId(uint32_t id, size_t offset, const char* inst_name,
                     const OperandInfo& expected) {
  if (id == 0 || id >= header_.bound) {
    ws::string what = expected.name[0] ? ws::string(" '") + expected.name + "'" : "";
    return Fail(offset, ws::string(inst_name) + ": id " + ws::to_string(id) + " of operand" + what +
                            " is " +
                            (id == 0 ? "0, which is never a valid id"
                                     : "not below the bound " + ws::to_string(header_.bound)));
  }
  return true;
}

bool Reader::FailWordCount(size_t offset) {
  const uint32_t count = words_[offset] >> 16;
  const ws::string opcode = ws::to_string(words_[offset] & 0xFFFF);
  if (count == 0) return Fail(offset, "instruction with opcode " + opcode + " has word count 0");
  return Fail(offset, "instruction with opcode " + opcode + " and word count " +
                          ws::to_string(count) + " runs past the end of the module (" +
                          ws::to_string(words_.size() - offset) + " words left)");
}

bool Reader::FailUnknownOpcode(size_t offset) {
  return Fail(offset, "unknown opcode " + ws::to_string(words_[offset] & 0xFFFF));
}

bool Reader::FailMissingOperand(size_t offset, const grammar::InstructionInfo& info,
                                const OperandInfo& expected) {
  const ws::string what = expected.name[0] ? ws::string(" '") + expected.name + "'" : "";
  return Fail(offset, ws::string(info.name) + ": missing operand" + what + " (" +
                          grammar::GetOperandKind(expected.kind).name + "): word count " +
                          ws::to_string(words_[offset] >> 16) + " is too small");
}

bool Reader::FailLeftOver(size_t offset, const grammar::InstructionInfo& info, size_t index) {
  const uint32_t count = words_[offset] >> 16;
  return Fail(offset, ws::string(info.name) + ": " + ws::to_string(count - index) +
                          " word(s) left over after the last operand: word count " +
                          ws::to_string(count) + " is too large");
}

bool Reader::ParseInstruction(size_t offset, bool* keep_going) {
  const uint32_t first = words_[offset];
  const uint32_t count = first >> 16;
  const uint16_t opcode = first & 0xFFFF;
  if (count == 0 || offset + count > words_.size()) return FailWordCount(offset);
  const grammar::InstructionInfo* info = grammar::LookupOpcode(opcode);
  if (info == nullptr) return FailUnknownOpcode(offset);
  const std::span<const uint32_t> inst = words_.subspan(offset, count);

  // The layout sets the type, the result and the operand count itself; the general way starts
  // from a clean state.
  if (info->reader_tail != 0 && ReadByLayout(*info, inst)) {
    return FinishInstruction(offset, inst, opcode, info, -1, keep_going);
  }
  type_id_ = 0;
  result_id_ = 0;
  context_type_ = 0;
  ext_set_ = -1;
  num_operands_ = 0;
  pending_.clear();
  const std::span<const OperandInfo> ops = grammar::Operands(*info);
  size_t index = 1;
  // Fast path: most operands are ids or plain literal words, one word each, in grammar order.
  size_t k = 0;
  for (; k < ops.size() && index < count; ++k) {
    const OperandInfo& expected = ops[k];
    const bool is_id = grammar::IsIdKind(expected.kind);
    if (!is_id && expected.kind != OperandKind::kLiteralInteger) {
      // So are enumerants without parameters; anything else goes the general way.
      if (expected.quantifier == Quantifier::kVariadic ||
          !IsPlainEnumerant(expected, inst[index])) {
        break;
      }
      AddOperand({static_cast<uint16_t>(index), 1, expected.kind, NumberKind::kNone, 0, 0});
      ++index;
      continue;
    }
    if (expected.kind <= OperandKind::kIdResult && opcode != OpcodeOf(spv::Op::Switch)) {
      // The result type or the result: one word, checked against the bound and kept.
      const uint32_t word = inst[index];
      if (word - 1u >= header_.bound - 1u) {
        return CheckId(word, offset + index, info->name, expected);
      }
      if (expected.kind == OperandKind::kIdResultType) {
        type_id_ = word;
        context_type_ = word;
      } else {
        result_id_ = word;
      }
      AddOperand({static_cast<uint16_t>(index), 1, expected.kind, NumberKind::kNone, 0, 0});
      ++index;
      continue;
    }
    if (is_id && (expected.kind <= OperandKind::kIdResult || opcode == OpcodeOf(spv::Op::Switch))) {
      // Ids with something to remember (result type, result, a selector).
      do {
        if (!NoteId(expected, inst[index], index, offset, opcode, info->name)) return false;
        AddOperand({static_cast<uint16_t>(index), 1, expected.kind, NumberKind::kNone, 0, 0});
        ++index;
      } while (expected.quantifier == Quantifier::kVariadic && index < count);
      continue;
    }
    // Plain uses and literal words: an id only needs to be within the bound (0 < id < bound).
    do {
      const uint32_t word = inst[index];
      if (is_id && word - 1u >= header_.bound - 1u) {
        return CheckId(word, offset + index, info->name, expected);
      }
      AddOperand({static_cast<uint16_t>(index), 1, expected.kind, NumberKind::kNone, 0, 0});
      ++index;
    } while (expected.quantifier == Quantifier::kVariadic && index < count);
  }
  if (index >= count) {
    // All words are read: what the grammar still lists must be optional.
    for (; k < ops.size(); ++k) {
      if (ops[k].quantifier == Quantifier::kOne) return FailMissingOperand(offset, *info, ops[k]);
    }
  } else if (k < ops.size()) {
    PushOperands(ops.subspan(k));
  }
  while (!pending_.empty()) {
    const OperandInfo expected = pending_.back();
    pending_.pop_back();
    if (index >= count) {
      if (expected.quantifier != Quantifier::kOne) continue;
      return FailMissingOperand(offset, *info, expected);
    }
    if (expected.quantifier == Quantifier::kVariadic) pending_.push_back(expected);
    if (!ParseOperand(expected, offset, inst, &index, opcode, info->name)) return false;
  }
  if (index < count) return FailLeftOver(offset, *info, index);
  return FinishInstruction(offset, inst, opcode, info, ext_set_, keep_going);
}

bool Reader::FinishInstruction(size_t offset, std::span<const uint32_t> inst, uint16_t opcode,
                               const grammar::InstructionInfo* info, int32_t ext_set,
                               bool* keep_going) {
  const uint32_t count = static_cast<uint32_t>(inst.size());
  // Remember what later instructions need to read their operands.
  if (result_id_ != 0) {
    uint32_t& slot = Record(result_id_);
    slot = type_id_;
    // OpExtInstImport (11), OpTypeInt (21) and OpTypeFloat (22) are the only ones below 23 that
    // leave more than their type.
    static_assert(OpcodeOf(spv::Op::ExtInstImport) < 23 && OpcodeOf(spv::Op::TypeInt) < 23 &&
                  OpcodeOf(spv::Op::TypeFloat) < 23);
    if (opcode >= 23) [[likely]] {
      // A value or a type: its type id (0 for a type) is all there is.
    } else if (opcode == OpcodeOf(spv::Op::TypeInt) && count >= 4) {
      slot = static_cast<uint32_t>(aux_.size());
      aux_.push_back({result_id_,
                      {inst[3] ? NumberKind::kSigned : NumberKind::kUnsigned,
                       static_cast<uint16_t>(std::min<uint32_t>(inst[2], 0xFFFF)), 0}});
    } else if (opcode == OpcodeOf(spv::Op::TypeFloat) && count >= 3) {
      slot = static_cast<uint32_t>(aux_.size());
      aux_.push_back(
          {result_id_,
           {NumberKind::kFloat, static_cast<uint16_t>(std::min<uint32_t>(inst[2], 0xFFFF)),
            static_cast<uint16_t>(count >= 4 ? inst[3] + 1 : 0)}});
    } else if (opcode == OpcodeOf(spv::Op::ExtInstImport)) {
      slot = static_cast<uint32_t>(aux_.size());
      aux_.push_back(
          {result_id_, {}, grammar::LookupExtInstSet(DecodeString(inst.subspan(2))) + 1});
    }
  }

  if (module_ != nullptr) {
    // Field by field: plain stores (a braced record is packed in vector registers first).
    ParsedModule::Instruction& record = module_->instructions.emplace_back();
    record.offset = static_cast<uint32_t>(offset);
    record.num_words = static_cast<uint16_t>(count);
    record.opcode = opcode;
    record.type_id = type_id_;
    record.result_id = result_id_;
    record.ext_inst_set = ext_set;
    record.operand_begin = static_cast<uint32_t>(module_operands_);
    record.operand_count = static_cast<uint32_t>(num_operands_);
    module_operands_ += num_operands_;
    operands_ += num_operands_;
    return true;
  }
  ParsedInstruction parsed{inst,       static_cast<uint32_t>(offset),
                           opcode,     type_id_,
                           result_id_, ext_set,
                           info,       std::span<const ParsedOperand>(operands_, num_operands_)};
  *keep_going = handler_->OnInstruction(parsed);
  return true;
}

bool Reader::ParseOperand(const OperandInfo& expected, size_t offset,
                          std::span<const uint32_t> inst, size_t* index, uint16_t opcode,
                          const char* inst_name) {
  const size_t at = *index;
  const uint32_t word = inst[at];
  ParsedOperand op{static_cast<uint16_t>(at), 1, expected.kind, NumberKind::kNone, 0, 0};
  const grammar::OperandKindInfo& kind_info = grammar::GetOperandKind(expected.kind);
  switch (kind_info.category) {
    case OperandCategory::kId:
      if (!NoteId(expected, word, at, offset, opcode, inst_name)) return false;
      break;
    case OperandCategory::kLiteral:
      switch (expected.kind) {
        case OperandKind::kLiteralString: {
          size_t end = at;
          bool terminated = false;
          for (; end < inst.size(); ++end) {
            if (HasNullByte(inst[end])) {
              terminated = true;
              break;
            }
          }
          if (!terminated) {
            return Fail(offset + at, ws::string(inst_name) +
                                         ": literal string has no terminating null byte "
                                         "within the instruction");
          }
          op.num_words = static_cast<uint16_t>(end - at + 1);
          break;
        }
        case OperandKind::kLiteralContextDependentNumber: {
          const NumericType type = Aux(context_type_).numeric;
          if (type.kind == NumberKind::kNone) {
            return Fail(offset + at, ws::string(inst_name) + ": type %" +
                                         ws::to_string(context_type_) +
                                         " of the literal is not a numeric scalar type");
          }
          if (type.width == 0 || type.width > 64) {
            return Fail(offset + at, ws::string(inst_name) + ": literal of unsupported width " +
                                         ws::to_string(type.width));
          }
          op.number_kind = type.kind;
          op.number_width = static_cast<uint8_t>(type.width);
          op.fp_encoding = type.fp_encoding;
          op.num_words = type.width > 32 ? 2 : 1;
          if (at + op.num_words > inst.size()) {
            return Fail(offset + at, ws::string(inst_name) + ": " + ws::to_string(type.width) +
                                         "-bit literal runs past the end of the instruction");
          }
          break;
        }
        case OperandKind::kLiteralExtInstInteger: {
          // The set's id is the operand just before (OpExtInst: Set, then Instruction).
          const int32_t set = Aux(inst[at - 1]).ext_inst_set - 1;
          ext_set_ = set;
          // An unknown set (e.g. a non-semantic one) keeps OpExtInst's own "IdRef*" operands; a
          // known one replaces them with the extended instruction's operands.
          if (set < 0) break;
          if (!pending_.empty() && pending_.back().kind == OperandKind::kIdRef &&
              pending_.back().quantifier == Quantifier::kVariadic) {
            pending_.pop_back();
          }
          const grammar::ExtInstInfo* ext = grammar::LookupExtInst(set, word);
          if (ext == nullptr) {
            return Fail(offset + at, ws::string(inst_name) + ": unknown instruction " +
                                         ws::to_string(word) + " of extended instruction set " +
                                         grammar::GetExtInstSet(set).name);
          }
          PushOperands(grammar::Operands(*ext));
          break;
        }
        case OperandKind::kLiteralSpecConstantOpInteger: {
          const grammar::InstructionInfo* target = grammar::LookupOpcode(word);
          if (target == nullptr) {
            return Fail(offset + at, ws::string(inst_name) + ": unknown opcode " +
                                         ws::to_string(word) + " as its operation");
          }
          auto ops = grammar::Operands(*target);
          size_t skip = (target->has_result_type ? 1 : 0) + (target->has_result ? 1 : 0);
          PushOperands(ops.subspan(std::min(skip, ops.size())));
          break;
        }
        default:  // LiteralInteger, LiteralFloat: one word.
          break;
      }
      break;
    case OperandCategory::kComposite: {
      // Pairs become two operands.
      if (expected.kind == OperandKind::kPairLiteralIntegerIdRef) {
        pending_.push_back({OperandKind::kIdRef, Quantifier::kOne, ""});
        pending_.push_back({OperandKind::kLiteralContextDependentNumber, Quantifier::kOne, ""});
      } else if (expected.kind == OperandKind::kPairIdRefLiteralInteger) {
        pending_.push_back({OperandKind::kLiteralInteger, Quantifier::kOne, ""});
        pending_.push_back({OperandKind::kIdRef, Quantifier::kOne, ""});
      } else {
        pending_.push_back({OperandKind::kIdRef, Quantifier::kOne, ""});
        pending_.push_back({OperandKind::kIdRef, Quantifier::kOne, ""});
      }
      return true;  // Nothing consumed yet.
    }
    case OperandCategory::kValueEnum: {
      const grammar::EnumerantInfo* e = grammar::LookupEnumerant(expected.kind, word);
      if (e == nullptr) {
        return Fail(offset + at, ws::string(inst_name) + ": " + ws::to_string(word) +
                                     " is not a valid " + kind_info.name + " value");
      }
      PushOperands(grammar::Parameters(*e));
      break;
    }
    case OperandCategory::kBitEnum: {
      // Parameters follow in the order of the mask's bits, lowest first.
      uint32_t unknown = word & ~kind_info.valid_mask;
      // Pushed highest bit first, so that the lowest bit's parameters are read first.
      for (uint32_t with_parameters = word & kind_info.parameter_mask; with_parameters != 0;) {
        const uint32_t mask = 1u << (31 - __builtin_clz(with_parameters));
        with_parameters &= ~mask;
        const grammar::EnumerantInfo* e = grammar::LookupEnumerant(expected.kind, mask);
        if (e == nullptr) continue;
        auto params = grammar::Parameters(*e);
        for (size_t i = params.size(); i-- > 0;) pending_.push_back(params[i]);
      }
      if (unknown != 0) {
        char buffer[32];
        std::snprintf(buffer, sizeof(buffer), "0x%x", unknown);
        return Fail(offset + at, ws::string(inst_name) + ": bits " + buffer + " of the " +
                                     kind_info.name + " mask are not defined");
      }
      break;
    }
  }
  AddOperand(op);
  *index = at + op.num_words;
  return true;
}

}  // namespace

bool BytesToWords(std::span<const uint8_t> bytes, std::vector<uint32_t>* words,
                  Diagnostic* diagnostic) {
  if (bytes.size() % 4 != 0) {
    if (diagnostic) {
      diagnostic->message =
          "module size " + ws::to_string(bytes.size()) + " bytes is not a multiple of 4";
      diagnostic->word_offset = bytes.size() / 4;
    }
    return false;
  }
  words->resize(bytes.size() / 4);
  if (!bytes.empty()) std::memcpy(words->data(), bytes.data(), bytes.size());
  return true;
}

bool Parse(std::span<const uint32_t> words, InstructionHandler& handler, Diagnostic* diagnostic,
           const ReaderOptions& options) {
  if (!words.empty() && words[0] == __builtin_bswap32(spv::kMagicNumber)) {
    ws::vector<uint32_t> swapped(words.size());
    for (size_t i = 0; i < words.size(); ++i) swapped[i] = __builtin_bswap32(words[i]);
    // Tell the handler the module was big-endian through the header it sees.
    struct Forward : InstructionHandler {
      InstructionHandler& inner;
      explicit Forward(InstructionHandler& h) : inner(h) {}
      bool OnHeader(const Header& h) override {
        Header copy = h;
        copy.endianness = Endianness::kBig;
        return inner.OnHeader(copy);
      }
      bool OnInstruction(const ParsedInstruction& i) override { return inner.OnInstruction(i); }
    } forward(handler);
    return Reader(swapped, &forward, diagnostic, options).Run();
  }
  return Reader(words, &handler, diagnostic, options).Run();
}

namespace {

bool ParseInto(std::span<const uint32_t> words, ParsedModule* module, Diagnostic* diagnostic,
               const ReaderOptions& options, bool borrow) {
  module->instructions.clear();
  module->operands.clear();
  module->words.clear();
  module->borrowed = {};
  // Rough reservation: real modules average about four words an instruction.
  module->instructions.reserve(words.size() / 4 + 1);
  const bool swapped = !words.empty() && words[0] == __builtin_bswap32(spv::kMagicNumber);
  if (borrow && !swapped && !words.empty()) {
    module->borrowed = words;
  } else {
    module->words.assign(words.begin(), words.end());
    if (swapped) {
      for (uint32_t& w : module->words) w = __builtin_bswap32(w);
    }
  }
  // Never more operands than words. Sizing the array costs no more than its allocation
  // (ParsedOperand's default constructor leaves it as it is); what is not read is cut off.
  module->operands.resize(std::max<size_t>(1, module->data().size()));
  Reader reader(module->data(), module, diagnostic, options);
  const bool ok = reader.Run();
  module->operands.resize(reader.module_operands());
  if (!ok) return false;
  if (swapped) module->header.endianness = Endianness::kBig;
  return true;
}

}  // namespace

bool ParseModule(std::span<const uint32_t> words, ParsedModule* module, Diagnostic* diagnostic,
                 const ReaderOptions& options) {
  return ParseInto(words, module, diagnostic, options, false);
}

bool ParseModuleInPlace(std::span<const uint32_t> words, ParsedModule* module,
                        Diagnostic* diagnostic, const ReaderOptions& options) {
  return ParseInto(words, module, diagnostic, options, true);
}

std::string_view DecodeString(std::span<const uint32_t> words) {
  const char* chars = reinterpret_cast<const char*>(words.data());
  return std::string_view(chars, strnlen(chars, words.size() * 4));
}

uint32_t IdLimit(const ParsedModule& module) {
  const uint32_t bound = module.header.bound;
  const std::span<const uint32_t> words = module.data();
  if (bound <= 4 * words.size() + 1024) return bound;  // Every module of sane size.
  uint32_t max_id = 0;
  for (const ParsedModule::Instruction& inst : module.instructions) {
    max_id = std::max({max_id, inst.type_id, inst.result_id});
    for (uint32_t k = 0; k < inst.operand_count; ++k) {
      const ParsedOperand& op = module.operands[inst.operand_begin + k];
      if (grammar::IsIdKind(op.kind)) max_id = std::max(max_id, words[inst.offset + op.offset]);
    }
  }
  return std::min(bound, max_id + 1);
}

}  // namespace coopspv::binary
