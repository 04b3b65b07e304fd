// Explicit layout of buffer blocks (SPIR-V 2.16.2, "Composite objects in the StorageBuffer,
// PhysicalStorageBuffer, Uniform, and PushConstant Storage Classes must be explicitly laid out";
// Vulkan "Offset and Stride Assignment"): every member of a Block / BufferBlock structure has an
// Offset, arrays an ArrayStride, matrices a MatrixStride; Offsets are multiples of the member's
// alignment, do not overlap earlier members or the padding after a structure or array; strides are
// multiples of the alignment and hold their element. The alignment follows the environment as the
// reference validator does by default: extended (std140) for Uniform Block, base (std430)
// elsewhere, relaxed vector placement from Vulkan 1.1, scalar only when asked for.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

using spv::Decoration;

enum class Mode : uint8_t { kExtended, kBase, kScalar };

struct MemberLayout {
  uint32_t offset = ~0u;
  uint32_t matrix_stride = 0;
  bool row_major = false;
  bool col_major = false;
};

// A member's matrix facts, carried down into arrays of matrices.
struct MatrixFacts {
  uint32_t stride = 0;
  bool row_major = false;
};

constexpr uint32_t kUnknown = ~0u;

uint32_t RoundUp(uint32_t v, uint32_t a) { return a == 0 ? v : (v + a - 1) / a * a; }

class BlockLayout {
 public:
  explicit BlockLayout(ValidationState& state) : state_(state), m_(state.module()) {
    const Options& o = state.options();
    relaxed_ = o.relax_block_layout || (o.env.is_vulkan() && o.env.api_minor >= 1);
    aligned_ = o.env.is_vulkan();
  }

  // Reads the layout decorations; false when decoration groups make them unknown.
  bool CollectDecorations();
  void Run();

 private:
  struct StructFacts {
    uint32_t alignment = 1;
    uint32_t size = 0;
  };

  uint32_t Alignment(Id type, Mode mode, const MatrixFacts& mf, int depth = 0);
  uint32_t ScalarAlignment(Id type, int depth = 0);
  uint32_t Size(Id type, const MatrixFacts& mf, int depth = 0);
  const StructFacts& Struct(Id id, Mode mode, int depth);
  void CheckStruct(Id id, Mode mode, const char* where, int depth = 0);
  void CheckArray(Id array, Mode mode, const MatrixFacts& mf, Id block, uint32_t member,
                  const char* where, int depth);
  void CheckBlock(Id type, spv::StorageClass sc, InstIndex user);
  // SPV_KHR_untyped_pointers: the data type an untyped variable, access chain, load, store or
  // array length names is laid out by its storage class's rules, Block or not.
  void CheckUntyped(InstIndex i, bool untyped);
  void CheckUntypedType(InstIndex user, Id type, Id pointer_type);
  // True when an OpEntryPoint lists `var` in its interface.
  bool InInterface(Id var) const;
  // Relaxed block layout: vectors of structures nested at an offset that is not a multiple of 16
  // do not straddle a 16-byte boundary where they land (`base`: the offset of `type` modulo 16).
  void CheckStraddles(Id type, uint32_t base, const char* where, int depth = 0);
  // True when `type` is an array (of arrays) one of whose ArraySrides is not a multiple of 16.
  bool OffStride(Id type);
  // A Block / BufferBlock structure `type` holds below its top (members, array elements); 0 when
  // none. `budget` bounds the types visited.
  Id NestedBlock(Id type, int& budget, int depth = 0);
  ws::string MemberText(Id id, uint32_t member) {
    return "member " + ws::to_string(member) + " of " + state_.Name(id);
  }

  ValidationState& state_;
  const ir::Module& m_;
  bool relaxed_ = false;
  // Alignment, overlap and stride rules: those of the Vulkan environment (the explicit layout
  // itself is a SPIR-V rule for every environment).
  bool aligned_ = false;
  // Some offset or stride is given by id (SPV_EXT_descriptor_heap): the types untyped pointers
  // reach are not checked.
  bool layout_by_id_ = false;
  // The PhysicalStorageBuffer pointer types to a structure (not a Block) or an array that no
  // instruction has produced yet (sorted).
  ws::vector<Id> psb_pointers_;
  ws::unordered_map<Id, ws::vector<MemberLayout>> members_;
  ws::unordered_map<Id, uint32_t> array_stride_;
  ws::unordered_set<Id> block_, buffer_block_;
  ws::unordered_map<uint64_t, StructFacts> struct_facts_;
  ws::unordered_set<uint64_t> checked_;
  ws::unordered_set<uint64_t> straddles_checked_;
};

