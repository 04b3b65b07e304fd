// Every instruction and every enumerant operand must be enabled: by one of the capabilities the
// grammar lists for it (declared or implicitly declared), and, for what is not in the module's
// core version, by one of the extensions the grammar lists.
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

ws::string CapabilityName(uint32_t value) {
  return EnumerantName(grammar::OperandKind::kCapability, value);
}

ws::string JoinCapabilities(std::span<const uint32_t> caps) {
  ws::string out;
  for (size_t i = 0; i < caps.size(); ++i) {
    if (i) out += i + 1 == caps.size() ? " or " : ", ";
    out += CapabilityName(caps[i]);
  }
  return out;
}

ws::string JoinExtensions(std::span<const char* const> exts) {
  ws::string out;
  for (size_t i = 0; i < exts.size(); ++i) {
    if (i) out += i + 1 == exts.size() ? " or " : ", ";
    out += exts[i];
  }
  return out;
}

// Whether an entry with these requirements is enabled (Missing() says what is missing when not;
// this is its fast path, building no text).
bool Enabled(const ValidationState& state, std::span<const uint32_t> caps,
             std::span<const char* const> exts, uint32_t version, bool check_caps) {
  if (check_caps && !caps.empty()) {
    bool any = false;
    for (uint32_t c : caps) any = any || state.HasCapabilityValue(c);
    if (!any) return false;
  }
  if (version != grammar::kNoVersion && version <= state.version()) return true;
  if (!exts.empty()) {
    for (const char* e : exts) {
      if (state.HasExtension(e)) return true;
    }
    return false;
  }
  return version == grammar::kNoVersion;
}

// What is missing for an entry with these requirements, or "" when it is enabled.
ws::string Missing(const ValidationState& state, std::span<const uint32_t> caps,
                   std::span<const char* const> exts, uint32_t version, bool check_caps) {
  if (check_caps && !caps.empty()) {
    bool any = false;
    for (uint32_t c : caps) any = any || state.HasCapabilityValue(c);
    if (!any) return "one of the capabilities " + JoinCapabilities(caps);
  }
  const bool in_core = version != grammar::kNoVersion && version <= state.version();
  if (in_core) return "";
  if (!exts.empty()) {
    for (const char* e : exts) {
      if (state.HasExtension(e)) return "";
    }
    return "one of the extensions " + JoinExtensions(exts);
  }
  if (version == grammar::kNoVersion) return "";  // Gated by capabilities alone.
  return "SPIR-V " + ws::to_string(version >> 16) + "." + ws::to_string((version >> 8) & 0xFF);
}

// Returns whether the enumerant is enabled (false once it was reported).
bool CheckEnumerant(ValidationState& state, InstIndex i, const grammar::EnumerantInfo& e,
                    const grammar::OperandKindInfo& kind) {
  // A Capability enumerant's capability list names what it implicitly declares, not what it
  // requires.
  const bool is_capability = &kind == &grammar::GetOperandKind(grammar::OperandKind::kCapability);
  // Naming PointSize, ClipDistance or CullDistance in a BuiltIn decoration needs no capability:
  // the capabilities are for using them (SPIR-V 3.31: "Uses the ClipDistance BuiltIn"), and
  // compilers declare the whole gl_PerVertex block.
  if (&kind == &grammar::GetOperandKind(grammar::OperandKind::kBuiltIn) &&
      (e.value == static_cast<uint32_t>(spv::BuiltIn::PointSize) ||
       e.value == static_cast<uint32_t>(spv::BuiltIn::ClipDistance) ||
       e.value == static_cast<uint32_t>(spv::BuiltIn::CullDistance))) {
    return true;
  }
  // SPV_AMD_shader_ballot brings the Reduce, InclusiveScan and ExclusiveScan group operations
  // for its instructions.
  if (&kind == &grammar::GetOperandKind(grammar::OperandKind::kGroupOperation) &&
      e.value <= static_cast<uint32_t>(spv::GroupOperation::ExclusiveScan) &&
      state.HasExtension("SPV_AMD_shader_ballot")) {
    return true;
  }
  if (Enabled(state, grammar::Capabilities(e), grammar::Extensions(e), e.version, !is_capability)) {
    return true;
  }
  const ws::string missing =
      Missing(state, grammar::Capabilities(e), grammar::Extensions(e), e.version, !is_capability);
  if (missing.empty()) return true;
  state.Report("capability.operand", i,
               state.Describe(i) + ": " + kind.name + " " + e.name + " requires " + missing);
  return false;
}

