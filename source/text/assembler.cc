#include "source/text/assembler.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "source/binary/writer.h"
#include "source/common/float.h"
#include "source/common/literal.h"
#include "source/grammar/grammar.h"

namespace coopspv::text {
namespace {

using grammar::OperandCategory;
using grammar::OperandInfo;
using grammar::OperandKind;
using grammar::Quantifier;

enum class TokenType : uint8_t { kId, kEquals, kString, kWord, kRaw };

struct Token {
  TokenType type;
  std::string text;  // Id name without '%', string contents unescaped, word as written.
  uint32_t line, column;
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  // Tokenizes everything; comments run from ';' to the end of the line.
  bool Run(std::vector<Token>* tokens, Diagnostic* diagnostic) {
    while (true) {
      SkipSpaceAndComments();
      if (pos_ >= text_.size()) return true;
      const uint32_t line = line_, column = Column();
      const char c = text_[pos_];
      if (c == '"') {
        std::string value;
        ++pos_;
        bool closed = false;
        while (pos_ < text_.size()) {
          char ch = text_[pos_++];
          if (ch == '"') {
            closed = true;
            break;
          }
          if (ch == '\\') {
            if (pos_ >= text_.size()) break;
            ch = text_[pos_++];
          }
          if (ch == '\n') NewLine();
          value += ch;
        }
        if (!closed) return Error(diagnostic, line, column, "string has no closing quote");
        tokens->push_back({TokenType::kString, std::move(value), line, column});
        continue;
      }
      if (c == '=') {
        ++pos_;
        tokens->push_back({TokenType::kEquals, "=", line, column});
        continue;
      }
      const size_t start = pos_;
      while (pos_ < text_.size() && !IsSpace(text_[pos_]) && text_[pos_] != ';' &&
             text_[pos_] != '"' && text_[pos_] != '=') {
        ++pos_;
      }
      std::string word(text_.substr(start, pos_ - start));
      if (word[0] == '%') {
        if (word.size() == 1) return Error(diagnostic, line, column, "'%' without an id name");
        for (size_t i = 1; i < word.size(); ++i) {
          const char ch = word[i];
          const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                          (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-';
          if (!ok) {
            return Error(diagnostic, line, column + static_cast<uint32_t>(i),
                         "invalid character in id name '" + word + "'");
          }
        }
        tokens->push_back({TokenType::kId, word.substr(1), line, column});
      } else if (word[0] == '!') {
        tokens->push_back({TokenType::kRaw, word.substr(1), line, column});
      } else {
        tokens->push_back({TokenType::kWord, std::move(word), line, column});
      }
    }
  }

 private:
  static bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
  uint32_t Column() const { return static_cast<uint32_t>(pos_ - line_start_) + 1; }
  void NewLine() {
    ++line_;
    line_start_ = pos_;
  }
  void SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++pos_;
        NewLine();
      } else if (IsSpace(c)) {
        ++pos_;
      } else if (c == ';') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }
  static bool Error(Diagnostic* d, uint32_t line, uint32_t column, std::string message) {
    if (d) {
      d->message = std::move(message);
      d->line = line;
      d->column = column;
    }
    return false;
  }

  std::string_view text_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  size_t line_start_ = 0;
};

struct NumericType {
  enum Kind : uint8_t { kNone, kUnsigned, kSigned, kFloat } kind = kNone;
  uint32_t width = 0;
  int32_t encoding = -1;
};

class Assembler {
 public:
  Assembler(const AssembleOptions& options, Diagnostic* diagnostic)
      : options_(options), diagnostic_(diagnostic) {}

  bool Run(std::string_view text, std::vector<uint32_t>* words);

 private:
  bool Error(const Token& at, std::string message) {
    if (diagnostic_) {
      diagnostic_->message = std::move(message);
      diagnostic_->line = at.line;
      diagnostic_->column = at.column;
    }
    return false;
  }
  bool ErrorAtEnd(std::string message) {
    if (tokens_.empty()) {
      if (diagnostic_) diagnostic_->message = std::move(message);
      return false;
    }
    return Error(tokens_.back(), std::move(message));
  }

  void ReadHeaderComments(std::string_view text);
  uint32_t IdFor(const std::string& name);
  bool AtInstructionStart(size_t i) const;
  bool ErrorAfterLastOperand(const char* inst_name);
  bool AssembleInstruction();
  bool AssembleOperand(const OperandInfo& expected, const char* inst_name);
  bool EncodeNumber(const Token& token, const NumericType& type);
  bool EncodeEnum(const Token& token, OperandKind kind);
  void PushOperands(std::span<const OperandInfo> ops) {
    for (size_t i = ops.size(); i-- > 0;) pending_.push_back(ops[i]);
  }

