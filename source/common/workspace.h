// A workspace: memory that one validation after another reuses, so that validating a module a
// second time allocates nothing.
//
// The validator's working state (the reader's instruction and operand arrays, the id tables, the
// analyses, every rule family's containers, the diagnostics' text) lives in the containers
// declared here: std containers over ws::Allocator. While a ws::Scope is open on a thread, their
// blocks come from the scope's ws::Pool, which keeps every block it is given back on a free list
// per power-of-two size class instead of returning it to the heap. A second validation of the
// same module asks for the same blocks in the same order, so every request finds a free block.
// Without a scope (tools, passes, tests) the same containers take their blocks from the heap.
//
// A pool serves one thread at a time; a block given back while another scope (or none) is open
// still returns to the pool it came from (each block records its pool), so the pool must outlive
// every container that took a block from it. Hence no ws container may be a static (a table built
// on first use inside a validation would outlive the pool): those stay std containers.
#ifndef COOPSPV_SOURCE_COMMON_WORKSPACE_H_
#define COOPSPV_SOURCE_COMMON_WORKSPACE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace coopspv::ws {

class Pool {
 public:
  Pool() = default;
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool();

  // Bytes of the blocks the pool took from the heap (free or in use).
  size_t bytes_held() const { return bytes_held_; }

 private:
  friend void* Allocate(size_t bytes);
  friend void Deallocate(void* p) noexcept;
  static constexpr int kClasses = 64;
  // Blocks of classes up to kSlabClass (4 KiB) are cut from 64 KiB slabs, so that a validation's
  // many small blocks cost one heap allocation per slab (and none to free one by one); without
  // AddressSanitizer only, which checks each block on its own.
  static constexpr uint32_t kSlabClass = 12;
  static constexpr size_t kSlabBytes = size_t{1} << 16;
  void* CutFromSlab(uint32_t klass);
  void* free_[kClasses] = {};
  void* slabs_ = nullptr;  // Each slab's first word links the one before.
  char* slab_next_ = nullptr;
  char* slab_end_ = nullptr;
  size_t bytes_held_ = 0;
};

// Opens `pool` for this thread's allocations until destroyed (nullptr: the heap); scopes nest.
class Scope {
 public:
  explicit Scope(Pool* pool);
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  ~Scope();

 private:
  Pool* previous_;
};

// A block of at least `bytes` from the open pool, or from the heap when none is open; throws
// std::bad_alloc when out of memory.
void* Allocate(size_t bytes);
// Gives back a block of Allocate: to its pool, or to the heap.
void Deallocate(void* p) noexcept;

template <class T>
struct Allocator {
  using value_type = T;
  Allocator() = default;
  template <class U>
  Allocator(const Allocator<U>&) noexcept {}  // NOLINT: converting, as std::allocator.
  T* allocate(size_t n) {
    if (n > SIZE_MAX / 2 / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(Allocate(n * sizeof(T)));
  }
  void deallocate(T* p, size_t) noexcept { Deallocate(p); }
  template <class U>
  bool operator==(const Allocator<U>&) const noexcept {
    return true;
  }
};

// For classes whose objects a validation creates with new (the module, its analyses).
#define COOPSPV_WS_NEW_DELETE                                                      \
  static void* operator new(size_t size) { return ::coopspv::ws::Allocate(size); } \
  static void operator delete(void* p) noexcept { ::coopspv::ws::Deallocate(p); }

// Frees a block of Allocate (for std::unique_ptr over raw storage).
struct Free {
  void operator()(void* p) const noexcept { Deallocate(p); }
};

// Hashes strings of either allocator as their views.
struct StringHash {
  size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

template <class T>
using vector = std::vector<T, Allocator<T>>;
using string = std::basic_string<char, std::char_traits<char>, Allocator<char>>;
template <class K, class V, class Hash = std::hash<K>, class Eq = std::equal_to<K>>
using unordered_map = std::unordered_map<K, V, Hash, Eq, Allocator<std::pair<const K, V>>>;
template <class K, class Hash = std::hash<K>, class Eq = std::equal_to<K>>
using unordered_set = std::unordered_set<K, Hash, Eq, Allocator<K>>;
template <class K, class Less = std::less<K>>
using set = std::set<K, Less, Allocator<K>>;

// std::to_string's ws twin.
template <class T>
requires std::is_integral_v<T> string to_string(T value) {
  char buffer[24];
  char* end = buffer + sizeof(buffer);
  char* p = end;
  using U = std::make_unsigned_t<T>;
  const bool negative = std::is_signed_v<T> && value < 0;
  U v = negative ? U(0) - static_cast<U>(value) : static_cast<U>(value);
  do {
    *--p = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  if (negative) *--p = '-';
  return string(p, end);
}

// Mixing with std::string: `ws + std` and `std + ws` give a ws::string.
inline string operator+(string a, const std::string& b) { return std::move(a.append(b)); }
inline string operator+(const std::string& a, const string& b) {
  string out(a.data(), a.size());
  return std::move(out.append(b));
}
inline string operator+(const std::string& a, string&& b) {
  return std::move(b.insert(0, a.data(), a.size()));
}

}  // namespace coopspv::ws

#endif  // COOPSPV_SOURCE_COMMON_WORKSPACE_H_
