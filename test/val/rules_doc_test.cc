// docs/rules.md is generated from the rule registry; this test fails when they drift apart.
// Regenerate with: bazel run //source/val:rules_doc > docs/rules.md
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "source/val/rules.h"

namespace coopspv::val {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(RulesDoc, MatchesTheRegistry) {
  FILE* pipe = popen("source/val/rules_doc", "r");
  ASSERT_NE(pipe, nullptr);
  std::string generated;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) generated.append(buffer.data(), n);
  ASSERT_EQ(pclose(pipe), 0);
  EXPECT_EQ(ReadAll("docs/rules.md"), generated)
      << "docs/rules.md is stale: bazel run //source/val:rules_doc > docs/rules.md";
}

TEST(RulesDoc, RuleIdsAreUniqueAndWellFormed) {
  std::set<std::string> ids;
  for (const Rule& r : AllRules()) {
    EXPECT_TRUE(ids.insert(r.id).second) << "duplicate rule id " << r.id;
    const std::string id = r.id;
    EXPECT_NE(id.find('.'), std::string::npos) << id << " needs a family prefix";
    EXPECT_EQ(id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-"), std::string::npos)
        << id;
    EXPECT_NE(std::string(r.clause), "") << id;
    EXPECT_NE(std::string(r.summary), "") << id;
    EXPECT_EQ(FindRule(r.id), &r);
  }
  EXPECT_EQ(FindRule("no.such-rule"), nullptr);
}

}  // namespace
}  // namespace coopspv::val
