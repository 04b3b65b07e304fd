#include "source/grammar/grammar.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>

// The generated tables open namespace coopspv::grammar::generated themselves.
#include "source/grammar/grammar_tables.inc"

namespace coopspv::grammar {

namespace {

using namespace generated;

// FNV-1a, seeded per key space; utils/generate_grammar.py computes the same function.
constexpr uint32_t Fnv1a(const void* data, size_t size, uint32_t seed) {
  uint32_t h = 0x811C9DC5u ^ seed;
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) {
    h ^= bytes[i];
    h *= 0x01000193u;
  }
  return h;
}

uint32_t HashValue(uint32_t value, uint32_t seed) {
  const unsigned char bytes[4] = {
      static_cast<unsigned char>(value), static_cast<unsigned char>(value >> 8),
      static_cast<unsigned char>(value >> 16), static_cast<unsigned char>(value >> 24)};
  return Fnv1a(bytes, 4, seed);
}

// Probes an open-addressing table; `match(index)` confirms a candidate.
template <size_t N, typename Match>
int Probe(const HashSlot (&table)[N], uint32_t hash, Match match) {
  static_assert((N & (N - 1)) == 0, "hash tables have a power-of-two size");
  for (size_t pos = hash & (N - 1);; pos = (pos + 1) & (N - 1)) {
    const HashSlot& slot = table[pos];
    if (slot.index_plus_one == 0) return -1;
    if (slot.hash == hash && match(slot.index_plus_one - 1)) {
      return static_cast<int>(slot.index_plus_one - 1);
    }
  }
}

template <typename T, size_t N>
std::span<const T> Slice(const T (&pool)[N], uint32_t begin, uint32_t count) {
  if (count == 0) return {};
  return std::span<const T>(pool + begin, count);
}

}  // namespace

const InstructionInfo* LookupInstruction(std::string_view name) {
  const int key = Probe(kInstructionNameHash, Fnv1a(name.data(), name.size(), 0),
                        [&](uint32_t i) { return name == kInstructionNameKey[i]; });
  return key < 0 ? nullptr : &kInstructions[kInstructionNameTarget[key]];
}

std::span<const uint32_t> Capabilities(const InstructionInfo& inst) {
  return Slice(kCapabilityPool, inst.capability_begin, inst.capability_count);
}

std::span<const char* const> Extensions(const InstructionInfo& inst) {
  return Slice(kExtensionPool, inst.extension_begin, inst.extension_count);
}

std::span<const char* const> Aliases(const InstructionInfo& inst) {
  return Slice(kInstructionAliases, inst.alias_begin, inst.alias_count);
}

std::span<const InstructionInfo> AllInstructions() { return kInstructions; }

std::span<const EnumerantInfo> Enumerants(OperandKind kind) {
  const OperandKindInfo& info = GetOperandKind(kind);
  return Slice(kEnumerants, info.enumerant_begin, info.enumerant_count);
}

namespace {

constexpr auto kGatedKinds = [] {
  std::array<bool, kNumOperandKinds> g{};
  for (const EnumerantInfo& e : kEnumerants) {
    if (e.capability_count || e.extension_count || e.version > MakeVersion(1, 0)) {
      g[static_cast<int>(e.kind)] = true;
    }
  }
  return g;
}();

}  // namespace

bool IsGatedKind(OperandKind kind) { return kGatedKinds[static_cast<int>(kind)]; }

namespace {

// Enumerants whose value is below kDirectValues (most of those operands in real modules) are
// found by index, without hashing: per kind and value, the enumerant's index, -1 for none. The
// table is computed at compile time (no start-up cost).
constexpr uint32_t kDirectValues = 64;
static_assert(std::size(kEnumerants) < 0x7FFF);
constexpr auto kDirectEnumerants = [] {
  std::array<int16_t, kNumOperandKinds * kDirectValues> t{};
  for (int16_t& x : t) x = -1;
  // The first enumerant of a value wins (later ones are filled first and overwritten).
  for (size_t i = std::size(kEnumerants); i-- > 0;) {
    const EnumerantInfo& e = kEnumerants[i];
    if (e.value < kDirectValues && static_cast<int>(e.kind) < kNumOperandKinds) {
      t[static_cast<size_t>(e.kind) * kDirectValues + e.value] = static_cast<int16_t>(i);
    }
  }
  return t;
}();

}  // namespace

const EnumerantInfo* LookupEnumerant(OperandKind kind, uint32_t value) {
  if (value < kDirectValues) {
    const int16_t index = kDirectEnumerants[static_cast<size_t>(kind) * kDirectValues + value];
    return index < 0 ? nullptr : &kEnumerants[index];
  }
  const uint32_t seed = static_cast<uint32_t>(kind) + 1;
  const int index = Probe(kEnumerantValueHash, HashValue(value, seed), [&](uint32_t i) {
    return kEnumerants[i].kind == kind && kEnumerants[i].value == value;
  });
  return index < 0 ? nullptr : &kEnumerants[index];
}

