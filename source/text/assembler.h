// The assembler: the text syntax of spirv-as to a binary module.
//
// Ids are written %name or %123; each distinct spelling gets the next id in order of first
// appearance (with preserve_numeric_ids, %123 keeps id 123). Enumerants are written by name
// (masks joined with '|') or as numbers; literal numbers follow the width of their type; "!<n>"
// emits the raw word n. A leading "; Version:", "; Generator:" and "; Bound:" comment block, as
// spirv-dis prints it, sets those header words.
#ifndef COOPSPV_SOURCE_TEXT_ASSEMBLER_H_
#define COOPSPV_SOURCE_TEXT_ASSEMBLER_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "source/common/diagnostic.h"

namespace coopspv::text {

struct AssembleOptions {
  // Header version when set (e.g. from --target-env); else the "; Version:" comment, else
  // default_version.
  std::optional<uint32_t> version;
  uint32_t default_version = 0x00010600;
  bool preserve_numeric_ids = false;
};

bool Assemble(std::string_view text, const AssembleOptions& options, std::vector<uint32_t>* words,
              Diagnostic* diagnostic);

}  // namespace coopspv::text

#endif  // COOPSPV_SOURCE_TEXT_ASSEMBLER_H_
