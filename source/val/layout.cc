// Module-level rules: the header version against the target environment, the logical layout,
// the memory model, entry points and execution modes.
#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <utility>

#include "source/common/workspace.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

// A function declaration: nothing but parameters (and line information) between the OpFunction
// and its OpFunctionEnd.
bool IsDeclaration(const ir::Module& m, const ir::Function& f) {
  if (f.end == kNoInst) return false;
  for (InstIndex i = f.first_param; i < f.end; ++i) {
    const Op op = m.opcode(i);
    if (op != Op::FunctionParameter && op != Op::Line && op != Op::NoLine) return false;
  }
  return true;
}

using ir::Section;

ws::string VersionText(uint32_t v) {
  return ws::to_string((v >> 16) & 0xFF) + "." + ws::to_string((v >> 8) & 0xFF);
}

const char* SectionName(Section s) {
  switch (s) {
    case Section::kCapability:
      return "capabilities";
    case Section::kExtension:
      return "extensions";
    case Section::kExtInstImport:
      return "extended instruction imports";
    case Section::kMemoryModel:
      return "the memory model";
    case Section::kEntryPoint:
      return "entry points";
    case Section::kExecutionMode:
      return "execution modes";
    case Section::kDebugString:
      return "debug strings and sources";
    case Section::kDebugName:
      return "debug names";
    case Section::kDebugModuleProcessed:
      return "OpModuleProcessed";
    case Section::kAnnotation:
      return "annotations";
    case Section::kGlobal:
      return "types, constants and global variables";
    case Section::kFunction:
      return "functions";
  }
  return "?";
}


// An instruction a function body may hold (OpFunction too: the function rules report that one),
// which leaves CheckOrder's state as it is.
bool StaysInFunction(Op op) {
  return op != Op::FunctionEnd &&
         (ir::SectionOf(op) == Section::kFunction || op == Op::Variable ||
          op == Op::UntypedVariableKHR || op == Op::Undef || op == Op::PoisonKHR ||
          op == Op::Line || op == Op::NoLine);
}

void CheckVersion(ValidationState& state) {
  const uint32_t v = state.version();
  const uint32_t major = (v >> 16) & 0xFF, minor = (v >> 8) & 0xFF;
  if (major != 1 || minor > 6 || (v & 0xFF0000FF) != 0) {
    state.Report(
        "layout.version", kNoInst, "header version word 0x" + [&] {
          char b[16];
          std::snprintf(b, sizeof(b), "%08x", v);
          return ws::string(b);
        }() + " is not a SPIR-V version (1.0 to 1.6)");
    return;
  }
  if (v > state.options().env.spirv_version) {
    state.Report("layout.version", kNoInst,
                 "module is SPIR-V " + VersionText(v) + " but target environment " +
                     state.options().env.Name() + " allows at most SPIR-V " +
                     VersionText(state.options().env.spirv_version));
  }
}

// The instructions before the first function that CheckEntryPoints looks at, in module order:
// found by CheckOrder's pass over the module, so that they need no pass of their own.
struct ModuleLevel {
  ws::vector<InstIndex> extensions_and_entry_points;
  ws::vector<InstIndex> execution_modes;
};

