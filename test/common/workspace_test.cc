#include "source/common/workspace.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

namespace coopspv::ws {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSlabs = false;  // Every block from the heap, so that ASan checks each one.
#else
constexpr bool kSlabs = true;
#endif

TEST(Workspace, SmallBlocksComeFromSlabsAndAreReused) {
  Pool pool;
  std::vector<void*> blocks;
  {
    Scope scope(&pool);
    // 1,000 blocks of 100 bytes: class 128 (with the 16-byte header).
    for (int i = 0; i < 1000; ++i) {
      void* p = Allocate(100);
      ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
      std::memset(p, i & 0xFF, 100);  // Writable, and no block overlaps another (checked below).
      blocks.push_back(p);
    }
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    const auto* bytes = static_cast<const unsigned char*>(blocks[i]);
    ASSERT_EQ(bytes[0], i & 0xFF);
    ASSERT_EQ(bytes[99], i & 0xFF);
  }
  EXPECT_EQ(std::set<void*>(blocks.begin(), blocks.end()).size(), blocks.size());
  const size_t held = pool.bytes_held();
  if (kSlabs) {
    // 128,000 bytes of blocks in 64 KiB slabs (16 bytes of each link the slabs): 2 slabs.
    EXPECT_EQ(held, 2u * 65536);
  } else {
    EXPECT_EQ(held, 1000u * 128);
  }
  // Given back and asked for again: the same blocks, nothing more from the heap.
  for (void* p : blocks) Deallocate(p);
  {
    Scope scope(&pool);
    std::set<void*> again;
    for (int i = 0; i < 1000; ++i) again.insert(Allocate(100));
    EXPECT_EQ(again, std::set<void*>(blocks.begin(), blocks.end()));
    for (void* p : again) Deallocate(p);
  }
  EXPECT_EQ(pool.bytes_held(), held);
}

TEST(Workspace, LargeBlocksAreTheirOwn) {
  Pool pool;
  Scope scope(&pool);
  void* big = Allocate(100000);  // Class 128 KiB: above the slab classes.
  EXPECT_EQ(pool.bytes_held(), size_t{1} << 17);
  void* small = Allocate(32);
  EXPECT_EQ(pool.bytes_held(), (size_t{1} << 17) + (kSlabs ? 65536u : 64u));
  Deallocate(small);
  Deallocate(big);
  void* again = Allocate(100000);
  EXPECT_EQ(again, big);
  Deallocate(again);
}

TEST(Workspace, WithoutAScopeBlocksComeFromTheHeap) {
  void* p = Allocate(64);
  std::memset(p, 1, 64);
  Deallocate(p);
  vector<int> v(1000, 7);  // A ws container outside any scope.
  EXPECT_EQ(v[999], 7);
}

}  // namespace
}  // namespace coopspv::ws
