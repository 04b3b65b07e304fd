// --coop-matrix-nv-to-khr: rewrites an SPV_NV_cooperative_matrix module onto
// SPV_KHR_cooperative_matrix, for devices with VK_KHR_cooperative_matrix only.
//
// The one thing NV leaves out is the Use of a matrix type (A, B or accumulator), which KHR types
// carry. It is inferred from the values: every id whose type is an NV matrix (or a pointer to
// one: variables, parameters, phis, loads, arithmetic, conversions, calls and returns) joins a
// class with the matrix ids of the instructions that define or use it (union-find), except that
// OpCooperativeMatrixMulAddNV separates its operands: A's class is used as A, B's as B, C's and
// the result's as accumulator. A class with no multiply-add use becomes an accumulator (every
// element-wise operation, load and store allows any Use). An NV type whose classes take several
// Uses gets one KHR type per Use (the NV type's id keeps the first: accumulator, else A, else
// B), and so do the pointer types to it; constants and OpUndef of such a type are copied per
// Use, since they have no class.
//
// One value used in two roles (as A and as B, or an accumulator, such as a multiply-add's
// result, used as A or B of another) keeps one Use (accumulator, else A, else B), and each
// multiply-add operand that needs another Use gets a copy. Plain VK_KHR_cooperative_matrix has
// no instruction that changes a matrix's Use (OpCooperativeMatrixConvertNV is
// SPV_NV_cooperative_matrix2's; OpCopyObject, OpBitcast and element-wise copies cannot, since
// the element-to-invocation mapping differs per Use), and cooperative loads and stores take
// only Workgroup, StorageBuffer or PhysicalStorageBuffer pointers in Vulkan. So the copy is a
// round trip through a Workgroup scratch array: each subgroup stores the matrix row-major into
// its own slice (indexed by SubgroupId) and loads it back with the other Use, with a
// subgroup-scope OpControlBarrier (acquire-release, Workgroup memory, made available and
// visible) before the store (an earlier copy's loads have finished) and between the store and
// the load. The scratch holds one slice per possible subgroup: the workgroup size divided by
// the smallest subgroup size the pass argument gives (1 without one); its elements are uvec4
// (or uint) so that the Pointer and Stride meet the 16-byte alignment of
// VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986. Every entry point must be GLCompute with a
// literal LocalSize; matrices whose dimensions are specialization constants are not copied.
//
// Then, per instruction: OpCooperativeMatrixLoadNV / StoreNV take a MemoryLayout constant
// (RowMajorKHR 0 / ColumnMajorKHR 1) for the ColumnMajor boolean, the Stride keeps its meaning
// (elements of the pointer's type between rows or columns) and the memory operands carry over;
// OpCooperativeMatrixMulAddKHR gets the Cooperative Matrix Operands that say which of A, B, C
// and the result have signed integer components (NV takes signedness from the component
// types); OpCooperativeMatrixLengthNV (also in OpSpecConstantOp) becomes the KHR opcode; the
// CooperativeMatrixNV capability and SPV_NV_cooperative_matrix extension become the KHR ones.
#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <vector>

#include "source/ir/builder.h"
#include "source/ir/scalar_eval.h"
#include "source/opt/passes.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;

constexpr uint32_t U(auto v) { return static_cast<uint32_t>(v); }

enum Role : uint8_t { kMatrixA = 0, kMatrixB = 1, kAccumulator = 2 };  // CooperativeMatrixUse.
constexpr const char* kRoleNames[] = {"A", "B", "the accumulator"};

