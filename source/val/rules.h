// The rule registry: every diagnostic the validator can give has an entry here, with a stable
// id users can grep, suppress and look up, its default severity, and the clause it enforces.
// docs/rules.md is generated from this table (//source/val:rules_doc) and a test keeps the two
// in sync.
#ifndef COOPSPV_SOURCE_VAL_RULES_H_
#define COOPSPV_SOURCE_VAL_RULES_H_

#include <span>
#include <string_view>

namespace coopspv::val {

enum class Severity : unsigned char { kError, kWarning };

struct Rule {
  const char* id;
  Severity severity;
  const char* family;   // The source file family: "binary", "layout", "ids", ...
  const char* clause;   // The spec clause or VUID.
  const char* summary;  // One line: what the rule requires.
};

std::span<const Rule> AllRules();
// The rule with this id; nullptr when there is none.
const Rule* FindRule(std::string_view id);

}  // namespace coopspv::val

#endif  // COOPSPV_SOURCE_VAL_RULES_H_
