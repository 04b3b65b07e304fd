// Find-or-add for the types and constants a pass declares: one id per distinct opcode and
// operands, the module's own equal declaration first where the pass allows it. Where a new
// declaration goes is the pass's choice (a rebuilt section of words, or an ir::Builder cursor):
// FindOrAdd calls back to write it.
#ifndef COOPSPV_SOURCE_IR_DECLARATIONS_H_
#define COOPSPV_SOURCE_IR_DECLARATIONS_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "source/ir/analyses.h"
#include "source/ir/module.h"

namespace coopspv::ir {

class Declarations {
 public:
  // kModule: the module's first equal declaration (TypeTable::Find) is used when there is one.
  // kNever: always one the pass adds. A declaration asked for both ways is added (or found)
  // once for each.
  enum class Reuse : uint32_t { kNever = 0, kModule = 1 };

  explicit Declarations(const Module& module) : module_(module) {}

  // The id declared with `op` and `operands` (the words after the result id; for a constant,
  // its result type first): the one given before, else the module's (with Reuse::kModule),
  // else `add(op, operands)`'s, which writes the declaration and returns its new result id.
  template <class Add>
  Id FindOrAdd(spv::Op op, std::span<const uint32_t> operands, Reuse reuse, Add&& add) {
    Id& id = Slot(op, operands, reuse);  // std::map: stays valid while `add` declares more.
    if (id == 0 && reuse == Reuse::kModule) id = module_.types().Find(op, operands);
    if (id == 0) id = add(op, operands);
    return id;
  }
  template <class Add>
  Id FindOrAdd(spv::Op op, std::initializer_list<uint32_t> operands, Reuse reuse, Add&& add) {
    return FindOrAdd(op, std::span<const uint32_t>(operands.begin(), operands.size()), reuse,
                     std::forward<Add>(add));
  }

  // FindOrAdd for a pass that rebuilds the module from sections of words: a new declaration
  // takes id *next_id (then incremented) and is appended to `section`.
  Id FindOrAppend(spv::Op op, std::span<const uint32_t> operands, Reuse reuse,
                  std::vector<uint32_t>* section, Id* next_id);
  Id FindOrAppend(spv::Op op, std::initializer_list<uint32_t> operands, Reuse reuse,
                  std::vector<uint32_t>* section, Id* next_id) {
    return FindOrAppend(op, std::span<const uint32_t>(operands.begin(), operands.size()), reuse,
                        section, next_id);
  }

  // The opcode and operands `id` was found or added with here; false for any other id.
  bool Lookup(Id id, spv::Op* op, std::span<const uint32_t>* operands) const;

  // Appends a whole declaration instruction to `out`: `result` before the operands of a type,
  // after the result type of a constant.
  static void Append(spv::Op op, Id result, std::span<const uint32_t> operands,
                     std::vector<uint32_t>* out);

 private:
  Id& Slot(spv::Op op, std::span<const uint32_t> operands, Reuse reuse);

  const Module& module_;
  // Key: opcode, reuse, operands.
  std::map<std::vector<uint32_t>, Id> ids_;
};

}  // namespace coopspv::ir

#endif  // COOPSPV_SOURCE_IR_DECLARATIONS_H_