uint64_t Key(Id id, Mode mode) { return (uint64_t{id} << 2) | static_cast<uint64_t>(mode); }

bool BlockLayout::CollectDecorations() {
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    const Op op = m_.opcode(i);
    const uint32_t n = m_.num_words(i);
    if (op == Op::GroupDecorate || op == Op::GroupMemberDecorate) return false;
    if (op == Op::Decorate && n >= 3) {
      const Id target = m_.word(i, 1);
      const auto d = static_cast<Decoration>(m_.word(i, 2));
      if (d == Decoration::Block) block_.insert(target);
      if (d == Decoration::BufferBlock) buffer_block_.insert(target);
      if (d == Decoration::ArrayStride && n >= 4) array_stride_[target] = m_.word(i, 3);
    } else if (op == Op::MemberDecorate && n >= 4) {
      const Id target = m_.word(i, 1);
      const uint32_t member = m_.word(i, 2);
      const InstIndex def = m_.Def(target);
      if (def == kNoInst || m_.opcode(def) != Op::TypeStruct) continue;
      const uint32_t count = m_.num_words(def) - 2;
      if (member >= count) continue;  // decoration.member.
      ws::vector<MemberLayout>& ms = members_[target];
      ms.resize(count);
      const auto d = static_cast<Decoration>(m_.word(i, 3));
      if (d == Decoration::Offset && n >= 5) ms[member].offset = m_.word(i, 4);
      if (d == Decoration::MatrixStride && n >= 5) ms[member].matrix_stride = m_.word(i, 4);
      if (d == Decoration::RowMajor) ms[member].row_major = true;
      if (d == Decoration::ColMajor) ms[member].col_major = true;
    } else if ((op == Op::MemberDecorateIdEXT && n >= 4 &&
                static_cast<Decoration>(m_.word(i, 3)) == Decoration::OffsetIdEXT) ||
               (op == Op::DecorateId && n >= 3 &&
                static_cast<Decoration>(m_.word(i, 2)) == Decoration::ArrayStrideIdEXT)) {
      // SPV_EXT_descriptor_heap: offsets and strides by id, which this checker does not read.
      layout_by_id_ = true;
    }
  }
  return true;
}

uint32_t BlockLayout::ScalarAlignment(Id type, int depth) {
  if (depth > 64) return 1;
  switch (state_.DefOp(type)) {
    case Op::TypeInt:
    case Op::TypeFloat:
      return std::max(1u, state_.ScalarWidth(type) / 8);
    case Op::TypePointer:
    case Op::TypeForwardPointer:
      return 8;
    case Op::TypeVector:
    case Op::TypeVectorIdEXT:
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
      return ScalarAlignment(state_.DefWord(type, 2), depth + 1);
    case Op::TypeStruct: {
      uint32_t a = 1;
      const InstIndex def = m_.Def(type);
      for (uint32_t k = 2; k < m_.num_words(def); ++k) {
        a = std::max(a, ScalarAlignment(m_.word(def, k), depth + 1));
      }
      return a;
    }
    default:
      return 1;
  }
}

uint32_t BlockLayout::Alignment(Id type, Mode mode, const MatrixFacts& mf, int depth) {
  if (mode == Mode::kScalar) return ScalarAlignment(type);
  if (depth > 64) return 1;
  const Op op = state_.DefOp(type);
  switch (op) {
    case Op::TypeVector:
    case Op::TypeVectorIdEXT: {
      // SPV_EXT_long_vector: one component aligns as a scalar, three or more (long vectors
      // included) as four, as glslang lays them out and spirv-val checks them.
      const uint32_t c = ScalarAlignment(state_.DefWord(type, 2));
      const uint32_t n = state_.VectorCount(type).value_or(4);
      return n == 1 ? c : n == 2 ? 2 * c : 4 * c;
    }
    case Op::TypeMatrix: {
      // A vector of the matrix's rows (column-major) or columns (row-major).
      const Id column = state_.DefWord(type, 2);
      const uint32_t c = ScalarAlignment(state_.DefWord(column, 2));
      const uint32_t n = mf.row_major ? state_.DefWord(type, 3) : state_.DefWord(column, 3);
      const uint32_t a = n == 2 ? 2 * c : 4 * c;
      return mode == Mode::kExtended ? RoundUp(a, 16) : a;
    }
    case Op::TypeArray:
    case Op::TypeRuntimeArray: {
      const uint32_t a = Alignment(state_.DefWord(type, 2), mode, mf, depth + 1);
      return mode == Mode::kExtended ? RoundUp(a, 16) : a;
    }
    case Op::TypeStruct:
      return Struct(type, mode, depth + 1).alignment;
    default:
      return ScalarAlignment(type);
  }
}

