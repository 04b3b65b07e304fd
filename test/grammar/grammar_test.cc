// The generated grammar tables against grammar-facts.md (the opcode, operand and enumerant facts
// of the cooperative family, from the SPIR-V unified grammar 1.6 rev 7). The facts are embedded
// verbatim below and parsed here.
#include "source/grammar/grammar.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace coopspv::grammar {
namespace {

constexpr char kFacts[] = R"md(# Grammar facts: cooperative matrix and vector family

Opcode numbers, operand lists and enumerant values, one fact per row, from the SPIR-V unified grammar 1.6 rev 7. Quantifier `?` = optional, `*` = zero or more. Aliases are older names of the same opcode.

## Instructions

| opcode | name (aliases) | class | operands | capabilities / extensions |
|---|---|---|---|---|
| 4163 | OpTypeTensorARM | Type-Declaration | IdResult; IdRef 'Element Type'; IdRef? 'Rank'; IdRef? 'Shape' | TensorsARM |
| 4164 | OpTensorReadARM | Tensor | IdResultType; IdResult; IdRef 'Tensor'; IdRef 'Coordinates'; TensorOperands? | TensorsARM |
| 4165 | OpTensorWriteARM | Tensor | IdRef 'Tensor'; IdRef 'Coordinates'; IdRef 'Object'; TensorOperands? | TensorsARM |
| 4166 | OpTensorQuerySizeARM | Tensor | IdResultType; IdResult; IdRef 'Tensor'; IdRef 'Dimension' | TensorsARM |
| 4195 | OpBitcastExtractEXT | Conversion | IdResultType; IdResult; IdRef 'Base'; IdRef 'Offset' | BitcastExtractEXT |
| 4456 | OpTypeCooperativeMatrixKHR | Type-Declaration | IdResult; IdRef 'Component Type'; IdScope 'Scope'; IdRef 'Rows'; IdRef 'Columns'; IdRef 'Use' | CooperativeMatrixKHR |
| 4457 | OpCooperativeMatrixLoadKHR | Memory | IdResultType; IdResult; IdRef 'Pointer'; IdRef 'MemoryLayout'; IdRef? 'Stride'; MemoryAccess? 'Memory Operand' | CooperativeMatrixKHR |
| 4458 | OpCooperativeMatrixStoreKHR | Memory | IdRef 'Pointer'; IdRef 'Object'; IdRef 'MemoryLayout'; IdRef? 'Stride'; MemoryAccess? 'Memory Operand' | CooperativeMatrixKHR |
| 4459 | OpCooperativeMatrixMulAddKHR | Arithmetic | IdResultType; IdResult; IdRef 'A'; IdRef 'B'; IdRef 'C'; CooperativeMatrixOperands? 'Cooperative Matrix Operands' | CooperativeMatrixKHR |
| 4460 | OpCooperativeMatrixLengthKHR | Miscellaneous | IdResultType; IdResult; IdRef 'Type' | CooperativeMatrixKHR |
| 4461 | OpConstantCompositeReplicateEXT | Constant-Creation | IdResultType; IdResult; IdRef 'Value' | ReplicatedCompositesEXT |
| 4462 | OpSpecConstantCompositeReplicateEXT | Constant-Creation | IdResultType; IdResult; IdRef 'Value' | ReplicatedCompositesEXT |
| 4463 | OpCompositeConstructReplicateEXT | Composite | IdResultType; IdResult; IdRef 'Value' | ReplicatedCompositesEXT |
| 4497 | OpBitCastArrayQCOM | Conversion | IdResultType; IdResult; IdRef 'Source Array' | CooperativeMatrixConversionQCOM |
| 4540 | OpCompositeConstructCoopMatQCOM | Composite | IdResultType; IdResult; IdRef 'Source Array' | CooperativeMatrixConversionQCOM |
| 4541 | OpCompositeExtractCoopMatQCOM | Composite | IdResultType; IdResult; IdRef 'Source Cooperative Matrix' | CooperativeMatrixConversionQCOM |
| 4542 | OpExtractSubArrayQCOM | Composite | IdResultType; IdResult; IdRef 'Source Array'; IdRef 'index' | CooperativeMatrixConversionQCOM |
| 5288 | OpTypeVectorIdEXT (OpTypeCooperativeVectorNV) | Type-Declaration | IdResult; IdRef 'Component Type'; IdRef 'Component Count' | CooperativeVectorNV, LongVectorEXT |
| 5289 | OpCooperativeVectorMatrixMulNV | Reserved | IdResultType; IdResult; IdRef 'Input'; IdRef 'InputInterpretation'; IdRef 'Matrix'; IdRef 'MatrixOffset'; IdRef 'MatrixInterpretation'; IdRef 'M'; IdRef 'K'; IdRef 'MemoryLayout'; IdRef 'Transpose'; IdRef? 'MatrixStride'; CooperativeMatrixOperands? | CooperativeVectorNV |
| 5290 | OpCooperativeVectorOuterProductAccumulateNV | Reserved | IdRef 'Pointer'; IdRef 'Offset'; IdRef 'A'; IdRef 'B'; IdRef 'MemoryLayout'; IdRef 'MatrixInterpretation'; IdRef? 'MatrixStride' | CooperativeVectorTrainingNV |
| 5291 | OpCooperativeVectorReduceSumAccumulateNV | Reserved | IdRef 'Pointer'; IdRef 'Offset'; IdRef 'V' | CooperativeVectorTrainingNV |
| 5292 | OpCooperativeVectorMatrixMulAddNV | Reserved | IdResultType; IdResult; IdRef 'Input'; IdRef 'InputInterpretation'; IdRef 'Matrix'; IdRef 'MatrixOffset'; IdRef 'MatrixInterpretation'; IdRef 'Bias'; IdRef 'BiasOffset'; IdRef 'BiasInterpretation'; IdRef 'M'; IdRef 'K'; IdRef 'MemoryLayout'; IdRef 'Transpose'; IdRef? 'MatrixStride'; CooperativeMatrixOperands? | CooperativeVectorNV |
| 5293 | OpCooperativeMatrixConvertUseEXT (OpCooperativeMatrixConvertNV) | Conversion | IdResultType; IdResult; IdRef 'Matrix' | CooperativeMatrixConversionsEXT, CooperativeMatrixConversionsNV |
| 5302 | OpCooperativeVectorLoadNV | Memory | IdResultType; IdResult; IdRef 'Pointer'; IdRef 'Offset'; MemoryAccess? | CooperativeVectorNV |
| 5303 | OpCooperativeVectorStoreNV | Memory | IdRef 'Pointer'; IdRef 'Offset'; IdRef 'Object'; MemoryAccess? | CooperativeVectorNV |
| 5358 | OpTypeCooperativeMatrixNV | Type-Declaration | IdResult; IdRef 'Component Type'; IdScope 'Execution'; IdRef 'Rows'; IdRef 'Columns' | CooperativeMatrixNV, SPV_NV_cooperative_matrix |
| 5359 | OpCooperativeMatrixLoadNV | Reserved | IdResultType; IdResult; IdRef 'Pointer'; IdRef 'Stride'; IdRef 'Column Major'; MemoryAccess? | CooperativeMatrixNV, SPV_NV_cooperative_matrix |
| 5360 | OpCooperativeMatrixStoreNV | Reserved | IdRef 'Pointer'; IdRef 'Object'; IdRef 'Stride'; IdRef 'Column Major'; MemoryAccess? | CooperativeMatrixNV, SPV_NV_cooperative_matrix |
| 5361 | OpCooperativeMatrixMulAddNV | Reserved | IdResultType; IdResult; IdRef 'A'; IdRef 'B'; IdRef 'C' | CooperativeMatrixNV, SPV_NV_cooperative_matrix |
| 5362 | OpCooperativeMatrixLengthNV | Reserved | IdResultType; IdResult; IdRef 'Type' | CooperativeMatrixNV, SPV_NV_cooperative_matrix |
| 5363 | OpCooperativeMatrixGetCoordinateEXT | Miscellaneous | IdResultType; IdResult; IdRef 'Matrix'; IdRef 'Index' | CooperativeMatrixGetCoordinateEXT |
| 5366 | OpCooperativeMatrixReduceEXT (OpCooperativeMatrixReduceNV) | Function | IdResultType; IdResult; IdRef 'Matrix'; CooperativeMatrixReduce 'Reduce'; IdRef 'CombineFunc' | CooperativeMatrixReductionsEXT |
| 5367 | OpCooperativeMatrixLoadTensorNV | Memory | IdResultType; IdResult; IdRef 'Pointer'; IdRef 'Object'; IdRef 'TensorLayout'; MemoryAccess 'Memory Operand'; TensorAddressingOperands 'Tensor Addressing Operands' | CooperativeMatrixTensorAddressingNV |
| 5368 | OpCooperativeMatrixStoreTensorNV | Memory | IdRef 'Pointer'; IdRef 'Object'; IdRef 'TensorLayout'; MemoryAccess 'Memory Operand'; TensorAddressingOperands 'Tensor Addressing Operands' | CooperativeMatrixTensorAddressingNV |
| 5369 | OpCooperativeMatrixPerElementOpEXT (OpCooperativeMatrixPerElementOpNV) | Function | IdResultType; IdResult; IdRef 'Matrix'; IdRef 'Func'; IdRef* 'Operands' | CooperativeMatrixPerElementOperationsEXT |
| 5370 | OpTypeTensorLayoutNV | Type-Declaration | IdResult; IdRef 'Dim'; IdRef 'ClampMode' | TensorAddressingNV |
| 5371 | OpTypeTensorViewNV | Type-Declaration | IdResult; IdRef 'Dim'; IdRef 'HasDimensions'; IdRef* 'p' | TensorAddressingNV |
| 5372 | OpCreateTensorLayoutNV | Reserved | IdResultType; IdResult | TensorAddressingNV |
| 5373 | OpTensorLayoutSetDimensionNV | Reserved | IdResultType; IdResult; IdRef 'TensorLayout'; IdRef* 'Dim' | TensorAddressingNV |
| 5374 | OpTensorLayoutSetStrideNV | Reserved | IdResultType; IdResult; IdRef 'TensorLayout'; IdRef* 'Stride' | TensorAddressingNV |
| 5375 | OpTensorLayoutSliceNV | Reserved | IdResultType; IdResult; IdRef 'TensorLayout'; IdRef* 'Operands' | TensorAddressingNV |
| 5376 | OpTensorLayoutSetClampValueNV | Reserved | IdResultType; IdResult; IdRef 'TensorLayout'; IdRef 'Value' | TensorAddressingNV |
| 5377 | OpCreateTensorViewNV | Reserved | IdResultType; IdResult | TensorAddressingNV |
| 5378 | OpTensorViewSetDimensionNV | Reserved | IdResultType; IdResult; IdRef 'TensorView'; IdRef* 'Dim' | TensorAddressingNV |
| 5379 | OpTensorViewSetStrideNV | Reserved | IdResultType; IdResult; IdRef 'TensorView'; IdRef* 'Stride' | TensorAddressingNV |
| 5382 | OpTensorViewSetClipNV | Reserved | IdResultType; IdResult; IdRef 'TensorView'; IdRef 'ClipRowOffset'; IdRef 'ClipRowSpan'; IdRef 'ClipColOffset'; IdRef 'ClipColSpan' | TensorAddressingNV |
| 5384 | OpTensorLayoutSetBlockSizeNV | Reserved | IdResultType; IdResult; IdRef 'TensorLayout'; IdRef* 'BlockSize' | TensorAddressingNV |
| 5390 | OpCooperativeMatrixTransposeNV | Conversion | IdResultType; IdResult; IdRef 'Matrix' | CooperativeMatrixConversionsNV |
| 6116 | OpConvertFToBF16INTEL | Conversion | IdResultType; IdResult; IdRef 'Float Value' | BFloat16ConversionINTEL |
| 6117 | OpConvertBF16ToFINTEL | Conversion | IdResultType; IdResult; IdRef 'BFloat16 Value' | BFloat16ConversionINTEL |
| 6426 | OpRoundFToTF32INTEL | Conversion | IdResultType; IdResult; IdRef 'Float Value' | TensorFloat32RoundingINTEL |
| 6916 | OpFDot2MixAcc32VALVE | Reserved | IdResultType; IdResult; IdRef 'Vector 1'; IdRef 'Vector 2'; IdRef 'Accumulator' | DotProductFloat16AccFloat32VALVE, DotProductBFloat16AccVALVE |
| 6917 | OpFDot2MixAcc16VALVE | Reserved | IdResultType; IdResult; IdRef 'Vector 1'; IdRef 'Vector 2'; IdRef 'Accumulator' | DotProductFloat16AccFloat16VALVE, DotProductBFloat16AccVALVE |
| 6918 | OpFDot4MixAcc32VALVE | Reserved | IdResultType; IdResult; IdRef 'Vector 1'; IdRef 'Vector 2'; IdRef 'Accumulator' | DotProductFloat8AccFloat32VALVE |

## Operand kinds used above (cooperative-specific ones in full)

### CooperativeMatrixOperands (BitEnum)

| value | enumerant | capabilities / extensions | parameters |
|---|---|---|---|
| 0x0000 | NoneKHR |  |  |
| 0x0001 | MatrixASignedComponentsKHR |  |  |
| 0x0002 | MatrixBSignedComponentsKHR |  |  |
| 0x0004 | MatrixCSignedComponentsKHR |  |  |
| 0x0008 | MatrixResultSignedComponentsKHR |  |  |
| 0x0010 | SaturatingAccumulationKHR |  |  |

### CooperativeMatrixLayout (ValueEnum)

| value | enumerant | capabilities / extensions | parameters |
|---|---|---|---|
| 0 | RowMajorKHR |  |  |
| 1 | ColumnMajorKHR |  |  |
| 4202 | RowBlockedInterleavedARM | CooperativeMatrixLayoutsARM |  |
| 4203 | ColumnBlockedInterleavedARM | CooperativeMatrixLayoutsARM |  |

### CooperativeMatrixUse (ValueEnum)

| value | enumerant | capabilities / extensions | parameters |
|---|---|---|---|
| 0 | MatrixAKHR |  |  |
| 1 | MatrixBKHR |  |  |
| 2 | MatrixAccumulatorKHR |  |  |

### CooperativeMatrixReduce (BitEnum)

| value | enumerant | capabilities / extensions | parameters |
|---|---|---|---|
| 0x0001 | Row |  |  |
| 0x0002 | Column |  |  |
| 0x0004 | 2x2 |  |  |

### TensorClampMode (ValueEnum)

| value | enumerant | capabilities / extensions | parameters |
|---|---|---|---|
| 0 | Undefined |  |  |
| 1 | Constant |  |  |
| 2 | ClampToEdge |  |  |
| 3 | Repeat |  |  |
| 4 | RepeatMirrored |  |  |

### TensorAddressingOperands (BitEnum)

| value | enumerant | capabilities / extensions | parameters |
|---|---|---|---|
| 0x0000 | None |  |  |
| 0x0001 | TensorView | CooperativeMatrixTensorAddressingNV | IdRef |
| 0x0002 | DecodeFunc | CooperativeMatrixBlockLoadsNV | IdRef |
| 0x0004 | DecodeVectorFunc | CooperativeMatrixDecodeVectorNV | IdRef |

### MatrixMultiplyAccumulateOperands (BitEnum)

| value | enumerant | capabilities / extensions | parameters |
|---|---|---|---|
| 0x0 | None |  |  |
| 0x1 | MatrixASignedComponentsINTEL |  |  |
| 0x2 | MatrixBSignedComponentsINTEL |  |  |
| 0x4 | MatrixCBFloat16INTEL |  |  |
| 0x8 | MatrixResultBFloat16INTEL |  |  |
| 0x10 | MatrixAPackedInt8INTEL |  |  |
| 0x20 | MatrixBPackedInt8INTEL |  |  |
| 0x40 | MatrixAPackedInt4INTEL |  |  |
| 0x80 | MatrixBPackedInt4INTEL |  |  |
| 0x100 | MatrixATF32INTEL |  |  |
| 0x200 | MatrixBTF32INTEL |  |  |
| 0x400 | MatrixAPackedFloat16INTEL |  |  |
| 0x800 | MatrixBPackedFloat16INTEL |  |  |
| 0x1000 | MatrixAPackedBFloat16INTEL |  |  |
| 0x2000 | MatrixBPackedBFloat16INTEL |  |  |

### FPEncoding (ValueEnum)

| value | enumerant | capabilities / extensions | parameters |
|---|---|---|---|
| 0 | BFloat16KHR | BFloat16TypeKHR |  |
| 4214 | Float8E4M3EXT | Float8EXT |  |
| 4215 | Float8E5M2EXT | Float8EXT |  |
| 4223 | Float6E2M3EXT | Float6EXT |  |
| 4224 | Float6E3M2EXT | Float6EXT |  |
| 4225 | Float4E2M1EXT | Float4EXT |  |
| 4226 | Float8UnsignedE8M0EXT | Float8UnsignedE8M0EXT |  |
| 4227 | MXInt8EXT | MXInt8EXT |  |

### CooperativeVectorMatrixLayout (ValueEnum)

| value | enumerant | capabilities / extensions | parameters |
|---|---|---|---|
| 0 | RowMajorNV |  |  |
| 1 | ColumnMajorNV |  |  |
| 2 | InferencingOptimalNV |  |  |
| 3 | TrainingOptimalNV |  |  |

### ComponentType (ValueEnum)

| value | enumerant | capabilities / extensions | parameters |
|---|---|---|---|
| 0 | Float16NV |  |  |
| 1 | Float32NV |  |  |
| 2 | Float64NV |  |  |
| 3 | SignedInt8NV |  |  |
| 4 | SignedInt16NV |  |  |
| 5 | SignedInt32NV |  |  |
| 6 | SignedInt64NV |  |  |
| 7 | UnsignedInt8NV |  |  |
| 8 | UnsignedInt16NV |  |  |
| 9 | UnsignedInt32NV |  |  |
| 10 | UnsignedInt64NV |  |  |
| 1000491000 | SignedInt8PackedNV |  |  |
| 1000491001 | UnsignedInt8PackedNV |  |  |
| 1000491002 | FloatE4M3NV |  |  |
| 1000491003 | FloatE5M2NV |  |  |

### TensorOperands (BitEnum)

| value | enumerant | capabilities / extensions | parameters |
|---|---|---|---|
| 0x0000 | NoneARM | TensorsARM |  |
| 0x0001 | NontemporalARM | TensorsARM |  |
| 0x0002 | OutOfBoundsValueARM | TensorsARM | IdRef |
| 0x0004 | MakeElementAvailableARM | TensorsARM | IdRef |
| 0x0008 | MakeElementVisibleARM | TensorsARM | IdRef |
| 0x0010 | NonPrivateElementARM | TensorsARM |  |

## Capabilities of the family

| value | capability | implicitly declares | extensions |
|---|---|---|---|
| 4174 | TensorsARM |  | SPV_ARM_tensors |
| 4175 | StorageTensorArrayDynamicIndexingARM |  | SPV_ARM_tensors |
| 4176 | StorageTensorArrayNonUniformIndexingARM |  | SPV_ARM_tensors |
| 4201 | CooperativeMatrixLayoutsARM |  | SPV_ARM_cooperative_matrix_layouts |
| 4212 | Float8EXT |  | SPV_EXT_float8 |
| 4213 | Float8CooperativeMatrixEXT | Float8EXT, CooperativeMatrixKHR | SPV_EXT_float8 |
| 4228 | Float6EXT |  | SPV_EXT_ocp_microscaling_types |
| 4229 | Float4EXT |  | SPV_EXT_ocp_microscaling_types |
| 4230 | Float8UnsignedE8M0EXT |  | SPV_EXT_ocp_microscaling_types |
| 4231 | MXInt8EXT |  | SPV_EXT_ocp_microscaling_types |
| 4232 | BitcastExtractEXT |  | SPV_EXT_ocp_microscaling_types |
| 4496 | CooperativeMatrixConversionQCOM | CooperativeMatrixKHR | SPV_QCOM_cooperative_matrix_conversion |
| 5114 | Int4CooperativeMatrixINTEL | Int4TypeINTEL, CooperativeMatrixKHR | SPV_INTEL_int4 |
| 5116 | BFloat16TypeKHR |  | SPV_KHR_bfloat16 |
| 5117 | BFloat16DotProductKHR | BFloat16TypeKHR | SPV_KHR_bfloat16 |
| 5118 | BFloat16CooperativeMatrixKHR | BFloat16TypeKHR, CooperativeMatrixKHR | SPV_KHR_bfloat16 |
| 5345 | VulkanMemoryModel (VulkanMemoryModelKHR) |  | SPV_KHR_vulkan_memory_model |
| 5346 | VulkanMemoryModelDeviceScope (VulkanMemoryModelDeviceScopeKHR) |  | SPV_KHR_vulkan_memory_model |
| 5357 | CooperativeMatrixNV | Shader | SPV_NV_cooperative_matrix |
| 5394 | CooperativeVectorNV |  | SPV_NV_cooperative_vector |
| 5425 | LongVectorEXT |  | SPV_EXT_long_vector |
| 5429 | CooperativeMatrixConversionsEXT |  | SPV_EXT_cooperative_matrix_maintenance1 |
| 5430 | CooperativeMatrixReductionsEXT (CooperativeMatrixReductionsNV) |  | SPV_EXT_cooperative_matrix_maintenance1, SPV_NV_cooperative_matrix2 |
| 5431 | CooperativeMatrixConversionsNV |  | SPV_NV_cooperative_matrix2 |
| 5432 | CooperativeMatrixPerElementOperationsEXT (CooperativeMatrixPerElementOperationsNV) |  | SPV_EXT_cooperative_matrix_maintenance1, SPV_NV_cooperative_matrix2 |
| 5433 | CooperativeMatrixTensorAddressingNV |  | SPV_NV_cooperative_matrix2 |
| 5434 | CooperativeMatrixBlockLoadsNV |  | SPV_NV_cooperative_matrix2 |
| 5435 | CooperativeVectorTrainingNV |  | SPV_NV_cooperative_vector |
| 5438 | CooperativeMatrixGetCoordinateEXT |  | SPV_EXT_cooperative_matrix_maintenance1 |
| 5439 | TensorAddressingNV |  | SPV_NV_tensor_addressing |
| 5447 | CooperativeMatrixDecodeVectorNV | CooperativeMatrixBlockLoadsNV | SPV_NV_cooperative_matrix_decode_vector |
| 6022 | CooperativeMatrixKHR |  | SPV_KHR_cooperative_matrix |
| 6024 | ReplicatedCompositesEXT |  | SPV_EXT_replicated_composites |
| 6115 | BFloat16ConversionINTEL |  | SPV_INTEL_bfloat16_conversion |
| 6425 | TensorFloat32RoundingINTEL |  | SPV_INTEL_tensor_float32_conversion |
| 6914 | DotProductBFloat16AccVALVE | BFloat16TypeKHR | SPV_VALVE_mixed_float_dot_product |
| 6915 | DotProductFloat8AccFloat32VALVE | Float8EXT | SPV_VALVE_mixed_float_dot_product |
)md";

