#include "source/ir/builder.h"

#include "source/binary/writer.h"

namespace coopspv::ir {

Builder::Builder(const Module& module) : module_(module), next_id_(module.bound()) {}

void Builder::SetInsertBeforeFunctions() {
  if (!module_.functions().empty()) {
    SetInsertBefore(module_.functions()[0].def);
  } else {
    SetInsertAtEnd();
  }
}

Id Builder::Add(spv::Op op, Id type, std::span<const uint32_t> operands, Id result) {
  const grammar::InstructionInfo* info = grammar::LookupOpcode(static_cast<uint32_t>(op));
  if (info && info->has_result && result == 0) result = FreshId();
  std::vector<uint32_t>* out;
  if (cursor_.anchor == kNoInst) {
    out = &at_end_;
  } else {
    Edit& edit = edits_[cursor_.anchor];
    out = cursor_.after ? &edit.after : &edit.before;
  }
  const size_t count = 1 + (type ? 1 : 0) + (result ? 1 : 0) + operands.size();
  out->push_back((static_cast<uint32_t>(count) << 16) | static_cast<uint32_t>(op));
  if (type) out->push_back(type);
  if (result) out->push_back(result);
  out->insert(out->end(), operands.begin(), operands.end());
  return result;
}

std::vector<uint32_t> Builder::StringWords(std::string_view text) {
  std::vector<uint32_t> words;
  binary::AppendString(text, &words);
  return words;
}

void Builder::Replace(InstIndex i, spv::Op op, std::span<const uint32_t> operand_words) {
  Edit& edit = edits_[i];
  edit.replaced = true;
  edit.replacement.clear();
  edit.replacement.push_back((static_cast<uint32_t>(operand_words.size() + 1) << 16) |
                             static_cast<uint32_t>(op));
  edit.replacement.insert(edit.replacement.end(), operand_words.begin(), operand_words.end());
}

std::unique_ptr<Module> Builder::Finish(Diagnostic* diagnostic) {
  // Renames resolve chains (a -> b -> c) once.
  auto resolve = [&](Id id) {
    for (int hops = 0; hops < 64; ++hops) {
      auto r = renames_.find(id);
      if (r == renames_.end() || r->second == id) break;
      id = r->second;
    }
    return id;
  };
  std::vector<uint32_t> words(module_.words().begin(), module_.words().begin() + 5);
  words.reserve(module_.words().size() + at_end_.size());
  // Instructions of the module are renamed through the operands they were parsed with, before
  // anything is re-read: a use can then never name a definition that was removed (an OpSwitch
  // selector, whose type gives its literals' width, merged into an equal constant).
  auto append = [&](const Inst& inst) {
    const size_t at = words.size();
    words.insert(words.end(), inst.words.begin(), inst.words.end());
    if (renames_.empty()) return;
    for (const auto& op : inst.operands) {
      if (!grammar::IsIdKind(op.kind) || op.kind == grammar::OperandKind::kIdResult) continue;
      for (uint16_t k = 0; k < op.num_words; ++k) {
        uint32_t& w = words[at + op.offset + k];
        w = resolve(w);
      }
    }
  };
  bool new_words = !at_end_.empty();
  for (InstIndex i = 0; i < module_.num_instructions(); ++i) {
    auto it = edits_.find(i);
    const Inst inst = module_.inst(i);
    if (it == edits_.end()) {
      append(inst);
      continue;
    }
    const Edit& edit = it->second;
    words.insert(words.end(), edit.before.begin(), edit.before.end());
    if (edit.replaced) {
      words.insert(words.end(), edit.replacement.begin(), edit.replacement.end());
    } else if (!edit.removed) {
      append(inst);
    }
    words.insert(words.end(), edit.after.begin(), edit.after.end());
    new_words = new_words || edit.replaced || !edit.before.empty() || !edit.after.empty();
  }
  words.insert(words.end(), at_end_.begin(), at_end_.end());
  words[3] = std::max(module_.bound(), next_id_);
  if (!renames_.empty() && new_words) {
    // Instructions the pass wrote are renamed after parsing them in place.
    binary::ParsedModule parsed;
    if (!binary::ParseModule(words, &parsed, diagnostic)) return nullptr;
    for (size_t k = 0; k < parsed.instructions.size(); ++k) {
      const auto& rec = parsed.instructions[k];
      for (uint32_t o = 0; o < rec.operand_count; ++o) {
        const auto& op = parsed.operands[rec.operand_begin + o];
        if (!grammar::IsIdKind(op.kind) || op.kind == grammar::OperandKind::kIdResult) continue;
        uint32_t& w = parsed.words[rec.offset + op.offset];  // ParseModule owns its copy.
        w = resolve(w);
      }
    }
    words.assign(parsed.words.begin(), parsed.words.end());
  }
  return Module::Read(words, diagnostic);
}

}  // namespace coopspv::ir