uint32_t BlockLayout::Size(Id type, const MatrixFacts& mf, int depth) {
  if (depth > 64) return 0;
  switch (state_.DefOp(type)) {
    case Op::TypeInt:
    case Op::TypeFloat:
    case Op::TypePointer:
    case Op::TypeForwardPointer:
      return ScalarAlignment(type);  // A scalar's (or pointer's) size is its alignment.
    case Op::TypeVector:
    case Op::TypeVectorIdEXT: {
      const uint64_t size = uint64_t{state_.VectorCount(type).value_or(0)} *
                            Size(state_.DefWord(type, 2), mf, depth + 1);
      return size > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<uint32_t>(size);
    }
    case Op::TypeMatrix: {
      const uint32_t columns = state_.DefWord(type, 3);
      if (!mf.row_major) return columns * mf.stride;
      const Id column = state_.DefWord(type, 2);
      const uint32_t rows = state_.DefWord(column, 3);
      return (rows - 1) * mf.stride + columns * Size(state_.DefWord(column, 2), mf, depth + 1);
    }
    case Op::TypeArray: {
      const std::optional<int64_t> length = KnownValue(state_, state_.DefWord(type, 3));
      if (!length || *length < 1 || *length > 0xFFFFFFFF) return 0;
      const uint32_t element = Size(state_.DefWord(type, 2), mf, depth + 1);
      const auto it = array_stride_.find(type);
      const uint64_t stride = it == array_stride_.end() ? element : it->second;
      const uint64_t size = static_cast<uint64_t>(*length - 1) * stride + element;
      return size > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<uint32_t>(size);
    }
    case Op::TypeStruct:
      return Struct(type, Mode::kBase, depth + 1).size;
    default:
      return 0;
  }
}

const BlockLayout::StructFacts& BlockLayout::Struct(Id id, Mode mode, int depth) {
  const uint64_t key = Key(id, mode);
  auto it = struct_facts_.find(key);
  if (it != struct_facts_.end()) return it->second;
  StructFacts facts;
  struct_facts_[key] = facts;  // Cuts cycles (invalid modules).
  const InstIndex def = m_.Def(id);
  const auto ms = members_.find(id);
  for (uint32_t k = 2; def != kNoInst && k < m_.num_words(def) && depth <= 64; ++k) {
    MatrixFacts mf;
    uint32_t offset = 0;
    if (ms != members_.end()) {
      mf = {ms->second[k - 2].matrix_stride, ms->second[k - 2].row_major};
      offset = ms->second[k - 2].offset == ~0u ? 0 : ms->second[k - 2].offset;
    }
    const Id type = m_.word(def, k);
    facts.alignment = std::max(facts.alignment, Alignment(type, mode, mf, depth + 1));
    const uint64_t end = uint64_t{offset} + Size(type, mf, depth + 1);
    facts.size =
        static_cast<uint32_t>(std::max<uint64_t>(facts.size, std::min<uint64_t>(end, ~0u)));
  }
  if (mode == Mode::kExtended) facts.alignment = RoundUp(facts.alignment, 16);
  return struct_facts_[key] = facts;
}

const char* ModeText(Mode mode) {
  switch (mode) {
    case Mode::kExtended:
      return "extended (std140) alignment";
    case Mode::kBase:
      return "base (std430) alignment";
    case Mode::kScalar:
      return "scalar alignment";
  }
  return "";
}

