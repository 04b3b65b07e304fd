// The AmberScript parser: one statement per line (blocks end with END), '#' comments, names
// declared before use. Every error names its line.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

#include "include/coopspv/coopspv.hpp"
#include "source/common/float.h"
#include "source/common/literal.h"
#include "source/run/format.h"
#include "source/run/glsl.h"
#include "source/run/script.h"
#include "source/run/shader_optimization.h"
#include "source/run/vulkan.h"

namespace coopspv::run {
namespace {

std::vector<std::string_view> Tokenize(std::string_view line) {
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    if (i >= line.size() || line[i] == '#') break;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

std::string Quote(std::string_view s) { return "'" + std::string(s) + "'"; }

ScalarType ScalarOf(const DataType& type) {
  ScalarType s;
  s.kind = type.kind == DataType::kFloat    ? ScalarType::kFloat
           : type.kind == DataType::kSigned ? ScalarType::kSigned
                                            : ScalarType::kUnsigned;
  s.width = type.bits;
  return s;
}

// The literal as the component type of `type` encodes it.
bool EncodeNumber(std::string_view text, const DataType& type, Number* number, std::string* error) {
  uint64_t bits = 0;
  if (!EncodeLiteral(text, ScalarOf(type), &bits, error)) return false;
  // EncodeLiteral sign-extends narrow signed types into a word; keep the type's bits.
  if (type.bits < 64) bits &= (uint64_t{1} << type.bits) - 1;
  number->bits = bits;
  number->value = ComponentValue(bits, type);
  return true;
}

// A buffer value as Amber reads it: the literal of the component type, and for an integer type
// also a floating-point literal, converted as Amber converts its number tokens (truncated toward
// zero: the CTS writes "FILL 0.0" for integer buffers).
bool EncodeValue(std::string_view text, const DataType& type, Number* number, std::string* error) {
  if (EncodeNumber(text, type, number, error)) return true;
  if (type.kind == DataType::kFloat) {
    // "nan" and "inf" (signed or not), which Amber's float reading takes: a quiet NaN, infinity.
    const bool negative = text.starts_with('-');
    std::string_view word = text.substr(negative || text.starts_with('+') ? 1 : 0);
    const bool nan = word == "nan" || word == "NaN" || word == "NAN";
    if (!nan && word != "inf" && word != "Inf" && word != "INF") return false;
    const uint32_t mantissa = type.bits == 16 ? 10 : type.bits == 32 ? 23 : 52;
    const uint64_t exponent = ((uint64_t{1} << (type.bits - 1 - mantissa)) - 1) << mantissa;
    number->bits = exponent | (nan ? uint64_t{1} << (mantissa - 1) : 0) |
                   (negative ? uint64_t{1} << (type.bits - 1) : 0);
    number->value = ComponentValue(number->bits, type);
    return true;
  }
  // An integer of the width's other signedness is its bits, as Amber stores it (the CTS writes
  // "40206" into an int16 buffer, "-1" into a uint32 one).
  DataType other = type;
  other.kind = type.kind == DataType::kSigned ? DataType::kUnsigned : DataType::kSigned;
  std::string ignored;
  if (EncodeNumber(text, other, number, &ignored)) {
    number->value = ComponentValue(number->bits, type);
    return true;
  }
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno != 0 || !std::isfinite(v) ||
      std::fabs(v) >= 9.2e18) {
    return false;
  }
  char integer[32];
  std::snprintf(integer, sizeof(integer), "%lld", static_cast<long long>(std::trunc(v)));
  return EncodeNumber(integer, type, number, error);
}

void StoreComponent(const Number& n, uint32_t bytes, uint8_t* out) {
  for (uint32_t i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(n.bits >> (8 * i));
}

bool ParseUint(std::string_view text, uint64_t max, uint64_t* value) {
  bool negative = false;
  if (!ParseInteger(text, &negative, value)) return false;
  return !negative && *value <= max;
}

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& options, Script* script, ParseError* error)
      : options_(options), script_(script), error_(error) {
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      lines_.push_back(text.substr(start, end - start));
      start = end + 1;
    }
  }

  // The tokens of line `next_` and, where a line ends with a backslash, of the lines it
  // continues on (Amber's line continuation: "ATTACH s \" then "SPECIALIZE 1 AS uint32 2").
  std::vector<std::string_view> TakeTokens() {
    auto tokens = Tokenize(lines_[next_++]);
    while (!tokens.empty() && tokens.back().ends_with('\\') && next_ < lines_.size()) {
      tokens.back().remove_suffix(1);
      if (tokens.back().empty()) tokens.pop_back();
      for (auto t : Tokenize(lines_[next_++])) tokens.push_back(t);
    }
    return tokens;
  }

  bool Parse() {
    while (next_ < lines_.size()) {
      line_number_ = static_cast<uint32_t>(next_ + 1);
      const std::string_view line = lines_[next_];
      const auto tokens = TakeTokens();
      if (tokens.empty()) continue;
      const std::string_view keyword = tokens[0];
      bool ok;
      if (keyword == "SHADER") {
        ok = ParseShader(tokens);
      } else if (keyword == "BUFFER") {
        ok = ParseBuffer(tokens);
      } else if (keyword == "IMAGE") {
        ok = ParseImage(tokens);
      } else if (keyword == "SAMPLER") {
        ok = ParseSampler(tokens);
      } else if (keyword == "PIPELINE") {
        ok = ParsePipeline(tokens);
      } else if (keyword == "RUN") {
        ok = ParseRun(tokens, line);
      } else if (keyword == "EXPECT") {
        ok = ParseExpect(tokens, line);
      } else if (keyword == "DEVICE_FEATURE" || keyword == "DEVICE_EXTENSION") {
        ok = Expect(tokens.size() == 2, std::string(keyword) + " takes one name");
        if (ok) {
          auto& list = keyword == "DEVICE_FEATURE" ? script_->features : script_->extensions;
          list.push_back({std::string(tokens[1]), line_number_});
        }
      } else if (keyword == "INSTANCE_EXTENSION") {
        ok = Expect(tokens.size() == 2, "INSTANCE_EXTENSION takes one name");
        if (ok) script_->instance_extensions.push_back({std::string(tokens[1]), line_number_});
      } else if (keyword == "REPEAT") {
        ok = ParseRepeat(tokens);
      } else if (keyword == "DEVICE_PROPERTY") {
        ok = Expect(tokens.size() == 2, "DEVICE_PROPERTY takes one name") &&
             Expect(IsDeviceProperty(tokens[1]),
                    "unknown DEVICE_PROPERTY " + Quote(tokens[1]) +
                        " (FloatControlsProperties.<boolean>, as in Amber)");
        if (ok) script_->properties.push_back({std::string(tokens[1]), line_number_});
      } else if (keyword == "SET") {
        ok = ParseSet(tokens);
      } else if (keyword == "BUFFER_ADDRESS") {
        ok = ParseBufferAddress(tokens);
      } else if (keyword == "CONVERT_MATRIX") {
        ok = ParseConvertMatrix(tokens, line);
      } else {
        ok = Fail(Quote(keyword) + " is not supported by coopspv-run (see docs/run.md)");
      }
      if (!ok) return false;
    }
    return true;
  }

 private:
  static bool IsDeviceProperty(std::string_view name) {
    for (const FloatControlProperty& p : FloatControlProperties()) {
      if (name == p.name) return true;
    }
    return false;
  }

  bool Fail(std::string message) {
    error_->line = line_number_;
    error_->message = std::move(message);
    return false;
  }
  bool Expect(bool condition, std::string message) { return condition || Fail(std::move(message)); }

  bool IsDeclared(std::string_view name) const {
    return script_->FindBuffer(name) || script_->FindShader(name) || script_->FindPipeline(name) ||
           script_->FindSampler(name);
  }
  bool CheckNewName(std::string_view name) {
    return Expect(!IsDeclared(name), Quote(name) + " is already declared");
  }

  // Lines up to the next "END" line, which is consumed.
  bool ReadBlock(const char* what, std::vector<std::pair<uint32_t, std::string_view>>* block) {
    const uint32_t start = line_number_;
    while (next_ < lines_.size()) {
      const uint32_t number = static_cast<uint32_t>(next_ + 1);
      const std::string_view line = lines_[next_++];
      const auto tokens = Tokenize(line);
      if (tokens.size() == 1 && tokens[0] == "END") return true;
      block->push_back({number, line});
    }
    line_number_ = start;
    return Fail(std::string(what) + " has no END");
  }

  bool ReadFile(const std::string& path, std::string* contents) {
    const std::string full = options_.directory.empty() || path.starts_with('/')
                                 ? path
                                 : options_.directory + "/" + path;
    std::ifstream in(full, std::ios::binary);
    if (!in) return Fail("cannot open " + Quote(full) + ": " + std::strerror(errno));
    std::stringstream ss;
    ss << in.rdbuf();
    *contents = ss.str();
    return true;
  }

