// File and stream helpers, and pass flags, shared by the command-line tools.
#ifndef COOPSPV_TOOLS_IO_H_
#define COOPSPV_TOOLS_IO_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"

namespace coopspv::tools {

// Exit codes shared by every tool.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;  // The input is bad (or invalid, for the validator).
inline constexpr int kExitUsage = 2;    // Bad flags, or a file that cannot be read or written.

// Reads a whole file, or standard input for "-". On failure prints "error: ..." to standard
// error and returns false.
bool ReadFile(const std::string& path, std::string* contents);
// Reads a regular file whose size is a non-zero multiple of four straight into a buffer of its
// words, left uninitialized before the read (no zero fill, no copy). False, printing nothing,
// for anything else (a pipe, another size, an error): the caller then takes ReadFile's way.
bool ReadWordsOfRegularFile(const std::string& path, std::unique_ptr<uint32_t[]>* words,
                            size_t* count);
// Writes a whole file, or standard output for "-". On failure prints "error: ..." to standard
// error and returns false.
bool WriteFile(const std::string& path, const void* data, size_t size);

// Takes "-h" / "--help" (prints the tool's help: print_help(argv0)) and "--version" (prints the
// library's version). True when `arg` was one of them: the tool then exits with kExitOk.
bool TakeHelpOrVersion(const std::string& arg, void (*print_help)(const char*), const char* argv0);

// Takes a command-line argument that none of the tool's flags matched: an option ("-x", not a
// lone "-") is an error, anything else names the one input file. Prints the error and returns
// false for an unknown option or a second input.
bool TakeInputArgument(const std::string& arg, std::string* input, bool* have_input);

// Takes the optimizer pass flag at args[*i]: "--flag", "--flag=argument", or "--flag" followed
// by its argument for passes whose argument is written apart (as spirv-opt's
// --set-spec-const-default-value), leaving *i on the last word taken. False with a message for
// an unknown pass or a missing argument.
bool TakePassFlag(const std::vector<std::string>& args, size_t* i, PassRequest* pass,
                  std::string* error);

}  // namespace coopspv::tools

#endif  // COOPSPV_TOOLS_IO_H_
