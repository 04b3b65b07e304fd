// Shared helpers of the libFuzzer targets in test/fuzz/ (built by utils/fuzz.sh, not by Bazel).
#ifndef COOPSPV_TEST_FUZZ_FUZZ_UTIL_H_
#define COOPSPV_TEST_FUZZ_FUZZ_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

namespace coopspv::fuzz {

// A broken invariant is a finding: print what and where, then abort so libFuzzer saves the input.
#define FUZZ_CHECK(cond)                                                                     \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                          \
    }                                                                                        \
  } while (0)

// The input's bytes as words; a tail of fewer than four bytes is dropped.
inline std::vector<uint32_t> WordsOf(const uint8_t* data, size_t size) {
  std::vector<uint32_t> words(size / 4);
  if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
  return words;
}

}  // namespace coopspv::fuzz

#endif  // COOPSPV_TEST_FUZZ_FUZZ_UTIL_H_
