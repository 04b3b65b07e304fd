#include "source/run/compare.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "source/run/format.h"

namespace coopspv::run {
namespace {

// Float bits to an integer that orders like the value (negative values mirrored below zero).
int64_t OrderedBits(uint64_t bits, uint32_t width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  const uint64_t magnitude = bits & (sign - 1);
  return (bits & sign) ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
}

std::string FormatValue(double v, const DataType& type) {
  char text[64];
  if (type.kind == DataType::kFloat) {
    std::snprintf(text, sizeof(text), "%.9g", v);
  } else {
    std::snprintf(text, sizeof(text), "%.0f", v);
  }
  return text;
}

// Visits every stored component (vec3 padding skipped) as (element, component, bits).
template <typename F>
void ForEachComponent(const DataType& type, std::span<const uint8_t> bytes, F&& f) {
  const uint64_t elements = bytes.size() / type.ElementBytes();
  for (uint64_t e = 0; e < elements; ++e) {
    for (uint32_t c = 0; c < type.ComponentCount(); ++c) {
      const uint8_t* p = bytes.data() + e * type.ElementBytes() + type.ComponentOffset(c);
      f(e, c, ReadComponentBits(p, type));
    }
  }
}

// EQ on a float without TOLERANCE, as Amber's verifier compares: a value written as an integer
// exactly, any other within a relative 1e-8 (its kEpsilon, 0.000001, taken as a percentage),
// NaN equal to NaN.
bool AmberEqual(double got, double want, bool fuzzy) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  return got == want || (fuzzy && std::fabs(got - want) <= 1e-8 * std::fabs(want));
}

// A report of no mismatch yet.
void Reset(ExpectReport* report) {
  report->passed = true;
  report->first_mismatch.reset();
  report->message.clear();
  report->mismatches = 0;
  report->max_abs_error = report->max_ulp_error = 0;
}

}  // namespace

double UlpDistance(uint64_t a, uint64_t b, const DataType& type) {
  if (type.kind != DataType::kFloat) return 0;
  const int64_t d = OrderedBits(a, type.bits) - OrderedBits(b, type.bits);
  return std::fabs(static_cast<double>(d));
}

