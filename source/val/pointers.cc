// Pointers as operands under the Logical addressing model: without VariablePointers they may
// only feed the instructions SPIR-V lists (loads, stores, access chains, calls, atomics, ...),
// which the cooperative extensions extend with their loads and stores. --relax-logical-pointer
// (and --before-hlsl-legalization) lift the rule, as they do in spirv-val.
#include <string>
#include <string_view>
#include <vector>

#include "source/common/workspace.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

bool TakesPointers(Op op) {
  switch (op) {
    case Op::Load:
    case Op::Store:
    case Op::CopyMemory:
    case Op::CopyMemorySized:
    case Op::CopyObject:
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
    case Op::PtrAccessChain:
    case Op::InBoundsPtrAccessChain:
    case Op::FunctionCall:
    case Op::ImageTexelPointer:
    case Op::ArrayLength:
    case Op::ExtInst:  // Extended instructions that take pointers (Modf, Frexp, debug info).
    case Op::ExtInstWithForwardRefsKHR:
    case Op::EntryPoint:
    case Op::Name:
    case Op::Decorate:
    case Op::DecorateId:
    case Op::Variable:  // A Function variable's initializer may be a global variable.
    case Op::CooperativeMatrixLoadKHR:
    case Op::CooperativeMatrixStoreKHR:
    case Op::CooperativeMatrixLoadNV:
    case Op::CooperativeMatrixStoreNV:
    case Op::CooperativeMatrixLoadTensorNV:
    case Op::CooperativeMatrixStoreTensorNV:
    case Op::CooperativeVectorLoadNV:
    case Op::CooperativeVectorStoreNV:
    case Op::CooperativeVectorMatrixMulNV:
    case Op::CooperativeVectorMatrixMulAddNV:
    case Op::CooperativeVectorOuterProductAccumulateNV:
    case Op::CooperativeVectorReduceSumAccumulateNV:
    // SPV_KHR_untyped_pointers: its access chains (all but the Ptr one, a variable pointer) and
    // array length; OpCopyMemorySized is listed above.
    case Op::UntypedAccessChainKHR:
    case Op::UntypedInBoundsAccessChainKHR:
    case Op::UntypedArrayLengthKHR:
    case Op::RawAccessChainNV:  // SPV_NV_raw_access_chains
    // SPV_EXT_descriptor_heap
    case Op::BufferPointerEXT:
    case Op::UntypedImageTexelPointerEXT:
    // SPV_KHR_ray_tracing, SPV_NV_ray_tracing_motion_blur: payloads and callable data.
    case Op::TraceRayKHR:
    case Op::ExecuteCallableKHR:
    case Op::TraceMotionNV:
    case Op::TraceRayMotionNV:
    case Op::EmitMeshTasksEXT:  // SPV_EXT_mesh_shader: its Payload.
      return true;
    default: {
      const grammar::InstructionInfo* info = grammar::LookupOpcode(static_cast<uint32_t>(op));
      if (info == nullptr) return false;
      // SPV_KHR_ray_query and the hit-object extensions (SPV_NV / SPV_EXT_shader_invocation_
      // reorder, SPV_NV_linear_swept_spheres, ...) take their RayQuery / Hit Object operand as
      // a pointer to the opaque object.
      const std::string_view name = info->name;
      return info->klass == grammar::InstructionClass::kAtomic || name.starts_with("OpRayQuery") ||
             name.starts_with("OpHitObject") || name.starts_with("OpReorderThreadWith");
    }
  }
}

[[gnu::cold, gnu::noinline]] void ReportPointerOperand(ValidationState& state, InstIndex i, Id id) {
  state.Report("pointer.logical-operand", i,
               state.Describe(i) + " takes the pointer " + state.Name(id) +
                   " as an operand, which the Logical addressing model allows only for "
                   "loads, stores, access chains, calls, atomics and the cooperative loads "
                   "and stores (declare VariablePointers, or use --relax-logical-pointer)");
}

}  // namespace

bool AccessChainsVisits(const ValidationState& state, Op op) {
  return op == Op::AccessChain || op == Op::InBoundsAccessChain || op == Op::PtrAccessChain ||
         op == Op::InBoundsPtrAccessChain || op == Op::UntypedAccessChainKHR ||
         op == Op::UntypedInBoundsAccessChainKHR || op == Op::UntypedPtrAccessChainKHR ||
         op == Op::UntypedInBoundsPtrAccessChainKHR;
}

