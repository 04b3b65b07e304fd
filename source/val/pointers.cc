// Pointers as operands under the Logical addressing model: without VariablePointers they may
// only feed the instructions SPIR-V lists (loads, stores, access chains, calls, atomics, ...),
// which the cooperative extensions extend with their loads and stores. --relax-logical-pointer
// (and --before-hlsl-legalization) lift the rule, as they do in spirv-val.
//
// With VariablePointers or VariablePointersStorageBuffer, variable pointers (2.2.2: the results
// of OpSelect, OpPhi, OpFunctionCall, OpPtrAccessChain, OpLoad and OpConstantNull, and the access
// chains, copies and parameters made from them) must not point to a column of a matrix or a
// component of one (2.16.1): pointer.variable-matrix-column traces each variable pointer back to
// the access chains it may come from.
#include <string>
#include <string_view>
#include <vector>

#include "source/common/workspace.h"
#include "source/ir/analyses.h"
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

bool IsAccessChain(Op op) {
  switch (op) {
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
    case Op::PtrAccessChain:
    case Op::InBoundsPtrAccessChain:
    case Op::UntypedAccessChainKHR:
    case Op::UntypedInBoundsAccessChainKHR:
    case Op::UntypedPtrAccessChainKHR:
    case Op::UntypedInBoundsPtrAccessChainKHR:
      return true;
    default:
      return false;
  }
}

// The matrix type the access chain at `i` walks into (its base object is a matrix, or an index
// selects a matrix, a column of one or a component of a column), or 0.
Id MatrixWalkedInto(const ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const Op op = m.opcode(i);
  const bool untyped = op == Op::UntypedAccessChainKHR || op == Op::UntypedInBoundsAccessChainKHR ||
                       op == Op::UntypedPtrAccessChainKHR ||
                       op == Op::UntypedInBoundsPtrAccessChainKHR;
  const bool element = op == Op::PtrAccessChain || op == Op::InBoundsPtrAccessChain ||
                       op == Op::UntypedPtrAccessChainKHR ||
                       op == Op::UntypedInBoundsPtrAccessChainKHR;
  const size_t n = m.num_words(i);
  if (n < (untyped ? 5u : 4u)) return 0;
  Id type = untyped ? m.word(i, 3) : state.PointeeType(state.TypeOf(m.word(i, 3)));
  size_t k = (untyped ? 5 : 4) + (element ? 1 : 0);
  for (;;) {
    if (type == 0) return 0;
    if (state.DefOp(type) == Op::TypeMatrix) return type;
    if (k >= n) return 0;
    const Id index = m.word(i, k++);
    if (state.DefOp(type) == Op::TypeStruct) {
      const std::optional<int64_t> member = state.IntConstant(index);
      const InstIndex d = m.Def(type);
      if (!member || *member < 0 || static_cast<uint64_t>(*member) + 2 >= m.num_words(d)) return 0;
      type = m.word(d, 2 + static_cast<size_t>(*member));
    } else {
      type = state.ComponentType(type);
    }
  }
}

bool IsLogicalPointerType(const ValidationState& state, Id type) {
  const std::optional<spv::StorageClass> sc = state.PointerStorageClass(type);
  return sc && *sc != spv::StorageClass::PhysicalStorageBuffer;
}

[[gnu::cold, gnu::noinline]] void ReportMatrixColumn(ValidationState& state, InstIndex chain,
                                                     Id matrix, Id variable_pointer) {
  state.Report("pointer.variable-matrix-column", chain,
               state.Describe(chain) + " walks into the matrix type " + state.Name(matrix) +
                   ", and the variable pointer " + state.Name(variable_pointer) +
                   " may come from it: a variable pointer must not point to a matrix, a column "
                   "of one or a component of a column");
}

