// The rules the extended instruction sets' own specifications give their imports and operands:
// versioned imports (NonSemantic.ClspvReflection.<ver>, NonSemantic.Shader.DebugInfo.<ver>,
// Arm.ExperimentalMLOperations.<ver>), instructions newer than the imported version, and the
// operands of NonSemantic.ClspvReflection (32-bit unsigned OpConstants, OpStrings, Kernel and
// ArgumentInfo instructions of the same import). A module without such an import costs one look
// at its OpExtInstImports.
#include <cstdint>
#include <optional>
#include <string_view>

#include "source/common/workspace.h"
#include "source/grammar/grammar.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

enum class SetKind : uint8_t {
  kOther,
  kClspvReflection,
  kShaderDebugInfo,
  kArmMlOperations,
  kOpenClDebugInfo,
};

// A versioned set: its import-name prefix (the version follows), the lowest and highest version
// the specification defines (0 for no upper bound: later DebugInfo versions are supersets).
struct VersionedSet {
  SetKind kind;
  std::string_view prefix;
  uint32_t min_version, max_version;
};
constexpr VersionedSet kVersionedSets[] = {
    // NonSemantic.ClspvReflection 2. Version: "an integer between 1 and the version specified
    // at the beginning of this instruction set" (7).
    {SetKind::kClspvReflection, "NonSemantic.ClspvReflection.", 1, 7},
    // NonSemantic.Shader.DebugInfo: versions 100 and later (101 adds instructions).
    {SetKind::kShaderDebugInfo, "NonSemantic.Shader.DebugInfo.", 100, 0},
    // Arm.ExperimentalMLOperations: revision 1.
    {SetKind::kArmMlOperations, "Arm.ExperimentalMLOperations.", 1, 1},
};

struct Import {
  Id id = 0;
  SetKind kind = SetKind::kOther;
  uint32_t version = 0;
};

// NonSemantic.ClspvReflection: the version that introduced each instruction ("Missing before
// version N"), by instruction number; 0 for numbers the set does not define.
uint32_t ClspvFirstVersion(uint32_t number) {
  if (number >= 1 && number <= 24) return 1;
  if (number == 25) return 2;  // SpecConstantSubgroupMaxSize
  if (number >= 26 && number <= 33) return 3;
  if (number == 34 || number == 35) return 4;  // Argument{Storage,Uniform}TexelBuffer
  if (number >= 36 && number <= 40) return 5;
  if (number == 41) return 6;  // NormalizedSamplerMaskPushConstant
  if (number == 42) return 7;  // WorkgroupVariableSize
  return 0;
}

// The debug-info instructions the checks below name (NonSemantic.Shader.DebugInfo.100 and
// OpenCL.DebugInfo.100 number them alike up to DebugSource).
enum DebugInfoNumber : uint32_t {
  kDebugInfoNone = 0,
  kDebugTypeBasic = 2,
  kDebugTypeFunction = 8,
  kDebugTypeTemplate = 14,
  kDebugTypeTemplateParameter = 15,
  kDebugTypeTemplateTemplateParameter = 16,
  kDebugSource = 35,
  kDebugTypeMatrix = 108,
  kDebugTypeVectorIdEXT = 109,
  kDebugTypeCooperativeMatrixKHR = 110,
};

// What a debug-info operand of id kind must be, from its name in the grammar (both sets'
// specifications state the requirement of each operand under that name).
enum class DebugOperand : uint8_t {
  kAny,
  kString,                // "<id> of an OpString"
  kSource,                // "<id> of a DebugSource"
  kType,                  // "<id> of a debug type" (DebugInfoNone where no type is known)
  kFunctionType,          // DebugFunction / DebugFunctionDeclaration Type: "a DebugTypeFunction"
  kUint32Constant,        // NonSemantic.Shader.DebugInfo.100 4.1: numeric operands are
                          // "<id>s of 32-bit unsigned integer OpConstants"
  kUint32ConstantOrSpec,  // DebugTypeVectorIdEXT / DebugTypeCooperativeMatrixKHR dimensions:
                          // 32-bit unsigned integer constants or specialization constants
  kBasicType,             // "Component Type ... a DebugTypeBasic"
};

