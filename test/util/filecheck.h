// A small FileCheck: checks printed IR against expectations written as directives.
//   CHECK: <text>       a later line contains <text>
//   CHECK-NEXT: <text>  the line right after the previous match contains <text>
//   CHECK-NOT: <text>   no line between the previous and the next match (or the end) contains it
// Patterns are literal substrings; the directives may be indented.
#ifndef COOPSPV_TEST_UTIL_FILECHECK_H_
#define COOPSPV_TEST_UTIL_FILECHECK_H_

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace coopspv::testing {

inline ::testing::AssertionResult FileCheck(const std::string& text, const std::string& checks) {
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  struct Directive {
    enum Kind { kCheck, kNext, kNot } kind;
    std::string pattern;
  };
  std::vector<Directive> directives;
  {
    std::istringstream in(checks);
    for (std::string line; std::getline(in, line);) {
      const size_t start = line.find_first_not_of(" \t");
      if (start == std::string::npos) continue;
      std::string_view l(line);
      l.remove_prefix(start);
      auto take = [&](std::string_view prefix, Directive::Kind kind) {
        if (l.substr(0, prefix.size()) != prefix) return false;
        std::string_view p = l.substr(prefix.size());
        while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
        directives.push_back({kind, std::string(p)});
        return true;
      };
      if (!take("CHECK-NEXT:", Directive::kNext) && !take("CHECK-NOT:", Directive::kNot) &&
          !take("CHECK:", Directive::kCheck)) {
        return ::testing::AssertionFailure() << "not a directive: " << line;
      }
    }
  }
  size_t pos = 0;  // Next line to search.
  bool matched_any = false;
  std::vector<std::string> nots;
  auto check_nots = [&](size_t from, size_t to) -> ::testing::AssertionResult {
    for (const std::string& n : nots) {
      for (size_t k = from; k < to && k < lines.size(); ++k) {
        if (lines[k].find(n) != std::string::npos) {
          return ::testing::AssertionFailure() << "CHECK-NOT: '" << n << "' found on line "
                                               << (k + 1) << ": " << lines[k] << "\n--- text ---\n"
                                               << text;
        }
      }
    }
    nots.clear();
    return ::testing::AssertionSuccess();
  };
  for (const Directive& d : directives) {
    if (d.kind == Directive::kNot) {
      nots.push_back(d.pattern);
      continue;
    }
    size_t found = lines.size();
    if (d.kind == Directive::kNext) {
      if (!matched_any) return ::testing::AssertionFailure() << "CHECK-NEXT without a CHECK";
      if (pos < lines.size() && lines[pos].find(d.pattern) != std::string::npos) found = pos;
    } else {
      for (size_t k = pos; k < lines.size(); ++k) {
        if (lines[k].find(d.pattern) != std::string::npos) {
          found = k;
          break;
        }
      }
    }
    if (found == lines.size()) {
      return ::testing::AssertionFailure()
             << (d.kind == Directive::kNext ? "CHECK-NEXT: '" : "CHECK: '") << d.pattern
             << "' not found after line " << pos << "\n--- text ---\n"
             << text;
    }
    if (auto r = check_nots(pos, found); !r) return r;
    pos = found + 1;
    matched_any = true;
  }
  return check_nots(pos, lines.size());
}

}  // namespace coopspv::testing

#endif  // COOPSPV_TEST_UTIL_FILECHECK_H_
