#include "source/text/disassembler.h"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <unordered_map>

#include "source/common/float.h"
#include "source/common/workspace.h"
#include "source/grammar/grammar.h"

namespace coopspv::text {
namespace {

using binary::NumberKind;
using binary::ParsedInstruction;
using binary::ParsedOperand;
using grammar::OperandCategory;
using grammar::OperandKind;
using spv::Op;

Op OpOf(const ParsedInstruction& inst) { return static_cast<Op>(inst.opcode); }

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Whether Sanitize keeps `c` (it replaces the others by '_').
bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) || c == '_';
}

ws::string Sanitize(std::string_view name) {
  if (name.empty()) return "_";
  ws::string out(name);
  for (char& c : out) {
    if (!IsNameChar(c)) c = '_';
  }
  return out;
}

// The text of a context-dependent literal number.
ws::string NumberText(const ParsedInstruction& inst, const ParsedOperand& op) {
  uint64_t bits = inst.word(op);
  if (op.num_words == 2) bits |= static_cast<uint64_t>(inst.word(op, 1)) << 32;
  switch (op.number_kind) {
    case NumberKind::kSigned: {
      const int shift = 64 - op.number_width;
      const int64_t value = static_cast<int64_t>(bits << shift) >> shift;
      return ws::to_string(value);
    }
    case NumberKind::kFloat: {
      const int32_t encoding = static_cast<int32_t>(op.fp_encoding) - 1;  // -1: IEEE.
      if (op.number_width == 8 && encoding == kEncodingFloat8UnsignedE8M0) {
        return ws::string(std::string_view(FormatE8M0(bits)));
      }
      if (op.number_width == 8 && encoding == kEncodingMXInt8) {
        return ws::string(std::string_view(FormatMXInt8(bits)));
      }
      const std::optional<FloatFormat> format = FloatFormatOf(op.number_width, encoding);
      if (!format || format->width() != op.number_width) return ws::to_string(bits);
      return ws::string(std::string_view(FormatFloat(bits, *format)));
    }
    default:
      if (op.number_width < 64) bits &= (1ull << op.number_width) - 1;
      return ws::to_string(bits);
  }
}

