#include "source/profile/device_profile.h"

#include <algorithm>
#include <span>

#include "source/profile/builtin_profiles.h"
#include "source/profile/json.h"

namespace coopspv::profile {
namespace {

constexpr const char* kFormat = "coopspv-device-profile";
constexpr long long kVersion = 1;

struct NamedComponentType {
  ComponentType type;
  const char* name;
};
constexpr NamedComponentType kComponentTypes[] = {
    {ComponentType::kFloat16, "float16"},
    {ComponentType::kFloat32, "float32"},
    {ComponentType::kFloat64, "float64"},
    {ComponentType::kSint8, "sint8"},
    {ComponentType::kSint16, "sint16"},
    {ComponentType::kSint32, "sint32"},
    {ComponentType::kSint64, "sint64"},
    {ComponentType::kUint8, "uint8"},
    {ComponentType::kUint16, "uint16"},
    {ComponentType::kUint32, "uint32"},
    {ComponentType::kUint64, "uint64"},
    {ComponentType::kBFloat16, "bfloat16"},
    {ComponentType::kSint8Packed, "sint8_packed"},
    {ComponentType::kUint8Packed, "uint8_packed"},
    {ComponentType::kFloat8E4M3, "float8_e4m3"},
    {ComponentType::kFloat8E5M2, "float8_e5m2"},
};

struct NamedScope {
  Scope scope;
  const char* name;
};
constexpr NamedScope kScopes[] = {{Scope::kDevice, "device"},
                                  {Scope::kWorkgroup, "workgroup"},
                                  {Scope::kSubgroup, "subgroup"},
                                  {Scope::kQueueFamily, "queue_family"}};

struct FeatureField {
  const char* name;
  bool Features::*member;
};
#define COOPSPV_FEATURE(name) \
  { #name, &Features::name }
constexpr FeatureField kFeatureFields[] = {
    COOPSPV_FEATURE(cooperativeMatrix),
    COOPSPV_FEATURE(cooperativeMatrixRobustBufferAccess),
    COOPSPV_FEATURE(cooperativeMatrixWorkgroupScope),
    COOPSPV_FEATURE(cooperativeMatrixFlexibleDimensions),
    COOPSPV_FEATURE(cooperativeMatrixReductions),
    COOPSPV_FEATURE(cooperativeMatrixConversions),
    COOPSPV_FEATURE(cooperativeMatrixPerElementOperations),
    COOPSPV_FEATURE(cooperativeMatrixTensorAddressing),
    COOPSPV_FEATURE(cooperativeMatrixBlockLoads),
    COOPSPV_FEATURE(cooperativeVector),
    COOPSPV_FEATURE(cooperativeVectorTraining),
    COOPSPV_FEATURE(shaderBFloat16Type),
    COOPSPV_FEATURE(shaderBFloat16DotProduct),
    COOPSPV_FEATURE(shaderBFloat16CooperativeMatrix),
    COOPSPV_FEATURE(shaderFloat8),
    COOPSPV_FEATURE(shaderFloat8CooperativeMatrix),
    COOPSPV_FEATURE(shaderReplicatedComposites),
    COOPSPV_FEATURE(longVector),
    COOPSPV_FEATURE(shaderFloat64),
    COOPSPV_FEATURE(shaderInt64),
    COOPSPV_FEATURE(shaderInt16),
    COOPSPV_FEATURE(shaderFloat16),
    COOPSPV_FEATURE(shaderInt8),
    COOPSPV_FEATURE(storageBuffer16BitAccess),
    COOPSPV_FEATURE(uniformAndStorageBuffer16BitAccess),
    COOPSPV_FEATURE(storagePushConstant16),
    COOPSPV_FEATURE(storageBuffer8BitAccess),
    COOPSPV_FEATURE(uniformAndStorageBuffer8BitAccess),
    COOPSPV_FEATURE(storagePushConstant8),
    COOPSPV_FEATURE(vulkanMemoryModel),
    COOPSPV_FEATURE(vulkanMemoryModelDeviceScope),
    COOPSPV_FEATURE(vulkanMemoryModelAvailabilityVisibilityChains),
    COOPSPV_FEATURE(bufferDeviceAddress),
    COOPSPV_FEATURE(scalarBlockLayout),
    COOPSPV_FEATURE(subgroupSizeControl),
    COOPSPV_FEATURE(computeFullSubgroups),
    COOPSPV_FEATURE(shaderIntegerDotProduct),
    COOPSPV_FEATURE(maintenance4),
};
#undef COOPSPV_FEATURE

// The members of "properties", in the order Write prints them.
enum class PropertyKind { kCount, kStages, kBool, kSize3, kOptionalStages };
struct PropertyField {
  const char* name;
  PropertyKind kind;
  uint32_t Properties::*count = nullptr;
  bool Properties::*flag = nullptr;
  std::optional<uint32_t> Properties::*optional = nullptr;
};
constexpr PropertyField kPropertyFields[] = {
    {"subgroupSize", PropertyKind::kCount, &Properties::subgroupSize},
    {"minSubgroupSize", PropertyKind::kCount, &Properties::minSubgroupSize},
    {"maxSubgroupSize", PropertyKind::kCount, &Properties::maxSubgroupSize},
    {"subgroupSupportedStages", PropertyKind::kStages, &Properties::subgroupSupportedStages},
    {"maxComputeWorkGroupInvocations", PropertyKind::kCount,
     &Properties::maxComputeWorkGroupInvocations},
    {"maxComputeWorkGroupSize", PropertyKind::kSize3},
    {"maxComputeSharedMemorySize", PropertyKind::kCount, &Properties::maxComputeSharedMemorySize},
    {"maxComputeWorkgroupSubgroups", PropertyKind::kCount,
     &Properties::maxComputeWorkgroupSubgroups},
    {"cooperativeMatrixSupportedStages", PropertyKind::kStages,
     &Properties::cooperativeMatrixSupportedStages},
    {"cooperativeMatrixSupportedStagesNV", PropertyKind::kOptionalStages, nullptr, nullptr,
     &Properties::cooperativeMatrixSupportedStagesNV},
    {"cooperativeMatrixWorkgroupScopeMaxWorkgroupSize", PropertyKind::kCount,
     &Properties::cooperativeMatrixWorkgroupScopeMaxWorkgroupSize},
    {"cooperativeMatrixFlexibleDimensionsMaxDimension", PropertyKind::kCount,
     &Properties::cooperativeMatrixFlexibleDimensionsMaxDimension},
    {"cooperativeMatrixWorkgroupScopeReservedSharedMemory", PropertyKind::kCount,
     &Properties::cooperativeMatrixWorkgroupScopeReservedSharedMemory},
    {"cooperativeVectorSupportedStages", PropertyKind::kStages,
     &Properties::cooperativeVectorSupportedStages},
    {"cooperativeVectorTrainingFloat16Accumulation", PropertyKind::kBool, nullptr,
     &Properties::cooperativeVectorTrainingFloat16Accumulation},
    {"cooperativeVectorTrainingFloat32Accumulation", PropertyKind::kBool, nullptr,
     &Properties::cooperativeVectorTrainingFloat32Accumulation},
    {"maxCooperativeVectorComponents", PropertyKind::kCount,
     &Properties::maxCooperativeVectorComponents},
};

// ---- Reading.

class Reader {
 public:
  explicit Reader(std::string* error) : error_(error) {}

  bool Fail(const std::string& path, const std::string& what) {
    *error_ = path + ": " + what;
    return false;
  }

  bool Expect(const json::Value& v, json::Value::Kind kind, const std::string& path) {
    if (v.kind == kind) return true;
    return Fail(
        path, std::string("expected ") + json::KindName(kind) + ", got " + json::KindName(v.kind));
  }

  bool Bool(const json::Value& v, const std::string& path, bool* out) {
    if (!Expect(v, json::Value::Kind::kBool, path)) return false;
    *out = v.boolean;
    return true;
  }

  bool Count(const json::Value& v, const std::string& path, uint32_t* out) {
    const auto n = v.Integer(0, UINT32_MAX);
    if (!n) {
      return Fail(path,
                  std::string("expected an integer in [0, 4294967295], got ") +
                      (v.kind == json::Value::Kind::kNumber ? v.text : json::KindName(v.kind)));
    }
    *out = static_cast<uint32_t>(*n);
    return true;
  }

  bool String(const json::Value& v, const std::string& path, std::string* out) {
    if (!Expect(v, json::Value::Kind::kString, path)) return false;
    *out = v.text;
    return true;
  }

  bool Component(const json::Value& v, const std::string& path, ComponentType* out) {
    if (!Expect(v, json::Value::Kind::kString, path)) return false;
    const auto t = ParseComponentType(v.text);
    if (!t) return Fail(path, "unknown component type \"" + v.text + "\"");
    *out = *t;
    return true;
  }

  bool ScopeValue(const json::Value& v, const std::string& path, Scope* out) {
    if (!Expect(v, json::Value::Kind::kString, path)) return false;
    for (const auto& s : kScopes) {
      if (v.text == s.name) {
        *out = s.scope;
        return true;
      }
    }
    return Fail(path,
                "unknown scope \"" + v.text + "\" (device, workgroup, subgroup, queue_family)");
  }

  bool Stages(const json::Value& v, const std::string& path, uint32_t* out) {
    if (!Expect(v, json::Value::Kind::kArray, path)) return false;
    *out = 0;
    for (size_t i = 0; i < v.elements.size(); ++i) {
      const std::string p = path + "[" + std::to_string(i) + "]";
      if (!Expect(v.elements[i], json::Value::Kind::kString, p)) return false;
      bool found = false;
      for (const StageBit& s : StageBits()) {
        if (v.elements[i].text == s.name) {
          *out |= s.bit;
          found = true;
        }
      }
      if (!found) return Fail(p, "unknown shader stage \"" + v.elements[i].text + "\"");
    }
    return true;
  }

  // Calls member(key, value, path) for every member of object `v`; member returns false for an
  // error it reported, or sets *unknown for a key it does not know.
  template <typename F>
  bool Members(const json::Value& v, const std::string& path, F member) {
    if (!Expect(v, json::Value::Kind::kObject, path)) return false;
    for (const auto& [key, value] : v.members) {
      const std::string p = path.empty() ? key : path + "." + key;
      bool unknown = false;
      if (!member(key, value, p, &unknown)) return false;
      if (unknown) return Fail(p, "unknown key");
    }
    return true;
  }

  template <typename T, typename F>
  bool List(const json::Value& v, const std::string& path, std::vector<T>* out, F entry) {
    if (!Expect(v, json::Value::Kind::kArray, path)) return false;
    for (size_t i = 0; i < v.elements.size(); ++i) {
      T t;
      const std::string p = path + "[" + std::to_string(i) + "]";
      if (!Members(v.elements[i], p,
                   [&](const std::string& key, const json::Value& value, const std::string& kp,
                       bool* unknown) { return entry(key, value, kp, &t, unknown); })) {
        return false;
      }
      out->push_back(t);
    }
    return true;
  }

 private:
  std::string* error_;
};

// The members the two matrix property lists share.
template <typename T>
bool MatrixEntryField(Reader& r, const std::string& key, const json::Value& value,
                      const std::string& path, T* t, bool* unknown) {
  struct {
    const char* name;
    ComponentType T::*member;
  } const types[] = {{"AType", &T::AType},
                     {"BType", &T::BType},
                     {"CType", &T::CType},
                     {"ResultType", &T::ResultType}};
  for (int k = 0; k < 4; ++k) {
    if (key == types[k].name) {
      return r.Component(value, path, &(t->*types[k].member));
    }
  }
  if (key == "saturatingAccumulation") {
    return r.Bool(value, path, &t->saturatingAccumulation);
  }
  if (key == "scope") {
    return r.ScopeValue(value, path, &t->scope);
  }
  *unknown = true;
  return true;
}

// MSize, NSize or KSize of a matrix property entry (KHR or NV): sets *is_size when `key` is one.
bool MatrixSizeField(Reader& r, const std::string& key, const json::Value& value,
                     const std::string& path, CooperativeMatrixProperties* t, bool* is_size) {
  const std::pair<const char*, uint32_t CooperativeMatrixProperties::*> sizes[] = {
      {"MSize", &CooperativeMatrixProperties::MSize},
      {"NSize", &CooperativeMatrixProperties::NSize},
      {"KSize", &CooperativeMatrixProperties::KSize}};
  for (const auto& [name, member] : sizes) {
    if (key == name) {
      *is_size = true;
      return r.Count(value, path, &(t->*member));
    }
  }
  return true;
}

// Property-list entries name every field, so an entry cannot silently mean something else.
bool RequireKeys(Reader& r, const json::Value& list, const std::string& path,
                 std::span<const char* const> names) {
  for (size_t i = 0; i < list.elements.size(); ++i) {
    for (const char* name : names) {
      bool seen = false;
      for (const auto& m : list.elements[i].members) seen |= m.name == name;
      if (!seen) {
        return r.Fail(path + "[" + std::to_string(i) + "]",
                      std::string("missing key \"") + name + "\"");
      }
    }
  }
  return true;
}

}  // namespace

const char* ComponentTypeName(ComponentType type) {
  for (const auto& c : kComponentTypes) {
    if (c.type == type) return c.name;
  }
  return nullptr;
}

std::optional<ComponentType> ParseComponentType(std::string_view name) {
  for (const auto& c : kComponentTypes) {
    if (name == c.name) return c.type;
  }
  return std::nullopt;
}

bool IsKnownComponentType(uint32_t value) {
  return ComponentTypeName(static_cast<ComponentType>(value)) != nullptr;
}

const char* ScopeName(Scope scope) {
  for (const auto& s : kScopes) {
    if (s.scope == scope) return s.name;
  }
  return "?";
}

const std::vector<StageBit>& StageBits() {
  static const std::vector<StageBit> bits = {
      {"vertex", 0x1},
      {"tessellation_control", 0x2},
      {"tessellation_evaluation", 0x4},
      {"geometry", 0x8},
      {"fragment", 0x10},
      {"compute", 0x20},
      {"task", 0x40},
      {"mesh", 0x80},
      {"raygen", 0x100},
      {"any_hit", 0x200},
      {"closest_hit", 0x400},
      {"miss", 0x800},
      {"intersection", 0x1000},
      {"callable", 0x2000},
  };
  return bits;
}

uint32_t DeviceProfile::ApiMinor() const {
  if (apiVersion.size() < 3 || apiVersion[0] != '1' || apiVersion[1] != '.') return 0;
  uint32_t minor = 0;
  for (size_t k = 2; k < apiVersion.size() && apiVersion[k] >= '0' && apiVersion[k] <= '9'; ++k) {
    minor = minor * 10 + static_cast<uint32_t>(apiVersion[k] - '0');
    if (minor > 1000) break;
  }
  return minor;
}

bool DeviceProfile::HasExtension(std::string_view name) const {
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

std::optional<DeviceProfile> Parse(std::string_view text, std::string* error) {
  std::string json_error;
  const std::optional<json::Value> doc = json::Parse(text, &json_error);
  if (!doc) {
    *error = "not valid JSON: " + json_error;
    return std::nullopt;
  }
  Reader r(error);
  DeviceProfile p;
  bool have_format = false, have_version = false;
  const bool ok = r.Members(
      *doc, "",
      [&](const std::string& key, const json::Value& v, const std::string& path, bool* unknown) {
        if (key == "format") {
          have_format = true;
          std::string f;
          if (!r.String(v, path, &f)) return false;
          if (f != kFormat) return r.Fail(path, "expected \"" + std::string(kFormat) + "\"");
          return true;
        }
        if (key == "version") {
          have_version = true;
          const auto n = v.Integer(0, 1 << 30);
          if (!n || *n != kVersion) return r.Fail(path, "this build reads version 1");
          return true;
        }
        if (key == "deviceName") return r.String(v, path, &p.deviceName);
        if (key == "driver") return r.String(v, path, &p.driver);
        if (key == "apiVersion") return r.String(v, path, &p.apiVersion);
        if (key == "extensions") {
          if (!r.Expect(v, json::Value::Kind::kArray, path)) return false;
          for (size_t i = 0; i < v.elements.size(); ++i) {
            std::string e;
            if (!r.String(v.elements[i], path + "[" + std::to_string(i) + "]", &e)) return false;
            p.extensions.push_back(std::move(e));
          }
          std::sort(p.extensions.begin(), p.extensions.end());
          p.extensions.erase(std::unique(p.extensions.begin(), p.extensions.end()),
                             p.extensions.end());
          return true;
        }
        if (key == "features") {
          return r.Members(v, path,
                           [&](const std::string& k, const json::Value& fv, const std::string& fp,
                               bool* unknown_feature) {
                             for (const FeatureField& f : kFeatureFields) {
                               if (k == f.name) return r.Bool(fv, fp, &(p.features.*f.member));
                             }
                             *unknown_feature = true;
                             return true;
                           });
        }
        if (key == "properties") {
          return r.Members(
              v, path,
              [&](const std::string& k, const json::Value& pv, const std::string& pp,
                  bool* unknown_property) {
                for (const PropertyField& f : kPropertyFields) {
                  if (k != f.name) continue;
                  switch (f.kind) {
                    case PropertyKind::kCount:
                      return r.Count(pv, pp, &(p.properties.*f.count));
                    case PropertyKind::kStages:
                      return r.Stages(pv, pp, &(p.properties.*f.count));
                    case PropertyKind::kOptionalStages: {
                      uint32_t stages = 0;
                      if (!r.Stages(pv, pp, &stages)) return false;
                      p.properties.*f.optional = stages;
                      return true;
                    }
                    case PropertyKind::kBool:
                      return r.Bool(pv, pp, &(p.properties.*f.flag));
                    case PropertyKind::kSize3:
                      if (!r.Expect(pv, json::Value::Kind::kArray, pp)) return false;
                      if (pv.elements.size() != 3) return r.Fail(pp, "expected 3 integers");
                      for (int d = 0; d < 3; ++d) {
                        if (!r.Count(pv.elements[d], pp + "[" + std::to_string(d) + "]",
                                     &p.properties.maxComputeWorkGroupSize[d])) {
                          return false;
                        }
                      }
                      return true;
                  }
                }
                *unknown_property = true;
                return true;
              });
        }
        if (key == "cooperativeMatrixProperties") {
          static const char* const kNames[] = {
              "AType", "BType", "CType", "ResultType", "saturatingAccumulation",
              "scope", "MSize", "NSize", "KSize"};
          return r.List<CooperativeMatrixProperties>(
                     v, path, &p.cooperativeMatrixProperties,
                     [&](const std::string& k, const json::Value& ev, const std::string& ep,
                         CooperativeMatrixProperties* t, bool* unknown_entry) {
                       bool size = false;
                       const bool ok = MatrixSizeField(r, k, ev, ep, t, &size);
                       return size ? ok : MatrixEntryField(r, k, ev, ep, t, unknown_entry);
                     }) &&
                 RequireKeys(r, v, path, kNames);
        }
        if (key == "cooperativeMatrixPropertiesNV") {
          // VkCooperativeMatrixPropertiesNV: DType instead of ResultType, no saturation.
          static const char* const kNames[] = {"AType", "BType", "CType", "DType",
                                               "scope", "MSize", "NSize", "KSize"};
          return r.List<CooperativeMatrixProperties>(
                     v, path, &p.cooperativeMatrixPropertiesNV,
                     [&](const std::string& k, const json::Value& ev, const std::string& ep,
                         CooperativeMatrixProperties* t, bool* unknown_entry) {
                       bool size = false;
                       const bool ok = MatrixSizeField(r, k, ev, ep, t, &size);
                       if (size) return ok;
                       if (k == "DType") return r.Component(ev, ep, &t->ResultType);
                       if (k == "ResultType" || k == "saturatingAccumulation") {
                         *unknown_entry = true;
                         return true;
                       }
                       return MatrixEntryField(r, k, ev, ep, t, unknown_entry);
                     }) &&
                 RequireKeys(r, v, path, kNames);
        }
        if (key == "cooperativeMatrixFlexibleDimensionsProperties") {
          static const char* const kNames[] = {
              "AType", "BType",        "CType",        "ResultType",   "saturatingAccumulation",
              "scope", "MGranularity", "NGranularity", "KGranularity", "workgroupInvocations"};
          return r.List<FlexibleDimensionsProperties>(
                     v, path, &p.cooperativeMatrixFlexibleDimensionsProperties,
                     [&](const std::string& k, const json::Value& ev, const std::string& ep,
                         FlexibleDimensionsProperties* t, bool* unknown_entry) {
                       uint32_t FlexibleDimensionsProperties::*counts[] = {
                           &FlexibleDimensionsProperties::MGranularity,
                           &FlexibleDimensionsProperties::NGranularity,
                           &FlexibleDimensionsProperties::KGranularity,
                           &FlexibleDimensionsProperties::workgroupInvocations};
                       for (int d = 0; d < 4; ++d) {
                         if (k == kNames[6 + d]) {
                           return r.Count(ev, ep, &(t->*counts[d]));
                         }
                       }
                       return MatrixEntryField(r, k, ev, ep, t, unknown_entry);
                     }) &&
                 RequireKeys(r, v, path, kNames);
        }
        if (key == "cooperativeVectorProperties") {
          static const char* const kNames[] = {
              "inputType",          "inputInterpretation", "matrixInterpretation",
              "biasInterpretation", "resultType",          "transpose"};
          return r.List<CooperativeVectorProperties>(
                     v, path, &p.cooperativeVectorProperties,
                     [&](const std::string& k, const json::Value& ev, const std::string& ep,
                         CooperativeVectorProperties* t, bool* unknown_entry) {
                       ComponentType CooperativeVectorProperties::*types[] = {
                           &CooperativeVectorProperties::inputType,
                           &CooperativeVectorProperties::inputInterpretation,
                           &CooperativeVectorProperties::matrixInterpretation,
                           &CooperativeVectorProperties::biasInterpretation,
                           &CooperativeVectorProperties::resultType};
                       for (int d = 0; d < 5; ++d) {
                         if (k == kNames[d]) {
                           return r.Component(ev, ep, &(t->*types[d]));
                         }
                       }
                       if (k == "transpose") {
                         return r.Bool(ev, ep, &t->transpose);
                       }
                       *unknown_entry = true;
                       return true;
                     }) &&
                 RequireKeys(r, v, path, kNames);
        }
        *unknown = true;
        return true;
      });
  if (!ok) return std::nullopt;
  if (!have_format) {
    *error = "missing key \"format\" (\"coopspv-device-profile\")";
    return std::nullopt;
  }
  if (!have_version) {
    *error = "missing key \"version\"";
    return std::nullopt;
  }
  return p;
}

// ---- Writing.

namespace {

std::string StagesText(uint32_t mask) {
  std::string s = "[";
  bool first = true;
  for (const StageBit& b : StageBits()) {
    if (!(mask & b.bit)) continue;
    s += (first ? "" : ", ") + json::Quote(b.name);
    first = false;
  }
  return s + "]";
}

std::string Type(ComponentType t) {
  const char* name = ComponentTypeName(t);
  return json::Quote(name ? name : "unknown");
}

std::string Flag(bool b) { return b ? "true" : "false"; }

}  // namespace

std::string Write(const DeviceProfile& p) {
  std::string out = "{\n";
  out += "  \"format\": " + json::Quote(kFormat) + ",\n";
  out += "  \"version\": " + std::to_string(kVersion) + ",\n";
  out += "  \"deviceName\": " + json::Quote(p.deviceName) + ",\n";
  out += "  \"driver\": " + json::Quote(p.driver) + ",\n";
  out += "  \"apiVersion\": " + json::Quote(p.apiVersion) + ",\n";
  out += "  \"extensions\": [";
  for (size_t i = 0; i < p.extensions.size(); ++i) {
    out += (i ? ",\n    " : "\n    ") + json::Quote(p.extensions[i]);
  }
  out += p.extensions.empty() ? "],\n" : "\n  ],\n";
  out += "  \"features\": {";
  bool first = true;
  for (const FeatureField& f : kFeatureFields) {
    out += std::string(first ? "\n" : ",\n") + "    " + json::Quote(f.name) + ": " +
           Flag(p.features.*f.member);
    first = false;
  }
  out += "\n  },\n  \"properties\": {";
  first = true;
  for (const PropertyField& f : kPropertyFields) {
    std::string value;
    switch (f.kind) {
      case PropertyKind::kCount:
        value = std::to_string(p.properties.*f.count);
        break;
      case PropertyKind::kStages:
        value = StagesText(p.properties.*f.count);
        break;
      case PropertyKind::kOptionalStages:
        if (!(p.properties.*f.optional)) continue;  // Unknown: left out.
        value = StagesText(*(p.properties.*f.optional));
        break;
      case PropertyKind::kBool:
        value = Flag(p.properties.*f.flag);
        break;
      case PropertyKind::kSize3:
        value = "[" + std::to_string(p.properties.maxComputeWorkGroupSize[0]) + ", " +
                std::to_string(p.properties.maxComputeWorkGroupSize[1]) + ", " +
                std::to_string(p.properties.maxComputeWorkGroupSize[2]) + "]";
        break;
    }
    out += std::string(first ? "\n" : ",\n") + "    " + json::Quote(f.name) + ": " + value;
    first = false;
  }
  out += "\n  },\n";
  auto list = [&](const char* name, size_t n, auto entry) {
    out += std::string("  ") + json::Quote(name) + ": [";
    for (size_t i = 0; i < n; ++i) out += (i ? ",\n    " : "\n    ") + entry(i);
    out += n ? "\n  ]" : "]";
  };
  list("cooperativeMatrixProperties", p.cooperativeMatrixProperties.size(), [&](size_t i) {
    const auto& e = p.cooperativeMatrixProperties[i];
    return "{\"MSize\": " + std::to_string(e.MSize) + ", \"NSize\": " + std::to_string(e.NSize) +
           ", \"KSize\": " + std::to_string(e.KSize) + ", \"AType\": " + Type(e.AType) +
           ", \"BType\": " + Type(e.BType) + ", \"CType\": " + Type(e.CType) +
           ", \"ResultType\": " + Type(e.ResultType) +
           ", \"saturatingAccumulation\": " + Flag(e.saturatingAccumulation) +
           ", \"scope\": " + json::Quote(ScopeName(e.scope)) + "}";
  });
  out += ",\n";
  list("cooperativeMatrixPropertiesNV", p.cooperativeMatrixPropertiesNV.size(), [&](size_t i) {
    const auto& e = p.cooperativeMatrixPropertiesNV[i];
    return "{\"MSize\": " + std::to_string(e.MSize) + ", \"NSize\": " + std::to_string(e.NSize) +
           ", \"KSize\": " + std::to_string(e.KSize) + ", \"AType\": " + Type(e.AType) +
           ", \"BType\": " + Type(e.BType) + ", \"CType\": " + Type(e.CType) +
           ", \"DType\": " + Type(e.ResultType) +
           ", \"scope\": " + json::Quote(ScopeName(e.scope)) + "}";
  });
  out += ",\n";
  list("cooperativeMatrixFlexibleDimensionsProperties",
       p.cooperativeMatrixFlexibleDimensionsProperties.size(), [&](size_t i) {
         const auto& e = p.cooperativeMatrixFlexibleDimensionsProperties[i];
         return "{\"MGranularity\": " + std::to_string(e.MGranularity) +
                ", \"NGranularity\": " + std::to_string(e.NGranularity) +
                ", \"KGranularity\": " + std::to_string(e.KGranularity) +
                ", \"AType\": " + Type(e.AType) + ", \"BType\": " + Type(e.BType) +
                ", \"CType\": " + Type(e.CType) + ", \"ResultType\": " + Type(e.ResultType) +
                ", \"saturatingAccumulation\": " + Flag(e.saturatingAccumulation) +
                ", \"scope\": " + json::Quote(ScopeName(e.scope)) +
                ", \"workgroupInvocations\": " + std::to_string(e.workgroupInvocations) + "}";
       });
  out += ",\n";
  list("cooperativeVectorProperties", p.cooperativeVectorProperties.size(), [&](size_t i) {
    const auto& e = p.cooperativeVectorProperties[i];
    return "{\"inputType\": " + Type(e.inputType) +
           ", \"inputInterpretation\": " + Type(e.inputInterpretation) +
           ", \"matrixInterpretation\": " + Type(e.matrixInterpretation) +
           ", \"biasInterpretation\": " + Type(e.biasInterpretation) +
           ", \"resultType\": " + Type(e.resultType) + ", \"transpose\": " + Flag(e.transpose) +
           "}";
  });
  out += "\n}\n";
  return out;
}

std::optional<DeviceProfile> BuiltIn(std::string_view name) {
  for (const BuiltInProfileText* b = kBuiltInProfiles; b->name != nullptr; ++b) {
    if (name != b->name) continue;
    std::string error;
    return Parse(b->json, &error);
  }
  return std::nullopt;
}

std::vector<std::string> BuiltInNames() {
  std::vector<std::string> names;
  for (const BuiltInProfileText* b = kBuiltInProfiles; b->name != nullptr; ++b) {
    names.push_back(b->name);
  }
  return names;
}

std::optional<DeviceProfile> FromNameOrText(std::string_view name_or_json, std::string* error) {
  if (auto p = BuiltIn(name_or_json)) return p;
  const size_t first = name_or_json.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || name_or_json[first] != '{') {
    std::string names;
    for (const std::string& n : BuiltInNames()) names += (names.empty() ? "" : ", ") + n;
    *error = "'" + std::string(name_or_json.substr(0, 64)) +
             "' is neither a built-in device profile (" + names + ") nor a JSON profile";
    return std::nullopt;
  }
  return Parse(name_or_json, error);
}

}  // namespace coopspv::profile