// ---------------------------------------------------------------------------------------------
// Parsing the facts.

std::string Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string> Split(std::string_view s, std::string_view separator) {
  std::vector<std::string> out;
  if (Trim(s).empty()) return out;
  while (true) {
    const size_t at = s.find(separator);
    out.push_back(Trim(s.substr(0, at)));
    if (at == std::string_view::npos) break;
    s.remove_prefix(at + separator.size());
  }
  return out;
}

struct Table {
  std::string heading;  // "Instructions", "CooperativeMatrixOperands (BitEnum)", ...
  std::vector<std::vector<std::string>> rows;  // Cells, without the title row.
};

std::vector<Table> ParseTables() {
  std::vector<Table> tables;
  std::istringstream in(kFacts);
  std::string line, heading;
  bool title_row = false;
  while (std::getline(in, line)) {
    if (line.rfind("#", 0) == 0) {
      heading = Trim(line.substr(line.find_first_not_of('#')));
      continue;
    }
    if (line.rfind("|", 0) != 0) {
      title_row = true;
      continue;
    }
    if (line.rfind("|---", 0) == 0) continue;
    if (title_row) {  // The first row of a table names its columns.
      title_row = false;
      tables.push_back({heading, {}});
      continue;
    }
    std::vector<std::string> cells;
    std::string_view rest(line);
    rest.remove_prefix(1);
    while (!rest.empty()) {
      const size_t bar = rest.find('|');
      cells.push_back(Trim(rest.substr(0, bar)));
      if (bar == std::string_view::npos) break;
      rest.remove_prefix(bar + 1);
    }
    tables.back().rows.push_back(cells);
  }
  return tables;
}

