// --tile-coop-matrix: splits the Subgroup-scope KHR cooperative matrix types a device does not
// list into grids of tiles it lists (tile_coop_matrix.cc's head comment has the details).
#ifndef COOPSPV_SOURCE_OPT_TILE_COOP_MATRIX_H_
#define COOPSPV_SOURCE_OPT_TILE_COOP_MATRIX_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "source/opt/legalize_for_device.h"
#include "source/opt/pass.h"
#include "source/profile/device_profile.h"

namespace coopspv::opt {

// One VkCooperativeMatrixPropertiesKHR entry of Subgroup scope.
struct TileShape {
  uint32_t m, n, k;
  profile::ComponentType a, b, c, result;
  bool saturating;
};

// The element-wise arithmetic and conversions on cooperative matrices that a matrix split into
// pieces (tiles, row bands) does piece by piece, each piece's result from the same pieces of
// its operands.
bool IsPiecewiseMatrixOp(spv::Op op);

// The profile's Subgroup-scope entries.
std::vector<TileShape> TileShapesOf(const profile::DeviceProfile& profile);
// The argument of --tile-coop-matrix: empty gives the default shapes (the H100's list), else a
// device profile (a built-in name or a JSON file). Sets *error and returns false when the
// profile cannot be read.
bool TileShapesFromArgument(std::string_view argument, std::vector<TileShape>* shapes,
                            std::string* error);
// Runs the tiling on `module` (as the pass does): Unchanged, Rebuilt or Failed.
PassResult TileCoopMatrices(ir::Module& module, std::vector<TileShape> shapes);
std::unique_ptr<Pass> CreateTileCoopMatrixPass(std::vector<TileShape> shapes);
// The first Subgroup-scope KHR matrix type or multiply-add of `module` that none of `shapes`
// lists (in the form its Use or the multiply-add needs), described for a diagnostic; empty when
// every one is listed. With `types`, appends the result type of every such multiply-add and
// every such type (what LowerCoopMatrixTypes lowers to plain code).
std::string UnlistedCoopMatrix(const ir::Module& module, std::vector<TileShape> shapes,
                               std::vector<uint32_t>* types = nullptr);
// The matrices UnlistedCoopMatrix finds, and every matrix type an instruction relates to them,
// lowered to plain code for this subgroup size (LowerCoopMatrixTypes); the others stay.
// Unchanged when every matrix is listed; Failed naming the first unlisted one when the lowering
// fails.
PassResult LowerUnlistedCoopMatrices(ir::Module& module, uint32_t subgroup_size,
                                     const std::vector<TileShape>& shapes);
std::unique_ptr<Pass> CreateLowerUnlistedCoopMatrixPass(uint32_t subgroup_size,
                                                        std::vector<TileShape> shapes);
// --lower-coop-matrix2=<subgroup size>,<profile> with the profile's shapes given: a multiply-add
// is split by rows only into pieces a shape's M divides, and the result is tiled
// (lower_coop_matrix2.cc); without shapes, nothing is tiled. With a shared_memory_limit (the
// device's maxComputeSharedMemorySize; 0: none), an output above it is lowered again with the
// multiply-adds replicated, and the pass fails when that is still above it.
std::unique_ptr<Pass> CreateLowerCoopMatrix2DevicePass(uint32_t subgroup_size,
                                                       std::optional<std::vector<TileShape>> shapes,
                                                       uint32_t shared_memory_limit);
}  // namespace coopspv::opt

#endif  // COOPSPV_SOURCE_OPT_TILE_COOP_MATRIX_H_
