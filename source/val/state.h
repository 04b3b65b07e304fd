// What every rule family shares: the module, the options, the declared capabilities and
// extensions, type and constant queries, and the diagnostic sink.
#ifndef COOPSPV_SOURCE_VAL_STATE_H_
#define COOPSPV_SOURCE_VAL_STATE_H_

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "source/common/workspace.h"
#include "source/ir/analyses.h"
#include "source/ir/module.h"
#include "source/text/disassembler.h"
#include "source/val/validator.h"

namespace coopspv::val {

using ir::Id;
using ir::InstIndex;
using ir::kNoInst;
using spv::Op;

// The walks of the rule families that check instructions of a few opcodes. The first
// ValidationState::Walked() call files every instruction, in one pass over the module, under
// the walks whose families check its opcode; a family then visits only those, in module order,
// instead of walking the whole module.
enum class Walk : uint8_t {
  kMemory,
  kComposites,
  kVectorMatrix,
  kControlFlow,
  kVulkan,
  kScopes,
  kGroups,
  kAccessChains,
  kArithmetic,
  kCoopMatrix,
  kCoopVector,
  kTensor,
  kCoopMatrix2,
  kFunctions,
  kStructure,
  kMicroscaling,
};
inline constexpr size_t kNumWalks = static_cast<size_t>(Walk::kMicroscaling) + 1;

class ValidationState;

// Whether a walk visits instructions of `op`: each is defined beside its family (memory.cc,
// composites.cc, ...) from the same opcodes its switch checks; false for every opcode where
// the module or the options make the family skip its walk (a capability not declared, ...).
bool MemoryVisits(const ValidationState& state, Op op);
bool CompositesVisits(const ValidationState& state, Op op);
bool VectorMatrixVisits(const ValidationState& state, Op op);
bool ControlFlowVisits(const ValidationState& state, Op op);
bool VulkanVisits(const ValidationState& state, Op op);
bool ScopesVisits(const ValidationState& state, Op op);
bool GroupsVisits(const ValidationState& state, Op op);
bool AccessChainsVisits(const ValidationState& state, Op op);
bool ArithmeticVisits(const ValidationState& state, Op op);
bool CoopMatrixVisits(const ValidationState& state, Op op);
bool CoopVectorVisits(const ValidationState& state, Op op);
bool TensorVisits(const ValidationState& state, Op op);
bool CoopMatrix2Visits(const ValidationState& state, Op op);
bool FunctionsVisits(const ValidationState& state, Op op);
bool StructureVisits(const ValidationState& state, Op op);
bool MicroscalingVisits(const ValidationState& state, Op op);

class ValidationState {
 public:
  ValidationState(const ir::Module& module, const Options& options, Result* result);

  const ir::Module& module() const { return module_; }
  const Options& options() const { return options_; }
  uint32_t version() const { return module_.header().version; }

  // Capabilities: declared ones plus those they implicitly declare.
  bool HasCapability(spv::Capability c) const {
    const uint32_t v = static_cast<uint32_t>(c);
    return v < capabilities_.size() && capabilities_[v];
  }
  bool HasCapabilityValue(uint32_t v) const { return v < capabilities_.size() && capabilities_[v]; }
  bool HasExtension(std::string_view name) const;
  // Whether messages spell opcode 5288 OpTypeCooperativeVectorNV (text::SpellsCooperativeVector).
  bool cooperative_vector_spelling() const {
    return HasCapability(spv::Capability::CooperativeVectorNV) &&
           !HasCapability(spv::Capability::LongVectorEXT);
  }
  spv::AddressingModel addressing_model() const { return addressing_model_; }
  spv::MemoryModel memory_model() const { return memory_model_; }
  bool has_memory_model() const { return has_memory_model_; }

  // Reports a diagnostic for rule `rule_id` (which must be in the registry) about instruction
  // `inst` (kNoInst for the module as a whole). Returns false once max_errors is reached, so
  // loops can stop early.
  bool Report(const char* rule_id, InstIndex inst, ws::string message);
  bool Full() const { return full_; }
  uint32_t num_errors() const { return result_->num_errors; }

  // "%name" for an id, with the disassembler's friendly names (computed on first use).
  ws::string Name(Id id);
  // "%12 = OpIAdd" or "OpStore": how messages name an instruction.
  ws::string Describe(InstIndex inst);
  // The opcode's name, e.g. "OpIAdd".
  static ws::string OpName(Op op);

