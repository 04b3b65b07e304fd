// A small strict JSON reader and the string quoting the profile writer needs. Only what device
// profiles use: objects keep their keys in order and refuse duplicates, numbers keep their text
// (the profile reads them as integers), nesting is bounded so hostile input cannot exhaust the
// stack.
#ifndef COOPSPV_SOURCE_PROFILE_JSON_H_
#define COOPSPV_SOURCE_PROFILE_JSON_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coopspv::profile::json {

struct Value {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  bool boolean = false;
  std::string text;             // kString: the decoded string; kNumber: the number as written.
  std::vector<Value> elements;  // kArray.
  // kObject, in input order. (A struct defined below rather than std::pair: a pair of an
  // incomplete Value is rejected by clang with libstdc++.)
  struct Member;
  std::vector<Member> members;

  // kNumber holding an integer (no fraction or exponent) in [min, max].
  std::optional<long long> Integer(long long min, long long max) const;
};

struct Value::Member {
  std::string name;
  Value value;
};

// "object", "array", "string", ... for messages.
const char* KindName(Value::Kind kind);

// Parses `text` as exactly one JSON value. On failure returns nullopt and sets `error` to
// "line L, column C: what".
std::optional<Value> Parse(std::string_view text, std::string* error);

// `s` as a JSON string literal, quotes included.
std::string Quote(std::string_view s);

}  // namespace coopspv::profile::json

#endif  // COOPSPV_SOURCE_PROFILE_JSON_H_