ws::string QuoteString(std::string_view s) {
  ws::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

ws::string EnumText(OperandKind kind, uint32_t value) {
  const grammar::OperandKindInfo& info = grammar::GetOperandKind(kind);
  if (info.category == OperandCategory::kValueEnum) {
    const grammar::EnumerantInfo* e = grammar::LookupEnumerant(kind, value);
    return e ? e->name : ws::to_string(value);
  }
  if (value == 0) {
    const grammar::EnumerantInfo* e = grammar::LookupEnumerant(kind, 0u);
    return e ? e->name : "0";
  }
  ws::string out;
  for (int bit = 0; bit < 32; ++bit) {
    const uint32_t mask = 1u << bit;
    if (!(value & mask)) continue;
    if (!out.empty()) out += '|';
    const grammar::EnumerantInfo* e = grammar::LookupEnumerant(kind, mask);
    out += e ? ws::string(e->name) : ws::to_string(mask);
  }
  return out;
}

// Friendly names are capped so that no input makes them, or the text printing them, grow faster
// than the input: an OpName string is cut at kMaxOpName characters, and a name spelled from other
// names ("_arr_" + element + "_" + length, which grows with the nesting depth) that would be
// longer than kMaxDerivedName is replaced by its kind and id ("_arr_1234").
constexpr size_t kMaxOpName = 256;
constexpr size_t kMaxDerivedName = 128;

// A piece of a derived name: text, or the name of an id.
struct NamePart {
  NamePart(const char* t) : text(t) {}        // NOLINT: implicit on purpose.
  NamePart(const ws::string& t) : text(t) {}  // NOLINT
  static NamePart Of(uint32_t id) {
    NamePart p("");
    p.id = id;
    p.is_id = true;
    return p;
  }
  std::string_view text;
  uint32_t id = 0;
  bool is_id = false;
};

class NameTable {
 public:
  explicit NameTable(size_t bound) : names_(bound) {}

  bool Has(uint32_t id) const { return id < names_.size() && !names_[id].empty(); }
  const ws::string* Find(uint32_t id) const { return Has(id) ? &names_[id] : nullptr; }

  // Saves the name of `id`: `suggested` made a valid name and unique.
  void Save(uint32_t id, std::string_view suggested) {
    if (id >= names_.size() || Has(id)) return;
    SaveBase(id, BaseName(suggested));
  }

  // Appends a name for one more index (a table of a few names, not indexed by id).
  const ws::string& Append(ws::string base) {
    names_.emplace_back();
    SaveBase(static_cast<uint32_t>(names_.size() - 1), std::move(base));
    return names_.back();
  }

  // `suggested` made a valid name, before the uniqueness suffix.
  static ws::string BaseName(std::string_view suggested) {
    ws::string base = Sanitize(suggested.substr(0, kMaxOpName));
    // Ids without a name print as their number: a name of digits alone would be one of those.
    if (base.find_first_not_of("0123456789") == ws::string::npos) base.insert(0, "_");
    return base;
  }

  static size_t Digits(uint32_t v) {
    size_t n = 1;
    while (v >= 10) {
      v /= 10;
      ++n;
    }
    return n;
  }

  ws::vector<ws::string> Take(bool number_unnamed) {
    for (size_t id = 0; number_unnamed && id < names_.size(); ++id) {
      if (names_[id].empty()) names_[id] = ws::to_string(id);
    }
    return std::move(names_);
  }

 private:
  void SaveBase(uint32_t id, ws::string base) {
    ws::string name;
    uint32_t hash = Hash(base);
    if (!Used(base, hash)) {
      name = std::move(base);
    } else {
      // Suffixes _0, _1, ... in order, as spirv-dis picks them. Each base remembers the next
      // suffix to try (the ones before it are taken for good), so k equal names cost O(k).
      uint32_t& next = next_suffix_[base];
      do {
        name = base + "_" + ws::to_string(next++);
        hash = Hash(name);
      } while (Used(name, hash));
    }
    names_[id] = std::move(name);
    MarkUsed(id, hash);
  }

  // The names taken: an open-addressing set of the ids holding them (names_ is never resized and
  // a saved name never changes), at most half full, each slot with the name's hash.
  struct Slot {
    uint32_t hash = 0;
    uint32_t id_plus_one = 0;  // 0: empty.
  };
  static uint32_t Hash(std::string_view s) {  // FNV-1a.
    uint32_t h = 0x811C9DC5u;
    for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x01000193u;
    return h;
  }
  bool Used(std::string_view name, uint32_t hash) const {
    if (used_.empty()) return false;
    const size_t mask = used_.size() - 1;
    for (size_t pos = hash & mask; used_[pos].id_plus_one != 0; pos = (pos + 1) & mask) {
      const Slot& slot = used_[pos];
      if (slot.hash == hash && names_[slot.id_plus_one - 1] == name) return true;
    }
    return false;
  }
  void MarkUsed(uint32_t id, uint32_t hash) {
    if ((num_used_ + 1) * 2 > used_.size()) {
      ws::vector<Slot> old(std::max<size_t>(64, used_.size() * 2));
      old.swap(used_);
      for (const Slot& slot : old) {
        if (slot.id_plus_one != 0) Insert(slot);
      }
    }
    Insert({hash, id + 1});
    ++num_used_;
  }
  void Insert(const Slot& slot) {
    const size_t mask = used_.size() - 1;
    size_t pos = slot.hash & mask;
    while (used_[pos].id_plus_one != 0) pos = (pos + 1) & mask;
    used_[pos] = slot;
  }

  ws::vector<ws::string> names_;
  ws::vector<Slot> used_;
  size_t num_used_ = 0;
  ws::unordered_map<ws::string, uint32_t, ws::StringHash> next_suffix_;
};

ws::string IntTypeName(uint32_t width, bool is_signed) {
  switch (width) {
    case 8:
      return is_signed ? "char" : "uchar";
    case 16:
      return is_signed ? "short" : "ushort";
    case 32:
      return is_signed ? "int" : "uint";
    case 64:
      return is_signed ? "long" : "ulong";
    default:
      return (is_signed ? "i" : "u") + ws::to_string(width);
  }
}

ws::string FloatTypeName(const ParsedInstruction& inst) {
  const uint32_t width = inst.words[2];
  if (inst.words.size() > 3) {
    switch (static_cast<spv::FPEncoding>(inst.words[3])) {
      case spv::FPEncoding::BFloat16KHR:
        return "bfloat16";
      case spv::FPEncoding::Float8E4M3EXT:
        return "fp8e4m3";
      case spv::FPEncoding::Float8E5M2EXT:
        return "fp8e5m2";
      case spv::FPEncoding::Float6E2M3EXT:
        return "fp6e2m3";
      case spv::FPEncoding::Float6E3M2EXT:
        return "fp6e3m2";
      case spv::FPEncoding::Float4E2M1EXT:
        return "fp4e2m1";
      case spv::FPEncoding::Float8UnsignedE8M0EXT:
        return "fp8e8m0";
      case spv::FPEncoding::MXInt8EXT:
        return "mxint8";
      default:
        return "fp" + ws::to_string(width) + "_" + ws::to_string(inst.words[3]);
    }
  }
  switch (width) {
    case 16:
      return "half";
    case 32:
      return "float";
    case 64:
      return "double";
    default:
      return "fp" + ws::to_string(width);
  }
}

const char* GlslBuiltInName(spv::BuiltIn b) {
  using spv::BuiltIn;
  switch (b) {
    case BuiltIn::Position:
      return "gl_Position";
    case BuiltIn::PointSize:
      return "gl_PointSize";
    case BuiltIn::ClipDistance:
      return "gl_ClipDistance";
    case BuiltIn::CullDistance:
      return "gl_CullDistance";
    case BuiltIn::VertexId:
      return "gl_VertexID";
    case BuiltIn::InstanceId:
      return "gl_InstanceID";
    case BuiltIn::PrimitiveId:
      return "gl_PrimitiveID";
    case BuiltIn::InvocationId:
      return "gl_InvocationID";
    case BuiltIn::Layer:
      return "gl_Layer";
    case BuiltIn::ViewportIndex:
      return "gl_ViewportIndex";
    case BuiltIn::TessLevelOuter:
      return "gl_TessLevelOuter";
    case BuiltIn::TessLevelInner:
      return "gl_TessLevelInner";
    case BuiltIn::TessCoord:
      return "gl_TessCoord";
    case BuiltIn::PatchVertices:
      return "gl_PatchVertices";
    case BuiltIn::FragCoord:
      return "gl_FragCoord";
    case BuiltIn::PointCoord:
      return "gl_PointCoord";
    case BuiltIn::FrontFacing:
      return "gl_FrontFacing";
    case BuiltIn::SampleId:
      return "gl_SampleID";
    case BuiltIn::SamplePosition:
      return "gl_SamplePosition";
    case BuiltIn::SampleMask:
      return "gl_SampleMask";
    case BuiltIn::FragDepth:
      return "gl_FragDepth";
    case BuiltIn::HelperInvocation:
      return "gl_HelperInvocation";
    case BuiltIn::NumWorkgroups:
      return "gl_NumWorkGroups";
    case BuiltIn::WorkgroupSize:
      return "gl_WorkGroupSize";
    case BuiltIn::WorkgroupId:
      return "gl_WorkGroupID";
    case BuiltIn::LocalInvocationId:
      return "gl_LocalInvocationID";
    case BuiltIn::GlobalInvocationId:
      return "gl_GlobalInvocationID";
    case BuiltIn::LocalInvocationIndex:
      return "gl_LocalInvocationIndex";
    case BuiltIn::VertexIndex:
      return "gl_VertexIndex";
    case BuiltIn::InstanceIndex:
      return "gl_InstanceIndex";
    case BuiltIn::SubgroupSize:
      return "gl_SubgroupSize";
    case BuiltIn::SubgroupLocalInvocationId:
      return "gl_SubgroupInvocationID";
    case BuiltIn::NumSubgroups:
      return "gl_NumSubgroups";
    case BuiltIn::SubgroupId:
      return "gl_SubgroupID";
    default:
      return nullptr;
  }
}

constexpr uint32_t kNamesNone = 0xFFFFFFFFu;  // No id is this large (ids are below the bound).

// Whether an instruction of this opcode may name an id (a quick test before NamedId).
bool MayName(uint16_t opcode) {
  constexpr auto bit = [](Op op) { return uint64_t{1} << (static_cast<uint32_t>(op) & 63); };
  constexpr uint64_t kLow = bit(Op::Name) | bit(Op::TypeVoid) | bit(Op::TypeBool) |
                            bit(Op::TypeInt) | bit(Op::TypeFloat) | bit(Op::TypeVector) |
                            bit(Op::TypeMatrix) | bit(Op::TypeArray) | bit(Op::TypeRuntimeArray) |
                            bit(Op::TypePointer) | bit(Op::TypeStruct) | bit(Op::ConstantTrue) |
                            bit(Op::ConstantFalse) | bit(Op::Constant);
  constexpr uint64_t kHigh = bit(Op::Decorate);
  static_assert(static_cast<uint32_t>(Op::Constant) < 64 &&
                static_cast<uint32_t>(Op::Decorate) >= 64 &&
                static_cast<uint32_t>(Op::Decorate) < 128);
  if (opcode < 64) return (kLow >> opcode) & 1;
  return opcode < 128 && ((kHigh >> (opcode - 64)) & 1);
}

// The id an instruction names when it names one (OpName, a built-in OpDecorate, a type or a scalar
// constant), else kNamesNone; the id is not checked against the bound.
uint32_t NamedId(const binary::ParsedModule::Instruction& inst, std::span<const uint32_t> words) {
  switch (static_cast<Op>(inst.opcode)) {
    case Op::Name:
      return inst.num_words > 1 ? words[inst.offset + 1] : kNamesNone;
    case Op::Decorate:
      // Built-in variables without an OpName are named as GLSL spells them.
      if (inst.num_words > 3 &&
          static_cast<spv::Decoration>(words[inst.offset + 2]) == spv::Decoration::BuiltIn &&
          GlslBuiltInName(static_cast<spv::BuiltIn>(words[inst.offset + 3])) != nullptr) {
        return words[inst.offset + 1];
      }
      return kNamesNone;
    case Op::TypeVoid:
    case Op::TypeBool:
    case Op::TypeInt:
    case Op::TypeFloat:
    case Op::TypeVector:
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
    case Op::TypePointer:
    case Op::TypeStruct:
    case Op::ConstantTrue:
    case Op::ConstantFalse:
    case Op::Constant:
      return inst.result_id;
    default:
      return kNamesNone;
  }
}

// The concatenation of the parts, or `fallback` + the id when that would be longer than
// kMaxDerivedName. `name_of(id)` is an id's name when the instruction is reached (nullptr: none).
template <class NameOf>
ws::string Derived(uint32_t id, std::initializer_list<NamePart> parts, std::string_view fallback,
                   const NameOf& name_of) {
  size_t size = 0;
  for (const NamePart& p : parts) {
    if (!p.is_id) {
      size += p.text.size();
    } else if (const ws::string* name = name_of(p.id)) {
      size += name->size();
    } else {
      size += NameTable::Digits(p.id);
    }
  }
  if (size > kMaxDerivedName) return ws::string(fallback) + ws::to_string(id);
  ws::string name;
  for (const NamePart& p : parts) {
    if (!p.is_id) {
      name += p.text;
    } else if (const ws::string* part = name_of(p.id)) {
      name += *part;
    } else {
      name += ws::to_string(p.id);
    }
  }
  return name;
}

// The name an instruction for which NamedId is an id suggests for that id (before
// NameTable::BaseName and the uniqueness suffix). `name_of` as for Derived.
template <class NameOf>
ws::string Suggest(const ParsedInstruction& inst, const NameOf& name_of) {
  const uint32_t id = inst.result_id;
  switch (OpOf(inst)) {
    case Op::Name:
      return ws::string(binary::DecodeString(inst.words.subspan(2)));
    case Op::Decorate:
      return GlslBuiltInName(static_cast<spv::BuiltIn>(inst.words[3]));
    case Op::TypeVoid:
      return "void";
    case Op::TypeBool:
      return "bool";
    case Op::TypeInt:
      return IntTypeName(inst.words[2], inst.words[3] != 0);
    case Op::TypeFloat:
      return FloatTypeName(inst);
    case Op::TypeVector:
      return Derived(id, {"v", ws::to_string(inst.words[3]), NamePart::Of(inst.words[2])},
                     "_vector_", name_of);
    case Op::TypeMatrix:
      return Derived(id, {"mat", ws::to_string(inst.words[3]), NamePart::Of(inst.words[2])},
                     "_matrix_", name_of);
    case Op::TypeArray:
      return Derived(id, {"_arr_", NamePart::Of(inst.words[2]), "_", NamePart::Of(inst.words[3])},
                     "_arr_", name_of);
    case Op::TypeRuntimeArray:
      return Derived(id, {"_runtimearr_", NamePart::Of(inst.words[2])}, "_runtimearr_", name_of);
    case Op::TypePointer:
      return Derived(id,
                     {"_ptr_", EnumText(OperandKind::kStorageClass, inst.words[2]), "_",
                      NamePart::Of(inst.words[3])},
                     "_ptr_", name_of);
    case Op::TypeStruct:
      return "_struct_" + ws::to_string(id);
    case Op::ConstantTrue:
      return "true";
    case Op::ConstantFalse:
      return "false";
    case Op::Constant: {
      ws::string value = NumberText(inst, inst.operands[2]);
      for (char& c : value) {
        if (c == '-') c = 'n';
      }
      return Derived(id, {NamePart::Of(inst.type_id), "_", value}, "_constant_", name_of);
    }
    default:
      return "";
  }
}

// The name without its uniqueness suffixes ("_0", "_12_3"): equal names have equal stems, so a
// name can only clash with names of the same stem.
std::string_view StemOf(std::string_view name) {
  size_t end = name.size();
  for (;;) {
    size_t digits = end;
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') --digits;
    if (digits == end || digits == 0 || name[digits - 1] != '_') break;
    end = digits - 1;
  }
  return name.substr(0, end);
}

// Whether a name starting with `prefix` may have the stem `stem`.
bool Compatible(std::string_view prefix, std::string_view stem) {
  const size_t n = std::min(prefix.size(), stem.size());
  return prefix.substr(0, n) == stem.substr(0, n);
}

}  // namespace