void BlockLayout::CheckArray(Id array, Mode mode, const MatrixFacts& mf, Id block, uint32_t member,
                             const char* where, int depth) {
  if (depth > 64 || state_.Full()) return;
  const Id element = state_.DefWord(array, 2);
  const InstIndex def = m_.Def(array);
  const auto it = array_stride_.find(array);
  // Built only for a report. `block` 0: the array is itself the laid-out type (untyped pointers).
  const auto context = [&] {
    return block == 0 ? ws::string(where) : "in " + MemberText(block, member) + ", " + where;
  };
  if (it == array_stride_.end()) {
    state_.Report("block-layout.explicit", def,
                  state_.Describe(def) + " (" + context() + ") has no ArrayStride decoration");
  } else if (aligned_) {
    const uint32_t alignment = Alignment(array, mode, mf);
    const uint32_t size = Size(element, mf);
    if (it->second % alignment != 0 || it->second < size) {
      state_.Report(
          "block-layout.array-stride", def,
          state_.Describe(def) + " (" + context() + "): ArrayStride " + ws::to_string(it->second) + " is " +
              (it->second < size ? "smaller than its element's size " + ws::to_string(size)
                                 : "not a multiple of its " + ws::string(ModeText(mode)) + " " +
                                       ws::to_string(alignment)));
    }
  }
  const Op op = state_.DefOp(element);
  if (op == Op::TypeArray || op == Op::TypeRuntimeArray) {
    CheckArray(element, mode, mf, block, member, where, depth + 1);
  } else if (op == Op::TypeStruct) {
    CheckStruct(element, mode, where, depth + 1);
  }
}

// True when a vector of `size` bytes at `offset` is placed as relaxed block layout allows.
bool ProperlyStraddles(uint32_t offset, uint32_t size) {
  if (size <= 16) return offset / 16 == (offset + size - 1) / 16;
  return offset % 16 == 0;
}

void BlockLayout::CheckStruct(Id id, Mode mode, const char* where, int depth) {
  if (depth > 64 || !checked_.insert(Key(id, mode)).second) return;
  const InstIndex def = m_.Def(id);
  if (def == kNoInst) return;
  const uint32_t count = m_.num_words(def) - 2;
  const auto ms_it = members_.find(id);
  ws::vector<MemberLayout> ms =
      ms_it == members_.end() ? ws::vector<MemberLayout>(count) : ms_it->second;
  struct Placed {
    uint32_t offset;
    uint32_t member;
  };
  ws::vector<Placed> order;
  for (uint32_t k = 0; k < count; ++k) {
    if (ms[k].offset == ~0u) {
      state_.Report("block-layout.explicit", def,
                    state_.Describe(def) + " (" + where + "): " + MemberText(id, k) +
                        " has no Offset decoration");
      return;
    }
    order.push_back({ms[k].offset, k});
  }
  // On both keys: std::stable_sort would take a buffer from the heap (a reused workspace
  // allocates nothing).
  std::sort(order.begin(), order.end(), [](const Placed& a, const Placed& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.member < b.member;
  });
  uint64_t next_valid = 0;
  for (const Placed& p : order) {
    if (state_.Full()) return;
    const Id type = m_.word(def, 2 + p.member);
    const MatrixFacts mf{ms[p.member].matrix_stride, ms[p.member].row_major};
    Id inner = type;
    // Bounded: an invalid module may declare an array of itself (ids before their definition).
    for (int k = 0; k < 64 && (state_.DefOp(inner) == Op::TypeArray ||
                               state_.DefOp(inner) == Op::TypeRuntimeArray);
         ++k) {
      inner = state_.DefWord(inner, 2);
    }
    const Op op = state_.DefOp(type);
    if (state_.DefOp(inner) == Op::TypeMatrix) {
      if (mf.stride == 0) {
        state_.Report("block-layout.explicit", def,
                      state_.Describe(def) + " (" + where + "): " + MemberText(id, p.member) +
                          " is a matrix without a MatrixStride decoration");
        continue;
      }
      if (aligned_ && !ms[p.member].row_major && !ms[p.member].col_major) {
        state_.Report("block-layout.explicit", def,
                      state_.Describe(def) + " (" + where + "): " + MemberText(id, p.member) +
                          " is a matrix without a RowMajor or ColMajor decoration");
      }
      const uint32_t a = Alignment(inner, mode, mf);
      if (aligned_ && mf.stride % a != 0) {
        state_.Report("block-layout.matrix-stride", def,
                      state_.Describe(def) + " (" + where + "): " + MemberText(id, p.member) +
                          " has MatrixStride " + ws::to_string(mf.stride) +
                          ", not a multiple of its " + ModeText(mode) + " " + ws::to_string(a));
      }
    }
    if (op == Op::TypeStruct) CheckStruct(type, mode, where, depth + 1);
    if (op == Op::TypeArray || op == Op::TypeRuntimeArray) {
      CheckArray(type, mode, mf, id, p.member, where, depth + 1);
    }
    // Relaxed layout: a structure placed off a 16-byte boundary (directly, or as an element of
    // arrays with such a stride) moves its vectors there; aligned placements need no second look.
    if (relaxed_ && aligned_ && mode != Mode::kScalar && state_.DefOp(inner) == Op::TypeStruct &&
        (p.offset % 16 != 0 || OffStride(type))) {
      CheckStraddles(type, p.offset % 16, where, depth + 1);
    }
    if (!aligned_) continue;
    const uint32_t size = Size(type, mf);
    const uint32_t alignment = Alignment(type, mode, mf);
    // Built only for a report: naming ids computes the friendly names.
    const auto at = [&] {
      return state_.Describe(def) + " (" + where + "): " + MemberText(id, p.member) +
             " at Offset " + ws::to_string(p.offset);
    };
    if (op == Op::TypeVector && mode != Mode::kScalar && relaxed_) {
      const uint32_t component = ScalarAlignment(type);
      if (p.offset % component != 0) {
        state_.Report(
            "block-layout.offset", def,
            at() + " is not a multiple of its component size " + ws::to_string(component));
      } else if (!ProperlyStraddles(p.offset, size)) {
        state_.Report("block-layout.offset", def,
                      at() + ": a vector of " + ws::to_string(size) +
                          " bytes must not straddle a 16-byte boundary (" +
                          (size <= 16 ? "relaxed block layout" : "it starts on a multiple of 16") +
                          ")");
      }
    } else if (p.offset % alignment != 0) {
      state_.Report(
          "block-layout.offset", def,
          at() + " is not a multiple of its " + ModeText(mode) + " " + ws::to_string(alignment));
    }
    if (p.offset < next_valid) {
      state_.Report("block-layout.overlap", def,
                    at() + " overlaps the previous member or its padding, which end at " +
                        ws::to_string(next_valid));
    }
    next_valid = uint64_t{p.offset} + size;
    if (mode != Mode::kScalar && (op == Op::TypeStruct || op == Op::TypeArray)) {
      next_valid =
          RoundUp(static_cast<uint32_t>(std::min<uint64_t>(next_valid, 0xFFFFFFF0u)), alignment);
    }
  }
}

