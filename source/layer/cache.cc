#include "source/layer/cache.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace coopspv::layer {
namespace {

constexpr uint64_t kP1 = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kP2 = 0xc2b2ae3d27d4eb4full;

uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// MurmurHash3's finalizer.
uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

}  // namespace

std::string CacheKey::Hex() const {
  char buf[33];
  std::snprintf(buf, sizeof(buf), "%016llx%016llx", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return buf;
}

void Hasher::Block(uint64_t k) {
  a_ = Rotl(a_ ^ (k * kP1), 31) * kP2;
  b_ = Rotl(b_ ^ (k * kP2), 27) * kP1 + a_;
}

void Hasher::Add(const void* data, size_t bytes) {
  Block(bytes);
  const auto* p = static_cast<const unsigned char*>(data);
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t k;
    std::memcpy(&k, p + i, 8);
    Block(k);
  }
  if (i < bytes) {
    uint64_t k = 0;
    std::memcpy(&k, p + i, bytes - i);
    Block(k);
  }
  length_ += bytes;
}

const CacheKey& BuildKey() {
  static const CacheKey key = [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(&BuildKey), &info) == 0 || !info.dli_fname) {
      return CacheKey{};
    }
    std::ifstream in(info.dli_fname, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    if (!in) return CacheKey{};
    const std::string text = bytes.str();
    return HashBytes(text.data(), text.size());
  }();
  return key;
}

CacheKey HashBytes(const void* data, size_t bytes) {
  uint64_t lane[4] = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull,
                      0x082efa98ec4e6c89ull};
  const auto* p = static_cast<const unsigned char*>(data);
  size_t i = 0;
  for (; i + 32 <= bytes; i += 32) {
    for (int l = 0; l < 4; ++l) {
      uint64_t k;
      std::memcpy(&k, p + i + 8 * l, 8);
      lane[l] = Rotl(lane[l] + k * kP2, 31) * kP1;
    }
  }
  Hasher h;
  h.Add(lane, sizeof(lane));
  h.Add(p + i, bytes - i);
  h.Add(static_cast<uint64_t>(bytes));
  return h.Finish();
}

CacheKey Hasher::Finish() const {
  const uint64_t a = Mix(a_ ^ length_);
  return {a, Mix(b_ ^ a)};
}

Cache& Cache::ForDirectory(const std::string& directory) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Cache>> caches;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Cache>& c = caches[directory];
  if (c == nullptr) c.reset(new Cache(directory));
  return *c;
}

std::string Cache::Path(const CacheKey& key, std::string_view kind) const {
  return directory_ + "/" + key.Hex() + "." + std::string(kind);
}

std::optional<std::string> Cache::Find(const CacheKey& key, std::string_view kind,
                                       bool* from_disk) {
  *from_disk = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& entries = memory_[std::string(kind)];
    if (auto it = entries.find(key); it != entries.end()) return it->second;
  }
  if (directory_.empty()) return std::nullopt;
  std::ifstream in(Path(key, kind), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  if (!in.good() && !in.eof()) return std::nullopt;
  *from_disk = true;
  std::string bytes = s.str();
  std::lock_guard<std::mutex> lock(mutex_);
  auto& entries = memory_[std::string(kind)];
  if (entries.size() >= kMaxEntries) entries.clear();
  entries[key] = bytes;
  return bytes;
}

std::shared_ptr<const void> Cache::FindParsedEntry(const CacheKey& key, std::string_view kind) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto k = parsed_.find(std::string(kind));
  if (k == parsed_.end()) return nullptr;
  const auto it = k->second.find(key);
  return it == k->second.end() ? nullptr : it->second;
}

void Cache::PutParsed(const CacheKey& key, std::string_view kind,
                      std::shared_ptr<const void> parsed) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& entries = parsed_[std::string(kind)];
  if (entries.size() >= kMaxEntries) entries.clear();
  entries[key] = std::move(parsed);
}

void Cache::Put(const CacheKey& key, std::string_view kind, std::string bytes) {
  if (!directory_.empty()) {
    // Written under a name of its own, then renamed: a concurrent reader (another thread or
    // process) sees the whole entry or none.
    mkdir(directory_.c_str(), 0755);
    std::ostringstream tmp;
    tmp << Path(key, kind) << ".tmp." << getpid() << "." << std::this_thread::get_id();
    {
      std::ofstream out(tmp.str(), std::ios::binary | std::ios::trunc);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    if (std::rename(tmp.str().c_str(), Path(key, kind).c_str()) != 0) {
      std::remove(tmp.str().c_str());
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  auto& entries = memory_[std::string(kind)];
  if (entries.size() >= kMaxEntries) entries.clear();
  entries[key] = std::move(bytes);
}

}  // namespace coopspv::layer