ws::vector<ws::string> FriendlyNames(const binary::ParsedModule& module, bool number_unnamed) {
  const uint32_t bound = binary::IdLimit(module);
  NameTable table(bound);
  const std::span<const uint32_t> words = module.data();
  auto name_of = [&](uint32_t id) { return table.Find(id); };
  for (size_t i = 0; i < module.instructions.size(); ++i) {
    if (!MayName(module.instructions[i].opcode)) continue;
    const uint32_t id = NamedId(module.instructions[i], words);
    if (id >= bound || table.Has(id)) continue;
    table.Save(id, Suggest(module.Get(i), name_of));
  }
  return table.Take(number_unnamed);
}

struct LazyFriendlyNames::Stem {
  NameTable names{0};  // The names of this stem made so far.
  uint32_t next = 0;   // The next event to look at.
  bool busy = false;   // Being extended.
};

LazyFriendlyNames::~LazyFriendlyNames() = default;

LazyFriendlyNames::LazyFriendlyNames(const binary::ParsedModule& module, uint32_t scan_end)
    : module_(module), first_(binary::IdLimit(module)) {
  const std::span<const uint32_t> words = module.data();
  const binary::ParsedModule::Instruction* const insts = module.instructions.data();
  const uint32_t num_insts = std::min(scan_end, static_cast<uint32_t>(module.instructions.size()));
  const uint32_t bound = static_cast<uint32_t>(first_.size());
  uint32_t* const first = first_.data();
  for (uint32_t i = 0; i < num_insts; ++i) {
    if (!MayName(insts[i].opcode)) continue;
    const uint32_t id = NamedId(insts[i], words);
    if (id >= bound || first[id] != 0) continue;
    char lead = 0;
    if (static_cast<Op>(insts[i].opcode) == Op::Name && insts[i].num_words >= 3) {
      const char c = static_cast<char>(words[insts[i].offset + 2] & 0xFF);
      if (c != '\0') lead = IsNameChar(c) ? c : '_';
    }
    events_.push_back({i, id, nullptr, lead});
    first[id] = static_cast<uint32_t>(events_.size());
  }
}

