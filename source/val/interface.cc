// The entry point interface (OpEntryPoint, Interface: before SPIR-V 1.4 the Input and Output
// variables, "starting with version 1.4, ... all global variables referenced by the entry
// point's call tree"): every such variable an instruction of the call tree names is listed. Uses
// are read at the operand positions of the instructions that take pointers (memory access, access
// chains, atomics, calls, copies, selections and phis), so a word that only looks like an id never
// counts.
#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/grammar/grammar.h"
#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

// The first word of the operands of `op` that may name a variable, and one past the last
// (0, 0: none). `step` 2 for OpPhi's (value, parent) pairs.
struct Words {
  uint32_t begin = 0, end = 0, step = 1;
};

Words PointerWords(Op op, uint32_t n) {
  switch (op) {
    case Op::Load:
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
    case Op::PtrAccessChain:
    case Op::InBoundsPtrAccessChain:
    case Op::ArrayLength:
    case Op::CopyObject:
    case Op::AtomicFAddEXT:
    case Op::AtomicFMinEXT:
    case Op::AtomicFMaxEXT:
    case Op::CooperativeMatrixLoadKHR:
    case Op::CooperativeMatrixLoadNV:
    case Op::CooperativeMatrixLoadTensorNV:
    case Op::CooperativeVectorLoadNV:
    case Op::ConvertPtrToU:
    case Op::GenericCastToPtr:
    case Op::PtrCastToGeneric:
      return {3, 4};
    case Op::Store:
    case Op::AtomicStore:
    case Op::CooperativeMatrixStoreKHR:
    case Op::CooperativeMatrixStoreNV:
    case Op::CooperativeMatrixStoreTensorNV:
    case Op::CooperativeVectorStoreNV:
      return {1, 3};  // Pointer and Object (a stored pointer).
    case Op::CopyMemory:
    case Op::CopyMemorySized:
      return {1, 3};
    case Op::Select:
      return {4, 6};
    case Op::PtrEqual:
    case Op::PtrNotEqual:
    case Op::PtrDiff:
      return {3, 5};
    case Op::FunctionCall:
      return {4, n};
    case Op::Phi:
      return {3, n, 2};
    default:
      // OpAtomicLoad ... OpAtomicXor (OpAtomicStore is above): the Pointer is word 3.
      if (static_cast<uint32_t>(op) >= static_cast<uint32_t>(Op::AtomicLoad) &&
          static_cast<uint32_t>(op) <= static_cast<uint32_t>(Op::AtomicXor)) {
        return {3, 4};
      }
      return {};
  }
}

// VUID-StandaloneSpirv-OpEntryPoint-09658 / 09659: "For a given OpEntryPoint, any BuiltIn
// decoration must not be used more than once by the Input [Output] interface": a built-in
// variable, or a member of the structure (or array of structures) an interface variable holds.
void CheckBuiltInsOnce(ValidationState& state) {
  const ir::Module& m = state.module();
  // (target, built-in) of the BuiltIn decorations: variables, and structure types (members).
  ws::vector<std::pair<Id, uint32_t>> builtins;
  for (InstIndex i = 0; i < m.global_end(); ++i) {
    const Op op = m.opcode(i);
    // Decorations come before the types (layout.order reports a module where they do not).
    if (ir::SectionOf(op) >= ir::Section::kGlobal) break;
    const uint32_t d = op == Op::Decorate ? 2 : op == Op::MemberDecorate ? 3 : 0;
    if (d != 0 && m.num_words(i) > d + 1 &&
        m.word(i, d) == static_cast<uint32_t>(spv::Decoration::BuiltIn)) {
      builtins.push_back({m.word(i, 1), m.word(i, d + 1)});
    }
  }
  if (builtins.size() < 2) return;
  // Only a built-in decorated more than once can be used twice (in valid modules none is).
  ws::vector<uint32_t> values(builtins.size());
  for (size_t k = 0; k < builtins.size(); ++k) values[k] = builtins[k].second;
  std::sort(values.begin(), values.end());
  if (std::adjacent_find(values.begin(), values.end()) == values.end()) return;
  std::sort(builtins.begin(), builtins.end());
  ws::vector<std::pair<uint32_t, Id>> used;  // (storage class << 16 ^ built-in, variable)
  for (InstIndex e = 0; e < m.global_end() && !state.Full(); ++e) {
    if (ir::SectionOf(m.opcode(e)) > ir::Section::kEntryPoint) break;
    if (m.opcode(e) != Op::EntryPoint || m.num_words(e) < 4) continue;
    used.clear();
    for (const Id var : ir::EntryPointInterface(m.inst(e))) {
      if (state.DefOp(var) != Op::Variable) continue;
      const std::optional<spv::StorageClass> sc = state.PointerStorageClass(state.TypeOf(var));
      if (sc != spv::StorageClass::Input && sc != spv::StorageClass::Output) continue;
      Id type = state.PointeeType(state.TypeOf(var));
      if (state.DefOp(type) == Op::TypeArray || state.DefOp(type) == Op::TypeRuntimeArray) {
        type = state.DefWord(type, 2);
      }
      for (const Id target : {var, state.DefOp(type) == Op::TypeStruct ? type : 0}) {
        auto it =
            std::lower_bound(builtins.begin(), builtins.end(), std::pair<Id, uint32_t>{target, 0});
        for (; target != 0 && it != builtins.end() && it->first == target; ++it) {
          used.push_back({(static_cast<uint32_t>(*sc) << 16) ^ it->second, var});
        }
      }
    }
    std::sort(used.begin(), used.end());
    for (size_t k = 1; k < used.size(); ++k) {
      if (used[k].first != used[k - 1].first) continue;
      const bool input = (used[k].first >> 16) == static_cast<uint32_t>(spv::StorageClass::Input);
      state.Report("entry-point.builtin-once", e,
                   state.Describe(e) + ": " + state.Name(used[k - 1].second) + " and " +
                       state.Name(used[k].second) + " both use BuiltIn " +
                       EnumerantName(grammar::OperandKind::kBuiltIn, used[k].first & 0xffff) +
                       " in the " + (input ? "Input" : "Output") + " interface");
      break;
    }
  }
}

}  // namespace

