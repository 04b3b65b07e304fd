// Workgroup votes: branch conditions that are the same in the whole workgroup although the value
// they test is per invocation.
//
// The idiom (ggml's flash attention skips a block of keys this way, and a workgroup maximum is
// formed the same way):
//
//   x = per-invocation value                     // own
//   v = subgroupAll(x <= k)   or   v = subgroupMax(x)
//   if (subgroupInvocationID == 0)   (or subgroupElect())
//     slot[gl_SubgroupID] = v ? a : b   or   slot[gl_SubgroupID] = v     // Workgroup memory
//   barrier()
//   m = x
//   for (s = 0; s < gl_NumSubgroups; ++s) m = max(m, slot[s])
//   if (m <= k) ...                              // the same in every invocation
//
// m differs per invocation, but `m <= k` does not: max distributes over `<=`, so it holds exactly
// when x <= k for the invocation itself and for every subgroup's slot; a slot says whether x <= k
// in every invocation of its subgroup, and the loop reads the invocation's own subgroup's slot
// too, so the condition is "x <= k in every invocation of the workgroup" (likewise min and `>=`).
//
// What the proof takes from the environment, each a rule a valid module and a well-defined
// execution follow:
// - no NaN (Vulkan lets implementations assume operands are not NaN unless the entry point
//   declares SignedZeroInfNanPreserve for the width: the proof is not tried then, nor under
//   float_controls2, nor for a target environment other than Vulkan);
// - floats compared and folded exactly: the proof is not tried for a threshold k of 0 or a
//   denormal (Vulkan lets any instruction flush a denormal to 0, so a test against 0 could tell
//   x and max(x, ...) apart), nor in a module with RelaxedPrecision on anything but integers (a
//   test or a max at 16-bit precision could round x to the other side of k);
// - no data race on the slots (the analysis assumes it for all shared memory);
// - an OpControlBarrier of Workgroup execution scope is executed by every invocation of the
//   workgroup;
// - the invocation with SubgroupLocalInvocationId 0 of each subgroup is active in control flow
//   that the whole workgroup executes;
// - invocations reconverge at merge blocks (as the rest of the analysis assumes), so the vote,
//   on the one path that leads to the barrier, counts every invocation of its subgroup.
//
// The proof is on the module's own instructions: values held in Function variables (loaded and
// stored whole) are followed to their stores along the control flow graph (SSA built on demand
// for the variables the proof reads), OpPhi in SSA form alike.
#ifndef COOPSPV_SOURCE_VAL_UNIFORMITY_VOTES_H_
#define COOPSPV_SOURCE_VAL_UNIFORMITY_VOTES_H_

#include <cstdint>
#include <span>

#include "source/common/workspace.h"
#include "source/ir/module.h"
#include "source/val/state.h"

namespace coopspv::val {

struct VoteInputs {
  // Per id: the BuiltIn decoration + 1 of a variable, 0 for none.
  std::span<const uint8_t> builtin;
  // Per id: 1 for a Function variable used only by whole OpLoad / OpStore.
  std::span<const uint8_t> whole_variable;
  // The OpStore instructions into those variables, in order.
  std::span<const InstIndex> whole_stores;
  // The subgroup votes and reductions of the module (OpGroupNonUniformAll, -FMax, -FMin).
  std::span<const InstIndex> votes;
};

// The pointer that `pointer` is derived from through access chains and copies: a variable, a
// function parameter, or a pointer loaded or computed otherwise (itself then); 0 for an undefined
// id or a chain deeper than 256.
Id PointerBase(const ir::Module& m, Id pointer);

// The comparisons (in order) that the idiom above proves uniform in the workgroup.
ws::vector<InstIndex> ProveWorkgroupVotes(const ValidationState& state, const VoteInputs& in);

}  // namespace coopspv::val

#endif  // COOPSPV_SOURCE_VAL_UNIFORMITY_VOTES_H_
