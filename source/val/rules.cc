#include "source/val/rules.h"

#include <iterator>

namespace coopspv::val {
namespace {

constexpr Severity kE = Severity::kError;
constexpr Severity kW = Severity::kWarning;

// Sorted by family, then id. Ids are stable: never rename one; retire it instead.
constexpr Rule kRules[] = {
    // binary: the reader's form checks.
    {"binary.malformed", kE, "binary",
     "SPIR-V 2.3 Physical Layout of a SPIR-V Module and Instruction",
     "The module is a well-formed word stream: header, word counts, operands as the grammar "
     "states them, ids below the bound."},

    // layout.cc
    {"layout.version", kE, "layout", "SPIR-V 2.3 Physical Layout; client API (target environment)",
     "The header's version is a SPIR-V version the target environment accepts."},
    {"layout.order", kE, "layout", "SPIR-V 2.4 Logical Layout of a Module",
     "Instructions appear in the sections of the logical layout, in order; function-only "
     "instructions only inside functions."},
    {"layout.memory-model", kE, "layout", "SPIR-V 2.4 Logical Layout of a Module, item 4",
     "The module has exactly one OpMemoryModel."},
    {"layout.entry-point", kE, "layout", "SPIR-V 2.4 Logical Layout of a Module, item 5",
     "The module has at least one OpEntryPoint unless it declares the Linkage capability."},
    {"layout.extension-unknown", kW, "layout", "SPIR-V 2.16.1 Universal Validation Rules",
     "OpExtension names an extension the grammar tables know."},
    {"layout.extension-version", kE, "layout",
     "Each extension's Dependencies (\"This extension requires SPIR-V 1.x\")",
     "SPV_KHR_vulkan_memory_model and SPV_QCOM_cooperative_matrix_conversion need SPIR-V 1.3; "
     "SPV_KHR_workgroup_memory_explicit_layout, SPV_KHR_opacity_micromap, SPV_EXT_mesh_shader, "
     "the invocation-reorder, cluster acceleration structure, linear swept spheres and QCOM image "
     "processing extensions need 1.4."},
    {"entry-point.function", kE, "layout", "SPIR-V OpEntryPoint",
     "An entry point names an OpFunction with a body that returns void and takes no parameters."},
    {"entry-point.interface", kE, "layout", "SPIR-V OpEntryPoint (Interface)",
     "Interface ids are global OpVariables; before SPIR-V 1.4 only of Input or Output storage "
     "class; none listed twice."},
    {"entry-point.interface-complete", kE, "layout", "SPIR-V OpEntryPoint (Interface)",
     "Every Input / Output variable (before SPIR-V 1.4) or every module-scope variable (1.4 and "
     "later) the entry point's call tree references is listed in its interface."},
    {"entry-point.builtin-once", kE, "layout",
     "VUID-StandaloneSpirv-OpEntryPoint-09658, VUID-StandaloneSpirv-OpEntryPoint-09659",
     "In a Vulkan environment, no BuiltIn decoration is used more than once by an entry point's "
     "Input interface, nor more than once by its Output interface."},
    {"entry-point.duplicate", kE, "layout", "SPIR-V OpEntryPoint",
     "No two entry points share both execution model and name."},
    {"execution-mode.target", kE, "layout", "SPIR-V OpExecutionMode",
     "The Entry Point operand of OpExecutionMode / OpExecutionModeId is an entry point's "
     "function."},

    // capability.cc
    {"capability.instruction", kE, "capability",
     "SPIR-V 2.16.1 Universal Validation Rules; 3.31 Capability",
     "Every instruction is enabled by a declared capability (implicit ones included), a "
     "declared extension, or the module's version."},
    {"capability.operand", kE, "capability",
     "SPIR-V 2.16.1 Universal Validation Rules; 3.31 Capability",
     "Every enumerant operand is enabled by a declared capability, a declared extension, or the "
     "module's version."},

    // ids.cc
    {"id.duplicate", kE, "ids", "SPIR-V 2.16.1 Universal Validation Rules (Data rules)",
     "Each id is the result of at most one instruction."},
    {"id.undefined", kE, "ids", "SPIR-V 2.16.1 Universal Validation Rules",
     "Every id used is defined by some instruction."},
    {"id.kind", kE, "ids", "SPIR-V 2.16.1 Universal Validation Rules; 3.42 Instructions",
     "An operand names the kind of definition its instruction requires: a type where a type is "
     "required (never a function type as a Result Type), a label, function or extended instruction "
     "set where those are, a value "
     "elsewhere."},
    {"id.forward-reference", kE, "ids", "SPIR-V 2.4 Logical Layout of a Module",
     "Outside functions, ids are defined before they are used, except in debug and annotation "
     "instructions, entry points, execution modes, through OpTypeForwardPointer and in "
     "OpExtInstWithForwardRefsKHR."},
    {"id.ext-inst-forward-refs", kE, "ids",
     "SPV_KHR_relaxed_extended_instruction, OpExtInstWithForwardRefsKHR",
     "OpExtInstWithForwardRefsKHR names a non-semantic extended instruction set and, among its "
     "operands, at least one id defined after it (without one, the instruction is OpExtInst)."},

    // types.cc
    {"type.int", kE, "types", "SPIR-V OpTypeInt; 2.16.1",
     "OpTypeInt has Signedness 0 or 1 (0 for kernels) and a width enabled by a capability: 32, "
     "or 8/16/64 with Int8/Int16/Int64 or a storage capability."},
    {"type.float", kE, "types",
     "SPIR-V OpTypeFloat; SPV_KHR_bfloat16; SPV_EXT_float8; SPV_EXT_ocp_microscaling_types "
     "(FP Encoding)",
     "OpTypeFloat has width 16, 32 or 64 (16 and 64 need a capability); a Floating Point "
     "Encoding fixes the width (BFloat16KHR: 16, Float8 encodings, Float8UnsignedE8M0EXT and "
     "MXInt8EXT: 8, Float6E2M3EXT and Float6E3M2EXT: 6, Float4E2M1EXT: 4)."},
    {"type.float.storage", kE, "types",
     "SPV_EXT_ocp_microscaling_types 2.16.11 Universal Validation Rules (Memory Instructions)",
     "A pointer to a Float4E2M1EXT, Float6E2M3EXT or Float6E3M2EXT float, or to a type holding "
     "one (vectors, matrices, arrays, structs, cooperative types), has storage class Function "
     "or Private."},
    {"type.vector", kE, "types",
     "SPIR-V OpTypeVector; SPV_EXT_long_vector; VUID-StandaloneSpirv-None-12295",
     "A vector has a scalar component type and 2, 3 or 4 components (8 and 16 with Vector16; "
     "any count from 1 with LongVectorEXT)."},
    {"type.vector.storage", kE, "types",
     "SPV_EXT_long_vector 2.16.1; VUID-StandaloneSpirv-Type-12297",
     "A pointer to a vector known to have more than four components, or to an array or struct "
     "holding one, has storage class Function, Private, UniformConstant, Uniform, Workgroup, "
     "StorageBuffer, PhysicalStorageBuffer, PushConstant, ShaderRecordBufferKHR, CrossWorkgroup "
     "or Generic."},
    {"vulkan.long-vector-spec-count", kE, "types", "VUID-StandaloneSpirv-Function-12294",
     "In a Vulkan environment, an OpTypeVectorIdEXT whose component count is a spec constant (or "
     "a type holding one) is not pointed to in explicitly laid out storage: StorageBuffer, "
     "PhysicalStorageBuffer, Uniform, PushConstant, ShaderRecordBufferKHR, or Workgroup with "
     "Block."},
    {"type.matrix", kE, "types", "SPIR-V OpTypeMatrix; SPV_EXT_long_vector 2.16.1",
     "A matrix has 2, 3 or 4 columns of a float vector type of 2, 3 or 4 components."},
    {"type.array", kE, "types", "SPIR-V OpTypeArray",
     "An array's element type is a non-void type and its Length a constant integer of value at "
     "least 1."},
    {"type.runtime-array", kE, "types", "SPIR-V OpTypeRuntimeArray",
     "A runtime array's element type is a non-void type."},
    {"type.struct", kE, "types", "SPIR-V OpTypeStruct; 2.17 Universal Limits",
     "Struct members are non-void types; a runtime array only as the last member; no more "
     "members than the limit."},
    {"type.pointer", kE, "types", "SPIR-V OpTypePointer; OpTypeForwardPointer",
     "A pointer points to a type; a forward pointer names a pointer type of the same storage "
     "class."},
    {"type.function", kE, "types", "SPIR-V OpTypeFunction; 2.17 Universal Limits",
     "A function type's return and parameter types are types, parameters not void, no more "
     "parameters than the limit."},
    {"type.unique", kE, "types", "SPIR-V 2.16.1 Universal Validation Rules (Data rules)",
     "Non-aggregate types are declared once: two declarations with the same operands are "
     "invalid (structs and opaque types excepted)."},
    {"type.nesting", kE, "types", "SPIR-V 2.17 Universal Limits",
     "Types nest no deeper than the limit (structs, arrays, pointers)."},

    // constants.cc
    {"constant.scalar", kE, "constants", "SPIR-V OpConstant, OpSpecConstant, OpConstantTrue",
     "OpConstant / OpSpecConstant have a scalar integer or float type; the Boolean constants a "
     "bool type."},
    {"constant.composite", kE, "constants", "SPIR-V OpConstantComposite, OpSpecConstantComposite",
     "Composite constants have a composite type and one constituent of the matching type per "
     "member (vectors: per component; arrays: per element)."},
    {"constant.workgroup-size", kE, "constants", "SPIR-V BuiltIn WorkgroupSize",
     "A WorkgroupSize built-in constant whose components are known before specialization has no "
     "component 0 (a workgroup has at least one invocation)."},
    {"constant.data", kE, "constants", "SPV_KHR_constant_data OpConstantDataKHR, OpSpecConstantDataKHR",
     "The Result Type is an array of integer scalars and the data holds exactly the words its "
     "elements pack into (at least one)."},
    {"constant.null", kE, "constants", "SPIR-V OpConstantNull",
     "OpConstantNull has a scalar, vector, matrix, array, struct, pointer or other type that has "
     "a null value."},
    {"constant.spec-op", kE, "constants", "SPIR-V OpSpecConstantOp",
     "OpSpecConstantOp's operation is one the spec allows for the module's capabilities, and its "
     "operands are constants."},

    // function.cc
    {"function.structure", kE, "function",
     "SPIR-V 2.4 Logical Layout (item 11); 2.2.5 Control Flow",
     "A function is OpFunction, its OpFunctionParameters, blocks that each start with OpLabel "
     "and end with one terminator, then OpFunctionEnd; a function definition has at least one "
     "block."},
    {"function.type", kE, "function", "SPIR-V OpFunction, OpFunctionParameter",
     "OpFunction's Function Type is an OpTypeFunction whose return type is the Result Type and "
     "whose parameters match the OpFunctionParameters in number and type."},
    {"memory.array-length", kE, "memory",
     "SPIR-V OpArrayLength; SPV_KHR_untyped_pointers OpUntypedArrayLengthKHR; "
     "SPV_EXT_shader_64bit_indexing",
     "The Result Type is a 32-bit unsigned integer (64-bit too with Shader64BitIndexingEXT); the "
     "structure (pointed to, or named by the untyped form, whose Pointer is untyped) ends in a "
     "runtime array and Array member is that last member."},
    {"function.pointer-return", kE, "function",
     "SPIR-V 2.16.1 Universal Validation Rules (Logical addressing: variable pointers)",
     "Under the Logical addressing model, a function returns a pointer only to StorageBuffer memory "
     "(with VariablePointersStorageBuffer or VariablePointers) or Workgroup memory (with "
     "VariablePointers)."},
    {"function.call", kE, "function", "SPIR-V OpFunctionCall; 2.17 Universal Limits",
     "OpFunctionCall names a function, passes one argument of the parameter's type per "
     "parameter, and its Result Type is the function's return type."},
    {"function.return", kE, "function", "SPIR-V OpReturn, OpReturnValue",
     "OpReturn only in functions returning void; OpReturnValue's value has the function's return "
     "type."},
    {"function.nesting-depth", kE, "function", "SPIR-V 2.17 Universal Limits",
     "Structured control-flow constructs nest no deeper than the limit (1023; "
     "--max-control-flow-nesting-depth)."},
    {"function.variable", kE, "function", "SPIR-V OpVariable; 2.4 Logical Layout",
     "Function-storage OpVariables come first in a function's first block; module-scope ones are "
     "not of Function storage class."},
    {"block.merge", kE, "function",
     "SPIR-V 2.11 Structured Control Flow; OpSelectionMerge, OpLoopMerge",
     "A merge instruction is immediately followed by its block's terminator; OpLoopMerge only "
     "before OpBranch / OpBranchConditional, OpSelectionMerge only before OpBranchConditional / "
     "OpSwitch."},
    {"cfg.branch-target", kE, "function", "SPIR-V 2.2.5 Control Flow; OpBranch and friends",
     "Branch, switch and merge targets are labels of blocks in the same function."},

    // ssa.cc
    {"ssa.dominance", kE, "ssa", "SPIR-V 2.16.1 Universal Validation Rules (SSA)",
     "Each use of an id defined in a function is dominated by its definition, in the same "
     "function."},
    {"ssa.phi", kE, "ssa", "SPIR-V OpPhi",
     "OpPhi comes first in its block, has one (value, parent) pair per predecessor, each parent a "
     "distinct predecessor and each value of the result type and dominating the end of its "
     "parent."},

    // scope.cc
    {"scope.id", kE, "scope",
     "SPIR-V 2.16.2 Validation Rules for Shader Capabilities; SPV_KHR_cooperative_matrix",
     "Scope operands are constant instructions of 32-bit integer type naming a Scope; in shaders "
     "an OpConstant (or OpConstantNull), or any constant instruction once CooperativeMatrixKHR "
     "or CooperativeMatrixNV is declared."},
    {"scope.memory-model", kE, "scope",
     "SPIR-V 3.27 Scope (QueueFamily: VulkanMemoryModel); SPV_KHR_vulkan_memory_model "
     "(VulkanMemoryModelDeviceScope)",
     "A memory Scope (of a barrier, an atomic or a MakePointerAvailable / MakePointerVisible "
     "Memory Operand) of QueueFamily needs the VulkanMemoryModel capability; one of Device, "
     "under VulkanMemoryModel, needs VulkanMemoryModelDeviceScope."},

    // memory_semantics.cc
    {"memory-semantics.id", kE, "memory-semantics",
     "SPIR-V 2.16.2 Validation Rules for Shader Capabilities; SPV_NV_cooperative_matrix",
     "Memory Semantics operands are 32-bit integer constants; OpConstant (or OpConstantNull) in "
     "shaders, or any constant instruction once CooperativeMatrixNV is declared."},
    {"memory-semantics.capability", kE, "memory-semantics",
     "SPIR-V 3.25 Memory Semantics (enabling capabilities); 2.16.1 Universal Validation Rules",
     "A Memory Semantics value sets UniformMemory only with the Shader capability, and "
     "OutputMemory, MakeAvailable, MakeVisible or Volatile only with VulkanMemoryModel."},
    {"memory-semantics.order", kE, "memory-semantics",
     "SPIR-V 3.25 Memory Semantics; VUID-StandaloneSpirv-MemorySemantics-10865",
     "A Memory Semantics value sets at most one of Acquire, Release, AcquireRelease and "
     "SequentiallyConsistent."},
    {"memory-semantics.make-available", kE, "memory-semantics",
     "SPIR-V 3.25 Memory Semantics (MakeAvailable); VUID-StandaloneSpirv-MemorySemantics-10872",
     "Memory Semantics with MakeAvailable also set Release or AcquireRelease."},
    {"memory-semantics.make-visible", kE, "memory-semantics",
     "SPIR-V 3.25 Memory Semantics (MakeVisible); VUID-StandaloneSpirv-MemorySemantics-10873",
     "Memory Semantics with MakeVisible also set Acquire or AcquireRelease."},
    {"memory-semantics.volatile", kE, "memory-semantics",
     "SPIR-V 3.25 Memory Semantics (Volatile); VUID-StandaloneSpirv-MemorySemantics-10874 (13551 "
     "in later revisions)",
     "Volatile is set only on atomic instructions, never on a barrier (OpControlBarrier, "
     "OpMemoryBarrier, OpMemoryNamedBarrier, OpControlBarrierArriveEXT / WaitEXT)."},
    {"memory-semantics.load-store-order", kE, "memory-semantics",
     "SPIR-V 3.42.18 Atomic Instructions; VUID-StandaloneSpirv-MemorySemantics-10867, "
     "VUID-StandaloneSpirv-MemorySemantics-10868",
     "OpAtomicLoad's Memory Semantics are neither Release nor AcquireRelease; OpAtomicStore's "
     "and OpAtomicFlagClear's neither Acquire nor AcquireRelease."},
    {"memory-semantics.compare-exchange", kE, "memory-semantics",
     "SPIR-V OpAtomicCompareExchange (Unequal); VUID-StandaloneSpirv-UnequalMemorySemantics-10875, "
     "VUID-StandaloneSpirv-UnequalMemorySemantics-10876",
     "The Unequal Memory Semantics of OpAtomicCompareExchange(Weak) are neither Release nor "
     "AcquireRelease, and no stronger an order than Equal (SequentiallyConsistent only with "
     "SequentiallyConsistent Equal, Acquire only with an ordered Equal)."},
    {"vulkan.sequentially-consistent", kE, "memory-semantics",
     "VUID-StandaloneSpirv-MemorySemantics-10866; SPIR-V 3.25 Memory Semantics "
     "(SequentiallyConsistent under the Vulkan memory model)",
     "In a Vulkan environment, or under the Vulkan memory model, Memory Semantics are not "
     "SequentiallyConsistent."},
    {"vulkan.memory-barrier-relaxed", kE, "memory-semantics",
     "VUID-StandaloneSpirv-MemorySemantics-10869",
     "In a Vulkan environment, or under the Vulkan memory model, OpMemoryBarrier's Memory "
     "Semantics set Acquire, Release or AcquireRelease."},
    {"vulkan.memory-semantics-storage", kE, "memory-semantics",
     "VUID-StandaloneSpirv-MemorySemantics-10870",
     "In a Vulkan environment, or under the Vulkan memory model, Memory Semantics with Acquire, "
     "Release or AcquireRelease also set UniformMemory, WorkgroupMemory, ImageMemory or "
     "OutputMemory."},
    {"vulkan.memory-semantics-relaxed", kE, "memory-semantics",
     "VUID-StandaloneSpirv-MemorySemantics-10871",
     "In a Vulkan environment, or under the Vulkan memory model, Memory Semantics that set "
     "UniformMemory, WorkgroupMemory, ImageMemory or OutputMemory also set Acquire, Release or "
     "AcquireRelease."},
    {"vulkan.invocation-scope-order", kE, "memory-semantics", "VUID-StandaloneSpirv-None-04641",
     "In a Vulkan environment, or under the Vulkan memory model, Memory Semantics with "
     "Invocation memory Scope are Relaxed."},
    {"vulkan.split-barrier-order", kE, "memory-semantics",
     "VUID-StandaloneSpirv-MemorySemantics-13556, VUID-StandaloneSpirv-MemorySemantics-13557 "
     "(SPV_EXT_split_barrier)",
     "In a Vulkan environment, or under the Vulkan memory model, OpControlBarrierArriveEXT's "
     "Memory Semantics are Relaxed or Release, OpControlBarrierWaitEXT's Relaxed or Acquire."},
    {"vulkan.compare-exchange-semantics", kE, "memory-semantics",
     "VUID-StandaloneSpirv-UnequalMemorySemantics-10877, "
     "VUID-StandaloneSpirv-UnequalMemorySemantics-10878, "
     "VUID-StandaloneSpirv-UnequalMemorySemantics-10879",
     "In a Vulkan environment, or under the Vulkan memory model, the Unequal Memory Semantics of "
     "OpAtomicCompareExchange set no UniformMemory, WorkgroupMemory, ImageMemory, OutputMemory "
     "or MakeVisible bit that Equal does not, and Volatile exactly when Equal does."},

    // pointers.cc
    {"pointer.access-chain-indexes", kE, "pointer", "SPIR-V 2.17 Universal Limits",
     "An access chain has no more indexes than the limit (255; --max-access-chain-indexes)."},
    {"pointer.variable-matrix-column", kE, "pointer",
     "SPIR-V 2.16.1 Universal Validation Rules (Logical addressing, VariablePointers); SPIR-V "
     "2.2.2 Types (Variable pointer)",
     "With VariablePointers or VariablePointersStorageBuffer, a variable pointer (the result of "
     "OpSelect, OpPhi, OpFunctionCall, OpLoad, OpPtrAccessChain or OpConstantNull, or an access "
     "chain, copy or parameter made from one) does not point to a matrix, a column of a matrix "
     "or a component of a column: no access chain it may come from (through phis, selects, "
     "copies, calls, returns and the Function and Private variables storing pointers) walks "
     "into a matrix."},
    {"pointer.logical-operand", kE, "pointer",
     "SPIR-V 2.16.1 Universal Validation Rules (Logical addressing); SPV_KHR_cooperative_matrix "
     "2.16.1; SPV_KHR_ray_query; SPV_KHR_untyped_pointers",
     "Under the Logical addressing model without VariablePointers, pointers are operands only of "
     "loads, stores, access chains, OpCopyObject, calls, atomics, OpImageTexelPointer, "
     "OpArrayLength, extended instructions, the cooperative loads and stores, the untyped and "
     "raw access chains, and the ray query, hit object and ray tracing instructions of their "
     "opaque objects and payloads (--relax-logical-pointer lifts this)."},

    // ray_query.cc
    {"ray-query.object", kE, "ray-query", "SPV_KHR_ray_query (RayQuery operands)",
     "The RayQuery operand of a ray query instruction is a pointer to an OpTypeRayQueryKHR."},
    {"ray-query.intersection", kE, "ray-query", "SPV_KHR_ray_query (Intersection operands)",
     "The Intersection operand is a constant instruction of 32-bit integer type."},
    {"ray-query.result-type", kE, "ray-query",
     "SPV_KHR_ray_query; SPV_KHR_ray_tracing_position_fetch; SPV_NV_linear_swept_spheres; "
     "SPV_NV_cluster_acceleration_structure",
     "Each ray query instruction's Result Type is the one it describes: Boolean, 32-bit integer "
     "or float scalar, 2- or 3-component 32-bit float vector, 4-column matrix of those, or the "
     "arrays of positions and radii."},
    {"ray-query.operand", kE, "ray-query",
     "SPV_KHR_ray_query OpRayQueryInitializeKHR, OpRayQueryGenerateIntersectionKHR; "
     "SPV_EXT_opacity_micromap",
     "OpRayQueryInitializeKHR takes an acceleration structure, 32-bit integer RayFlags and "
     "CullMask, 3-component 32-bit float RayOrigin / RayDirection and 32-bit float RayTMin / "
     "RayTMax (ForceOpacityMicromap2StateEXT needs RayTracingOpacityMicromapEXT); "
     "OpRayQueryGenerateIntersectionKHR a 32-bit float Hit T."},

    // tensor_arm.cc
    {"tensor-arm.type", kE, "tensor-arm", "SPV_ARM_tensors OpTypeTensorARM",
     "A tensor type's Element Type is a scalar type, its Rank a constant integer of at least 1, "
     "its Shape a constant array of Rank integers, each at least 1."},
    {"tensor-arm.access", kE, "tensor-arm", "SPV_ARM_tensors OpTensorReadARM, OpTensorWriteARM",
     "Tensor is a ranked tensor; Coordinates an array of integers of the tensor's Rank; the value "
     "read (Result Type) or written (Object) the tensor's Element Type or an array of it."},
    {"tensor-arm.operands", kE, "tensor-arm", "SPV_ARM_tensors Tensor Operands",
     "OutOfBoundsValueARM (a constant of the Element Type) and MakeElementVisibleARM only on "
     "reads, MakeElementAvailableARM only on writes, both with NonPrivateElementARM."},
    {"tensor-arm.query-size", kE, "tensor-arm", "SPV_ARM_tensors OpTensorQuerySizeARM",
     "Result Type is a scalar integer, Tensor a ranked tensor, Dimension a constant integer less "
     "than its Rank."},

    // arithmetic.cc
    {"arithmetic.operand", kE, "arithmetic", "SPIR-V 3.42.13 Arithmetic Instructions",
     "Integer arithmetic: integer scalar or vector Result Type, integer operands of its "
     "component count and width (OpUDiv, OpUMod: unsigned, operands of the Result Type); float "
     "arithmetic: float scalar or vector Result Type, operands of the Result Type."},
    {"bitwise.operand", kE, "arithmetic", "SPIR-V 3.42.14 Bit Instructions",
     "Bitwise operations and shifts: integer scalar or vector Result Type; operands (Base) "
     "integers of its component count and width; Shift an integer of its component count."},
    {"relational.operand", kE, "arithmetic", "SPIR-V 3.42.15 Relational and Logical Instructions",
     "Comparisons: Boolean scalar or vector Result Type; integer operands of its component count "
     "and of one width, or float operands of one type and its component count; OpIsNan / "
     "OpIsInf: a float operand of its component count."},
    {"logical.operand", kE, "arithmetic", "SPIR-V 3.42.15 Relational and Logical Instructions",
     "Logical operations: Boolean scalar or vector Result Type and operands of the Result Type; "
     "OpAny / OpAll: Boolean scalar Result Type, a Boolean vector operand."},
    {"glsl.operand", kE, "arithmetic", "GLSL.std.450 (each instruction's Result Type and operands)",
     "GLSL.std.450 float functions (Round ... Fma, NMin, NMax, NClamp) have a float scalar or "
     "vector Result Type and operands of that type; the integer ones (SAbs, SSign, UMin ... "
     "SClamp) an integer scalar or vector Result Type and integer operands of its component "
     "count and width."},
    {"select.operand", kE, "arithmetic", "SPIR-V OpSelect",
     "Condition is a Boolean scalar, or a Boolean vector of the (vector) Result Type's component "
     "count; both objects have the Result Type."},
    {"conversion.operand", kE, "arithmetic", "SPIR-V 3.42.11 Conversion Instructions",
     "Conversions: Result Type and operand are scalars or vectors of the kinds the instruction "
     "converts between, with the same component count; OpUConvert's and OpConvertFToU's Result "
     "Type is unsigned; "
     "OpUConvert, OpSConvert and OpFConvert change the width (OpFConvert: or the Floating Point "
     "Encoding)."},
    // ext_inst.cc
    {"debug-info.operand", kE, "ext-inst",
     "NonSemantic.Shader.DebugInfo.100 (4.1 and each instruction); OpenCL.DebugInfo.100",
     "Debug-info instructions return OpTypeVoid; Name, Linkage Name, File and Text are "
     "OpStrings, Source a DebugSource, Type and Base Type debug types (a DebugTypeFunction for "
     "DebugFunction / DebugFunctionDeclaration); in NonSemantic.Shader.DebugInfo numeric "
     "operands (Line, Column, Flags, ...) are 32-bit unsigned integer OpConstants, and the "
     "Component Count of DebugTypeVectorIdEXT, the Scope, Rows, Columns and Use of "
     "DebugTypeCooperativeMatrixKHR 32-bit unsigned integer constants or specialization "
     "constants, their Component Type a DebugTypeBasic."},
    {"ext-inst.import-version", kE, "ext-inst",
     "NonSemantic.ClspvReflection 2. Version; NonSemantic.Shader.DebugInfo.100 (import name); "
     "Arm.ExperimentalMLOperations",
     "An OpExtInstImport of a versioned set (NonSemantic.ClspvReflection.<ver>, "
     "NonSemantic.Shader.DebugInfo.<ver>, Arm.ExperimentalMLOperations.<ver>) ends in a decimal "
     "version the set defines (1 to 7, 100 and later, 1)."},
    {"ext-inst.non-semantic-extension", kE, "ext-inst",
     "SPV_KHR_non_semantic_info; SPIR-V 1.6 (2.4 Logical Layout)",
     "Before SPIR-V 1.6 a NonSemantic.* extended instruction set is imported only with "
     "OpExtension \"SPV_KHR_non_semantic_info\"."},
    {"ext-inst.set-version", kE, "ext-inst",
     "NonSemantic.ClspvReflection (\"Missing before version N\"); "
     "NonSemantic.Shader.DebugInfo 101",
     "An extended instruction exists in the version of its set the OpExtInstImport names."},
    {"clspv.operand", kE, "ext-inst", "NonSemantic.ClspvReflection 3. Binary Form, each instruction",
     "NonSemantic.ClspvReflection instructions return OpTypeVoid; their numeric operands are "
     "32-bit unsigned integer OpConstants, names, data and format strings OpStrings, Kernel and "
     "ArgInfo a Kernel / ArgumentInfo instruction of the same import; Kernel's Kernel is an "
     "OpFunction that only GLCompute entry points name, one of them Name; NumArguments, Flags "
     "and Attributes come from version 5 on."},

    // vector_matrix.cc
    {"matrix.operand", kE, "arithmetic",
     "SPIR-V 3.42.13 Arithmetic Instructions (OpVectorTimesScalar, OpMatrixTimesScalar, "
     "OpVectorTimesMatrix, OpMatrixTimesVector, OpMatrixTimesMatrix, OpOuterProduct, OpDot)",
     "Vector and matrix arithmetic: float vectors and matrices whose operand types, component "
     "types and column / component counts fit the Result Type as each instruction states."},
    {"bitcast.operand", kE, "arithmetic", "SPIR-V 3.42.11 Conversion Instructions (OpBitcast)",
     "OpBitcast converts between pointers or numerical scalars and vectors of the same total "
     "width; a pointer only to or from a pointer or an integer scalar (or vector from 1.5); "
     "under Logical addressing no logical pointer as result or operand."},
    {"bitcast.extract", kE, "arithmetic", "SPV_EXT_ocp_microscaling_types OpBitcastExtractEXT",
     "OpBitcastExtractEXT: Result Type and Base are numerical scalars or vectors of the same "
     "component count, Base's components wider than the Result Type's; Offset is an integer "
     "scalar."},

    // microscaling.cc
    {"microscaling.use", kE, "microscaling",
     "SPV_EXT_ocp_microscaling_types 2.16.11 Universal Validation Rules",
     "Values whose type is or holds a float of an OCP microscaling encoding (Float4E2M1EXT, "
     "Float6E2M3EXT, Float6E3M2EXT, Float8UnsignedE8M0EXT, MXInt8EXT) are used only by "
     "constant-creation, memory, function, conversion, composite, annotation, debug, "
     "miscellaneous, extension and mode-setting instructions, OpSelect, OpPhi, OpReturnValue, "
     "OpLifetimeStart and OpLifetimeStop."},
    {"bfloat16.use", kE, "microscaling", "SPV_KHR_bfloat16 2.16.1 Universal Validation Rules",
     "Values whose type is or holds a BFloat16KHR float (cooperative matrices included) are used "
     "only by constant-creation, memory, function, conversion, composite, annotation, debug, "
     "miscellaneous, extension and mode-setting instructions, OpDot, "
     "OpCooperativeMatrixMulAddKHR, OpCooperativeMatrixLengthKHR, OpFDot2MixAcc32VALVE, "
     "OpFDot2MixAcc16VALVE (SPV_VALVE_mixed_float_dot_product), OpSelect, OpPhi, "
     "OpReturnValue, OpLifetimeStart and OpLifetimeStop: no other arithmetic (OpFAdd, OpFSub, "
     "OpFMul, OpFDiv, OpFNegate, OpMatrixTimesScalar, ...) and no comparison."},
    {"float8.use", kE, "microscaling", "SPV_EXT_float8 2.16.1 Universal Validation Rules",
     "Values whose type is or holds a Float8E4M3EXT or Float8E5M2EXT float (cooperative matrices "
     "included) are used only by constant-creation, memory, function, conversion, composite, "
     "annotation, debug, miscellaneous, extension and mode-setting instructions, "
     "OpCooperativeMatrixMulAddKHR, OpFDot4MixAcc32VALVE (SPV_VALVE_mixed_float_dot_product), "
     "OpSelect, OpPhi, OpReturnValue, OpLifetimeStart and OpLifetimeStop."},

    {"small-type.use", kE, "microscaling",
     "SPV_KHR_16bit_storage Validation Rules; SPV_KHR_8bit_storage 3.31 Capability",
     "In a Shader module that declares 8- or 16-bit types through a storage capability alone "
     "(StorageBuffer16BitAccess, UniformAndStorageBuffer16BitAccess, StoragePushConstant16, "
     "StorageInputOutput16, StorageBuffer8BitAccess, UniformAndStorageBuffer8BitAccess, "
     "StoragePushConstant8, without Int16, Float16 or Int8 for that type), values whose type is "
     "or holds such a type are used only by OpStore, OpCopyObject, width-only conversions "
     "(OpFConvert, OpSConvert, OpUConvert), annotations, debug and non-semantic instructions."},

    // dot_product.cc
    {"dot.integer.operand", kE, "dot-product",
     "SPV_KHR_integer_dot_product; SPIR-V 3.42.13 OpSDot, OpUDot, OpSUDot, OpSDotAccSat, "
     "OpUDotAccSat, OpSUDotAccSat",
     "An integer dot product has an integer scalar Result Type (Signedness 0 for OpUDot*) at "
     "least as wide as the inputs' components, an Accumulator of the Result Type, and either two "
     "32-bit integers with a Packed Vector Format or two integer vectors of one component count "
     "and width (Signedness 0 for both of OpUDot*, for Vector 2 of OpSUDot*)."},
    {"dot.integer.capability", kE, "dot-product", "SPV_KHR_integer_dot_product 3.31 Capability",
     "Packed 32-bit integer inputs need DotProductInput4x8BitPacked; integer vector inputs "
     "DotProductInputAll, or DotProductInput4x8Bit for vectors of four 8-bit integers."},
    {"dot.mixed-float.operand", kE, "dot-product",
     "SPV_VALVE_mixed_float_dot_product (OpFDot2MixAcc32VALVE, OpFDot2MixAcc16VALVE, "
     "OpFDot4MixAcc32VALVE)",
     "Vector 1 and Vector 2 are vectors of two 16-bit floats of one type, IEEE 754 or bfloat16 "
     "(OpFDot2MixAcc*), or of four Float8E4M3EXT / Float8E5M2EXT floats (OpFDot4MixAcc32VALVE); "
     "the Result Type is a 32-bit IEEE 754 float scalar (Acc32) or the vectors' component type "
     "(OpFDot2MixAcc16VALVE); the Accumulator has the Result Type."},
    {"dot.mixed-float.capability", kE, "dot-product",
     "SPV_VALVE_mixed_float_dot_product 3.2.30 Capability",
     "IEEE 754 16-bit inputs need DotProductFloat16AccFloat32VALVE (OpFDot2MixAcc32VALVE) or "
     "DotProductFloat16AccFloat16VALVE (OpFDot2MixAcc16VALVE); bfloat16 inputs "
     "DotProductBFloat16AccVALVE."},

    // composites.cc
    {"composite.index", kE, "composites", "SPIR-V 3.42.12 Composite Instructions",
     "OpCompositeExtract / OpCompositeInsert have at least one index, each selecting an existing "
     "member, element or component; OpVectorShuffle's Components select a component of either "
     "vector, or are 0xFFFFFFFF."},
    {"composite.type", kE, "composites", "SPIR-V 3.42.12 Composite Instructions",
     "OpCompositeExtract's Result Type is the type its indexes select; OpCompositeInsert's is "
     "Composite's type and Object has the selected type; OpVectorShuffle's is a vector with one "
     "component per Component literal, of both vectors' component type."},

    // control_flow.cc
    {"cfg.condition", kE, "control-flow", "SPIR-V OpBranchConditional, OpSwitch",
     "OpBranchConditional's Condition is a Boolean scalar; OpSwitch's Selector an integer "
     "scalar."},
    {"cfg.loop-merge", kE, "control-flow", "SPIR-V 2.11 Structured Control Flow, OpLoopMerge",
     "OpLoopMerge's Merge Block and Continue Target are different blocks."},
    {"cfg.structure", kE, "control-flow", "SPIR-V 2.11 Structured Control Flow",
     "A block is the merge block of at most one header; a back edge goes to a loop header; a "
     "loop header whose continue target is reachable has exactly one back edge; a header "
     "dominates its reachable merge block and continue target; a loop is entered only through "
     "its header."},

    // decorations.cc
    {"decoration.target", kE, "decorations",
     "SPIR-V 3.20 Decoration; VUID-WorkgroupSize-WorkgroupSize-04426 (BuiltIn WorkgroupSize)",
     "A decoration applies to what 3.20 names: Block, BufferBlock, GLSLShared, GLSLPacked and "
     "CPacked to structs; ArrayStride to arrays and pointers; DescriptorSet and Binding to "
     "variables; SpecId to scalar spec constants; NonWritable, NonReadable, Aliased, Restrict, "
     "AliasedPointer and RestrictPointer to variables and function parameters; BuiltIn to "
     "variables and struct members (WorkgroupSize, in a module with the Shader capability, to "
     "constants and spec constants instead); RelaxedPrecision to anything but a type; Uniform "
     "and UniformId to objects of non-void type; NoSignedWrap and NoUnsignedWrap to OpIAdd, "
     "OpISub, OpIMul, OpShiftLeftLogical, OpSNegate and OpExtInst."},
    {"decoration.instruction", kE, "decorations", "SPIR-V OpDecorate, OpDecorateId",
     "A decoration with id operands (UniformId, AlignmentId, CounterBuffer, ...) is applied with "
     "OpDecorateId; every other one with OpDecorate."},
    {"decoration.conflict", kE, "decorations",
     "SPIR-V 3.20 Decoration (Aliased, Restrict, AliasedPointer, RestrictPointer); "
     "SPV_KHR_float_controls2 (2.16.1)",
     "No target is decorated with both Aliased and Restrict, both AliasedPointer and "
     "RestrictPointer, or both NoContraction and FPFastMathMode."},
    {"decoration.fp-fast-math-mode", kE, "decorations", "SPV_KHR_float_controls2 (2.16.1)",
     "An FPFastMathMode with AllowTransform also has AllowContract and AllowReassoc."},
    {"decoration.fp-rounding-mode", kE, "decorations",
     "SPIR-V 3.20 FPRoundingMode; SPV_KHR_16bit_storage",
     "In a shader, FPRoundingMode decorates an OpFConvert whose result is used only as the "
     "Object of OpStore through a pointer to 16-bit floats in StorageBuffer, "
     "PhysicalStorageBuffer, Uniform, PushConstant, Input or Output storage."},
    {"decoration.linkage-entry-point", kE, "decorations", "SPIR-V 3.20 LinkageAttributes; 2.16.1",
     "The function of an entry point has no LinkageAttributes (it is neither imported nor "
     "exported)."},
    {"decoration.access-qualifier", kE, "decorations",
     "SPIR-V 3.20 Decoration (NonWritable, NonReadable)",
     "NonWritable and NonReadable mark a variable or function parameter pointing into Uniform, "
     "StorageBuffer, PhysicalStorageBuffer or UniformConstant storage (buffers, images, "
     "tensors); from SPIR-V 1.4 NonWritable also a Function or Private variable."},
    {"decoration.member", kE, "decorations", "SPIR-V OpMemberDecorate, OpMemberName",
     "OpMemberDecorate, OpMemberDecorateString and OpMemberName name a struct type and one of "
     "its members."},
    {"decoration.duplicate", kE, "decorations", "SPIR-V 2.16.1 Universal Validation Rules; 3.20",
     "OpDecorate / OpMemberDecorate apply a decoration to a target (or struct member) at most "
     "once."},

    // block_layout.cc
    {"block-layout.bool", kE, "block-layout",
     "SPIR-V 2.16.2 Validation Rules for Shader Capabilities (OpTypeBool storage)",
     "A variable of Uniform, StorageBuffer or PushConstant storage holds no Boolean: Booleans are "
     "stored only in storage classes that are not externally visible."},
    {"block-layout.explicit", kE, "block-layout",
     "SPIR-V 2.16.2 Validation Rules for Shader Capabilities (explicit layout)",
     "Block / BufferBlock structures of the Uniform, StorageBuffer, PushConstant, "
     "PhysicalStorageBuffer and Workgroup storage classes, and (Vulkan) the data types untyped "
     "pointers (SPV_KHR_untyped_pointers) reach in those storage classes, are explicitly laid "
     "out: every member has an Offset, every array an ArrayStride, every matrix member a "
     "MatrixStride (and, Vulkan, RowMajor or ColMajor); a shader's untyped Workgroup variable "
     "holds a Block structure."},
    {"block-layout.nested-block", kE, "block-layout",
     "SPIR-V 2.16.2 Validation Rules for Shader Capabilities; Vulkan 15.6.4 Offset and Stride "
     "Assignment",
     "A Block / BufferBlock structure a variable holds contains no other Block / BufferBlock "
     "structure (as a member or an array element, at any depth)."},
    {"block-layout.offset", kE, "block-layout",
     "Vulkan, Shader Interfaces: Offset and Stride Assignment",
     "A member's Offset is a multiple of its alignment (extended for Uniform Block, base "
     "elsewhere, scalar with --scalar-block-layout); with relaxed block layout (vulkan1.1 on) a "
     "vector is aligned to its component and does not straddle a 16-byte boundary."},
    {"block-layout.overlap", kE, "block-layout",
     "SPIR-V 2.16.2 (specifying overlap is invalid); Vulkan, Offset and Stride Assignment",
     "A member does not overlap the previous one, nor (except with scalar layout) the padding "
     "after a previous structure or array up to its alignment."},
    {"block-layout.array-stride", kE, "block-layout",
     "Vulkan, Shader Interfaces: Offset and Stride Assignment; SPIR-V 2.16.2",
     "An ArrayStride is a multiple of the array's alignment and at least its element's size."},
    {"block-layout.matrix-stride", kE, "block-layout",
     "Vulkan, Shader Interfaces: Offset and Stride Assignment",
     "A MatrixStride is a multiple of the matrix's alignment."},

    // group.cc
    {"group.operand", kE, "group", "SPIR-V 3.42.24 Non-Uniform Instructions (each instruction)",
     "The Result Type and operands of OpGroupNonUniform* have the types the instruction states: "
     "Boolean results and predicates, four-component unsigned 32-bit ballots, unsigned integer "
     "Id / Delta / Mask / Index / Direction, Values of the Result Type (integer, unsigned integer "
     "for UMin / UMax, floating-point or Boolean per operation); a constant Direction of "
     "OpGroupNonUniformQuadSwap, and before SPIR-V 1.5 a constant Id / Index of "
     "OpGroupNonUniformBroadcast / QuadBroadcast."},
    {"group.scope", kE, "group", "SPIR-V 3.42.24 Non-Uniform Instructions (Execution)",
     "The Execution Scope of a non-uniform group instruction is Subgroup, that of "
     "OpGroupNonUniformRotateKHR Workgroup or Subgroup (SPV_KHR_subgroup_rotate) (in Vulkan "
     "environments: vulkan.non-uniform-scope)."},
    {"group.operation", kE, "group", "SPIR-V 3.42.24 Non-Uniform Instructions (Operation)",
     "The Group Operation is Reduce, InclusiveScan or ExclusiveScan, or ClusteredReduce (and the "
     "Partitioned ones) for the arithmetic, bitwise and logical reductions."},
    {"group.cluster-size", kE, "group", "SPIR-V 3.42.24 Non-Uniform Instructions (ClusterSize)",
     "ClusterSize is present with ClusteredReduce, a constant instruction of unsigned integer "
     "scalar type."},
    {"group.cluster-size-value", kW, "group",
     "SPIR-V 3.42.24 Non-Uniform Instructions (ClusterSize)",
     "A known ClusterSize is at least 1 and a power of 2 (otherwise behavior is undefined)."},
    {"group.partition-ballot", kE, "group",
     "SPV_NV_shader_subgroup_partitioned, SPV_EXT_shader_subgroup_partitioned (ballot)",
     "With a Partitioned Group Operation, an arithmetic, bitwise or logical reduction has its "
     "Ballot operand, a vector of four 32-bit integers."},

    // memory.cc
    {"memory.load", kE, "memory", "SPIR-V OpLoad",
     "Pointer is a pointer value and Result Type is the type it points to."},
    {"memory.store", kE, "memory", "SPIR-V OpStore; 3.7 Storage Class",
     "Pointer is a pointer value not into UniformConstant, Input or PushConstant storage, and "
     "Object has the type it points to."},
    {"memory.copy", kE, "memory", "SPIR-V OpCopyObject, OpCopyMemory",
     "OpCopyObject's Result Type is its operand's type; OpCopyMemory's Target and Source are "
     "pointers to the same type, Target not into read-only storage."},
    {"memory.access-chain", kE, "memory",
     "SPIR-V OpAccessChain, OpInBoundsAccessChain, OpPtrAccessChain",
     "Base is a pointer; Result Type is a pointer of Base's storage class to the type the "
     "indexes select; indexes are scalar integers, OpConstant and in range where they select a "
     "struct member, and never index past a non-composite type."},
    {"memory.variable", kE, "memory",
     "SPIR-V OpVariable; 2.16.1 Universal Validation Rules (Logical addressing)",
     "An Initializer has the pointee type; under Logical (or PhysicalStorageBuffer64) addressing "
     "a variable holds a pointer, itself or in an array or structure, only into StorageBuffer "
     "(VariablePointersStorageBuffer), Workgroup (VariablePointers) or PhysicalStorageBuffer "
     "storage."},
    {"vulkan.store-opaque", kE, "memory", "VUID-StandaloneSpirv-OpTypeImage-06924",
     "In Vulkan, no OpStore stores an image, sampler, sampled image or acceleration structure "
     "object, or an array of them."},
    {"vulkan.store-uniform-block", kE, "memory", "VUID-StandaloneSpirv-Uniform-06925",
     "In Vulkan, no OpStore writes into a Uniform variable whose struct type (or array "
     "element's) is decorated Block."},
    {"vulkan.buffer-variable-type", kE, "memory", "VUID-StandaloneSpirv-Uniform-06807",
     "In Vulkan, a Uniform or StorageBuffer variable is a struct or an array of structs."},
    {"memory.operands", kE, "memory", "SPIR-V 3.26 Memory Operands; OpCopyMemory",
     "OpLoad has no MakePointerAvailable, OpStore no MakePointerVisible; either one comes with "
     "NonPrivatePointer; Aligned is a power of two. OpCopyMemory(Sized) has two Memory Operands "
     "only from SPIR-V 1.4: the first (Target's) without MakePointerVisible, the second "
     "(Source's) without MakePointerAvailable."},

    // atomics.cc
    {"atomic.type", kE, "atomics", "SPIR-V 3.42.18 Atomic Instructions",
     "Pointer is a pointer to the atomic type: the Result Type (a scalar integer, or for "
     "OpAtomicLoad / OpAtomicExchange a scalar integer or float), or for OpAtomicStore a scalar "
     "integer or float; Value and Comparator have that type."},
    {"atomic.storage-class", kE, "atomics",
     "SPIR-V 3.42.18 Atomic Instructions; 2.16.2 (Function storage with the Shader capability)",
     "An atomic's Pointer is in Uniform, Workgroup, CrossWorkgroup, Generic, AtomicCounter, "
     "Image, StorageBuffer, PhysicalStorageBuffer or TaskPayloadWorkgroupEXT storage, or "
     "Function storage outside shaders."},

    // vulkan.cc
    {"vulkan.coop-matrix-scope", kE, "vulkan", "VUID-StandaloneSpirv-Scope-12243",
     "In a Vulkan environment, the Scope of a cooperative matrix type is Subgroup or Workgroup."},
    {"vulkan.builtin-type", kE, "vulkan",
     "VUID-<BuiltIn>-<BuiltIn>-* of the built-ins a compute module declares (Vulkan 15.9 "
     "Built-In Variables), e.g. VUID-GlobalInvocationId-GlobalInvocationId-04238, "
     "VUID-SubgroupEqMask-SubgroupEqMask-04371, VUID-SMIDNV-SMIDNV-04366",
     "In a Vulkan environment, NumWorkgroups, WorkgroupSize, WorkgroupId, LocalInvocationId and "
     "GlobalInvocationId are vectors of three 32-bit integers; SubgroupEqMask, SubgroupGeMask, "
     "SubgroupGtMask, SubgroupLeMask and SubgroupLtMask vectors of four; LocalInvocationIndex, "
     "SubgroupSize, NumSubgroups, SubgroupId, SubgroupLocalInvocationId, DeviceIndex, the SM "
     "built-ins (SMCountNV, SMIDNV, WarpsPerSMNV, WarpIDNV) and the ARM core built-ins "
     "(CoreIDARM, CoreCountARM, CoreMaxIDARM, WarpIDARM, WarpMaxIDARM) 32-bit integer scalars "
     "(as variables, constants or structure members)."},
    {"vulkan.builtin-storage-class", kE, "vulkan",
     "VUID-<BuiltIn>-<BuiltIn>-* (\"must be declared using the Input Storage Class\"), e.g. "
     "VUID-LocalInvocationId-LocalInvocationId-04282, VUID-DeviceIndex-DeviceIndex-04205",
     "In a Vulkan environment, a variable decorated with one of the built-ins of "
     "vulkan.builtin-type other than WorkgroupSize, or any pointer to a structure (or array of "
     "structures) with such a member, is in the Input storage class."},
    {"vulkan.builtin-execution-model", kE, "vulkan",
     "VUID-<BuiltIn>-<BuiltIn>-* (\"used only within the GLCompute, MeshEXT, TaskEXT, MeshNV, or "
     "TaskNV Execution Model\", \"used only within the Fragment Execution Model\", ...), e.g. "
     "VUID-LocalInvocationId-LocalInvocationId-04281, VUID-WorkgroupSize-WorkgroupSize-04425, "
     "VUID-FragCoord-FragCoord-04210, VUID-Position-Position-04318, VUID-ViewIndex-ViewIndex-04401",
     "In a Vulkan environment, NumWorkgroups, WorkgroupSize, WorkgroupId, LocalInvocationId, "
     "GlobalInvocationId, LocalInvocationIndex, NumSubgroups and SubgroupId are used only in the "
     "call trees of GLCompute, MeshEXT, TaskEXT, MeshNV and TaskNV entry points; the built-ins of "
     "the graphics, mesh and ray-tracing stages (Position, PointSize, ClipDistance, CullDistance, "
     "FragCoord, FragDepth, FrontFacing, HelperInvocation, SampleId, SampleMask, SamplePosition, "
     "PointCoord, FragStencilRefEXT, BaryCoordKHR, BaryCoordNoPerspKHR, InvocationId, "
     "InstanceIndex, VertexIndex, BaseInstance, BaseVertex, DrawIndex, Layer, ViewportIndex, "
     "PatchVertices, TessCoord, TessLevelOuter, TessLevelInner, PrimitiveId, ViewIndex and the "
     "ray-tracing built-ins) only in those of the models Vulkan 15.9 lists for each."},
    {"vulkan.builtin-member", kE, "vulkan",
     "Vulkan 15.9 Built-In Variables (\"the variable decorated with\" SubgroupId, NumSubgroups, "
     "SubgroupSize, SubgroupLocalInvocationId, Subgroup*Mask)",
     "In a Vulkan environment, SubgroupId, NumSubgroups, SubgroupSize, SubgroupLocalInvocationId "
     "and the subgroup masks decorate variables, not structure members."},
    {"vulkan.glsl-layout", kE, "vulkan", "VUID-StandaloneSpirv-GLSLShared-04669",
     "In a Vulkan environment, GLSLShared and GLSLPacked are not used."},
    {"vulkan.fp-rounding-mode", kE, "vulkan", "VUID-StandaloneSpirv-FPRoundingMode-04675",
     "In a Vulkan environment, FPRoundingMode is RTE or RTZ."},
    {"vulkan.block-decoration", kE, "vulkan",
     "VUID-StandaloneSpirv-PushConstant-06675, VUID-StandaloneSpirv-Uniform-06676",
     "In a Vulkan environment, the structure a StorageBuffer or PushConstant variable holds "
     "(through arrays; an untyped variable's Data Type) is decorated Block, the one a Uniform "
     "variable holds Block or BufferBlock."},
    {"vulkan.storage-class-model", kE, "vulkan",
     "VUID-StandaloneSpirv-None-04644, VUID-StandaloneSpirv-None-04645, "
     "VUID-StandaloneSpirv-RayPayloadKHR-04698, VUID-StandaloneSpirv-IncomingRayPayloadKHR-04699, "
     "VUID-StandaloneSpirv-HitAttributeKHR-04701, VUID-StandaloneSpirv-CallableDataKHR-04704, "
     "VUID-StandaloneSpirv-IncomingCallableDataKHR-04705, "
     "VUID-StandaloneSpirv-ShaderRecordBufferKHR-07119",
     "In a Vulkan environment, a module-scope variable is used only in the call trees of entry "
     "points whose model its storage class allows: Output not in GLCompute or the ray-tracing "
     "models, Workgroup in GLCompute, TaskEXT, MeshEXT, TaskNV and MeshNV, and the ray-tracing "
     "storage classes (RayPayloadKHR, IncomingRayPayloadKHR, HitAttributeKHR, CallableDataKHR, "
     "IncomingCallableDataKHR, ShaderRecordBufferKHR) in the ray-tracing models their VUIDs "
     "list."},
    {"vulkan.resource-storage-class", kE, "vulkan", "VUID-StandaloneSpirv-DescriptorSet-06491",
     "In a Vulkan environment, a variable decorated with DescriptorSet or Binding is of "
     "StorageBuffer, Uniform or UniformConstant storage class."},
    {"vulkan.coop-matrix-pointer", kE, "vulkan", "VUID-StandaloneSpirv-Pointer-08973",
     "In a Vulkan environment, OpCooperativeMatrixLoadTensorNV / StoreTensorNV access memory "
     "through a Workgroup, StorageBuffer or PhysicalStorageBuffer pointer."},
    {"vulkan.bitwise-32bit", kE, "vulkan", "VUID-RuntimeSpirv-None-10824",
     "In a Vulkan environment, the Base of OpBitFieldInsert, OpBitFieldSExtract, OpBitFieldUExtract, "
     "OpBitReverse and OpBitCount has 32-bit integer components, unless the device has "
     "maintenance9 (--allow-vulkan-32-bit-bitwise)."},
    {"vulkan.coop-vector-float8-layout", kE, "vulkan",
     "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10090",
     "In a Vulkan environment, OpCooperativeVectorMatrixMulNV / MatrixMulAddNV with a FloatE4M3NV "
     "or FloatE5M2NV MatrixInterpretation read an InferencingOptimalNV or TrainingOptimalNV "
     "matrix (checked where the layout and interpretation are constants)."},
    {"vulkan.execution-scope", kE, "vulkan", "VUID-StandaloneSpirv-None-04636",
     "In a Vulkan environment, an execution Scope (OpControlBarrier's) is Workgroup or "
     "Subgroup."},
    {"vulkan.non-uniform-scope", kE, "vulkan", "VUID-StandaloneSpirv-None-04642",
     "In a Vulkan environment, the execution Scope of a non-uniform group operation "
     "(OpGroupNonUniform*, OpGroupNonUniformRotateKHR) is Subgroup."},
    {"vulkan.memory-scope", kE, "vulkan",
     "VUID-StandaloneSpirv-None-04638, VUID-StandaloneSpirv-SubgroupVoteKHR-07951",
     "In a Vulkan environment, a memory Scope (barriers, atomics) is not CrossDevice; in Vulkan "
     "1.0 not Subgroup without the SubgroupBallotKHR or SubgroupVoteKHR capability."},
    {"vulkan.physical-storage-buffer-aligned", kE, "vulkan",
     "VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708, -06314",
     "OpLoad, OpStore and the cooperative vector loads and stores through a "
     "PhysicalStorageBuffer pointer carry the Aligned memory operand; a load's or store's is at "
     "least the size of the largest scalar (or pointer) it moves."},
    {"vulkan.atomic-storage-class", kE, "vulkan", "VUID-StandaloneSpirv-None-04686",
     "Atomic instructions access Uniform, Workgroup, Image, StorageBuffer, "
     "PhysicalStorageBuffer or TaskPayloadWorkgroupEXT memory."},
    {"vulkan.atomic-width", kE, "vulkan",
     "SPIR-V 3.31 Capability (Int64Atomics); Vulkan: integer atomics are 32-bit, or 64-bit with "
     "the Int64Atomics capability (no VUID of its own)",
     "In a Vulkan environment, integer atomics operate on 32-bit integers, or 64-bit ones with "
     "Int64Atomics."},
    {"vulkan.encoded-float-interface", kE, "vulkan",
     "VUID-StandaloneSpirv-OpTypeFloat-10370, VUID-StandaloneSpirv-OpTypeFloat-10823",
     "In a Vulkan environment, no Input or Output variable is or holds a float with a Floating "
     "Point Encoding (bfloat16, float8, OCP microscaling types)."},
    {"vulkan.microscaling-convert", kE, "vulkan",
     "VUID-StandaloneSpirv-OpConvertFToU-12465, VUID-StandaloneSpirv-OpFConvert-12466, "
     "VUID-StandaloneSpirv-OpFConvert-12467",
     "In a Vulkan environment, OpConvertFToU, OpConvertFToS, OpConvertSToF and OpConvertUToF "
     "neither take nor produce OCP microscaling types, and OpFConvert (also as an "
     "OpSpecConstantOp) produces none: it converts them only to IEEE 754, Float8E4M3EXT, "
     "Float8E5M2EXT or BFloat16KHR floats."},
    {"vulkan.bitcast-extract", kE, "vulkan",
     "VUID-StandaloneSpirv-Result-12468, VUID-StandaloneSpirv-Base-12469",
     "In a Vulkan environment, OpBitcastExtractEXT extracts Float4E2M1EXT, Float6E2M3EXT or "
     "Float6E3M2EXT scalars or vectors from an integer scalar or vector Base."},

    // modes.cc
    {"execution-mode.instruction", kE, "modes", "SPIR-V OpExecutionMode, OpExecutionModeId",
     "A mode whose operands are ids (LocalSizeId, FPFastMathDefault, ...) is declared with "
     "OpExecutionModeId; every other mode with OpExecutionMode."},
    {"execution-mode.once", kE, "modes",
     "SPIR-V 2.16.1 Universal Validation Rules (execution modes)",
     "An entry point declares each execution mode once; the float-controls modes "
     "(DenormPreserve, DenormFlushToZero, SignedZeroInfNanPreserve, RoundingModeRTE, "
     "RoundingModeRTZ, FPFastMathDefault, the INTEL rounding and floating-point modes) once per "
     "Target Width or Target Type."},
    {"execution-mode.model", kE, "modes",
     "SPIR-V 3.6 Execution Mode (\"Only valid with the ... Execution Model\"); "
     "SPV_KHR_compute_shader_derivatives; SPV_QCOM_tile_shading",
     "An execution mode is declared only for entry points of the models it is valid with: the "
     "geometry, tessellation, mesh, fragment and kernel modes with those models, LocalSize / "
     "LocalSizeId and the derivative-group modes with models that have workgroups, "
     "QuadDerivativesKHR with Fragment and GLCompute, TileShadingRateQCOM with GLCompute."},
    {"execution-mode.stage-modes", kE, "modes",
     "SPIR-V 3.6 Execution Mode (the modes of a shader stage)",
     "With the Shader capability: a Geometry entry point declares exactly one input primitive "
     "mode (InputPoints, InputLines, InputLinesAdjacency, Triangles, InputTrianglesAdjacency) "
     "and one output one (OutputPoints, OutputLineStrip, OutputTriangleStrip); a MeshEXT entry "
     "point exactly one of OutputPoints, OutputLinesEXT, OutputTrianglesEXT, and "
     "OutputPrimitivesEXT and OutputVertices; a Fragment entry point exactly one of "
     "OriginUpperLeft, OriginLowerLeft, and at most one depth mode (DepthGreater, DepthLess, "
     "DepthUnchanged), one interlock mode, one front and one back AMD stencil mode; a "
     "tessellation entry point at most one spacing, one vertex order and one of Triangles, "
     "Quads, Isolines."},
    {"execution-mode.vulkan-fragment", kE, "modes",
     "VUID-StandaloneSpirv-OriginLowerLeft-04653, VUID-StandaloneSpirv-PixelCenterInteger-04654",
     "In a Vulkan environment, OriginLowerLeft and PixelCenterInteger are not used."},
    {"execution-mode.workgroup-size", kE, "modes",
     "SPIR-V 3.6 Execution Mode (LocalSize, LocalSizeId); "
     "VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151, "
     "VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152",
     "A workgroup size known without specialization (WorkgroupSize built-in, else LocalSizeId or "
     "LocalSize) has at least one invocation; with DerivativeGroupQuadsKHR its X and Y are "
     "multiples of 2, with DerivativeGroupLinearKHR its invocation count is a multiple of 4."},
    {"execution-mode.vulkan-workgroup-size", kE, "modes",
     "VUID-StandaloneSpirv-None-10685, VUID-StandaloneSpirv-TileShadingRateQCOM-10692, "
     "VUID-RuntimeSpirv-LocalSizeId-06434",
     "In a Vulkan environment, a GLCompute, TaskEXT, MeshEXT, TaskNV or MeshNV entry point "
     "declares LocalSize, LocalSizeId or TileShadingRateQCOM, or the module a WorkgroupSize "
     "built-in; TileShadingRateQCOM goes without LocalSize and LocalSizeId; LocalSizeId needs "
     "maintenance4 (Vulkan 1.3, or a device profile that has it)."},
    {"execution-mode.fp-fast-math-default", kE, "modes",
     "SPV_KHR_float_controls2 (FPFastMathDefault; 2.16.1 Universal Validation Rules)",
     "FPFastMathDefault's Target Type is a floating-point scalar type and its Fast-Math Mode a "
     "32-bit integer OpConstant of FP Fast Math Mode bits without Fast, with AllowContract and "
     "AllowReassoc where AllowTransform is set; the entry point declares neither ContractionOff "
     "nor SignedZeroInfNanPreserve, and its call tree holds no instruction decorated "
     "NoContraction or FPFastMathMode with Fast."},
    {"execution-mode.tile-shading-rate", kE, "modes", "SPV_QCOM_tile_shading, Validation Rules",
     "TileShadingRateQCOM's x rate and y rate are powers of 2."},

    // coop_matrix.cc
    {"coop-matrix.capability", kE, "coop-matrix", "SPV_KHR_cooperative_matrix, 2.16.2",
     "If the CooperativeMatrixKHR capability is declared, the VulkanMemoryModel capability is "
     "declared as well."},
    {"coop-matrix.type.component", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix OpTypeCooperativeMatrixKHR; SPV_KHR_bfloat16; SPV_EXT_float8",
     "Component Type is a scalar numerical type; bfloat16 components need "
     "BFloat16CooperativeMatrixKHR, float8 components Float8CooperativeMatrixEXT."},
    {"coop-matrix.type.dimension", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix OpTypeCooperativeMatrixKHR; SPV_NV_cooperative_matrix",
     "Rows and Columns are constant instructions (spec constants allowed) of 32-bit integer "
     "type."},
    {"coop-matrix.type.empty", kW, "coop-matrix",
     "SPV_KHR_cooperative_matrix OpTypeCooperativeMatrixKHR (no clause bounds Rows / Columns)",
     "Rows or Columns is 0 (or, for a spec constant, its default is): the matrix holds "
     "nothing, and no client API supports that size."},
    {"coop-matrix.type.use", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix OpTypeCooperativeMatrixKHR",
     "Use is a constant instruction of 32-bit integer type whose value is a Cooperative Matrix "
     "Use (checked where the value is known before specialization)."},
    {"coop-matrix.storage", kE, "coop-matrix", "SPV_KHR_cooperative_matrix 2.16.1",
     "Cooperative matrix types, and types containing them, are allocated only in Function or "
     "Private storage."},
    {"coop-matrix.memory.matrix", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix OpCooperativeMatrixLoadKHR / StoreKHR",
     "A load's Result Type, and a store's Object type, is a cooperative matrix type of the "
     "instruction's kind (KHR or NV)."},
    {"coop-matrix.memory.pointer", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix OpCooperativeMatrixLoadKHR / StoreKHR",
     "Pointer is a pointer to a scalar or vector type; with Shader declared it points into an "
     "array."},
    {"coop-matrix.memory.storage-class", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix; Vulkan cooperativeMatrix",
     "Pointer is in Workgroup, StorageBuffer or PhysicalStorageBuffer storage (kernels also "
     "CrossWorkgroup and Generic)."},
    {"coop-matrix.memory.layout", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix Cooperative Matrix Layout; SPV_ARM_cooperative_matrix_layouts",
     "MemoryLayout comes from a 32-bit integer constant instruction whose value is a Cooperative "
     "Matrix Layout (checked where the value is known before specialization); the ARM blocked "
     "layouts need CooperativeMatrixLayoutsARM."},
    {"coop-matrix.memory.arm-blocked", kE, "coop-matrix",
     "SPV_ARM_cooperative_matrix_layouts, 2.16.1 Universal Validation Rules",
     "With RowBlockedInterleavedARM or ColumnBlockedInterleavedARM, Stride is present, a "
     "constant instruction, and 1, 2 or 4; RowBlocked: Rows a multiple of 4 and Columns of "
     "16 / sizeof(Component Type) * Stride; ColumnBlocked: Rows a multiple of 4 * Stride and "
     "Columns of 16 / sizeof(Component Type)."},
    {"coop-matrix.memory.stride", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix Cooperative Matrix Layout (RowMajorKHR, ColumnMajorKHR)",
     "RowMajorKHR and ColumnMajorKHR need a Stride; Stride is a scalar integer; a Memory "
     "Operand only after a Stride."},
    {"coop-matrix.memory.stride-value", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix Cooperative Matrix Layout (RowMajorKHR, ColumnMajorKHR): \"Stride "
     "must be greater than 0 when passed to OpCooperativeMatrixStoreKHR and must be greater than "
     "or equal to 0 when passed to OpCooperativeMatrixLoadKHR\"",
     "With RowMajorKHR or ColumnMajorKHR, a Stride whose value no specialization changes "
     "(OpConstant, OpConstantNull, an OpSpecConstantOp of those) is greater than 0 for a store and "
     "at least 0 for a load; a Signedness-1 Stride is signed, a Signedness-0 one unsigned."},
    {"coop-matrix.memory.operands", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix 3.26 Memory Operands",
     "MakePointerAvailable is not used on a load, MakePointerVisible not on a store; either "
     "needs NonPrivatePointer; Aligned is a power of two."},
    {"coop-matrix.nv.column-major", kE, "coop-matrix",
     "SPV_NV_cooperative_matrix OpCooperativeMatrixLoadNV / StoreNV",
     "Column Major is a Boolean constant instruction."},
    {"coop-matrix.muladd.operand", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix OpCooperativeMatrixMulAddKHR",
     "Result Type, A, B and C are cooperative matrices of the instruction's kind."},
    {"coop-matrix.muladd.use", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix OpCooperativeMatrixMulAddKHR",
     "Result Type and C have Use MatrixAccumulatorKHR, A MatrixAKHR and B MatrixBKHR."},
    {"coop-matrix.muladd.dims", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix OpCooperativeMatrixMulAddKHR",
     "An MxNxK multiply: Result and C are MxN, A is MxK, B is KxN; values known before "
     "specialization are compared (a spec constant may be specialized to any value)."},
    {"coop-matrix.muladd.scope", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix OpCooperativeMatrixMulAddKHR",
     "A, B, C and Result Type have the same scope."},
    {"coop-matrix.muladd.operands", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix 2.16.1, Cooperative Matrix Operands",
     "Matrix{A,B,C,Result}SignedComponentsKHR only where that matrix has integer components; "
     "SaturatingAccumulationKHR only with an integer Result Type."},
    {"coop-matrix.length", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix OpCooperativeMatrixLengthKHR",
     "Result Type is a 32-bit unsigned integer; Type is a cooperative matrix type of the "
     "instruction's kind."},
    {"coop-matrix.convert", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix 3.42.11 Conversion Instructions",
     "Conversions of cooperative matrices keep scope, rows, columns and Use (with "
     "CooperativeMatrixConversionsNV an accumulator may become an A or B matrix), convert between "
     "the component kinds the opcode names, and bitcast only between integer components of the "
     "same width."},
    {"coop-matrix.arith", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix 3.42.13 Arithmetic Instructions; SPV_NV_cooperative_matrix "
     "3.32.13",
     "Arithmetic on cooperative matrices takes operands of exactly the Result Type, F opcodes on "
     "float and I/S/U opcodes on integer components; OpMatrixTimesScalar's Scalar has the "
     "component type; OpIMul / OpFMul take KHR matrices only, not NV ones."},
    {"coop-matrix.composite", kE, "coop-matrix",
     "SPV_KHR_cooperative_matrix 3.42.7, 3.42.12 Composite Instructions",
     "A cooperative matrix is constructed from exactly one constituent of its component type, "
     "and indexed with exactly one index."},

    // coop_matrix_qcom.cc
    {"coop-matrix-qcom.bitcast-array", kE, "coop-matrix-qcom",
     "SPV_QCOM_cooperative_matrix_conversion OpBitCastArrayQCOM",
     "Result Type and Source Array are one-dimensional arrays whose element type is a 32-bit "
     "integer or a 16- or 32-bit float of the default IEEE 754 encoding, of the same size in "
     "bits (where both lengths are known before specialization)."},
    {"coop-matrix-qcom.construct", kE, "coop-matrix-qcom",
     "SPV_QCOM_cooperative_matrix_conversion OpCompositeConstructCoopMatQCOM",
     "Result Type is a Subgroup-scope OpTypeCooperativeMatrixKHR; Source Array a one-dimensional "
     "array of its Component Type or of 32-bit unsigned integers; MatrixA and MatrixB have 8-bit "
     "integer or IEEE 16- / 32-bit float components and 256-bit rows (A: Columns 32, 16 or 8) or "
     "columns (B: Rows), the accumulator 32-bit integer or IEEE 16- / 32-bit float components; "
     "the array holds one row (A, accumulator) or column (B): that many elements, or as uint32 8 "
     "(A, B), Columns / 2 (16-bit float accumulator) or Columns (32-bit accumulator)."},
    {"coop-matrix-qcom.extract", kE, "coop-matrix-qcom",
     "SPV_QCOM_cooperative_matrix_conversion OpCompositeExtractCoopMatQCOM",
     "Source CoopMat is a Subgroup-scope OpTypeCooperativeMatrixKHR matrix and Result Type a "
     "one-dimensional array, with the component, dimension and length requirements of "
     "coop-matrix-qcom.construct."},
    {"coop-matrix-qcom.extract-sub-array", kE, "coop-matrix-qcom",
     "SPV_QCOM_cooperative_matrix_conversion OpExtractSubArrayQCOM",
     "Source Array is a one-dimensional array of 32-bit integers or IEEE 16- / 32-bit floats; "
     "Result Type a one-dimensional array of the same element type; Start Index a 32-bit "
     "integer."},
    {"coop-matrix-qcom.extract-sub-array-range", kW, "coop-matrix-qcom",
     "SPV_QCOM_cooperative_matrix_conversion OpExtractSubArrayQCOM (otherwise undefined)",
     "Start Index + the Result Type's Length is at most the Source Array's Length (where all are "
     "known before specialization)."},

    // coop_vector.cc
    {"coop-vector.capability", kE, "coop-vector", "SPV_NV_cooperative_vector, 2.16.2",
     "If the CooperativeVectorNV capability is declared, the VulkanMemoryModel capability is "
     "declared as well."},
    {"coop-vector.type", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpTypeCooperativeVectorNV; SPV_EXT_long_vector OpTypeVectorIdEXT",
     "Component Type is a scalar numerical type (any scalar type, Boolean included, with "
     "LongVectorEXT); Component Count a constant instruction of 32-bit integer type (spec "
     "constants allowed), at least 1 where known before specialization."},
    {"coop-vector.storage", kE, "coop-vector", "SPV_NV_cooperative_vector 2.16.1",
     "Cooperative vector types, and types containing them, are allocated only in Function or "
     "Private storage (not enforced where LongVectorEXT makes opcode 5288 a long vector)."},
    {"coop-vector.memory.vector", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorLoadNV / StoreNV",
     "A load's Result Type, and a store's Object type, is a cooperative vector type."},
    {"coop-vector.memory.pointer", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorLoadNV / StoreNV / MatrixMul(Add)NV",
     "Pointer operands point to arrays: of scalars or vectors for load, store and the training "
     "instructions, of scalars for Matrix and Bias."},
    {"coop-vector.memory.storage-class", kE, "coop-vector", "SPV_NV_cooperative_vector",
     "Load / store pointers are in CrossWorkgroup, Workgroup, StorageBuffer or "
     "PhysicalStorageBuffer storage; Matrix and Bias in CrossWorkgroup, StorageBuffer or "
     "PhysicalStorageBuffer."},
    {"coop-vector.memory.offset", kE, "coop-vector",
     "SPV_NV_cooperative_vector; SPV_EXT_shader_64bit_indexing",
     "Offset operands are 32-bit integers, or 64-bit ones with the Shader64BitIndexingEXT "
     "capability."},
    {"coop-vector.memory.operands", kE, "coop-vector",
     "SPV_NV_cooperative_vector 3.26 Memory Operands",
     "MakePointerAvailable is not used on a load, MakePointerVisible not on a store; either "
     "needs NonPrivatePointer."},
    {"coop-vector.matmul.result", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorMatrixMulAddNV",
     "Result Type is a cooperative vector of 32-bit integer or 16/32-bit float components with "
     "M components."},
    {"coop-vector.matmul.input", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorMatrixMulAddNV",
     "Input is a cooperative vector."},
    {"coop-vector.matmul.constant", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorMatrixMulAddNV",
     "M and K are constant instructions of 32-bit integer type."},
    {"coop-vector.matmul.interpretation", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorMatrixMulAddNV, Component Type",
     "InputInterpretation, MatrixInterpretation and BiasInterpretation are 32-bit integer "
     "constant instructions whose values are Component Type values."},
    {"coop-vector.matmul.layout", kE, "coop-vector",
     "SPV_NV_cooperative_vector Cooperative Vector Matrix Layout",
     "MemoryLayout comes from a 32-bit integer constant instruction whose value is a Cooperative "
     "Vector Matrix Layout."},
    {"coop-vector.matmul.transpose", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorMatrixMulAddNV",
     "Transpose is a Boolean constant instruction, not true with RowMajorNV or ColumnMajorNV."},
    {"coop-vector.matmul.k", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorMatrixMulAddNV",
     "A non-packed InputInterpretation needs K Input components; a packed one needs 32-bit "
     "unsigned Input components enough to hold K packed values."},
    {"coop-vector.matmul.offset", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorMatrixMulAddNV",
     "MatrixOffset and BiasOffset are 32-bit integers (or 64-bit with "
     "SPV_EXT_shader_64bit_indexing)."},
    {"coop-vector.matmul.stride", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorMatrixMulAddNV",
     "MatrixStride, where present, is a 32-bit integer."},
    {"coop-vector.matmul.operands", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorMatrixMulAddNV",
     "MatrixBSignedComponentsKHR only with an integer Input, MatrixResultSignedComponentsKHR only "
     "with an integer Result Type."},
    {"coop-vector.outer-product", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorOuterProductAccumulateNV",
     "A and B are cooperative vectors with the same component type; MemoryLayout a Cooperative "
     "Vector Matrix Layout constant; MatrixInterpretation and MatrixStride 32-bit integers."},
    {"coop-vector.reduce-sum", kE, "coop-vector",
     "SPV_NV_cooperative_vector OpCooperativeVectorReduceSumAccumulateNV",
     "V is a cooperative vector."},
    {"coop-vector.arith", kE, "coop-vector", "SPV_NV_cooperative_vector 3.42.13, 3.42.14",
     "Arithmetic and bit instructions on cooperative vectors take operands of exactly the Result "
     "Type (a shift amount: the same component count), F opcodes float and I/S/U/bit opcodes "
     "integer components; OpVectorTimesScalar a float vector and a scalar of its component type."},
    {"coop-vector.convert", kE, "coop-vector", "SPV_NV_cooperative_vector 3.42.11",
     "Conversions of cooperative vectors keep the component count; bitcasts also the bits per "
     "component."},
    {"coop-vector.ext-inst", kE, "coop-vector", "SPV_NV_cooperative_vector 3.42.13",
     "Only the GLSL.std.450 instructions the extension lists apply to cooperative vectors, with "
     "operands of the Result Type and components of the right kind."},
    {"coop-vector.composite", kE, "coop-vector", "SPV_NV_cooperative_vector 2.2.2 Composite",
     "No OpVectorShuffle on cooperative vectors; composite extract / insert use one index; a "
     "constructed vector gets one constituent of the component type per component."},

    // tensor_addressing.cc
    {"tensor.type.dim", kE, "tensor",
     "SPV_NV_tensor_addressing OpTypeTensorLayoutNV, OpTypeTensorViewNV",
     "Dim is a constant instruction of 32-bit integer type with a value from 1 to 5."},
    {"tensor.type.clamp-mode", kE, "tensor", "SPV_NV_tensor_addressing OpTypeTensorLayoutNV",
     "ClampMode is a constant instruction of 32-bit integer type whose value is a Tensor Clamp "
     "Mode (spec constants allowed)."},
    {"tensor.type.has-dimensions", kE, "tensor", "SPV_NV_tensor_addressing OpTypeTensorViewNV",
     "HasDimensions is a Boolean constant instruction."},
    {"tensor.type.permutation", kE, "tensor", "SPV_NV_tensor_addressing OpTypeTensorViewNV",
     "p0 ... p<Dim-1> are Dim constant instructions of 32-bit integer type forming a "
     "permutation of 0 .. Dim-1."},
    {"tensor.instruction.result", kE, "tensor",
     "SPV_NV_tensor_addressing Tensor Layout and View Instructions",
     "Layout instructions produce an OpTypeTensorLayoutNV, view instructions an "
     "OpTypeTensorViewNV."},
    {"tensor.instruction.operand-type", kE, "tensor",
     "SPV_NV_tensor_addressing Tensor Layout and View Instructions",
     "The TensorLayout / TensorView operand has exactly the Result Type."},
    {"tensor.instruction.operand-count", kE, "tensor",
     "SPV_NV_tensor_addressing Tensor Layout and View Instructions",
     "Set-dimension, set-stride and set-block-size take one operand per dimension of the Result "
     "Type, a slice two (offset and span)."},
    {"tensor.instruction.int32", kE, "tensor",
     "SPV_NV_tensor_addressing Tensor Layout and View Instructions",
     "The value operands of tensor layout and view instructions are scalar 32-bit integers."},
    {"tensor.memory.matrix", kE, "tensor",
     "SPV_NV_cooperative_matrix2 OpCooperativeMatrixLoadTensorNV / StoreTensorNV",
     "The loaded or stored object is an OpTypeCooperativeMatrixKHR; a load's Object has the "
     "Result Type."},
    {"tensor.memory.pointer", kE, "tensor",
     "SPV_NV_cooperative_matrix2 OpCooperativeMatrixLoadTensorNV / StoreTensorNV",
     "Pointer is a pointer."},
    {"tensor.memory.layout", kE, "tensor",
     "SPV_NV_cooperative_matrix2 OpCooperativeMatrixLoadTensorNV / StoreTensorNV",
     "TensorLayout has an OpTypeTensorLayoutNV type."},
    {"tensor.memory.operands", kE, "tensor", "SPV_NV_cooperative_matrix2 3.26 Memory Operands",
     "MakePointerAvailable is not used on a tensor load, MakePointerVisible not on a tensor "
     "store; either needs NonPrivatePointer."},
    {"tensor.memory.view", kE, "tensor",
     "SPV_NV_cooperative_matrix2 Tensor Addressing Operands (TensorView)",
     "The TensorView operand has an OpTypeTensorViewNV type with the layout's dimension count."},
    {"tensor.memory.store-decode", kE, "tensor",
     "SPV_NV_cooperative_matrix2 Tensor Addressing Operands (DecodeFunc)",
     "DecodeFunc (and so DecodeVectorFunc) is not used with OpCooperativeMatrixStoreTensorNV."},
    {"tensor.memory.block-size", kE, "tensor",
     "SPV_NV_cooperative_matrix2 Tensor Addressing Operands (DecodeFunc)",
     "A store does not use a tensor layout whose block size is known to be larger than 1."},
    {"tensor.memory.storage-class", kE, "tensor",
     "SPV_NV_cooperative_matrix2 OpCooperativeMatrixLoadTensorNV",
     "With DecodeFunc, Pointer is in StorageBuffer or PhysicalStorageBuffer storage."},
    {"tensor.decode.function", kE, "tensor",
     "SPV_NV_cooperative_matrix2 Tensor Addressing Operands (DecodeFunc)",
     "DecodeFunc and DecodeVectorFunc name OpFunctions."},
    {"tensor.decode.return", kE, "tensor",
     "SPV_NV_cooperative_matrix2 Tensor Addressing Operands (DecodeFunc)",
     "DecodeFunc returns the component type of the result matrix."},
    {"tensor.decode.params", kE, "tensor",
     "SPV_NV_cooperative_matrix2 DecodeFunc; SPV_NV_cooperative_matrix_decode_vector",
     "A decode function takes a PhysicalStorageBuffer pointer and two arrays of 32-bit integers "
     "with one element per tensor dimension."},
    {"tensor.decode-vector.requires-decode", kE, "tensor",
     "SPV_NV_cooperative_matrix_decode_vector",
     "DecodeVectorFunc appears only together with DecodeFunc."},
    {"tensor.decode-vector.return", kE, "tensor", "SPV_NV_cooperative_matrix_decode_vector",
     "DecodeVectorFunc returns a vector of 2, 4 or 8 components of the result matrix's component "
     "type."},
    {"tensor.decode-vector.block-size", kE, "tensor", "SPV_NV_cooperative_matrix_decode_vector",
     "Where the layout's block size in the last dimension is a known constant, it is a multiple "
     "of the vector size DecodeVectorFunc returns."},

    // coop_matrix2.cc
    {"coop-matrix2.reduce.types", kE, "coop-matrix2",
     "SPV_NV_cooperative_matrix2 / SPV_EXT_cooperative_matrix_maintenance1 "
     "OpCooperativeMatrixReduce",
     "Result Type and Matrix are OpTypeCooperativeMatrixKHR with the same component type."},
    {"coop-matrix2.reduce.use-scope", kE, "coop-matrix2",
     "SPV_NV_cooperative_matrix2 OpCooperativeMatrixReduceNV",
     "Matrix and Result Type have Use MatrixAccumulatorKHR and the same Scope."},
    {"coop-matrix2.reduce.mask", kE, "coop-matrix2",
     "SPV_NV_cooperative_matrix2 Cooperative Matrix Reduce",
     "Reduce is Row, Column, Row|Column or 2x2 (2x2 combines with neither)."},
    {"coop-matrix2.reduce.dims", kE, "coop-matrix2",
     "SPV_NV_cooperative_matrix2 OpCooperativeMatrixReduceNV",
     "A Row reduction keeps the rows, a Column reduction the columns, a 2x2 reduction halves "
     "both (checked where the values are known)."},
    {"coop-matrix2.reduce.combine-func", kE, "coop-matrix2",
     "SPV_NV_cooperative_matrix2 OpCooperativeMatrixReduceNV",
     "CombineFunc is a function of two parameters of the component type returning it."},
    {"coop-matrix2.per-element.matrix", kE, "coop-matrix2",
     "SPV_NV_cooperative_matrix2 OpCooperativeMatrixPerElementOpNV",
     "Matrix is an OpTypeCooperativeMatrixKHR value and Result Type its type."},
    {"coop-matrix2.per-element.func", kE, "coop-matrix2",
     "SPV_NV_cooperative_matrix2 OpCooperativeMatrixPerElementOpNV",
     "Func returns the component type and takes a 32-bit row, a 32-bit column and the element, "
     "then the extra operands."},
    {"coop-matrix2.per-element.operands", kE, "coop-matrix2",
     "SPV_EXT_cooperative_matrix_maintenance1 OpCooperativeMatrixPerElementOpEXT",
     "One extra operand per extra parameter of Func, of its type; a matrix operand has Matrix's "
     "type and passes its element."},
    {"coop-matrix2.transpose", kE, "coop-matrix2",
     "SPV_NV_cooperative_matrix2 OpCooperativeMatrixTransposeNV",
     "Matrix has Result Type's Scope with Rows and Columns swapped; an accumulator becomes a "
     "MatrixBKHR."},
    {"coop-matrix2.convert-use", kE, "coop-matrix2",
     "SPV_NV_cooperative_matrix2 OpCooperativeMatrixConvertNV; "
     "SPV_EXT_cooperative_matrix_maintenance1",
     "Same component type (integers may differ in signedness), scope, rows and columns; "
     "an accumulator becomes an A or B matrix (the reverse too with "
     "CooperativeMatrixConversionsEXT)."},
    {"coop-matrix2.get-coordinate", kE, "coop-matrix2",
     "SPV_EXT_cooperative_matrix_maintenance1 OpCooperativeMatrixGetCoordinateEXT",
     "The result is a vector of two 32-bit integers, Matrix a cooperative matrix, Index a 32-bit "
     "integer."},
    {"coop-matrix2.workgroup-size", kE, "coop-matrix2", "SPV_NV_cooperative_matrix2 2.16.1",
     "A Workgroup-scope cooperative matrix needs the workgroup size specified before its type: "
     "LocalSize or LocalSizeId on every entry point (or a WorkgroupSize built-in), LocalSizeId's "
     "constants defined before the type."},
    {"coop-matrix2.func.tangled", kE, "coop-matrix2",
     "SPV_NV_cooperative_matrix2 2.16.1; SPV_EXT_cooperative_matrix_maintenance1; "
     "GL_NV_cooperative_matrix_decode_vector",
     "No tangled instruction (group, subgroup, non-uniform, barrier, derivative, cooperative "
     "matrix operations) in a DecodeFunc, DecodeVectorFunc, Func or CombineFunc or anything they "
     "call."},

    // device.cc: only with a device profile (--device-profile).
    {"device.capability", kE, "device", "VUID-VkShaderModuleCreateInfo-pCode-08740",
     "Every declared capability has the Vulkan feature (or extension) the SPIR-V environment "
     "appendix ties it to in the device profile: CooperativeMatrixKHR cooperativeMatrix, "
     "CooperativeVectorTrainingNV cooperativeVectorTraining, BFloat16TypeKHR "
     "shaderBFloat16Type, Float8CooperativeMatrixEXT shaderFloat8CooperativeMatrix, ..."},
    {"device.extension", kE, "device", "VUID-VkShaderModuleCreateInfo-pCode-08742",
     "Every OpExtension of the cooperative family (and the storage / memory-model ones) has its "
     "Vulkan extension in the device profile, or the Vulkan version that made it core."},
    {"device.coop-matrix.type", kE, "device",
     "VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163; "
     "VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-10165",
     "An OpTypeCooperativeMatrixKHR's component type, scope, rows and columns are those of A, B "
     "or C / Result of a VkCooperativeMatrixPropertiesKHR entry, or, with "
     "cooperativeMatrixFlexibleDimensions, multiples of a flexible-dimensions entry's "
     "granularities (its workgroupInvocations the workgroup size for Workgroup scope)."},
    {"device.coop-matrix.muladd", kE, "device",
     "VUID-RuntimeSpirv-OpCooperativeMatrixMulAddKHR-10060; "
     "VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-10166",
     "OpCooperativeMatrixMulAddKHR's M, N, K, A / B / C / Result types (signedness from the "
     "Matrix*SignedComponents operands), SaturatingAccumulation and scope are one "
     "VkCooperativeMatrixPropertiesKHR entry, or fit one flexible-dimensions entry."},
    {"device.coop-matrix.workgroup-scope", kE, "device",
     "VUID-RuntimeSpirv-cooperativeMatrixWorkgroupScope-10164",
     "Workgroup-scope cooperative matrices need the cooperativeMatrixWorkgroupScope feature."},
    {"device.coop-matrix.workgroup-size", kE, "device",
     "VkPhysicalDeviceCooperativeMatrix2PropertiesNV::"
     "cooperativeMatrixWorkgroupScopeMaxWorkgroupSize (no VUID of its own)",
     "A compute entry point of a module with Workgroup-scope matrices has at most "
     "cooperativeMatrixWorkgroupScopeMaxWorkgroupSize invocations per workgroup."},
    {"device.coop-matrix.max-dimension", kE, "device",
     "VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensionsMaxDimension-10167",
     "With flexible dimensions, no cooperative matrix dimension exceeds "
     "cooperativeMatrixFlexibleDimensionsMaxDimension."},
    {"device.coop-matrix.stage", kE, "device",
     "VUID-RuntimeSpirv-cooperativeMatrixSupportedStages-08985",
     "A module with cooperative matrices has only entry points of the stages in "
     "cooperativeMatrixSupportedStages."},
    {"device.coop-matrix-nv.stage", kE, "device",
     "VUID-RuntimeSpirv-OpTypeCooperativeMatrixNV-06322",
     "A module with NV cooperative matrices has only entry points of the stages in "
     "VkPhysicalDeviceCooperativeMatrixPropertiesNV::cooperativeMatrixSupportedStages (profile "
     "key cooperativeMatrixSupportedStagesNV; not checked where the profile leaves it out)."},
    {"device.coop-matrix.load-store-alignment", kE, "device",
     "VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986; "
     "VUID-RuntimeSpirv-OpCooperativeMatrixLoadNV-06324",
     "OpCooperativeMatrixLoad/StoreKHR and -NV: the Pointer and the Stride (in bytes) are "
     "aligned to the lesser of 16 bytes and the size of a row (RowMajor) or column (ColumnMajor) "
     "of the matrix. Checked where known: a constant Stride, and a pointer whose byte offset "
     "modulo that alignment follows from Offset / ArrayStride decorations and constant indices "
     "(the buffer itself taken as 16-byte aligned)."},
    {"device.shared-memory", kE, "device", "VUID-RuntimeSpirv-Workgroup-06530",
     "The Workgroup variables of a GLCompute entry point (its interface from SPIR-V 1.4, else all "
     "of the module's) fit in maxComputeSharedMemorySize; sizes counted without padding between "
     "variables, so what is reported is over the limit in any layout."},
    {"device.coop-matrix.workgroup-shared-memory", kE, "device",
     "VUID-RuntimeSpirv-maxComputeSharedMemorySize-10168",
     "In a module with Workgroup-scope OpTypeCooperativeMatrixKHR, those Workgroup variables fit "
     "in maxComputeSharedMemorySize minus cooperativeMatrixWorkgroupScopeReservedSharedMemory."},
    {"device.coop-matrix-nv.type", kE, "device",
     "VUID-RuntimeSpirv-OpTypeCooperativeMatrixNV-06316",
     "An OpTypeCooperativeMatrixNV's component type (OpTypeInt signedness included), scope, rows "
     "and columns are those of A, B, C or D of a VkCooperativeMatrixPropertiesNV entry "
     "(cooperativeMatrixPropertiesNV of the profile)."},
    {"device.coop-matrix-nv.muladd", kE, "device",
     "VUID-RuntimeSpirv-OpTypeCooperativeMatrixMulAddNV-10059",
     "OpCooperativeMatrixMulAddNV's M, N, K and A / B / C / Result component types (signedness "
     "from OpTypeInt) are one VkCooperativeMatrixPropertiesNV entry, with Subgroup scope."},
    {"device.coop-vector.type", kE, "device", "VUID-RuntimeSpirv-OpTypeCooperativeVector-10095",
     "A cooperative vector's component type is the inputType or resultType of some "
     "VkCooperativeVectorPropertiesNV entry."},
    {"device.coop-vector.components", kE, "device",
     "VUID-RuntimeSpirv-maxCooperativeVectorComponents-10094",
     "A cooperative vector has at most maxCooperativeVectorComponents components."},
    {"device.coop-vector.matmul", kE, "device",
     "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10089",
     "OpCooperativeVectorMatrixMul(Add)NV's input type, input / matrix / bias interpretations, "
     "result type and Transpose are one VkCooperativeVectorPropertiesNV entry (Transpose only "
     "where the entry allows it)."},
    {"device.coop-vector.training-accumulation", kE, "device",
     "VUID-RuntimeSpirv-OpCooperativeVectorReduceSumAccumulateNV-10092; "
     "VUID-RuntimeSpirv-OpCooperativeVectorOuterProductAccumulateNV-10093",
     "The training instructions accumulate float16 only with "
     "cooperativeVectorTrainingFloat16Accumulation and float32 only with "
     "cooperativeVectorTrainingFloat32Accumulation."},
    {"device.coop-vector.stage", kE, "device",
     "VUID-RuntimeSpirv-cooperativeVectorSupportedStages-10091",
     "A module with cooperative vectors has only entry points of the stages in "
     "cooperativeVectorSupportedStages."},

    // uniformity.cc
    {"uniformity.operand", kE, "uniformity",
     "SPV_KHR_cooperative_matrix (every cooperative matrix instruction)",
     "Every operand of a cooperative matrix instruction is dynamically uniform within the "
     "matrix's scope instance: an operand derived from a per-invocation value (an invocation "
     "id, an atomic, a scan, memory written with such values) is an error."},
    {"uniformity.control", kE, "uniformity",
     "SPV_KHR_cooperative_matrix OpTypeCooperativeMatrixKHR",
     "All invocations of the scope instance execute a cooperative matrix instruction, or none: "
     "one under a branch, switch or loop exit that depends on a per-invocation value is an "
     "error."},
    {"uniformity.unproven", kW, "uniformity", "SPV_KHR_cooperative_matrix (uniformity rules)",
     "An operand or the control flow of a cooperative matrix instruction could not be proven "
     "uniform (e.g. it depends on memory other invocations write, or on a function called from "
     "several places, of which the analysis sees only the join)."},
};

}  // namespace

std::span<const Rule> AllRules() { return kRules; }

const Rule* FindRule(std::string_view id) {
  for (const Rule& r : kRules) {
    if (id == r.id) return &r;
  }
  return nullptr;
}

}  // namespace coopspv::val
