#include "source/run/module_interface.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "source/binary/reader.h"
#include "source/common/float.h"
#include "source/ir/module.h"
#include "source/ir/workgroup_size.h"

namespace coopspv::run {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;

constexpr uint32_t U(auto e) { return static_cast<uint32_t>(e); }

// The functions `entry` reaches: through calls and through any other use of a function's id (the
// callbacks of cooperative matrix2 instructions).
std::vector<bool> ReachedFunctions(const ir::Module& m, Id entry) {
  std::vector<bool> reached(m.functions().size(), false);
  std::vector<uint32_t> work;
  auto reach = [&](Id id) {
    const uint32_t f = m.FunctionById(id);
    if (f != ~0u && !reached[f]) {
      reached[f] = true;
      work.push_back(f);
    }
  };
  reach(entry);
  while (!work.empty()) {
    const ir::Function& f = m.functions()[work.back()];
    work.pop_back();
    const InstIndex end = f.end == ir::kNoInst ? m.num_instructions() : f.end;
    for (InstIndex i = f.def + 1; i < end; ++i) {
      for (const auto& op : m.inst(i).operands) {
        if (grammar::IsIdKind(op.kind) && op.kind != grammar::OperandKind::kIdResult) {
          reach(m.word(i, op.offset));
        }
      }
    }
  }
  return reached;
}

}  // namespace

bool ReadModuleInterface(std::span<const uint32_t> words, std::string_view entry_point,
                         ModuleInterface* out, std::string* error,
                         std::span<const SpecConstant> spec) {
  *out = ModuleInterface();
  Diagnostic d;
  const auto m = ir::Module::Read(words, &d);
  if (!m) {
    *error = "not a SPIR-V module: " + d.ToString();
    return false;
  }
  Id entry = 0;
  for (InstIndex i = 0; i < m->global_end(); ++i) {
    const Op op = m->opcode(i);
    if (op == Op::Extension) {
      out->extensions.emplace_back(binary::DecodeString(m->inst(i).words.subspan(1)));
    } else if (op == Op::EntryPoint && entry == 0 && m->num_words(i) >= 4 &&
               m->word(i, 1) == U(spv::ExecutionModel::GLCompute) &&
               binary::DecodeString(m->inst(i).words.subspan(3)) == entry_point) {
      entry = m->word(i, 2);
    }
  }
  if (entry == 0 || m->FunctionById(entry) == ~0u) {
    *error = "the module has no GLCompute entry point named '" + std::string(entry_point) + "'";
    return false;
  }
  const ir::SpecValue spec_value = [&](uint32_t spec_id) -> std::optional<uint64_t> {
    for (const SpecConstant& s : spec) {
      if (s.id == spec_id) return s.value.bits;
    }
    return std::nullopt;
  };
  if (const auto size = ir::WorkgroupSize(*m, entry, &spec_value)) {
    for (int k = 0; k < 3; ++k) {
      out->local_size[k] = (*size)[k] <= 0xFFFFFFFFu ? static_cast<uint32_t>((*size)[k]) : 0;
    }
  }
  // Static use: the ids the reached functions name.
  const std::vector<bool> reached = ReachedFunctions(*m, entry);
  std::vector<bool> used(m->bound(), false);
  for (size_t f = 0; f < reached.size(); ++f) {
    if (!reached[f]) continue;
    const ir::Function& fn = m->functions()[f];
    const InstIndex end = fn.end == ir::kNoInst ? m->num_instructions() : fn.end;
    for (InstIndex i = fn.def + 1; i < end; ++i) {
      for (const auto& op : m->inst(i).operands) {
        if (grammar::IsIdKind(op.kind) && op.kind != grammar::OperandKind::kIdResult) {
          const Id id = m->word(i, op.offset);
          if (id < used.size()) used[id] = true;
        }
      }
    }
  }
  std::unordered_map<Id, uint32_t> sets, bindings;
  std::unordered_set<Id> block, buffer_block;
  for (InstIndex i = 0; i < m->global_end(); ++i) {
    if (m->opcode(i) != Op::Decorate || m->num_words(i) < 3) continue;
    const Id target = m->word(i, 1);
    const uint32_t decoration = m->word(i, 2);
    if (decoration == U(spv::Decoration::DescriptorSet) && m->num_words(i) >= 4) {
      sets[target] = m->word(i, 3);
    } else if (decoration == U(spv::Decoration::Binding) && m->num_words(i) >= 4) {
      bindings[target] = m->word(i, 3);
    } else if (decoration == U(spv::Decoration::Block)) {
      block.insert(target);
    } else if (decoration == U(spv::Decoration::BufferBlock)) {
      buffer_block.insert(target);
    }
  }
  for (InstIndex i = 0; i < m->global_end(); ++i) {
    if (m->opcode(i) != Op::Variable || m->num_words(i) < 4 || !used[m->result_id(i)]) continue;
    const uint32_t storage = m->word(i, 3);
    if (storage == U(spv::StorageClass::PushConstant)) {
      out->push_constants = true;
      continue;
    }
    if (storage != U(spv::StorageClass::Uniform) &&
        storage != U(spv::StorageClass::StorageBuffer) &&
        storage != U(spv::StorageClass::UniformConstant)) {
      continue;
    }
    ModuleResource r;
    r.variable = m->result_id(i);
    r.set = sets.count(r.variable) ? sets[r.variable] : 0;
    r.binding = bindings.count(r.variable) ? bindings[r.variable] : 0;
    // The pointee; arrays of blocks: the block.
    const InstIndex pointer = m->Def(m->type_id(i));
    Id type = pointer != ir::kNoInst && m->opcode(pointer) == Op::TypePointer &&
                      m->num_words(pointer) >= 4
                  ? m->word(pointer, 3)
                  : 0;
    for (int depth = 0; depth < 64; ++depth) {
      const Op t = m->DefOpcode(type);
      if (t != Op::TypeArray && t != Op::TypeRuntimeArray) break;
      type = m->word(m->Def(type), 2);
    }
    if (storage == U(spv::StorageClass::StorageBuffer) ||
        (storage == U(spv::StorageClass::Uniform) && buffer_block.count(type))) {
      r.kind = ModuleResource::kStorage;
    } else if (storage == U(spv::StorageClass::Uniform) && block.count(type)) {
      r.kind = ModuleResource::kUniform;
    }
    out->resources.push_back(r);
  }
  return true;
}