const std::vector<Table>& Tables() {
  static const std::vector<Table> tables = ParseTables();
  return tables;
}

const Table* FindTable(std::string_view prefix) {
  for (const Table& t : Tables()) {
    if (t.heading.rfind(prefix, 0) == 0) return &t;
  }
  return nullptr;
}

// "OpFoo (OpBar, OpBaz)" -> {"OpFoo", "OpBar", "OpBaz"}.
std::vector<std::string> NameAndAliases(const std::string& cell) {
  const size_t open = cell.find(" (");
  std::vector<std::string> names = {Trim(cell.substr(0, open))};
  if (open != std::string::npos) {
    for (const std::string& alias : Split(cell.substr(open + 2, cell.size() - open - 3), ",")) {
      names.push_back(alias);
    }
  }
  return names;
}

uint32_t ParseValue(const std::string& text) {
  return static_cast<uint32_t>(std::stoul(text, nullptr, 0));
}

std::optional<OperandKind> KindByName(std::string_view name) {
  for (int k = 0; k < kNumOperandKinds; ++k) {
    if (GetOperandKind(static_cast<OperandKind>(k)).name == name)
      return static_cast<OperandKind>(k);
  }
  return std::nullopt;
}

const char* QuantifierText(Quantifier q) {
  switch (q) {
    case Quantifier::kOne:
      return "";
    case Quantifier::kOptional:
      return "?";
    case Quantifier::kVariadic:
      return "*";
  }
  return "!";
}