void ValidatePointers(ValidationState& state) {
  const Options& o = state.options();
  // 2.17 Universal Limits: an access chain has at most max_access_chain_indexes indexes.
  const ir::Module& module = state.module();
  for (const InstIndex i : state.Walked(Walk::kAccessChains, module.global_end())) {
    if (state.Full()) break;
    const Op op = module.opcode(i);
    // SPV_KHR_untyped_pointers: the untyped chains' Base Type comes first.
    const size_t first_index =
        op == Op::AccessChain || op == Op::InBoundsAccessChain                             ? 4
        : op == Op::PtrAccessChain || op == Op::InBoundsPtrAccessChain                     ? 5
        : op == Op::UntypedAccessChainKHR || op == Op::UntypedInBoundsAccessChainKHR       ? 5
        : op == Op::UntypedPtrAccessChainKHR || op == Op::UntypedInBoundsPtrAccessChainKHR ? 6
                                                                                           : 0;
    if (first_index == 0 || module.num_words(i) <= first_index) continue;
    const size_t indexes = module.num_words(i) - first_index;
    if (indexes > o.max_access_chain_indexes) {
      state.Report("pointer.access-chain-indexes", i,
                   state.Describe(i) + " has " + ws::to_string(indexes) +
                       " indexes, more than the limit of " +
                       ws::to_string(o.max_access_chain_indexes));
    }
  }
  if (o.relax_logical_pointer || o.before_hlsl_legalization) return;
  if (state.addressing_model() != spv::AddressingModel::Logical) return;
  if (state.HasCapability(spv::Capability::VariablePointers) ||
      state.HasCapability(spv::Capability::VariablePointersStorageBuffer)) {
    return;
  }
  const ir::Module& m = state.module();
  // Which ids are pointer values, in one pass, so each operand costs one lookup. The parsed
  // records are read directly: both loops visit every instruction.
  const binary::ParsedModule& parsed = m.parsed();
  const binary::ParsedModule::Instruction* const records = parsed.instructions.data();
  const InstIndex n = static_cast<InstIndex>(m.num_instructions());
  ws::vector<uint8_t> pointer_value(m.bound(), 0);
  bool any = false;
  Id type = 0;  // The type last looked at, and whether it is a pointer type.
  bool pointer_type = false;
  for (InstIndex i = 0; i < n; ++i) {
    const binary::ParsedModule::Instruction& rec = records[i];
    if (rec.result_id == 0 || rec.type_id == 0 ||
        rec.opcode == static_cast<uint16_t>(Op::Function)) {
      continue;
    }
    if (rec.type_id != type) {
      type = rec.type_id;
      pointer_type = state.IsAnyPointerType(type);
    }
    if (pointer_type) {
      pointer_value[rec.result_id] = 1;
      any = true;
    }
  }
  if (!any) return;
  const uint32_t* const words = m.words().data();
  // Whether each opcode takes pointers, worked out on its first instruction (0: not yet).
  ws::vector<uint8_t> takes(grammar::kMaxOpcode + 1, 0);
  // Only this loop's reports can fill the list from here: it stops when one does.
  if (state.Full()) return;
  for (InstIndex i = m.global_end(); i < n; ++i) {
    const binary::ParsedModule::Instruction& rec = records[i];
    if (rec.opcode > grammar::kMaxOpcode) {
      if (TakesPointers(static_cast<Op>(rec.opcode))) continue;
    } else {
      uint8_t& t = takes[rec.opcode];
      if (t == 0) t = TakesPointers(static_cast<Op>(rec.opcode)) ? 1 : 2;
      if (t == 1) continue;
    }
    const binary::ParsedOperand* const operands = parsed.operands.data() + rec.operand_begin;
    for (uint32_t k = 0; k < rec.operand_count; ++k) {
      if (operands[k].kind != grammar::OperandKind::kIdRef) continue;
      const Id id = words[rec.offset + operands[k].offset];
      if (!pointer_value[id]) continue;
      ReportPointerOperand(state, i, id);
      if (state.Full()) return;
      break;
    }
  }
}

}  // namespace coopspv::val