void CheckOrder(ValidationState& state, ModuleLevel* found) {
  const ir::Module& m = state.module();
  Section current = Section::kCapability;
  bool in_function = false;
  int memory_models = 0;
  InstIndex first_function = kNoInst;
  bool in_order = true;  // No layout.order report.
  // Only Report fills the state: it is checked after each report.
  const InstIndex n = state.Full() ? 0 : m.num_instructions();
  for (InstIndex i = 0; i < n; ++i) {
    if (in_function) {
      // Most instructions: a function's body, passed over in one tight loop.
      while (i < n && StaysInFunction(m.opcode(i))) ++i;
      if (i == n) break;
    }
    const Op op = m.opcode(i);
    Section s = ir::SectionOf(op);
    if (in_function) {
      if (op == Op::FunctionEnd) {
        in_function = false;
        continue;
      }
      if (op == Op::MemoryModel) ++memory_models;
      in_order = false;
      state.Report("layout.order", i,
                   state.Describe(i) + " belongs with " + SectionName(s) +
                       " and may not appear inside a function");
      if (state.Full()) break;
      continue;
    }
    // Before the first function, every instruction comes here; the sections tell those wanted
    // (one test for most).
    if (s <= Section::kExecutionMode && i < m.global_end()) {
      if (s == Section::kExtension || s == Section::kEntryPoint) {
        found->extensions_and_entry_points.push_back(i);
      } else if (s == Section::kExecutionMode) {
        found->execution_modes.push_back(i);
      }
    }
    if (op == Op::MemoryModel) ++memory_models;
    if (op == Op::Function) {
      if (first_function == kNoInst) first_function = i;
      in_function = true;
      current = Section::kFunction;
      continue;
    }
    if (op == Op::FunctionEnd) continue;
    if (op == Op::Line || op == Op::NoLine) {
      // Allowed from the types section on (between functions too); it starts that section.
      if (current < Section::kGlobal) current = Section::kGlobal;
      continue;
    }
    // Non-semantic extended instructions may also appear among the global declarations, and
    // between and after the functions (SPV_KHR_non_semantic_info; SPIR-V 2.4 from 1.6 rev 2).
    // So may the debug-info sets' (DebugInfo, OpenCL.DebugInfo.100) among the declarations.
    if (op == Op::ExtInst || op == Op::ExtInstWithForwardRefsKHR) {
      if (IsNonSemanticExtInst(m, i)) {
        if (current == Section::kFunction) continue;
        s = Section::kGlobal;
      } else if (ir::IsDebugInfoSet(m.inst(i).ext_inst_set)) {
        s = Section::kGlobal;
      }
    }
    if (s == Section::kFunction) {
      in_order = false;
      state.Report("layout.order", i,
                   state.Describe(i) + (current == Section::kFunction
                                            ? " appears between functions"
                                            : " may only appear inside a function"));
      if (state.Full()) break;
      continue;
    }
    if (s < current) {
      in_order = false;
      state.Report("layout.order", i,
                   state.Describe(i) + " belongs with " + SectionName(s) +
                       " and must come before " + SectionName(current));
      if (state.Full()) break;
      continue;
    }
    current = s;
  }
  // Reports stop the walk only once the state is full, and each report clears in_order.
  if (in_order && first_function != kNoInst) state.SetNamingEnd(first_function);
  if (memory_models != 1) {
    state.Report("layout.memory-model", kNoInst,
                 memory_models == 0 ? "the module has no OpMemoryModel"
                                    : "the module has " + ws::to_string(memory_models) +
                                          " OpMemoryModel instructions; exactly one is required");
  }
}

