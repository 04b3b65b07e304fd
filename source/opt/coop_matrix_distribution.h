// Which invocation of a subgroup holds which element of a Subgroup-scope cooperative matrix once
// --lower-coop-matrix=<S>[,tile] has turned it into an array (and so what OpCooperativeMatrixLength
// is: --fold-coop-length folds it to the same number). SPV_KHR_cooperative_matrix leaves the
// mapping to the implementation; this one is chosen per matrix type, from its Use and shape alone,
// so that OpCooperativeMatrixMulAddKHR needs no exchange between invocations (",tile"; without it
// every matrix is kLinear).
//
// The subgroup is a grid of gr x gc invocations (GridOf: S = 8 is 4 x 2, S = 32 is 8 x 4):
// lane = lr * gc + lc. For M x N results:
// - kTile (Accumulator, gr | M and gc | N): lane holds the rows lr, lr + gr, ... and the columns
//   lc, lc + gc, ...: element (r, c) in lane (r % gr) * gc + c % gc, slot (r / gr) * (N / gc) +
//   c / gc. A register tile of (M / gr) x (N / gc) elements.
// - kRows (MatrixA M x K, gr | M): lane holds its rows lr, lr + gr, ... whole: element (r, k) in
//   slot (r / gr) * K + k of every lane whose lr = r % gr (replicated over the gc lanes of a
//   grid row).
// - kCols (MatrixB K x N, gc | N): lane holds its columns lc, lc + gc, ... whole: element (k, c)
//   in slot k * (N / gc) + c / gc of every lane whose lc = c % gc (replicated over the gr lanes
//   of a grid column).
// - kLinear (every other matrix: NV types, which have no Use, and shapes the grid does not
//   divide): the R x C elements numbered row-major, e = r * C + c, element e in lane e % S,
//   slot e / S; the last slot padding when S does not divide R * C.
// With these, a multiply-add of kRows, kCols and kTile operands reads only the invocation's
// own slots: row r of its result tile is row r of its A rows, column c of its B columns.
#ifndef COOPSPV_SOURCE_OPT_COOP_MATRIX_DISTRIBUTION_H_
#define COOPSPV_SOURCE_OPT_COOP_MATRIX_DISTRIBUTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace coopspv::opt {

enum class CoopDistribution { kLinear, kTile, kRows, kCols };

struct SubgroupGrid {
  uint32_t rows = 1, cols = 1;  // rows * cols = S; rows >= cols, as square as S allows.
};
SubgroupGrid GridOf(uint32_t subgroup_size);

// The distribution a pass argument asks for: "<S>" (every matrix linear, the default: what
// suits a CPU driver, whose subgroup shuffles are cheap and whose compiler prefers small code)
// or "<S>,tile" (the grid distributions: what suits a GPU).
struct CoopDistributionChoice {
  uint32_t subgroup_size = 0;
  bool grid = false;
};
// Splits "<size>[,tile|,linear]": the size text goes to *size_text, the strategy to *choice.
bool ParseCoopDistributionStrategy(std::string_view argument, std::string_view* size_text,
                                   CoopDistributionChoice* choice, std::string* error);

// use: the KHR Use operand's value (0 MatrixA, 1 MatrixB, 2 Accumulator), nullopt for NV types.
// kLinear unless `choice.grid`.
CoopDistribution DistributionOf(const CoopDistributionChoice& choice, std::optional<uint32_t> use,
                                uint64_t rows, uint64_t cols);

// Elements per invocation (OpCooperativeMatrixLength).
uint64_t DistributedLength(CoopDistribution d, uint64_t rows, uint64_t cols,
                           uint32_t subgroup_size);

}  // namespace coopspv::opt

#endif  // COOPSPV_SOURCE_OPT_COOP_MATRIX_DISTRIBUTION_H_