const ws::string& LazyFriendlyNames::Get(uint32_t id) {
  if (whole_) return id < whole_names_.size() ? whole_names_[id] : none_;
  if (id >= first_.size() || first_[id] == 0) return none_;
  if (const ws::string* name = events_[first_[id] - 1].name) return *name;
  if (!Resolve(id)) {
    // Beyond the depth the lazy naming allows: name the whole module.
    whole_names_ = FriendlyNames(module_, /*number_unnamed=*/false);
    whole_ = true;
    names_.clear();
    return Get(id);
  }
  return *events_[first_[id] - 1].name;
}

const ws::string* LazyFriendlyNames::NameBefore(uint32_t id, uint32_t pos) {
  if (failed_ || id >= first_.size() || first_[id] == 0 || first_[id] - 1 >= pos) return nullptr;
  if (const ws::string* name = events_[first_[id] - 1].name) return name;
  if (!Resolve(id)) return nullptr;
  return events_[first_[id] - 1].name;
}

bool LazyFriendlyNames::Resolve(uint32_t id) {
  constexpr int kMaxDepth = 32;
  if (failed_ || depth_ >= kMaxDepth) {
    failed_ = true;
    return false;
  }
  ++depth_;
  const uint32_t pos = first_[id] - 1;
  auto name_of = [&](uint32_t c) { return NameBefore(c, pos); };
  const ws::string base = NameTable::BaseName(Suggest(module_.Get(events_[pos].inst), name_of));
  const ws::string stem(StemOf(base));
  // The names of a stem are made in module order up to `pos`. What that needs (the names in other
  // names, the type names of constants) comes from events before the one at hand, so the stem is
  // never needed again while it is being extended.
  // stems_ grows while this one is extended: it is found by index.
  const auto [it, added] = stem_index_.emplace(stem, static_cast<uint32_t>(stems_.size()));
  const uint32_t k = it->second;
  if (added) stems_.emplace_back();
  if (stems_[k].busy) failed_ = true;
  stems_[k].busy = true;
  for (uint32_t p = stems_[k].next; p <= pos && !failed_; stems_[k].next = ++p) {
    // OpName events (most) are told apart by the character they start with, inline.
    const char lead = events_[p].lead;
    if (lead != 0 ? !(stem.empty() || lead == stem[0] || (IsDigit(lead) && stem[0] == '_'))
                  : !MayHaveStem(p, stem)) {
      continue;
    }
    auto before_p = [&](uint32_t c) { return NameBefore(c, p); };
    ws::string b = NameTable::BaseName(Suggest(module_.Get(events_[p].inst), before_p));
    if (failed_ || StemOf(b) != stem) continue;
    events_[p].name =
        &names_.emplace(events_[p].id, stems_[k].names.Append(std::move(b))).first->second;
  }
  stems_[k].busy = false;
  --depth_;
  if (!failed_ && events_[pos].name == nullptr) failed_ = true;  // Never: `id` has the stem.
  return !failed_;
}

