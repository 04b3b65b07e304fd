// The public coopspv run API (include/coopspv/run.hpp): parse, run, optionally run again with
// the shaders optimized, compare.
#include "include/coopspv/run.hpp"

#include <cmath>
#include <cstdio>

#include "source/common/float.h"
#include "source/run/compare.h"
#include "source/run/executor.h"
#include "source/run/module_interface.h"
#include "source/run/script.h"

namespace coopspv {
namespace {

RunReport Error(std::string message) {
  RunReport report;
  report.status = RunReport::kError;
  report.error = std::move(message);
  return report;
}

bool ParseWithOptions(std::string_view text, const RunOptions& options, run::Script* script,
                      std::string* error) {
  run::ParseOptions parse;
  parse.directory = options.script_directory;
  run::ParseError e;
  if (!run::ParseScript(text, parse, script, &e)) {
    *error = e.ToString();
    return false;
  }
  return true;
}

// Every shader of the script through the passes.
bool ApplyPasses(const RunOptions& options, uint32_t subgroup_size, run::Script* script,
                 std::string* error) {
  OptimizerOptions optimizer;
  optimizer.target_env = options.target_env;
  optimizer.passes = options.passes;
  for (PassRequest& p : optimizer.passes) {
    if (p.argument == kDeviceSubgroupSize) p.argument = std::to_string(subgroup_size);
  }
  for (run::Shader& shader : script->shaders) {
    OptimizeResult result;
    Problem problem;
    if (!Optimize(shader.words, optimizer, &result, &problem)) {
      *error = "line " + std::to_string(shader.line) + ": the passes failed on shader '" +
               shader.name + "': " + problem.message;
      for (const auto& d : result.validation.diagnostics) {
        if (d.is_error) {
          *error += "\n  " + d.rule_id + ": " + d.message;
          break;
        }
      }
      return false;
    }
    shader.words = std::move(result.words);
  }
  return true;
}

// Every buffer some pipeline binds as storage: what the shaders can have written.
bool IsWritten(const run::Script& script, size_t buffer) {
  for (const auto& p : script.pipelines) {
    for (const auto& b : p.bindings) {
      if (b.buffer == script.buffers[buffer].name && b.kind == run::BufferBinding::kStorage) {
        return true;
      }
    }
  }
  return false;
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string JsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

}  // namespace

RunReport CheckAmberScript(std::string_view text, const RunOptions& options) {
  run::Script script;
  std::string error;
  if (!ParseWithOptions(text, options, &script, &error)) return Error(error);
  for (const run::Pipeline& p : script.pipelines) {
    run::ModuleInterface interface;
    if (!run::CheckPipelineInterface(script, p, &interface, &error)) return Error(error);
  }
  RunReport report;
  report.status = RunReport::kPassed;
  return report;
}

RunReport RunAmberScript(std::string_view text, const RunOptions& options) {
  run::Script script;
  std::string error;
  if (!ParseWithOptions(text, options, &script, &error)) return Error(error);
  RunReport report;
  run::ExecuteOptions exec;
  exec.device = options.device;
  exec.fence_timeout_ms = options.fence_timeout_ms;
  exec.timing_runs = options.timing_runs;
  exec.warmup_runs = options.warmup_runs;
  run::ExecuteResult original;
  const bool ok = run::Execute(script, exec, &original, &error);
  report.device_name = original.device_name;
  report.hung = original.hung;
  report.expects = std::move(original.expects);
  report.timings = std::move(original.timings);
  for (size_t i = 0; i < original.buffers.size() && i < script.buffers.size(); ++i) {
    FinalBuffer b;
    b.name = script.buffers[i].name;
    b.data_type = script.buffers[i].type.Name();
    b.written = IsWritten(script, i);
    b.bytes = original.buffers[i];
    report.buffers.push_back(std::move(b));
  }
  if (!ok) {
    report.status = RunReport::kError;
    report.error = error;
    return report;
  }
  if (!options.passes.empty()) {
    // After the first run, which says what device (and subgroup size) the passes are for.
    run::Script optimized = script;
    if (!ApplyPasses(options, original.subgroup_size, &optimized, &error)) {
      report.status = RunReport::kError;
      report.error = error;
      return report;
    }
    for (const auto& p : options.passes) {
      const std::string argument =
          p.argument == kDeviceSubgroupSize ? std::to_string(original.subgroup_size) : p.argument;
      report.passes_applied.push_back(argument.empty() ? "--" + p.flag
                                                       : "--" + p.flag + "=" + argument);
    }
    exec.variant = "passes";
    run::ExecuteResult second;
    const bool second_ok = run::Execute(optimized, exec, &second, &error);
    report.hung = second.hung;
    for (auto& e : second.expects) report.expects.push_back(std::move(e));
    for (auto& t : second.timings) report.timings.push_back(std::move(t));
    if (!second_ok) {
      report.status = RunReport::kError;
      report.error = "with the passes: " + error;
      return report;
    }
    for (size_t i = 0; i < script.buffers.size(); ++i) {
      if (!IsWritten(script, i)) continue;
      BufferComparison c;
      c.buffer = script.buffers[i].name;
      run::CompareBuffers(script.buffers[i].type, original.buffers[i], second.buffers[i],
                          options.tolerance, &c);
      report.comparisons.push_back(std::move(c));
    }
  }
  report.status = RunReport::kPassed;
  for (const auto& e : report.expects) {
    if (!e.passed) report.status = RunReport::kFailed;
  }
  for (const auto& c : report.comparisons) {
    if (!c.equal) report.status = RunReport::kFailed;
  }
  return report;
}

std::string FormatRunJson(const RunReport& report) {
  const char* status = report.status == RunReport::kPassed   ? "pass"
                       : report.status == RunReport::kFailed ? "fail"
                                                             : "error";
  std::string out = "{\"status\":" + JsonString(status) +
                    ",\"exit_code\":" + std::to_string(static_cast<int>(report.status)) +
                    ",\"device\":" + JsonString(report.device_name);
  if (report.status == RunReport::kError) out += ",\"error\":" + JsonString(report.error);
  if (report.hung) out += ",\"hung\":true";
  out += ",\"expects\":[";
  for (size_t i = 0; i < report.expects.size(); ++i) {
    const ExpectReport& e = report.expects[i];
    out += std::string(i ? "," : "") + "{\"line\":" + std::to_string(e.line) +
           ",\"command\":" + JsonString(e.command) + ",\"variant\":" + JsonString(e.variant) +
           ",\"result\":" + (e.passed ? "\"pass\"" : "\"fail\"") + ",\"first_mismatch\":" +
           (e.first_mismatch ? std::to_string(*e.first_mismatch) : "null") +
           ",\"mismatches\":" + std::to_string(e.mismatches) +
           ",\"max_abs_error\":" + JsonNumber(e.max_abs_error) +
           ",\"max_ulp_error\":" + JsonNumber(e.max_ulp_error);
    if (!e.passed) out += ",\"message\":" + JsonString(e.message);
    out += "}";
  }
  out += "]";
  if (!report.timings.empty()) {
    out += ",\"timings\":[";
    for (size_t i = 0; i < report.timings.size(); ++i) {
      const RunTiming& t = report.timings[i];
      out += std::string(i ? "," : "") + "{\"line\":" + std::to_string(t.line) +
             ",\"pipeline\":" + JsonString(t.pipeline) + ",\"variant\":" + JsonString(t.variant) +
             ",\"runs\":" + std::to_string(t.runs) + ",\"median_us\":" + JsonNumber(t.median_us) +
             ",\"min_us\":" + JsonNumber(t.min_us) + ",\"max_us\":" + JsonNumber(t.max_us) + "}";
    }
    out += "]";
  }
  if (!report.passes_applied.empty()) {
    out += ",\"passes\":[";
    for (size_t i = 0; i < report.passes_applied.size(); ++i) {
      out += std::string(i ? "," : "") + JsonString(report.passes_applied[i]);
    }
    out += "],\"comparisons\":[";
    for (size_t i = 0; i < report.comparisons.size(); ++i) {
      const BufferComparison& c = report.comparisons[i];
      out += std::string(i ? "," : "") + "{\"buffer\":" + JsonString(c.buffer) +
             ",\"result\":" + (c.equal ? "\"equal\"" : "\"differ\"") + ",\"first_mismatch\":" +
             (c.first_mismatch ? std::to_string(*c.first_mismatch) : "null") +
             ",\"mismatches\":" + std::to_string(c.mismatches) +
             ",\"max_abs_error\":" + JsonNumber(c.max_abs_error) +
             ",\"max_ulp_error\":" + JsonNumber(c.max_ulp_error) + "}";
    }
    out += "]";
  }
  return out + "}\n";
}

std::string FormatBuffersAsAmber(const RunReport& report) {
  std::string out;
  for (const FinalBuffer& b : report.buffers) {
    run::DataType type;
    if (!b.written || !run::ParseDataType(b.data_type, &type)) continue;
    out += "BUFFER " + b.name + "_result DATA_TYPE " + b.data_type + " DATA\n";
    const uint64_t elements = b.bytes.size() / type.ElementBytes();
    uint64_t on_line = 0;
    for (uint64_t e = 0; e < elements; ++e) {
      for (uint32_t c = 0; c < type.components; ++c) {
        const uint8_t* p = b.bytes.data() + e * type.ElementBytes() + c * type.ComponentBytes();
        const uint64_t bits = run::ReadComponentBits(p, type);
        char text[40];
        std::string value;
        if (type.kind == run::DataType::kFloat) {
          const double v = run::ComponentValue(bits, type);
          if (std::isfinite(v)) {
            // %.17g of the exact value reads back to the same bits in every float width.
            std::snprintf(text, sizeof(text), "%.17g", v);
            value = text;
          } else {  // Infinities and NaNs exactly, as hex floats.
            value = FormatHexFloat(bits, type.bits == 16   ? kHalf
                                         : type.bits == 32 ? kSingle
                                                           : kDouble);
          }
        } else if (type.kind == run::DataType::kSigned) {
          const uint32_t shift = 64 - type.bits;
          std::snprintf(text, sizeof(text), "%lld",
                        static_cast<long long>(static_cast<int64_t>(bits << shift) >> shift));
          value = text;
        } else {
          std::snprintf(text, sizeof(text), "%llu", static_cast<unsigned long long>(bits));
          value = text;
        }
        out += (on_line ? " " : "  ") + value;
        if (++on_line == 8) {
          out += "\n";
          on_line = 0;
        }
      }
    }
    if (on_line) out += "\n";
    out += "END\n";
  }
  return out;
}

bool ListVulkanDevices(std::vector<VulkanDeviceInfo>* devices, std::string* error) {
  return run::EnumerateDevices(devices, error);
}

}  // namespace coopspv