// The operands as the facts spell them: "IdRef 'Tensor'; TensorOperands?".
std::string OperandsText(std::span<const OperandInfo> operands) {
  std::string out;
  for (const OperandInfo& op : operands) {
    if (!out.empty()) out += "; ";
    out += GetOperandKind(op.kind).name;
    out += QuantifierText(op.quantifier);
    if (op.name[0] != '\0') out += std::string(" '") + op.name + "'";
  }
  return out;
}

uint32_t CapabilityValue(const std::string& name) {
  const EnumerantInfo* e = LookupEnumerant(OperandKind::kCapability, name);
  EXPECT_NE(e, nullptr) << "capability " << name;
  return e ? e->value : 0xFFFFFFFFu;
}

// Checks a "capabilities / extensions" cell against the entry's two lists.
void ExpectRequirements(const std::string& cell, std::span<const uint32_t> caps,
                        std::span<const char* const> exts, const std::string& where) {
  std::multiset<uint32_t> want_caps, have_caps(caps.begin(), caps.end());
  std::multiset<std::string> want_exts, have_exts(exts.begin(), exts.end());
  for (const std::string& name : Split(cell, ",")) {
    if (name.rfind("SPV_", 0) == 0) {
      want_exts.insert(name);
    } else {
      want_caps.insert(CapabilityValue(name));
    }
  }
  EXPECT_EQ(have_caps, want_caps) << where;
  EXPECT_EQ(have_exts, want_exts) << where;
}