class NvToKhr {
 public:
  NvToKhr(const ir::Module& m, uint32_t min_subgroup_size)
      : m_(m), b_(m), parent_(m.bound()), min_subgroup_size_(min_subgroup_size) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }

  // Null with an empty error when there is nothing to convert.
  std::unique_ptr<ir::Module> Run(std::string* error) {
    if (!Scan()) {
      *error = error_;
      return nullptr;
    }
    if (types_.empty() && !declares_nv_) return nullptr;
    if (!AssignRoles() || !Rewrite()) {
      *error = error_;
      return nullptr;
    }
    Diagnostic d;
    auto rebuilt = b_.Finish(&d);
    if (!rebuilt) *error = "could not rebuild the module: " + d.ToString();
    return rebuilt;
  }

 private:
  struct MatrixType {
    InstIndex def;
    bool in_aggregate = false;  // Named by an array, struct or function type.
    uint8_t roles = 0;          // Bits of Role.
    Id variant[3] = {0, 0, 0};  // The KHR type id per Role.
  };

  // ---- Facts about ids.

  // The NV matrix type of a matrix or pointer-to-matrix type id, or 0.
  Id MatrixOfType(Id type) const {
    if (types_.count(type)) return type;
    auto p = pointers_.find(type);
    return p == pointers_.end() ? 0 : p->second;
  }
  // True for module-level constants and OpUndef: they have no class and are copied per Use.
  bool IsFreeValue(Id id) const {
    const InstIndex d = m_.Def(id);
    return d != ir::kNoInst && d < m_.global_end() &&
           (ir::IsConstant(m_.opcode(d)) || m_.opcode(d) == Op::Undef);
  }
  // An id that takes part in role inference: a matrix (or pointer) value that is not free.
  bool IsClassMember(Id id) const {
    return id < parent_.size() && MatrixOfType(m_.TypeOf(id)) != 0 && !IsFreeValue(id);
  }

  Id Find(Id id) {
    while (parent_[id] != id) id = parent_[id] = parent_[parent_[id]];
    return id;
  }
  void Union(Id a, Id b) {
    if (a < parent_.size() && b < parent_.size()) parent_[Find(a)] = Find(b);
  }

  bool Fail(InstIndex i, const std::string& message) {
    if (error_.empty()) {
      error_ = DescribeInstruction(m_, i) + ": " + message;
    }
    return false;
  }

  // ---- Scanning: types, then classes.

  bool Scan() {
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      const Op op = m_.opcode(i);
      if (op == Op::Capability && m_.word(i, 1) == U(spv::Capability::CooperativeMatrixNV)) {
        declares_nv_ = true;
      } else if (op == Op::TypeCooperativeMatrixNV) {
        types_[m_.result_id(i)].def = i;
        if (first_type_ == ir::kNoInst) first_type_ = i;
      } else if (op == Op::TypePointer && types_.count(m_.word(i, 3))) {
        pointers_[m_.result_id(i)] = m_.word(i, 3);
      } else if (op == Op::TypeArray || op == Op::TypeRuntimeArray || op == Op::TypeStruct ||
                 op == Op::TypeFunction) {
        for (uint32_t w = 2; w < m_.num_words(i); ++w) {
          auto t = types_.find(MatrixOfType(m_.word(i, w)));
          if (t != types_.end()) t->second.in_aggregate = true;
        }
      }
    }
    if (types_.empty()) return true;
    for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
      const Op op = m_.opcode(i);
      if (i < m_.global_end() && op != Op::Variable) continue;
      const ir::Inst inst = m_.inst(i);
      if (op == Op::CooperativeMatrixMulAddNV) {
        if (m_.num_words(i) != 6) return Fail(i, "expected 3 operands");
        const Id a = m_.word(i, 3), bm = m_.word(i, 4), c = m_.word(i, 5);
        if (IsClassMember(a)) a_uses_.push_back(a);
        if (IsClassMember(bm)) b_uses_.push_back(bm);
        if (IsClassMember(c)) Union(c, m_.result_id(i));
        accumulator_uses_.push_back(m_.result_id(i));
        continue;
      }
      if (op == Op::FunctionCall) {
        const uint32_t callee = m_.FunctionById(m_.word(i, 3));
        if (IsClassMember(m_.result_id(i))) Union(m_.result_id(i), m_.word(i, 3));
        if (callee == ~0u) continue;
        const ir::Function& f = m_.functions()[callee];
        for (uint32_t k = 0; k < f.num_params && 4 + k < m_.num_words(i); ++k) {
          const Id arg = m_.word(i, 4 + k);
          if (IsClassMember(arg)) Union(arg, m_.result_id(m_.Param(f, k)));
        }
        continue;
      }
      if (op == Op::ReturnValue) {
        const uint32_t f = m_.FunctionOf(i);
        if (f != ~0u && IsClassMember(m_.word(i, 1))) {
          Union(m_.word(i, 1), m_.result_id(m_.functions()[f].def));
        }
        continue;
      }
      Id first = IsClassMember(m_.result_id(i)) ? m_.result_id(i) : 0;
      for (const auto& operand : inst.operands) {
        if (operand.kind != grammar::OperandKind::kIdRef) continue;
        const Id id = inst.word(operand);
        if (!IsClassMember(id)) continue;
        if (first == 0) {
          first = id;
        } else {
          Union(id, first);
        }
      }
    }
    return true;
  }

  // The Use of each class: accumulator, else A, else B. A multiply-add operand whose class has
  // another Use gets a copy (see the top of the file).
  bool AssignRoles() {
    std::map<Id, uint8_t> class_roles;  // Root -> bits of Role.
    for (Id id : a_uses_) class_roles[Find(id)] |= 1u << kMatrixA;
    for (Id id : b_uses_) class_roles[Find(id)] |= 1u << kMatrixB;
    for (Id id : accumulator_uses_) class_roles[Find(id)] |= 1u << kAccumulator;
    for (auto& [root, roles] : class_roles) {
      role_of_class_[root] = (roles & (1u << kAccumulator)) ? kAccumulator
                             : (roles & (1u << kMatrixA))   ? kMatrixA
                                                            : kMatrixB;
    }
    return true;
  }

  // The Use of an instruction's matrix ids (the class of its result, else of its first matrix
  // operand); nullopt when it has none.
  std::optional<Role> RoleOf(Id id) {
    if (!IsClassMember(id)) return std::nullopt;
    auto it = role_of_class_.find(Find(id));
    return it == role_of_class_.end() ? kAccumulator : static_cast<Role>(it->second);
  }

  // ---- Rewriting.

  Id UintType() {
    if (uint_type_) return uint_type_;
    for (InstIndex i = 0; i < std::min<InstIndex>(first_type_, m_.global_end()); ++i) {
      if (m_.opcode(i) == Op::TypeInt && m_.word(i, 2) == 32 && m_.word(i, 3) == 0) {
        return uint_type_ = m_.result_id(i);
      }
    }
    InsertBeforeFirstType();
    return uint_type_ = b_.Add(Op::TypeInt, 0, {32, 0});
  }
  // Before the first matrix type; at the end of the globals in a module without one (an NV
  // load or store without a matrix type does not validate, but must not crash the pass).
  void InsertBeforeFirstType() {
    if (first_type_ != ir::kNoInst) {
      b_.SetInsertBefore(first_type_);
    } else {
      b_.SetInsertBeforeFunctions();
    }
  }
  // A 32-bit unsigned constant declared before the first matrix type (duplicates merge later).
  Id Uint(uint32_t value) {
    auto [it, fresh] = uints_.emplace(value, 0);
    if (fresh) {
      const Id type = UintType();
      InsertBeforeFirstType();
      it->second = b_.Add(Op::Constant, type, {value});
    }
    return it->second;
  }

  // Gives every matrix type the KHR types of its Uses (in place for the first).
  bool DeclareTypes() {
    // A type's Uses: those of its classes, plus the roles its free values are used in.
    for (Id id = 1; id < m_.bound(); ++id) {
      if (!IsClassMember(id)) continue;
      const Id t = MatrixOfType(m_.TypeOf(id));
      types_[t].roles |= 1u << *RoleOf(id);
    }
    for (auto& [id, role] : free_uses_) types_[MatrixOfType(m_.TypeOf(id))].roles |= 1u << role;
    // The Uses the copies are loaded with.
    for (int r = kMatrixA; r <= kMatrixB; ++r) {
      for (Id id : r == kMatrixA ? a_uses_ : b_uses_) {
        if (*RoleOf(id) == r) continue;
        const Id t = MatrixOfType(m_.TypeOf(id));
        types_[t].roles |= 1u << r;
        copied_types_.insert(t);
      }
    }
    for (auto& [t, info] : types_) {
      if (info.roles == 0) info.roles = 1u << kAccumulator;
      if (info.in_aggregate && std::popcount(info.roles) > 1) {
        return Fail(info.def, "the matrix type is used as " +
                                  std::string(kRoleNames[std::countr_zero(info.roles)]) +
                                  " and as another Use, and is named by an array, struct or "
                                  "function type, which cannot be split per Use");
      }
      const Role primary = (info.roles & (1u << kAccumulator)) ? kAccumulator
                           : (info.roles & (1u << kMatrixA))   ? kMatrixA
                                                               : kMatrixB;
      const ir::Inst inst = m_.inst(info.def);
      for (int r = 0; r < 3; ++r) {
        if ((info.roles & (1u << r)) == 0) continue;
        const uint32_t use = Uint(r);
        const Id id = r == primary ? t : b_.FreshId();
        info.variant[r] = id;
        const uint32_t words[6] = {id, inst.words[2], inst.words[3], inst.words[4], inst.words[5],
                                   use};
        if (r == primary) {
          b_.Replace(info.def, Op::TypeCooperativeMatrixKHR, words);
        } else {
          b_.SetInsertAfter(info.def);
          b_.Add(Op::TypeCooperativeMatrixKHR, 0, std::span<const uint32_t>(words + 1, 5), id);
        }
      }
    }
    for (auto& [p, t] : pointers_) {
      const MatrixType& info = types_[t];
      const InstIndex def = m_.Def(p);
      for (int r = 0; r < 3; ++r) {
        if (info.variant[r] == 0 || info.variant[r] == t) continue;
        b_.SetInsertAfter(def);
        pointer_variant_[{p, r}] = b_.Add(Op::TypePointer, 0, {m_.word(def, 2), info.variant[r]});
      }
    }
    // Free values of a split type: one copy per further Use.
    for (auto& [id, role] : free_uses_) {
      const Id variant = TypeVariant(m_.TypeOf(id), role);
      if (variant == m_.TypeOf(id) || free_variant_.count({id, role})) continue;
      const InstIndex def = m_.Def(id);
      const ir::Inst inst = m_.inst(def);
      std::vector<uint32_t> operands(inst.words.begin() + 3, inst.words.end());
      b_.SetInsertAfter(def);
      free_variant_[{id, role}] = b_.Add(m_.opcode(def), variant, operands);
    }
    return true;
  }

  Id TypeVariant(Id type, Role role) {
    if (auto t = types_.find(type); t != types_.end()) return t->second.variant[role];
    auto p = pointer_variant_.find({type, role});
    return p == pointer_variant_.end() ? type : p->second;
  }

  // Records the Use each free matrix operand of instruction i is used in.
  void NoteFreeUses(InstIndex i) {
    const ir::Inst inst = m_.inst(i);
    if (m_.opcode(i) == Op::CooperativeMatrixMulAddNV) {
      const Role roles[3] = {kMatrixA, kMatrixB, kAccumulator};
      for (int k = 0; k < 3; ++k) {
        if (IsFreeValue(m_.word(i, 3 + k))) free_uses_.insert({m_.word(i, 3 + k), roles[k]});
      }
      return;
    }
    const std::optional<Role> role = InstructionRole(i);
    for (const auto& operand : inst.operands) {
      if (operand.kind != grammar::OperandKind::kIdRef) continue;
      const Id id = inst.word(operand);
      if (IsFreeValue(id) && MatrixOfType(m_.TypeOf(id))) {
        free_uses_.insert({id, role.value_or(kAccumulator)});
      }
    }
  }

  std::optional<Role> InstructionRole(InstIndex i) {
    if (auto r = RoleOf(m_.result_id(i))) return r;
    const ir::Inst inst = m_.inst(i);
    if (m_.opcode(i) == Op::ReturnValue) {
      const uint32_t f = m_.FunctionOf(i);
      if (f != ~0u) return RoleOf(m_.result_id(m_.functions()[f].def));
    }
    for (const auto& operand : inst.operands) {
      if (operand.kind != grammar::OperandKind::kIdRef) continue;
      if (auto r = RoleOf(inst.word(operand))) return r;
    }
    return std::nullopt;
  }

  // The MemoryLayout constant for an NV ColumnMajor boolean.
  Id Layout(InstIndex i, Id column_major) {
    switch (m_.DefOpcode(column_major)) {
      case Op::ConstantTrue:
        return Uint(1);
      case Op::ConstantFalse:
        return Uint(0);
      case Op::SpecConstantTrue:
      case Op::SpecConstantFalse: {
        auto [it, fresh] = spec_layouts_.emplace(column_major, 0);
        if (fresh) {
          const Id one = Uint(1), zero = Uint(0);
          b_.SetInsertBeforeFunctions();
          it->second =
              b_.Add(Op::SpecConstantOp, UintType(), {U(Op::Select), column_major, one, zero});
        }
        return it->second;
      }
      default:
        Fail(i, "ColumnMajor is not a boolean constant");
        return 0;
    }
  }

  uint32_t SignedBit(Id value, uint32_t bit) {
    const InstIndex t = m_.Def(MatrixOfType(m_.TypeOf(value)));
    if (t == ir::kNoInst) return 0;
    const InstIndex c = m_.Def(m_.word(t, 2));
    return c != ir::kNoInst && m_.opcode(c) == Op::TypeInt && m_.word(c, 3) == 1 ? bit : 0;
  }

  bool Rewrite() {
    const InstIndex start = types_.empty() ? m_.num_instructions() : 0;
    for (InstIndex i = start; i < m_.num_instructions(); ++i) {
      if (i >= m_.global_end() || m_.opcode(i) == Op::Variable) NoteFreeUses(i);
    }
    if (!types_.empty() && !DeclareTypes()) return false;
    if (!copied_types_.empty() && !DeclareScratch()) return false;
    for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
      const Op op = m_.opcode(i);
      const ir::Inst inst = m_.inst(i);
      if (op == Op::Capability) {
        if (m_.word(i, 1) == U(spv::Capability::CooperativeMatrixKHR)) has_khr_capability_ = true;
        if (m_.word(i, 1) == U(spv::Capability::CooperativeMatrixNV)) nv_capability_ = i;
        if (m_.word(i, 1) == U(spv::Capability::VulkanMemoryModel)) has_memory_model_ = true;
        continue;
      }
      if (op == Op::Extension) {
        const std::string_view name = binary::DecodeString(inst.words.subspan(1));
        if (name == "SPV_KHR_cooperative_matrix") has_khr_extension_ = true;
        if (name == "SPV_NV_cooperative_matrix") nv_extension_ = i;
        if (name == "SPV_KHR_vulkan_memory_model") has_memory_model_extension_ = true;
        continue;
      }
      if (op == Op::SpecConstantOp && m_.num_words(i) == 5 &&
          m_.word(i, 3) == U(Op::CooperativeMatrixLengthNV)) {
        const Id t = m_.word(i, 4);
        if (!types_.count(t)) return Fail(i, "the Type operand is not an NV matrix type");
        if (std::popcount(types_[t].roles) > 1) {
          return Fail(i, "the length of a matrix type used in several Uses is ambiguous");
        }
        const uint32_t words[4] = {m_.type_id(i), m_.result_id(i),
                                   U(Op::CooperativeMatrixLengthKHR), t};
        b_.Replace(i, Op::SpecConstantOp, words);
        continue;
      }
      if (op == Op::MemoryModel) memory_model_ = i;
      if ((op == Op::Decorate || op == Op::MemberDecorate) &&
          (m_.word(i, op == Op::Decorate ? 2 : 3) == U(spv::Decoration::Coherent) ||
           m_.word(i, op == Op::Decorate ? 2 : 3) == U(spv::Decoration::Volatile))) {
        coherent_ = i;
      }
      if (i < m_.global_end() && op != Op::Variable) continue;
      if (!RewriteInstruction(i)) return false;
    }
    // Capabilities and extensions.
    if (nv_capability_ != ir::kNoInst) {
      if (has_khr_capability_) {
        b_.Remove(nv_capability_);
      } else {
        const uint32_t c = U(spv::Capability::CooperativeMatrixKHR);
        b_.Replace(nv_capability_, Op::Capability, std::span<const uint32_t>(&c, 1));
      }
      // SPV_KHR_cooperative_matrix: CooperativeMatrixKHR needs the VulkanMemoryModel capability,
      // which is only allowed with the Vulkan memory model. Without Coherent / Volatile (which
      // that model expresses with memory operands instead) the switch keeps the meaning.
      if (!has_memory_model_) {
        if (coherent_ != ir::kNoInst) {
          return Fail(coherent_,
                      "CooperativeMatrixKHR needs the Vulkan memory model, and "
                      "Coherent / Volatile decorations have no meaning there; "
                      "upgrade the module's memory model first");
        }
        if (memory_model_ != ir::kNoInst) {
          const uint32_t words[2] = {m_.word(memory_model_, 1), U(spv::MemoryModel::Vulkan)};
          b_.Replace(memory_model_, Op::MemoryModel, words);
        }
        b_.SetInsertAfter(nv_capability_);
        b_.Add(Op::Capability, 0, {U(spv::Capability::VulkanMemoryModel)});
        if (m_.header().version < grammar::MakeVersion(1, 5) && !has_memory_model_extension_) {
          b_.SetInsertBefore(nv_extension_ != ir::kNoInst ? nv_extension_ : nv_capability_ + 1);
          b_.Add(Op::Extension, 0, ir::Builder::StringWords("SPV_KHR_vulkan_memory_model"));
        }
      }
    }
    if (nv_extension_ != ir::kNoInst) {
      if (has_khr_extension_) {
        b_.Remove(nv_extension_);
      } else {
        b_.Replace(nv_extension_, Op::Extension,
                   ir::Builder::StringWords("SPV_KHR_cooperative_matrix"));
      }
    }
    return true;
  }

  // The first type, constant or variable: annotations go before it.
  InstIndex FirstDeclaration() const {
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      switch (m_.opcode(i)) {
        case Op::Capability:
        case Op::Extension:
        case Op::ExtInstImport:
        case Op::MemoryModel:
        case Op::EntryPoint:
        case Op::ExecutionMode:
        case Op::ExecutionModeId:
        case Op::String:
        case Op::SourceExtension:
        case Op::Source:
        case Op::SourceContinued:
        case Op::Name:
        case Op::MemberName:
        case Op::ModuleProcessed:
        case Op::Decorate:
        case Op::MemberDecorate:
        case Op::DecorateId:
        case Op::DecorateString:
        case Op::MemberDecorateString:
        case Op::DecorationGroup:
        case Op::GroupDecorate:
        case Op::GroupMemberDecorate:
          continue;
        default:
          return i;
      }
    }
    return first_type_;
  }

  // The Workgroup scratch of the copies, the SubgroupId input, the barrier's constants.
  bool DeclareScratch() {
    // Bytes of one slice: the largest copied matrix.
    uint32_t slice_bytes = 0, row_gcd = 0;
    for (Id t : copied_types_) {
      const InstIndex def = types_[t].def;
      const auto rows = ir::ConstantValue(m_, m_.word(def, 4)),
                 columns = ir::ConstantValue(m_, m_.word(def, 5));
      const InstIndex component = m_.Def(m_.word(def, 2));
      if (!rows || !columns || component == ir::kNoInst) {
        return Fail(def,
                    "a value of this matrix type needs a copy to another Use, and its "
                    "dimensions are not constants");
      }
      const uint32_t row = *columns * (m_.word(component, 2) / 8);
      if (row % 4 != 0 || *rows > 65536 || row > 65536) {
        return Fail(def,
                    "a value of this matrix type needs a copy to another Use through "
                    "Workgroup memory, and its rows are not a whole number of 32-bit words");
      }
      slice_bytes = std::max(slice_bytes, *rows * row);
      row_gcd = std::gcd(row_gcd, row);
    }
    // Every entry point is a compute shader with a literal workgroup size.
    uint64_t invocations = 0;
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      if (m_.opcode(i) == Op::EntryPoint) {
        if (m_.word(i, 1) != U(spv::ExecutionModel::GLCompute)) {
          return Fail(i,
                      "copying a matrix to another Use needs Workgroup memory, which only "
                      "GLCompute entry points have here");
        }
        entry_points_.push_back(i);
      }
    }
    for (InstIndex ep : entry_points_) {
      uint64_t size = 0;
      for (InstIndex i = 0; i < m_.global_end(); ++i) {
        if (m_.opcode(i) == Op::ExecutionMode && m_.word(i, 1) == m_.word(ep, 2) &&
            m_.word(i, 2) == U(spv::ExecutionMode::LocalSize) && m_.num_words(i) >= 6) {
          size = uint64_t{m_.word(i, 3)} * m_.word(i, 4) * m_.word(i, 5);
        }
      }
      if (size == 0 || size > 65536) {
        return Fail(ep,
                    "copying a matrix to another Use needs the workgroup size as a literal "
                    "LocalSize, to size the per-subgroup scratch");
      }
      invocations = std::max(invocations, size);
    }
    const uint32_t slices =
        static_cast<uint32_t>((invocations + min_subgroup_size_ - 1) / min_subgroup_size_);
    // uvec4 elements where every row is a multiple of 16 bytes, else uint.
    unit_bytes_ = row_gcd % 16 == 0 ? 16 : 4;
    slice_units_ = slice_bytes / unit_bytes_;
    const Id uint = UintType();
    const Id length = Uint(slice_units_ * slices);
    subgroup_scope_ = Uint(U(spv::Scope::Subgroup));
    // AcquireRelease 0x8 | WorkgroupMemory 0x100 | MakeAvailable 0x2000 | MakeVisible 0x4000.
    semantics_ = Uint(0x6108);
    slice_units_id_ = Uint(slice_units_);
    InsertBeforeFirstType();
    unit_type_ = unit_bytes_ == 16 ? b_.Add(Op::TypeVector, 0, {uint, 4}) : uint;
    const Id array = b_.Add(Op::TypeArray, 0, {unit_type_, length});
    const Id array_pointer = b_.Add(Op::TypePointer, 0, {U(spv::StorageClass::Workgroup), array});
    unit_pointer_ = b_.Add(Op::TypePointer, 0, {U(spv::StorageClass::Workgroup), unit_type_});
    const Id input_pointer = b_.Add(Op::TypePointer, 0, {U(spv::StorageClass::Input), uint});
    b_.SetInsertBeforeFunctions();
    scratch_ = b_.Add(Op::Variable, array_pointer, {U(spv::StorageClass::Workgroup)});
    subgroup_id_ = b_.Add(Op::Variable, input_pointer, {U(spv::StorageClass::Input)});
    b_.SetInsertBefore(FirstDeclaration());
    b_.Add(Op::Decorate, 0,
           {subgroup_id_, U(spv::Decoration::BuiltIn), U(spv::BuiltIn::SubgroupId)});
    // The entry points' interfaces: the Input always, the Workgroup variable from SPIR-V 1.4.
    for (InstIndex ep : entry_points_) {
      const ir::Inst inst = m_.inst(ep);
      std::vector<uint32_t> words(inst.words.begin() + 1, inst.words.end());
      words.push_back(subgroup_id_);
      if (m_.header().version >= grammar::MakeVersion(1, 4)) words.push_back(scratch_);
      b_.Replace(ep, Op::EntryPoint, words);
    }
    bool has_non_uniform = false;
    InstIndex last_capability = ir::kNoInst;
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      if (m_.opcode(i) != Op::Capability) continue;
      last_capability = i;
      has_non_uniform |= m_.word(i, 1) == U(spv::Capability::GroupNonUniform);
    }
    if (!has_non_uniform && last_capability != ir::kNoInst) {
      b_.SetInsertAfter(last_capability);
      b_.Add(Op::Capability, 0, {U(spv::Capability::GroupNonUniform)});
    }
    return true;
  }

  // Before multiply-add i: `value` stored to this subgroup's scratch slice and loaded back with
  // Use `role`. Returns the loaded copy.
  Id Copy(InstIndex i, Id value, Role role) {
    const Id matrix = MatrixOfType(m_.TypeOf(value));
    const InstIndex def = types_[matrix].def;
    const Id component = m_.word(def, 2);
    const uint32_t row =
        *ir::ConstantValue(m_, m_.word(def, 5)) * (m_.word(m_.Def(component), 2) / 8);
    const Id stride = Uint(row / unit_bytes_);
    const Id row_major = Uint(0);
    b_.SetInsertBefore(i);
    const Id uint = UintType();
    const Id subgroup = b_.Add(Op::Load, uint, {subgroup_id_});
    const Id offset = b_.Add(Op::IMul, uint, {subgroup, slice_units_id_});
    const Id pointer = b_.Add(Op::AccessChain, unit_pointer_, {scratch_, offset});
    b_.Add(Op::ControlBarrier, 0, {subgroup_scope_, subgroup_scope_, semantics_});
    b_.Add(Op::CooperativeMatrixStoreKHR, 0, {pointer, value, row_major, stride});
    b_.Add(Op::ControlBarrier, 0, {subgroup_scope_, subgroup_scope_, semantics_});
    return b_.Add(Op::CooperativeMatrixLoadKHR, TypeVariant(matrix, role),
                  {pointer, row_major, stride});
  }

  bool RewriteInstruction(InstIndex i) {
    const Op op = m_.opcode(i);
    const ir::Inst inst = m_.inst(i);
    const bool is_mul_add = op == Op::CooperativeMatrixMulAddNV;
    const std::optional<Role> role = is_mul_add ? std::nullopt : InstructionRole(i);
    // Operand words (everything after word 0) with types and free values mapped to the Use.
    std::vector<uint32_t> words(inst.words.begin() + 1, inst.words.end());
    bool changed = false;
    const bool result_is_matrix = IsClassMember(m_.result_id(i));
    if (result_is_matrix && inst.type_id) {
      const Id t = TypeVariant(m_.type_id(i), *RoleOf(m_.result_id(i)));
      changed |= t != words[0];
      words[0] = t;
    }
    for (const auto& operand : inst.operands) {
      if (operand.kind != grammar::OperandKind::kIdRef) continue;
      const Id id = inst.word(operand);
      if (!IsFreeValue(id) || !MatrixOfType(m_.TypeOf(id))) continue;
      Role r = role.value_or(kAccumulator);
      if (is_mul_add) r = static_cast<Role>(operand.offset - 3);
      auto v = free_variant_.find({id, r});
      if (v != free_variant_.end()) {
        words[operand.offset - 1] = v->second;
        changed = true;
      }
    }
    switch (op) {
      case Op::CooperativeMatrixLoadNV: {
        // NV: Pointer Stride ColumnMajor [memory]; KHR: Pointer MemoryLayout Stride [memory].
        if (words.size() < 5) return Fail(i, "expected Pointer, Stride and ColumnMajor");
        const Id layout = Layout(i, words[4]);
        if (!layout) return false;
        words[4] = words[3];
        words[3] = layout;
        b_.Replace(i, Op::CooperativeMatrixLoadKHR, words);
        return true;
      }
      case Op::CooperativeMatrixStoreNV: {
        // NV: Pointer Object Stride ColumnMajor [memory]; KHR: Pointer Object MemoryLayout
        // Stride [memory].
        if (words.size() < 4) return Fail(i, "expected Pointer, Object, Stride and ColumnMajor");
        const Id layout = Layout(i, words[3]);
        if (!layout) return false;
        words[3] = words[2];
        words[2] = layout;
        b_.Replace(i, Op::CooperativeMatrixStoreKHR, words);
        return true;
      }
      case Op::CooperativeMatrixMulAddNV: {
        for (int k = 0; k < 2; ++k) {
          const Id id = m_.word(i, 3 + k);
          const Role needed = static_cast<Role>(k);
          if (IsClassMember(id) && *RoleOf(id) != needed) words[2 + k] = Copy(i, id, needed);
        }
        using Operands = spv::CooperativeMatrixOperands;
        const uint32_t operands =
            SignedBit(m_.word(i, 3), U(Operands::MatrixASignedComponentsKHR)) |
            SignedBit(m_.word(i, 4), U(Operands::MatrixBSignedComponentsKHR)) |
            SignedBit(m_.word(i, 5), U(Operands::MatrixCSignedComponentsKHR)) |
            SignedBit(m_.result_id(i), U(Operands::MatrixResultSignedComponentsKHR));
        if (operands != 0) words.push_back(operands);
        b_.Replace(i, Op::CooperativeMatrixMulAddKHR, words);
        return true;
      }
      case Op::CooperativeMatrixLengthNV: {
        const Id t = m_.word(i, 3);
        if (types_.count(t) && std::popcount(types_[t].roles) > 1) {
          return Fail(i, "the length of a matrix type used in several Uses is ambiguous");
        }
        b_.Replace(i, Op::CooperativeMatrixLengthKHR, words);
        return true;
      }
      default:
        if (changed) b_.Replace(i, op, words);
        return true;
    }
  }

  const ir::Module& m_;
  ir::Builder b_;
  std::string error_;
  std::vector<Id> parent_;
  std::map<Id, MatrixType> types_;
  std::map<Id, Id> pointers_;  // Pointer type -> its NV matrix type.
  InstIndex first_type_ = ir::kNoInst;
  bool declares_nv_ = false;
  std::vector<Id> a_uses_, b_uses_, accumulator_uses_;
  std::map<Id, uint8_t> role_of_class_;
  std::set<std::pair<Id, Role>> free_uses_;
  std::set<Id> copied_types_;  // Matrix types with a value copied to another Use.
  uint32_t min_subgroup_size_ = 1;
  std::vector<InstIndex> entry_points_;
  uint32_t unit_bytes_ = 16, slice_units_ = 0;
  Id unit_type_ = 0, unit_pointer_ = 0, scratch_ = 0, subgroup_id_ = 0;
  Id subgroup_scope_ = 0, semantics_ = 0, slice_units_id_ = 0;
  std::map<std::pair<Id, Role>, Id> free_variant_;
  std::map<std::pair<Id, int>, Id> pointer_variant_;
  std::map<Id, Id> spec_layouts_;
  std::map<uint32_t, Id> uints_;
  Id uint_type_ = 0;
  bool has_khr_capability_ = false, has_khr_extension_ = false;
  bool has_memory_model_ = false, has_memory_model_extension_ = false;
  InstIndex memory_model_ = ir::kNoInst, coherent_ = ir::kNoInst;
  InstIndex nv_capability_ = ir::kNoInst, nv_extension_ = ir::kNoInst;
};