bool BlockLayout::OffStride(Id type) {
  for (int k = 0; k < 64 && (state_.DefOp(type) == Op::TypeArray ||
                             state_.DefOp(type) == Op::TypeRuntimeArray);
       ++k) {
    const auto it = array_stride_.find(type);
    if (it != array_stride_.end() && it->second % 16 != 0) return true;
    type = state_.DefWord(type, 2);
  }
  return false;
}

void BlockLayout::CheckStraddles(Id type, uint32_t base, const char* where, int depth) {
  if (depth > 64 || state_.Full()) return;
  const Op op = state_.DefOp(type);
  if (op == Op::TypeArray || op == Op::TypeRuntimeArray) {
    const Id element = state_.DefWord(type, 2);
    const Op element_op = state_.DefOp(element);
    if (element_op != Op::TypeStruct && element_op != Op::TypeArray &&
        element_op != Op::TypeRuntimeArray) {
      return;
    }
    const auto stride = array_stride_.find(type);
    if (stride == array_stride_.end()) return;
    uint64_t count = 1;
    if (op == Op::TypeArray) {
      const std::optional<int64_t> length = KnownValue(state_, state_.DefWord(type, 3));
      if (length && *length > 1) count = static_cast<uint64_t>(*length);
    }
    // Element positions repeat modulo 16 after at most 16 elements.
    bool seen[16] = {};
    for (uint64_t k = 0; k < count; ++k) {
      const uint32_t at = static_cast<uint32_t>((base + k * stride->second) % 16);
      if (seen[at]) break;
      seen[at] = true;
      CheckStraddles(element, at, where, depth + 1);
    }
    return;
  }
  if (op != Op::TypeStruct || !straddles_checked_.insert(Key(type, Mode{}) << 4 | base).second) {
    return;
  }
  const auto ms = members_.find(type);
  if (ms == members_.end()) return;
  const InstIndex def = m_.Def(type);
  for (uint32_t k = 2; k < m_.num_words(def) && k - 2 < ms->second.size(); ++k) {
    const MemberLayout& member = ms->second[k - 2];
    if (member.offset == ~0u) continue;
    const uint32_t at = (base + member.offset) % 16;
    const Id member_type = m_.word(def, k);
    const Op member_op = state_.DefOp(member_type);
    if (member_op == Op::TypeStruct || member_op == Op::TypeArray ||
        member_op == Op::TypeRuntimeArray) {
      CheckStraddles(member_type, at, where, depth + 1);
    } else if (member_op == Op::TypeVector && base != 0) {
      // At base 0 CheckStruct has checked the member where it lands.
      const uint32_t size = Size(member_type, MatrixFacts{});
      if (size != 0 && !ProperlyStraddles(at, size)) {
        state_.Report("block-layout.offset", def,
                      state_.Describe(def) + " (" + where + "): " +
                          MemberText(type, k - 2) + " at Offset " +
                          ws::to_string(member.offset) + " lands at " + ws::to_string(at) +
                          " modulo 16 in its buffer: a vector of " + ws::to_string(size) +
                          " bytes must not straddle a 16-byte boundary (relaxed block layout)");
      }
    }
  }
}

