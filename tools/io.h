// File and stream helpers shared by the command-line tools.
#ifndef COOPSPV_TOOLS_IO_H_
#define COOPSPV_TOOLS_IO_H_

#include <cstdint>
#include <string>
#include <vector>

namespace coopspv::tools {

// Exit codes shared by every tool.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;  // The input is bad (or invalid, for the validator).
inline constexpr int kExitUsage = 2;    // Bad flags, or a file that cannot be read or written.

// Reads a whole file, or standard input for "-". Returns false with a message on failure.
bool ReadFile(const std::string& path, std::string* contents, std::string* error);
// Writes a whole file, or standard output for "-".
bool WriteFile(const std::string& path, const void* data, size_t size, std::string* error);

}  // namespace coopspv::tools

#endif  // COOPSPV_TOOLS_IO_H_