DebugOperand DebugOperandOf(uint32_t number, std::string_view name) {
  if (name == "Name" || name == "Linkage Name" || name == "File" || name == "Text") {
    return DebugOperand::kString;
  }
  if (name == "Source") return DebugOperand::kSource;
  if (number == kDebugTypeVectorIdEXT || number == kDebugTypeCooperativeMatrixKHR) {
    return name == "Component Type" ? DebugOperand::kBasicType
                                    : DebugOperand::kUint32ConstantOrSpec;
  }
  if (name == "Type") {
    return number == 19 || number == 20 ? DebugOperand::kFunctionType : DebugOperand::kType;
  }
  if (name == "Base Type" && number != 7) return DebugOperand::kType;  // Typedef: any type.
  if (name == "Line" || name == "Column" || name == "Flags" || name == "Line Start" ||
      name == "Line End" || name == "Column Start" || name == "Column End" ||
      name == "Scope Line" || name == "Arg Number" || name == "Encoding" ||
      name == "Storage Class" || name == "Type Qualifier" || name == "Tag" || name == "Version" ||
      name == "DWARF Version" || name == "Language" || name == "Vector Count" ||
      name == "FPEncoding" || (name == "Component Count" && number == 6)) {
    return DebugOperand::kUint32Constant;
  }
  return DebugOperand::kAny;
}

// What a NonSemantic.ClspvReflection operand must be, from its name in the grammar (the
// specification states each operand's requirement in these words).
enum class ClspvOperand : uint8_t {
  kUint32Constant,  // "a 32-bit unsigned integer OpConstant"
  kString,          // "an OpString"
  kKernel,          // "a Kernel extended instruction from the same import"
  kArgumentInfo,    // "an ArgumentInfo extended instruction from the same import"
  kFunction,        // Kernel's own Kernel: "an OpFunction ... declared as a GLCompute entry-point"
  kWorkgroupVariable,  // "an OpVariable using the Workgroup storage class"
};

ClspvOperand ClspvOperandOf(uint32_t number, std::string_view name) {
  if (name == "Kernel" || name == "Decl") {
    return number == 1 ? ClspvOperand::kFunction : ClspvOperand::kKernel;
  }
  if (name == "ArgInfo") return ClspvOperand::kArgumentInfo;
  if (name == "Name" || name == "Type Name" || name == "Data" || name == "FormatString" ||
      name == "Attributes") {
    return ClspvOperand::kString;
  }
  if (name == "Variable") return ClspvOperand::kWorkgroupVariable;
  return ClspvOperand::kUint32Constant;
}

class ExtInstRules {
 public:
  explicit ExtInstRules(ValidationState& state) : state_(state), m_(state.module()) {}

  void Run();

 private:
  // The import's set and version; reports a malformed version (ext-inst.import-version).
  Import ReadImport(InstIndex i);
  const Import* FindImport(Id id) const {
    for (const Import& import : imports_) {
      if (import.id == id) return &import;
    }
    return nullptr;
  }
  bool IsUint32Constant(Id id) const {
    const Id type = state_.TypeOf(id);
    return state_.DefOp(id) == Op::Constant && state_.IsInt32(type) && !state_.IsSignedInt(type);
  }
  // Whether `id` is an OpExtInst of import `set` with instruction number `number`.
  bool IsExtInstOf(Id id, Id set, uint32_t number) const {
    const InstIndex d = m_.Def(id);
    return d != kNoInst &&
           (m_.opcode(d) == Op::ExtInst || m_.opcode(d) == Op::ExtInstWithForwardRefsKHR) &&
           m_.num_words(d) > 4 && m_.word(d, 3) == set && m_.word(d, 4) == number;
  }
  std::string_view StringOf(Id id) const {
    const InstIndex d = m_.Def(id);
    return binary::DecodeString(m_.inst(d).words.subspan(2));
  }