void BlockLayout::CheckBlock(Id type, spv::StorageClass sc, InstIndex user) {
  const Options& o = state_.options();
  Id s = type;
  if (sc != spv::StorageClass::Workgroup &&
      (state_.DefOp(s) == Op::TypeArray || state_.DefOp(s) == Op::TypeRuntimeArray)) {
    s = state_.DefWord(s, 2);
  }
  if (state_.DefOp(s) != Op::TypeStruct) return;
  const bool block = block_.count(s) != 0, buffer_block = buffer_block_.count(s) != 0;
  if (!block && !buffer_block) return;
  Mode mode = Mode::kBase;
  const char* where = "StorageBuffer";
  switch (sc) {
    case spv::StorageClass::Uniform:
      where = block ? "Uniform Block" : "Uniform BufferBlock";
      if (block && !buffer_block && !o.uniform_buffer_standard_layout) mode = Mode::kExtended;
      break;
    case spv::StorageClass::StorageBuffer:
      if (!block) return;
      break;
    case spv::StorageClass::PushConstant:
      if (!block) return;
      where = "PushConstant";
      break;
    case spv::StorageClass::PhysicalStorageBuffer:
      if (!block) return;
      where = "PhysicalStorageBuffer";
      break;
    case spv::StorageClass::Workgroup:
      if (!block) return;
      where = "Workgroup";
      if (o.workgroup_scalar_block_layout) mode = Mode::kScalar;
      break;
    default:
      return;
  }
  if (o.scalar_block_layout) mode = Mode::kScalar;
  if (!checked_.count(Key(s, mode))) {
    int budget = 4096;
    if (const Id inner = NestedBlock(s, budget)) {
      state_.Report("block-layout.nested-block", user,
                    state_.Describe(user) + ": " + state_.Name(s) + " contains " +
                        state_.Name(inner) +
                        "; a Block or BufferBlock is not nested in another Block or BufferBlock");
      checked_.insert(Key(s, mode));
      return;
    }
  }
  CheckStruct(s, mode, where);
}

void BlockLayout::CheckUntypedType(InstIndex user, Id type, Id pointer_type) {
  const std::optional<spv::StorageClass> sc = state_.PointerStorageClass(pointer_type);
  if (!sc) return;
  const bool untyped = state_.DefOp(pointer_type) == Op::TypeUntypedPointerKHR;
  // Typed pointers: the pointee of OpBufferPointerEXT's result, and of PhysicalStorageBuffer
  // pointers an instruction produces.
  if (!untyped && m_.opcode(user) != Op::BufferPointerEXT &&
      *sc != spv::StorageClass::PhysicalStorageBuffer) {
    return;
  }
  const Options& o = state_.options();
  const char* where = nullptr;
  Mode mode = Mode::kBase;
  Op op = state_.DefOp(type);
  // An array of Block / BufferBlock structures is an array of descriptors: its element is laid
  // out.
  if (untyped && (op == Op::TypeArray || op == Op::TypeRuntimeArray) &&
      (block_.count(state_.DefWord(type, 2)) != 0 ||
       buffer_block_.count(state_.DefWord(type, 2)) != 0)) {
    type = state_.DefWord(type, 2);
    op = Op::TypeStruct;
  }
  if (op != Op::TypeStruct && op != Op::TypeArray && op != Op::TypeRuntimeArray) return;
  switch (*sc) {
    case spv::StorageClass::Uniform:
      where = "Uniform";
      if (buffer_block_.count(type) == 0 && !o.uniform_buffer_standard_layout) {
        mode = Mode::kExtended;
      }
      break;
    case spv::StorageClass::StorageBuffer:
      where = "StorageBuffer";
      break;
    case spv::StorageClass::PushConstant:
      where = "PushConstant";
      break;
    case spv::StorageClass::PhysicalStorageBuffer:
      where = "PhysicalStorageBuffer";
      break;
    case spv::StorageClass::Workgroup:
      where = "Workgroup";
      if (o.workgroup_scalar_block_layout) mode = Mode::kScalar;
      break;
    default:
      return;
  }
  if (o.scalar_block_layout) mode = Mode::kScalar;
  // Each type and rule set is checked once, named by the first instruction that reaches it.
  if (op == Op::TypeStruct ? checked_.count(Key(type, mode)) != 0
                           : !checked_.insert(Key(type, mode)).second) {
    return;
  }
  const ws::string context = ws::string(where) + " storage, reached through " +
                             (untyped ? "untyped pointer" : "pointer") + " by " +
                             state_.Describe(user);
  if (op == Op::TypeStruct) {
    CheckStruct(type, mode, context.c_str());
  } else {
    CheckArray(type, mode, MatrixFacts{}, 0, 0, context.c_str(), 0);
    if (relaxed_ && aligned_ && mode != Mode::kScalar && OffStride(type)) {
      CheckStraddles(type, 0, context.c_str());
    }
  }
}