// ---------------------------------------------------------------------------------------------
// Instructions.

TEST(GrammarFacts, TablesParse) {
  const Table* insts = FindTable("Instructions");
  ASSERT_NE(insts, nullptr);
  EXPECT_EQ(insts->rows.size(), 54u);
  const Table* caps = FindTable("Capabilities of the family");
  ASSERT_NE(caps, nullptr);
  EXPECT_EQ(caps->rows.size(), 37u);
  int enum_tables = 0;
  for (const Table& t : Tables()) {
    if (t.heading.find("Enum)") != std::string::npos) ++enum_tables;
  }
  EXPECT_EQ(enum_tables, 11);
}

TEST(GrammarFacts, Instructions) {
  const Table* table = FindTable("Instructions");
  ASSERT_NE(table, nullptr);
  for (const auto& row : table->rows) {
    ASSERT_EQ(row.size(), 5u);
    const uint32_t opcode = ParseValue(row[0]);
    const std::vector<std::string> names = NameAndAliases(row[1]);
    SCOPED_TRACE(row[1]);
    const InstructionInfo* info = LookupOpcode(opcode);
    ASSERT_NE(info, nullptr) << opcode;
    EXPECT_EQ(info->opcode, opcode);
    EXPECT_STREQ(info->name, names[0].c_str());
    // Every spelling finds the same entry; the aliases are exactly the older names.
    for (const std::string& name : names) EXPECT_EQ(LookupInstruction(name), info) << name;
    std::vector<std::string> aliases(Aliases(*info).begin(), Aliases(*info).end());
    EXPECT_EQ(aliases, std::vector<std::string>(names.begin() + 1, names.end()));
    EXPECT_STREQ(info->instruction_class, row[2].c_str());
    // Operands: kinds, quantifiers and names, in order.
    EXPECT_EQ(OperandsText(Operands(*info)), row[3]);
    const std::vector<std::string> kinds = Split(row[3], ";");
    EXPECT_EQ(Operands(*info).size(), kinds.size());
    EXPECT_EQ(info->has_result_type, !kinds.empty() && kinds[0] == "IdResultType");
    EXPECT_EQ(info->has_result, (kinds.size() > 0 && kinds[0] == "IdResult") ||
                                    (kinds.size() > 1 && kinds[1] == "IdResult"));
    ExpectRequirements(row[4], Capabilities(*info), Extensions(*info), row[1]);
  }
}