  // SHADER compute <name> SPIRV-ASM|SPIRV-BINARY|GLSL [TARGET_ENV <env>]
  //        [FILE [BINARY|TEXT] <path>]
  bool ParseShader(const std::vector<std::string_view>& t) {
    if (!Expect(t.size() >= 4, "SHADER needs a type, a name and a format")) return false;
    if (!Expect(t[1] == "compute", "shader type " + Quote(t[1]) +
                                       " is not supported: coopspv-run runs compute shaders")) {
      return false;
    }
    if (!CheckNewName(t[2])) return false;
    Shader shader{std::string(t[2]), {}, line_number_};
    const std::string_view format = t[3];
    const bool binary = format == "SPIRV-BINARY" || format == "SPIRV-BIN";
    const bool glsl = format == "GLSL";
    if (format == "OPENCL-C") {
      // Amber compiles OpenCL C with clspv, which Debian 12 does not package: the script needs
      // a compiler this build lacks, as a device may lack an extension.
      error_->unsupported = true;
      return Fail("OPENCL-C shaders need the clspv compiler, which this build does not have");
    }
    if (!binary && !glsl && format != "SPIRV-ASM") {
      return Fail("shader format " + Quote(format) +
                  " is not supported (coopspv-run takes SPIRV-ASM, SPIRV-BINARY or GLSL)");
    }
    // Amber assembles at SPIR-V 1.0 without TARGET_ENV; coopspv-run also reads the version of
    // the text's "; Version:" header comment, which Amber ignores.
    AssembleOptions assemble;
    assemble.default_version = 0x00010000;
    GlslTarget glsl_target;
    std::string file;
    for (size_t i = 4; i < t.size(); ++i) {
      if (t[i] == "TARGET_ENV" && i + 1 < t.size()) {
        const auto version = SpirvVersionForTargetEnv(t[++i]);
        if (!Expect(version.has_value(), "unknown TARGET_ENV " + Quote(t[i]))) return false;
        assemble.version = version;
        if (const auto target = GlslTargetForEnv(t[i])) glsl_target = *target;
      } else if (t[i] == "FILE" && i + 1 < t.size()) {
        if ((t[i + 1] == "BINARY" || t[i + 1] == "TEXT") && i + 2 < t.size()) ++i;
        file = std::string(t[++i]);
        if (i + 1 != t.size()) return Fail("unexpected " + Quote(t[i + 1]) + " after FILE");
      } else {
        return Fail("unexpected " + Quote(t[i]) + " in SHADER");
      }
    }
    if (binary) {
      if (!Expect(!file.empty(), "SPIRV-BINARY needs FILE <path>")) return false;
      std::string bytes;
      if (!ReadFile(file, &bytes)) return false;
      Problem problem;
      if (!BytesToWords({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()},
                        &shader.words, &problem) ||
          !ParseCheck(shader.words, &problem)) {
        return Fail(Quote(file) + " is not a SPIR-V module: " + problem.ToString());
      }
    } else {
      std::string text;
      if (!file.empty()) {
        if (!ReadFile(file, &text)) return false;
      } else {
        std::vector<std::pair<uint32_t, std::string_view>> block;
        if (!ReadBlock("SHADER", &block)) return false;
        // Keep line numbers: the block's first line follows the SHADER line.
        for (const auto& [number, line] : block) {
          text.append(line);
          text.push_back('\n');
        }
      }
      if (glsl) {
        const GlslSource source{text, file.empty() ? shader.name : file,
                                file.empty() ? shader.line + 1 : 0};
        std::string error;
        if (!CompileGlslCompute(source, glsl_target, &shader.words, &error)) {
          for (size_t at = 0; (at = error.find('\n', at)) != std::string::npos; ++at) {
            error.replace(at, 1, "\n  ");
          }
          return Fail("GLSL compile of shader " + Quote(shader.name) +
                      (file.empty() ? "" : " (" + file + ")") + " failed:\n  " + error);
        }
        script_->shaders.push_back(std::move(shader));
        return true;
      }
      Problem problem;
      if (!Assemble(text, assemble, &shader.words, &problem)) {
        if (file.empty() && problem.line != 0) line_number_ = shader.line + problem.line;
        return Fail("SPIR-V assembly of shader " + Quote(shader.name) +
                    (file.empty() ? "" : " (" + file + ")") + ": " + problem.message);
      }
    }
    script_->shaders.push_back(std::move(shader));
    return true;
  }

  // DATA values up to the END token, from `rest` (the tokens after DATA on its line) on, across
  // lines: Amber reads tokens, so "DATA 1 2 END" is one statement.
  bool ReadData(std::vector<std::string_view> rest, std::vector<std::string_view>* values) {
    const uint32_t start = line_number_;
    for (;;) {
      for (size_t k = 0; k < rest.size(); ++k) {
        if (rest[k] == "END") {
          return Expect(
              k + 1 == rest.size(),
              "unexpected " + (k + 1 < rest.size() ? Quote(rest[k + 1]) : "") + " after END");
        }
        values->push_back(rest[k]);
      }
      if (next_ >= lines_.size()) break;
      line_number_ = static_cast<uint32_t>(next_ + 1);
      rest = Tokenize(lines_[next_++]);
    }
    line_number_ = start;
    return Fail("BUFFER DATA has no END");
  }

  // Values (DATA, FILE TEXT) into the buffer's bytes, component by component; `elements` 0: as
  // many elements as the values make (whole elements), else that many (zero beyond the values).
  bool StoreValues(const std::vector<std::string_view>& values, uint64_t elements, const char* what,
                   Buffer* buffer) {
    const DataType& type = buffer->type;
    if (elements == 0) {
      if (!Expect(!values.empty() && values.size() % type.ComponentCount() == 0,
                  std::string(what) + " needs a whole number of " + type.Name() +
                      " elements, got " + std::to_string(values.size()) + " values")) {
        return false;
      }
      elements = values.size() / type.ComponentCount();
    }
    if (!Expect(elements * type.ElementBytes() <= options_.max_buffer_bytes,
                std::string(what) + " is larger than the buffer limit") ||
        !Expect(values.size() <= elements * type.ComponentCount(),
                std::string(what) + " has " + std::to_string(values.size()) + " values for " +
                    std::to_string(elements) + " " + type.Name() + " elements")) {
      return false;
    }
    buffer->bytes.assign(elements * type.ElementBytes(), 0);
    std::string error;
    for (size_t k = 0; k < values.size(); ++k) {
      Number n;
      if (!EncodeValue(values[k], type, &n, &error)) {
        return Fail(std::string(what) + " value " + std::to_string(k) + ": " + error);
      }
      const uint64_t e = k / type.ComponentCount();
      const uint32_t c = static_cast<uint32_t>(k % type.ComponentCount());
      StoreComponent(n, type.ComponentBytes(),
                     &buffer->bytes[e * type.ElementBytes() + type.ComponentOffset(c)]);
    }
    return true;
  }

  // The initializer after a known element count, from t[i] on: nothing (zeros), FILL <v>,
  // SERIES_FROM <s> INC_BY <i>, or (`file`) FILE [TEXT|BINARY] <path>, whose data sets the size.
  bool FillBuffer(const std::vector<std::string_view>& t, size_t i, uint64_t size, bool file,
                  Buffer* buffer) {
    const DataType& type = buffer->type;
    const uint32_t component_bytes = type.ComponentBytes();
    std::string error;
    buffer->bytes.assign(size * type.ElementBytes(), 0);
    if (i == t.size()) return true;  // No initializer: zeros.
    if (t[i] == "FILL") {
      Number n;
      if (!Expect(i + 2 == t.size(), "FILL takes one value")) return false;
      if (!EncodeValue(t[i + 1], type, &n, &error)) return Fail("FILL: " + error);
      for (uint64_t e = 0; e < size; ++e) {
        for (uint32_t c = 0; c < type.ComponentCount(); ++c) {
          StoreComponent(n, component_bytes,
                         &buffer->bytes[e * type.ElementBytes() + type.ComponentOffset(c)]);
        }
      }
      return true;
    }
    if (t[i] == "SERIES_FROM") {
      if (!Expect(i + 4 == t.size() && t[i + 2] == "INC_BY",
                  "SERIES_FROM <start> INC_BY <increment>")) {
        return false;
      }
      Number start, inc;
      if (!EncodeValue(t[i + 1], type, &start, &error) ||
          !EncodeValue(t[i + 3], type, &inc, &error)) {
        return Fail("SERIES_FROM: " + error);
      }
      for (uint64_t e = 0; e < size; ++e) {
        for (uint32_t c = 0; c < type.ComponentCount(); ++c) {
          const uint64_t k = e * type.ComponentCount() + c;
          Number n;
          if (type.kind == DataType::kFloat) {
            const double v = start.value + static_cast<double>(k) * inc.value;
            char text[64];
            std::snprintf(text, sizeof(text), "%.17g", v);
            if (!EncodeNumber(text, type, &n, &error)) return Fail("SERIES_FROM: " + error);
          } else {
            // Two's complement wraps, as the component type would.
            n.bits = start.bits + k * inc.bits;
          }
          StoreComponent(n, component_bytes,
                         &buffer->bytes[e * type.ElementBytes() + type.ComponentOffset(c)]);
        }
      }
      return true;
    }
    if (t[i] == "FILE" && file) {
      // FILE [TEXT | BINARY] <path>: whitespace-separated values, or the bytes themselves (TEXT
      // when not said, as Amber).
      size_t k = i + 1;
      const bool binary = k < t.size() && t[k] == "BINARY";
      if (k < t.size() && (t[k] == "BINARY" || t[k] == "TEXT")) ++k;
      if (!Expect(k + 1 == t.size(), "FILE [TEXT|BINARY] <path>")) return false;
      std::string contents;
      if (!ReadFile(std::string(t[k]), &contents)) return false;
      // As in Amber, the file's data sets the buffer's size (SIZE is superseded).
      if (binary) {
        if (!Expect(!contents.empty() && contents.size() % type.ElementBytes() == 0 &&
                        contents.size() <= options_.max_buffer_bytes,
                    "FILE BINARY " + Quote(t[k]) + " has " + std::to_string(contents.size()) +
                        " bytes, not a whole number of " + type.Name() + " elements")) {
          return false;
        }
        buffer->bytes.assign(contents.begin(), contents.end());
        return true;
      }
      std::vector<std::string_view> values;
      std::string_view rest = contents;
      while (!rest.empty()) {
        const size_t end = rest.find('\n');
        for (auto v : Tokenize(rest.substr(0, end))) values.push_back(v);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      }
      return StoreValues(values, 0, "FILE TEXT", buffer);
    }
    return Fail("SIZE takes FILL <value>, SERIES_FROM <start> INC_BY <increment>" +
                std::string(file ? ", FILE [TEXT|BINARY] <path>" : "") +
                " or nothing (zeros), not " + Quote(t[i]));
  }

  // A DATA_TYPE or FORMAT word: a data type or an image format (format.h).
  bool ParseType(std::string_view keyword, const std::vector<std::string_view>& t, size_t i,
                 DataType* type) {
    if (!Expect(i < t.size(), std::string(keyword) + " needs a type")) return false;
    const ImageFormat* format = FindImageFormat(t[i]);
    if (format != nullptr) {
      std::string why;
      const bool ok = FormatDataType(*format, type, &why);
      return Expect(ok, "FORMAT " + Quote(t[i]) + " is not supported: " + why);
    }
    if (keyword == "FORMAT") {
      return Fail("unknown FORMAT " + Quote(t[i]) +
                  " (a Vulkan format name without VK_FORMAT_, as R8G8B8A8_UNORM or R32_SFLOAT)");
    }
    return Expect(ParseDataType(t[i], type), "unknown DATA_TYPE " + Quote(t[i]));
  }