const EnumerantInfo* LookupEnumerant(OperandKind kind, std::string_view name) {
  const uint32_t seed = static_cast<uint32_t>(kind) + 1;
  const int key = Probe(kEnumerantNameHash, Fnv1a(name.data(), name.size(), seed), [&](uint32_t i) {
    return kEnumerants[kEnumerantNameTarget[i]].kind == kind && name == kEnumerantNameKey[i];
  });
  return key < 0 ? nullptr : &kEnumerants[kEnumerantNameTarget[key]];
}

std::span<const OperandInfo> Parameters(const EnumerantInfo& e) {
  return Slice(kOperandPool, e.parameter_begin, e.parameter_count);
}

std::span<const uint32_t> Capabilities(const EnumerantInfo& e) {
  return Slice(kCapabilityPool, e.capability_begin, e.capability_count);
}

std::span<const char* const> Extensions(const EnumerantInfo& e) {
  return Slice(kExtensionPool, e.extension_begin, e.extension_count);
}

std::span<const char* const> Aliases(const EnumerantInfo& e) {
  return Slice(kEnumerantAliases, e.alias_begin, e.alias_count);
}

namespace {

// The pool names each extension many times: its distinct names, sorted at compile time, so that a
// lookup is a binary search with nothing built at run time.
constexpr size_t CountDistinctExtensions() {
  std::array<std::string_view, std::size(kExtensionPool)> names{};
  size_t n = 0;
  for (const char* e : kExtensionPool) {
    if (e != nullptr) names[n++] = e;
  }
  std::sort(names.begin(), names.begin() + n);
  return static_cast<size_t>(std::unique(names.begin(), names.begin() + n) - names.begin());
}

constexpr auto kKnownExtensions = [] {
  std::array<std::string_view, std::size(kExtensionPool)> names{};
  size_t n = 0;
  for (const char* e : kExtensionPool) {
    if (e != nullptr) names[n++] = e;
  }
  std::sort(names.begin(), names.begin() + n);
  std::unique(names.begin(), names.begin() + n);
  std::array<std::string_view, CountDistinctExtensions()> distinct{};
  std::copy_n(names.begin(), distinct.size(), distinct.begin());
  return distinct;
}();

}  // namespace

bool IsKnownExtension(std::string_view name) {
  return std::binary_search(kKnownExtensions.begin(), kKnownExtensions.end(), name);
}

int LookupExtInstSet(std::string_view import_name) {
  for (size_t i = 0; i < std::size(kExtInstSets); ++i) {
    const std::string_view name = kExtInstSets[i].name;
    // A name ending in '.' is a prefix: "NonSemantic.ClspvReflection." + version.
    if (import_name == name ||
        (!name.empty() && name.back() == '.' && import_name.substr(0, name.size()) == name)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

const ExtInstSetInfo& GetExtInstSet(int set) { return kExtInstSets[set]; }

const ExtInstInfo* LookupExtInst(int set, uint32_t opcode) {
  const uint32_t seed = 0x20000u + static_cast<uint32_t>(set);
  const int index = Probe(kExtInstValueHash, HashValue(opcode, seed), [&](uint32_t i) {
    return kExtInstructions[i].set == static_cast<uint32_t>(set) &&
           kExtInstructions[i].opcode == opcode;
  });
  return index < 0 ? nullptr : &kExtInstructions[index];
}

const ExtInstInfo* LookupExtInst(int set, std::string_view name) {
  const uint32_t seed = 0x10000u + static_cast<uint32_t>(set);
  const int index = Probe(kExtInstNameHash, Fnv1a(name.data(), name.size(), seed), [&](uint32_t i) {
    return kExtInstructions[i].set == static_cast<uint32_t>(set) &&
           name == kExtInstructions[i].name;
  });
  return index < 0 ? nullptr : &kExtInstructions[index];
}

std::span<const OperandInfo> Operands(const ExtInstInfo& inst) {
  return Slice(kOperandPool, inst.operand_begin, inst.operand_count);
}

const GeneratorInfo* LookupGenerator(uint32_t tool_id) {
  for (const GeneratorInfo& g : kGenerators) {
    if (g.id == tool_id) return &g;
  }
  return nullptr;
}

const GeneratorInfo* LookupGeneratorByName(std::string_view vendor_and_tool) {
  for (const GeneratorInfo& g : kGenerators) {
    const size_t vendor_size = std::strlen(g.vendor);
    // A registry entry without a tool is spelled by its vendor alone.
    if (g.tool[0] == '\0' && vendor_and_tool == g.vendor) return &g;
    if (vendor_and_tool.size() == vendor_size + 1 + std::strlen(g.tool) &&
        vendor_and_tool.substr(0, vendor_size) == g.vendor && vendor_and_tool[vendor_size] == ' ' &&
        vendor_and_tool.substr(vendor_size + 1) == g.tool) {
      return &g;
    }
  }
  return nullptr;
}

}  // namespace coopspv::grammar