void BlockLayout::CheckUntyped(InstIndex i, bool untyped) {
  const uint32_t n = m_.num_words(i);
  switch (untyped ? m_.opcode(i) : Op::Nop) {
    case Op::UntypedVariableKHR:  // Result type, result, storage class, data type.
      if (n >= 5) CheckUntypedType(i, m_.word(i, 4), m_.word(i, 1));
      break;
    case Op::UntypedAccessChainKHR:  // Result type, result, base type, base, indexes.
    case Op::UntypedInBoundsAccessChainKHR:
    case Op::UntypedPtrAccessChainKHR:
    case Op::UntypedInBoundsPtrAccessChainKHR:
      if (n >= 5) CheckUntypedType(i, m_.word(i, 3), m_.word(i, 1));
      break;
    case Op::Load:  // Result type, result, pointer.
      if (n >= 4) CheckUntypedType(i, m_.word(i, 1), state_.TypeOf(m_.word(i, 3)));
      break;
    case Op::Store:  // Pointer, object.
      if (n >= 3) CheckUntypedType(i, state_.TypeOf(m_.word(i, 2)), state_.TypeOf(m_.word(i, 1)));
      break;
    case Op::UntypedArrayLengthKHR:  // Result type, result, structure type, pointer, member.
      if (n >= 5) CheckUntypedType(i, m_.word(i, 3), state_.TypeOf(m_.word(i, 4)));
      break;
    case Op::BufferPointerEXT:  // Result type (a typed pointer), result, buffer.
      if (n >= 4) CheckUntypedType(i, state_.PointeeType(m_.word(i, 1)), m_.word(i, 1));
      break;
    default:
      break;
  }
  // A PhysicalStorageBuffer pointer an instruction produces (conversions, loads, access chains,
  // constants): its pointee, once per pointer type.
  const Id type = m_.type_id(i);
  if (type != 0 && !psb_pointers_.empty()) {
    const auto it = std::lower_bound(psb_pointers_.begin(), psb_pointers_.end(), type);
    if (it != psb_pointers_.end() && *it == type) {
      psb_pointers_.erase(it);
      CheckUntypedType(i, state_.PointeeType(type), type);
    }
  }
}

Id BlockLayout::NestedBlock(Id type, int& budget, int depth) {
  if (depth > 64 || --budget < 0) return 0;
  switch (state_.DefOp(type)) {
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
      return NestedBlock(state_.DefWord(type, 2), budget, depth + 1);
    case Op::TypeStruct: {
      if (depth > 0 && (block_.count(type) != 0 || buffer_block_.count(type) != 0)) return type;
      const InstIndex def = m_.Def(type);
      for (uint32_t k = 2; k < m_.num_words(def); ++k) {
        if (const Id inner = NestedBlock(m_.word(def, k), budget, depth + 1)) return inner;
      }
      return 0;
    }
    default:
      return 0;
  }
}

// True when `type` is or contains OpTypeBool (structure members, array elements, vector
// components).
bool ContainsBool(const ValidationState& state, Id type, int depth = 0) {
  if (depth > 64) return false;
  const ir::Module& m = state.module();
  switch (state.DefOp(type)) {
    case Op::TypeBool:
      return true;
    case Op::TypeVector:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
      return ContainsBool(state, state.DefWord(type, 2), depth + 1);
    case Op::TypeStruct: {
      const InstIndex def = m.Def(type);
      for (uint32_t k = 2; k < m.num_words(def); ++k) {
        if (ContainsBool(state, m.word(def, k), depth + 1)) return true;
      }
      return false;
    }
    default:
      return false;
  }
}