  bool ParseDimension(std::string_view keyword, std::string_view value, uint32_t* out) {
    uint64_t n = 0;
    if (!Expect(ParseUint(value, 1 << 16, &n) && n > 0,
                std::string(keyword) + " must be a number from 1 to 65536, not " + Quote(value))) {
      return false;
    }
    *out = static_cast<uint32_t>(n);
    return true;
  }

  // The element count of an image shape, within the buffer limit.
  bool ImageElements(const ImageShape& shape, const DataType& type, uint64_t* elements) {
    *elements = uint64_t{shape.width} * shape.height * shape.depth;
    return Expect(*elements * type.ElementBytes() <= options_.max_buffer_bytes,
                  "the image is larger than the buffer limit (" +
                      std::to_string(options_.max_buffer_bytes) + " bytes)");
  }

  // BUFFER <name> DATA_TYPE <type> [STD430]
  //     ( DATA <v>... END
  //     | SIZE <n> [ FILL <v> | SERIES_FROM <s> INC_BY <i> | FILE [TEXT|BINARY] <path> ]
  //     | WIDTH <w> HEIGHT <h> [ FILL <v> | SERIES_FROM <s> INC_BY <i> | DATA <v>... END ] )
  // SIZE alone is zero-filled; DATA's values may share its line and END's. <type> may be an
  // image format. WIDTH / HEIGHT (Amber's deprecated form) make a 2D image.
  bool ParseBuffer(const std::vector<std::string_view>& t) {
    if (!Expect(t.size() >= 3, "BUFFER needs a name and DATA_TYPE")) return false;
    if (!CheckNewName(t[1])) return false;
    Buffer buffer{std::string(t[1]), {}, {}, line_number_, {}};
    if (t[2] == "FORMAT") {
      // Amber sizes such a buffer by a graphics pipeline's framebuffer.
      return Fail("BUFFER " + Quote(t[1]) +
                  " FORMAT: a buffer sized by a framebuffer (graphics pipelines); declare an "
                  "IMAGE <name> FORMAT <format> ... WIDTH <w> HEIGHT <h>");
    }
    if (!Expect(t[2] == "DATA_TYPE",
                "BUFFER " + Quote(t[2]) + " is not supported: declare buffers with DATA_TYPE")) {
      return false;
    }
    if (!ParseType("DATA_TYPE", t, 3, &buffer.type)) return false;
    size_t i = 4;
    if (i < t.size() && t[i] == "STD430") ++i;
    if (!Expect(i < t.size(), "BUFFER needs SIZE, WIDTH or DATA")) return false;
    const DataType& type = buffer.type;
    if (t[i] == "SIZE") {
      uint64_t size = 0;
      if (!Expect(i + 1 < t.size() && ParseUint(t[i + 1], options_.max_buffer_bytes, &size) &&
                      size > 0 && size * type.ElementBytes() <= options_.max_buffer_bytes,
                  "SIZE must be an element count from 1 to " +
                      std::to_string(options_.max_buffer_bytes / type.ElementBytes()))) {
        return false;
      }
      if (!FillBuffer(t, i + 2, size, true, &buffer)) return false;
    } else if (t[i] == "WIDTH") {
      ImageShape& shape = buffer.image;
      shape.dimensions = 2;
      if (!Expect(i + 3 < t.size() && t[i + 2] == "HEIGHT", "BUFFER ... WIDTH <w> HEIGHT <h>") ||
          !ParseDimension("WIDTH", t[i + 1], &shape.width) ||
          !ParseDimension("HEIGHT", t[i + 3], &shape.height)) {
        return false;
      }
      uint64_t elements = 0;
      if (!ImageElements(shape, type, &elements)) return false;
      i += 4;
      if (i < t.size() && t[i] == "DATA") {
        if (!ParseImageData(t, i, elements, &buffer)) return false;
      } else if (!FillBuffer(t, i, elements, false, &buffer)) {
        return false;
      }
    } else if (t[i] == "DATA") {
      std::vector<std::string_view> values;
      if (!ReadData({t.begin() + static_cast<long>(i) + 1, t.end()}, &values)) return false;
      line_number_ = buffer.line;  // Errors in the values name the BUFFER line.
      if (!StoreValues(values, 0, "DATA", &buffer)) return false;
    } else {
      return Fail("BUFFER needs SIZE, WIDTH or DATA, not " + Quote(t[i]));
    }
    script_->buffers.push_back(std::move(buffer));
    return true;
  }

  // DATA <v>... END for an image: exactly its texels' values, as Amber wants them.
  bool ParseImageData(const std::vector<std::string_view>& t, size_t i, uint64_t elements,
                      Buffer* buffer) {
    std::vector<std::string_view> values;
    if (!ReadData({t.begin() + static_cast<long>(i) + 1, t.end()}, &values)) return false;
    line_number_ = buffer->line;
    if (!StoreValues(values, 0, "DATA", buffer)) return false;
    const uint64_t got = buffer->ElementCount();
    return Expect(got == elements, "DATA has " + std::to_string(got) + " texels for an image of " +
                                       std::to_string(elements));
  }

  // IMAGE <name> ( FORMAT <format> | DATA_TYPE <type> ) [MIP_LEVELS <n>] [SAMPLES <n>]
  //     [DIM_1D | DIM_2D | DIM_3D] WIDTH <w> [HEIGHT <h> [DEPTH <d>]]
  //     [ FILL <v> | SERIES_FROM <s> INC_BY <i> | DATA <v>... END ]
  // The keywords before the initializer in any order, as Amber reads them.
  bool ParseImage(const std::vector<std::string_view>& t) {
    if (!Expect(t.size() >= 2, "IMAGE needs a name")) return false;
    if (!Expect(t[1] != "FORMAT" && t[1] != "DATA_TYPE", "IMAGE needs a name")) return false;
    if (!CheckNewName(t[1])) return false;
    Buffer buffer{std::string(t[1]), {}, {}, line_number_, {}};
    ImageShape& shape = buffer.image;
    bool typed = false, width = false, height = false, depth = false;
    size_t i = 2;
    for (; i < t.size() && t[i] != "FILL" && t[i] != "SERIES_FROM" && t[i] != "DATA"; ++i) {
      const std::string_view key = t[i];
      if (key == "DIM_1D" || key == "DIM_2D" || key == "DIM_3D") {
        shape.dimensions = static_cast<uint32_t>(key[4] - '0');
        continue;
      }
      if (key != "FORMAT" && key != "DATA_TYPE" && key != "WIDTH" && key != "HEIGHT" &&
          key != "DEPTH" && key != "MIP_LEVELS" && key != "SAMPLES") {
        return Fail("unexpected " + Quote(key) + " in IMAGE");
      }
      if (!Expect(i + 1 < t.size(), Quote(key) + " needs a value")) return false;
      const std::string_view value = t[++i];
      uint64_t n = 0;
      if (key == "FORMAT" || key == "DATA_TYPE") {
        if (!ParseType(key, t, i, &buffer.type)) return false;
        if (key == "DATA_TYPE" && !ImageFormatOf(buffer.type)) {
          return Fail("IMAGE DATA_TYPE " + Quote(value) +
                      " has no image format (a scalar or a vec2 / vec4 of one; use FORMAT for "
                      "three components)");
        }
        typed = true;
      } else if (key == "WIDTH") {
        if (!ParseDimension(key, value, &shape.width)) return false;
        width = true;
      } else if (key == "HEIGHT") {
        if (!ParseDimension(key, value, &shape.height)) return false;
        height = true;
      } else if (key == "DEPTH") {
        if (!ParseDimension(key, value, &shape.depth)) return false;
        depth = true;
      } else if (key == "MIP_LEVELS") {
        if (!Expect(ParseUint(value, 16, &n) && n > 0, "MIP_LEVELS must be from 1 to 16")) {
          return false;
        }
        shape.mip_levels = static_cast<uint32_t>(n);
      } else if (key == "SAMPLES") {
        if (!Expect(ParseUint(value, 64, &n) && n > 0 && (n & (n - 1)) == 0,
                    "SAMPLES must be 1, 2, 4, 8, 16, 32 or 64, not " + Quote(value))) {
          return false;
        }
        shape.samples = static_cast<uint32_t>(n);
      }
    }
    if (!Expect(typed, "IMAGE needs FORMAT <format> or DATA_TYPE <type>") ||
        !Expect(shape.dimensions != 3 || depth, "DIM_3D needs DEPTH") ||
        !Expect(shape.dimensions < 2 || height,
                "DIM_" + std::to_string(shape.dimensions) + "D needs HEIGHT") ||
        !Expect(width, "IMAGE needs WIDTH")) {
      return false;
    }
    if (shape.dimensions == 0) shape.dimensions = 2;  // Amber makes an image without DIM_ 2D.
    if (!Expect(shape.dimensions >= 2 || shape.height == 1, "DIM_1D takes no HEIGHT") ||
        !Expect(shape.dimensions == 3 || shape.depth == 1, "DEPTH needs DIM_3D")) {
      return false;
    }
    if (!Expect(shape.samples == 1 || (shape.dimensions == 2 && shape.mip_levels == 1),
                "SAMPLES above 1 needs a 2D image of one mip level")) {
      return false;
    }
    uint32_t largest = std::max({shape.width, shape.height, shape.depth});
    uint32_t levels = 1;
    while (largest >>= 1) ++levels;
    if (!Expect(shape.mip_levels <= levels,
                "MIP_LEVELS " + std::to_string(shape.mip_levels) + " is more than the " +
                    std::to_string(levels) + " levels of a " + std::to_string(shape.width) + "x" +
                    std::to_string(shape.height) + "x" + std::to_string(shape.depth) + " image")) {
      return false;
    }
    uint64_t elements = 0;
    if (!ImageElements(shape, buffer.type, &elements)) return false;
    if (i < t.size() && t[i] == "DATA") {
      if (!ParseImageData(t, i, elements, &buffer)) return false;
    } else if (!FillBuffer(t, i, elements, false, &buffer)) {
      return false;
    }
    script_->buffers.push_back(std::move(buffer));
    return true;
  }

  static bool ParseFilter(std::string_view s, uint32_t* out) {
    if (s != "nearest" && s != "linear") return false;
    *out = s == "nearest" ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
    return true;
  }

