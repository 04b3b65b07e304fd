// SPV_KHR_ray_query (and the ray query instructions of SPV_KHR_ray_tracing_position_fetch,
// SPV_NV_cluster_acceleration_structure, SPV_NV_linear_swept_spheres): the RayQuery operand is a
// pointer to an OpTypeRayQueryKHR, Intersection a constant 32-bit integer, each query's Result
// Type the one its instruction describes, and OpRayQueryInitializeKHR / GenerateIntersection's
// operands of the types the extension lists. Only modules that declare RayQueryKHR are walked.
#include <string>

#include "source/common/workspace.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

// What a ray query instruction returns.
enum class Returns : uint8_t {
  kNothing,
  kBool,
  kInt32,
  kFloat32,
  kFloat32Vec2,
  kFloat32Vec3,
  kFloat32Mat4x3,      // 4 columns of 3-component 32-bit float vectors.
  kFloat32Vec3Array2,  // Two 3-component 32-bit float vectors.
  kFloat32Vec3Array3,  // Three 3-component 32-bit float vectors.
  kFloat32Array2,      // Two 32-bit floats.
};

struct QueryShape {
  Returns returns;
  bool intersection;  // Takes Intersection after RayQuery.
};

// The shape of each ray query instruction; nullopt for other opcodes.
std::optional<QueryShape> ShapeOf(Op op) {
  switch (op) {
    case Op::RayQueryInitializeKHR:
    case Op::RayQueryTerminateKHR:
    case Op::RayQueryConfirmIntersectionKHR:
    case Op::RayQueryGenerateIntersectionKHR:
      return QueryShape{Returns::kNothing, false};
    case Op::RayQueryProceedKHR:
    case Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR:
      return QueryShape{Returns::kBool, false};
    case Op::RayQueryGetIntersectionFrontFaceKHR:
    case Op::RayQueryIsSphereHitNV:
    case Op::RayQueryIsLSSHitNV:
      return QueryShape{Returns::kBool, true};
    case Op::RayQueryGetRayTMinKHR:
      return QueryShape{Returns::kFloat32, false};
    case Op::RayQueryGetIntersectionTKHR:
    case Op::RayQueryGetIntersectionSphereRadiusNV:
    case Op::RayQueryGetIntersectionLSSHitValueNV:
      return QueryShape{Returns::kFloat32, true};
    case Op::RayQueryGetRayFlagsKHR:
      return QueryShape{Returns::kInt32, false};
    case Op::RayQueryGetIntersectionTypeKHR:
    case Op::RayQueryGetIntersectionInstanceCustomIndexKHR:
    case Op::RayQueryGetIntersectionInstanceIdKHR:
    case Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR:
    case Op::RayQueryGetIntersectionGeometryIndexKHR:
    case Op::RayQueryGetIntersectionPrimitiveIndexKHR:
    case Op::RayQueryGetClusterIdNV:
      return QueryShape{Returns::kInt32, true};
    case Op::RayQueryGetWorldRayDirectionKHR:
    case Op::RayQueryGetWorldRayOriginKHR:
      return QueryShape{Returns::kFloat32Vec3, false};
    case Op::RayQueryGetIntersectionObjectRayDirectionKHR:
    case Op::RayQueryGetIntersectionObjectRayOriginKHR:
    case Op::RayQueryGetIntersectionSpherePositionNV:
      return QueryShape{Returns::kFloat32Vec3, true};
    case Op::RayQueryGetIntersectionBarycentricsKHR:
      return QueryShape{Returns::kFloat32Vec2, true};
    case Op::RayQueryGetIntersectionObjectToWorldKHR:
    case Op::RayQueryGetIntersectionWorldToObjectKHR:
      return QueryShape{Returns::kFloat32Mat4x3, true};
    case Op::RayQueryGetIntersectionLSSPositionsNV:
      return QueryShape{Returns::kFloat32Vec3Array2, true};
    case Op::RayQueryGetIntersectionTriangleVertexPositionsKHR:
      return QueryShape{Returns::kFloat32Vec3Array3, true};
    case Op::RayQueryGetIntersectionLSSRadiiNV:
      return QueryShape{Returns::kFloat32Array2, true};
    default:
      return std::nullopt;
  }
}