void EvaluateExpect(const Command& command, const DataType& type, std::span<const uint8_t> bytes,
                    std::span<const uint8_t> other, ExpectReport* report) {
  Reset(report);
  auto mismatch = [&](uint64_t element, const std::string& message) {
    if (!report->first_mismatch) {
      report->first_mismatch = element;
      report->message = message;
    }
    report->passed = false;
    ++report->mismatches;
  };
  auto name = [&](uint64_t e, uint32_t c) {
    std::string s = command.buffer + "[" + std::to_string(e) + "]";
    if (type.columns > 1) {
      s += "[" + std::to_string(c / type.components) + "][" + std::to_string(c % type.components) +
           "]";
    } else if (type.components > 1) {
      s += "." + std::string(1, "xyzw"[c]);
    }
    return s;
  };
  if (command.kind == Command::kExpectIndex) {
    const uint64_t first = command.first_component;
    auto fuzzy = [&](uint64_t k) { return k < command.fuzzy.size() && command.fuzzy[k] != 0; };
    uint64_t k = 0;
    ForEachComponent(type, bytes, [&](uint64_t e, uint32_t c, uint64_t bits) {
      const uint64_t flat = e * type.ComponentCount() + c;
      if (flat < first || flat - first >= command.values.size()) return;
      const Number& want = command.values[flat - first];
      const double got = ComponentValue(bits, type);
      const double abs_error = std::fabs(got - want.value);
      bool ok;
      if (type.kind != DataType::kFloat) {
        // Integers compare by their bits' value: exact.
        const bool is_signed = type.kind == DataType::kSigned;
        const uint64_t shift = 64 - type.bits;
        const int64_t gs = static_cast<int64_t>(bits << shift) >> shift;
        const int64_t ws = static_cast<int64_t>(want.bits << shift) >> shift;
        const auto cmp = is_signed ? (gs < ws   ? -1
                                      : gs > ws ? 1
                                                : 0)
                                   : (bits < want.bits   ? -1
                                      : bits > want.bits ? 1
                                                         : 0);
        switch (command.compare) {
          case Command::Compare::kEq:
            ok = cmp == 0;
            break;
          case Command::Compare::kNe:
            ok = cmp != 0;
            break;
          case Command::Compare::kLt:
            ok = cmp < 0;
            break;
          case Command::Compare::kLe:
            ok = cmp <= 0;
            break;
          case Command::Compare::kGt:
            ok = cmp > 0;
            break;
          default:
            ok = cmp >= 0;
            break;
        }
      } else if (command.compare == Command::Compare::kEq) {
        if (command.tolerances.empty()) {
          ok = AmberEqual(got, want.value, fuzzy(flat - first));
        } else {
          const auto& t = command.tolerances[std::min<size_t>(k, command.tolerances.size() - 1)];
          const double allowed = t.percent ? t.amount / 100.0 * std::fabs(want.value) : t.amount;
          ok = abs_error <= allowed;
        }
      } else {
        switch (command.compare) {
          case Command::Compare::kNe:
            ok = !AmberEqual(got, want.value, fuzzy(flat - first));
            break;
          case Command::Compare::kLt:
            ok = got < want.value;
            break;
          case Command::Compare::kLe:
            ok = got <= want.value;
            break;
          case Command::Compare::kGt:
            ok = got > want.value;
            break;
          default:
            ok = got >= want.value;
            break;
        }
      }
      if (!std::isnan(abs_error))
        report->max_abs_error = std::max(report->max_abs_error, abs_error);
      report->max_ulp_error = std::max(report->max_ulp_error, UlpDistance(bits, want.bits, type));
      if (!ok) {
        mismatch(e, name(e, c) + " is " + FormatValue(got, type) + ", expected " +
                        FormatValue(want.value, type));
      }
      ++k;
    });
    return;
  }
  // EQ_BUFFER / RMSE_BUFFER: element by element against `other`.
  std::vector<double> expected;
  std::vector<uint64_t> expected_bits;
  ForEachComponent(type, other, [&](uint64_t, uint32_t, uint64_t bits) {
    expected_bits.push_back(bits);
    expected.push_back(ComponentValue(bits, type));
  });
  double squares = 0;
  uint64_t k = 0;
  ForEachComponent(type, bytes, [&](uint64_t e, uint32_t c, uint64_t bits) {
    if (k >= expected.size()) return;
    const double got = ComponentValue(bits, type), want = expected[k];
    const double abs_error = std::fabs(got - want);
    if (!std::isnan(abs_error)) report->max_abs_error = std::max(report->max_abs_error, abs_error);
    report->max_ulp_error =
        std::max(report->max_ulp_error, UlpDistance(bits, expected_bits[k], type));
    squares += abs_error * abs_error;
    if (command.kind == Command::kExpectEqualBuffer && bits != expected_bits[k]) {
      mismatch(e, name(e, c) + " is " + FormatValue(got, type) + ", " + command.other + " has " +
                      FormatValue(want, type));
    }
    ++k;
  });
  if (command.kind == Command::kExpectRmseBuffer) {
    const double rmse = k ? std::sqrt(squares / static_cast<double>(k)) : 0;
    if (!(rmse <= command.rmse_tolerance)) {
      report->passed = false;
      report->mismatches = k;
      report->message = "RMSE " + FormatValue(rmse, {DataType::kFloat, 64, 1}) + " is above " +
                        FormatValue(command.rmse_tolerance, {DataType::kFloat, 64, 1});
    }
  }
}

