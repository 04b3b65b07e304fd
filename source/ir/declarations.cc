#include "source/ir/declarations.h"

namespace coopspv::ir {

Id& Declarations::Slot(spv::Op op, std::span<const uint32_t> operands, Reuse reuse) {
  std::vector<uint32_t> key;
  key.reserve(operands.size() + 2);
  key.push_back(static_cast<uint32_t>(op));
  key.push_back(static_cast<uint32_t>(reuse));
  key.insert(key.end(), operands.begin(), operands.end());
  return ids_.try_emplace(std::move(key), 0).first->second;
}

Id Declarations::FindOrAppend(spv::Op op, std::span<const uint32_t> operands, Reuse reuse,
                              std::vector<uint32_t>* section, Id* next_id) {
  return FindOrAdd(op, operands, reuse, [&](spv::Op o, std::span<const uint32_t> words) {
    const Id id = (*next_id)++;
    Append(o, id, words, section);
    return id;
  });
}

bool Declarations::Lookup(Id id, spv::Op* op, std::span<const uint32_t>* operands) const {
  for (const auto& [key, value] : ids_) {
    if (value != id) continue;
    *op = static_cast<spv::Op>(key[0]);
    *operands = std::span<const uint32_t>(key).subspan(2);
    return true;
  }
  return false;
}

void Declarations::Append(spv::Op op, Id result, std::span<const uint32_t> operands,
                          std::vector<uint32_t>* out) {
  out->push_back((static_cast<uint32_t>(operands.size() + 2) << 16) | static_cast<uint32_t>(op));
  size_t k = 0;
  if (IsConstant(op) && !operands.empty()) out->push_back(operands[k++]);
  out->push_back(result);
  out->insert(out->end(), operands.begin() + k, operands.end());
}

}  // namespace coopspv::ir
