// The disassembler: binary to the text syntax of spirv-dis.
#ifndef COOPSPV_SOURCE_TEXT_DISASSEMBLER_H_
#define COOPSPV_SOURCE_TEXT_DISASSEMBLER_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "source/binary/reader.h"
#include "source/common/diagnostic.h"
#include "source/common/workspace.h"

namespace coopspv::text {

struct DisassembleOptions {
  bool header = true;          // The "; SPIR-V" comment block.
  bool indent = true;          // Align opcodes in column 16.
  bool friendly_names = true;  // Names from OpName and from types and constants; else %<id>.
};

bool Disassemble(std::span<const uint32_t> words, const DisassembleOptions& options,
                 std::string* text, Diagnostic* diagnostic);

// Names every id the way spirv-dis does by default: OpName strings (sanitized), then names
// derived from types ("uint", "v4float", "_ptr_Function_uint", "_arr_half_uint_16") and scalar
// constants ("uint_16", "int_n1", "float_0_5", "true"); duplicates get "_0", "_1", ... suffixes.
// Ids without a name are "<id>" (the '%' is printed by the caller), or "" when
// `number_unnamed` is false (InstructionText prints those as numbers; the validator names few ids
// and spares the strings).
ws::vector<ws::string> FriendlyNames(const binary::ParsedModule& module,
                                     bool number_unnamed = true);

// The names of FriendlyNames(module, false), made one id at a time: the cost of naming an id
// grows with the ids whose names could clash with its name (those of the same stem: the name
// without "_<digits>" suffixes), not with the module. Keeps a reference to `module`.
class LazyFriendlyNames {
 public:
  // `scan_end`: no instruction at or after this index names an id (an OpName, a built-in
  // OpDecorate, a type or a scalar constant), so the scan for those stops there; the caller
  // vouches for it (the validator, once the layout order was found right: only function bodies
  // follow the first OpFunction).
  explicit LazyFriendlyNames(const binary::ParsedModule& module, uint32_t scan_end = UINT32_MAX);
  ~LazyFriendlyNames();
  LazyFriendlyNames(const LazyFriendlyNames&) = delete;
  LazyFriendlyNames& operator=(const LazyFriendlyNames&) = delete;

  // The name of `id`, "" when it has none (FriendlyNames(module, false)[id]).
  const ws::string& Get(uint32_t id);

 private:
  struct Event {
    uint32_t inst;  // The instruction that names the id first.
    uint32_t id;
    const ws::string* name;  // Its entry of names_ once named, else null.
    // For an OpName whose string starts with a character other than '\0': the character its
    // name starts with ('_' for those that sanitizing replaces); else 0 (ask MayHaveStem).
    char lead;
  };
  // The name of `id` when the naming reaches event `pos`: nullptr when it has none yet.
  const ws::string* NameBefore(uint32_t id, uint32_t pos);
  // Names every id whose name has the stem of `id`'s name; false when that is beyond the limits
  // of lazy naming (deep nesting, names whose stems depend on each other).
  bool Resolve(uint32_t id);
  // Whether event `pos` may name its id with a name of stem `stem` (false only when it cannot).
  bool MayHaveStem(uint32_t pos, std::string_view stem);

  const binary::ParsedModule& module_;
  ws::vector<Event> events_;    // In module order.
  ws::vector<uint32_t> first_;  // For each id below the bound: its event's position + 1, or 0.
  ws::unordered_map<uint32_t, ws::string> names_;  // The ids named so far.
  struct Stem;                                     // The names of one stem.
  ws::vector<Stem> stems_;                         // In the order first needed.
  ws::unordered_map<ws::string, uint32_t, ws::StringHash> stem_index_;  // Into stems_.
  int depth_ = 0;
  bool failed_ = false;
  bool whole_ = false;  // Fell back to naming the whole module into whole_names_.
  ws::vector<ws::string> whole_names_;
  const ws::string none_;
};

// Opcode 5288 has two names: OpTypeVectorIdEXT (SPV_EXT_long_vector, the grammar's name) and
// OpTypeCooperativeVectorNV (SPV_NV_cooperative_vector). A module that declares CooperativeVectorNV
// and not LongVectorEXT can only mean a cooperative vector, and is printed with that name; every
// other module with the grammar's. The assembler takes either.
bool SpellsCooperativeVector(std::span<const uint32_t> declared_capabilities);
// The opcode's name as a module printed with `cooperative_vector_spelling` spells it.
const char* OpcodeSpelling(const grammar::InstructionInfo& info, bool cooperative_vector_spelling);

// Prints one instruction's text (without indentation), using `names` for ids (or numbers when
// `names` is empty, or an id's name is), opcode 5288 spelled as SpellsCooperativeVector says.
ws::string InstructionText(const binary::ParsedInstruction& inst,
                           const ws::vector<ws::string>& names,
                           bool cooperative_vector_spelling = false);
ws::string InstructionText(const binary::ParsedInstruction& inst, LazyFriendlyNames& names,
                           bool cooperative_vector_spelling = false);

}  // namespace coopspv::text

#endif  // COOPSPV_SOURCE_TEXT_DISASSEMBLER_H_