TEST(GrammarFacts, ResultFlagsAndQuantifiers) {
  const InstructionInfo* vec = LookupInstruction("OpTypeCooperativeVectorNV");
  ASSERT_NE(vec, nullptr);
  EXPECT_EQ(vec->opcode, 5288u);
  EXPECT_STREQ(vec->name, "OpTypeVectorIdEXT");
  EXPECT_TRUE(vec->has_result);
  EXPECT_FALSE(vec->has_result_type);

  const InstructionInfo* store = LookupOpcode(4458);
  ASSERT_NE(store, nullptr);
  EXPECT_FALSE(store->has_result);
  EXPECT_FALSE(store->has_result_type);
  ASSERT_EQ(Operands(*store).size(), 5u);
  EXPECT_EQ(Operands(*store)[3].quantifier, Quantifier::kOptional);
  EXPECT_EQ(Operands(*store)[4].kind, OperandKind::kMemoryAccess);

  const InstructionInfo* load = LookupInstruction("OpCooperativeMatrixLoadTensorNV");
  ASSERT_NE(load, nullptr);
  EXPECT_TRUE(load->has_result);
  EXPECT_TRUE(load->has_result_type);
  ASSERT_EQ(Operands(*load).size(), 7u);
  EXPECT_EQ(Operands(*load)[5].kind, OperandKind::kMemoryAccess);
  EXPECT_EQ(Operands(*load)[5].quantifier, Quantifier::kOne);
  EXPECT_EQ(Operands(*load)[6].kind, OperandKind::kTensorAddressingOperands);
  EXPECT_EQ(Operands(*load)[6].quantifier, Quantifier::kOne);

  const InstructionInfo* per_element = LookupInstruction("OpCooperativeMatrixPerElementOpNV");
  ASSERT_NE(per_element, nullptr);
  EXPECT_EQ(per_element, LookupOpcode(5369));
  EXPECT_EQ(Operands(*per_element).back().quantifier, Quantifier::kVariadic);

  const InstructionInfo* reduce = LookupInstruction("OpCooperativeMatrixReduceNV");
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(reduce->opcode, 5366u);
  EXPECT_EQ(Operands(*reduce)[3].kind, OperandKind::kCooperativeMatrixReduce);

  // OpTypeFloat takes the optional FPEncoding of the family.
  const InstructionInfo* type_float = LookupInstruction("OpTypeFloat");
  ASSERT_NE(type_float, nullptr);
  ASSERT_EQ(Operands(*type_float).size(), 3u);
  EXPECT_EQ(Operands(*type_float)[2].kind, OperandKind::kFPEncoding);
  EXPECT_EQ(Operands(*type_float)[2].quantifier, Quantifier::kOptional);
}

// ---------------------------------------------------------------------------------------------
// Enumerants.

TEST(GrammarFacts, EnumerantTables) {
  int checked = 0;
  for (const Table& table : Tables()) {
    const size_t paren = table.heading.find(" (");
    if (paren == std::string::npos || table.heading.find("Enum)") == std::string::npos) continue;
    const std::string kind_name = table.heading.substr(0, paren);
    const std::string category = table.heading.substr(paren + 2, table.heading.size() - paren - 3);
    SCOPED_TRACE(kind_name);
    const std::optional<OperandKind> kind = KindByName(kind_name);
    ASSERT_TRUE(kind.has_value());
    const OperandKindInfo& info = GetOperandKind(*kind);
    EXPECT_EQ(info.category,
              category == "BitEnum" ? OperandCategory::kBitEnum : OperandCategory::kValueEnum);
    uint32_t valid = 0, with_parameters = 0;
    size_t expected_count = 0;
    for (const auto& row : table.rows) {
      ASSERT_EQ(row.size(), 4u);
      const uint32_t value = ParseValue(row[0]);
      const std::string& name = row[1];
      SCOPED_TRACE(name);
      ++expected_count;
      valid |= value;
      if (!row[3].empty()) with_parameters |= value;
      const EnumerantInfo* by_name = LookupEnumerant(*kind, name);
      ASSERT_NE(by_name, nullptr);
      EXPECT_EQ(by_name->value, value);
      EXPECT_EQ(by_name->kind, *kind);
      const EnumerantInfo* by_value = LookupEnumerant(*kind, value);
      ASSERT_NE(by_value, nullptr);
      EXPECT_STREQ(by_value->name, name.c_str());
      ExpectRequirements(row[2], Capabilities(*by_name), Extensions(*by_name), name);
      std::vector<std::string> parameters;
      for (const OperandInfo& p : Parameters(*by_name)) {
        parameters.push_back(GetOperandKind(p.kind).name);
        EXPECT_EQ(p.quantifier, Quantifier::kOne);
      }
      EXPECT_EQ(parameters, Split(row[3], ","));
      ++checked;
    }
    // The family's own kinds are given in full.
    EXPECT_EQ(Enumerants(*kind).size(), expected_count);
    if (info.category == OperandCategory::kBitEnum) {
      EXPECT_EQ(info.valid_mask, valid);
      EXPECT_EQ(info.parameter_mask, with_parameters);
    }
  }
  EXPECT_EQ(checked, 73);
}

TEST(GrammarFacts, SpecificEnumerants) {
  const EnumerantInfo* row_blocked =
      LookupEnumerant(OperandKind::kCooperativeMatrixLayout, "RowBlockedInterleavedARM");
  ASSERT_NE(row_blocked, nullptr);
  EXPECT_EQ(row_blocked->value, 4202u);
  ASSERT_EQ(Capabilities(*row_blocked).size(), 1u);
  EXPECT_EQ(Capabilities(*row_blocked)[0], 4201u);  // CooperativeMatrixLayoutsARM.
  const EnumerantInfo* col_blocked = LookupEnumerant(OperandKind::kCooperativeMatrixLayout, 4203u);
  ASSERT_NE(col_blocked, nullptr);
  EXPECT_STREQ(col_blocked->name, "ColumnBlockedInterleavedARM");

  const EnumerantInfo* two_by_two = LookupEnumerant(OperandKind::kCooperativeMatrixReduce, "2x2");
  ASSERT_NE(two_by_two, nullptr);
  EXPECT_EQ(two_by_two->value, 4u);

  for (uint32_t v = 1000491000; v <= 1000491003; ++v) {
    EXPECT_NE(LookupEnumerant(OperandKind::kComponentType, v), nullptr) << v;
  }
  EXPECT_EQ(LookupEnumerant(OperandKind::kComponentType, 1000491004u), nullptr);

  const EnumerantInfo* decode = LookupEnumerant(OperandKind::kTensorAddressingOperands, 4u);
  ASSERT_NE(decode, nullptr);
  EXPECT_STREQ(decode->name, "DecodeVectorFunc");
  ASSERT_EQ(Parameters(*decode).size(), 1u);
  EXPECT_EQ(Parameters(*decode)[0].kind, OperandKind::kIdRef);
  EXPECT_EQ(GetOperandKind(OperandKind::kTensorAddressingOperands).parameter_mask, 0x7u);
  EXPECT_EQ(GetOperandKind(OperandKind::kCooperativeMatrixOperands).valid_mask, 0x1Fu);
  EXPECT_EQ(GetOperandKind(OperandKind::kCooperativeMatrixOperands).parameter_mask, 0u);

  const EnumerantInfo* bf16 = LookupEnumerant(OperandKind::kFPEncoding, "BFloat16KHR");
  ASSERT_NE(bf16, nullptr);
  EXPECT_EQ(bf16->value, 0u);
  EXPECT_EQ(LookupEnumerant(OperandKind::kFPEncoding, 0u), bf16);
}

