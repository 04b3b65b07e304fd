#include "source/opt/coop_matrix_distribution.h"

namespace coopspv::opt {

SubgroupGrid GridOf(uint32_t subgroup_size) {
  // The largest divisor of S not above its square root gives the columns, so that an A row set
  // (replicated over the columns) is the smaller copy: S = 8 is 4 x 2, S = 32 is 8 x 4.
  uint32_t cols = 1;
  for (uint32_t d = 1; uint64_t{d} * d <= subgroup_size; ++d) {
    if (subgroup_size % d == 0) cols = d;
  }
  return {subgroup_size / cols, cols};
}

bool ParseCoopDistributionStrategy(std::string_view argument, std::string_view* size_text,
                                   CoopDistributionChoice* choice, std::string* error) {
  const size_t comma = argument.find(',');
  *size_text = argument.substr(0, comma);
  choice->grid = false;
  if (comma == std::string_view::npos) return true;
  const std::string_view strategy = argument.substr(comma + 1);
  if (strategy == "tile") {
    choice->grid = true;
  } else if (strategy != "linear") {
    *error = "expected 'tile' or 'linear' after the subgroup size, found '" +
             std::string(strategy) + "'";
    return false;
  }
  return true;
}

CoopDistribution DistributionOf(const CoopDistributionChoice& choice, std::optional<uint32_t> use,
                                uint64_t rows, uint64_t cols) {
  const SubgroupGrid g = GridOf(choice.subgroup_size);
  if (!use || !choice.grid) return CoopDistribution::kLinear;
  switch (*use) {
    case 0:  // MatrixAKHR
      return rows % g.rows == 0 ? CoopDistribution::kRows : CoopDistribution::kLinear;
    case 1:  // MatrixBKHR
      return cols % g.cols == 0 ? CoopDistribution::kCols : CoopDistribution::kLinear;
    case 2:  // MatrixAccumulatorKHR
      return rows % g.rows == 0 && cols % g.cols == 0 ? CoopDistribution::kTile
                                                      : CoopDistribution::kLinear;
    default:
      return CoopDistribution::kLinear;
  }
}

uint64_t DistributedLength(CoopDistribution d, uint64_t rows, uint64_t cols,
                           uint32_t subgroup_size) {
  const SubgroupGrid g = GridOf(subgroup_size);
  switch (d) {
    case CoopDistribution::kTile:
      return rows / g.rows * (cols / g.cols);
    case CoopDistribution::kRows:
      return rows / g.rows * cols;
    case CoopDistribution::kCols:
      return rows * (cols / g.cols);
    case CoopDistribution::kLinear:
      break;
  }
  return (rows * cols + subgroup_size - 1) / subgroup_size;
}

}  // namespace coopspv::opt