  AssembleOptions options_;
  Diagnostic* diagnostic_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  std::vector<uint32_t> out_;
  std::vector<OperandInfo> pending_;

  std::unordered_map<std::string, uint32_t> ids_;
  std::unordered_set<uint32_t> preserved_;  // Numeric ids kept as written.
  uint32_t next_id_ = 1;
  std::unordered_map<uint32_t, NumericType> numeric_types_;
  std::unordered_map<uint32_t, uint32_t> value_types_;
  std::unordered_map<uint32_t, int> ext_sets_;

  // Per instruction.
  uint32_t type_id_ = 0;
  uint32_t result_id_ = 0;
  uint32_t context_type_ = 0;
  uint32_t last_id_ = 0;
  size_t inst_start_ = 0;

  // Header comments.
  std::optional<uint32_t> comment_version_;
  uint32_t generator_ = 0;
  uint32_t comment_bound_ = 0;
  uint32_t schema_ = 0;
};

void Assembler::ReadHeaderComments(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty()) continue;
    if (line[0] != ';') break;
    auto value_of = [&](std::string_view key) -> std::optional<std::string_view> {
      if (line.substr(0, key.size()) != key) return std::nullopt;
      return line.substr(key.size());
    };
    if (auto v = value_of("; Version: ")) {
      unsigned major = 0, minor = 0;
      if (std::sscanf(std::string(*v).c_str(), "%u.%u", &major, &minor) == 2 && major < 256 &&
          minor < 256) {
        comment_version_ = (major << 16) | (minor << 8);
      }
    } else if (auto g = value_of("; Generator: ")) {
      const size_t semi = g->rfind("; ");
      if (semi == std::string_view::npos) continue;
      const std::string_view tool = g->substr(0, semi);
      uint64_t version = 0;
      bool negative = false;
      if (!ParseInteger(g->substr(semi + 2), &negative, &version) || negative || version > 0xFFFF) {
        continue;
      }
      uint32_t tool_id = 0;
      if (const grammar::GeneratorInfo* info = grammar::LookupGeneratorByName(tool)) {
        tool_id = info->id;
      } else if (tool.substr(0, 8) == "Unknown(" && tool.back() == ')') {
        uint64_t id = 0;
        if (!ParseInteger(tool.substr(8, tool.size() - 9), &negative, &id) || id > 0xFFFF) continue;
        tool_id = static_cast<uint32_t>(id);
      } else {
        continue;
      }
      generator_ = (tool_id << 16) | static_cast<uint32_t>(version);
    } else if (auto b = value_of("; Bound: ")) {
      uint64_t bound = 0;
      bool negative = false;
      if (ParseInteger(*b, &negative, &bound) && !negative && bound <= 0xFFFFFFFFu) {
        comment_bound_ = static_cast<uint32_t>(bound);
      }
    } else if (auto s = value_of("; Schema: ")) {
      uint64_t schema = 0;
      bool negative = false;
      if (ParseInteger(*s, &negative, &schema) && !negative && schema <= 0xFFFFFFFFu) {
        schema_ = static_cast<uint32_t>(schema);
      }
    }
  }
}

uint32_t Assembler::IdFor(const std::string& name) {
  auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  uint32_t id = 0;
  if (options_.preserve_numeric_ids) {
    uint64_t value = 0;
    bool negative = false;
    if (ParseInteger(name, &negative, &value) && !negative && value > 0 && value < 0xFFFFFFFFu &&
        name[0] != '0' && name.find_first_not_of("0123456789") == std::string::npos) {
      id = static_cast<uint32_t>(value);
    }
  }
  if (id == 0) {
    while (preserved_.count(next_id_)) ++next_id_;
    id = next_id_++;
  }
  ids_.emplace(name, id);
  return id;
}

bool Assembler::AtInstructionStart(size_t i) const {
  if (i >= tokens_.size()) return true;
  const Token& t = tokens_[i];
  if (t.type == TokenType::kId) {
    return i + 1 < tokens_.size() && tokens_[i + 1].type == TokenType::kEquals;
  }
  return t.type == TokenType::kWord && t.text.size() > 2 && t.text[0] == 'O' && t.text[1] == 'p' &&
         grammar::LookupInstruction(t.text) != nullptr;
}