bool LazyFriendlyNames::MayHaveStem(uint32_t pos, std::string_view stem) {
  const binary::ParsedModule::Instruction& inst = module_.instructions[events_[pos].inst];
  switch (static_cast<Op>(inst.opcode)) {
    case Op::Name: {
      if (stem.empty() || inst.num_words < 3) return true;
      const char c = static_cast<char>(module_.data()[inst.offset + 2] & 0xFF);
      // An empty or all-digits name gets a '_' in front.
      return (IsNameChar(c) ? c : '_') == stem[0] || c == '\0' || (IsDigit(c) && stem[0] == '_');
    }
    case Op::Decorate:
      return Compatible("gl_", stem);
    case Op::TypeVoid:
      return Compatible("void", stem);
    case Op::TypeBool:
      return Compatible("bool", stem);
    case Op::TypeVector:
      return Compatible("v", stem) || Compatible("_vector_", stem);
    case Op::TypeMatrix:
      return Compatible("mat", stem) || Compatible("_matrix_", stem);
    case Op::TypeArray:
      return Compatible("_arr_", stem);
    case Op::TypeRuntimeArray:
      return Compatible("_runtimearr_", stem);
    case Op::TypePointer:
      return Compatible("_ptr_", stem);
    case Op::TypeStruct:
      return Compatible("_struct_", stem);
    case Op::ConstantTrue:
      return Compatible("true", stem);
    case Op::ConstantFalse:
      return Compatible("false", stem);
    case Op::Constant: {
      // "<type name>_<value>", the value 48 characters at most, or "_constant_<id>".
      const ws::string* type = NameBefore(inst.type_id, pos);
      char digits[16];
      const std::string_view type_name =
          type ? std::string_view(*type)
               : std::string_view(
                     digits,
                     std::to_chars(digits, digits + sizeof(digits), inst.type_id).ptr - digits);
      const bool typed = Compatible(type_name, stem) &&
                         (stem.size() <= type_name.size() || stem[type_name.size()] == '_');
      return typed ||
             (type_name.size() + 1 + 48 > kMaxDerivedName && Compatible("_constant_", stem));
    }
    default:
      return true;
  }
}