  // SAMPLER <name> [MAG_FILTER f] [MIN_FILTER f] [ADDRESS_MODE_U|V|W m] [BORDER_COLOR c]
  //     [MIN_LOD v] [MAX_LOD v] [NORMALIZED_COORDS | UNNORMALIZED_COORDS] [COMPARE on|off]
  //     [COMPARE_OP op]
  bool ParseSampler(const std::vector<std::string_view>& t) {
    if (!Expect(t.size() >= 2, "SAMPLER needs a name")) return false;
    if (!CheckNewName(t[1])) return false;
    Sampler s;
    s.name = std::string(t[1]);
    s.line = line_number_;
    static constexpr std::pair<std::string_view, VkSamplerAddressMode> kModes[] = {
        {"repeat", VK_SAMPLER_ADDRESS_MODE_REPEAT},
        {"mirrored_repeat", VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT},
        {"clamp_to_edge", VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE},
        {"clamp_to_border", VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER},
        {"mirrored_clamp_to_edge", VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE}};
    static constexpr std::pair<std::string_view, VkBorderColor> kColors[] = {
        {"float_transparent_black", VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK},
        {"int_transparent_black", VK_BORDER_COLOR_INT_TRANSPARENT_BLACK},
        {"float_opaque_black", VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK},
        {"int_opaque_black", VK_BORDER_COLOR_INT_OPAQUE_BLACK},
        {"float_opaque_white", VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE},
        {"int_opaque_white", VK_BORDER_COLOR_INT_OPAQUE_WHITE}};
    static constexpr std::pair<std::string_view, VkCompareOp> kOps[] = {
        {"never", VK_COMPARE_OP_NEVER},
        {"less", VK_COMPARE_OP_LESS},
        {"equal", VK_COMPARE_OP_EQUAL},
        {"less_or_equal", VK_COMPARE_OP_LESS_OR_EQUAL},
        {"greater", VK_COMPARE_OP_GREATER},
        {"not_equal", VK_COMPARE_OP_NOT_EQUAL},
        {"greater_or_equal", VK_COMPARE_OP_GREATER_OR_EQUAL},
        {"always", VK_COMPARE_OP_ALWAYS}};
    auto lookup = [](const auto& table, std::string_view word, uint32_t* out) {
      for (const auto& [name, value] : table) {
        if (word == name) {
          *out = static_cast<uint32_t>(value);
          return true;
        }
      }
      return false;
    };
    for (size_t i = 2; i < t.size(); ++i) {
      const std::string_view key = t[i];
      if (key == "NORMALIZED_COORDS" || key == "UNNORMALIZED_COORDS") {
        s.normalized_coordinates = key == "NORMALIZED_COORDS";
        // Amber: unnormalized coordinates override MIN_LOD and MAX_LOD to 0.
        if (!s.normalized_coordinates) s.min_lod = s.max_lod = 0;
        continue;
      }
      if (!Expect(i + 1 < t.size(), Quote(key) + " needs a value")) return false;
      const std::string_view value = t[++i];
      bool ok = true;
      if (key == "MAG_FILTER" || key == "MIN_FILTER") {
        ok = ParseFilter(value, key == "MAG_FILTER" ? &s.mag_filter : &s.min_filter);
      } else if (key.starts_with("ADDRESS_MODE_") && key.size() == 14 &&
                 (key[13] == 'U' || key[13] == 'V' || key[13] == 'W')) {
        ok = lookup(kModes, value, &s.address_mode[key[13] == 'U' ? 0 : key[13] == 'V' ? 1 : 2]);
      } else if (key == "BORDER_COLOR") {
        ok = lookup(kColors, value, &s.border_color);
      } else if (key == "MIN_LOD" || key == "MAX_LOD") {
        double v = 0;
        ok = ParseDouble(value, &v);
        (key == "MIN_LOD" ? s.min_lod : s.max_lod) = static_cast<float>(v);
      } else if (key == "COMPARE") {
        ok = value == "on" || value == "off";
        s.compare = value == "on";
      } else if (key == "COMPARE_OP") {
        ok = lookup(kOps, value, &s.compare_op);
      } else {
        return Fail("unexpected " + Quote(key) + " in SAMPLER");
      }
      if (!Expect(ok, "SAMPLER: bad " + std::string(key) + " " + Quote(value))) return false;
    }
    if (!Expect(s.max_lod >= s.min_lod, "SAMPLER: MAX_LOD is below MIN_LOD")) return false;
    script_->samplers.push_back(std::move(s));
    return true;
  }

  bool ParseSpecialize(const std::vector<std::string_view>& t, size_t* i, Pipeline* p) {
    // SPECIALIZE <id> AS <type> <value>
    if (!Expect(*i + 4 < t.size() + 0 && t[*i + 2] == "AS", "SPECIALIZE <id> AS <type> <value>")) {
      return false;
    }
    SpecConstant s;
    uint64_t id = 0;
    if (!Expect(ParseUint(t[*i + 1], UINT32_MAX, &id), "bad spec constant id " + Quote(t[*i + 1])))
      return false;
    s.id = static_cast<uint32_t>(id);
    if (!Expect(ParseDataType(t[*i + 3], &s.type) && s.type.ComponentCount() == 1 &&
                    s.type.bits >= 32 && s.type.format == 0,
                "SPECIALIZE type must be a 32- or 64-bit scalar, not " + Quote(t[*i + 3]))) {
      return false;
    }
    std::string error;
    if (!EncodeNumber(t[*i + 4], s.type, &s.value, &error)) return Fail("SPECIALIZE: " + error);
    p->spec_constants.push_back(s);
    *i += 5;
    return true;
  }

  bool ParseSubgroupSetting(std::string_view key, std::string_view value, Pipeline* p) {
    if (key == "FULLY_POPULATED" || key == "VARYING_SIZE") {
      if (!Expect(value == "on" || value == "off", Quote(key) + " takes on or off")) return false;
      (key == "FULLY_POPULATED" ? p->fully_populated : p->varying_size) = value == "on";
      return true;
    }
    if (key == "REQUIRED_SIZE") {
      if (value == "MIN") {
        p->subgroup_size = Pipeline::SubgroupSize::kMin;
      } else if (value == "MAX") {
        p->subgroup_size = Pipeline::SubgroupSize::kMax;
      } else {
        uint64_t n = 0;
        if (!Expect(ParseUint(value, 128, &n) && n > 0 && (n & (n - 1)) == 0,
                    "REQUIRED_SIZE must be a power of two up to 128, MIN or MAX")) {
          return false;
        }
        p->subgroup_size = Pipeline::SubgroupSize::kExact;
        p->required_subgroup_size = static_cast<uint32_t>(n);
      }
      return true;
    }
    return Fail("SUBGROUP " + Quote(key) + " is not supported");
  }

  // PIPELINE compute <name> ... END
  bool ParsePipeline(const std::vector<std::string_view>& t) {
    if (!Expect(t.size() == 3, "PIPELINE <type> <name>")) return false;
    if (!Expect(t[1] == "compute", "pipeline type " + Quote(t[1]) +
                                       " is not supported: coopspv-run runs compute pipelines")) {
      return false;
    }
    if (!CheckNewName(t[2])) return false;
    Pipeline p;
    p.name = std::string(t[2]);
    p.line = line_number_;
    const uint32_t start = line_number_;
    bool ended = false;
    std::vector<std::string> optimizations;  // SHADER_OPTIMIZATION's pass flags.
    uint32_t optimizations_line = 0;
    while (next_ < lines_.size()) {
      line_number_ = static_cast<uint32_t>(next_ + 1);
      const auto s = TakeTokens();
      if (s.empty()) continue;
      if (s[0] == "END" && s.size() == 1) {
        ended = true;
        break;
      }
      if (s[0] == "ATTACH") {
        if (!Expect(s.size() >= 2, "ATTACH needs a shader")) return false;
        if (!Expect(p.shader.empty(), "a compute pipeline takes one shader")) return false;
        if (!Expect(script_->FindShader(s[1]) != nullptr, "unknown shader " + Quote(s[1])))
          return false;
        p.shader = std::string(s[1]);
        size_t i = 2;
        while (i < s.size()) {
          if (s[i] == "ENTRY_POINT" && i + 1 < s.size()) {
            p.entry_point = std::string(s[i + 1]);
            i += 2;
          } else if (s[i] == "SPECIALIZE") {
            if (!ParseSpecialize(s, &i, &p)) return false;
          } else {
            return Fail("unexpected " + Quote(s[i]) + " in ATTACH");
          }
        }
      } else if (s[0] == "BIND") {
        if (!ParseBind(s, &p)) return false;
      } else if (s[0] == "SUBGROUP") {
        if (!Expect(s.size() >= 2 && s[1] == p.shader, "SUBGROUP must name the attached shader")) {
          return false;
        }
        if (s.size() > 2) {  // One line: SUBGROUP <shader> KEY value ...
          if (!Expect(s.size() % 2 == 0, "SUBGROUP settings come in pairs")) return false;
          for (size_t i = 2; i < s.size(); i += 2) {
            if (!ParseSubgroupSetting(s[i], s[i + 1], &p)) return false;
          }
        } else {  // A block, as Amber writes it.
          std::vector<std::pair<uint32_t, std::string_view>> block;
          if (!ReadBlock("SUBGROUP", &block)) return false;
          for (const auto& [number, line] : block) {
            line_number_ = number;
            const auto kv = Tokenize(line);
            if (kv.empty()) continue;
            if (!Expect(kv.size() == 2, "SUBGROUP settings are <KEY> <value>")) return false;
            if (!ParseSubgroupSetting(kv[0], kv[1], &p)) return false;
          }
        }
      } else if (s[0] == "SHADER_OPTIMIZATION") {
        // SHADER_OPTIMIZATION <shader>, then spirv-opt pass flags a line, then END.
        if (!Expect(s.size() == 2 && s[1] == p.shader,
                    "SHADER_OPTIMIZATION must name the attached shader")) {
          return false;
        }
        std::vector<std::pair<uint32_t, std::string_view>> block;
        if (!ReadBlock("SHADER_OPTIMIZATION", &block)) return false;
        for (const auto& [number, line] : block) {
          for (auto flag : Tokenize(line)) optimizations.emplace_back(flag);
        }
        optimizations_line = line_number_;
      } else {
        return Fail(Quote(s[0]) + " is not supported in a PIPELINE (see docs/run.md)");
      }
    }
    if (!ended) {
      line_number_ = start;
      return Fail("PIPELINE has no END");
    }
    line_number_ = start;
    if (!Expect(!p.shader.empty(), "PIPELINE " + Quote(p.name) + " has no ATTACH")) return false;
    if (!optimizations.empty()) {
      // As Amber: the pipeline's own copy of the shader, through the SPIRV-Tools optimizer.
      Shader optimized = *script_->FindShader(p.shader);
      optimized.name = p.shader + "@" + p.name;
      std::string error;
      if (!OptimizeWithSpirvTools(script_->FindShader(p.shader)->words, optimizations,
                                  &optimized.words, &error)) {
        line_number_ = optimizations_line;
        return Fail("SHADER_OPTIMIZATION of shader " + Quote(p.shader) + ": " + error);
      }
      p.shader = optimized.name;
      script_->shaders.push_back(std::move(optimized));
    }
    script_->pipelines.push_back(std::move(p));
    return true;
  }