  // The debug-info instruction number of `id`'s definition when it is an OpExtInst of a
  // debug-info import, else nullopt.
  std::optional<uint32_t> DebugInfoNumberOf(Id id) const {
    const InstIndex d = m_.Def(id);
    if (d == kNoInst || m_.num_words(d) < 5 ||
        (m_.opcode(d) != Op::ExtInst && m_.opcode(d) != Op::ExtInstWithForwardRefsKHR)) {
      return std::nullopt;
    }
    const Import* import = FindImport(m_.word(d, 3));
    if (import == nullptr ||
        (import->kind != SetKind::kShaderDebugInfo && import->kind != SetKind::kOpenClDebugInfo)) {
      return std::nullopt;
    }
    return m_.word(d, 4);
  }
  bool IsDebugType(Id id) const {
    const std::optional<uint32_t> n = DebugInfoNumberOf(id);
    return n && ((*n >= kDebugTypeBasic && *n <= kDebugTypeTemplateTemplateParameter) ||
                 *n == kDebugInfoNone || *n == kDebugTypeMatrix || *n == kDebugTypeVectorIdEXT ||
                 *n == kDebugTypeCooperativeMatrixKHR);
  }

  void CheckDebugInfo(InstIndex i, const Import& import);
  void CheckClspv(InstIndex i, const Import& import);
  void CheckClspvKernel(InstIndex i, uint32_t version);
  bool ReportClspv(InstIndex i, const grammar::ExtInstInfo& info, const ws::string& what) {
    return state_.Report("clspv.operand", i, state_.Describe(i) + " " + info.name + ": " + what);
  }

  ValidationState& state_;
  const ir::Module& m_;
  ws::vector<Import> imports_;  // The versioned imports.
};

Import ExtInstRules::ReadImport(InstIndex i) {
  Import import;
  import.id = m_.result_id(i);
  const std::string_view name = binary::DecodeString(m_.inst(i).words.subspan(2));
  for (const VersionedSet& set : kVersionedSets) {
    if (name.substr(0, set.prefix.size()) != set.prefix) continue;
    import.kind = set.kind;
    const std::string_view digits = name.substr(set.prefix.size());
    const std::string_view set_name = set.prefix.substr(0, set.prefix.size() - 1);
    uint64_t version = 0;
    bool numeric = !digits.empty();
    for (const char c : digits) {
      numeric = numeric && c >= '0' && c <= '9';
      if (numeric) version = std::min<uint64_t>(version * 10 + (c - '0'), UINT32_MAX);
    }
    if (!numeric) {
      state_.Report("ext-inst.import-version", i,
                    state_.Describe(i) + ": \"" + ws::string(name) + "\" does not end in the " +
                        ws::string(set_name) + " version it imports (a decimal number)");
      import.kind = SetKind::kOther;
    } else if (version < set.min_version || (set.max_version != 0 && version > set.max_version)) {
      state_.Report("ext-inst.import-version", i,
                    state_.Describe(i) + ": " + ws::string(set_name) + " has no version " +
                        ws::to_string(version) + " (versions " + ws::to_string(set.min_version) +
                        (set.max_version != 0 ? " to " + ws::to_string(set.max_version)
                                              : ws::string(" and later")) +
                        ")");
      import.kind = SetKind::kOther;
    }
    import.version = static_cast<uint32_t>(version);
    break;
  }
  return import;
}