void ValidateEntryPointInterfaces(ValidationState& state) {
  // Another major version is layout.version's error.
  if (state.version() >= SpirvVersion(2, 0) || !state.structure_ok) return;
  if (state.options().env.is_vulkan()) CheckBuiltInsOnce(state);
  // Before SPIR-V 1.4 the interface lists the Input and Output variables, from 1.4 all.
  const bool all = state.version() >= SpirvVersion(1, 4);
  const ir::Module& m = state.module();
  // Module-scope variables. When every entry point lists all of them (the common case) no
  // call tree can miss one, and the functions are not read.
  ws::vector<Id> globals;
  for (InstIndex i = 0; i < m.global_end(); ++i) {
    const Op op = m.opcode(i);
    if ((op != Op::Variable && op != Op::UntypedVariableKHR) || m.num_words(i) < 4) continue;
    const auto sc = static_cast<spv::StorageClass>(m.word(i, 3));
    if (all ? sc != spv::StorageClass::Function
            : sc == spv::StorageClass::Input || sc == spv::StorageClass::Output) {
      globals.push_back(m.result_id(i));
    }
  }
  std::sort(globals.begin(), globals.end());
  // The sorted interface of each entry point.
  ws::vector<std::pair<InstIndex, ws::vector<Id>>> entries;
  bool complete = true;
  for (InstIndex e = 0; e < m.global_end(); ++e) {
    if (m.opcode(e) != Op::EntryPoint || m.num_words(e) < 4) continue;
    const std::span<const uint32_t> interface = ir::EntryPointInterface(m.inst(e));
    ws::vector<Id> listed(interface.begin(), interface.end());
    std::sort(listed.begin(), listed.end());
    complete =
        complete && std::includes(listed.begin(), listed.end(), globals.begin(), globals.end());
    entries.emplace_back(e, std::move(listed));
  }
  if (complete) return;
  ws::vector<bool> global(m.bound(), false);
  for (const Id id : globals) {
    if (id < global.size()) global[id] = true;
  }
  // Per function: the variables it names (first use) and the functions it calls.
  const auto functions = m.functions();
  struct Uses {
    ws::vector<std::pair<Id, InstIndex>> variables;
    ws::vector<uint32_t> callees;
  };
  ws::vector<Uses> uses(functions.size());
  for (uint32_t f = 0; f < functions.size(); ++f) {
    const InstIndex end = functions[f].end == kNoInst ? m.num_instructions() : functions[f].end;
    for (InstIndex i = functions[f].def; i < end; ++i) {
      const Op op = m.opcode(i);
      const uint32_t n = m.num_words(i);
      const Words w = PointerWords(op, n);
      for (uint32_t k = w.begin; k < std::min(w.end, n); k += w.step) {
        const Id id = m.word(i, k);
        if (id < global.size() && global[id]) uses[f].variables.push_back({id, i});
      }
      if (op == Op::FunctionCall && n > 3) {
        const uint32_t callee = m.FunctionById(m.word(i, 3));
        if (callee < functions.size()) uses[f].callees.push_back(callee);
      }
    }
  }
  for (const auto& [e, listed] : entries) {
    if (state.Full()) return;
    const uint32_t root = m.FunctionById(m.word(e, 2));
    if (root >= functions.size()) continue;  // entry-point.function.
    const std::string_view name = binary::DecodeString(m.inst(e).words.subspan(3));
    ws::vector<bool> seen(functions.size(), false);
    ws::vector<uint32_t> stack{root};
    seen[root] = true;
    ws::vector<Id> reported;
    while (!stack.empty() && !state.Full()) {
      const uint32_t f = stack.back();
      stack.pop_back();
      for (const auto& [id, at] : uses[f].variables) {
        if (std::binary_search(listed.begin(), listed.end(), id) ||
            std::find(reported.begin(), reported.end(), id) != reported.end()) {
          continue;
        }
        reported.push_back(id);
        state.Report("entry-point.interface-complete", at,
                     state.Describe(at) + ": " + state.Name(id) +
                         " is used in the call tree of entry point \"" + ws::string(name) +
                         "\" but not listed in its interface");
      }
      for (const uint32_t c : uses[f].callees) {
        if (!seen[c]) {
          seen[c] = true;
          stack.push_back(c);
        }
      }
    }
  }
}

}  // namespace coopspv::val
