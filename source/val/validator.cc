#include "source/val/validator.h"

#include "source/val/state.h"

namespace coopspv::val {

Result Validate(const ir::Module& module, const Options& options) {
  Result result;
  ValidationState state(module, options, &result);
  // Each family runs unless the error limit was reached; families that need well-formed
  // functions check state.structure_ok themselves.
  void (*const families[])(ValidationState&) = {
      ValidateLayout,     ValidateCapabilities,     ValidateIds,
      ValidateTypes,      ValidateConstants,        ValidateFunctions,
      ValidateSsa,        ValidateScopes,           ValidatePointers,
      ValidateCore,       ValidateExtInst,          ValidateCoopMatrix,       ValidateCoopMatrixQcom,
      ValidateCoopVector, ValidateTensorAddressing, ValidateCoopMatrix2,
      ValidateUniformity, ValidateDevice,
  };
  for (auto family : families) {
    if (state.Full()) break;
    family(state);
  }
  return result;
}

namespace {

Result ReadAndValidate(std::span<const uint32_t> words, const Options& options,
                       coopspv::Diagnostic& d) {
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
    if (d.word_offset != coopspv::Diagnostic::kNoOffset) {
      diag.word_offset = static_cast<uint32_t>(d.word_offset);
      diag.message = "word " + ws::to_string(d.word_offset) + ": ";
    }
    diag.message += d.message;
    result.diagnostics.push_back(std::move(diag));
    return result;
  }
  return Validate(*module, options);
}

}  // namespace

Result Validate(std::span<const uint32_t> words, const Options& options) {
  coopspv::Diagnostic d;
  return ReadAndValidate(words, options, d);
}

const Result& Validate(std::span<const uint32_t> words, const Options& options,
                       Workspace* workspace) {
  ws::Scope scope(&workspace->pool);
  // Everything of the last call goes back to the pool first, so that a call starts with every
  // block free: it then allocates only when it needs more blocks of a size at once than an
  // earlier call through this workspace did.
  workspace->result = Result();
  workspace->reader.message.clear();
  workspace->reader.word_offset = coopspv::Diagnostic::kNoOffset;
  workspace->result = ReadAndValidate(words, options, workspace->reader);
  return workspace->result;
}

}  // namespace coopspv::val
