// What VK_LAYER_coopspv computed for a module, kept by a 128-bit hash of everything the result
// depends on (the words, the specialization, the device profile, the options, coopspv's
// version and build): in memory for the process, and on disk, one file per entry, when a cache
// directory is set, so that a second run of an application validates and lowers nothing again.
#ifndef COOPSPV_SOURCE_LAYER_CACHE_H_
#define COOPSPV_SOURCE_LAYER_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace coopspv::layer {

struct CacheKey {
  uint64_t a = 0, b = 0;
  bool operator==(const CacheKey&) const = default;
  std::string Hex() const;  // 32 hex digits: the file name.
};

// Two 64-bit lanes over 8-byte blocks; each Add is prefixed by its length, so a sequence of
// Adds hashes unambiguously.
class Hasher {
 public:
  void Add(const void* data, size_t bytes);
  void Add(std::string_view s) { Add(s.data(), s.size()); }
  void Add(uint64_t v) { Add(&v, sizeof(v)); }
  CacheKey Finish() const;

 private:
  void Block(uint64_t k);
  uint64_t a_ = 0x243f6a8885a308d3ull, b_ = 0x13198a2e03707344ull, length_ = 0;
};

// The hash of a large block (a module's words): four independent lanes over 32-byte stripes,
// several times faster than Hasher's two dependent ones (a pipeline creation that hits the
// cache is mostly this hash). Add its result to a Hasher.
CacheKey HashBytes(const void* data, size_t bytes);

// The hash of the binary this code is part of (the layer's shared object: its file's bytes,
// read once; zero when it cannot be read). A cache directory written by another build of the
// same version (a rule fixed, a better lowering) is then not reused.
const CacheKey& BuildKey();

// Entries are opaque bytes of a kind ("verdict", "spv"); the kind is the file's extension.
class Cache {
 public:
  // The cache over `directory` (empty: memory only), one per directory while the layer is
  // loaded.
  static Cache& ForDirectory(const std::string& directory);

  // nullopt when there is no entry; `from_disk` says whether it came from the directory.
  std::optional<std::string> Find(const CacheKey& key, std::string_view kind, bool* from_disk);
  void Put(const CacheKey& key, std::string_view kind, std::string bytes);

  // The entry as its user read it from the bytes (a verdict, a module's words), kept in memory
  // beside them: a hit in memory then neither copies nor parses. Null when there is none.
  template <typename T>
  std::shared_ptr<const T> FindParsed(const CacheKey& key, std::string_view kind) {
    return std::static_pointer_cast<const T>(FindParsedEntry(key, kind));
  }
  void PutParsed(const CacheKey& key, std::string_view kind, std::shared_ptr<const void> parsed);

 private:
  explicit Cache(std::string directory) : directory_(std::move(directory)) {}
  std::string Path(const CacheKey& key, std::string_view kind) const;
  std::shared_ptr<const void> FindParsedEntry(const CacheKey& key, std::string_view kind);

  struct KeyHash {
    size_t operator()(const CacheKey& k) const { return static_cast<size_t>(k.a ^ k.b); }
  };
  const std::string directory_;
  std::mutex mutex_;
  // Per kind; bounded: emptied when it reaches kMaxEntries (the disk keeps everything).
  std::unordered_map<std::string, std::unordered_map<CacheKey, std::string, KeyHash>> memory_;
  std::unordered_map<std::string,
                     std::unordered_map<CacheKey, std::shared_ptr<const void>, KeyHash>>
      parsed_;
  static constexpr size_t kMaxEntries = 4096;
};

}  // namespace coopspv::layer

#endif  // COOPSPV_SOURCE_LAYER_CACHE_H_
