// Edits a module the way passes need: instructions are added at an insertion cursor, replaced,
// removed, and ids renamed (ReplaceAllUsesWith); Finish() writes the new word stream and reads
// it back as a new module, so every analysis of the result starts fresh.
#ifndef COOPSPV_SOURCE_IR_BUILDER_H_
#define COOPSPV_SOURCE_IR_BUILDER_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "source/ir/module.h"

namespace coopspv::ir {

class Builder {
 public:
  explicit Builder(const Module& module);

  const Module& module() const { return module_; }

  // The cursor: new instructions go before or after an existing instruction, or at the end of
  // the module. Instructions added at the same place keep the order they were added in.
  void SetInsertBefore(InstIndex i) { cursor_ = {i, false}; }
  void SetInsertAfter(InstIndex i) { cursor_ = {i, true}; }
  void SetInsertAtEnd() { cursor_ = {kNoInst, true}; }
  // Before the first function (the end of the global section).
  void SetInsertBeforeFunctions();

  Id FreshId() { return next_id_++; }

  // Adds an instruction at the cursor. `result` 0 means: allocate a fresh id when the opcode
  // produces a result. Returns the result id (0 if none).
  Id Add(spv::Op op, Id type, std::span<const uint32_t> operands, Id result = 0);
  Id Add(spv::Op op, Id type, std::initializer_list<uint32_t> operands, Id result = 0) {
    return Add(op, type, std::span<const uint32_t>(operands.begin(), operands.size()), result);
  }
  // Adds a type or constant declaration at the cursor: `operands` are the words after the
  // result id (for a constant, its result type first). Returns the fresh result id.
  Id AddDeclaration(spv::Op op, std::span<const uint32_t> operands) {
    if (IsConstant(op) && !operands.empty()) return Add(op, operands[0], operands.subspan(1));
    return Add(op, 0, operands);
  }
  // Operand words for a literal string.
  static std::vector<uint32_t> StringWords(std::string_view text);

  void Remove(InstIndex i) { edits_[i].removed = true; }
  bool IsRemoved(InstIndex i) const {
    auto it = edits_.find(i);
    return it != edits_.end() && it->second.removed;
  }
  // Replaces an instruction with the given complete words (word count filled in).
  void Replace(InstIndex i, spv::Op op, std::span<const uint32_t> operand_words);
  // Every use of `from` (not its definition) becomes a use of `to`, in old and new
  // instructions alike.
  void ReplaceAllUsesWith(Id from, Id to) { renames_[from] = to; }

  // Builds the edited module. Fails (with a diagnostic) only if an added instruction is
  // malformed.
  std::unique_ptr<Module> Finish(Diagnostic* diagnostic);

 private:
  struct Edit {
    std::vector<uint32_t> before;  // Whole instructions.
    std::vector<uint32_t> after;
    std::vector<uint32_t> replacement;
    bool removed = false;
    bool replaced = false;
  };
  struct Cursor {
    InstIndex anchor;
    bool after;
  };

  const Module& module_;
  Cursor cursor_{kNoInst, true};
  std::unordered_map<InstIndex, Edit> edits_;
  std::vector<uint32_t> at_end_;
  std::unordered_map<Id, Id> renames_;
  Id next_id_;
};

}  // namespace coopspv::ir

#endif  // COOPSPV_SOURCE_IR_BUILDER_H_
