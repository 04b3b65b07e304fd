// The public optimizer API, over source/opt.
#include "include/coopspv/coopspv.hpp"
#include "source/common/target_env.h"
#include "source/opt/pass_manager.h"
#include "source/opt/passes.h"

namespace coopspv {

std::vector<PassHelp> OptimizerPasses() {
  std::vector<PassHelp> out;
  for (const auto& p : opt::AllPasses()) {
    out.push_back({p.flag, p.argument ? p.argument : "", p.help});
  }
  return out;
}

bool Optimize(std::span<const uint32_t> words, const OptimizerOptions& options,
              OptimizeResult* result, Problem* problem) {
  auto fail = [&](std::string message) {
    if (problem) problem->message = std::move(message);
    return false;
  };
  ValidatorOptions validator;
  validator.target_env = options.target_env;
  validator.max_errors = 20;
  if (!SpirvVersionForTargetEnv(options.target_env)) {
    return fail("unknown target environment '" + options.target_env + "'");
  }
  opt::PassManager manager;
  for (const PassRequest& request : options.passes) {
    const opt::PassInfo* info = opt::FindPass(request.flag);
    if (info == nullptr) return fail("unknown pass --" + request.flag);
    if (info->argument == nullptr && !request.argument.empty()) {
      return fail("--" + request.flag + " takes no argument");
    }
    // "=[...]": the argument may be left out.
    const bool optional =
        info->argument != nullptr && std::string_view(info->argument).starts_with("=[");
    if (info->argument != nullptr && !optional && request.argument.empty()) {
      return fail("--" + request.flag + " needs an argument: " + info->argument);
    }
    std::string error;
    auto pass = info->create(request.argument, &error);
    if (!pass) return fail("--" + request.flag + ": " + error);
    manager.Add(std::move(pass));
  }
  if (!options.skip_validation) {
    if (!Validate(words, validator, &result->validation, problem)) return false;
    if (!result->validation.valid) return fail("the input module is invalid");
  }
  Diagnostic d;
  std::unique_ptr<ir::Module> module = ir::Module::Read(words, &d);
  if (!module) return fail("the input is not a SPIR-V module: " + d.ToString());
  opt::PassManagerOptions manager_options;
  manager_options.validate_after_each = options.validate_after_each;
  manager_options.validator.env = *ParseTargetEnv(options.target_env);
  std::vector<opt::PassTiming> timings;
  std::string error;
  const bool ok = manager.Run(&module, manager_options, &timings, &error);
  result->passes.clear();
  for (const auto& t : timings) {
    result->passes.push_back({t.pass,
                              t.status == opt::PassStatus::kChanged     ? "changed"
                              : t.status == opt::PassStatus::kUnchanged ? "unchanged"
                                                                        : "failed",
                              t.milliseconds, t.instructions_before, t.instructions_after});
  }
  if (!ok) return fail(error);
  result->words.assign(module->words().begin(), module->words().end());
  // The output always validates.
  if (!Validate(result->words, validator, &result->validation, problem)) return false;
  if (!result->validation.valid) {
    // A module valid for the values an application specializes can be invalid for the defaults
    // (ggml sizes shared-memory arrays by spec constants whose defaults make them 0 long).
    bool frozen = false;
    for (const PassRequest& request : options.passes) frozen |= request.flag == "freeze-spec-const";
    bool empty_array = false;
    for (const ValidationDiagnostic& diagnostic : result->validation.diagnostics) {
      empty_array |= diagnostic.rule_id == "type.array" &&
                     diagnostic.message.find(" is 0;") != std::string::npos;
    }
    if (frozen) {
      return fail(std::string("the optimized module is invalid: --freeze-spec-const gave every "
                              "specialization constant its default value, and with those "
                              "values the module is not valid") +
                  (empty_array ? " (an array length folds to 0)" : "") +
                  "; set the values the application uses with "
                  "--set-spec-const-default-value before freezing");
    }
    return fail("the optimized module is invalid");
  }
  return true;
}

}  // namespace coopspv
