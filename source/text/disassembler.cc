#include "source/text/disassembler.h"

#include <algorithm>
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

ws::string Sanitize(std::string_view name) {
  if (name.empty()) return "_";
  ws::string out(name);
  for (char& c : out) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) c = '_';
  }
  return out;
}

FloatFormat FormatFor(int width, uint16_t fp_encoding_plus_one) {
  if (fp_encoding_plus_one != 0) {
    switch (static_cast<spv::FPEncoding>(fp_encoding_plus_one - 1)) {
      case spv::FPEncoding::BFloat16KHR:
        return kBFloat16;
      case spv::FPEncoding::Float8E4M3EXT:
        return kFloat8E4M3;
      case spv::FPEncoding::Float8E5M2EXT:
        return kFloat8E5M2;
      default:
        break;
    }
  }
  switch (width) {
    case 16:
      return kHalf;
    case 64:
      return kDouble;
    default:
      return kSingle;
  }
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
      const FloatFormat format = FormatFor(op.number_width, op.fp_encoding);
      if (format.width() != op.number_width) return ws::to_string(bits);  // E.g. E8M0.
      return ws::string(std::string_view(FormatFloat(bits, format)));
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

  void Save(uint32_t id, std::string_view suggested) {
    if (id >= names_.size() || Has(id)) return;
    ws::string base = Sanitize(suggested.substr(0, kMaxOpName));
    // Ids without a name print as their number: a name of digits alone would be one of those.
    if (base.find_first_not_of("0123456789") == ws::string::npos) base.insert(0, "_");
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

  // Saves the concatenation of the parts, or `fallback` + the id when that would be longer
  // than kMaxDerivedName.
  void SaveDerived(uint32_t id, std::initializer_list<NamePart> parts, std::string_view fallback) {
    if (id >= names_.size() || Has(id)) return;
    size_t size = 0;
    for (const NamePart& p : parts) {
      size += !p.is_id ? p.text.size() : Has(p.id) ? names_[p.id].size() : Digits(p.id);
    }
    ws::string name;
    if (size > kMaxDerivedName) {
      name = ws::string(fallback) + ws::to_string(id);
    } else {
      for (const NamePart& p : parts) {
        if (!p.is_id) {
          name += p.text;
        } else if (Has(p.id)) {
          name += names_[p.id];
        } else {
          name += ws::to_string(p.id);
        }
      }
    }
    Save(id, name);
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

}  // namespace

ws::vector<ws::string> FriendlyNames(const binary::ParsedModule& module, bool number_unnamed) {
  NameTable table(module.header.bound);
  for (size_t i = 0; i < module.instructions.size(); ++i) {
    switch (static_cast<Op>(module.instructions[i].opcode)) {
      case Op::Name:
      case Op::Decorate:
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
        break;
      default:
        continue;  // Names nothing (the switch below).
    }
    const ParsedInstruction inst = module.Get(i);
    const uint32_t id = inst.result_id;
    switch (OpOf(inst)) {
      case Op::Name:
        table.Save(inst.words[1], binary::DecodeString(inst.words.subspan(2)));
        break;
      case Op::Decorate:
        // Built-in variables without an OpName are named as GLSL spells them.
        if (inst.words.size() > 3 &&
            static_cast<spv::Decoration>(inst.words[2]) == spv::Decoration::BuiltIn) {
          if (const char* name = GlslBuiltInName(static_cast<spv::BuiltIn>(inst.words[3]))) {
            table.Save(inst.words[1], name);
          }
        }
        break;
      case Op::TypeVoid:
        table.Save(id, "void");
        break;
      case Op::TypeBool:
        table.Save(id, "bool");
        break;
      case Op::TypeInt:
        table.Save(id, IntTypeName(inst.words[2], inst.words[3] != 0));
        break;
      case Op::TypeFloat:
        table.Save(id, FloatTypeName(inst));
        break;
      case Op::TypeVector:
        table.SaveDerived(id, {"v", ws::to_string(inst.words[3]), NamePart::Of(inst.words[2])},
                          "_vector_");
        break;
      case Op::TypeMatrix:
        table.SaveDerived(id, {"mat", ws::to_string(inst.words[3]), NamePart::Of(inst.words[2])},
                          "_matrix_");
        break;
      case Op::TypeArray:
        table.SaveDerived(
            id, {"_arr_", NamePart::Of(inst.words[2]), "_", NamePart::Of(inst.words[3])}, "_arr_");
        break;
      case Op::TypeRuntimeArray:
        table.SaveDerived(id, {"_runtimearr_", NamePart::Of(inst.words[2])}, "_runtimearr_");
        break;
      case Op::TypePointer:
        table.SaveDerived(id,
                          {"_ptr_", EnumText(OperandKind::kStorageClass, inst.words[2]), "_",
                           NamePart::Of(inst.words[3])},
                          "_ptr_");
        break;
      case Op::TypeStruct:
        table.Save(id, "_struct_" + ws::to_string(id));
        break;
      case Op::ConstantTrue:
        table.Save(id, "true");
        break;
      case Op::ConstantFalse:
        table.Save(id, "false");
        break;
      case Op::Constant: {
        ws::string value = NumberText(inst, inst.operands[2]);
        for (char& c : value) {
          if (c == '-') c = 'n';
        }
        table.SaveDerived(id, {NamePart::Of(inst.type_id), "_", value}, "_constant_");
        break;
      }
      default:
        break;
    }
  }
  return table.Take(number_unnamed);
}

ws::string InstructionText(const ParsedInstruction& inst, const ws::vector<ws::string>& names) {
  auto id_text = [&](uint32_t id) {
    return "%" + (id < names.size() && !names[id].empty() ? names[id] : ws::to_string(id));
  };
  ws::string out;
  if (inst.result_id != 0) out = id_text(inst.result_id) + " = ";
  out += inst.info->name;
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
  constexpr size_t kOpcodeColumn = 15;
  for (size_t i = 0; i < module.instructions.size(); ++i) {
    const ParsedInstruction inst = module.Get(i);
    ws::string line = InstructionText(inst, names);
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
