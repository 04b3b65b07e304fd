#include "tools/io.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace coopspv::tools {

bool TakeHelpOrVersion(const std::string& arg, void (*print_help)(const char*), const char* argv0) {
  if (arg == "-h" || arg == "--help") {
    print_help(argv0);
    return true;
  }
  if (arg == "--version") {
    std::printf("%s\n", coopspv::Version());
    return true;
  }
  return false;
}

bool ReadFile(const std::string& path, std::string* contents) {
  FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    std::fprintf(stderr, "error: cannot open '%s': %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  // Read straight into the string: a regular file in one call (one byte more than its size, to
  // see the end), a pipe in growing pieces.
  struct stat st;
  const bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  contents->resize(regular ? static_cast<size_t>(st.st_size) + 1 : size_t{1} << 16);
  size_t size = 0;
  for (;;) {
    if (size == contents->size()) contents->resize(size * 2);
    const size_t n = std::fread(contents->data() + size, 1, contents->size() - size, f);
    if (n == 0) break;
    size += n;
  }
  contents->resize(size);
  const bool failed = std::ferror(f);
  if (f != stdin) std::fclose(f);
  if (failed) {
    std::fprintf(stderr, "error: cannot read '%s'\n", path.c_str());
    return false;
  }
  return true;
}

bool ReadWordsOfRegularFile(const std::string& path, std::unique_ptr<uint32_t[]>* words,
                            size_t* count) {
  if (path == "-") return false;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  struct stat st;
  const bool fits =
      fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size % 4 == 0;
  bool ok = false;
  if (fits) {
    const size_t size = static_cast<size_t>(st.st_size);
    words->reset(new uint32_t[size / 4]);
    // All of it, and nothing more (a file that changed size meanwhile takes the general way).
    ok = std::fread(words->get(), 1, size, f) == size && std::fgetc(f) == EOF && !std::ferror(f);
    *count = size / 4;
  }
  std::fclose(f);
  return ok;
}

bool WriteFile(const std::string& path, const void* data, size_t size) {
  FILE* f = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    std::fprintf(stderr, "error: cannot open '%s' for writing: %s\n", path.c_str(),
                 std::strerror(errno));
    return false;
  }
  const bool ok = std::fwrite(data, 1, size, f) == size;
  const bool closed = f == stdout ? std::fflush(f) == 0 : std::fclose(f) == 0;
  if (!ok || !closed) {
    std::fprintf(stderr, "error: cannot write '%s'\n", path.c_str());
    return false;
  }
  return true;
}

bool TakeInputArgument(const std::string& arg, std::string* input, bool* have_input) {
  if (arg.size() > 1 && arg[0] == '-') {
    std::fprintf(stderr, "error: unknown option '%s' (see --help)\n", arg.c_str());
    return false;
  }
  if (*have_input) {
    std::fprintf(stderr, "error: more than one input file\n");
    return false;
  }
  *input = arg;
  *have_input = true;
  return true;
}

bool TakePassFlag(const std::vector<std::string>& args, size_t* i, PassRequest* pass,
                  std::string* error) {
  const std::string& arg = args[*i];
  std::string flag = arg.rfind("--", 0) == 0 ? arg.substr(2) : arg, argument;
  const size_t eq = flag.find('=');
  if (eq != std::string::npos) {
    argument = flag.substr(eq + 1);
    flag = flag.substr(0, eq);
  }
  static const auto passes = OptimizerPasses();
  const PassHelp* help = nullptr;
  for (const auto& p : passes) {
    if (p.flag == flag) help = &p;
  }
  if (help == nullptr) {
    *error = "unknown option or pass '" + arg + "' (see --help)";
    return false;
  }
  if (eq == std::string::npos && !help->argument.empty() && help->argument[0] != '=') {
    if (*i + 1 >= args.size()) {
      *error = "--" + flag + " needs an argument: " + help->argument;
      return false;
    }
    argument = args[++*i];
  }
  *pass = {flag, argument};
  return true;
}

}  // namespace coopspv::tools
