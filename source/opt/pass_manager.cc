#include "source/opt/pass_manager.h"

#include <chrono>

namespace coopspv::opt {

bool PassManager::Run(std::unique_ptr<ir::Module>* module, const PassManagerOptions& options,
                      std::vector<PassTiming>* timings, std::string* error) {
  for (const auto& pass : passes_) {
    const size_t before = (*module)->num_instructions();
    const auto start = std::chrono::steady_clock::now();
    PassResult result = pass->Run(**module);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (timings) {
      const size_t after = result.rebuilt ? result.rebuilt->num_instructions() : before;
      timings->push_back({pass->name(), result.status, ms, before, after});
      for (PassTiming& sub : pass->TakeSubPassTimings()) {
        sub.pass = std::string(pass->name()) + "/" + sub.pass;
        timings->push_back(std::move(sub));
      }
    }
    if (result.status == PassStatus::kFailed) {
      *error = std::string("--") + pass->name() + " failed: " + result.error;
      return false;
    }
    if (result.status == PassStatus::kUnchanged) continue;
    if (result.rebuilt) {
      *module = std::move(result.rebuilt);
    } else {
      (*module)->Invalidate(pass->preserved());
    }
    if (options.validate_after_each) {
      const val::Result r = val::Validate(**module, options.validator);
      if (!r.valid) {
        std::string first;
        for (const auto& d : r.diagnostics) {
          if (d.severity != val::Severity::kError) continue;
          first = std::string(d.rule->id) + ": " + d.message;
          break;
        }
        *error = std::string("--") + pass->name() + " produced an invalid module (" +
                 std::to_string(r.num_errors) + " error(s)); first: " + first;
        return false;
      }
    }
  }
  return true;
}

}  // namespace coopspv::opt
