// The pass registry: every pass with its flag, argument and one-line help, and the factories.
#ifndef COOPSPV_SOURCE_OPT_PASSES_H_
#define COOPSPV_SOURCE_OPT_PASSES_H_

#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "source/ir/builder.h"
#include "source/ir/declarations.h"
#include "source/opt/pass.h"

namespace coopspv::opt {

struct PassInfo {
  const char* flag;  // Without "--".
  // How the argument is written in --help, nullptr when there is none; "=[...]" when it may be
  // left out.
  const char* argument;
  const char* help;  // One line.
  std::unique_ptr<Pass> (*create)(std::string_view argument, std::string* error);
};

std::span<const PassInfo> AllPasses();
const PassInfo* FindPass(std::string_view flag);

std::unique_ptr<Pass> CreateSetSpecConstDefaultValuePass(std::string_view argument,
                                                         std::string* error);
std::unique_ptr<Pass> CreateFreezeSpecConstPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateFoldSpecConstPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateFoldCoopLengthPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateLowerCoopMatrixPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateLowerCoopMatrix2Pass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateBandCoopMatrix2Pass(std::string_view argument, std::string* error);
// --lower-coop-matrix=<subgroup size> (linear distribution) for the given Subgroup-scope matrix
// types and every matrix type an instruction relates to them (a multiply-add's operands, a
// conversion's source, ...); the module's other matrices stay as they are, with their
// capabilities. Unchanged when `types` names no matrix type of the module.
PassResult LowerCoopMatrixTypes(ir::Module& module, uint32_t subgroup_size,
                                const std::vector<uint32_t>& types);
std::unique_ptr<Pass> CreateEliminateDeadPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateCompactIdsPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateLowerCoopVectorPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateStripDecodeVectorPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateStripNonSemanticPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateCoopMatrixNvToKhrPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateLowerSmallFloatsPass(std::string_view argument, std::string* error);
// --tile-coop-matrix[=<device profile>] (tile_coop_matrix.h).
std::unique_ptr<Pass> CreateTileCoopMatrixPass(std::string_view argument, std::string* error);
// --legalize-for-device=<profile>: reads the profile with LegalizeTargetFromProfile
// (legalize_for_device.h).
std::unique_ptr<Pass> CreateLegalizeForDeviceFromProfile(std::string_view argument,
                                                         std::string* error);

// OpDecorate, OpDecorateId, OpDecorateString, OpMemberDecorate, OpMemberDecorateString.
bool IsDecoration(spv::Op op);

// "%12 = OpName" (or "OpName" when the instruction has no result), for failure messages.
std::string DescribeInstruction(const ir::Module& module, ir::InstIndex i);

// The Input variable decorated BuiltIn `builtin` whose pointee is a 32-bit unsigned integer (e.g.
// the module's own SubgroupLocalInvocationId), 0 when there is none: a pass that needs the builtin
// loads that one, as an entry point may not list two variables of one builtin.
ir::Id FindInputBuiltin(const ir::Module& module, spv::BuiltIn builtin);
// Whether the OpEntryPoint `entry` lists `id` in its interface.
bool InterfaceLists(const ir::Module& module, ir::InstIndex entry, ir::Id id);
// Appends to `out` the instruction `op` with `words` (its words after the first).
inline void Put(std::vector<uint32_t>& out, spv::Op op, std::span<const uint32_t> words) {
  out.push_back((static_cast<uint32_t>(words.size() + 1) << 16) | static_cast<uint32_t>(op));
  out.insert(out.end(), words.begin(), words.end());
}
inline void Put(std::vector<uint32_t>& out, spv::Op op, std::initializer_list<uint32_t> words) {
  Put(out, op, std::span<const uint32_t>(words.begin(), words.size()));
}

// The header and the module's instructions before `end` (its preamble), for a pass that rebuilds
// the module from word vectors: without the capabilities `drop_capability` and the extensions
// `drop_extension` names, with those of `add_capabilities` not declared yet after the others,
// and `interface` added to every OpEntryPoint that does not list them yet.
std::vector<uint32_t> RewritePreamble(const ir::Module& module, ir::InstIndex end,
                                      const std::function<bool(uint32_t)>& drop_capability,
                                      std::span<const uint32_t> add_capabilities,
                                      const std::function<bool(std::string_view)>& drop_extension,
                                      std::span<const ir::Id> interface);

// The argument of a lowering pass that runs with a fixed subgroup size: a power of two from 1
// to 128. Sets *error (and returns false) otherwise.
bool ParseSubgroupSize(std::string_view argument, uint32_t* size, std::string* error);

// The result of a pass that rebuilds the module: failed with `error` when it is set, unchanged
// when there is no module, else the module with its duplicate declarations merged.
PassResult RebuiltResult(std::unique_ptr<ir::Module> module, const std::string& error);

// The words of `parts` one after the other (the first starts with the header) with the bound
// set, read back as a module; null (and *error set) when that fails.
std::unique_ptr<ir::Module> JoinAndRead(std::initializer_list<const std::vector<uint32_t>*> parts,
                                        uint32_t bound, std::string* error);

// A pass that runs with a fixed subgroup size (or a fixed Argument holding it):
// `Lowering(module, argument).Run(&error, &changed)` returns the rebuilt module.
template <class Lowering, class Argument = uint32_t>
class SubgroupLoweringPass : public Pass {
 public:
  SubgroupLoweringPass(const char* name, const Argument& argument)
      : name_(name), argument_(argument) {}
  const char* name() const override { return name_; }
  PassResult Run(ir::Module& m) override {
    Lowering lowering(m, argument_);
    std::string error;
    bool changed = false;
    auto lowered = lowering.Run(&error, &changed);
    return RebuiltResult(changed ? std::move(lowered) : nullptr, error);
  }