bool Assembler::ErrorAfterLastOperand(const char* inst_name) {
  const Token& t = tokens_[pos_];
  if (t.type == TokenType::kWord && t.text.size() > 2 && t.text.compare(0, 2, "Op") == 0) {
    return Error(t, "unknown opcode '" + t.text + "'");
  }
  if (t.type == TokenType::kId && pos_ + 1 < tokens_.size() &&
      tokens_[pos_ + 1].type == TokenType::kWord &&
      grammar::LookupInstruction(tokens_[pos_ + 1].text) != nullptr) {
    return Error(t, "expected '=' after result id %" + t.text);
  }
  const std::string shown = t.type == TokenType::kId ? "%" + t.text : t.text;
  return Error(
      t, std::string(inst_name) + ": unexpected operand '" + shown + "' after the last operand");
}

bool Assembler::Run(std::string_view text, std::vector<uint32_t>* words) {
  ReadHeaderComments(text);
  Lexer lexer(text);
  if (!lexer.Run(&tokens_, diagnostic_)) return false;
  if (options_.preserve_numeric_ids) {
    for (const Token& t : tokens_) {
      if (t.type != TokenType::kId) continue;
      uint64_t value = 0;
      bool negative = false;
      if (t.text[0] != '0' && t.text.find_first_not_of("0123456789") == std::string::npos &&
          ParseInteger(t.text, &negative, &value) && value < 0xFFFFFFFFu) {
        preserved_.insert(static_cast<uint32_t>(value));
      }
    }
  }
  out_.assign(binary::kHeaderWords, 0);
  while (pos_ < tokens_.size()) {
    if (!AssembleInstruction()) return false;
  }
  uint32_t bound = next_id_;
  for (const auto& [name, id] : ids_) bound = std::max(bound, id + 1);
  if (bound == 0) return ErrorAtEnd("too many ids: the bound would exceed 2^32");
  out_[0] = spv::kMagicNumber;
  out_[1] = options_.version.value_or(comment_version_.value_or(options_.default_version));
  out_[2] = generator_;
  out_[3] = std::max(bound, comment_bound_);
  out_[4] = schema_;
  *words = std::move(out_);
  return true;
}

