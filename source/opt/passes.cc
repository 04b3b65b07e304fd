#include "source/opt/passes.h"

#include <algorithm>

#include "source/binary/reader.h"
#include "source/common/literal.h"

namespace coopspv::opt {
namespace {

constexpr PassInfo kPasses[] = {
    {"set-spec-const-default-value", "\"<spec id>:<value> ...\"",
     "Set the default values of the specialization constants with these SpecIds.",
     CreateSetSpecConstDefaultValuePass},
    {"freeze-spec-const", nullptr,
     "Turn every specialization constant into a constant with its default value.",
     CreateFreezeSpecConstPass},
    {"fold-spec-const", nullptr,
     "Evaluate OpSpecConstantOp / OpSpecConstantComposite of constants, then merge types and "
     "constants that became identical.",
     CreateFoldSpecConstPass},
    {"fold-coop-length", "=<subgroup size>[,tile]",
     "Replace OpCooperativeMatrixLength{KHR,NV} with ceil(rows * columns / invocations in "
     "scope), or with ',tile' the length --lower-coop-matrix=<subgroup size>,tile gives.",
     CreateFoldCoopLengthPass},
    {"lower-coop-matrix2", "=<subgroup size>[,<device profile>]",
     "Rewrite SPV_NV_cooperative_matrix2 / SPV_NV_tensor_addressing onto Subgroup-scope KHR "
     "matrices, Workgroup memory and plain code (first slice: tensor layouts and tensor "
     "loads / stores; fails naming any other instruction); the module must then run with this "
     "subgroup size. With a device profile, --tile-coop-matrix for it follows; matrices no "
     "listed shape takes even as tiles become plain code (with every matrix they meet), and the "
     "output stays within its maxComputeSharedMemorySize (multiply-adds replicated) or the "
     "pass fails.",
     CreateLowerCoopMatrix2Pass},
    {"lower-coop-matrix", "=<subgroup size>[,tile]",
     "Rewrite Subgroup-scope KHR / NV cooperative matrices into arrays, scalar arithmetic and "
     "subgroup shuffles, for drivers without the extensions; the module must then run with "
     "this subgroup size. With ',tile' (for GPUs), KHR accumulators become register tiles and "
     "MatrixA / MatrixB whole rows / columns per invocation, so that a multiply-add needs no "
     "shuffle.",
     CreateLowerCoopMatrixPass},
    {"eliminate-dead", nullptr,
     "Remove unused functions, types, constants, variables, and their names and decorations.",
     CreateEliminateDeadPass},
    {"compact-ids", nullptr, "Renumber ids densely in order of first appearance.",
     CreateCompactIdsPass},
    {"lower-coop-vector",
     "=[<atomic-float16-add,atomic-float32-add,atomic-float64-add,optimal-as-row-major|"
     "optimal-as-column-major,lower-long-vectors>]",
     "Rewrite SPV_NV_cooperative_vector types and instructions into per-invocation arrays / "
     "vectors and loops; the argument names the atomic float adds the target supports (for the "
     "training instructions), optionally the layout the application converts optimal-layout "
     "matrices into instead (row- or column-major, tight stride), and lower-long-vectors for a "
     "target without VK_EXT_shader_long_vector (SPV_EXT_long_vector's vectors become arrays "
     "too).",
     CreateLowerCoopVectorPass},
    {"strip-decode-vector", nullptr,
     "Drop the DecodeVectorFunc operands of OpCooperativeMatrixLoadTensorNV (DecodeFunc is then "
     "called for every element), with the capability, the extension and the functions only they "
     "named, for devices without VK_NV_cooperative_matrix_decode_vector.",
     CreateStripDecodeVectorPass},
    {"strip-nonsemantic", nullptr,
     "Remove the non-semantic instructions (debug info of NonSemantic.* sets), their imports and "
     "SPV_KHR_non_semantic_info / SPV_KHR_relaxed_extended_instruction, as spirv-opt's "
     "--strip-nonsemantic; --legalize-for-device runs it for devices without those extensions.",
     CreateStripNonSemanticPass},
    {"coop-matrix-nv-to-khr", "=[<smallest subgroup size>]",
     "Rewrite SPV_NV_cooperative_matrix types and instructions onto SPV_KHR_cooperative_matrix, "
     "inferring each matrix's Use from the multiply-adds it reaches; a value used in two Uses is "
     "copied through a per-subgroup Workgroup scratch, one slice per subgroup of the smallest "
     "size given (1 without the argument).",
     CreateCoopMatrixNvToKhrPass},
    {"lower-small-floats", nullptr,
     "Rewrite bfloat16 and float8 (E4M3 / E5M2) scalars and vectors into unsigned integers "
     "holding their bits, each conversion or arithmetic operation done in float32 and rounded "
     "back to nearest even, for devices without shaderBFloat16Type / shaderFloat8; refuses the "
     "OCP microscaling types (SPV_EXT_ocp_microscaling_types).",
     CreateLowerSmallFloatsPass},
    {"tile-coop-matrix", "=[<device profile: JSON file or built-in name>]",
     "Split every Subgroup-scope KHR cooperative matrix type whose shape the device does not "
     "list into a grid of tiles it lists (without a profile: the H100's shapes); fails naming "
     "an instruction on such a type that it cannot split.",
     CreateTileCoopMatrixPass},
    {"band-coop-matrix2", "=<band rows>",
     "Split every Workgroup-scope matrix type whose instructions all work row by row (tensor "
     "loads and stores of a slice, multiply-adds as A or C, element-wise arithmetic) into row "
     "bands of this height, each instruction done band by band, so that --lower-coop-matrix2 "
     "needs Workgroup regions of a band only (--lower-coop-matrix2=S,<profile> does it when the "
     "output would not fit).",
     CreateBandCoopMatrix2Pass},
    {"legalize-for-device", "=<device profile: JSON file, JSON text or built-in name>",
     "Rewrite the module so that the profile's device accepts it: strip decode vectors, NV "
     "matrices onto KHR, lower matrices / vectors the device lacks; fail naming what cannot be "
     "fixed.",
     CreateLegalizeForDeviceFromProfile},
};

}  // namespace

std::span<const PassInfo> AllPasses() { return kPasses; }

bool IsDecoration(spv::Op op) {
  switch (op) {
    case spv::Op::Decorate:
    case spv::Op::DecorateId:
    case spv::Op::DecorateString:
    case spv::Op::MemberDecorate:
    case spv::Op::MemberDecorateString:
      return true;
    default:
      return false;
  }
}

std::string DescribeInstruction(const ir::Module& m, ir::InstIndex i) {
  const auto op = static_cast<uint32_t>(m.opcode(i));
  const auto* info = grammar::LookupOpcode(op);
  std::string name = info ? info->name : "Op" + std::to_string(op);
  if (name.rfind("Op", 0) != 0) name = "Op" + name;
  const ir::Id r = m.result_id(i);
  return r ? "%" + std::to_string(r) + " = " + name : name;
}

ir::Id FindInputBuiltin(const ir::Module& m, spv::BuiltIn builtin) {
  for (ir::InstIndex i = 0; i < m.global_end(); ++i) {
    if (m.opcode(i) != spv::Op::Decorate || m.num_words(i) != 4 ||
        m.word(i, 2) != static_cast<uint32_t>(spv::Decoration::BuiltIn) ||
        m.word(i, 3) != static_cast<uint32_t>(builtin)) {
      continue;
    }
    const ir::Id variable = m.word(i, 1);
    const ir::InstIndex v = m.Def(variable);
    if (v == ir::kNoInst || m.opcode(v) != spv::Op::Variable ||
        m.word(v, 3) != static_cast<uint32_t>(spv::StorageClass::Input)) {
      continue;
    }
    const ir::InstIndex pointer = m.Def(m.type_id(v));
    if (pointer == ir::kNoInst || m.opcode(pointer) != spv::Op::TypePointer) continue;
    const ir::InstIndex pointee = m.Def(m.word(pointer, 3));
    if (pointee != ir::kNoInst && m.opcode(pointee) == spv::Op::TypeInt &&
        m.word(pointee, 2) == 32 && m.word(pointee, 3) == 0) {
      return variable;
    }
  }
  return 0;
}

bool InterfaceLists(const ir::Module& m, ir::InstIndex entry, ir::Id id) {
  const std::span<const uint32_t> interface = ir::EntryPointInterface(m.inst(entry));
  return std::find(interface.begin(), interface.end(), id) != interface.end();
}

// Appends to `out` the OpEntryPoint `entry` with those of `ids` its interface does not list yet
// added at the end.
static void PutEntryPointWithInterface(const ir::Module& m, ir::InstIndex entry,
                                       std::span<const ir::Id> ids, std::vector<uint32_t>* out) {
  const ir::Inst inst = m.inst(entry);
  const size_t start = out->size();
  out->insert(out->end(), inst.words.begin(), inst.words.end());
  for (ir::Id id : ids) {
    if (!InterfaceLists(m, entry, id)) out->push_back(id);
  }
  (*out)[start] = (static_cast<uint32_t>(out->size() - start) << 16) | (inst.words[0] & 0xffffu);
}

std::vector<uint32_t> RewritePreamble(const ir::Module& m, ir::InstIndex end,
                                      const std::function<bool(uint32_t)>& drop_capability,
                                      std::span<const uint32_t> add_capabilities,
                                      const std::function<bool(std::string_view)>& drop_extension,
                                      std::span<const ir::Id> interface) {
  std::vector<uint32_t> out(m.words().begin(), m.words().begin() + binary::kHeaderWords);
  std::vector<uint32_t> present;
  bool capabilities_done = false;
  for (ir::InstIndex i = 0; i < end; ++i) {
    const spv::Op op = m.opcode(i);
    const ir::Inst inst = m.inst(i);
    if (op == spv::Op::Capability) {
      if (!drop_capability(m.word(i, 1))) {
        present.push_back(m.word(i, 1));
        out.insert(out.end(), inst.words.begin(), inst.words.end());
      }
      continue;
    }
    if (!capabilities_done) {
      capabilities_done = true;
      for (uint32_t c : add_capabilities) {
        if (std::find(present.begin(), present.end(), c) != present.end()) continue;
        present.push_back(c);
        Put(out, spv::Op::Capability, {c});
      }
    }
    if (op == spv::Op::Extension && drop_extension(binary::DecodeString(inst.words.subspan(1)))) {
      continue;
    }
    if (op == spv::Op::EntryPoint) {
      PutEntryPointWithInterface(m, i, interface, &out);
      continue;
    }
    out.insert(out.end(), inst.words.begin(), inst.words.end());
  }
  return out;
}

bool ParseSubgroupSize(std::string_view argument, uint32_t* size, std::string* error) {
  bool negative = false;
  uint64_t value = 0;
  if (!ParseInteger(argument, &negative, &value) || negative || value == 0 || value > 128 ||
      (value & (value - 1)) != 0) {
    *error = "expected a subgroup size that is a power of two between 1 and 128, found '" +
             std::string(argument) + "'";
    return false;
  }
  *size = static_cast<uint32_t>(value);
  return true;
}

PassResult RebuiltResult(std::unique_ptr<ir::Module> module, const std::string& error) {
  if (!error.empty()) return PassResult::Failed(error);
  if (!module) return PassResult::Unchanged();
  Diagnostic d;
  if (auto merged = MergeDuplicateDeclarations(*module, &d)) {
    return PassResult::Rebuilt(std::move(merged));
  }
  return PassResult::Rebuilt(std::move(module));
}

std::unique_ptr<ir::Module> JoinAndRead(std::initializer_list<const std::vector<uint32_t>*> parts,
                                        uint32_t bound, std::string* error) {
  std::vector<uint32_t> words;
  for (const std::vector<uint32_t>* part : parts)
    words.insert(words.end(), part->begin(), part->end());
  words[3] = bound;
  Diagnostic d;
  auto module = ir::Module::Read(words, &d);
  if (!module) *error = "could not read back the lowered module: " + d.ToString();
  return module;
}

PassResult FinishRebuilt(ir::Builder& builder) {
  Diagnostic d;
  auto rebuilt = builder.Finish(&d);
  if (!rebuilt) return PassResult::Failed("could not rebuild the module: " + d.ToString());
  return PassResult::Rebuilt(std::move(rebuilt));
}

ir::Id IndexedType(const ir::Module& m, ir::Id type, std::optional<uint32_t> member) {
  const ir::InstIndex d = m.Def(type);
  if (d == ir::kNoInst) return 0;
  switch (m.opcode(d)) {
    case spv::Op::TypeStruct:
      return member && *member + 2 < m.num_words(d) ? m.word(d, 2 + *member) : 0;
    case spv::Op::TypeArray:
    case spv::Op::TypeRuntimeArray:
    case spv::Op::TypeVector:
    case spv::Op::TypeMatrix:
    case spv::Op::TypeCooperativeMatrixKHR:
      return m.word(d, 2);
    default:
      return 0;
  }
}

ir::Id DeclareWhileRewriting(ir::Builder& builder, ir::Declarations& declarations,
                             ir::InstIndex first, ir::InstIndex current, spv::Op op,
                             std::span<const uint32_t> operands, ir::Declarations::Reuse reuse) {
  return declarations.FindOrAdd(op, operands, reuse, [&](spv::Op o, std::span<const uint32_t> w) {
    if (current == ir::kNoInst) {
      builder.SetInsertBefore(first);
    } else {
      builder.SetInsertBeforeFunctions();
    }
    const ir::Id id = builder.AddDeclaration(o, w);
    if (current != ir::kNoInst) builder.SetInsertBefore(current);
    return id;
  });
}

PassResult FinishMergingDeclarations(ir::Builder& builder) {
  PassResult result = FinishRebuilt(builder);
  if (!result.rebuilt) return result;
  Diagnostic d;
  if (auto merged = MergeDuplicateDeclarations(*result.rebuilt, &d)) {
    result.rebuilt = std::move(merged);
  }
  return result;
}

const PassInfo* FindPass(std::string_view flag) {
  for (const PassInfo& p : kPasses) {
    if (flag == p.flag) return &p;
  }
  return nullptr;
}

}  // namespace coopspv::opt
