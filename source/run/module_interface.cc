#include "source/run/module_interface.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace coopspv::run {
namespace {

// Opcodes, decorations, storage classes and execution values (SPIR-V 1.6 unified spec).
constexpr uint32_t kOpExtension = 10, kOpEntryPoint = 15, kOpExecutionMode = 16, kOpTypeArray = 28,
                   kOpTypeRuntimeArray = 29, kOpTypePointer = 32, kOpVariable = 59,
                   kOpDecorate = 71;
constexpr uint32_t kDecorationBlock = 2, kDecorationBufferBlock = 3, kDecorationBinding = 33,
                   kDecorationDescriptorSet = 34;
constexpr uint32_t kUniformConstant = 0, kUniform = 2, kPushConstant = 9, kStorageBuffer = 12;
constexpr uint32_t kGLCompute = 5, kLocalSize = 17;

// A literal string operand starting at words[at]: the string and the words it takes.
std::string_view ReadString(std::span<const uint32_t> words, size_t at, size_t end,
                            size_t* word_count) {
  const char* chars = reinterpret_cast<const char*>(words.data() + at);
  const size_t max = (end - at) * 4;
  const size_t length = std::find(chars, chars + max, '\0') - chars;
  *word_count = length / 4 + 1;
  return {chars, length};
}

}  // namespace

bool ReadModuleInterface(std::span<const uint32_t> words, std::string_view entry_point,
                         ModuleInterface* out, std::string* error) {
  *out = ModuleInterface();
  if (words.size() < 5) {
    *error = "not a SPIR-V module";
    return false;
  }
  const bool interface_lists_all = words[1] >= 0x00010400;
  bool found = false;
  uint32_t entry_id = 0;
  std::unordered_set<uint32_t> interface;
  std::unordered_map<uint32_t, uint32_t> sets, bindings, pointee, element;
  std::unordered_set<uint32_t> block, buffer_block;
  struct Variable {
    uint32_t id, type, storage;
  };
  std::vector<Variable> variables;
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xFFFF;
    if (count == 0 || at + count > words.size()) {
      *error = "malformed instruction at word " + std::to_string(at);
      return false;
    }
    const size_t end = at + count;
    auto w = [&](size_t i) { return at + i < end ? words[at + i] : 0u; };
    if (opcode == kOpExtension && count >= 2) {
      size_t name_words = 0;
      out->extensions.emplace_back(ReadString(words, at + 1, end, &name_words));
    } else if (opcode == kOpEntryPoint && count >= 4) {
      size_t name_words = 0;
      const std::string_view name = ReadString(words, at + 3, end, &name_words);
      if (w(1) == kGLCompute && name == entry_point && !found) {
        found = true;
        entry_id = w(2);
        for (size_t i = at + 3 + name_words; i < end; ++i) interface.insert(words[i]);
      }
    } else if (opcode == kOpExecutionMode && found && w(1) == entry_id && w(2) == kLocalSize &&
               count >= 6) {
      out->local_size[0] = w(3);
      out->local_size[1] = w(4);
      out->local_size[2] = w(5);
    } else if (opcode == kOpDecorate && count >= 3) {
      if (w(2) == kDecorationDescriptorSet) sets[w(1)] = w(3);
      if (w(2) == kDecorationBinding) bindings[w(1)] = w(3);
      if (w(2) == kDecorationBlock) block.insert(w(1));
      if (w(2) == kDecorationBufferBlock) buffer_block.insert(w(1));
    } else if (opcode == kOpTypePointer && count >= 4) {
      pointee[w(1)] = w(3);
    } else if ((opcode == kOpTypeArray || opcode == kOpTypeRuntimeArray) && count >= 3) {
      element[w(1)] = w(2);
    } else if (opcode == kOpVariable && count >= 4) {
      variables.push_back({w(2), w(1), w(3)});
    }
    at = end;
  }
  if (!found) {
    *error = "the module has no GLCompute entry point named '" + std::string(entry_point) + "'";
    return false;
  }
  for (const Variable& v : variables) {
    if (interface_lists_all && !interface.count(v.id)) continue;
    if (v.storage == kPushConstant) {
      out->push_constants = true;
      continue;
    }
    if (v.storage != kUniform && v.storage != kStorageBuffer && v.storage != kUniformConstant) {
      continue;
    }
    ModuleResource r;
    r.variable = v.id;
    r.set = sets.count(v.id) ? sets[v.id] : 0;
    r.binding = bindings.count(v.id) ? bindings[v.id] : 0;
    uint32_t type = pointee.count(v.type) ? pointee[v.type] : 0;
    while (element.count(type)) type = element[type];  // Arrays of blocks: the block.
    if (v.storage == kStorageBuffer || (v.storage == kUniform && buffer_block.count(type))) {
      r.kind = ModuleResource::kStorage;
    } else if (v.storage == kUniform && block.count(type)) {
      r.kind = ModuleResource::kUniform;
    }
    out->resources.push_back(r);
  }
  return true;
}

bool CheckPipelineInterface(const Script& script, const Pipeline& p, ModuleInterface* interface,
                            std::string* error) {
  const Shader& shader = *script.FindShader(p.shader);
  if (!ReadModuleInterface(shader.words, p.entry_point, interface, error)) {
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
