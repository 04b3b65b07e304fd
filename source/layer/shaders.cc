#include "source/layer/shaders.h"

#include <cstring>
#include <sstream>

#include "source/layer/emulate.h"
#include "source/run/specialization.h"

namespace coopspv::layer {
namespace {

void AddModule(Hasher& h, const CacheKey& module_key, std::span<const run::SpecConstant> spec) {
  h.Add(&module_key, sizeof(module_key));
  h.Add(spec.size());
  for (const run::SpecConstant& c : spec) {
    h.Add(c.id);
    h.Add(c.type.bits);
    h.Add(c.value.bits);
  }
}

std::string Escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      const char c = s[++i];
      out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
    } else {
      out += s[i];
    }
  }
  return out;
}

constexpr const char* kVerdictHeader = "coopspv-layer-verdict 1";

}  // namespace

CacheKey ModuleKey(std::span<const uint32_t> words) {
  Hasher h;
  h.Add(Version());
  h.Add(&BuildKey(), sizeof(CacheKey));
  const CacheKey words_key = HashBytes(words.data(), words.size_bytes());
  h.Add(&words_key, sizeof(words_key));
  return h.Finish();
}

std::vector<run::SpecConstant> SpecConstantsOf(const VkSpecializationInfo* info) {
  std::vector<run::SpecConstant> out;
  if (info == nullptr || info->pMapEntries == nullptr || info->pData == nullptr) return out;
  const auto* data = static_cast<const uint8_t*>(info->pData);
  for (uint32_t i = 0; i < info->mapEntryCount; ++i) {
    const VkSpecializationMapEntry& e = info->pMapEntries[i];
    if ((e.size != 1 && e.size != 2 && e.size != 4 && e.size != 8) || e.offset > info->dataSize ||
        e.size > info->dataSize - e.offset) {
      continue;
    }
    run::SpecConstant c;
    c.id = e.constantID;
    c.type.kind = run::DataType::kUnsigned;
    c.type.bits = static_cast<uint32_t>(e.size * 8);
    std::memcpy(&c.value.bits, data + e.offset, e.size);
    c.value.value = static_cast<double>(c.value.bits);
    out.push_back(c);
  }
  return out;
}

bool ValidateModule(std::span<const uint32_t> words, const CacheKey& module_key,
                    std::span<const run::SpecConstant> spec, const ValidationSetup& setup,
                    Cache& cache, Verdict* verdict, std::string* error) {
  Hasher h;
  h.Add("validate");
  h.Add(setup.target_env);
  h.Add(static_cast<uint64_t>(setup.scalar_block_layout) |
        static_cast<uint64_t>(setup.uniform_buffer_standard_layout) << 1 |
        static_cast<uint64_t>(setup.workgroup_scalar_block_layout) << 2);
  h.Add(&setup.profile_key, sizeof(setup.profile_key));
  AddModule(h, module_key, spec);
  const CacheKey key = h.Finish();
  if (const auto parsed = cache.FindParsed<Verdict>(key, "verdict")) {
    *verdict = *parsed;
    verdict->source = Source::kMemory;
    return true;
  }
  bool from_disk = false;
  if (const auto bytes = cache.Find(key, "verdict", &from_disk);
      bytes && DeserializeVerdict(*bytes, verdict)) {
    cache.PutParsed(key, "verdict", std::make_shared<const Verdict>(*verdict));
    verdict->source = from_disk ? Source::kDisk : Source::kMemory;
    return true;
  }
  const std::vector<uint32_t> specialized =
      run::Specialized(words, spec, setup.target_env, /*freeze=*/true);
  ValidatorOptions options;
  options.target_env = setup.target_env;
  options.device_profile = setup.profile;
  options.max_errors = 20;
  options.scalar_block_layout = setup.scalar_block_layout;
  options.uniform_buffer_standard_layout = setup.uniform_buffer_standard_layout;
  options.workgroup_scalar_block_layout = setup.workgroup_scalar_block_layout;
  ValidationResult result;
  Problem problem;
  if (!Validate(specialized.empty() ? words : std::span<const uint32_t>(specialized), options,
                &result, &problem)) {
    *error = problem.message;
    return false;
  }
  *verdict = Verdict();
  verdict->valid = result.valid;
  verdict->diagnostics = std::move(result.diagnostics);
  cache.Put(key, "verdict", SerializeVerdict(*verdict));
  cache.PutParsed(key, "verdict", std::make_shared<const Verdict>(*verdict));
  return true;
}

