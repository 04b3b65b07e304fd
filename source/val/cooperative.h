// Queries shared by the rules of the cooperative family: what a cooperative matrix or vector
// type is made of, and whether two dimension or scope operands are provably equal.
#ifndef COOPSPV_SOURCE_VAL_COOPERATIVE_H_
#define COOPSPV_SOURCE_VAL_COOPERATIVE_H_

#include <optional>

#include "source/common/workspace.h"
#include "source/grammar/grammar.h"
#include "source/val/state.h"

namespace coopspv::val {

// OpTypeCooperativeMatrixKHR (use set) or OpTypeCooperativeMatrixNV (use 0).
struct CoopMatrixType {
  bool khr = true;
  Id component = 0;
  Id scope = 0;
  Id rows = 0;
  Id columns = 0;
  Id use = 0;  // KHR only.
};

std::optional<CoopMatrixType> GetCoopMatrixType(const ValidationState& state, Id type);
inline bool IsCoopMatrixType(const ValidationState& state, Id type) {
  const Op op = state.DefOp(type);
  return op == Op::TypeCooperativeMatrixKHR || op == Op::TypeCooperativeMatrixNV;
}

// The value of a constant instruction when it is known before specialization: OpConstant and
// OpConstantNull of integer type, OpConstantTrue / False as 1 / 0. Spec constants: nullopt.
std::optional<int64_t> KnownValue(const ValidationState& state, Id id);
// As KnownValue, but spec constants give their default value, and OpSpecConstantOp scalar
// integer / Boolean expressions the value they compute from their operands' defaults.
std::optional<int64_t> DefaultValue(const ValidationState& state, Id id);
// As KnownValue, and OpSpecConstantOp scalar integer / Boolean expressions of such values only:
// the value no specialization can change (nullopt where a spec constant is involved).
std::optional<int64_t> FoldedValue(const ValidationState& state, Id id);

// True when a and b are provably the same value for every specialization: the same id, equal
// known constants, or structurally identical OpSpecConstantOp expressions.
bool SameValue(const ValidationState& state, Id a, Id b);
// True when a and b both have values no specialization changes (FoldedValue) and differ.
// Validity is a property of the specialized module, so rules comparing dimensions or scopes
// report only this.
bool ProvablyDifferent(const ValidationState& state, Id a, Id b);

// "16", "%BM", "%BM (64)" (an OpSpecConstantOp of constants) or "%BM (default 64)": how messages
// show a dimension or scope operand.
ws::string ValueText(ValidationState& state, Id id);

// Opcode 5288 declares both cooperative vectors (CooperativeVectorNV) and long vectors
// (LongVectorEXT). Cooperative-vector-only restrictions (storage classes) apply when the module
// can only mean cooperative vectors: CooperativeVectorNV declared and LongVectorEXT not.
bool IsCooperativeVectorStorageRestricted(const ValidationState& state);

// True for types that contain a cooperative matrix or vector, through arrays and structs.
bool ContainsCooperativeType(const ValidationState& state, Id type);

// The instructions that operate on cooperative matrices as a whole, all of them tangled
// (SPV_KHR_cooperative_matrix rev 10, SPV_NV_cooperative_matrix2, maintenance1): the loads,
// stores and multiply-adds of both kinds, the matrix2 instructions, and conversions,
// arithmetic and constructs whose result or an operand is a cooperative matrix.
bool IsCooperativeMatrixOperation(const ValidationState& state, InstIndex i);
// IsCooperativeMatrixOperation in two parts, for callers that decide many instructions of the
// same opcodes: what the opcode alone says (true for every instruction of it, for none, or for
// those HasCoopMatrixTyped holds for), and whether the result type or the type of any word
// after the result id is a cooperative matrix type.
enum class CoopOperation : uint8_t { kNever, kAlways, kIfMatrixTyped };
CoopOperation CoopOperationOf(Op op);
bool HasCoopMatrixTyped(const ValidationState& state, InstIndex i);
// The answer for instruction i given what its opcode says (`by_opcode`).
inline bool CoopOperationHolds(const ValidationState& state, InstIndex i, CoopOperation by_opcode) {
  return by_opcode == CoopOperation::kAlways ||
         (by_opcode == CoopOperation::kIfMatrixTyped && HasCoopMatrixTyped(state, i));
}

// What a Memory Operands mask qualifies: a load (or the Source of OpCopyMemory's second mask), a
// store (or the Target of its first), or both sides of OpCopyMemory's single mask.
enum class MemoryAccessRole : uint8_t { kLoad, kStore, kCopy };

// The Memory Operand rules every load and store shares (SPIR-V 3.26): MakePointerAvailable not
// on a load, MakePointerVisible not on a store, either one only with NonPrivatePointer, and
// Aligned a power of two. `occurrence`: which Memory Operands operand of the instruction `mask`
// is (OpCopyMemory has two), for finding its Aligned literal.
void CheckMemoryOperandMask(ValidationState& state, InstIndex i, uint32_t mask,
                            MemoryAccessRole role, const char* rule, int occurrence = 0);
inline void CheckMemoryOperandMask(ValidationState& state, InstIndex i, uint32_t mask, bool load,
                                   const char* rule) {
  CheckMemoryOperandMask(state, i, mask, load ? MemoryAccessRole::kLoad : MemoryAccessRole::kStore,
                         rule);
}

// The grammar's name of enumerant `value` of `kind`, e.g. "Subgroup"; its number when unknown.
ws::string EnumerantName(grammar::OperandKind kind, uint32_t value);
// Whether the grammar gives enumerant `value` of `kind` an id parameter (an execution mode or
// decoration that then goes in OpExecutionModeId / OpDecorateId).
bool EnumerantTakesIds(grammar::OperandKind kind, uint32_t value);
// The storage class name, e.g. "StorageBuffer".
ws::string StorageClassName(spv::StorageClass sc);
ws::string ScopeName(int64_t scope);

}  // namespace coopspv::val

#endif  // COOPSPV_SOURCE_VAL_COOPERATIVE_H_
