// Row bands of Workgroup-scope cooperative matrices, before --lower-coop-matrix2 (see the .cc).
#ifndef COOPSPV_SOURCE_OPT_BAND_COOP_MATRIX2_H_
#define COOPSPV_SOURCE_OPT_BAND_COOP_MATRIX2_H_

#include <cstdint>

#include "source/ir/module.h"
#include "source/opt/pass.h"

namespace coopspv::opt {

// Splits every Workgroup-scope R x C matrix type whose instructions all work row by row (or
// reduce, see the .cc) into an array of N matrices of R / N x C under the same id, N the tallest
// related type's rows / `band_rows` (at least 2): Rebuilt, or Unchanged when no type qualifies.
PassResult BandCoopMatrix2(const ir::Module& module, uint32_t band_rows);

}  // namespace coopspv::opt

#endif  // COOPSPV_SOURCE_OPT_BAND_COOP_MATRIX2_H_