class RayQueryRules {
 public:
  explicit RayQueryRules(ValidationState& state) : state_(state), m_(state.module()) {}

  void Check(InstIndex i, const QueryShape& shape) {
    const bool has_result = shape.returns != Returns::kNothing;
    const uint32_t query_word = has_result ? 3 : 1;
    if (m_.num_words(i) <= query_word + (shape.intersection ? 1 : 0)) return;
    if (!CheckQuery(i, m_.word(i, query_word))) return;
    if (shape.intersection && !CheckIntersection(i, m_.word(i, query_word + 1))) return;
    if (has_result) {
      CheckResult(i, shape.returns);
      return;
    }
    const Op op = m_.opcode(i);
    if (op == Op::RayQueryInitializeKHR) CheckInitialize(i);
    if (op == Op::RayQueryGenerateIntersectionKHR && m_.num_words(i) > 2) {
      ExpectOperand(i, 2, "Hit T", IsFloat32(TypeOf(m_.word(i, 2))), "a 32-bit float scalar");
    }
  }

 private:
  Id TypeOf(Id id) const { return state_.TypeOf(id); }
  bool IsFloat32(Id type) const {
    return state_.IsFloatType(type) && state_.ScalarWidth(type) == 32;
  }
  bool IsInt32(Id type) const { return state_.IsIntType(type) && state_.ScalarWidth(type) == 32; }
  bool IsFloat32Vector(Id type, uint32_t n) const {
    return state_.DefOp(type) == Op::TypeVector && state_.DefWord(type, 3) == n &&
           IsFloat32(state_.DefWord(type, 2));
  }
  bool IsArrayOf(Id type, int64_t length) const {
    return state_.DefOp(type) == Op::TypeArray &&
           state_.IntConstant(state_.DefWord(type, 3)) == length;
  }

  // SPV_KHR_ray_query: RayQuery is a pointer to an OpTypeRayQueryKHR.
  bool CheckQuery(InstIndex i, Id query) {
    const Id type = TypeOf(query);
    if (state_.DefOp(type) == Op::TypePointer &&
        state_.DefOp(state_.DefWord(type, 3)) == Op::TypeRayQueryKHR) {
      return true;
    }
    state_.Report("ray-query.object", i,
                  state_.Describe(i) + ": RayQuery " + state_.Name(query) +
                      " is not a pointer to an OpTypeRayQueryKHR");
    return false;
  }

  // Intersection is a constant instruction of 32-bit integer type (0: candidate, 1: committed).
  bool CheckIntersection(InstIndex i, Id intersection) {
    if (ir::IsConstant(state_.DefOp(intersection)) && IsInt32(TypeOf(intersection))) return true;
    state_.Report("ray-query.intersection", i,
                  state_.Describe(i) + ": Intersection " + state_.Name(intersection) +
                      " is not a constant 32-bit integer");
    return false;
  }