bool Assembler::AssembleInstruction() {
  const Token& first = tokens_[pos_];
  std::string result_name;
  const Token* result_token = nullptr;
  if (first.type == TokenType::kId) {
    if (pos_ + 1 >= tokens_.size() || tokens_[pos_ + 1].type != TokenType::kEquals) {
      return Error(first, "expected '=' after result id %" + first.text);
    }
    result_token = &first;
    pos_ += 2;
    if (pos_ >= tokens_.size()) return ErrorAtEnd("expected an opcode after '='");
  }
  const Token& op_token = tokens_[pos_];
  inst_start_ = out_.size();
  if (op_token.type == TokenType::kRaw) {
    // Raw words: emitted as written, up to the next instruction.
    if (result_token) return Error(op_token, "a raw-word instruction cannot have a result id");
    while (pos_ < tokens_.size() && tokens_[pos_].type == TokenType::kRaw) {
      bool negative = false;
      uint64_t value = 0;
      if (!ParseInteger(tokens_[pos_].text, &negative, &value) || negative || value > 0xFFFFFFFFu) {
        return Error(tokens_[pos_], "'!" + tokens_[pos_].text + "' is not a 32-bit word");
      }
      out_.push_back(static_cast<uint32_t>(value));
      ++pos_;
    }
    return true;
  }
  if (op_token.type != TokenType::kWord) {
    return Error(op_token, "expected an opcode name, found '" + op_token.text + "'");
  }
  const grammar::InstructionInfo* info = grammar::LookupInstruction(op_token.text);
  if (info == nullptr) return Error(op_token, "unknown opcode '" + op_token.text + "'");
  if (result_token && !info->has_result) {
    return Error(*result_token, std::string(info->name) + " does not produce a result id");
  }
  if (!result_token && info->has_result) {
    return Error(op_token, std::string(info->name) +
                               " requires a result id: '%name = " + info->name + " ...'");
  }
  ++pos_;
  type_id_ = 0;
  result_id_ = 0;
  context_type_ = 0;
  last_id_ = 0;
  out_.push_back(info->opcode);
  pending_.clear();
  auto ops = grammar::Operands(*info);
  size_t first_operand = 0;
  // The result type is written before the result id's "=" position in text, but after it in
  // binary: "%r = OpFoo %type ...". Handle the type first, then the result.
  if (info->has_result_type) {
    if (AtInstructionStart(pos_) || tokens_[pos_].type != TokenType::kId) {
      return Error(pos_ < tokens_.size() ? tokens_[pos_] : op_token,
                   std::string(info->name) + ": expected the result type id");
    }
    type_id_ = IdFor(tokens_[pos_].text);
    context_type_ = type_id_;
    out_.push_back(type_id_);
    ++pos_;
    first_operand = 1;
  }
  if (info->has_result) {
    result_id_ = IdFor(result_token->text);
    out_.push_back(result_id_);
    ++first_operand;
  }
  PushOperands(ops.subspan(first_operand));
  while (!pending_.empty()) {
    const OperandInfo expected = pending_.back();
    pending_.pop_back();
    if (AtInstructionStart(pos_)) {
      if (expected.quantifier != Quantifier::kOne) continue;
      const std::string what = expected.name[0] ? std::string(" '") + expected.name + "'" : "";
      const Token& at = pos_ < tokens_.size() ? tokens_[pos_] : tokens_.back();
      return Error(at, std::string(info->name) + ": missing operand" + what + " (" +
                           grammar::GetOperandKind(expected.kind).name + ")");
    }
    if (expected.quantifier == Quantifier::kVariadic) pending_.push_back(expected);
    if (!AssembleOperand(expected, info->name)) return false;
  }
  // With every operand read, a raw word starts a raw-word instruction.
  if (!AtInstructionStart(pos_) && tokens_[pos_].type != TokenType::kRaw) {
    return ErrorAfterLastOperand(info->name);
  }
  const size_t count = out_.size() - inst_start_;
  if (count > 0xFFFF) {
    return Error(op_token, std::string(info->name) + ": instruction exceeds 65535 words");
  }
  out_[inst_start_] |= static_cast<uint32_t>(count) << 16;

  // Remember types for the literals of later instructions.
  if (result_id_ != 0) {
    value_types_[result_id_] = type_id_;
    const uint32_t* w = out_.data() + inst_start_;
    if (info->opcode == static_cast<uint32_t>(spv::Op::TypeInt) && count >= 4) {
      numeric_types_[result_id_] = {w[3] ? NumericType::kSigned : NumericType::kUnsigned, w[2]};
    } else if (info->opcode == static_cast<uint32_t>(spv::Op::TypeFloat) && count >= 3) {
      numeric_types_[result_id_] = {NumericType::kFloat, w[2],
                                    count >= 4 ? static_cast<int32_t>(w[3]) : -1};
    } else if (info->opcode == static_cast<uint32_t>(spv::Op::ExtInstImport)) {
      ext_sets_[result_id_] = grammar::LookupExtInstSet(
          binary::DecodeString(std::span<const uint32_t>(w + 2, count - 2)));
    }
  }
  return true;
}