void CheckEntryPoints(ValidationState& state, const ModuleLevel& found) {
  const ir::Module& m = state.module();
  ws::set<std::pair<uint32_t, ws::string>> seen;
  ws::set<Id> entry_functions;
  bool any = false;
  for (const InstIndex i : found.extensions_and_entry_points) {
    if (state.Full()) break;
    const Op op = m.opcode(i);
    if (op == Op::Extension) {
      const std::string_view name = binary::DecodeString(m.inst(i).words.subspan(1));
      // Extensions that gate no grammar entry of their own.
      static constexpr std::string_view kNonGating[] = {
          "SPV_KHR_non_semantic_info", "SPV_GOOGLE_decorate_string",
          "SPV_GOOGLE_hlsl_functionality1", "SPV_GOOGLE_user_type",
          "SPV_KHR_relaxed_extended_instruction"};
      const bool non_gating =
          std::find(std::begin(kNonGating), std::end(kNonGating), name) != std::end(kNonGating);
      // Extensions whose specification makes a later SPIR-V version a condition of their use
      // ("This extension requires SPIR-V 1.x"). Only those the reference validator holds
      // modules to; the cooperative family's (1.3 / 1.6) it does not check, nor does this.
      static constexpr std::pair<std::string_view, uint32_t> kMinimumVersion[] = {
          {"SPV_KHR_vulkan_memory_model", 0x10300},
          {"SPV_QCOM_cooperative_matrix_conversion", 0x10300},
          {"SPV_KHR_workgroup_memory_explicit_layout", 0x10400},
          {"SPV_KHR_opacity_micromap", 0x10400},
          {"SPV_EXT_mesh_shader", 0x10400},
          {"SPV_NV_shader_invocation_reorder", 0x10400},
          {"SPV_EXT_shader_invocation_reorder", 0x10400},
          {"SPV_NV_cluster_acceleration_structure", 0x10400},
          {"SPV_NV_linear_swept_spheres", 0x10400},
          {"SPV_QCOM_image_processing", 0x10400},
          {"SPV_QCOM_image_processing2", 0x10400},
      };
      for (const auto& [extension, version] : kMinimumVersion) {
        if (name == extension && state.version() < version) {
          state.Report("layout.extension-version", i,
                       "OpExtension \"" + ws::string(name) + "\" requires SPIR-V " +
                           ws::to_string(version >> 16) + "." +
                           ws::to_string((version >> 8) & 0xFF) + " or later; the module is " +
                           ws::to_string(state.version() >> 16) + "." +
                           ws::to_string((state.version() >> 8) & 0xFF));
        }
      }
      if (!non_gating && !grammar::IsKnownExtension(name)) {
        state.Report("layout.extension-unknown", i,
                     "OpExtension \"" + ws::string(name) +
                         "\" is not an extension known to "
                         "this validator; its rules are not "
                         "checked");
      }
      continue;
    }
    if (op != Op::EntryPoint) continue;
    any = true;
    const ir::Inst inst = m.inst(i);
    const uint32_t model = inst.words[1];
    const Id function = inst.words[2];
    const ws::string name(binary::DecodeString(inst.words.subspan(3)));
    if (!seen.emplace(model, name).second) {
      state.Report("entry-point.duplicate", i,
                   "a second entry point named \"" + name + "\" with the same execution model");
    }
    const InstIndex def = m.Def(function);
    if (def == kNoInst || m.opcode(def) != Op::Function) {
      state.Report("entry-point.function", i,
                   "OpEntryPoint \"" + name + "\" names " + state.Name(function) +
                       ", which is not an OpFunction");
    } else {
      entry_functions.insert(function);
      const uint32_t f = m.FunctionById(function);
      // A declaration: nothing but parameters (and line information) between the OpFunction
      // and its OpFunctionEnd.
      if (f != ~0u && IsDeclaration(m, m.functions()[f])) {
        state.Report("entry-point.function", i,
                     "entry point \"" + name + "\" names " + state.Name(function) +
                         ", a function declaration without a body");
      }
      const Id fn_type = m.word(def, 4);
      const bool kernel = model == static_cast<uint32_t>(spv::ExecutionModel::Kernel);
      const bool void_return = state.DefOp(m.type_id(def)) == Op::TypeVoid;
      const bool no_params =
          state.DefOp(fn_type) == Op::TypeFunction && m.num_words(m.Def(fn_type)) == 3;
      if (!void_return || (!kernel && !no_params)) {
        state.Report("entry-point.function", i,
                     "entry point \"" + name + "\" function " + state.Name(function) +
                         (void_return ? " takes parameters" : " does not return void"));
      }
    }
    // Interface: global variables, listed once from SPIR-V 1.4 (OpEntryPoint: "Each
    // Interface id must be unique"; earlier versions let a variable repeat).
    ws::set<Id> listed;
    const bool unique = state.version() >= SpirvVersion(1, 4);
    for (const Id id : ir::EntryPointInterface(inst)) {
      if (!listed.insert(id).second) {
        if (!unique) continue;
        state.Report(
            "entry-point.interface", i,
            "interface " + state.Name(id) + " is listed twice in entry point \"" + name + "\"");
        continue;
      }
      const InstIndex var = m.Def(id);
      // SPV_KHR_untyped_pointers: OpUntypedVariableKHR is a variable too.
      if (var == kNoInst ||
          (m.opcode(var) != Op::Variable && m.opcode(var) != Op::UntypedVariableKHR) ||
          m.FunctionOf(var) != ~0u) {
        state.Report("entry-point.interface", i,
                     "interface " + state.Name(id) + " of entry point \"" + name +
                         "\" is not a module-scope OpVariable");
        continue;
      }
      const auto sc = static_cast<spv::StorageClass>(m.word(var, 3));
      if (state.version() < SpirvVersion(1, 4) && sc != spv::StorageClass::Input &&
          sc != spv::StorageClass::Output) {
        state.Report("entry-point.interface", i,
                     "interface " + state.Name(id) + " of entry point \"" + name +
                         "\" is not of Input or Output storage class, which SPIR-V " +
                         VersionText(state.version()) + " requires (1.4 allows any)");
      }
    }
  }
  if (!any && !state.HasCapability(spv::Capability::Linkage)) {
    state.Report("layout.entry-point", kNoInst,
                 "the module has no OpEntryPoint and does not declare the Linkage capability");
  }
  for (const InstIndex i : found.execution_modes) {
    if (state.Full()) break;
    const Id target = m.word(i, 1);
    if (!entry_functions.count(target)) {
      state.Report("execution-mode.target", i,
                   state.Describe(i) + " applies to " + state.Name(target) +
                       ", which is not the function of an entry point");
    }
  }
}


}  // namespace

void ValidateLayout(ValidationState& state) {
  CheckVersion(state);
  ModuleLevel found;
  CheckOrder(state, &found);
  CheckEntryPoints(state, found);
}

}  // namespace coopspv::val