// pointer.variable-matrix-column. Only modules that declare a variable-pointers capability get
// here; each instruction is traced at most once over all the variable pointers.
void ValidateVariablePointerMatrices(ValidationState& state) {
  const ir::Module& m = state.module();
  const InstIndex n = static_cast<InstIndex>(m.num_instructions());
  ws::vector<uint8_t> variable(m.bound(), 0);
  bool any = false;
  for (InstIndex i = 0; i < m.global_end(); ++i) {
    if (m.opcode(i) == Op::ConstantNull && IsLogicalPointerType(state, m.type_id(i))) {
      variable[m.result_id(i)] = 1;
    }
  }
  const binary::ParsedModule& parsed = m.parsed();
  const uint32_t* const words = m.words().data();
  const ir::DefUse* def_use = nullptr;
  // Which results are variable pointers: derived ones follow their operands, parameters the
  // arguments of every call, so repeat until nothing changes (Phi operands and calls may come
  // later in the module).
  for (bool changed = true; changed;) {
    changed = false;
    for (InstIndex i = m.global_end(); i < n; ++i) {
      const Id result = m.result_id(i);
      if (result == 0 || result >= m.bound() || variable[result]) continue;
      const Op op = m.opcode(i);
      if (op == Op::Function || !IsLogicalPointerType(state, m.type_id(i))) continue;
      bool is_variable = false;
      switch (op) {
        case Op::Select:
        case Op::Phi:
        case Op::FunctionCall:
        case Op::Load:
        case Op::PtrAccessChain:
        case Op::InBoundsPtrAccessChain:
        case Op::UntypedPtrAccessChainKHR:
        case Op::UntypedInBoundsPtrAccessChainKHR:
          is_variable = true;
          break;
        case Op::Variable:
        case Op::UntypedVariableKHR:
          break;
        case Op::FunctionParameter: {
          const uint32_t f = m.FunctionOf(i);
          if (f == ~0u) break;
          const ir::Function& fn = m.functions()[f];
          uint32_t p = 0;
          while (p < fn.num_params && m.Param(fn, p) != i) ++p;
          if (p == fn.num_params) break;
          if (def_use == nullptr) def_use = &m.def_use();
          const Id fid = m.result_id(fn.def);
          for (const ir::Use& use : def_use->Uses(fid)) {
            if (m.opcode(use.inst) != Op::FunctionCall || m.word(use.inst, 3) != fid) continue;
            if (m.num_words(use.inst) <= 4 + p) continue;
            const Id arg = m.word(use.inst, 4 + p);
            if (arg < m.bound() && variable[arg]) is_variable = true;
          }
          break;
        }
        default: {
          const binary::ParsedModule::Instruction& rec = parsed.instructions[i];
          const binary::ParsedOperand* const operands = parsed.operands.data() + rec.operand_begin;
          for (uint32_t k = 0; k < rec.operand_count; ++k) {
            if (operands[k].kind != grammar::OperandKind::kIdRef) continue;
            const Id id = words[rec.offset + operands[k].offset];
            if (id < m.bound() && variable[id]) is_variable = true;
          }
          break;
        }
      }
      if (is_variable) {
        variable[result] = 1;
        changed = any = true;
      }
    }
  }
  if (!any) return;
  if (def_use == nullptr) def_use = &m.def_use();
  ws::vector<uint8_t> seen(n, 0);
  ws::vector<InstIndex> stack;
  ws::vector<uint8_t> visited;  // Uses followed from the variables holding pointers.
  const auto push_id = [&](Id id) {
    const InstIndex d = m.Def(id);
    if (d != kNoInst && d < n && !seen[d]) {
      seen[d] = 1;
      stack.push_back(d);
    }
  };
  for (InstIndex v = m.global_end(); v < n; ++v) {
    const Id vp = m.result_id(v);
    if (vp == 0 || vp >= m.bound() || !variable[vp] || seen[v]) continue;
    seen[v] = 1;
    stack.push_back(v);
    while (!stack.empty()) {
      const InstIndex t = stack.back();
      stack.pop_back();
      const Op op = m.opcode(t);
      const uint32_t nw = m.num_words(t);
      if (IsAccessChain(op)) {
        if (const Id matrix = MatrixWalkedInto(state, t)) {
          ReportMatrixColumn(state, t, matrix, vp);
          if (state.Full()) return;
        }
        const bool untyped = op == Op::UntypedAccessChainKHR ||
                             op == Op::UntypedInBoundsAccessChainKHR ||
                             op == Op::UntypedPtrAccessChainKHR ||
                             op == Op::UntypedInBoundsPtrAccessChainKHR;
        if (nw > (untyped ? 4u : 3u)) push_id(m.word(t, untyped ? 4 : 3));
        continue;
      }
      switch (op) {
        case Op::Phi:
          for (uint32_t k = 3; k < nw; k += 2) push_id(m.word(t, k));
          break;
        case Op::Select:
          if (nw > 5) {
            push_id(m.word(t, 4));
            push_id(m.word(t, 5));
          }
          break;
        case Op::CopyObject:
        case Op::Load:
          if (nw > 3) push_id(m.word(t, 3));
          break;
        case Op::FunctionCall: {  // The values the callee returns.
          if (nw < 4) break;
          const uint32_t f = m.FunctionById(m.word(t, 3));
          if (f == ~0u) break;
          for (const ir::Block& b : m.blocks(m.functions()[f])) {
            const InstIndex term = b.end - 1;
            if (b.end > b.label && m.opcode(term) == Op::ReturnValue && m.num_words(term) > 1) {
              push_id(m.word(term, 1));
            }
          }
          break;
        }
        case Op::FunctionParameter: {  // The arguments of every call.
          const uint32_t f = m.FunctionOf(t);
          if (f == ~0u) break;
          const ir::Function& fn = m.functions()[f];
          uint32_t p = 0;
          while (p < fn.num_params && m.Param(fn, p) != t) ++p;
          const Id fid = m.result_id(fn.def);
          for (const ir::Use& use : def_use->Uses(fid)) {
            if (m.opcode(use.inst) == Op::FunctionCall && m.word(use.inst, 3) == fid &&
                m.num_words(use.inst) > 4 + p) {
              push_id(m.word(use.inst, 4 + p));
            }
          }
          break;
        }
        case Op::Variable:
        case Op::UntypedVariableKHR: {  // A Function or Private variable holding pointers.
          const bool untyped = op == Op::UntypedVariableKHR;
          if (nw < 4) break;
          const auto sc = static_cast<spv::StorageClass>(m.word(t, 3));
          if (sc != spv::StorageClass::Function && sc != spv::StorageClass::Private) break;
          if (nw > (untyped ? 5u : 4u)) push_id(m.word(t, untyped ? 5 : 4));
          // Every pointer stored through the variable or a chain or copy of it.
          ws::vector<Id> pointers{m.result_id(t)};
          if (visited.empty()) visited.assign(n, 0);
          while (!pointers.empty()) {
            const Id p = pointers.back();
            pointers.pop_back();
            for (const ir::Use& use : def_use->Uses(p)) {
              if (visited[use.inst]) continue;
              visited[use.inst] = 1;
              const Op use_op = m.opcode(use.inst);
              if (use_op == Op::Store) {
                if (m.word(use.inst, 1) == p && m.num_words(use.inst) > 2) {
                  push_id(m.word(use.inst, 2));
                }
              } else if (m.result_id(use.inst) != 0 &&
                         IsLogicalPointerType(state, m.type_id(use.inst))) {
                pointers.push_back(m.result_id(use.inst));
              }
            }
          }
          break;
        }
        default:
          break;
      }
    }
  }
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
  if (state.HasCapability(spv::Capability::VariablePointers) ||
      state.HasCapability(spv::Capability::VariablePointersStorageBuffer)) {
    if (state.addressing_model() == spv::AddressingModel::Logical ||
        state.addressing_model() == spv::AddressingModel::PhysicalStorageBuffer64) {
      ValidateVariablePointerMatrices(state);
    }
    return;
  }
  if (state.addressing_model() != spv::AddressingModel::Logical) return;
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