bool Assembler::AssembleOperand(const OperandInfo& expected, const char* inst_name) {
  const Token& token = tokens_[pos_];
  const grammar::OperandKindInfo& kind = grammar::GetOperandKind(expected.kind);
  // Made only for a diagnostic: building it for every operand took a quarter of the assembly.
  const auto where = [&] {
    std::string text = std::string(inst_name) + ": operand";
    if (expected.name[0]) text += std::string(" '") + expected.name + "'";
    return text;
  };
  if (token.type == TokenType::kRaw) {
    bool negative = false;
    uint64_t value = 0;
    if (!ParseInteger(token.text, &negative, &value) || negative || value > 0xFFFFFFFFu) {
      return Error(token, "'!" + token.text + "' is not a 32-bit word");
    }
    out_.push_back(static_cast<uint32_t>(value));
    ++pos_;
    return true;
  }
  switch (kind.category) {
    case OperandCategory::kId: {
      if (token.type != TokenType::kId) {
        return Error(token, where() + " must be an id (%name), found '" + token.text + "'");
      }
      const uint32_t id = IdFor(token.text);
      out_.push_back(id);
      last_id_ = id;
      if (static_cast<spv::Op>(out_[inst_start_] & 0xFFFF) == spv::Op::Switch &&
          out_.size() == inst_start_ + 2) {
        auto it = value_types_.find(id);
        context_type_ = it == value_types_.end() ? 0 : it->second;
      }
      ++pos_;
      return true;
    }
    case OperandCategory::kComposite:
      if (expected.kind == OperandKind::kPairLiteralIntegerIdRef) {
        pending_.push_back({OperandKind::kIdRef, Quantifier::kOne, ""});
        pending_.push_back({OperandKind::kLiteralContextDependentNumber, Quantifier::kOne, ""});
      } else if (expected.kind == OperandKind::kPairIdRefLiteralInteger) {
        pending_.push_back({OperandKind::kLiteralInteger, Quantifier::kOne, ""});
        pending_.push_back({OperandKind::kIdRef, Quantifier::kOne, ""});
      } else {
        pending_.push_back({OperandKind::kIdRef, Quantifier::kOne, ""});
        pending_.push_back({OperandKind::kIdRef, Quantifier::kOne, ""});
      }
      return true;
    case OperandCategory::kValueEnum:
    case OperandCategory::kBitEnum:
      if (token.type != TokenType::kWord) {
        return Error(token,
                     where() + " must be a " + kind.name + " name, found '" + token.text + "'");
      }
      if (!EncodeEnum(token, expected.kind)) return false;
      ++pos_;
      return true;
    case OperandCategory::kLiteral:
      break;
  }
  switch (expected.kind) {
    case OperandKind::kLiteralString:
      if (token.type != TokenType::kString) {
        return Error(token, where() + " must be a quoted string");
      }
      // The binary string ends at its first null byte: one inside would not read back.
      if (token.text.find('\0') != std::string::npos) {
        return Error(token, where() + ": a literal string cannot contain a null character");
      }
      binary::AppendString(token.text, &out_);
      ++pos_;
      return true;
    case OperandKind::kLiteralContextDependentNumber: {
      if (token.type != TokenType::kWord) return Error(token, where() + " must be a number");
      auto it = numeric_types_.find(context_type_);
      if (it == numeric_types_.end()) {
        return Error(token, where() + ": the type of this literal is not a numeric scalar type");
      }
      if (!EncodeNumber(token, it->second)) return false;
      ++pos_;
      return true;
    }
    case OperandKind::kLiteralExtInstInteger: {
      if (token.type != TokenType::kWord) return Error(token, where() + " must be an instruction");
      auto it = ext_sets_.find(last_id_);
      const int set = it == ext_sets_.end() ? -1 : it->second;
      const grammar::ExtInstInfo* ext = nullptr;
      if (set >= 0) ext = grammar::LookupExtInst(set, token.text);
      bool negative = false;
      uint64_t number = 0;
      if (ext == nullptr && ParseInteger(token.text, &negative, &number) && !negative &&
          number <= 0xFFFFFFFFu) {
        if (set >= 0) ext = grammar::LookupExtInst(set, static_cast<uint32_t>(number));
        if (ext == nullptr && set >= 0) {
          return Error(token, where() + ": " + token.text + " is not an instruction of " +
                                  grammar::GetExtInstSet(set).name);
        }
        out_.push_back(static_cast<uint32_t>(number));
      } else if (ext == nullptr) {
        return Error(token, where() + ": unknown extended instruction '" + token.text + "'" +
                                (set >= 0 ? std::string(" in ") + grammar::GetExtInstSet(set).name
                                          : std::string(" (the set is not known: use numbers)")));
      } else {
        out_.push_back(ext->opcode);
      }
      // A known instruction replaces OpExtInst's own "IdRef*" operands with its own.
      if (ext) {
        if (!pending_.empty() && pending_.back().kind == OperandKind::kIdRef &&
            pending_.back().quantifier == Quantifier::kVariadic) {
          pending_.pop_back();
        }
        PushOperands(grammar::Operands(*ext));
      }
      ++pos_;
      return true;
    }
    case OperandKind::kLiteralSpecConstantOpInteger: {
      if (token.type != TokenType::kWord) return Error(token, where() + " must be an opcode name");
      const grammar::InstructionInfo* target = grammar::LookupInstruction("Op" + token.text);
      if (target == nullptr) target = grammar::LookupInstruction(token.text);
      if (target == nullptr) return Error(token, where() + ": unknown opcode '" + token.text + "'");
      out_.push_back(target->opcode);
      auto ops = grammar::Operands(*target);
      const size_t skip = (target->has_result_type ? 1 : 0) + (target->has_result ? 1 : 0);
      PushOperands(ops.subspan(std::min(skip, ops.size())));
      ++pos_;
      return true;
    }
    case OperandKind::kLiteralFloat: {
      if (token.type != TokenType::kWord) return Error(token, where() + " must be a number");
      uint64_t bits = 0;
      std::string error;
      if (!ParseFloat(token.text, kSingle, &bits, &error))
        return Error(token, where() + ": " + error);
      out_.push_back(static_cast<uint32_t>(bits));
      ++pos_;
      return true;
    }
    default: {  // LiteralInteger.
      if (token.type != TokenType::kWord) return Error(token, where() + " must be an integer");
      bool negative = false;
      uint64_t value = 0;
      if (!ParseInteger(token.text, &negative, &value) ||
          (negative ? value > 0x80000000u : value > 0xFFFFFFFFu)) {
        return Error(token, where() + ": '" + token.text + "' is not a 32-bit integer");
      }
      out_.push_back(static_cast<uint32_t>(negative ? -static_cast<int64_t>(value) : value));
      ++pos_;
      return true;
    }
  }
}