// Where the scan of an instruction of this opcode for enumerant operands starts: the parsed
// index of the first operand that can be one (one its grammar lists, or one of an extended
// instruction or of the operation OpSpecConstantOp names), counting only the leading operands
// that are always present; -1 when none can be.
int FirstEnumerantOperand(const grammar::InstructionInfo& info) {
  const auto ops = grammar::Operands(info);
  int fixed = -1;  // The first operand whose parsed index may differ from its grammar index.
  for (size_t k = 0; k < ops.size(); ++k) {
    const grammar::OperandInfo& o = ops[k];
    if (fixed < 0 && o.quantifier != grammar::Quantifier::kOne) fixed = static_cast<int>(k);
    const grammar::OperandCategory category = grammar::GetOperandKind(o.kind).category;
    if (category == grammar::OperandCategory::kValueEnum ||
        category == grammar::OperandCategory::kBitEnum ||
        o.kind == grammar::OperandKind::kLiteralExtInstInteger ||
        o.kind == grammar::OperandKind::kLiteralSpecConstantOpInteger) {
      return fixed < 0 ? static_cast<int>(k) : fixed;
    }
  }
  return -1;
}

// Whether an instruction's capabilities, extensions or version enable it, and the report when
// they do not: out of line (once per opcode, and for errors), so that the loop over every
// instruction keeps its values in registers.
//
// An instruction the grammar gates by capabilities is enabled by any of them: a capability that
// an extension or a later version brings was checked as the OpCapability's operand (SPIR-V
// 2.16.1; OpDemoteToHelperInvocation needs DemoteToHelperInvocation, from SPIR-V 1.6 or
// SPV_EXT_demote_to_helper_invocation). OpTerminateInvocation, which Shader enables, needs its
// extension or SPIR-V 1.6 as well. SPV_AMD_shader_ballot's non-uniform group instructions need
// only the extension (its specification lists no capability for them).
bool CapabilitySuffices(spv::Op op) { return op != spv::Op::TerminateInvocation; }
bool AmdBallotGroupOp(spv::Op op) {
  return op >= spv::Op::GroupIAddNonUniformAMD && op <= spv::Op::GroupSMaxNonUniformAMD;
}
[[gnu::noinline]] bool InstructionEnabled(const ValidationState& state,
                                          const grammar::InstructionInfo& info) {
  const auto op = static_cast<spv::Op>(info.opcode);
  if (AmdBallotGroupOp(op) && state.HasExtension("SPV_AMD_shader_ballot")) return true;
  const auto caps = grammar::Capabilities(info);
  if (!caps.empty() && CapabilitySuffices(op)) {
    for (uint32_t c : caps) {
      if (state.HasCapabilityValue(c)) return true;
    }
    return false;
  }
  return Enabled(state, caps, grammar::Extensions(info), info.version, true);
}
[[gnu::cold, gnu::noinline]] void ReportInstruction(ValidationState& state, InstIndex i,
                                                    const grammar::InstructionInfo& info) {
  const auto caps = grammar::Capabilities(info);
  const ws::string missing =
      !caps.empty() && CapabilitySuffices(static_cast<spv::Op>(info.opcode))
          ? "one of the capabilities " + JoinCapabilities(caps)
          : Missing(state, caps, grammar::Extensions(info), info.version, true);
  state.Report("capability.instruction", i, state.Describe(i) + " requires " + missing);
}

}  // namespace

