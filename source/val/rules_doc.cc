// Prints docs/rules.md from the rule registry.
#include <cstdio>
#include <string>

#include "source/val/rules.h"

int main() {
  using coopspv::val::AllRules;
  using coopspv::val::Severity;
  std::printf(
      "# Validation rules\n"
      "\n"
      "Every diagnostic of `coopspv-val` names one of these rules. Generated from the rule\n"
      "registry (`source/val/rules.cc`) by `bazel run //source/val:rules_doc`; a test keeps this\n"
      "file in sync. Suppress a rule with `--suppress=<rule-id>`; report a warning rule as an\n"
      "error with `--warn-as-error=<rule-id>`.\n");
  std::string family;
  for (const auto& rule : AllRules()) {
    if (family != rule.family) {
      family = rule.family;
      std::printf("\n## %s\n\n| rule | severity | clause | requires |\n|---|---|---|---|\n",
                  family.c_str());
    }
    std::printf("| `%s` | %s | %s | %s |\n", rule.id,
                rule.severity == Severity::kError ? "error" : "warning", rule.clause, rule.summary);
  }
  return 0;
}