bool Assembler::EncodeNumber(const Token& token, const NumericType& type) {
  ScalarType scalar;
  scalar.kind = type.kind == NumericType::kFloat    ? ScalarType::kFloat
                : type.kind == NumericType::kSigned ? ScalarType::kSigned
                                                    : ScalarType::kUnsigned;
  scalar.width = type.width;
  scalar.fp_encoding = type.encoding;
  uint64_t bits = 0;
  std::string error;
  if (!EncodeLiteral(token.text, scalar, &bits, &error)) return Error(token, error);
  out_.push_back(static_cast<uint32_t>(bits));
  if (type.width > 32) out_.push_back(static_cast<uint32_t>(bits >> 32));
  return true;
}

bool Assembler::EncodeEnum(const Token& token, OperandKind kind) {
  const grammar::OperandKindInfo& info = grammar::GetOperandKind(kind);
  auto value_of = [&](std::string_view part, uint32_t* value) {
    if (const grammar::EnumerantInfo* e = grammar::LookupEnumerant(kind, part)) {
      *value = e->value;
      return true;
    }
    bool negative = false;
    uint64_t number = 0;
    if (ParseInteger(part, &negative, &number) && !negative && number <= 0xFFFFFFFFu) {
      *value = static_cast<uint32_t>(number);
      return true;
    }
    return false;
  };
  if (info.category == OperandCategory::kValueEnum) {
    uint32_t value = 0;
    if (!value_of(token.text, &value)) {
      return Error(token, "'" + token.text + "' is not a " + info.name + " value");
    }
    // The reader refuses values the grammar does not define: a raw word ("!<n>") writes one.
    const grammar::EnumerantInfo* e = grammar::LookupEnumerant(kind, value);
    if (e == nullptr) {
      return Error(token, "'" + token.text + "' is not a defined " + info.name + " value (write !" +
                              token.text + " for a raw word)");
    }
    out_.push_back(value);
    PushOperands(grammar::Parameters(*e));
    return true;
  }
  uint32_t mask = 0;
  std::string_view rest = token.text;
  while (true) {
    const size_t bar = rest.find('|');
    const std::string_view part = rest.substr(0, bar);
    uint32_t value = 0;
    if (part.empty() || !value_of(part, &value)) {
      return Error(token, "'" + std::string(part) + "' is not a " + info.name + " name");
    }
    mask |= value;
    if (bar == std::string_view::npos) break;
    rest.remove_prefix(bar + 1);
  }
  if (const uint32_t undefined = mask & ~info.valid_mask) {
    char bits[16];
    std::snprintf(bits, sizeof(bits), "0x%x", undefined);
    return Error(token, "bits " + std::string(bits) + " of '" + token.text + "' are not defined " +
                            info.name + " bits (write a raw word, !<n>, for them)");
  }
  out_.push_back(mask);
  // Parameters follow in the order of the mask's bits, lowest first.
  for (int bit = 31; bit >= 0; --bit) {
    const uint32_t b = 1u << bit;
    if (!(mask & b)) continue;
    if (const grammar::EnumerantInfo* e = grammar::LookupEnumerant(kind, b)) {
      auto params = grammar::Parameters(*e);
      for (size_t i = params.size(); i-- > 0;) pending_.push_back(params[i]);
    }
  }
  return true;
}

}  // namespace

bool Assemble(std::string_view text, const AssembleOptions& options, std::vector<uint32_t>* words,
              Diagnostic* diagnostic) {
  return Assembler(options, diagnostic).Run(text, words);
}

}  // namespace coopspv::text