 private:
  const char* name_;
  Argument argument_;
};

template <class Lowering>
std::unique_ptr<Pass> CreateSubgroupLoweringPass(const char* name, std::string_view argument,
                                                 std::string* error) {
  uint32_t size = 0;
  if (!ParseSubgroupSize(argument, &size, error)) return nullptr;
  return std::make_unique<SubgroupLoweringPass<Lowering>>(name, size);
}

// Merges types and constants whose declarations became identical (after renaming the ids they
// use): each duplicate's uses move to the first declaration and the duplicate goes. Decorated
// ids, structs and forward-declared pointers are left alone. Returns null when nothing merged.
std::unique_ptr<ir::Module> MergeDuplicateDeclarations(const ir::Module& module,
                                                       Diagnostic* diagnostic);

// The end of a rebuilding pass: the builder's module (the result of Rebuilt), or Failed when the
// builder cannot write it.
PassResult FinishRebuilt(ir::Builder& builder);

// The end of a rebuilding pass: the builder's module with MergeDuplicateDeclarations applied
// (the result of Rebuilt), or Failed when the builder cannot write it.
PassResult FinishMergingDeclarations(ir::Builder& builder);

// The type one index into `type` reaches (an access chain's or a composite's step): a struct's
// member `member` (nullopt: the index is no constant), an array's, runtime array's, vector's,
// matrix's or cooperative matrix's element; 0 when there is none.
ir::Id IndexedType(const ir::Module& m, ir::Id type, std::optional<uint32_t> member);

// Sets of ids that instructions relate (union-find with path halving): the matrix types a pass
// must treat alike.
class IdSets {
 public:
  void Add(ir::Id id) { parent_.emplace(id, id); }
  bool Contains(ir::Id id) const { return parent_.count(id) != 0; }
  // The representative of id's set (id must have been added).
  ir::Id Find(ir::Id id) {
    while (parent_[id] != id) id = parent_[id] = parent_[parent_[id]];
    return id;
  }
  // Joins the sets of two added ids.
  void Join(ir::Id a, ir::Id b) { parent_[Find(a)] = Find(b); }
  const std::map<ir::Id, ir::Id>& ids() const { return parent_; }  // Each added id, as a key.

 private:
  std::map<ir::Id, ir::Id> parent_;
};

// A type or constant that a pass rewriting a module through `builder` needs: the one
// `declarations` has (or, with Reuse::kModule, the module's), else a new one, placed before
// instruction `first` (the first type the pass redefines, whose new form uses it) when no
// instruction is being rewritten (`current` kNoInst), else before the functions (the code being
// rewritten uses it); the cursor goes back before `current`.
ir::Id DeclareWhileRewriting(ir::Builder& builder, ir::Declarations& declarations,
                             ir::InstIndex first, ir::InstIndex current, spv::Op op,
                             std::span<const uint32_t> operands, ir::Declarations::Reuse reuse);
inline ir::Id DeclareWhileRewriting(ir::Builder& builder, ir::Declarations& declarations,
                                    ir::InstIndex first, ir::InstIndex current, spv::Op op,
                                    std::initializer_list<uint32_t> operands,
                                    ir::Declarations::Reuse reuse) {
  return DeclareWhileRewriting(builder, declarations, first, current, op,
                               std::span<const uint32_t>(operands.begin(), operands.size()),
                               reuse);
}

}  // namespace coopspv::opt

#endif  // COOPSPV_SOURCE_OPT_PASSES_H_