  static std::optional<BufferBinding::Kind> ParseBindingKind(std::string_view s) {
    for (auto kind : {BufferBinding::kStorage, BufferBinding::kUniform,
                      BufferBinding::kPushConstant, BufferBinding::kStorageDynamic,
                      BufferBinding::kUniformDynamic, BufferBinding::kStorageImage,
                      BufferBinding::kSampledImage, BufferBinding::kCombinedImageSampler,
                      BufferBinding::kUniformTexelBuffer, BufferBinding::kStorageTexelBuffer}) {
      if (s == BufferBinding::KindName(kind)) return kind;
    }
    return std::nullopt;
  }

  // BIND BUFFER <b> AS <kind> [SAMPLER <s>] [DESCRIPTOR_SET <n>] BINDING <n> [BASE_MIP_LEVEL <l>]
  //     [OFFSET <o>] [DESCRIPTOR_OFFSET <o>] [DESCRIPTOR_RANGE <r>]
  // BIND BUFFER <b> AS push_constant
  // BIND BUFFER_ARRAY <b>... AS <kind> ... with OFFSET / DESCRIPTOR_OFFSET / DESCRIPTOR_RANGE
  //     taking one value per buffer
  // BIND SAMPLER <s> [DESCRIPTOR_SET <n>] BINDING <n>, BIND SAMPLER_ARRAY <s>... alike
  bool ParseBind(const std::vector<std::string_view>& s, Pipeline* p) {
    if (!Expect(s.size() >= 3 && (s[1] == "BUFFER" || s[1] == "BUFFER_ARRAY" || s[1] == "SAMPLER" ||
                                  s[1] == "SAMPLER_ARRAY"),
                "BIND BUFFER|BUFFER_ARRAY <name>... AS <kind> ..., or BIND SAMPLER|SAMPLER_ARRAY "
                "<name>... BINDING <n>")) {
      return false;
    }
    const bool samplers = s[1].starts_with("SAMPLER");
    const bool array = s[1].ends_with("_ARRAY");
    BufferBinding b;
    b.line = line_number_;
    size_t i = 2;
    // The names, up to AS (buffers) or the first keyword (samplers).
    for (; i < s.size() && s[i] != "AS" && s[i] != "DESCRIPTOR_SET" && s[i] != "BINDING" &&
           (array || b.elements.empty());
         ++i) {
      if (samplers) {
        if (!Expect(script_->FindSampler(s[i]) != nullptr, "unknown sampler " + Quote(s[i]))) {
          return false;
        }
      } else if (!Expect(script_->FindBuffer(s[i]) != nullptr, "unknown buffer " + Quote(s[i]))) {
        return false;
      }
      b.elements.push_back({std::string(s[i])});
    }
    if (!Expect(!b.elements.empty(), std::string("BIND ") + std::string(s[1]) + " needs a name") ||
        !Expect(!array || b.elements.size() >= 2,
                std::string(s[1]) + " needs two or more names (BIND " +
                    (samplers ? "SAMPLER" : "BUFFER") + " binds one)")) {
      return false;
    }
    if (samplers) {
      b.kind = BufferBinding::kSampler;
    } else {
      if (!Expect(i + 1 < s.size() && s[i] == "AS",
                  "BIND " + std::string(s[1]) + " <name>... AS <kind> ...")) {
        return false;
      }
      const auto kind = ParseBindingKind(s[i + 1]);
      if (!kind) {
        return Fail("buffer kind " + Quote(s[i + 1]) +
                    " is not supported (storage, uniform, storage_dynamic, uniform_dynamic, "
                    "storage_image, sampled_image, combined_image_sampler, storage_texel_buffer, "
                    "uniform_texel_buffer or push_constant)");
      }
      b.kind = *kind;
      i += 2;
    }
    const std::string as = BufferBinding::KindName(b.kind);
    if (b.kind == BufferBinding::kPushConstant) {
      if (!Expect(!array, "BUFFER_ARRAY cannot be a push_constant buffer") ||
          !Expect(s.size() == i,
                  "unexpected " + (s.size() > i ? Quote(s[i]) : "") + " after push_constant")) {
        return false;
      }
      for (const auto& other : p->bindings) {
        if (!Expect(other.kind != BufferBinding::kPushConstant,
                    "a pipeline takes one push_constant buffer")) {
          return false;
        }
      }
      p->bindings.push_back(b);
      return true;
    }
    // A list of one number per element: OFFSET, DESCRIPTOR_OFFSET, DESCRIPTOR_RANGE.
    auto numbers = [&](std::string_view key, auto set) {
      for (size_t k = 0; k < b.elements.size(); ++k) {
        uint64_t v = 0;
        const bool whole = key == "DESCRIPTOR_RANGE" && i < s.size() && s[i] == "-1";
        if (!whole &&
            !(i < s.size() && ParseUint(s[i], key == "OFFSET" ? UINT32_MAX : UINT64_MAX, &v))) {
          return Fail(b.elements.size() > 1 ? std::string(key) + " needs a value for each of the " +
                                                  std::to_string(b.elements.size()) + " buffers"
                                            : std::string(key) + " needs a number");
        }
        set(b.elements[k], whole ? kWholeSize : v);
        ++i;
      }
      return true;
    };
    bool have_binding = false, have_offset = false;
    while (i < s.size()) {
      const std::string_view key = s[i++];
      uint64_t v = 0;
      if (key == "DESCRIPTOR_SET" || key == "BINDING" || key == "BASE_MIP_LEVEL") {
        if (!Expect(i < s.size() && ParseUint(s[i], UINT32_MAX, &v),
                    Quote(key) + " needs a number")) {
          return false;
        }
        ++i;
        if (key == "DESCRIPTOR_SET") {
          b.set = static_cast<uint32_t>(v);
          if (!Expect(b.set < 32, "DESCRIPTOR_SET must be below 32")) return false;
        } else if (key == "BINDING") {
          b.binding = static_cast<uint32_t>(v);
          have_binding = true;
        } else {
          if (!Expect(b.IsImage(),
                      "BASE_MIP_LEVEL goes with storage_image, sampled_image and "
                      "combined_image_sampler")) {
            return false;
          }
          b.base_mip_level = static_cast<uint32_t>(v);
        }
      } else if (key == "SAMPLER" && b.kind == BufferBinding::kCombinedImageSampler) {
        if (!Expect(i < s.size() && script_->FindSampler(s[i]) != nullptr,
                    i < s.size() ? "unknown sampler " + Quote(s[i]) : "SAMPLER needs a name")) {
          return false;
        }
        b.sampler = std::string(s[i++]);
      } else if (key == "OFFSET") {
        if (!Expect(b.IsDynamic(), "OFFSET goes with uniform_dynamic and storage_dynamic (" + as +
                                       " takes DESCRIPTOR_OFFSET)") ||
            !numbers(key, [](BufferBinding::Element& e, uint64_t n) {
              e.dynamic_offset = static_cast<uint32_t>(n);
            })) {
          return false;
        }
        have_offset = true;
      } else if (key == "DESCRIPTOR_OFFSET" || key == "DESCRIPTOR_RANGE") {
        if (!Expect(b.IsBlock(), std::string(key) +
                                     " goes with storage, uniform, storage_dynamic and "
                                     "uniform_dynamic buffers, not " +
                                     as)) {
          return false;
        }
        const bool range = key == "DESCRIPTOR_RANGE";
        if (!numbers(key, [range](BufferBinding::Element& e, uint64_t n) {
              (range ? e.range : e.offset) = n;
            })) {
          return false;
        }
      } else {
        return Fail("unexpected " + Quote(key) + " in BIND");
      }
    }
    if (!Expect(have_binding, "BIND ... " + as + " needs BINDING <n>") ||
        !Expect(!b.IsDynamic() || have_offset,
                as + " needs OFFSET <bytes> (the dynamic offset" +
                    (array ? std::string(", one per buffer") : std::string()) + ")") ||
        !Expect(b.kind != BufferBinding::kCombinedImageSampler || !b.sampler.empty(),
                "combined_image_sampler needs SAMPLER <name>")) {
      return false;
    }
    for (const BufferBinding::Element& e : b.elements) {
      if (b.kind == BufferBinding::kSampler) break;
      const Buffer& buffer = *script_->FindBuffer(e.name);
      if (b.IsImage() || b.IsTexelBuffer()) {
        if (!Expect(!b.IsImage() || buffer.image.dimensions != 0,
                    Quote(e.name) + " is bound AS " + as +
                        " but is not an image: declare it with IMAGE") ||
            !Expect(ImageFormatOf(buffer.type).has_value(),
                    Quote(e.name) + " (" + buffer.type.Name() + ") has no image format")) {
          return false;
        }
      }
      if (b.IsImage() && !Expect(b.base_mip_level < buffer.image.mip_levels,
                                 "BASE_MIP_LEVEL " + std::to_string(b.base_mip_level) +
                                     " is not below the MIP_LEVELS of " + Quote(e.name) + " (" +
                                     std::to_string(buffer.image.mip_levels) + ")")) {
        return false;
      }
      // What the shader sees starts at DESCRIPTOR_OFFSET plus the dynamic offset and has the
      // range, or runs to the end (Amber: size - offset - dynamic offset).
      const uint64_t size = buffer.bytes.size();
      const uint64_t start = e.offset + (b.IsDynamic() ? e.dynamic_offset : 0);
      if (b.IsBlock() &&
          !Expect(
              e.offset < size && start < size &&
                  (e.range == kWholeSize || (e.range > 0 && e.range <= size - start)),
              "DESCRIPTOR_OFFSET " + std::to_string(e.offset) +
                  (b.IsDynamic() ? " + OFFSET " + std::to_string(e.dynamic_offset) : "") +
                  " and DESCRIPTOR_RANGE " +
                  (e.range == kWholeSize ? std::string("(to the end)") : std::to_string(e.range)) +
                  " do not fit in " + Quote(e.name) + " (" + std::to_string(size) + " bytes)")) {
        return false;
      }
    }
    for (const auto& other : p->bindings) {
      if (!Expect(other.kind == BufferBinding::kPushConstant || other.set != b.set ||
                      other.binding != b.binding,
                  "descriptor set " + std::to_string(b.set) + " binding " +
                      std::to_string(b.binding) + " is bound twice")) {
        return false;
      }
    }
    p->bindings.push_back(std::move(b));
    return true;
  }

