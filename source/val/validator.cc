#include "source/val/validator.h"

#include "source/val/state.h"

namespace coopspv::val {

Result Validate(const ir::Module& module, const Options& options) {
  Result result;
  ValidationState state(module, options, &result);
  // Each family runs unless the error limit was reached; families that need well-formed
  // functions check state.structure_ok themselves.
  void (*const families[])(ValidationState&) = {
      ValidateLayout,           ValidateCapabilities, ValidateIds,        ValidateTypes,
      ValidateConstants,        ValidateFunctions,    ValidateSsa,        ValidateScopes,
      ValidatePointers,         ValidateCore,         ValidateCoopMatrix, ValidateCoopVector,
      ValidateTensorAddressing, ValidateCoopMatrix2,  ValidateUniformity, ValidateDevice,
  };
  for (auto family : families) {
    if (state.Full()) break;
    family(state);
  }
  return result;
}

Result Validate(std::span<const uint32_t> words, const Options& options) {
  coopspv::Diagnostic d;
  binary::ReaderOptions reader_options;
  reader_options.max_id_bound = options.max_id_bound;
  std::unique_ptr<ir::Module> module = ir::Module::ReadInPlace(words, &d, reader_options);
  if (module == nullptr) {
    Result result;
    result.valid = false;
    result.num_errors = 1;
    Diagnostic diag;
    diag.rule = FindRule("binary.malformed");
    diag.severity = Severity::kError;
    diag.message = d.ToString();
    if (d.word_offset != coopspv::Diagnostic::kNoOffset) {
      diag.word_offset = static_cast<uint32_t>(d.word_offset);
    }
    result.diagnostics.push_back(std::move(diag));
    return result;
  }
  return Validate(*module, options);
}

}  // namespace coopspv::val