void EvaluateProbe(const Command& command, const DataType& type, uint32_t width,
                   std::span<const uint8_t> bytes, ExpectReport* report) {
  Reset(report);
  // Amber's tolerances for texels: four values apply per channel, fewer all take the first;
  // none is 0.002 absolute.
  Command::Tolerance tolerance[4];
  for (int k = 0; k < 4; ++k) {
    const auto& t = command.tolerances;
    tolerance[k] = t.empty() ? Command::Tolerance{0.002, false} : t[t.size() == 4 ? k : 0];
  }
  const uint32_t x0 = command.probe_rect[0], y0 = command.probe_rect[1];
  const uint64_t element = type.ElementBytes();
  bool normalized = false;
  for (uint32_t y = y0; y < y0 + command.probe_rect[3]; ++y) {
    for (uint32_t x = x0; x < x0 + command.probe_rect[2]; ++x) {
      const uint64_t texel = uint64_t{y} * width + x;
      if ((texel + 1) * element > bytes.size()) return;  // The parser kept the rect inside.
      double rgba[4] = {0, 0, 0, 0};
      bool ok = true;
      for (uint32_t k = 0; k < type.ComponentCount(); ++k) {
        const char channel = ProbeChannel(type, k);
        const size_t c = channel == 'R'   ? 0
                         : channel == 'G' ? 1
                         : channel == 'B' ? 2
                         : channel == 'A' ? 3
                                          : 4;
        if (c == 4 || (c == 3 && !command.probe_alpha)) continue;
        const uint8_t* p = bytes.data() + texel * element + type.ComponentOffset(k);
        double v = ComponentValue(ReadComponentBits(p, type), type);
        // Normalized formats are scaled to [0, 1] (sRGB made linear, but its alpha), as
        // Amber's probe reads them.
        const NumericFormat numeric = ComponentNumericFormat(type, k);
        const double top = std::ldexp(1.0, static_cast<int>(type.bits)) - 1;
        if (numeric == NumericFormat::kUNorm || numeric == NumericFormat::kSRGB) {
          v /= top;
          normalized = true;
          if (numeric == NumericFormat::kSRGB && channel != 'A') {
            v = v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
          }
        } else if (numeric == NumericFormat::kSNorm) {
          v /= std::ldexp(1.0, static_cast<int>(type.bits) - 1) - 1;
          normalized = true;
        }
        rgba[c] = v;
        const double want = command.probe_color[c];
        const double diff = std::fabs(want - v);
        const Command::Tolerance& t = tolerance[c];
        const bool equal = std::isnan(v) || std::isnan(want)
                               ? std::isnan(v) && std::isnan(want)
                               : diff <= (t.percent ? t.amount / 100.0 * std::fabs(v) : t.amount);
        if (!std::isnan(diff)) report->max_abs_error = std::max(report->max_abs_error, diff);
        ok &= equal;
      }
      if (ok) continue;
      if (!report->first_mismatch) {
        const double scale = normalized ? 255 : 1;
        const size_t n = command.probe_alpha ? 4 : 3;
        std::string got, want;
        for (size_t c = 0; c < n; ++c) {
          char text[32];
          std::snprintf(text, sizeof(text), "%s%.6g", c ? ", " : "", rgba[c] * scale);
          got += text;
          std::snprintf(text, sizeof(text), "%s%.6g", c ? ", " : "",
                        command.probe_color[c] * scale);
          want += text;
        }
        report->first_mismatch = texel;
        report->message = command.buffer + " texel (" + std::to_string(x) + ", " +
                          std::to_string(y) + ") is " + got + ", expected " + want;
      }
      report->passed = false;
      ++report->mismatches;
    }
  }
}

void CompareBuffers(const DataType& type, std::span<const uint8_t> expected,
                    std::span<const uint8_t> actual, double tolerance, BufferComparison* out) {
  out->equal = expected.size() == actual.size();
  out->first_mismatch.reset();
  out->mismatches = 0;
  out->max_abs_error = out->max_ulp_error = 0;
  if (!out->equal) return;
  std::vector<uint64_t> want;
  ForEachComponent(type, expected,
                   [&](uint64_t, uint32_t, uint64_t bits) { want.push_back(bits); });
  uint64_t k = 0;
  ForEachComponent(type, actual, [&](uint64_t e, uint32_t, uint64_t bits) {
    const uint64_t w = want[k++];
    bool ok = bits == w;
    if (!ok && type.kind == DataType::kFloat) {
      const double a = ComponentValue(bits, type), b = ComponentValue(w, type);
      const double err = std::fabs(a - b);
      ok = (std::isnan(a) && std::isnan(b)) || err <= std::max(tolerance, tolerance * std::fabs(b));
      if (!std::isnan(err)) out->max_abs_error = std::max(out->max_abs_error, err);
      out->max_ulp_error = std::max(out->max_ulp_error, UlpDistance(bits, w, type));
    } else if (!ok) {
      const double err = std::fabs(ComponentValue(bits, type) - ComponentValue(w, type));
      out->max_abs_error = std::max(out->max_abs_error, err);
    }
    if (!ok) {
      if (!out->first_mismatch) out->first_mismatch = e;
      ++out->mismatches;
      out->equal = false;
    }
  });
}

}  // namespace coopspv::run