  // BUFFER_ADDRESS <buffer> INTO <target> OFFSET <bytes>
  bool ParseBufferAddress(const std::vector<std::string_view>& t) {
    if (!Expect(t.size() == 6 && t[2] == "INTO" && t[4] == "OFFSET",
                "BUFFER_ADDRESS <buffer> INTO <buffer> OFFSET <bytes>")) {
      return false;
    }
    const Buffer* buffer = script_->FindBuffer(t[1]);
    const Buffer* target = script_->FindBuffer(t[3]);
    if (!Expect(buffer != nullptr, "unknown buffer " + Quote(t[1])) ||
        !Expect(target != nullptr, "unknown buffer " + Quote(t[3]))) {
      return false;
    }
    BufferAddress a;
    a.buffer = std::string(t[1]);
    a.target = std::string(t[3]);
    a.line = line_number_;
    if (!Expect(ParseUint(t[5], UINT32_MAX, &a.offset) && a.offset % 8 == 0 &&
                    a.offset + 8 <= target->bytes.size(),
                "BUFFER_ADDRESS OFFSET " + Quote(t[5]) + ": a multiple of 8 with the 8 bytes of " +
                    "the address inside " + Quote(t[3]) + " (" +
                    std::to_string(target->bytes.size()) + " bytes)")) {
      return false;
    }
    for (const BufferAddress& other : script_->addresses) {
      if (!Expect(other.target != a.target || other.offset != a.offset,
                  "bytes " + std::to_string(a.offset) + " of " + Quote(t[3]) +
                      " already hold an address")) {
        return false;
      }
    }
    script_->addresses.push_back(std::move(a));
    return true;
  }

  static bool ParseLayout(std::string_view text, MatrixConversion::Layout* layout) {
    for (auto l : {MatrixConversion::kRowMajor, MatrixConversion::kColumnMajor,
                   MatrixConversion::kInferencingOptimal, MatrixConversion::kTrainingOptimal}) {
      if (text == MatrixLayoutName(l)) {
        *layout = l;
        return true;
      }
    }
    return false;
  }

  // CONVERT_MATRIX <src> <dst> ROWS <n> COLUMNS <n> SRC_LAYOUT <l> SRC_TYPE <t>
  //     DST_LAYOUT <l> [DST_TYPE <t>] [SRC_STRIDE <b>] [DST_STRIDE <b>] [SRC_OFFSET <b>]
  //     [DST_OFFSET <b>]
  bool ParseConvertMatrix(const std::vector<std::string_view>& t, std::string_view line) {
    if (!Expect(t.size() >= 3 && t.size() % 2 == 1,
                "CONVERT_MATRIX <source> <destination> then <KEY> <value> pairs")) {
      return false;
    }
    Command c;
    c.kind = Command::kConvertMatrix;
    c.line = line_number_;
    c.text = std::string(Trim(line));
    MatrixConversion& m = c.conversion;
    const Buffer* src = script_->FindBuffer(t[1]);
    const Buffer* dst = script_->FindBuffer(t[2]);
    if (!Expect(src != nullptr, "unknown buffer " + Quote(t[1])) ||
        !Expect(dst != nullptr, "unknown buffer " + Quote(t[2]))) {
      return false;
    }
    m.source = std::string(t[1]);
    m.destination = std::string(t[2]);
    std::set<std::string_view> seen;
    bool have_dst_type = false;
    uint32_t src_bytes = 0, dst_bytes = 0;
    for (size_t i = 3; i + 1 < t.size(); i += 2) {
      const std::string_view key = t[i], value = t[i + 1];
      if (!Expect(seen.insert(key).second, Quote(key) + " is given twice")) return false;
      uint64_t n = 0;
      const bool number = ParseUint(value, UINT32_MAX, &n);
      bool ok = true;
      if (key == "ROWS" || key == "COLUMNS") {
        ok = number && n > 0;
        (key == "ROWS" ? m.rows : m.columns) = static_cast<uint32_t>(n);
      } else if (key == "SRC_LAYOUT") {
        ok = ParseLayout(value, &m.source_layout);
      } else if (key == "DST_LAYOUT") {
        ok = ParseLayout(value, &m.destination_layout);
      } else if (key == "SRC_TYPE") {
        ok = ParseComponentType(value, &m.source_type, &src_bytes);
      } else if (key == "DST_TYPE") {
        ok = have_dst_type = ParseComponentType(value, &m.destination_type, &dst_bytes);
      } else if (key == "SRC_STRIDE" || key == "DST_STRIDE") {
        ok = number && n > 0;
        (key == "SRC_STRIDE" ? m.source_stride : m.destination_stride) = n;
      } else if (key == "SRC_OFFSET" || key == "DST_OFFSET") {
        ok = number;
        (key == "SRC_OFFSET" ? m.source_offset : m.destination_offset) = n;
      } else {
        return Fail("CONVERT_MATRIX: unknown key " + Quote(key) + " (see docs/run.md)");
      }
      if (!Expect(ok, "CONVERT_MATRIX: bad " + std::string(key) + " " + Quote(value))) {
        return false;
      }
    }
    for (const char* key : {"ROWS", "COLUMNS", "SRC_LAYOUT", "SRC_TYPE", "DST_LAYOUT"}) {
      if (!Expect(seen.count(key) != 0, "CONVERT_MATRIX needs " + std::string(key))) return false;
    }
    if (!have_dst_type) {
      m.destination_type = m.source_type;
      dst_bytes = src_bytes;
    }
    m.source_bytes = src_bytes;
    m.destination_bytes = dst_bytes;
    // Strides of row- and column-major layouts: at least a row (column), whole elements.
    for (const bool source : {true, false}) {
      const auto layout = source ? m.source_layout : m.destination_layout;
      const uint64_t stride = source ? m.source_stride : m.destination_stride;
      const uint32_t bytes = source ? src_bytes : dst_bytes;
      const uint64_t line = m.LineBytes(layout, bytes);
      if (!Expect(MatrixConversion::IsOptimal(layout) || stride == 0 ||
                      (stride >= line && stride % bytes == 0),
                  std::string("CONVERT_MATRIX: ") + (source ? "SRC" : "DST") + "_STRIDE " +
                      std::to_string(stride) + " is shorter than a " +
                      (layout == MatrixConversion::kRowMajor ? "row" : "column") + " (" +
                      std::to_string(line) + " bytes) or not a multiple of the element")) {
        return false;
      }
    }
    const uint64_t src_extent = m.Extent(m.source_layout, src_bytes, &m.source_stride);
    const uint64_t dst_extent = m.Extent(m.destination_layout, dst_bytes, &m.destination_stride);
    if (!Expect(m.source_offset + src_extent <= src->bytes.size() &&
                    m.source_offset < src->bytes.size(),
                "CONVERT_MATRIX: the source matrix needs " +
                    std::to_string(m.source_offset + src_extent) + " bytes of " + Quote(t[1]) +
                    ", which has " + std::to_string(src->bytes.size())) ||
        !Expect(m.destination_offset + dst_extent <= dst->bytes.size() &&
                    m.destination_offset < dst->bytes.size(),
                "CONVERT_MATRIX: the destination matrix needs " +
                    std::to_string(m.destination_offset + dst_extent) + " bytes of " + Quote(t[2]) +
                    ", which has " + std::to_string(dst->bytes.size()))) {
      return false;
    }
    if (!Expect(m.source != m.destination, "CONVERT_MATRIX: source and destination are one buffer"))
      return false;
    script_->commands.push_back(std::move(c));
    return true;
  }

  // REPEAT <n> ... END: the RUN and EXPECT commands of the block, n times over.
  bool ParseRepeat(const std::vector<std::string_view>& t) {
    uint64_t count = 0;
    if (!Expect(t.size() == 2 && ParseUint(t[1], 100000, &count) && count > 0,
                "REPEAT <count> (1 to 100000), then RUN / EXPECT lines, then END")) {
      return false;
    }
    const uint32_t start = line_number_;
    const size_t first = script_->commands.size();
    for (;;) {
      if (next_ >= lines_.size()) {
        line_number_ = start;
        return Fail("REPEAT has no END");
      }
      line_number_ = static_cast<uint32_t>(next_ + 1);
      const std::string_view line = lines_[next_];
      const auto s = TakeTokens();
      if (s.empty()) continue;
      if (s.size() == 1 && s[0] == "END") break;
      bool ok;
      if (s[0] == "RUN") {
        ok = ParseRun(s, line);
      } else if (s[0] == "EXPECT") {
        ok = ParseExpect(s, line);
      } else {
        ok = Fail(Quote(s[0]) + " is not supported in a REPEAT block (RUN, EXPECT)");
      }
      if (!ok) return false;
    }
    if (script_->commands.size() == first) {
      line_number_ = start;
      return Fail("REPEAT with no command in it");
    }
    const std::vector<Command> block(script_->commands.begin() + static_cast<long>(first),
                                     script_->commands.end());
    if (!Expect(block.size() * count <= 1000000, "REPEAT makes too many commands")) return false;
    for (uint64_t k = 1; k < count; ++k) {
      script_->commands.insert(script_->commands.end(), block.begin(), block.end());
    }
    return true;
  }