  // ---- Types and constants. All return false / 0 / nullopt for undefined ids.
  Op DefOp(Id id) const { return module_.DefOpcode(id); }
  bool IsType(Id id) const { return ir::IsTypeDeclaration(DefOp(id)); }
  Id TypeOf(Id id) const { return module_.TypeOf(id); }
  // Word `n` of the definition of `id` (0 if out of range or undefined).
  uint32_t DefWord(Id id, size_t n) const {
    const InstIndex d = module_.Def(id);
    return d == kNoInst || n >= module_.num_words(d) ? 0 : module_.word(d, n);
  }
  bool IsIntType(Id type) const { return DefOp(type) == Op::TypeInt; }
  bool IsFloatType(Id type) const { return DefOp(type) == Op::TypeFloat; }
  bool IsBoolType(Id type) const { return DefOp(type) == Op::TypeBool; }
  bool IsScalarType(Id type) const {
    return IsIntType(type) || IsFloatType(type) || IsBoolType(type);
  }
  bool IsNumericScalarType(Id type) const { return IsIntType(type) || IsFloatType(type); }
  // Width of an int or float scalar type, 0 otherwise.
  uint32_t ScalarWidth(Id type) const;
  bool IsSignedInt(Id type) const { return IsIntType(type) && DefWord(type, 3) != 0; }
  bool IsInt32(Id type) const { return IsIntType(type) && DefWord(type, 2) == 32; }
  bool IsPointerType(Id type) const { return DefOp(type) == Op::TypePointer; }
  // OpTypePointer or SPV_KHR_untyped_pointers' OpTypeUntypedPointerKHR (a storage class, no
  // pointee).
  bool IsAnyPointerType(Id type) const {
    const Op op = DefOp(type);
    return op == Op::TypePointer || op == Op::TypeUntypedPointerKHR;
  }
  // OpTypeVector, and OpTypeVectorIdEXT where LongVectorEXT makes it a vector (SPV_EXT_long_vector:
  // it then goes wherever a vector of unrestricted component count does).
  bool IsVectorType(Id type) const {
    const Op op = DefOp(type);
    return op == Op::TypeVector ||
           (op == Op::TypeVectorIdEXT && HasCapability(spv::Capability::LongVectorEXT));
  }
  // The component count of a vector type (IsVectorType): OpTypeVector's literal, or
  // OpTypeVectorIdEXT's when an OpConstant gives it; nullopt otherwise (a spec constant).
  std::optional<uint32_t> VectorCount(Id type) const {
    if (DefOp(type) == Op::TypeVector) return DefWord(type, 3);
    if (!IsVectorType(type)) return std::nullopt;
    const auto n = IntConstant(DefWord(type, 3));
    if (!n || *n < 0 || *n > 0xFFFFFFFF) return std::nullopt;
    return static_cast<uint32_t>(*n);
  }
  // For a pointer type: its storage class and pointee.
  std::optional<spv::StorageClass> PointerStorageClass(Id type) const;
  Id PointeeType(Id type) const;
  // Components of vectors (and cooperative vectors), columns of matrices, element type of
  // arrays; 0 otherwise.
  Id ComponentType(Id type) const;
  // True for constant-creation instructions, spec constants included.
  bool IsConstantInstruction(Id id) const { return ir::IsConstant(DefOp(id)); }
  // The value of an OpConstant of integer type (sign-extended for signed types), else nullopt.
  std::optional<int64_t> IntConstant(Id id) const;
  // The value of OpConstant or OpSpecConstant (its default) of integer type.
  std::optional<int64_t> IntConstantOrSpecDefault(Id id) const;

  // ---- SPV_EXT_ocp_microscaling_types, SPV_KHR_bfloat16, SPV_EXT_float8.
  // Whether the module declares a capability of the OCP microscaling types (Float4EXT, Float6EXT,
  // Float8UnsignedE8M0EXT, MXInt8EXT): without one no such type is valid.
  bool DeclaresMicroscaling() const { return declares_microscaling_; }
  // Whether it declares one of those, BFloat16TypeKHR or Float8EXT: a float type may have a
  // Floating Point Encoding.
  bool DeclaresEncodedFloats() const { return declares_encoded_floats_; }
  // SPV_KHR_16bit_storage, SPV_KHR_8bit_storage: whether a Shader module declares an 8- or 16-bit
  // type that only a storage capability enables (no Int8, Int16 or Float16 for it), whose values
  // only loads, stores, copies and width-only conversions may then use.
  bool DeclaresStorageOnlyWidths() const { return declares_storage_only_widths_; }
  // What ValidateTypes found a type to be or hold through vectors, matrices, arrays, structs and
  // cooperative types (not pointers): a float of an OCP microscaling encoding
  // (kMicroscalingFloat), of the FP4 / FP6 ones (kSubByteFloat too), a bfloat16 (kBFloat16), a
  // Float8E4M3EXT or Float8E5M2EXT (kFloat8); an 8- or 16-bit integer or a 16-bit float without
  // encoding that only a storage capability declares (kStorageOnlyWidth, see
  // DeclaresStorageOnlyWidths). 0 for every type of a module that declares none of these types.
  static constexpr uint8_t kMicroscalingFloat = 1, kSubByteFloat = 2, kBFloat16 = 4, kFloat8 = 8,
                           kStorageOnlyWidth = 16;
  uint8_t FloatEncodings(Id type) const {
    return type < float_encodings_.size() ? float_encodings_[type] : 0;
  }
  bool HoldsMicroscaling(Id type) const { return FloatEncodings(type) & kMicroscalingFloat; }
  // FloatEncodings of every type, by id (empty when no type holds any).
  std::span<const uint8_t> FloatEncodingsById() const { return float_encodings_; }
  void SetFloatEncodings(ws::vector<uint8_t> by_type) { float_encodings_ = std::move(by_type); }