namespace {

// Prints one instruction's text, `id_name(id)` giving the names of ids ("": print the number).
template <class IdName>
ws::string InstructionTextWith(const ParsedInstruction& inst, const IdName& id_name,
                               bool cooperative_vector_spelling) {
  auto id_text = [&](uint32_t id) {
    const ws::string& name = id_name(id);
    return "%" + (!name.empty() ? name : ws::to_string(id));
  };
  ws::string out;
  if (inst.result_id != 0) out = id_text(inst.result_id) + " = ";
  out += OpcodeSpelling(*inst.info, cooperative_vector_spelling);
  for (const ParsedOperand& op : inst.operands) {
    if (op.kind == OperandKind::kIdResult) continue;
    out += ' ';
    const grammar::OperandKindInfo& kind = grammar::GetOperandKind(op.kind);
    switch (kind.category) {
      case OperandCategory::kId:
        out += id_text(inst.word(op));
        break;
      case OperandCategory::kValueEnum:
      case OperandCategory::kBitEnum:
        out += EnumText(op.kind, inst.word(op));
        break;
      default:
        switch (op.kind) {
          case OperandKind::kLiteralString:
            out += QuoteString(binary::DecodeString(inst.words.subspan(op.offset, op.num_words)));
            break;
          case OperandKind::kLiteralContextDependentNumber:
            out += NumberText(inst, op);
            break;
          case OperandKind::kLiteralExtInstInteger: {
            const grammar::ExtInstInfo* ext =
                inst.ext_inst_set >= 0 ? grammar::LookupExtInst(inst.ext_inst_set, inst.word(op))
                                       : nullptr;
            out += ext ? ws::string(ext->name) : ws::to_string(inst.word(op));
            break;
          }
          case OperandKind::kLiteralSpecConstantOpInteger: {
            const grammar::InstructionInfo* target = grammar::LookupOpcode(inst.word(op));
            out += target ? ws::string(target->name + 2) : ws::to_string(inst.word(op));
            break;
          }
          case OperandKind::kLiteralFloat:
            out += FormatFloat(inst.word(op), kSingle);
            break;
          default:
            out += ws::to_string(inst.word(op));
            break;
        }
    }
  }
  return out;
}

}  // namespace

