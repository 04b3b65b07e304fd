// Row bands of Workgroup-scope cooperative matrices, before --lower-coop-matrix2 (see the .cc).
#ifndef COOPSPV_SOURCE_OPT_BAND_COOP_MATRIX2_H_
#define COOPSPV_SOURCE_OPT_BAND_COOP_MATRIX2_H_

#include <cstdint>

#include "source/ir/module.h"
#include "source/opt/pass.h"

namespace coopspv::opt {

// Splits every Workgroup-scope R x C matrix type whose instructions all work row by row (R a
// multiple of `band_rows` and above it) into an array of R / band_rows matrices of band_rows x C,
// under the same id: Rebuilt, or Unchanged when no type qualifies.
PassResult BandCoopMatrix2(const ir::Module& module, uint32_t band_rows);

}  // namespace coopspv::opt

#endif  // COOPSPV_SOURCE_OPT_BAND_COOP_MATRIX2_H_
