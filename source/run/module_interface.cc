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
#include "source/run/format.h"

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
    // The pointee; arrays of descriptors: the element, and the array's length (Vulkan allows
    // one array level; a runtime array takes any count).
    const InstIndex pointer = m->Def(m->type_id(i));
    Id type = pointer != ir::kNoInst && m->opcode(pointer) == Op::TypePointer &&
                      m->num_words(pointer) >= 4
                  ? m->word(pointer, 3)
                  : 0;
    for (int depth = 0; depth < 64; ++depth) {
      const Op t = m->DefOpcode(type);
      if (t != Op::TypeArray && t != Op::TypeRuntimeArray) break;
      const InstIndex array = m->Def(type);
      if (t == Op::TypeRuntimeArray) {
        r.count = 0;
      } else if (m->num_words(array) >= 4) {
        const InstIndex length = m->Def(m->word(array, 3));
        const Op op = length == ir::kNoInst ? Op::Nop : m->opcode(length);
        const bool constant =
            (op == Op::Constant || op == Op::SpecConstant) && m->num_words(length) >= 4;
        if (r.count != 0) r.count *= constant ? m->word(length, 3) : 1;
      }
      type = m->word(array, 2);
    }
    Id image = type;
    if (m->DefOpcode(type) == Op::TypeSampledImage) image = m->word(m->Def(type), 2);
    const InstIndex image_def = m->Def(image);
    if (image_def != ir::kNoInst && m->opcode(image_def) == Op::TypeImage &&
        m->num_words(image_def) >= 9) {
      r.image.dim = m->word(image_def, 3);
      r.image.arrayed = m->word(image_def, 5) != 0;
      r.image.multisampled = m->word(image_def, 6) != 0;
      const InstIndex sampled = m->Def(m->word(image_def, 2));
      if (sampled != ir::kNoInst && m->opcode(sampled) == Op::TypeFloat) {
        r.image.sampled_type = 'f';
      } else if (sampled != ir::kNoInst && m->opcode(sampled) == Op::TypeInt &&
                 m->num_words(sampled) >= 4) {
        r.image.sampled_type = m->word(sampled, 3) ? 'i' : 'u';
      }
    }
    const Op kind = m->DefOpcode(type);
    if (storage == U(spv::StorageClass::StorageBuffer) ||
        (storage == U(spv::StorageClass::Uniform) && buffer_block.count(type))) {
      r.kind = ModuleResource::kStorage;
    } else if (storage == U(spv::StorageClass::Uniform) && block.count(type)) {
      r.kind = ModuleResource::kUniform;
    } else if (kind == Op::TypeSampler) {
      r.kind = ModuleResource::kSampler;
    } else if (kind == Op::TypeSampledImage) {
      // GLSL's samplerBuffer: a sampled image of a Dim Buffer image reads a uniform texel buffer.
      r.kind = r.image.dim == U(spv::Dim::Buffer) ? ModuleResource::kUniformTexelBuffer
                                                  : ModuleResource::kCombinedImageSampler;
    } else if (kind == Op::TypeImage && image_def != ir::kNoInst && m->num_words(image_def) >= 9) {
      const uint32_t sampled = m->word(image_def, 7);
      const bool buffer = r.image.dim == U(spv::Dim::Buffer);
      r.kind = sampled == 1
                   ? (buffer ? ModuleResource::kUniformTexelBuffer : ModuleResource::kSampledImage)
               : sampled == 2
                   ? (buffer ? ModuleResource::kStorageTexelBuffer : ModuleResource::kStorageImage)
                   : ModuleResource::kImage;
    }
    out->resources.push_back(r);
  }
  return true;
}