bool SpellsCooperativeVector(std::span<const uint32_t> declared_capabilities) {
  bool cooperative = false, long_vector = false;
  for (uint32_t c : declared_capabilities) {
    cooperative = cooperative || c == static_cast<uint32_t>(spv::Capability::CooperativeVectorNV);
    long_vector = long_vector || c == static_cast<uint32_t>(spv::Capability::LongVectorEXT);
  }
  return cooperative && !long_vector;
}

const char* OpcodeSpelling(const grammar::InstructionInfo& info, bool cooperative_vector_spelling) {
  if (cooperative_vector_spelling && info.opcode == static_cast<uint32_t>(Op::TypeVectorIdEXT)) {
    return "OpTypeCooperativeVectorNV";
  }
  return info.name;
}

ws::string InstructionText(const ParsedInstruction& inst, const ws::vector<ws::string>& names,
                           bool cooperative_vector_spelling) {
  const ws::string none;
  return InstructionTextWith(
      inst, [&](uint32_t id) -> const ws::string& { return id < names.size() ? names[id] : none; },
      cooperative_vector_spelling);
}

ws::string InstructionText(const ParsedInstruction& inst, LazyFriendlyNames& names,
                           bool cooperative_vector_spelling) {
  return InstructionTextWith(
      inst, [&](uint32_t id) -> const ws::string& { return names.Get(id); },
      cooperative_vector_spelling);
}

