// Row bands of Workgroup-scope cooperative matrices, before --lower-coop-matrix2 (see the .cc).
#ifndef COOPSPV_SOURCE_OPT_BAND_COOP_MATRIX2_H_
#define COOPSPV_SOURCE_OPT_BAND_COOP_MATRIX2_H_

#include <cstdint>
#include <set>

#include "source/ir/module.h"
#include "source/opt/pass.h"

namespace coopspv::opt {

// Splits every Workgroup-scope R x C matrix type whose instructions all work row by row (or
// reduce, see the .cc) into an array of N matrices of R / N x C under the same id, N the tallest
// related type's rows / `band_rows` (at least 2): Rebuilt, or Unchanged when no type qualifies.
PassResult BandCoopMatrix2(const ir::Module& module, uint32_t band_rows);

// Each subgroup owning its rows (see the .cc): with a workgroup of W subgroups of
// `subgroup_size` (every entry point's), every Workgroup-scope R x C matrix type the bands can
// take, R / W a multiple of `min_rows`, becomes under the same id the Subgroup-scope R / W x C
// type, subgroup g (SubgroupId) holding rows [g * R / W, (g + 1) * R / W): Rebuilt, or Unchanged
// when no type qualifies (or the module is older than SPIR-V 1.3, or W < 2).
// `owned` (when given) receives the owned types' ids, or nothing when one of them merged with
// another type of the module.
PassResult OwnCoopMatrix2Rows(const ir::Module& module, uint32_t subgroup_size, uint32_t min_rows,
                              std::set<ir::Id>* owned = nullptr);

}  // namespace coopspv::opt

#endif  // COOPSPV_SOURCE_OPT_BAND_COOP_MATRIX2_H_