void ValidateCapabilities(ValidationState& state) {
  const ir::Module& m = state.module();
  // Per opcode, worked out on its first instruction (an instruction's requirements are its
  // opcode's): 0 not seen yet, else kEnabled or kDisabled, with kScan when its instructions
  // can have enumerant operands.
  constexpr uint8_t kEnabled = 1, kDisabled = 2, kScan = 4;
  ws::vector<uint8_t> opcode_facts(grammar::kMaxOpcode + 1, 0);
  // Per opcode with kScan, the parsed index where the scan starts.
  ws::vector<uint8_t> scan_from(grammar::kMaxOpcode + 1, 0);
  // The parsed records are read directly: this loop visits every instruction of the module.
  const binary::ParsedModule& parsed = m.parsed();
  const uint32_t* const words = m.words().data();
  // Per operand kind, the last value found enabled (bit 32 set when there is one): operands
  // repeat (Decorate's decoration, OpVariable's storage class, ...) and are not looked up again.
  uint64_t last_enabled[grammar::kNumOperandKinds] = {};
  const InstIndex num_instructions = static_cast<InstIndex>(m.num_instructions());
  const binary::ParsedModule::Instruction* const records = parsed.instructions.data();
  for (InstIndex i = 0; i < num_instructions && !state.Full(); ++i) {
    const binary::ParsedModule::Instruction& rec = records[i];
    const uint32_t opcode = rec.opcode;
    const bool listed = opcode <= grammar::kMaxOpcode;
    uint8_t facts = listed ? opcode_facts[opcode] : 0;
    if (facts == 0) {
      const grammar::InstructionInfo& info = *grammar::LookupOpcode(opcode);
      facts = InstructionEnabled(state, info) ? kEnabled : kDisabled;
      const int first = FirstEnumerantOperand(info);
      if (first >= 0) facts |= kScan;
      if (listed) {
        opcode_facts[opcode] = facts;
        if (first >= 0) scan_from[opcode] = static_cast<uint8_t>(first);
      }
    }
    if (facts & kDisabled) ReportInstruction(state, i, *grammar::LookupOpcode(opcode));
    if (!(facts & kScan)) continue;
    const binary::ParsedOperand* const operands = parsed.operands.data() + rec.operand_begin;
    const uint32_t from = listed ? scan_from[opcode] : 0;
    for (uint32_t k = from; k < rec.operand_count; ++k) {
      const binary::ParsedOperand& op = operands[k];
      if (grammar::IsIdKind(op.kind)) continue;  // Most operands; no table lookup for them.
      // Only enumerant kinds have gated values.
      if (!grammar::IsGatedKind(op.kind)) continue;
      const grammar::OperandKindInfo& kind = grammar::GetOperandKind(op.kind);
      if (kind.category != grammar::OperandCategory::kValueEnum &&
          kind.category != grammar::OperandCategory::kBitEnum) {
        continue;
      }
      const uint32_t value = words[rec.offset + op.offset];
      uint64_t& last = last_enabled[static_cast<size_t>(op.kind)];
      const uint64_t seen = (uint64_t{1} << 32) | value;
      if (last == seen) continue;
      bool enabled = true;
      if (kind.category == grammar::OperandCategory::kValueEnum) {
        if (const grammar::EnumerantInfo* e = grammar::LookupEnumerant(op.kind, value)) {
          enabled = CheckEnumerant(state, i, *e, kind);
        }
      } else {
        for (uint32_t bits = value; bits != 0; bits &= bits - 1) {
          const uint32_t bit = bits & (~bits + 1);
          if (const grammar::EnumerantInfo* e = grammar::LookupEnumerant(op.kind, bit)) {
            enabled = CheckEnumerant(state, i, *e, kind) && enabled;
          }
        }
      }
      if (enabled) last = seen;
    }
  }
}

}  // namespace coopspv::val
