#include "tools/io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace coopspv::tools {

bool ReadFile(const std::string& path, std::string* contents, std::string* error) {
  FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    *error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  contents->clear();
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0) contents->append(buffer, n);
  const bool failed = std::ferror(f);
  if (f != stdin) std::fclose(f);
  if (failed) {
    *error = "cannot read '" + path + "'";
    return false;
  }
  return true;
}

bool WriteFile(const std::string& path, const void* data, size_t size, std::string* error) {
  FILE* f = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    *error = "cannot open '" + path + "' for writing: " + std::strerror(errno);
    return false;
  }
  const bool ok = std::fwrite(data, 1, size, f) == size;
  const bool closed = f == stdout ? std::fflush(f) == 0 : std::fclose(f) == 0;
  if (!ok || !closed) {
    *error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace coopspv::tools