bool LegalizeModule(std::span<const uint32_t> words, const CacheKey& module_key,
                    std::span<const run::SpecConstant> spec, const std::string& target_env,
                    const std::string& device_json, const CacheKey& device_key,
                    uint32_t one_subgroup, Cache& cache,
                    std::shared_ptr<const std::vector<uint32_t>>* out, Source* source,
                    std::string* error, const std::string& lower_coop_vector) {
  Hasher h;
  h.Add("legalize");
  h.Add(target_env);
  if (!lower_coop_vector.empty()) h.Add("lower-coop-vector=" + lower_coop_vector);
  h.Add(&device_key, sizeof(device_key));
  h.Add(uint64_t{one_subgroup});
  AddModule(h, module_key, spec);
  const CacheKey key = h.Finish();
  if (auto parsed = cache.FindParsed<std::vector<uint32_t>>(key, "spv")) {
    *out = std::move(parsed);
    *source = Source::kMemory;
    return true;
  }
  bool from_disk = false;
  if (const auto bytes = cache.Find(key, "spv", &from_disk);
      bytes && !bytes->empty() && bytes->size() % 4 == 0) {
    auto legal = std::make_shared<std::vector<uint32_t>>(bytes->size() / 4);
    std::memcpy(legal->data(), bytes->data(), bytes->size());
    cache.PutParsed(key, "spv", legal);
    *out = std::move(legal);
    *source = from_disk ? Source::kDisk : Source::kMemory;
    return true;
  }
  *source = Source::kComputed;
  std::vector<uint32_t> narrowed;
  if (one_subgroup != 0) {
    narrowed = WithLocalSize(words, one_subgroup);
    words = narrowed;
  }
  OptimizerOptions options;
  options.target_env = target_env;
  // The layer validated the module already, for the block layouts the device enabled.
  options.skip_validation = true;
  const std::string defaults = run::SpecializationDefaults(words, spec);
  if (!defaults.empty()) options.passes.push_back({"set-spec-const-default-value", defaults});
  options.passes.push_back({"freeze-spec-const", ""});
  options.passes.push_back({"fold-spec-const", ""});
  if (!lower_coop_vector.empty())
    options.passes.push_back({"lower-coop-vector", lower_coop_vector});
  options.passes.push_back({"legalize-for-device", device_json});
  OptimizeResult result;
  Problem problem;
  if (!Optimize(words, options, &result, &problem)) {
    *error = problem.message;
    for (const ValidationDiagnostic& d : result.validation.diagnostics) {
      if (d.is_error) {
        *error += ": " + DiagnosticLine(d);
        break;
      }
    }
    return false;
  }
  auto legal = std::make_shared<const std::vector<uint32_t>>(std::move(result.words));
  cache.Put(key, "spv",
            std::string(reinterpret_cast<const char*>(legal->data()), legal->size() * 4));
  cache.PutParsed(key, "spv", legal);
  *out = std::move(legal);
  return true;
}

std::string DiagnosticLine(const ValidationDiagnostic& d) {
  std::string s = (d.is_error ? "error: " : "warning: ") + d.rule_id + ": " + d.message;
  if (!d.clause.empty()) s += " [" + d.clause + "]";
  if (d.has_instruction) s += " (" + d.instruction + ")";
  return s;
}

std::string SerializeVerdict(const Verdict& verdict) {
  std::string s = std::string(kVerdictHeader) + "\nvalid " + (verdict.valid ? "1" : "0") + "\n";
  for (const ValidationDiagnostic& d : verdict.diagnostics) {
    s += d.is_error ? "E\t" : "W\t";
    s += Escape(d.rule_id) + "\t" + Escape(d.clause) + "\t" + Escape(d.message) + "\t" +
         (d.has_instruction ? "1" : "0") + "\t" + Escape(d.instruction) + "\n";
  }
  return s;
}

bool DeserializeVerdict(const std::string& bytes, Verdict* verdict) {
  std::istringstream in(bytes);
  std::string line;
  if (!std::getline(in, line) || line != kVerdictHeader) return false;
  if (!std::getline(in, line) || (line != "valid 1" && line != "valid 0")) return false;
  Verdict v;
  v.valid = line == "valid 1";
  while (std::getline(in, line)) {
    std::vector<std::string_view> f;
    size_t start = 0;
    for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1) {
      f.push_back(std::string_view(line).substr(start, tab - start));
    }
    f.push_back(std::string_view(line).substr(start));
    if (f.size() != 6 || (f[0] != "E" && f[0] != "W")) return false;
    ValidationDiagnostic d;
    d.is_error = f[0] == "E";
    d.rule_id = Unescape(f[1]);
    d.clause = Unescape(f[2]);
    d.message = Unescape(f[3]);
    d.has_instruction = f[4] == "1";
    d.instruction = Unescape(f[5]);
    v.diagnostics.push_back(std::move(d));
  }
  *verdict = std::move(v);
  return true;
}

}  // namespace coopspv::layer