namespace {

const char* ResourceName(ModuleResource::Kind kind) {
  switch (kind) {
    case ModuleResource::kStorage:
      return "storage buffer";
    case ModuleResource::kUniform:
      return "uniform buffer";
    case ModuleResource::kStorageImage:
      return "storage image";
    case ModuleResource::kSampledImage:
      return "sampled image";
    case ModuleResource::kImage:
      return "image";
    case ModuleResource::kSampler:
      return "sampler";
    case ModuleResource::kCombinedImageSampler:
      return "combined image sampler";
    case ModuleResource::kUniformTexelBuffer:
      return "uniform texel buffer";
    case ModuleResource::kStorageTexelBuffer:
      return "storage texel buffer";
    case ModuleResource::kOther:
      break;
  }
  return "resource";
}

// Vulkan's Shader Resource and Descriptor Type Correspondence: the descriptor types a variable
// of this kind reads.
bool Reads(ModuleResource::Kind resource, BufferBinding::Kind bound) {
  using B = BufferBinding;
  switch (resource) {
    case ModuleResource::kStorage:
      return bound == B::kStorage || bound == B::kStorageDynamic;
    case ModuleResource::kUniform:
      return bound == B::kUniform || bound == B::kUniformDynamic;
    case ModuleResource::kStorageImage:
      return bound == B::kStorageImage;
    case ModuleResource::kSampledImage:
      return bound == B::kSampledImage || bound == B::kCombinedImageSampler;
    case ModuleResource::kImage:
      return bound == B::kStorageImage || bound == B::kSampledImage ||
             bound == B::kCombinedImageSampler;
    case ModuleResource::kSampler:
      return bound == B::kSampler || bound == B::kCombinedImageSampler;
    case ModuleResource::kCombinedImageSampler:
      return bound == B::kCombinedImageSampler;
    case ModuleResource::kUniformTexelBuffer:
      return bound == B::kUniformTexelBuffer;
    case ModuleResource::kStorageTexelBuffer:
      return bound == B::kStorageTexelBuffer;
    case ModuleResource::kOther:
      break;
  }
  return false;
}

// Whether a view of `buffer`'s format reads as `sampled_type` ('f', 'i', 'u'): Vulkan wants the
// view's numeric format to match the image's Sampled Type (float for the normalized, scaled and
// float formats).
bool NumericMatches(const Buffer& buffer, char sampled_type) {
  const auto vk_format = ImageFormatOf(buffer.type);
  const ImageFormat* format = vk_format ? FindImageFormat(*vk_format) : nullptr;
  if (format == nullptr || sampled_type == 0) return true;
  const NumericFormat n = format->components.front().numeric;
  const char kind = n == NumericFormat::kSInt ? 'i' : n == NumericFormat::kUInt ? 'u' : 'f';
  return kind == sampled_type;
}

}  // namespace

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
               " that coopspv-run cannot bind (buffers, images, samplers and texel buffers)";
      return false;
    }
    const std::string kind = ResourceName(r.kind);
    const BufferBinding* bound = nullptr;
    for (const auto& b : p.bindings) {
      if (b.kind != BufferBinding::kPushConstant && b.set == r.set && b.binding == r.binding) {
        bound = &b;
      }
    }
    const std::string array = r.count == 1   ? ""
                              : r.count == 0 ? "a runtime array of "
                                             : "an array of " + std::to_string(r.count) + " ";
    if (bound == nullptr) {
      *error = where + "shader '" + shader.name + "' uses " + (array.empty() ? "a " : array) +
               kind + (r.count == 1 ? "" : "s") + " at " + slot +
               ", but the pipeline binds nothing there";
      return false;
    }
    const std::string mismatch = At(bound->line) + "binding mismatch: '" + bound->buffer() +
                                 "' is bound AS " + BufferBinding::KindName(bound->kind) + " at " +
                                 slot + ", but shader '" + shader.name + "' declares ";
    if (!Reads(r.kind, bound->kind)) {
      *error =
          mismatch + (array.empty() ? "a " : array) + kind + (r.count == 1 ? "" : "s") + " there";
      return false;
    }
    // Vulkan: a binding's descriptorCount is at least the length of the shader's array.
    if (r.count > bound->elements.size()) {
      *error = mismatch + array + kind + "s there; the binding has " +
               std::to_string(bound->elements.size()) + " (BIND BUFFER_ARRAY binds more)";
      return false;
    }
    if (!bound->IsImage() && !bound->IsTexelBuffer()) continue;
    for (const BufferBinding::Element& e : bound->elements) {
      const Buffer& buffer = *script.FindBuffer(e.name);
      const std::string image = At(bound->line) + "binding mismatch: '" + e.name + "' at " + slot +
                                " is " + buffer.type.Name();
      if (!NumericMatches(buffer, r.image.sampled_type)) {
        *error = image + ", but shader '" + shader.name + "' reads it as " +
                 (r.image.sampled_type == 'f'   ? "float"
                  : r.image.sampled_type == 'i' ? "signed integer"
                                                : "unsigned integer") +
                 " (Vulkan: the view's numeric format must match the image's Sampled Type)";
        return false;
      }
      if (bound->IsTexelBuffer()) continue;
      const ImageShape& shape = buffer.image;
      // The image views are 1D, 2D or 3D as the IMAGE's DIM_ says, of one layer.
      const uint32_t dim = shape.dimensions - 1;  // spv::Dim 1D, 2D, 3D.
      if (r.image.dim != dim || r.image.arrayed) {
        static constexpr const char* kDims[] = {"1D",   "2D",     "3D",         "Cube",
                                                "Rect", "Buffer", "SubpassData"};
        *error = image + " " + shape.Declaration() + ", but shader '" + shader.name +
                 "' declares an image of Dim " +
                 (r.image.dim < 7 ? kDims[r.image.dim] : std::to_string(r.image.dim)) +
                 (r.image.arrayed ? " Arrayed" : "") +
                 " (Vulkan: the view type must match the image's Dim and Arrayed; the image is "
                 "viewed as " +
                 std::to_string(shape.dimensions) + "D)";
        return false;
      }
      if (r.image.multisampled != (shape.samples > 1)) {
        *error = image + " " + shape.Declaration() + ", but shader '" + shader.name +
                 "' declares " +
                 (r.image.multisampled ? "a multisampled image (MS 1)"
                                       : "a single-sampled image (MS 0)") +
                 " there";
        return false;
      }
    }
  }
  for (const auto& b : p.bindings) {
    if (b.kind == BufferBinding::kPushConstant && !mi.push_constants) {
      *error = At(b.line) + "binding mismatch: '" + b.buffer() +
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
