// The workgroup size of a compute entry point, read the way a driver reads it once the pipeline is
// specialized. SPIR-V 3.2.2 (BuiltIn WorkgroupSize): "If an object is decorated with the
// WorkgroupSize decoration, this takes precedence over any LocalSize or LocalSizeId execution
// mode"; otherwise LocalSizeId (ids) or LocalSize (literals) of the entry point gives it.
// Shared by the passes that need the invocation count of a workgroup and by coopspv-run.
#ifndef COOPSPV_SOURCE_IR_WORKGROUP_SIZE_H_
#define COOPSPV_SOURCE_IR_WORKGROUP_SIZE_H_

#include <array>
#include <cstdint>
#include <functional>
#include <optional>

#include "source/ir/module.h"

namespace coopspv::ir {

// The value the pipeline gives a SpecId, or nullopt for the constant's default.
using SpecValue = std::function<std::optional<uint64_t>(uint32_t spec_id)>;

// The value of the scalar integer (or Boolean, 0 / 1) constant `id` after specialization:
// OpConstant, OpConstantTrue / False / Null; with `spec`, also OpSpecConstant / True / False
// (their SpecId's value from `spec`, else the default) and OpSpecConstantOp of a scalar
// operation on such values. Without `spec` every spec constant is unknown: a pass does not know
// what the pipeline will specialize. nullopt for anything else.
std::optional<uint64_t> SpecializedValue(const Module& m, Id id, const SpecValue* spec);

// The X, Y and Z sizes of the workgroup of the entry point whose OpFunction result is `entry`;
// nullopt when one of them is not known (see SpecializedValue) or nothing declares them.
std::optional<std::array<uint64_t, 3>> WorkgroupSize(const Module& m, Id entry,
                                                     const SpecValue* spec = nullptr);

// The invocation count of a workgroup (X * Y * Z) when every entry point of the module has the
// same known one; nullopt otherwise (no entry point, one unknown, two that differ).
std::optional<uint64_t> CommonWorkgroupInvocations(const Module& m);

}  // namespace coopspv::ir

#endif  // COOPSPV_SOURCE_IR_WORKGROUP_SIZE_H_