// ---------------------------------------------------------------------------------------------
// Capabilities.

TEST(GrammarFacts, Capabilities) {
  const Table* table = FindTable("Capabilities of the family");
  ASSERT_NE(table, nullptr);
  for (const auto& row : table->rows) {
    ASSERT_EQ(row.size(), 4u);
    const uint32_t value = ParseValue(row[0]);
    const std::vector<std::string> names = NameAndAliases(row[1]);
    SCOPED_TRACE(row[1]);
    const EnumerantInfo* e = LookupEnumerant(OperandKind::kCapability, names[0]);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->value, value);
    EXPECT_EQ(LookupEnumerant(OperandKind::kCapability, value), e);
    for (const std::string& name : names) {
      EXPECT_EQ(LookupEnumerant(OperandKind::kCapability, name), e) << name;
    }
    std::vector<std::string> aliases(Aliases(*e).begin(), Aliases(*e).end());
    EXPECT_EQ(aliases, std::vector<std::string>(names.begin() + 1, names.end()));
    // Implicitly declared capabilities, in order.
    std::vector<uint32_t> implied;
    for (const std::string& name : Split(row[2], ",")) implied.push_back(CapabilityValue(name));
    EXPECT_EQ(std::vector<uint32_t>(Capabilities(*e).begin(), Capabilities(*e).end()), implied);
    std::vector<std::string> want_exts = Split(row[3], ",");
    std::vector<std::string> have_exts(Extensions(*e).begin(), Extensions(*e).end());
    std::sort(want_exts.begin(), want_exts.end());
    std::sort(have_exts.begin(), have_exts.end());
    EXPECT_EQ(have_exts, want_exts);
  }
}

TEST(GrammarFacts, ImpliedCapabilities) {
  const EnumerantInfo* decode =
      LookupEnumerant(OperandKind::kCapability, "CooperativeMatrixDecodeVectorNV");
  ASSERT_NE(decode, nullptr);
  ASSERT_EQ(Capabilities(*decode).size(), 1u);
  const EnumerantInfo* implied =
      LookupEnumerant(OperandKind::kCapability, Capabilities(*decode)[0]);
  ASSERT_NE(implied, nullptr);
  EXPECT_STREQ(implied->name, "CooperativeMatrixBlockLoadsNV");

  const EnumerantInfo* fp8_matrix =
      LookupEnumerant(OperandKind::kCapability, "Float8CooperativeMatrixEXT");
  ASSERT_NE(fp8_matrix, nullptr);
  EXPECT_EQ(
      std::vector<uint32_t>(Capabilities(*fp8_matrix).begin(), Capabilities(*fp8_matrix).end()),
      (std::vector<uint32_t>{4212, 6022}));
  const EnumerantInfo* coop_nv = LookupEnumerant(OperandKind::kCapability, "CooperativeMatrixNV");
  ASSERT_NE(coop_nv, nullptr);
  ASSERT_EQ(Capabilities(*coop_nv).size(), 1u);
  EXPECT_EQ(Capabilities(*coop_nv)[0], 1u);  // Shader.
}

TEST(GrammarFacts, CapabilityAliases) {
  const EnumerantInfo* vmm = LookupEnumerant(OperandKind::kCapability, "VulkanMemoryModelKHR");
  ASSERT_NE(vmm, nullptr);
  EXPECT_STREQ(vmm->name, "VulkanMemoryModel");
  EXPECT_EQ(vmm->value, 5345u);
  const EnumerantInfo* reductions =
      LookupEnumerant(OperandKind::kCapability, "CooperativeMatrixReductionsNV");
  ASSERT_NE(reductions, nullptr);
  EXPECT_STREQ(reductions->name, "CooperativeMatrixReductionsEXT");
  EXPECT_EQ(reductions->value, 5430u);
  // One entry per value: the old duplicate entries are merged.
  int count = 0;
  for (const EnumerantInfo& e : Enumerants(OperandKind::kCapability)) count += e.value == 5345;
  EXPECT_EQ(count, 1);
}

// ---------------------------------------------------------------------------------------------
// Extended instructions, generators, negative lookups and table consistency.

TEST(GrammarExtInst, GlslStd450) {
  const int set = LookupExtInstSet("GLSL.std.450");
  ASSERT_GE(set, 0);
  EXPECT_STREQ(GetExtInstSet(set).name, "GLSL.std.450");
  const ExtInstInfo* by_name = LookupExtInst(set, "FMax");
  ASSERT_NE(by_name, nullptr);
  EXPECT_EQ(by_name->opcode, 40u);
  EXPECT_EQ(by_name->set, static_cast<uint32_t>(set));
  const ExtInstInfo* by_number = LookupExtInst(set, 40u);
  EXPECT_EQ(by_number, by_name);
  ASSERT_EQ(Operands(*by_name).size(), 2u);
  EXPECT_EQ(Operands(*by_name)[0].kind, OperandKind::kIdRef);
  EXPECT_EQ(Operands(*by_name)[1].kind, OperandKind::kIdRef);
  const ExtInstInfo* sqrt = LookupExtInst(set, "Sqrt");
  ASSERT_NE(sqrt, nullptr);
  EXPECT_EQ(sqrt->opcode, 31u);

  EXPECT_EQ(LookupExtInst(set, "FMaxx"), nullptr);
  EXPECT_EQ(LookupExtInst(set, "fmax"), nullptr);
  EXPECT_EQ(LookupExtInst(set, 100000u), nullptr);
  EXPECT_EQ(LookupExtInstSet("GLSL.std.451"), -1);
  EXPECT_EQ(LookupExtInstSet(""), -1);
  // Names are per set.
  const int opencl = LookupExtInstSet("OpenCL.std");
  ASSERT_GE(opencl, 0);
  EXPECT_NE(opencl, set);
  EXPECT_EQ(LookupExtInst(opencl, "FMax"), nullptr);
  ASSERT_NE(LookupExtInst(opencl, "fmax"), nullptr);
}