void ExtInstRules::Run() {
  // The imports come before OpMemoryModel (SPIR-V 2.4); the layout rules report any that do not.
  InstIndex first = 0;
  for (; first < m_.num_instructions(); ++first) {
    const Op op = m_.opcode(first);
    if (op == Op::ExtInstImport) {
      const std::string_view name = binary::DecodeString(m_.inst(first).words.subspan(2));
      // SPV_KHR_non_semantic_info: the NonSemantic.* sets need the extension before SPIR-V 1.6.
      if (name.substr(0, 12) == "NonSemantic." && state_.version() < grammar::MakeVersion(1, 6) &&
          !state_.HasExtension("SPV_KHR_non_semantic_info")) {
        state_.Report("ext-inst.non-semantic-extension", first,
                      state_.Describe(first) + " \"" + ws::string(name) +
                          "\": a NonSemantic.* set needs OpExtension "
                          "\"SPV_KHR_non_semantic_info\" before SPIR-V 1.6");
      }
      Import import = ReadImport(first);
      if (name == "OpenCL.DebugInfo.100") import.kind = SetKind::kOpenClDebugInfo;
      if (import.kind != SetKind::kOther) imports_.push_back(import);
    } else if (op != Op::Capability && op != Op::Extension) {
      break;
    }
  }
  if (imports_.empty()) return;
  for (InstIndex i = first; i < m_.num_instructions() && !state_.Full(); ++i) {
    const Op op = m_.opcode(i);
    if ((op != Op::ExtInst && op != Op::ExtInstWithForwardRefsKHR) || m_.num_words(i) < 5) {
      continue;
    }
    const Import* import = FindImport(m_.word(i, 3));
    if (import == nullptr) continue;
    if (import->kind == SetKind::kClspvReflection) {
      CheckClspv(i, *import);
    } else if (import->kind == SetKind::kShaderDebugInfo ||
               import->kind == SetKind::kOpenClDebugInfo) {
      CheckDebugInfo(i, *import);
    }
  }
}

void ExtInstRules::CheckClspv(InstIndex i, const Import& import) {
  const uint32_t number = m_.word(i, 4);
  const int set = grammar::LookupExtInstSet("NonSemantic.ClspvReflection.");
  const grammar::ExtInstInfo* info = set < 0 ? nullptr : grammar::LookupExtInst(set, number);
  if (info == nullptr) return;  // binary.malformed's.
  // NonSemantic.ClspvReflection 3. Binary Form: "The return type for all instructions must be
  // OpTypeVoid".
  if (state_.DefOp(m_.word(i, 1)) != Op::TypeVoid) {
    ReportClspv(i, *info, "Result Type " + state_.Name(m_.word(i, 1)) + " is not OpTypeVoid");
    return;
  }
  if (const uint32_t first = ClspvFirstVersion(number); first > import.version) {
    state_.Report("ext-inst.set-version", i,
                  state_.Describe(i) + " " + info->name + ": NonSemantic.ClspvReflection has it " +
                      "from version " + ws::to_string(first) + ", and the import names version " +
                      ws::to_string(import.version));
    return;
  }
  if (number == 1) return CheckClspvKernel(i, import.version);
  const std::span<const grammar::OperandInfo> operands = grammar::Operands(*info);
  const Id set_id = m_.word(i, 3);
  for (uint32_t w = 5, k = 0; w < m_.num_words(i); ++w) {
    const grammar::OperandInfo& operand = operands[k];
    if (operand.quantifier != grammar::Quantifier::kVariadic && k + 1 < operands.size()) ++k;
    ws::string name(operand.name);
    std::erase(name, ' ');
    const Id id = m_.word(i, w);
    switch (ClspvOperandOf(number, operand.name)) {
      case ClspvOperand::kUint32Constant:
        if (!IsUint32Constant(id)) {
          return (void)ReportClspv(
              i, *info,
              name + " " + state_.Name(id) + " is not a 32-bit unsigned integer OpConstant");
        }
        break;
      case ClspvOperand::kString:
        if (state_.DefOp(id) != Op::String) {
          return (void)ReportClspv(i, *info, name + " " + state_.Name(id) + " is not an OpString");
        }
        break;
      case ClspvOperand::kKernel:
        if (!IsExtInstOf(id, set_id, 1)) {
          return (void)ReportClspv(
              i, *info,
              "Kernel " + state_.Name(id) + " is not a Kernel instruction of the same import");
        }
        break;
      case ClspvOperand::kArgumentInfo:
        if (!IsExtInstOf(id, set_id, 2)) {
          return (void)ReportClspv(i, *info,
                                   "ArgInfo " + state_.Name(id) +
                                       " is not an ArgumentInfo instruction of the same import");
        }
        break;
      case ClspvOperand::kWorkgroupVariable:
        if (state_.DefOp(id) != Op::Variable ||
            state_.PointerStorageClass(state_.TypeOf(id)) != spv::StorageClass::Workgroup) {
          return (void)ReportClspv(i, *info,
                                   "Variable " + state_.Name(id) +
                                       " is not an OpVariable of the Workgroup storage class");
        }
        break;
      case ClspvOperand::kFunction:
        break;
    }
  }
}

