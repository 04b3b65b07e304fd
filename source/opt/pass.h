// The pass interface. A pass is named after its command-line flag, reads a module, and either
// leaves it unchanged, changes it (in place, for edits that keep every instruction's layout, or
// by returning a rebuilt module), or fails with a message. A pass declares which analyses an
// in-place change preserves; a rebuilt module starts with none.
#ifndef COOPSPV_SOURCE_OPT_PASS_H_
#define COOPSPV_SOURCE_OPT_PASS_H_

#include <memory>
#include <string>
#include <vector>

#include "source/ir/module.h"

namespace coopspv::opt {

enum class PassStatus { kUnchanged, kChanged, kFailed };

struct PassResult {
  PassStatus status = PassStatus::kUnchanged;
  // Set when the pass rebuilt the module; null when it changed it in place or not at all.
  std::unique_ptr<ir::Module> rebuilt;
  std::string error;  // For kFailed.

  static PassResult Unchanged() { return {}; }
  static PassResult ChangedInPlace() { return {PassStatus::kChanged, nullptr, ""}; }
  static PassResult Rebuilt(std::unique_ptr<ir::Module> m) {
    return {PassStatus::kChanged, std::move(m), ""};
  }
  static PassResult Failed(std::string message) {
    return {PassStatus::kFailed, nullptr, std::move(message)};
  }
};

// What --time-report shows of one pass run.
struct PassTiming {
  std::string pass;  // The flag without "--"; "driver/sub-pass" for a driver's sub-passes.
  PassStatus status;
  double milliseconds;
  size_t instructions_before = 0;
  size_t instructions_after = 0;
};

class Pass {
 public:
  virtual ~Pass() = default;
  // The command-line flag without "--", e.g. "fold-spec-const".
  virtual const char* name() const = 0;
  // Analyses (ir::Analysis bits) that stay valid after an in-place change.
  virtual uint32_t preserved() const { return 0; }
  virtual PassResult Run(ir::Module& module) = 0;
  // For a pass that runs other passes: their timings in the last Run, moved out.
  virtual std::vector<PassTiming> TakeSubPassTimings() { return {}; }
};

}  // namespace coopspv::opt

#endif  // COOPSPV_SOURCE_OPT_PASS_H_