TEST(GrammarGenerators, Registry) {
  const GeneratorInfo* glslang = LookupGenerator(8);
  ASSERT_NE(glslang, nullptr);
  EXPECT_EQ(glslang->id, 8u);
  EXPECT_STREQ(glslang->vendor, "Khronos");
  EXPECT_STREQ(glslang->tool, "Glslang Reference Front End");
  EXPECT_EQ(LookupGeneratorByName("Khronos Glslang Reference Front End"), glslang);
  EXPECT_EQ(LookupGeneratorByName("Khronos Glslang"), nullptr);
  EXPECT_EQ(LookupGeneratorByName("Khronos Glslang Reference Front End "), nullptr);
  EXPECT_EQ(LookupGenerator(0xFFFF), nullptr);
}

TEST(GrammarNegative, UnknownLookupsReturnNull) {
  EXPECT_EQ(LookupOpcode(5383), nullptr);
  EXPECT_EQ(LookupOpcode(kMaxOpcode + 1), nullptr);
  EXPECT_EQ(LookupOpcode(0xFFFFu), nullptr);
  EXPECT_EQ(LookupOpcode(0xFFFFFFFFu), nullptr);
  EXPECT_EQ(LookupInstruction("OpBogus"), nullptr);
  EXPECT_EQ(LookupInstruction(""), nullptr);
  EXPECT_EQ(LookupInstruction("TypeVoid"), nullptr);
  EXPECT_EQ(LookupInstruction("optypevoid"), nullptr);
  EXPECT_EQ(LookupInstruction("OpTypeCooperativeVector"), nullptr);
  EXPECT_EQ(LookupEnumerant(OperandKind::kCapability, "Bogus"), nullptr);
  EXPECT_EQ(LookupEnumerant(OperandKind::kCapability, 999999u), nullptr);
  EXPECT_EQ(LookupEnumerant(OperandKind::kCooperativeMatrixUse, 3u), nullptr);
  EXPECT_EQ(LookupEnumerant(OperandKind::kCooperativeMatrixReduce, 8u), nullptr);
  EXPECT_EQ(LookupEnumerant(OperandKind::kCooperativeMatrixReduce, 3u), nullptr);  // Not a bit.
  EXPECT_EQ(LookupEnumerant(OperandKind::kTensorClampMode, 5u), nullptr);
  // Enumerant names belong to their kind.
  EXPECT_EQ(LookupEnumerant(OperandKind::kCooperativeMatrixUse, "RowMajorKHR"), nullptr);
  EXPECT_EQ(LookupEnumerant(OperandKind::kCooperativeVectorMatrixLayout, "RowMajorKHR"), nullptr);
  EXPECT_EQ(LookupEnumerant(OperandKind::kCapability, "RowMajorKHR"), nullptr);
  EXPECT_EQ(LookupEnumerant(OperandKind::kIdRef, 0u), nullptr);
}

TEST(GrammarConsistency, EveryInstructionIsFoundByOpcodeAndName) {
  uint32_t previous = 0;
  bool first = true;
  size_t count = 0;
  for (const InstructionInfo& inst : AllInstructions()) {
    if (!first) {
      EXPECT_LT(previous, inst.opcode) << inst.name;
    }
    first = false;
    previous = inst.opcode;
    EXPECT_EQ(LookupOpcode(inst.opcode), &inst) << inst.name;
    EXPECT_EQ(LookupInstruction(inst.name), &inst) << inst.name;
    for (const char* alias : Aliases(inst)) EXPECT_EQ(LookupInstruction(alias), &inst) << alias;
    const auto ops = Operands(inst);
    EXPECT_EQ(inst.has_result_type, !ops.empty() && ops[0].kind == OperandKind::kIdResultType)
        << inst.name;
    ++count;
  }
  EXPECT_GT(count, 400u);
  EXPECT_LE(previous, kMaxOpcode);
}

// The compile-time facts name the instruction the tables hold for each opcode, with its class and
// whether it takes a GroupOperation.
TEST(GrammarConsistency, OpcodeFactsAgreeWithTheInstructionTables) {
  size_t count = 0;
  for (const OpcodeFact& fact : kOpcodeFacts) {
    const InstructionInfo* inst = LookupOpcode(fact.opcode);
    ASSERT_NE(inst, nullptr) << fact.name;
    EXPECT_STREQ(fact.name, inst->name);
    EXPECT_EQ(fact.klass, inst->klass) << fact.name;
    const auto ops = Operands(*inst);
    EXPECT_EQ(fact.has_group_operation, std::any_of(ops.begin(), ops.end(),
                                                    [](const OperandInfo& o) {
                                                      return o.kind == OperandKind::kGroupOperation;
                                                    }))
        << fact.name;
    ++count;
  }
  EXPECT_EQ(count, AllInstructions().size());
}

TEST(GrammarConsistency, EveryEnumerantIsFoundByValueAndName) {
  for (int k = 0; k < kNumOperandKinds; ++k) {
    const OperandKind kind = static_cast<OperandKind>(k);
    const OperandKindInfo& info = GetOperandKind(kind);
    EXPECT_EQ(IsIdKind(kind), info.category == OperandCategory::kId) << info.name;
    const auto enumerants = Enumerants(kind);
    for (size_t i = 0; i < enumerants.size(); ++i) {
      const EnumerantInfo& e = enumerants[i];
      EXPECT_EQ(e.kind, kind) << e.name;
      if (i > 0) {
        EXPECT_LT(enumerants[i - 1].value, e.value) << info.name << " " << e.name;
      }
      EXPECT_EQ(LookupEnumerant(kind, e.value), &e) << info.name << " " << e.name;
      EXPECT_EQ(LookupEnumerant(kind, std::string_view(e.name)), &e) << info.name << " " << e.name;
      for (const char* alias : Aliases(e)) {
        EXPECT_EQ(LookupEnumerant(kind, std::string_view(alias)), &e) << alias;
      }
    }
    // Small values are found by index, larger ones by hash: both answer exactly the enumerants
    // there are, and nothing for the values in between.
    size_t found = 0, expected = 0;
    for (uint32_t v = 0; v < 200; ++v) {
      const EnumerantInfo* e = LookupEnumerant(kind, v);
      if (e == nullptr) continue;
      ++found;
      EXPECT_EQ(e->kind, kind) << info.name << " " << v;
      EXPECT_EQ(e->value, v) << info.name << " " << v;
    }
    for (const EnumerantInfo& e : enumerants) expected += e.value < 200;
    EXPECT_EQ(found, expected) << info.name;
  }
}

}  // namespace
}  // namespace coopspv::grammar