// NonSemantic.Shader.DebugInfo.100 / OpenCL.DebugInfo.100: every instruction returns OpTypeVoid;
// names are OpStrings, Source a DebugSource, types debug types; in the non-semantic set numbers
// are 32-bit unsigned OpConstants (specialization constants too for the dimensions of
// DebugTypeVectorIdEXT and DebugTypeCooperativeMatrixKHR, which version 101 adds).
void ExtInstRules::CheckDebugInfo(InstIndex i, const Import& import) {
  const uint32_t number = m_.word(i, 4);
  const std::string_view set_name = import.kind == SetKind::kShaderDebugInfo
                                        ? "NonSemantic.Shader.DebugInfo."
                                        : "OpenCL.DebugInfo.100";
  const grammar::ExtInstInfo* info =
      grammar::LookupExtInst(grammar::LookupExtInstSet(set_name), number);
  if (info == nullptr) return;  // binary.malformed's.
  const auto report = [&](const ws::string& what) {
    state_.Report("debug-info.operand", i, state_.Describe(i) + " " + info->name + ": " + what);
  };
  if (state_.DefOp(m_.word(i, 1)) != Op::TypeVoid) {
    return report("Result Type " + state_.Name(m_.word(i, 1)) + " is not OpTypeVoid");
  }
  if (import.kind == SetKind::kShaderDebugInfo &&
      (number == kDebugTypeVectorIdEXT || number == kDebugTypeCooperativeMatrixKHR) &&
      import.version < 101) {
    state_.Report("ext-inst.set-version", i,
                  state_.Describe(i) + " " + info->name +
                      ": NonSemantic.Shader.DebugInfo has it from version 101, and the import "
                      "names version " +
                      ws::to_string(import.version));
    return;
  }
  const std::span<const grammar::OperandInfo> operands = grammar::Operands(*info);
  const bool numbers_are_ids = import.kind == SetKind::kShaderDebugInfo;
  for (uint32_t w = 5, k = 0; w < m_.num_words(i) && k < operands.size(); ++w) {
    const grammar::OperandInfo& operand = operands[k];
    if (operand.quantifier != grammar::Quantifier::kVariadic) ++k;
    if (operand.kind != grammar::OperandKind::kIdRef) continue;
    const Id id = m_.word(i, w);
    const ws::string name(operand.name);
    switch (DebugOperandOf(number, operand.name)) {
      case DebugOperand::kAny:
        break;
      case DebugOperand::kString:
        if (state_.DefOp(id) != Op::String) {
          return report(name + " " + state_.Name(id) + " is not an OpString");
        }
        break;
      case DebugOperand::kSource:
        if (DebugInfoNumberOf(id) != kDebugSource) {
          return report(name + " " + state_.Name(id) + " is not a DebugSource");
        }
        break;
      case DebugOperand::kType:
        if (!IsDebugType(id)) {
          return report(name + " " + state_.Name(id) + " is not a debug type instruction");
        }
        break;
      case DebugOperand::kFunctionType:
        if (DebugInfoNumberOf(id) != kDebugTypeFunction) {
          return report(name + " " + state_.Name(id) + " is not a DebugTypeFunction");
        }
        break;
      case DebugOperand::kBasicType:
        if (DebugInfoNumberOf(id) != kDebugTypeBasic) {
          return report(name + " " + state_.Name(id) + " is not a DebugTypeBasic");
        }
        break;
      case DebugOperand::kUint32Constant:
        if (numbers_are_ids && !IsUint32Constant(id)) {
          return report(name + " " + state_.Name(id) +
                        " is not a 32-bit unsigned integer OpConstant");
        }
        // DebugTypeVector describes OpTypeVector's 2 to 4 components (a longer vector is
        // DebugTypeVectorIdEXT's, from version 101).
        if (numbers_are_ids && number == 6 && name == "Component Count") {
          const std::optional<int64_t> count = KnownValue(state_, id);
          if (count && (*count < 1 || *count > 4)) {
            return report("Component Count " + ws::to_string(*count) +
                          " is not from 1 to 4 (a longer vector is DebugTypeVectorIdEXT's)");
          }
        }
        break;
      case DebugOperand::kUint32ConstantOrSpec: {
        const Id type = state_.TypeOf(id);
        const Op op = state_.DefOp(id);
        const bool constant =
            op == Op::Constant || op == Op::SpecConstant || op == Op::SpecConstantOp;
        if (!constant || !state_.IsInt32(type) || state_.IsSignedInt(type)) {
          return report(name + " " + state_.Name(id) +
                        " is not a 32-bit unsigned integer constant or specialization constant");
        }
        break;
      }
    }
  }
}

