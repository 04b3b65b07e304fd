// The disassembler: binary to the text syntax of spirv-dis.
#ifndef COOPSPV_SOURCE_TEXT_DISASSEMBLER_H_
#define COOPSPV_SOURCE_TEXT_DISASSEMBLER_H_

#include <cstdint>
#include <span>
#include <string>
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

// Prints one instruction's text (without indentation), using `names` for ids (or numbers when
// `names` is empty, or an id's name is).
ws::string InstructionText(const binary::ParsedInstruction& inst,
                           const ws::vector<ws::string>& names);

}  // namespace coopspv::text

#endif  // COOPSPV_SOURCE_TEXT_DISASSEMBLER_H_