  // RUN [TIMED_EXECUTION] <pipeline> <X> <Y> <Z>. TIMED_EXECUTION is accepted: coopspv-run
  // times every RUN with --timing.
  bool ParseRun(std::vector<std::string_view> t, std::string_view line) {
    if (t.size() >= 2 && t[1] == "TIMED_EXECUTION") t.erase(t.begin() + 1);
    if (!Expect(t.size() >= 2, "RUN needs a pipeline")) return false;
    if (!Expect(script_->FindPipeline(t[1]) != nullptr, "unknown pipeline " + Quote(t[1])))
      return false;
    if (!Expect(t.size() == 5, "RUN <pipeline> <X> <Y> <Z> (only compute dispatches)"))
      return false;
    Command c;
    c.kind = Command::kRun;
    c.line = line_number_;
    c.text = std::string(Trim(line));
    c.pipeline = std::string(t[1]);
    for (int k = 0; k < 3; ++k) {
      uint64_t n = 0;
      if (!Expect(ParseUint(t[2 + k], UINT32_MAX, &n) && n > 0,
                  "workgroup counts must be positive numbers, not " + Quote(t[2 + k]))) {
        return false;
      }
      c.groups[k] = static_cast<uint32_t>(n);
    }
    script_->commands.push_back(std::move(c));
    return true;
  }

  static std::string_view Trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
      s.remove_suffix(1);
    return s;
  }

  bool ParseExpect(const std::vector<std::string_view>& t, std::string_view line) {
    if (!Expect(t.size() >= 4, "EXPECT <buffer> IDX|EQ_BUFFER|RMSE_BUFFER ...")) return false;
    const Buffer* buffer = script_->FindBuffer(t[1]);
    if (!Expect(buffer != nullptr, "unknown buffer " + Quote(t[1]))) return false;
    Command c;
    c.line = line_number_;
    c.text = std::string(Trim(line));
    c.buffer = std::string(t[1]);
    if (t[2] == "EQ_BUFFER" || t[2] == "RMSE_BUFFER") {
      const Buffer* other = script_->FindBuffer(t[3]);
      if (!Expect(other != nullptr, "unknown buffer " + Quote(t[3]))) return false;
      // Amber compares only buffers of one format, size, width and height.
      if (!Expect(other->type.kind == buffer->type.kind && other->type.bits == buffer->type.bits &&
                      other->type.components == buffer->type.components &&
                      other->type.columns == buffer->type.columns &&
                      other->type.format == buffer->type.format &&
                      other->bytes.size() == buffer->bytes.size(),
                  "buffers " + Quote(t[1]) + " and " + Quote(t[3]) + " differ in type or size") ||
          !Expect(other->image.width == buffer->image.width &&
                      other->image.height == buffer->image.height,
                  "buffers " + Quote(t[1]) + " and " + Quote(t[3]) +
                      " differ in WIDTH or HEIGHT (as in Amber, an IMAGE compares with an "
                      "IMAGE of its size)")) {
        return false;
      }
      c.other = std::string(t[3]);
      if (t[2] == "EQ_BUFFER") {
        c.kind = Command::kExpectEqualBuffer;
        if (!Expect(t.size() == 4,
                    "unexpected " + (t.size() > 4 ? Quote(t[4]) : "") + " after EQ_BUFFER")) {
          return false;
        }
      } else {
        c.kind = Command::kExpectRmseBuffer;
        if (!Expect(t.size() == 6 && t[4] == "TOLERANCE", "RMSE_BUFFER <b> TOLERANCE <t>"))
          return false;
        if (!ParseDouble(t[5], &c.rmse_tolerance) || c.rmse_tolerance < 0) {
          return Fail("bad TOLERANCE " + Quote(t[5]));
        }
      }
      script_->commands.push_back(std::move(c));
      return true;
    }
    if (t[2] != "IDX") {
      return Fail("EXPECT " + Quote(t[2]) + " is not supported (IDX, EQ_BUFFER, RMSE_BUFFER)");
    }
    c.kind = Command::kExpectIndex;
    // Amber: IDX is a byte offset (its amber_script.md example: a vec2<int32> buffer's element 255
    // is at IDX 2040). It must start a component, not fall into std430 padding.
    const uint64_t element_bytes = buffer->type.ElementBytes();
    const uint32_t component_bytes = buffer->type.ComponentBytes();
    if (!Expect(ParseUint(t[3], UINT64_MAX, &c.offset), "IDX needs a byte offset")) return false;
    uint64_t y = 0;
    if (t.size() > 4 && ParseUint(t[4], UINT32_MAX, &y)) return ParseProbe(t, *buffer, y, &c);
    const uint64_t column_bytes = uint64_t{buffer->type.StoredComponents()} * component_bytes;
    if (!Expect(c.offset % component_bytes == 0 &&
                    (c.offset % column_bytes) / component_bytes < buffer->type.components,
                "IDX " + std::to_string(c.offset) + " is not the byte offset of a component of " +
                    Quote(buffer->name) + " (" + buffer->type.Name() + ": " +
                    std::to_string(element_bytes) + " bytes an element)")) {
      return false;
    }
    c.first_component = c.offset / element_bytes * buffer->type.ComponentCount() +
                        c.offset % element_bytes / column_bytes * buffer->type.components +
                        c.offset % column_bytes / component_bytes;
    size_t i = 4;
    if (i < t.size() && t[i] == "TOLERANCE") {
      ++i;
      while (i < t.size() && !IsComparator(t[i])) {
        Command::Tolerance tol;
        std::string_view v = t[i];
        if (v.ends_with('%')) {
          tol.percent = true;
          v.remove_suffix(1);
        }
        if (!ParseDouble(v, &tol.amount) || tol.amount < 0) {
          return Fail("bad TOLERANCE " + Quote(t[i]));
        }
        c.tolerances.push_back(tol);
        ++i;
      }
      if (!Expect(!c.tolerances.empty() && c.tolerances.size() <= 4,
                  "TOLERANCE takes one to four values")) {
        return false;
      }
      if (!Expect(buffer->type.kind == DataType::kFloat, "TOLERANCE needs a float buffer"))
        return false;
    }
    if (!Expect(i < t.size() && IsComparator(t[i]), "EXPECT IDX needs EQ, NE, LT, LE, GT or GE"))
      return false;
    const std::string_view op = t[i++];
    c.compare = op == "EQ"   ? Command::Compare::kEq
                : op == "NE" ? Command::Compare::kNe
                : op == "LT" ? Command::Compare::kLt
                : op == "LE" ? Command::Compare::kLe
                : op == "GT" ? Command::Compare::kGt
                             : Command::Compare::kGe;
    if (!Expect(c.tolerances.empty() || c.compare == Command::Compare::kEq,
                "TOLERANCE goes with EQ")) {
      return false;
    }
    if (!Expect(i < t.size(), "EXPECT IDX needs values")) return false;
    std::string error;
    for (; i < t.size(); ++i) {
      Number n;
      if (!EncodeValue(t[i], buffer->type, &n, &error)) return Fail("EXPECT: " + error);
      c.values.push_back(n);
      // Amber reads "5", "-26", "0x7F" as integers, "0.5", "1e3", "nan" as floats.
      const bool integer = t[i].find_first_of(".eEnNiI") == std::string_view::npos ||
                           t[i].starts_with("0x") || t[i].starts_with("-0x");
      c.fuzzy.push_back(buffer->type.kind == DataType::kFloat && !integer);
    }
    // Components from the offset on must lie inside the buffer as declared.
    const uint64_t components = buffer->ElementCount() * buffer->type.ComponentCount();
    if (!Expect(c.first_component < components && c.values.size() <= components - c.first_component,
                "EXPECT reads past the end of " + Quote(buffer->name) + " (" +
                    std::to_string(buffer->ElementCount()) + " elements, " +
                    std::to_string(buffer->bytes.size()) + " bytes)")) {
      return false;
    }
    script_->commands.push_back(std::move(c));
    return true;
  }

  // EXPECT <image> IDX <x> <y> SIZE <w> <h> EQ_RGB|EQ_RGBA <r> <g> <b> [<a>]
  //     [TOLERANCE <t>[%]...]: Amber's probe of a rectangle of texels (values 0 to 255).
  bool ParseProbe(const std::vector<std::string_view>& t, const Buffer& buffer, uint64_t y,
                  Command* c) {
    c->kind = Command::kExpectProbe;
    uint64_t n[2] = {0, 0};
    if (!Expect(t.size() > 7 && t[5] == "SIZE",
                "EXPECT IDX <x> <y> needs SIZE <width> <height> EQ_RGB|EQ_RGBA (the Y value is "
                "only for those)") ||
        !Expect(ParseUint(t[6], UINT32_MAX, &n[0]) && n[0] > 0 &&
                    ParseUint(t[7], UINT32_MAX, &n[1]) && n[1] > 0,
                "SIZE needs a positive width and height")) {
      return false;
    }
    if (!Expect(t.size() > 8 && (t[8] == "EQ_RGB" || t[8] == "EQ_RGBA"),
                "EXPECT IDX <x> <y> SIZE <w> <h> compares with EQ_RGB or EQ_RGBA")) {
      return false;
    }
    c->probe_alpha = t[8] == "EQ_RGBA";
    c->probe_rect[0] = static_cast<uint32_t>(c->offset);
    c->probe_rect[1] = static_cast<uint32_t>(y);
    c->probe_rect[2] = static_cast<uint32_t>(n[0]);
    c->probe_rect[3] = static_cast<uint32_t>(n[1]);
    const ImageShape& shape = buffer.image;
    if (!Expect(c->offset <= shape.width && y <= shape.height && n[0] <= shape.width - c->offset &&
                    n[1] <= shape.height - y,
                "the probe's texels " + std::to_string(c->offset) + ", " + std::to_string(y) +
                    " to " + std::to_string(c->offset + n[0] - 1) + ", " +
                    std::to_string(y + n[1] - 1) + " are outside " + Quote(buffer.name) + " (" +
                    std::to_string(shape.width) + "x" + std::to_string(shape.height) + ")")) {
      return false;
    }
    const size_t channels = c->probe_alpha ? 4 : 3;
    size_t i = 9;
    for (size_t k = 0; k < channels; ++k, ++i) {
      uint64_t v = 0;
      if (!Expect(i < t.size() && ParseUint(t[i], 255, &v),
                  std::string("invalid ") + "RGBA"[k] + " value (0 to 255) in EXPECT")) {
        return false;
      }
      c->probe_color[k] = static_cast<double>(v) / 255.0;
    }
    if (i < t.size() && t[i] == "TOLERANCE") {
      for (++i; i < t.size(); ++i) {
        Command::Tolerance tol;
        std::string_view v = t[i];
        if (v.ends_with('%')) {
          tol.percent = true;
          v.remove_suffix(1);
        }
        if (!ParseDouble(v, &tol.amount) || tol.amount < 0)
          return Fail("bad TOLERANCE " + Quote(t[i]));
        c->tolerances.push_back(tol);
      }
      if (!Expect(!c->tolerances.empty() && c->tolerances.size() <= channels,
                  "TOLERANCE takes one to " + std::to_string(channels) + " values here")) {
        return false;
      }
    }
    if (!Expect(i == t.size(), "unexpected " + (i < t.size() ? Quote(t[i]) : "") + " in EXPECT"))
      return false;
    script_->commands.push_back(std::move(*c));
    return true;
  }

  static bool IsComparator(std::string_view s) {
    return s == "EQ" || s == "NE" || s == "LT" || s == "LE" || s == "GT" || s == "GE";
  }

  static bool ParseDouble(std::string_view text, double* value) {
    const std::string s(text);
    char* end = nullptr;
    errno = 0;
    *value = std::strtod(s.c_str(), &end);
    return !s.empty() && end == s.c_str() + s.size() && errno == 0 && std::isfinite(*value);
  }

  // SET ENGINE_DATA fence_timeout_ms <n>
  bool ParseSet(const std::vector<std::string_view>& t) {
    uint64_t ms = 0;
    if (!Expect(t.size() == 4 && t[1] == "ENGINE_DATA" && t[2] == "fence_timeout_ms" &&
                    ParseUint(t[3], UINT32_MAX, &ms) && ms > 0,
                "only SET ENGINE_DATA fence_timeout_ms <milliseconds> is supported")) {
      return false;
    }
    script_->fence_timeout_ms = static_cast<uint32_t>(ms);
    return true;
  }

  const ParseOptions& options_;
  Script* script_;
  ParseError* error_;
  std::vector<std::string_view> lines_;
  size_t next_ = 0;
  uint32_t line_number_ = 0;
};

}  // namespace

