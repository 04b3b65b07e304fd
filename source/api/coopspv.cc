#include "include/coopspv/coopspv.h"

#include "include/coopspv/coopspv.hpp"
#include "source/binary/reader.h"
#include "source/binary/writer.h"
#include "source/common/target_env.h"
#include "source/text/assembler.h"
#include "source/text/disassembler.h"

namespace coopspv {
namespace {

void Report(const Diagnostic& d, Problem* problem) {
  if (problem == nullptr) return;
  problem->message = d.message;
  problem->word_offset.reset();
  if (d.word_offset != Diagnostic::kNoOffset) problem->word_offset = d.word_offset;
  problem->line = d.line;
  problem->column = d.column;
}

}  // namespace

#define COOPSPV_STRINGIFY_(x) #x
#define COOPSPV_STRINGIFY(x) COOPSPV_STRINGIFY_(x)
const char* Version() {
  return "coopspv " COOPSPV_STRINGIFY(COOPSPV_VERSION_MAJOR) "." COOPSPV_STRINGIFY(
      COOPSPV_VERSION_MINOR) "." COOPSPV_STRINGIFY(COOPSPV_VERSION_PATCH);
}

std::string Problem::ToString() const {
  if (line != 0) return std::to_string(line) + ":" + std::to_string(column) + ": " + message;
  if (word_offset) return "word " + std::to_string(*word_offset) + ": " + message;
  return message;
}

std::optional<uint32_t> SpirvVersionForTargetEnv(std::string_view name) {
  const auto env = ParseTargetEnv(name);
  if (!env) return std::nullopt;
  return env->spirv_version;
}

const char* TargetEnvNames() { return coopspv::AllTargetEnvNames(); }

bool BytesToWords(std::span<const uint8_t> bytes, std::vector<uint32_t>* words, Problem* problem) {
  Diagnostic d;
  if (binary::BytesToWords(bytes, words, &d)) return true;
  Report(d, problem);
  return false;
}

std::vector<uint8_t> WordsToBytes(std::span<const uint32_t> words) {
  return binary::WordsToBytes(words);
}

bool Assemble(std::string_view text, const AssembleOptions& options, std::vector<uint32_t>* words,
              Problem* problem) {
  text::AssembleOptions internal;
  internal.version = options.version;
  internal.default_version = options.default_version;
  internal.preserve_numeric_ids = options.preserve_numeric_ids;
  Diagnostic d;
  if (text::Assemble(text, internal, words, &d)) return true;
  Report(d, problem);
  return false;
}

bool Disassemble(std::span<const uint32_t> words, const DisassembleOptions& options,
                 std::string* text, Problem* problem) {
  text::DisassembleOptions internal;
  internal.header = options.header;
  internal.indent = options.indent;
  internal.friendly_names = options.friendly_names;
  Diagnostic d;
  if (text::Disassemble(words, internal, text, &d)) return true;
  Report(d, problem);
  return false;
}

bool ParseCheck(std::span<const uint32_t> words, Problem* problem) {
  struct Ignore : binary::InstructionHandler {
    bool OnInstruction(const binary::ParsedInstruction&) override { return true; }
  } ignore;
  Diagnostic d;
  if (binary::Parse(words, ignore, &d)) return true;
  Report(d, problem);
  return false;
}

}  // namespace coopspv