  // The instructions walk `w` visits, in module order, from instruction `begin` on.
  std::span<const InstIndex> Walked(Walk w, InstIndex begin = 0);

  // Called by the layout rules when the sections are in order: from instruction `first_function`
  // on, nothing names an id (no debug name, annotation, type or constant), so friendly names made
  // later need not look further.
  void SetNamingEnd(InstIndex first_function) { naming_end_ = first_function; }

  // The ids a rule family found fatal for later families (e.g. broken function structure
  // makes dominance meaningless).
  bool structure_ok = true;

 private:
  void CollectCapabilities();
  void FileWalks();
  text::LazyFriendlyNames& Names();

  const ir::Module& module_;
  const Options& options_;
  Result* result_;
  ws::vector<bool> capabilities_;
  ws::vector<ws::string> extensions_;  // Declared ones, sorted.
  spv::AddressingModel addressing_model_ = spv::AddressingModel::Logical;
  spv::MemoryModel memory_model_ = spv::MemoryModel::Simple;
  bool has_memory_model_ = false;
  bool full_ = false;
  std::optional<text::LazyFriendlyNames> names_;  // Friendly names, made on first use.
  InstIndex naming_end_ = UINT32_MAX;             // See SetNamingEnd.
  // Filled by FileWalks on the first Walked() call: walk w's instructions, in module order, are
  // walked_[w * walk_stride_, w * walk_stride_ + walk_size_[w]) (a block of ws::Allocate).
  struct WsFree {
    void operator()(InstIndex* p) const noexcept { ws::Deallocate(p); }
  };
  std::unique_ptr<InstIndex[], WsFree> walked_;
  size_t walk_stride_ = 0;
  InstIndex walk_size_[kNumWalks] = {};
  bool walks_ready_ = false;
  bool declares_microscaling_ = false;              // See DeclaresMicroscaling().
  bool declares_encoded_floats_ = false;            // See DeclaresEncodedFloats().
  bool declares_storage_only_widths_ = false;       // See DeclaresStorageOnlyWidths().
  ws::vector<uint8_t> float_encodings_;             // See FloatEncodings().
  ws::unordered_set<std::string_view> suppressed_;  // Views of the options' rule ids.
  bool all_warnings_as_errors_ = false;
  ws::unordered_set<std::string_view> warnings_as_errors_;
};

using ir::IsNonSemanticExtInst;

// The rule families, in the order Validate() runs them.
void ValidateLayout(ValidationState& state);
void ValidateCapabilities(ValidationState& state);
void ValidateIds(ValidationState& state);
void ValidateTypes(ValidationState& state);
void ValidateConstants(ValidationState& state);
void ValidateFunctions(ValidationState& state);
void ValidateSsa(ValidationState& state);
void ValidateScopes(ValidationState& state);
void ValidatePointers(ValidationState& state);
void ValidateCore(ValidationState& state);  // core.h: the core instruction families.
void ValidateExtInst(ValidationState& state);  // ext_inst.cc: extended instruction sets.
void ValidateCoopMatrix(ValidationState& state);
void ValidateCoopMatrixQcom(ValidationState& state);
void ValidateCoopVector(ValidationState& state);
void ValidateUniformity(ValidationState& state);
void ValidateTensorAddressing(ValidationState& state);
void ValidateCoopMatrix2(ValidationState& state);
void ValidateDevice(ValidationState& state);  // Only with Options::device_profile.

}  // namespace coopspv::val

#endif  // COOPSPV_SOURCE_VAL_STATE_H_