  void CheckResult(InstIndex i, Returns returns) {
    const Id type = m_.word(i, 1);
    if (!state_.IsType(type)) return;  // The id rules.
    bool ok = false;
    const char* want = "";
    switch (returns) {
      case Returns::kNothing:
        return;
      case Returns::kBool:
        ok = state_.IsBoolType(type);
        want = "a Boolean scalar";
        break;
      case Returns::kInt32:
        ok = IsInt32(type);
        want = "a 32-bit integer scalar";
        break;
      case Returns::kFloat32:
        ok = IsFloat32(type);
        want = "a 32-bit float scalar";
        break;
      case Returns::kFloat32Vec2:
        ok = IsFloat32Vector(type, 2);
        want = "a 2-component vector of 32-bit floats";
        break;
      case Returns::kFloat32Vec3:
        ok = IsFloat32Vector(type, 3);
        want = "a 3-component vector of 32-bit floats";
        break;
      case Returns::kFloat32Mat4x3:
        ok = state_.DefOp(type) == Op::TypeMatrix && state_.DefWord(type, 3) == 4 &&
             IsFloat32Vector(state_.DefWord(type, 2), 3);
        want = "a matrix of 4 columns of 3-component vectors of 32-bit floats";
        break;
      case Returns::kFloat32Vec3Array2:
        ok = IsArrayOf(type, 2) && IsFloat32Vector(state_.DefWord(type, 2), 3);
        want = "an array of two 3-component vectors of 32-bit floats";
        break;
      case Returns::kFloat32Vec3Array3:
        ok = IsArrayOf(type, 3) && IsFloat32Vector(state_.DefWord(type, 2), 3);
        want = "an array of three 3-component vectors of 32-bit floats";
        break;
      case Returns::kFloat32Array2:
        ok = IsArrayOf(type, 2) && IsFloat32(state_.DefWord(type, 2));
        want = "an array of two 32-bit floats";
        break;
    }
    if (!ok) {
      state_.Report("ray-query.result-type", i,
                    state_.Describe(i) + ": Result Type " + state_.Name(type) + " is not " + want);
    }
  }

  // Returns whether operand word `w` is as wanted, after reporting it when not.
  bool ExpectOperand(InstIndex i, uint32_t w, const char* name, bool ok, const char* want) {
    if (ok) return true;
    const Id id = m_.word(i, w);
    state_.Report("ray-query.operand", i,
                  state_.Describe(i) + ": " + name + " " + state_.Name(id) + " is not " + want);
    return false;
  }

  // OpRayQueryInitializeKHR RayQuery Accel RayFlags CullMask RayOrigin RayTMin RayDirection
  // RayTMax.
  void CheckInitialize(InstIndex i) {
    if (m_.num_words(i) < 9) return;
    auto type = [&](uint32_t w) { return TypeOf(m_.word(i, w)); };
    if (!ExpectOperand(i, 2, "Accel", state_.DefOp(type(2)) == Op::TypeAccelerationStructureKHR,
                       "an OpTypeAccelerationStructureKHR") ||
        !ExpectOperand(i, 3, "RayFlags", IsInt32(type(3)), "a 32-bit integer scalar") ||
        !ExpectOperand(i, 4, "CullMask", IsInt32(type(4)), "a 32-bit integer scalar") ||
        !ExpectOperand(i, 5, "RayOrigin", IsFloat32Vector(type(5), 3),
                       "a 3-component vector of 32-bit floats") ||
        !ExpectOperand(i, 6, "RayTMin", IsFloat32(type(6)), "a 32-bit float scalar") ||
        !ExpectOperand(i, 7, "RayDirection", IsFloat32Vector(type(7), 3),
                       "a 3-component vector of 32-bit floats") ||
        !ExpectOperand(i, 8, "RayTMax", IsFloat32(type(8)), "a 32-bit float scalar")) {
      return;
    }
    // SPV_EXT_opacity_micromap: the ForceOpacityMicromap2StateEXT ray flag (0x400) needs
    // RayTracingOpacityMicromapEXT.
    const std::optional<int64_t> flags = state_.IntConstant(m_.word(i, 3));
    if (flags && (*flags & 0x400) &&
        !state_.HasCapability(spv::Capability::RayTracingOpacityMicromapEXT)) {
      state_.Report("ray-query.operand", i,
                    state_.Describe(i) +
                        ": RayFlags sets ForceOpacityMicromap2StateEXT, which needs the "
                        "RayTracingOpacityMicromapEXT capability");
    }
  }

  ValidationState& state_;
  const ir::Module& m_;
};

}  // namespace

void ValidateRayQueries(ValidationState& state) {
  if (!state.HasCapability(spv::Capability::RayQueryKHR)) return;
  const ir::Module& m = state.module();
  RayQueryRules rules(state);
  for (InstIndex i = m.global_end(); i < m.num_instructions(); ++i) {
    const std::optional<QueryShape> shape = ShapeOf(m.opcode(i));
    if (!shape) continue;
    if (state.Full()) return;
    rules.Check(i, *shape);
  }
}

}  // namespace coopspv::val
