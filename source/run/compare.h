// EXPECT evaluation and buffer comparison on buffer contents read back from a device.
#ifndef COOPSPV_SOURCE_RUN_COMPARE_H_
#define COOPSPV_SOURCE_RUN_COMPARE_H_

#include <cstdint>
#include <span>

#include "include/coopspv/run.hpp"
#include "source/run/script.h"

namespace coopspv::run {

// Evaluates an EXPECT command. `bytes` holds `type`-typed elements of the command's buffer,
// `other` those of the second buffer of EQ_BUFFER / RMSE_BUFFER (empty otherwise). Fills
// passed, first_mismatch, mismatches, the errors and a message; line and command are the
// caller's.
void EvaluateExpect(const Command& command, const DataType& type, std::span<const uint8_t> bytes,
                    std::span<const uint8_t> other, ExpectReport* report);

// Evaluates an EXPECT ... IDX x y SIZE w h EQ_RGB / EQ_RGBA: each texel of the rectangle of an
// image `width` texels wide holding `type`-typed texels, as Amber's probe compares them
// (normalized formats scaled to [0, 1], within the tolerances, 0.002 by default). first_mismatch
// is the first failing texel's index (y * width + x), mismatches the failing texels.
void EvaluateProbe(const Command& command, const DataType& type, uint32_t width,
                   std::span<const uint8_t> bytes, ExpectReport* report);

// Compares two runs' contents of one buffer: integers exactly, floats within
// max(tolerance, tolerance * |expected|) (NaN equals NaN).
void CompareBuffers(const DataType& type, std::span<const uint8_t> expected,
                    std::span<const uint8_t> actual, double tolerance, BufferComparison* out);

// Units in the last place between two floats of `type` (0 for integers).
double UlpDistance(uint64_t a, uint64_t b, const DataType& type);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_COMPARE_H_