bool Disassemble(std::span<const uint32_t> words, const DisassembleOptions& options,
                 std::string* text, Diagnostic* diagnostic) {
  binary::ParsedModule module;
  if (!binary::ParseModule(words, &module, diagnostic)) return false;
  ws::vector<ws::string> names;
  if (options.friendly_names) names = FriendlyNames(module);
  std::string& out = *text;
  out.clear();
  out.reserve(words.size() * 12);
  if (options.header) {
    const binary::Header& h = module.header;
    out += "; SPIR-V\n; Version: " + ws::to_string(h.major_version()) + "." +
           ws::to_string(h.minor_version()) + "\n; Generator: ";
    const grammar::GeneratorInfo* g = grammar::LookupGenerator(h.generator >> 16);
    if (g == nullptr) {
      out += "Unknown(" + ws::to_string(h.generator >> 16) + ")";
    } else {
      out += g->vendor;
      if (g->tool[0] != '\0') out += ws::string(" ") + g->tool;
    }
    out += "; " + ws::to_string(h.generator & 0xFFFF) + "\n; Bound: " + ws::to_string(h.bound) +
           "\n; Schema: " + ws::to_string(h.schema) + "\n";
  }
  // Capabilities come first (SPIR-V 2.4), so the scan stops at the first other instruction.
  ws::vector<uint32_t> capabilities;
  for (size_t i = 0; i < module.instructions.size(); ++i) {
    const ParsedInstruction inst = module.Get(i);
    if (static_cast<Op>(inst.opcode) != Op::Capability) break;
    if (inst.words.size() > 1) capabilities.push_back(inst.words[1]);
  }
  const bool cooperative_vector_spelling = SpellsCooperativeVector(capabilities);
  constexpr size_t kOpcodeColumn = 15;
  for (size_t i = 0; i < module.instructions.size(); ++i) {
    const ParsedInstruction inst = module.Get(i);
    ws::string line = InstructionText(inst, names, cooperative_vector_spelling);
    if (options.indent) {
      size_t prefix = 0;  // Width of "%name = ".
      if (inst.result_id != 0) prefix = line.find(" = ") + 3;
      if (prefix < kOpcodeColumn) out.append(kOpcodeColumn - prefix, ' ');
    }
    out += line;
    out += '\n';
  }
  return true;
}

}  // namespace coopspv::text