// NonSemantic.ClspvReflection Kernel: Kernel is an OpFunction declared as a GLCompute entry point
// named Name (an OpString); NumArguments and Flags are 32-bit unsigned OpConstants and Attributes
// an OpString, none of them before version 5.
void ExtInstRules::CheckClspvKernel(InstIndex i, uint32_t version) {
  const grammar::ExtInstInfo& info =
      *grammar::LookupExtInst(grammar::LookupExtInstSet("NonSemantic.ClspvReflection."), 1);
  const uint32_t n = m_.num_words(i);
  if (n < 7) return;  // binary.malformed's.
  const Id kernel = m_.word(i, 5);
  if (state_.DefOp(kernel) != Op::Function) {
    ReportClspv(i, info, "Kernel " + state_.Name(kernel) + " is not an OpFunction");
    return;
  }
  const Id name = m_.word(i, 6);
  if (state_.DefOp(name) != Op::String) {
    ReportClspv(i, info, "Name " + state_.Name(name) + " is not an OpString");
    return;
  }
  bool entry_point = false, named = false;
  for (InstIndex e = 0; e < m_.global_end(); ++e) {
    if (m_.opcode(e) != Op::EntryPoint || m_.num_words(e) < 4 || m_.word(e, 2) != kernel) continue;
    entry_point = true;
    if (static_cast<spv::ExecutionModel>(m_.word(e, 1)) != spv::ExecutionModel::GLCompute) {
      ReportClspv(i, info,
                  "Kernel " + state_.Name(kernel) + " is an entry point of a model other than " +
                      "GLCompute");
      return;
    }
    named = named || binary::DecodeString(m_.inst(e).words.subspan(3)) == StringOf(name);
  }
  if (!entry_point) {
    ReportClspv(i, info, "Kernel " + state_.Name(kernel) + " is not an entry point");
    return;
  }
  if (!named) {
    ReportClspv(i, info,
                "Name \"" + ws::string(StringOf(name)) + "\" is the name of no entry point of " +
                    state_.Name(kernel));
    return;
  }
  if (n > 7 && version < 5) {
    ReportClspv(i, info,
                "NumArguments, Flags and Attributes are missing before version 5, and the import "
                "names version " +
                    ws::to_string(version));
    return;
  }
  if (n > 7 && !IsUint32Constant(m_.word(i, 7))) {
    ReportClspv(i, info,
                "NumArguments " + state_.Name(m_.word(i, 7)) +
                    " is not a 32-bit unsigned integer OpConstant");
  } else if (n > 8 && !IsUint32Constant(m_.word(i, 8))) {
    ReportClspv(
        i, info,
        "Flags " + state_.Name(m_.word(i, 8)) + " is not a 32-bit unsigned integer OpConstant");
  } else if (n > 9 && state_.DefOp(m_.word(i, 9)) != Op::String) {
    ReportClspv(i, info, "Attributes " + state_.Name(m_.word(i, 9)) + " is not an OpString");
  }
}

}  // namespace

void ValidateExtInst(ValidationState& state) { ExtInstRules(state).Run(); }

}  // namespace coopspv::val