bool CheckPipelineInterface(const Script& script, const Pipeline& p, ModuleInterface* interface,
                            std::string* error) {
  const Shader& shader = *script.FindShader(p.shader);
  if (!ReadModuleInterface(shader.words, p.entry_point, interface, error, p.spec_constants)) {
    *error = At(p.line) + "PIPELINE '" + p.name + "', shader '" + shader.name + "': " + *error;
    return false;
  }
  const ModuleInterface& mi = *interface;
  const std::string where = At(p.line) + "PIPELINE '" + p.name + "': ";
  for (const ModuleResource& r : mi.resources) {
    const std::string slot =
        "DESCRIPTOR_SET " + std::to_string(r.set) + " BINDING " + std::to_string(r.binding);
    if (r.kind == ModuleResource::kOther) {
      *error = where + "shader '" + shader.name + "' declares a resource at " + slot +
               " that is not a storage or uniform buffer (coopspv-run binds only buffers)";
      return false;
    }
    const char* kind = r.kind == ModuleResource::kStorage ? "storage" : "uniform";
    const BufferBinding* bound = nullptr;
    for (const auto& b : p.bindings) {
      if (b.kind != BufferBinding::kPushConstant && b.set == r.set && b.binding == r.binding) {
        bound = &b;
      }
    }
    if (bound == nullptr) {
      *error = where + "shader '" + shader.name + "' uses a " + kind + " buffer at " + slot +
               ", but the pipeline binds nothing there";
      return false;
    }
    const bool storage = bound->kind == BufferBinding::kStorage;
    if (storage != (r.kind == ModuleResource::kStorage)) {
      *error = At(bound->line) + "binding mismatch: '" + bound->buffer + "' is bound AS " +
               (storage ? "storage" : "uniform") + " at " + slot + ", but shader '" + shader.name +
               "' declares a " + kind + " buffer there";
      return false;
    }
  }
  for (const auto& b : p.bindings) {
    if (b.kind == BufferBinding::kPushConstant && !mi.push_constants) {
      *error = At(b.line) + "binding mismatch: '" + b.buffer +
               "' is bound AS push_constant, but shader '" + shader.name +
               "' has no push-constant block";
      return false;
    }
  }
  if (mi.push_constants && std::none_of(p.bindings.begin(), p.bindings.end(), [](const auto& b) {
        return b.kind == BufferBinding::kPushConstant;
      })) {
    *error = where + "shader '" + shader.name +
             "' has a push-constant block, but the pipeline binds no buffer AS push_constant";
    return false;
  }
  return true;
}

}  // namespace coopspv::run
