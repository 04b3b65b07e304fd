// The public coopspv run API (include/coopspv/run.hpp): parse, run, optionally run again with
// the shaders optimized, compare.
#include "include/coopspv/run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "source/common/float.h"
#include "source/run/compare.h"
#include "source/run/executor.h"
#include "source/run/module_interface.h"
#include "source/run/script.h"
#include "source/run/vulkan.h"

namespace coopspv {
namespace {

RunReport Error(std::string message) {
  RunReport report;
  report.status = RunReport::kError;
  report.error = std::move(message);
  return report;
}

bool ParseWithOptions(std::string_view text, const RunOptions& options, run::Script* script,
                      std::string* error, bool* unsupported = nullptr) {
  run::ParseOptions parse;
  parse.directory = options.script_directory;
  run::ParseError e;
  if (!run::ParseScript(text, parse, script, &e)) {
    *error = e.ToString();
    if (unsupported) *unsupported = e.unsupported;
    return false;
  }
  return true;
}

// A parse failure: an error, or unsupported where the script needs what this build lacks.
RunReport ParseFailure(std::string message, bool unsupported) {
  RunReport report = Error(std::move(message));
  if (unsupported) report.status = RunReport::kUnsupported;
  return report;
}

// Every shader of the script through the passes. When the passes freeze specialization
// constants, each pipeline's SPECIALIZE values become the defaults first (in a copy of the
// shader per pipeline that specializes), so that the frozen module computes what the pipeline
// as written computes.
bool ApplyPasses(const RunOptions& options, uint32_t subgroup_size, run::Script* script,
                 std::string* error) {
  OptimizerOptions optimizer;
  optimizer.target_env = options.target_env;
  optimizer.passes = options.passes;
  for (PassRequest& p : optimizer.passes) {
    if (p.argument == kDeviceSubgroupSize) p.argument = std::to_string(subgroup_size);
  }
  const bool freezes =
      std::any_of(optimizer.passes.begin(), optimizer.passes.end(),
                  [](const PassRequest& p) { return p.flag == "freeze-spec-const"; });
  std::vector<std::string> defaults(script->shaders.size());  // Per shader: "id:value ...".
  if (freezes) {
    for (run::Pipeline& p : script->pipelines) {
      if (p.spec_constants.empty()) continue;
      const run::Shader* shader = script->FindShader(p.shader);
      if (shader == nullptr) continue;
      run::Shader copy = *shader;
      copy.name = p.shader + "@" + p.name;
      std::string values = run::SpecializationDefaults(copy.words, p.spec_constants);
      p.shader = copy.name;
      p.spec_constants.clear();
      script->shaders.push_back(std::move(copy));
      defaults.push_back(std::move(values));
    }
  }
  for (size_t s = 0; s < script->shaders.size(); ++s) {
    run::Shader& shader = script->shaders[s];
    if (freezes && std::none_of(script->pipelines.begin(), script->pipelines.end(),
                                [&](const run::Pipeline& p) { return p.shader == shader.name; })) {
      continue;  // Every pipeline has its own specialized copy.
    }
    OptimizerOptions these = optimizer;
    if (!defaults[s].empty()) {
      these.passes.insert(these.passes.begin(), {"set-spec-const-default-value", defaults[s]});
    }
    OptimizeResult result;
    Problem problem;
    if (!Optimize(shader.words, these, &result, &problem)) {
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

// Every buffer some pipeline binds as storage (a storage buffer, dynamic or not, a storage image
// or texel buffer), whose address a BUFFER_ADDRESS line hands on, or that a CONVERT_MATRIX
// writes: what the shaders (or the conversions of their results) can have written.
bool IsWritten(const run::Script& script, size_t buffer) {
  for (const auto& a : script.addresses) {
    if (a.buffer == script.buffers[buffer].name) return true;
  }
  for (const auto& c : script.commands) {
    if (c.kind == run::Command::kConvertMatrix &&
        c.conversion.destination == script.buffers[buffer].name) {
      return true;
    }
  }
  // A multisampled image's texels never come back from the device (as in Amber).
  if (script.buffers[buffer].image.samples > 1) return false;
  for (const auto& p : script.pipelines) {
    for (const auto& b : p.bindings) {
      if (!b.IsWritable()) continue;
      for (const auto& e : b.elements) {
        if (e.name == script.buffers[buffer].name) return true;
      }
    }
  }
  return false;
}

// A buffer a CONVERT_MATRIX writes or reads in an optimal layout: the driver's layout in the run
// as written, row- or column-major in a lowered run (--lower-coop-vector=optimal-as-...).
bool HoldsOptimalMatrix(const run::Script& script, size_t buffer) {
  for (const run::Command& c : script.commands) {
    if (c.kind != run::Command::kConvertMatrix) continue;
    const run::MatrixConversion& m = c.conversion;
    if ((m.source == script.buffers[buffer].name && m.IsOptimal(m.source_layout)) ||
        (m.destination == script.buffers[buffer].name && m.IsOptimal(m.destination_layout))) {
      return true;
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

// Drops the requirements of cooperative device extensions that no shader declares any more.
void DropUnusedCooperativeRequirements(run::Script* script) {
  std::set<std::string> used;
  for (const run::Pipeline& p : script->pipelines) {
    const run::Shader* shader = script->FindShader(p.shader);
    run::ModuleInterface interface;
    std::string ignored;  // A module that cannot be read keeps every requirement.
    if (shader == nullptr ||
        !run::ReadModuleInterface(shader->words, p.entry_point, &interface, &ignored)) {
      return;
    }
    used.insert(interface.extensions.begin(), interface.extensions.end());
  }
  std::set<std::string> dropped;
  for (const run::CooperativeExtension& e : run::CooperativeExtensions()) {
    if (std::none_of(e.spirv.begin(), e.spirv.end(),
                     [&](const char* name) { return used.count(name) != 0; })) {
      dropped.insert(e.device);
    }
  }
  std::erase_if(script->extensions,
                [&](const run::Requirement& r) { return dropped.count(r.name) != 0; });
  std::erase_if(script->features, [&](const run::Requirement& r) {
    run::FeatureRef ref;
    if (!run::FindFeature(r.name, &ref)) return false;  // The run names it.
    const char* extension = run::FeatureStructs()[ref.structure].extension;
    return extension != nullptr && dropped.count(extension) != 0;
  });
}

// The pass flags as they ran, with the device's subgroup size filled in.
std::vector<std::string> PassesApplied(const RunOptions& options, uint32_t subgroup_size) {
  std::vector<std::string> flags;
  for (const auto& p : options.passes) {
    const std::string argument =
        p.argument == kDeviceSubgroupSize ? std::to_string(subgroup_size) : p.argument;
    flags.push_back(argument.empty() ? "--" + p.flag : "--" + p.flag + "=" + argument);
  }
  return flags;
}

// 0 or 1 when the passes lower cooperative vectors reading optimal layouts as row- or
// column-major (--lower-coop-vector=optimal-as-...), else -1.
int OptimalLayoutAs(const std::vector<PassRequest>& passes) {
  int as = -1;
  for (const PassRequest& p : passes) {
    if (p.flag != "lower-coop-vector") continue;
    if (p.argument.find("optimal-as-row-major") != std::string::npos) as = 0;
    if (p.argument.find("optimal-as-column-major") != std::string::npos) as = 1;
  }
  return as;
}

// The execution options of `options`; the "passes" variant's CONVERT_MATRIX lines write the
// layout the lowered shaders read.
run::ExecuteOptions ExecOptions(const RunOptions& options, const char* variant) {
  run::ExecuteOptions exec;
  if (std::string_view(variant) == "passes")
    exec.optimal_layout_as = OptimalLayoutAs(options.passes);
  exec.device = options.device;
  exec.fence_timeout_ms = options.fence_timeout_ms;
  exec.timing_runs = options.timing_runs;
  exec.warmup_runs = options.warmup_runs;
  exec.variant = variant;
  exec.validate = !options.skip_validation;
  return exec;
}

// A run's device, expects, timings and final buffers into the report.
void TakeResult(const run::Script& script, run::ExecuteResult&& result, RunReport* report) {
  report->device_name = result.device_name;
  report->hung = result.hung;
  report->expects = std::move(result.expects);
  report->timings = std::move(result.timings);
  for (size_t i = 0; i < result.buffers.size() && i < script.buffers.size(); ++i) {
    FinalBuffer b;
    b.name = script.buffers[i].name;
    b.data_type = script.buffers[i].type.Name();
    if (script.buffers[i].image.dimensions != 0) b.image = script.buffers[i].image.Declaration();
    b.written = IsWritten(script, i);
    b.bytes = std::move(result.buffers[i]);
    report->buffers.push_back(std::move(b));
  }
}

// RunOptions::passes_only: the optimized shaders alone.
RunReport RunPassesOnly(run::Script script, const RunOptions& options) {
  std::string error;
  if (options.passes.empty()) return Error("--passes-only needs passes (--passes or --lower)");
  uint32_t subgroup_size = 0;
  const bool needs_size =
      std::any_of(options.passes.begin(), options.passes.end(),
                  [](const PassRequest& p) { return p.argument == kDeviceSubgroupSize; });
  if (needs_size && !run::DeviceSubgroupSize(options.device, &subgroup_size, &error)) {
    return Error(error);
  }
  if (!ApplyPasses(options, subgroup_size, &script, &error)) return Error(error);
  DropUnusedCooperativeRequirements(&script);
  RunReport report;
  report.passes_applied = PassesApplied(options, subgroup_size);
  run::ExecuteResult result;
  const bool ok = run::Execute(script, ExecOptions(options, "passes"), &result, &error);
  const bool unsupported = result.unsupported;
  TakeResult(script, std::move(result), &report);
  if (!ok) {
    report.status = unsupported ? RunReport::kUnsupported : RunReport::kError;
    report.error = "with the passes: " + error;
    return report;
  }
  report.status = RunReport::kPassed;
  for (const auto& e : report.expects) {
    if (!e.passed) report.status = RunReport::kFailed;
  }
  return report;
}

}  // namespace

RunReport CheckAmberScript(std::string_view text, const RunOptions& options) {
  run::Script script;
  std::string error;
  bool unsupported = false;
  if (!ParseWithOptions(text, options, &script, &error, &unsupported)) {
    return ParseFailure(error, unsupported);
  }
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
  bool unparsable = false;  // Unsupported by this build.
  if (!ParseWithOptions(text, options, &script, &error, &unparsable)) {
    return ParseFailure(error, unparsable);
  }
  if (options.passes_only) return RunPassesOnly(std::move(script), options);
  RunReport report;
  run::ExecuteOptions exec = ExecOptions(options, "original");
  run::ExecuteResult original;
  const bool ok = run::Execute(script, exec, &original, &error);
  const uint32_t subgroup_size = original.subgroup_size;
  const bool unsupported = original.unsupported;
  TakeResult(script, std::move(original), &report);
  if (!ok) {
    report.status = unsupported ? RunReport::kUnsupported : RunReport::kError;
    report.error = error;
    return report;
  }
  if (!options.passes.empty()) {
    // After the first run, which says what device (and subgroup size) the passes are for.
    run::Script optimized = script;
    if (!ApplyPasses(options, subgroup_size, &optimized, &error)) {
      report.status = RunReport::kError;
      report.error = error;
      return report;
    }
    report.passes_applied = PassesApplied(options, subgroup_size);
    exec = ExecOptions(options, "passes");
    run::ExecuteResult second;
    const bool second_ok = run::Execute(optimized, exec, &second, &error);
    report.hung = second.hung;
    for (auto& e : second.expects) report.expects.push_back(std::move(e));
    for (auto& t : second.timings) report.timings.push_back(std::move(t));
    if (!second_ok) {
      report.status = second.unsupported ? RunReport::kUnsupported : RunReport::kError;
      report.error = "with the passes: " + error;
      return report;
    }
    const bool relaid = exec.optimal_layout_as >= 0;
    for (size_t i = 0; i < script.buffers.size(); ++i) {
      if (!IsWritten(script, i) || (relaid && HoldsOptimalMatrix(script, i))) continue;
      BufferComparison c;
      c.buffer = script.buffers[i].name;
      run::CompareBuffers(script.buffers[i].type, report.buffers[i].bytes, second.buffers[i],
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

RunReport CreatePipelineForModule(const std::vector<uint32_t>& module,
                                  const std::string& entry_point, const RunOptions& options) {
  std::string error;
  run::ModuleInterface interface;
  if (!run::ReadModuleInterface(module, entry_point, &interface, &error)) return Error(error);
  run::Script script;
  script.shaders.push_back({"module", module, 0});
  std::vector<std::string> features, extensions;
  if (!run::SupportedDeviceFeatures(options.device, &features, &extensions, &error)) {
    return Error(error);
  }
  for (const std::string& f : features) script.features.push_back({f, 0});
  for (const std::string& e : extensions) script.extensions.push_back({e, 0});
  run::Pipeline pipeline;
  pipeline.name = "pipeline";
  pipeline.shader = "module";
  pipeline.entry_point = entry_point;
  auto add_buffer = [&](const std::string& name, size_t bytes) {
    run::Buffer b;
    b.name = name;
    b.bytes.assign(bytes, 0);
    script.buffers.push_back(std::move(b));
  };
  for (const run::ModuleResource& r : interface.resources) {
    if (r.kind != run::ModuleResource::kStorage && r.kind != run::ModuleResource::kUniform) {
      return Error("the entry point uses a resource at set " + std::to_string(r.set) +
                   ", binding " + std::to_string(r.binding) +
                   " that is not a storage or uniform buffer; --create-pipeline makes only "
                   "buffers");
    }
    const std::string name = "set" + std::to_string(r.set) + "_binding" + std::to_string(r.binding);
    if (std::any_of(pipeline.bindings.begin(), pipeline.bindings.end(),
                    [&](const run::BufferBinding& b) { return b.buffer() == name; })) {
      continue;  // Two variables at one binding (aliases) share the buffer.
    }
    add_buffer(name, 4096);
    run::BufferBinding binding;
    binding.kind = r.kind == run::ModuleResource::kStorage ? run::BufferBinding::kStorage
                                                           : run::BufferBinding::kUniform;
    // An array of blocks gets the one buffer in each of its elements.
    binding.elements.assign(std::max<uint32_t>(r.count, 1), {name});
    binding.set = r.set;
    binding.binding = r.binding;
    pipeline.bindings.push_back(binding);
  }
  if (interface.push_constants) {
    add_buffer("push_constants", 128);  // The least maxPushConstantsSize a device reports.
    run::BufferBinding binding;
    binding.kind = run::BufferBinding::kPushConstant;
    binding.elements = {{"push_constants"}};
    pipeline.bindings.push_back(binding);
  }
  script.pipelines.push_back(std::move(pipeline));
  run::ExecuteOptions exec;
  exec.device = options.device;
  exec.validate = !options.skip_validation;
  run::ExecuteResult result;
  RunReport report;
  const bool ok = run::Execute(script, exec, &result, &error);
  report.device_name = result.device_name;
  report.status = ok ? RunReport::kPassed : RunReport::kError;
  // The script is made up here: its line numbers mean nothing to the user.
  report.error = error.starts_with("line 0: ") ? error.substr(8) : error;
  return report;
}

std::string FormatRunJson(const RunReport& report) {
  const char* status = report.status == RunReport::kPassed        ? "pass"
                       : report.status == RunReport::kFailed      ? "fail"
                       : report.status == RunReport::kUnsupported ? "unsupported"
                                                                  : "error";
  std::string out = "{\"status\":" + JsonString(status) +
                    ",\"exit_code\":" + std::to_string(static_cast<int>(report.status)) +
                    ",\"device\":" + JsonString(report.device_name);
  if (report.status == RunReport::kError || report.status == RunReport::kUnsupported) {
    out += ",\"error\":" + JsonString(report.error);
  }
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
    // An image's texels as an IMAGE of its shape, which EQ_BUFFER compares with it.
    out += b.image.empty()
               ? "BUFFER " + b.name + "_result DATA_TYPE " + b.data_type + " DATA\n"
               : "IMAGE " + b.name + "_result " + (type.format ? "FORMAT " : "DATA_TYPE ") +
                     b.data_type + " " + b.image + " DATA\n";
    const uint64_t elements = b.bytes.size() / type.ElementBytes();
    uint64_t on_line = 0;
    for (uint64_t e = 0; e < elements; ++e) {
      for (uint32_t c = 0; c < type.ComponentCount(); ++c) {
        const uint8_t* p = b.bytes.data() + e * type.ElementBytes() + type.ComponentOffset(c);
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

bool QueryDeviceProfileJson(const std::string& device, std::string* json,
                            std::vector<std::string>* notes, std::string* error) {
  profile::DeviceProfile p;
  if (!run::QueryDeviceProfile(device, &p, notes, error)) return false;
  *json = profile::Write(p);
  return true;
}

}  // namespace coopspv
