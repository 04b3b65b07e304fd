#include "source/common/workspace.h"

#include <algorithm>
#include <bit>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define COOPSPV_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define COOPSPV_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define COOPSPV_POISON(p, n) ((void)(p), (void)(n))
#define COOPSPV_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace coopspv::ws {

namespace {

// Before every block: where it goes back to. 16 bytes, so that blocks stay 16-byte aligned.
struct alignas(16) Header {
  Pool* pool;      // nullptr: the heap.
  uint32_t klass;  // Pool blocks: log2 of the block's size, header included.
};
static_assert(sizeof(Header) == 16);

thread_local Pool* t_pool = nullptr;

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSlabs = false;
#else
constexpr bool kSlabs = true;
#endif

Pool::~Pool() {
  while (slabs_ != nullptr) {
    void* previous = *static_cast<void**>(slabs_);
    ::operator delete(slabs_);
    slabs_ = previous;
  }
  // Blocks of slab classes went with their slabs.
  for (int klass = kSlabs ? kSlabClass + 1 : 0; klass < kClasses; ++klass) {
    void*& head = free_[klass];
    while (head != nullptr) {
      void* next = *static_cast<void**>(head);
      COOPSPV_UNPOISON(head, size_t{1} << klass);
      ::operator delete(head);
      head = next;
    }
  }
}

void* Pool::CutFromSlab(uint32_t klass) {
  const size_t size = size_t{1} << klass;
  if (static_cast<size_t>(slab_end_ - slab_next_) < size) {
    // The slab's first 16 bytes link the slabs; the rest of the old slab is left unused.
    char* slab = static_cast<char*>(::operator new(kSlabBytes));
    *reinterpret_cast<void**>(slab) = slabs_;
    slabs_ = slab;
    slab_next_ = slab + 16;
    slab_end_ = slab + kSlabBytes;
    bytes_held_ += kSlabBytes;
  }
  void* block = slab_next_;
  slab_next_ += size;
  return block;
}

Scope::Scope(Pool* pool) : previous_(t_pool) { t_pool = pool; }
Scope::~Scope() { t_pool = previous_; }

void* Allocate(size_t bytes) {
  if (bytes > SIZE_MAX / 4) throw std::bad_alloc();
  Pool* pool = t_pool;
  Header* header;
  if (pool == nullptr) {
    header = static_cast<Header*>(::operator new(bytes + sizeof(Header)));
    header->pool = nullptr;
  } else {
    const uint32_t klass = std::max<uint32_t>(5, std::bit_width(bytes + sizeof(Header) - 1));
    void*& head = pool->free_[klass];
    if (head != nullptr) {
      // A free block: only its first word (the link) is readable; ASan sees the rest as freed.
      header = static_cast<Header*>(head);
      head = *static_cast<void**>(head);
      COOPSPV_UNPOISON(header, size_t{1} << klass);
    } else if (kSlabs && klass <= Pool::kSlabClass) {
      header = static_cast<Header*>(pool->CutFromSlab(klass));
    } else {
      header = static_cast<Header*>(::operator new (size_t{1} << klass));
      pool->bytes_held_ += size_t{1} << klass;
    }
    header->pool = pool;
    header->klass = klass;
  }
  return header + 1;
}

void Deallocate(void* p) noexcept {
  if (p == nullptr) return;
  Header* header = static_cast<Header*>(p) - 1;
  Pool* pool = header->pool;
  if (pool == nullptr) {
    ::operator delete(header);
    return;
  }
  const uint32_t klass = header->klass;
  void*& head = pool->free_[klass];
  *reinterpret_cast<void**>(header) = head;
  head = header;
  COOPSPV_POISON(reinterpret_cast<char*>(header) + sizeof(void*),
                 (size_t{1} << klass) - sizeof(void*));
}

}  // namespace coopspv::ws
