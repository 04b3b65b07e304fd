// Runs a list of passes over a module, optionally validating after each one and timing them.
#ifndef COOPSPV_SOURCE_OPT_PASS_MANAGER_H_
#define COOPSPV_SOURCE_OPT_PASS_MANAGER_H_

#include <memory>
#include <string>
#include <vector>

#include "source/opt/pass.h"
#include "source/val/validator.h"

namespace coopspv::opt {

struct PassManagerOptions {
  bool validate_after_each = false;
  val::Options validator;
};

class PassManager {
 public:
  void Add(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }
  size_t size() const { return passes_.size(); }

  // Runs every pass in order on *module (replacing it when a pass rebuilds it). Returns false
  // with a message naming the pass when one fails or, with validate_after_each, leaves an
  // invalid module.
  bool Run(std::unique_ptr<ir::Module>* module, const PassManagerOptions& options,
           std::vector<PassTiming>* timings, std::string* error);

 private:
  std::vector<std::unique_ptr<Pass>> passes_;
};

}  // namespace coopspv::opt

#endif  // COOPSPV_SOURCE_OPT_PASS_MANAGER_H_