class CoopMatrixNvToKhrPass : public Pass {
 public:
  explicit CoopMatrixNvToKhrPass(uint32_t min_subgroup_size)
      : min_subgroup_size_(min_subgroup_size) {}
  const char* name() const override { return "coop-matrix-nv-to-khr"; }

  PassResult Run(ir::Module& m) override {
    NvToKhr conversion(m, min_subgroup_size_);
    std::string error;
    auto converted = conversion.Run(&error);
    // The Use and layout constants may repeat existing ones: RebuiltResult merges them.
    return RebuiltResult(std::move(converted), error);
  }

 private:
  uint32_t min_subgroup_size_;
};

}  // namespace

std::unique_ptr<Pass> CreateCoopMatrixNvToKhrPass(std::string_view argument, std::string* error) {
  // The smallest subgroup size of the target device: the scratch of the Use copies has one
  // slice per possible subgroup.
  uint32_t size = 1;
  if (!argument.empty()) {
    size = 0;
    for (char c : argument) {
      if (c < '0' || c > '9' || size > 100000) {
        size = 0;
        break;
      }
      size = size * 10 + static_cast<uint32_t>(c - '0');
    }
    if (size == 0 || size > 1024) {
      *error = "expected the smallest subgroup size of the device (1 to 1024), got \"" +
               std::string(argument) + "\"";
      return nullptr;
    }
  }
  return std::make_unique<CoopMatrixNvToKhrPass>(size);
}

}  // namespace coopspv::opt