uint64_t ReadComponentBits(const uint8_t* p, const DataType& type) {
  uint64_t bits = 0;
  for (uint32_t i = 0; i < type.ComponentBytes(); ++i) bits |= uint64_t{p[i]} << (8 * i);
  return bits;
}

double ComponentValue(uint64_t bits, const DataType& type) {
  if (type.kind == DataType::kFloat) return IeeeFloatValue(bits, type.bits);
  if (type.kind == DataType::kSigned && type.bits < 64) {
    const uint64_t sign = uint64_t{1} << (type.bits - 1);
    return static_cast<double>(static_cast<int64_t>((bits ^ sign) - sign));
  }
  if (type.kind == DataType::kSigned) return static_cast<double>(static_cast<int64_t>(bits));
  return static_cast<double>(bits);
}

std::string DataType::Name() const {
  if (format != 0) {
    const ImageFormat* f = FindImageFormat(format);
    return f ? std::string(f->name) : "format " + std::to_string(format);
  }
  std::string scalar = kind == kFloat ? (bits == 16   ? "float16"
                                         : bits == 32 ? "float"
                                                      : "double")
                                      : (kind == kSigned ? "int" : "uint") + std::to_string(bits);
  if (columns > 1) {
    return "mat" + std::to_string(columns) + "x" + std::to_string(components) + "<" + scalar + ">";
  }
  if (components == 1) return scalar;
  return "vec" + std::to_string(components) + "<" + scalar + ">";
}

bool ParseDataType(std::string_view text, DataType* type) {
  if (const ImageFormat* format = FindImageFormat(text)) {
    std::string why;
    return FormatDataType(*format, type, &why);
  }
  DataType t;
  // matCxR<scalar>: C columns of R components (Amber's mat<columns>x<rows>).
  if (text.starts_with("mat") && text.size() > 8 && text[4] == 'x' && text[6] == '<' &&
      text.ends_with('>')) {
    if (text[3] < '2' || text[3] > '4' || text[5] < '2' || text[5] > '4') return false;
    DataType inner;
    if (!ParseDataType(text.substr(7, text.size() - 8), &inner) || inner.ComponentCount() != 1 ||
        inner.format != 0 || inner.kind != DataType::kFloat) {
      return false;
    }
    inner.columns = static_cast<uint32_t>(text[3] - '0');
    inner.components = static_cast<uint32_t>(text[5] - '0');
    *type = inner;
    return true;
  }
  if (text.starts_with("vec") && text.size() > 6 && text[4] == '<' && text.ends_with('>')) {
    if (text[3] < '2' || text[3] > '4') return false;
    DataType inner;
    if (!ParseDataType(text.substr(5, text.size() - 6), &inner) || inner.ComponentCount() != 1 ||
        inner.format != 0) {
      return false;
    }
    inner.components = static_cast<uint32_t>(text[3] - '0');
    *type = inner;
    return true;
  }
  if (text == "float16") {
    t = {DataType::kFloat, 16, 1};
  } else if (text == "float") {
    t = {DataType::kFloat, 32, 1};
  } else if (text == "double") {
    t = {DataType::kFloat, 64, 1};
  } else {
    std::string_view rest;
    if (text.starts_with("uint")) {
      t.kind = DataType::kUnsigned;
      rest = text.substr(4);
    } else if (text.starts_with("int")) {
      t.kind = DataType::kSigned;
      rest = text.substr(3);
    } else {
      return false;
    }
    if (rest == "8") {
      t.bits = 8;
    } else if (rest == "16") {
      t.bits = 16;
    } else if (rest == "32") {
      t.bits = 32;
    } else if (rest == "64") {
      t.bits = 64;
    } else {
      return false;
    }
  }
  *type = t;
  return true;
}

namespace {
struct ComponentTypeEntry {
  const char* name;
  uint32_t type;  // VkComponentTypeKHR.
  uint32_t bytes;
  // The format coopspv-run converts it by in software (CONVERT_MATRIX without the driver).
  std::optional<FloatFormat> software_float = std::nullopt;
};
// VkComponentTypeKHR values (VK_KHR_cooperative_matrix; the float8 ones
// VK_NV_cooperative_vector's).
constexpr ComponentTypeEntry kComponentTypes[] = {
    {"float16", 0, 2, kHalf},
    {"float32", 1, 4, kSingle},
    {"float64", 2, 8},
    {"int8", 3, 1},
    {"int16", 4, 2},
    {"int32", 5, 4},
    {"int64", 6, 8},
    {"uint8", 7, 1},
    {"uint16", 8, 2},
    {"uint32", 9, 4},
    {"uint64", 10, 8},
    {"float_e4m3", 1000491002, 1, kFloat8E4M3},
    {"float_e5m2", 1000491003, 1, kFloat8E5M2},
};
}  // namespace

bool ParseComponentType(std::string_view text, uint32_t* type, uint32_t* bytes) {
  for (const auto& t : kComponentTypes) {
    if (text == t.name) {
      *type = t.type;
      *bytes = t.bytes;
      return true;
    }
  }
  return false;
}

std::optional<FloatFormat> SoftwareFloatFormat(uint32_t type) {
  for (const auto& t : kComponentTypes) {
    if (t.type == type) return t.software_float;
  }
  return std::nullopt;
}

std::string ComponentTypeName(uint32_t type) {
  for (const auto& t : kComponentTypes) {
    if (t.type == type) return t.name;
  }
  return "component type " + std::to_string(type);
}

std::string MatrixLayoutName(MatrixConversion::Layout layout) {
  switch (layout) {
    case MatrixConversion::kRowMajor:
      return "row_major";
    case MatrixConversion::kColumnMajor:
      return "column_major";
    case MatrixConversion::kInferencingOptimal:
      return "inferencing_optimal";
    case MatrixConversion::kTrainingOptimal:
      return "training_optimal";
  }
  return "?";
}

const Buffer* Script::FindBuffer(std::string_view name) const {
  for (const auto& b : buffers) {
    if (b.name == name) return &b;
  }
  return nullptr;
}
const Shader* Script::FindShader(std::string_view name) const {
  for (const auto& s : shaders) {
    if (s.name == name) return &s;
  }
  return nullptr;
}
const Pipeline* Script::FindPipeline(std::string_view name) const {
  for (const auto& p : pipelines) {
    if (p.name == name) return &p;
  }
  return nullptr;
}
const Sampler* Script::FindSampler(std::string_view name) const {
  for (const auto& s : samplers) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string ImageShape::Declaration() const {
  std::string s = "DIM_" + std::to_string(dimensions) + "D WIDTH " + std::to_string(width);
  if (dimensions >= 2) s += " HEIGHT " + std::to_string(height);
  if (dimensions == 3) s += " DEPTH " + std::to_string(depth);
  if (mip_levels != 1) s += " MIP_LEVELS " + std::to_string(mip_levels);
  if (samples != 1) s += " SAMPLES " + std::to_string(samples);
  return s;
}

const char* BufferBinding::KindName(Kind kind) {
  switch (kind) {
    case kStorage:
      return "storage";
    case kUniform:
      return "uniform";
    case kPushConstant:
      return "push_constant";
    case kStorageDynamic:
      return "storage_dynamic";
    case kUniformDynamic:
      return "uniform_dynamic";
    case kStorageImage:
      return "storage_image";
    case kSampledImage:
      return "sampled_image";
    case kCombinedImageSampler:
      return "combined_image_sampler";
    case kUniformTexelBuffer:
      return "uniform_texel_buffer";
    case kStorageTexelBuffer:
      return "storage_texel_buffer";
    case kSampler:
      return "sampler";
  }
  return "?";
}

std::string At(uint32_t line) { return "line " + std::to_string(line) + ": "; }

std::string ParseError::ToString() const { return line ? At(line) + message : message; }

bool ParseScript(std::string_view text, const ParseOptions& options, Script* script,
                 ParseError* error) {
  *script = Script();
  Parser parser(text, options, script, error);
  return parser.Parse();
}

}  // namespace coopspv::run