// SPIR-V 2.16.2 (Shader): Booleans are not stored in externally visible storage classes.
void CheckBoolStorage(ValidationState& state, InstIndex i, Id pointee, spv::StorageClass sc) {
  using spv::StorageClass;
  if (sc != StorageClass::Uniform && sc != StorageClass::StorageBuffer &&
      sc != StorageClass::PushConstant && sc != StorageClass::PhysicalStorageBuffer) {
    return;
  }
  if (!state.HasCapability(spv::Capability::Shader) || !ContainsBool(state, pointee)) return;
  state.Report("block-layout.bool", i,
               state.Describe(i) + ": " + state.Name(pointee) + " contains a Boolean, which " +
                   StorageClassName(sc) + " storage (externally visible) cannot hold");
}

bool BlockLayout::InInterface(Id var) const {
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    if (m_.opcode(i) != Op::EntryPoint) continue;
    for (const uint32_t id : ir::EntryPointInterface(m_.inst(i))) {
      if (id == var) return true;
    }
  }
  return false;
}

void BlockLayout::Run() {
  const bool known = CollectDecorations();
  const bool layout = !state_.options().skip_block_layout && known;
  for (InstIndex i = 0; i < m_.global_end() && !state_.Full(); ++i) {
    const Op op = m_.opcode(i);
    if (op == Op::UntypedVariableKHR && known && m_.num_words(i) >= 5 &&
        static_cast<spv::StorageClass>(m_.word(i, 3)) == spv::StorageClass::Workgroup &&
        state_.HasCapability(spv::Capability::Shader) &&
        (state_.options().env.is_vulkan() || InInterface(m_.result_id(i)))) {
      // SPV_KHR_untyped_pointers: a shader's Workgroup memory has a layout only as a Block (in
      // Vulkan every such variable, elsewhere those an entry point lists, as spirv-val checks).
      const Id data = m_.word(i, 4);
      if (state_.DefOp(data) != Op::TypeStruct || block_.count(data) == 0) {
        state_.Report("block-layout.explicit", i,
                      state_.Describe(i) + ": the data type " + state_.Name(data) +
                          " of an untyped Workgroup variable in a shader must be a Block "
                          "structure, which gives it an explicit layout");
      }
    } else if (op == Op::Variable && m_.num_words(i) >= 4) {
      const Id pointer = m_.word(i, 1);
      const std::optional<spv::StorageClass> sc = state_.PointerStorageClass(pointer);
      if (sc) CheckBoolStorage(state_, i, state_.PointeeType(pointer), *sc);
      if (sc && layout) CheckBlock(state_.PointeeType(pointer), *sc, i);
    } else if (layout && op == Op::TypePointer && m_.num_words(i) >= 4 &&
               static_cast<spv::StorageClass>(m_.word(i, 2)) ==
                   spv::StorageClass::PhysicalStorageBuffer) {
      CheckBlock(m_.word(i, 3), spv::StorageClass::PhysicalStorageBuffer, i);
      // A Block pointee is checked above; other structures and arrays when an instruction
      // produces such a pointer.
      const Op pointee = state_.DefOp(m_.word(i, 3));
      if ((pointee == Op::TypeStruct && block_.count(m_.word(i, 3)) == 0) ||
          pointee == Op::TypeArray || pointee == Op::TypeRuntimeArray) {
        psb_pointers_.push_back(m_.word(i, 1));
      }
    }
  }
  // Untyped pointers, OpBufferPointerEXT and PhysicalStorageBuffer pointers (Vulkan, as the
  // reference validator checks them): every instruction that names the data type it reaches.
  // Modules without those capabilities skip the walk.
  const bool untyped = state_.HasCapability(spv::Capability::UntypedPointersKHR) ||
                       state_.HasCapability(spv::Capability::DescriptorHeapEXT);
  if (layout && !layout_by_id_ && state_.options().env.is_vulkan() &&
      (untyped || !psb_pointers_.empty())) {
    std::sort(psb_pointers_.begin(), psb_pointers_.end());
    for (InstIndex i = 0; i < m_.num_instructions() && !state_.Full(); ++i) {
      if (!untyped && psb_pointers_.empty()) break;
      CheckUntyped(i, untyped);
    }
  }
}

}  // namespace

void ValidateBlockLayout(ValidationState& state) {
  BlockLayout layout(state);
  layout.Run();
}

}  // namespace coopspv::val
