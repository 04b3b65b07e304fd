// --lower-coop-matrix2=<subgroup size>[,<device profile>]: rewrites SPV_NV_cooperative_matrix2 and
// SPV_NV_tensor_addressing onto plain SPV_KHR_cooperative_matrix at Subgroup scope, Workgroup
// memory and ordinary code, so that a driver with only VK_KHR_cooperative_matrix runs the module
// (and, after --lower-coop-matrix=S, a driver with no cooperative support). The module must then
// run with a subgroup of exactly S invocations (S = the argument), all of them active where the
// original used a matrix.
//
// The semantics below were checked against NVIDIA's driver: the kernels of
// test/run/lower_coop_matrix2/native (as written) give, on an H200, exactly what that folder's
// generate.py computes from these rules, and the same kernels lowered give it on lavapipe.
//
// This is the first slice of the pass; what it lowers:
// - Tensor layouts become plain values. OpTypeTensorLayoutNV with Dim D (a constant) becomes, with
//   the same id, a struct of 5 * D + 1 32-bit unsigned integers: the dimensions (members 0 .. D-1),
//   the strides (D .. 2D-1), the slice offsets (2D .. 3D-1), the slice spans (3D .. 4D-1), the
//   clamp value (4D) and the block sizes (4D+1 .. 5D). Variables, loads, stores, OpPhi and
//   function parameters of the type keep their meaning. OpCreateTensorLayoutNV is a constant
//   (everything 0, block sizes 1); OpTensorLayoutSetDimensionNV sets the dimensions, makes the
//   strides packed (stride[D-1] = 1, stride[i] = stride[i+1] * dimension[i+1]) and the slice the
//   whole tensor (offsets 0, spans = dimensions); OpTensorLayoutSetStrideNV sets the strides;
//   OpTensorLayoutSliceNV adds its offsets to the slice offsets and replaces the spans;
//   OpTensorLayoutSetClampValueNV sets the clamp value; OpTensorLayoutSetBlockSizeNV sets the
//   block sizes. All are OpCompositeInsert chains. For a layout type that some
//   OpTensorLayoutSetBlockSizeNV sets, the packed strides count blocks: stride[i] = stride[i+1]
//   * ceil(dimension[i+1] / block size[i+1]), with the block sizes the layout has when its
//   dimensions are set (a Q4 tensor of M x K elements in blocks of 1 x 32 has K / 32 blocks a
//   row; the H100 golden data of test/run/native/cm2_decode_q4 is computed that way).
// - OpCooperativeMatrixLoadTensorNV / OpCooperativeMatrixStoreTensorNV of a Subgroup-scope R x C
//   matrix without DecodeFunc / DecodeVectorFunc (views below). Element (r, c) of the matrix is
//   element e = r * C + c of
//   the slice enumerated row-major over its spans (the last dimension fastest; for D = 2 and spans
//   (R, C): tensor coordinate (offset0 + r, offset1 + c)). Its address is Pointer plus the sum
//   of coordinate[i] * stride[i] elements of the component type (SPV_NV_cooperative_matrix2:
//   "multiplied by the size of the component type ... treated as a byte offset from Pointer"):
//   Pointer's access chain with its last index moved when Pointer points to the component type,
//   else as below ("Pointers to other types"). An element is in
//   bounds when every coordinate, unsigned, is below its dimension. Loads by clamp mode:
//   Undefined and Constant give the clamp value (its low bits, reinterpreted as the component
//   type) out of bounds and read an in-bounds element instead (coordinate 0); ClampToEdge clamps
//   each coordinate, as a signed integer, to [0, dimension - 1]; Repeat takes it modulo the
//   dimension (in [0, dimension)); RepeatMirrored reflects without repeating the edge
//   element: t = coordinate modulo 2 * (dimension - 1), read t below the dimension, else
//   2 * (dimension - 1) - t (what NVIDIA's driver does: measured on an H200 with
//   test/run/lower_coop_matrix2/native/tensor_mirrored.amber; a dimension of 1 reads 0).
//   Remainders of negative coordinates go through OpUMod of ~coordinate (NVIDIA's driver
//   computes OpSRem of a negative dividend as if unsigned; lavapipe's OpSMod is wrong for one).
//   Stores write the in-bounds elements only, whatever the clamp mode.
// - DecodeFunc (loads): element (r, c) at clamped coordinates x is DecodeFunc(block pointer,
//   block coordinates x / block size, coordinates in the block x % block size), the block pointer
//   being Pointer plus sum((x[i] / block size[i]) * stride[i]) times the size of DecodeFunc's
//   pointee (its pointer type's ArrayStride if it has one, else the end of its last member; a
//   trailing runtime array adds nothing).
//   When Pointer is a PhysicalStorageBuffer pointer, that is an OpPtrAccessChain from Pointer
//   bitcast to a pointer to the pointee with that ArrayStride, and DecodeFunc is called as it is.
//   When Pointer is a StorageBuffer (descriptor) pointer, SPIR-V has no way to turn it into an
//   address, so DecodeFunc is cloned, once per descriptor variable, to take the block's byte
//   offset in the variable's block (a uint32) instead: in the clone every PhysicalStorageBuffer
//   pointer is such an offset. Access chains add their members' Offset and their elements'
//   ArrayStride (OpPtrAccessChain: the pointer type's ArrayStride), bitcasts between pointer
//   types keep the offset, Function variables, OpPhi, OpSelect and parameters hold it, a function
//   called with (or returning) one is cloned the same way, OpPtrEqual / OpPtrNotEqual /
//   OpPtrDiff compare offsets, and a conversion to a 64-bit integer gives 2^32 + offset (never
//   null; the low bits, which alignment tests read, are the offset's; back: its low 32 bits).
//   Loads and stores through an offset read and write the value one scalar at a time (members at
//   their Offset, elements at their ArrayStride) through aliases of the descriptor variable
//   (below). A block pointer read from or written to other memory, or kept in a composite, fails.
//   This is plain Logical-addressing SPIR-V (no VariablePointers: no pointer crosses a call).
//   DecodeVectorFunc is dropped: calling DecodeFunc for every element is always allowed.
// - Pointers to other types: a tensor access whose Pointer points to another type than the
//   component type (ggml's byte buffers), and DecodeFunc's blocks, address memory by bytes. A
//   PhysicalStorageBuffer Pointer is bitcast to a pointer to the component type (or block) with
//   its size as ArrayStride and stepped with OpPtrAccessChain (every access Aligned to the
//   component's size). A StorageBuffer Pointer (an access chain into a descriptor variable,
//   through constant indices into an array of blocks) becomes a byte offset in the variable's
//   block (member Offsets, ArrayStrides); a scalar of type T at byte b is element b / sizeof(T)
//   of an alias of the variable: a variable of the same DescriptorSet and Binding whose block is
//   a runtime array of T (ArrayStride sizeof(T)), NonWritable / NonReadable when the original's
//   whole block is, added to the entry points' interfaces (the original loses Restrict, which
//   the alias would contradict). Vulkan allows several variables on one binding (ggml's shaders
//   declare such aliases themselves). Every scalar must lie at a multiple of its size, as Vulkan
//   requires of buffer accesses (a misaligned Pointer would be one for the original too). Measured
//   on an H200 (test/run/lower_coop_matrix2/decode_bytes): float and float16 elements at a uint8
//   Pointer 16 bytes in, and 18-byte blocks from byte 4, read as described; a float16 load whose
//   Pointer was 2 bytes in read from byte 0, as if such a Pointer were 16-byte aligned.
// - Tensor views without dimensions (HasDimensions false): OpTypeTensorViewNV becomes a struct of
//   4 uint32, the clip (row offset, row span, column offset, column span; OpCreateTensorViewNV:
//   0, 0xFFFFFFFF, 0, 0xFFFFFFFF; OpTensorViewSetClipNV sets them); its permutation p stays in the
//   type: the slice is enumerated row-major over the view's dimensions, view dimension k being
//   layout dimension p[k] (2-D p = (1, 0) reads an N x K tensor as a K x N matrix). The clip
//   rectangle of the matrix (rows ro .. ro + rs - 1, columns co .. co + cs - 1, cs at most C - co)
//   is what maps to the slice: element (r, c) in it is element (r - ro) * cs + (c - co) of the
//   slice. A load through a view starts from Object (stored into the region) and replaces only
//   the elements in the clip rectangle; a store writes only those (and only in bounds).
// - Tensor views with dimensions (HasDimensions true) become a struct of 4 + 2 * Dim uint32: the
//   clip as above, then the dimensions (OpTensorViewSetDimensionNV, which also makes the strides
//   packed: stride[Dim - 1] = 1, stride[k] = stride[k + 1] * dimension[k + 1]) and the strides
//   (OpTensorViewSetStrideNV), all 0 when created. Through such a view, the element's index in
//   the clip rectangle (above) enumerates the view's dimensions row-major in the permutation's
//   order (dimension p[0] outermost, p[Dim - 1] fastest), the sum of those coordinates times
//   the view's strides is the index into the slice, and the slice is enumerated row-major over
//   its spans in the layout's own order, modulo its element count (an index past the slice
//   wraps). Measured on an H200 (NVIDIA 580.159.04) with the native script of
//   test/run/lower_coop_matrix2/tensor_view_dims (p = (1, 0, 2), strides (8, 0, 1) and packed):
//   every element as NVIDIA's driver gives it. A view without dimensions is the same with
//   dimensions = the spans and packed strides.
// - OpCooperativeMatrixTransposeNV: the matrix is stored row-major into the region and loaded
//   column-major with the same stride. OpCooperativeMatrixConvertUseEXT / ConvertNV: stored and
//   loaded row-major as the other Use.
// - OpCooperativeMatrixPerElementOpEXT / NV: after storing the matrix, each invocation calls
//   Func(row, column, element, Operands...) (a plain OpFunctionCall; row = e / C, column = e % C)
//   for its elements and writes the results (to the region of the result's component type);
//   the result is loaded from there. An operand that is itself a matrix of the same shape (GLSL
//   passes the row maximum of a softmax that way) passes its element (row, column): the k-th such
//   operand is stored (k + 1) * R * C elements into its component's region first.
// - A conversion between component types (OpFConvert, OpSConvert, OpUConvert, OpConvert*To*)
//   whose result has another Use than its operand (CooperativeMatrixConversionsNV): the operand
//   is stored, each invocation converts its elements (the scalar conversion) into the region of
//   the result's component type, and the result is loaded from there (no matrix of the result's
//   component type at the operand's Use, which a device may not list: a bfloat16 accumulator).
// - Workgroup-scope matrices: the matrix VALUES are replicated, the WORK is shared. An R x C
//   Workgroup-scope matrix type becomes the R x C Subgroup-scope type (same component type and
//   Use), and every subgroup holds the whole matrix: OpCooperativeMatrixLoadKHR, arithmetic and
//   OpPhi on it run in every subgroup as they are. That is correct because a Workgroup-scope
//   matrix has one value for the whole workgroup and its instructions run in workgroup-uniform
//   control flow, so each subgroup computes that value. OpCooperativeMatrixStoreKHR of such a
//   matrix runs in subgroup 0 only (SubgroupId == 0, a structured selection), so no two
//   invocations write the same element. The work is shared when every entry point has the same
//   workgroup size N (W = N / S subgroups); the shared instructions use ONE region of a separate
//   Workgroup array per component type (not one per subgroup) and Workgroup-scope barriers:
//   - OpCooperativeMatrixMulAddKHR (R x K times K x C), split by rows when W divides R and
//     (R / W) * K and (R / W) * C are multiples of S: subgroup 0 stores A and C into the region
//     (A at 0, C after it when they have one component type), barrier, subgroup g loads rows
//     [g * R / W, (g + 1) * R / W) of A and of C as Subgroup-scope (R / W) x K (Use A) and
//     (R / W) x C (Use Accumulator) matrices, multiplies them by the whole B (which every
//     subgroup holds) and stores its result rows where its C rows were, barrier, and every
//     subgroup loads the whole result. Each subgroup does 1 / W of the multiply-adds, in the
//     shape (R / W) x K x C. Not in a loop header block (that one stays replicated).
//   - The instructions this pass lowers element by element (tensor loads and stores, DecodeFunc,
//     per-element operations, reductions, transposes, Use conversions), when N divides the
//     element count of each matrix the instruction reads or writes: subgroup 0 stores the matrix
//     into the region (KHR, in a selection), invocation LocalInvocationIndex handles elements
//     e = index + j * N (R * C / N of them; a 2x2 reduction's result has a quarter), and every
//     subgroup loads the result whole (KHR). A tensor store's element writes then need no
//     subgroup test: each element has one owner.
//   Otherwise (several workgroup sizes, or sizes that do not divide) the instruction runs in every
//   subgroup by itself, in its own region, as for a Subgroup-scope matrix, and only subgroup 0's
//   tensor store writes (its element writes are ANDed with SubgroupId == 0). Workgroup memory is
//   then what one instruction stores at once (R * C elements per matrix), no longer times the
//   subgroups: cm2_softmax_reduce's 64 x 64 tiles in 16 subgroups of 8 need 42 KiB instead of 672
//   KiB, cm2_decode_q4's 128 x 128 ones 104 KiB (72 KiB with the multiply-adds replicated: the
//   tensor store of the float result alone needs 64 KiB). The cost left: every subgroup holds every
//   matrix whole (after --lower-coop-matrix=S, R * C / S elements an invocation), the shared steps
//   move whole matrices through Workgroup memory, and outside the multiply-add the shapes are the
//   Workgroup ones, so the output runs where the driver supports them at Subgroup scope, or
//   anywhere after --lower-coop-matrix=S. With a device profile (--lower-coop-matrix2=S,<profile>;
//   --legalize-for-device gives its own for a device with KHR matrices), a multiply-add is split by
//   rows only when each subgroup's rows are a multiple of the smallest M the profile lists, and the
//   output then goes through --tile-coop-matrix (tile_coop_matrix.cc): every Subgroup-scope type
//   the device does not list becomes an array of listed tiles in each subgroup (same memory, same
//   barriers), so only listed shapes remain; a type or multiply-add no listed shape takes, not
//   even as tiles (the kernel's own float32 operands or 8 x 16 integer accumulators on the
//   H100), is refused naming its shape and component types, since the device would refuse the
//   output. The profile's maxComputeSharedMemorySize bounds the
//   output (with or without tiling: --legalize-for-device passes its profile's limit for any
//   device): the Workgroup bytes of each entry point (the module's own Workgroup variables, those
//   of its interface from SPIR-V 1.4, plus every region array) are counted after lowering; above
//   the limit, the module is lowered again with the split multiply-add whose regions need the most
//   replicated (no region for it; the regions are then sized for the other instructions only),
//   again until it fits, and if it does not with every multiply-add replicated the pass fails
//   naming the instruction whose regions need the most bytes, those bytes, the module's total and
//   the limit (cm2_decode_q4 on the H100: its 128 x 128 float tensor store needs 64 KiB, 72 KiB in
//   all, above 48 KiB). Then, before refusing, the module is lowered again with its Workgroup
//   matrices in row bands (band_coop_matrix2.cc: each type whose instructions all work row by row
//   becomes an array of H x C bands, every instruction done band by band, so the regions are a
//   band's), H from 128 down to the profile's smallest M, the tallest that fits:
//   cm2_decode_q4 then needs 8 KiB of halves and 32 KiB of floats (bands of 64). Reductions of
//   every kind and per-element operations go in bands too (cm2_softmax_reduce on lavapipe).
// - Before all that, each subgroup OWNS its rows of the Workgroup-scope matrices that allow it
//   (band_coop_matrix2.cc, "Owned rows": W subgroups, bands of R / W rows a multiple of the
//   profile's smallest M): such a type becomes the Subgroup-scope band, its instructions work on
//   the subgroup's rows only (a multiply-add's B stays Workgroup-scope, shared as above), and
//   they go through per-subgroup regions. Those regions hold W bands, a whole matrix: where the
//   output does not fit, the owned instructions whose regions need the most (at least half of
//   the most, again while it does not fit) run in rounds (2, 4, ... W): after a Workgroup
//   barrier, in round r the subgroups g with g % rounds = r, in region g / rounds laid out for
//   that instruction alone, a Workgroup barrier after each round (the rounds then share the
//   regions); the other instructions keep a region each subgroup. Where not even W rounds fit,
//   the module is lowered without owned rows, as above. ggml's flash attention at 64 query rows (4 subgroups
//   of 16 rows): one subgroup's rows per multiply-add instead of 64 in every subgroup. The
//   environment variable COOPSPV_OWN_ROWS=0 turns owned rows off (to compare the two).
// - OpCooperativeMatrixReduceEXT / NV: after storing the matrix, the invocations compute the
//   result: CombineFunc folded left to right over each row (Row: one value a row), each column
//   (Column: one a column), all elements (Row|Column, computed once) or each result element's
//   2x2 block (2x2), and write those values after the matrix in the region, where the result is
//   loaded from: a Row result column-major and a Column result row-major, both with Stride 0, so
//   that every element of a row (column) reads its row's (column's) value; 2x2 row-major. Row |
//   Column gives one
//   value: every invocation folds the whole matrix, and the result is OpCompositeConstruct of
//   that value (a replicated matrix, whose elements the validator's uniformity analysis knows
//   agree: ggml's flash attention branches on element 0 of such a reduction).
//
// Data layout (a shared Workgroup-scope instruction, above, uses the workgroup's one region,
// LocalInvocationIndex and Workgroup-scope barriers instead of the subgroup's region,
// SubgroupLocalInvocationId and Subgroup-scope barriers). Each subgroup owns a private region of
// a Workgroup array per component type:
// region g (g = SubgroupId) starts at g * T, where T is the most elements any lowered
// instruction of that component type needs (R * C; a reduction needs its input's and its
// result's), and the array holds ceil(workgroup size / S) regions. Invocation `lane`
// (SubgroupLocalInvocationId; the module's own variables for these builtins are used when it has
// them) handles elements e = lane + j * S for j = 0 .. ceil(R * C / S) - 1, in a loop over j
// (when S does not divide R * C, the code for an element is in a selection that e < R * C
// enters). A load: each invocation computes its elements, each from its own address
// in the tensor, writes them to region[e]; an OpControlBarrier at Subgroup scope
// (WorkgroupMemory, AcquireRelease, plus MakeAvailable / MakeVisible under the Vulkan memory
// model, where the region accesses are NonPrivatePointer) orders those writes before
// OpCooperativeMatrixLoadKHR of the region (RowMajor, stride C); a second barrier orders that read
// before the next use of the region writes it. A store runs the other way:
// OpCooperativeMatrixStoreKHR into the region, barrier, each invocation reads its elements back
// and writes the in-bounds ones (a structured selection in the loop), barrier. The other
// instructions store (KHR), barrier, compute per element, barrier, load (KHR), barrier. Matrices
// stay Subgroup-scope KHR values in between; nothing else moves.
//
// The loops split the block that held the instruction: the code after it continues in the
// loop's merge block, and OpPhi that named the block as a parent name its last piece. An
// instruction in a loop header block (which must stay one block) is not lowered yet.
//
// Everything else of the two extensions fails, naming the instruction and saying it is not
// lowered yet: clamp modes given by spec constants, transposes and Use conversions between
// component types. Afterwards none of the matrix2 / tensor-addressing capabilities and extensions
// remain, nor SPV_EXT_cooperative_matrix_maintenance1 (whose Use conversions, reductions and
// per-element operations this pass lowers under their EXT names too) unless the module declares
// CooperativeMatrixGetCoordinateEXT, which is left alone.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "source/binary/reader.h"
#include "source/common/literal.h"
#include "source/grammar/elementwise.h"
#include "source/grammar/grammar.h"
#include "source/ir/analyses.h"
#include "source/ir/declarations.h"
#include "source/ir/scalar_eval.h"
#include "source/ir/workgroup_size.h"
#include "source/opt/band_coop_matrix2.h"
#include "source/opt/passes.h"
#include "source/opt/tile_coop_matrix.h"

namespace coopspv::opt {
namespace {

using ir::Id;
using ir::InstIndex;
using spv::Op;

constexpr uint32_t U(auto e) { return static_cast<uint32_t>(e); }

// Capabilities and extensions that the lowering removes (everything that needs them either is
// lowered or makes the pass fail).
constexpr spv::Capability kMatrix2Capabilities[] = {
    spv::Capability::CooperativeMatrixReductionsNV,
    spv::Capability::CooperativeMatrixConversionsNV,
    spv::Capability::CooperativeMatrixPerElementOperationsNV,
    spv::Capability::CooperativeMatrixTensorAddressingNV,
    spv::Capability::CooperativeMatrixBlockLoadsNV,
    spv::Capability::TensorAddressingNV,
    spv::Capability::CooperativeMatrixDecodeVectorNV,
    static_cast<spv::Capability>(5429),  // CooperativeMatrixConversionsEXT (Use conversions).
};
// SPV_EXT_cooperative_matrix_maintenance1 goes too unless its OpCooperativeMatrixGetCoordinateEXT
// (capability 5438), which this pass leaves alone, is declared.
constexpr uint32_t kGetCoordinateCapability = 5438;
constexpr std::string_view kMatrix2Extensions[] = {
    "SPV_NV_cooperative_matrix2",
    "SPV_NV_tensor_addressing",
    "SPV_NV_cooperative_matrix_decode_vector",
};

bool IsMatrix2Capability(uint32_t c) {
  return std::any_of(std::begin(kMatrix2Capabilities), std::end(kMatrix2Capabilities),
                     [c](spv::Capability k) { return U(k) == c; });
}

// Memory access and memory semantics bits.
constexpr uint32_t kAligned = 0x2;
constexpr uint32_t kMakePointerAvailable = 0x8;
constexpr uint32_t kMakePointerVisible = 0x10;
constexpr uint32_t kNonPrivatePointer = 0x20;
constexpr uint32_t kAcquireRelease = 0x8;
constexpr uint32_t kWorkgroupMemory = 0x100;
constexpr uint32_t kMakeAvailable = 0x2000;
constexpr uint32_t kMakeVisible = 0x4000;

// The lowered instructions on matrices (their code may split the block).
bool Splits(Op op) {
  switch (op) {
    case Op::CooperativeMatrixLoadTensorNV:
    case Op::CooperativeMatrixStoreTensorNV:
    case Op::CooperativeMatrixTransposeNV:
    case Op::CooperativeMatrixConvertUseEXT:
    case Op::CooperativeMatrixPerElementOpEXT:
    case Op::CooperativeMatrixReduceEXT:
      return true;
    default:
      return false;
  }
}

enum ClampMode : uint32_t {
  kUndefined = 0,
  kConstant = 1,
  kClampToEdge = 2,
  kRepeat = 3,
  kRepeatMirrored = 4,
};

struct LayoutType {
  uint32_t dim = 0;
  uint32_t clamp_mode = 0;
  uint32_t Dimension(uint32_t i) const { return i; }
  uint32_t Stride(uint32_t i) const { return dim + i; }
  uint32_t Offset(uint32_t i) const { return 2 * dim + i; }
  uint32_t Span(uint32_t i) const { return 3 * dim + i; }
  uint32_t ClampValue() const { return 4 * dim; }
  uint32_t BlockSize(uint32_t i) const { return 4 * dim + 1 + i; }
  uint32_t members() const { return 5 * dim + 1; }
};

struct MatrixInfo {
  Id type = 0;
  Id component = 0;
  uint32_t rows = 0, cols = 0;
};

// A tensor view without dimensions: the permutation (view dimension k is layout dimension
// permutation[k]) and, as a struct of 4 uint32, the clip: row offset, row span, column offset,
// column span.
struct ViewType {
  std::vector<uint32_t> permutation;
  bool has_dimensions = false;  // Then the clip is followed by Dim dimensions and Dim strides.
};

// A descriptor variable read and written at byte offsets (head comment: Pointer to another type
// than the component type, DecodeFunc's block pointer), through aliases of its binding.
struct Buffer {
  Id variable = 0;
  std::vector<Id> leading;  // Constant indices into an array of blocks (a descriptor array).
  uint32_t first = 0;       // Word of Pointer's access chain that indexes into the block.
};

// How a tensor access reaches its elements (or DecodeFunc's blocks).
enum class Addressing {
  kChain,     // Pointer's access chain with its last index moved (Pointer to the component type).
  kBuffer,    // Byte offsets into Pointer's descriptor variable (Buffer), through its aliases.
  kPhysical,  // OpPtrAccessChain from Pointer (PhysicalStorageBuffer), bitcast to a strided type.
};

// A tensor load's or store's operands.
struct TensorAccess {
  InstIndex inst = ir::kNoInst;
  Id matrix_type = 0;
  Id pointer = 0;
  Id object = 0;  // The stored matrix.
  Id layout = 0;  // The layout value.
  const LayoutType* layout_type = nullptr;
  Id view = 0;  // The view value, 0 for none.
  const ViewType* view_type = nullptr;
  std::vector<uint32_t> memory_operands;  // For each element access (Aligned dropped).
  Id decode = 0;                          // DecodeFunc, 0 for none.
  Id block_pointer = 0;                   // DecodeFunc's first parameter type.
  uint32_t block_bytes = 0;               // The size of its pointee.
  Addressing addressing = Addressing::kChain;
  Buffer buffer;  // kBuffer.
  // kBuffer: Pointer's byte offset in its block; kPhysical: Pointer bitcast to `strided` (a
  // pointer to the component type, or to DecodeFunc's block, with that size as ArrayStride).
  Id base = 0, strided = 0;
  std::vector<uint32_t> element_operands;  // Memory operands of each element access.
  Id component = 0;
  uint32_t width = 0;
  bool is_float = false;
  uint32_t rows = 0, cols = 0;
};

class Lowering {
 public:
  Lowering(const ir::Module& m, uint32_t subgroup_size)
      : m_(m), s_(subgroup_size), next_id_(m.bound()) {}

  std::unique_ptr<ir::Module> Run(std::string* error, bool* changed);
  // A multiply-add is split by rows only when each subgroup's rows are a multiple of this (the
  // smallest tile height of the device, so that --tile-coop-matrix can tile the pieces).
  void set_split_rows_multiple(uint32_t rows) { split_rows_multiple_ = rows; }
  // These Workgroup-scope multiply-adds (by instruction) stay replicated: no region for them.
  void set_replicated(std::set<InstIndex> replicated) { replicated_ = std::move(replicated); }
  // Matrix types whose rows the subgroups own (OwnCoopMatrix2Rows): their instructions run in
  // workgroup-uniform control flow. An instruction on them that goes through its subgroup's
  // region and has `rounds` k > 1 (a power of 2 below the subgroups) runs in k rounds, the
  // subgroups g with g % k = r in round r, after a Workgroup barrier and with one after each
  // round, so that the subgroups of different rounds share a region (g / k): 1 / k of the
  // regions, for that instruction only.
  void set_owned(std::set<Id> owned, std::map<InstIndex, uint32_t> rounds) {
    owned_ = std::move(owned);
    rounds_ = std::move(rounds);
  }
  // After Run: the owned instructions that go through their subgroups' regions, with the bytes
  // those regions take (all subgroups, in the instruction's rounds) and the instruction's rounds.
  struct OwnedNeed {
    InstIndex at;
    uint64_t bytes;
    uint32_t rounds;
  };
  const std::vector<OwnedNeed>& owned_needs() const { return owned_needs_; }
  uint32_t subgroups() const { return num_subgroups_; }
  // After Run: the multiply-adds split by rows, each with the bytes its regions need.
  const std::vector<std::pair<InstIndex, uint64_t>>& split_mul_adds() const {
    return split_mul_adds_;
  }

  // After Run: the most bytes of Workgroup memory one entry point of the output declares (its own
  // Workgroup variables and every region), the bytes of its own variables alone, and the
  // instruction whose regions need the most bytes (kNoInst when none has a region) with them.
  uint64_t workgroup_bytes() const { return own_bytes_ + region_bytes_; }
  uint64_t own_workgroup_bytes() const { return own_bytes_; }
  InstIndex largest_need_at() const { return largest_need_at_; }
  uint64_t largest_need() const { return largest_need_; }
  std::string Describe(InstIndex i) const { return DescribeInstruction(m_, i); }

 private:
  uint32_t split_rows_multiple_ = 1;
  std::set<InstIndex> replicated_;
  std::vector<std::pair<InstIndex, uint64_t>> split_mul_adds_;
  void Fail(InstIndex i, const std::string& what) {
    if (error_.empty()) error_ = DescribeInstruction(m_, i) + ": " + what;
  }
  bool failed() const { return !error_.empty(); }

  std::optional<uint32_t> ConstantValue(Id id) const { return ir::ConstantValue(m_, id); }

  // ---- Output
  // A type or constant declared once per distinct operands (never the module's own).
  Id Declare(std::vector<uint32_t>& section, Op op, std::span<const uint32_t> operands) {
    return declarations_.FindOrAppend(op, operands, ir::Declarations::Reuse::kNever, &section,
                                      &next_id_);
  }
  Id Declare(std::vector<uint32_t>& section, Op op, std::initializer_list<uint32_t> operands) {
    return Declare(section, op, std::span<const uint32_t>(operands.begin(), operands.size()));
  }
  Id U32() { return Declare(scalar_types_, Op::TypeInt, {32, 0}); }
  Id Bool() { return Declare(scalar_types_, Op::TypeBool, {}); }
  Id Const(uint32_t v) { return Declare(constants_, Op::Constant, {U32(), v}); }
  Id Pointer(spv::StorageClass sc, Id type) {
    return Declare(derived_, Op::TypePointer, {U(sc), type});
  }
  Id Emit(Op op, Id type, std::vector<uint32_t> operands, Id result = 0) {
    if (!result) result = next_id_++;
    if (result == renamed_result_) result = round_result_;
    operands.insert(operands.begin(), {type, result});
    Put(body_, op, operands);
    return result;
  }
  void EmitVoid(Op op, std::initializer_list<uint32_t> operands) { Put(body_, op, operands); }
  Id InputBuiltin(Id* variable, spv::BuiltIn builtin) {
    if (!*variable) *variable = FindInputBuiltin(m_, builtin);
    if (!*variable) {
      *variable = next_id_++;
      Put(derived_, Op::Variable,
          {Pointer(spv::StorageClass::Input, U32()), *variable, U(spv::StorageClass::Input)});
      Put(decorations_, Op::Decorate, {*variable, U(spv::Decoration::BuiltIn), U(builtin)});
    }
    return *variable;
  }
  Id Scratch(Id component, uint32_t elements) {
    auto [it, fresh] = (shared_ ? shared_scratch_ : scratch_).emplace(component, ScratchArray{});
    if (fresh) {
      // The subgroups' regions and the workgroup's of a component type are one array: every
      // region lives within one instruction, and a shared instruction starts with a Workgroup
      // barrier where both kinds exist (mixed_regions_).
      const auto& other = shared_ ? scratch_ : shared_scratch_;
      auto same = other.find(component);
      it->second.variable = same != other.end() ? same->second.variable : next_id_++;
    }
    if (round_count_ > 1) {
      // The rounds' regions: (subgroups / rounds) of them, laid out for this instruction alone.
      const uint32_t all = elements * (num_subgroups_ / round_count_);
      round_elements_[component] = std::max(round_elements_[component], all);
      uint32_t& need = need_[{component, true}];
      need = std::max(need, all);
      return it->second.variable;
    }
    it->second.elements = std::max(it->second.elements, elements);
    uint32_t& need = need_[{component, shared_}];
    need = std::max(need, elements);
    return it->second.variable;
  }
  // Bytes of a region array of `elements` elements a region (one region when shared, else one a
  // subgroup).
  uint64_t RegionBytes(Id component, uint32_t elements, bool shared) const {
    return uint64_t{elements} * ScalarBytes(component) * (shared ? 1 : num_subgroups_);
  }
  uint32_t ScalarBytes(Id type) const {
    const InstIndex d = m_.Def(type);
    if (d == ir::kNoInst || m_.num_words(d) < 3) return 4;
    const Op op = m_.opcode(d);
    return op == Op::TypeInt || op == Op::TypeFloat ? std::max(1u, m_.word(d, 2) / 8) : 4;
  }
  // The bytes of the module's own Workgroup variables, the most any entry point declares.
  uint64_t OwnWorkgroupBytes() const;
  // A barrier at the scope of the instruction being lowered (the workgroup's when shared_).
  void Barrier() { Barrier(shared_ ? spv::Scope::Workgroup : spv::Scope::Subgroup); }
  void Barrier(spv::Scope scope) {
    uint32_t semantics = kAcquireRelease | kWorkgroupMemory;
    if (vulkan_memory_model_) {
      semantics |= kMakeAvailable | kMakeVisible;
    }
    const Id id = Const(U(scope));
    EmitVoid(Op::ControlBarrier, {id, id, Const(semantics)});
  }
  // g * T, with T patched in once every region size is known (region_uses_).
  Id RegionStart(Id group, Id component) {
    region_uses_.push_back({body_.size() + 4, component});
    return Emit(Op::IMul, U32(), {group, 0});
  }
  // Memory operands of the scratch accesses.
  std::vector<uint32_t> ScratchAccess() const {
    if (!vulkan_memory_model_) return {};
    return {kNonPrivatePointer};
  }

  // ---- Lowering
  bool ReadEnvironment();
  void LowerGlobal(InstIndex i, std::vector<uint32_t>& globals);
  bool LowerFunction(const ir::Function& f);
  void LowerLayoutOp(InstIndex i);
  bool ReadTensorAccess(InstIndex i, bool store, TensorAccess* a);
  // The address of element e (a uint32 id) of the access's slice, and whether it is in bounds;
  // for loads, the address of an element that stands in for an out-of-bounds one.
  // With `clamped`, no address: the coordinates (clamped for the load) go there instead.
  std::pair<Id, Id> ElementAddress(const TensorAccess& a, Id e, bool load,
                                   std::vector<Id>* clamped = nullptr);
  // Checks DecodeFunc's signature and sets the access's block pointer type and its size.
  bool ReadDecodeFunc(InstIndex i, TensorAccess* a);
  // The code before the element loop: Pointer's byte offset (kBuffer) or strided pointer
  // (kPhysical), and the memory operands of each element access.
  void PrepareAddressing(TensorAccess* a);
  // The value of the element at the (clamped) coordinates through DecodeFunc.
  Id Decode(const TensorAccess& a, const std::vector<Id>& coordinate);

  // ---- Memory at byte offsets (head comment: "Pointers to other types")
  // Decorations of the module: (target, member or kWhole, decoration) -> first literal (0 when
  // it has none).
  static constexpr uint32_t kWhole = ~0u;
  std::optional<uint32_t> DecorationOf(Id target, spv::Decoration d,
                                       uint32_t member = kWhole) const {
    auto it = decoration_values_.find({target, member, U(d)});
    if (it == decoration_values_.end()) return std::nullopt;
    return it->second;
  }
  bool IsPhysicalPointer(Id type) const {
    const InstIndex d = m_.Def(type);
    return d != ir::kNoInst && m_.opcode(d) == Op::TypePointer &&
           m_.word(d, 2) == U(spv::StorageClass::PhysicalStorageBuffer);
  }
  // The bytes a value of `type` spans in explicitly laid-out memory (what a pointer to it steps
  // over): scalars their width, vectors their components, arrays length * ArrayStride, structs
  // up to the end of their last member (a runtime array ends at its Offset); nullopt for other
  // types or missing decorations.
  std::optional<uint32_t> LaidOutBytes(Id type) const;
  // The (type, byte offset) of each component, element or member of a laid-out vector, array or
  // struct; empty for other types.
  std::vector<std::pair<Id, uint32_t>> LaidOutParts(Id type) const;
  // `value` (an integer of the module's type `type`) as a uint32: a signed one is reinterpreted,
  // another width converted.
  Id IndexAsU32(Id value, Id type);
  // byte + n (byte itself for n = 0).
  Id AddBytes(Id byte, uint32_t n) {
    if (byte == Const(0)) return Const(n);
    return n ? Emit(Op::IAdd, U32(), {byte, Const(n)}) : byte;
  }
  // One access-chain step from a value of *type at *byte: a struct member's Offset, an array
  // element's ArrayStride, a vector component's size; *type becomes what the index selects.
  // `index` is the module's id (a constant is folded in), `value` the id to compute with (a
  // clone's copy of it; `index` itself when 0).
  bool StepInto(InstIndex at, Id* type, Id index, Id* byte, Id value = 0);
  // Pointer as an access chain into a StorageBuffer descriptor variable.
  bool ReadBuffer(InstIndex at, Id pointer, Buffer* buffer);
  // The byte offset in its block of what an access chain into the buffer points to.
  Id ChainBytes(InstIndex at, InstIndex chain, const Buffer& b);
  // A pointer to the `scalar` at `byte` in the buffer: an alias of its binding whose block is
  // an array of that scalar type, indexed by byte / size.
  Id ScalarPointer(const Buffer& b, Id scalar, Id byte);
  // A value of `type` (laid out explicitly) read from / written to the buffer at `byte`, one
  // scalar at a time. `result` names the load's value (0: a new id).
  Id LoadAt(InstIndex at, const Buffer& b, Id byte, Id type, const std::vector<uint32_t>& operands,
            Id result = 0);
  void StoreAt(InstIndex at, const Buffer& b, Id byte, Id type, Id value,
               const std::vector<uint32_t>& operands);
  // A PhysicalStorageBuffer pointer type to `pointee` decorated ArrayStride `stride`.
  Id StridedPointer(Id pointee, uint32_t stride);
  // `function` cloned for the buffer (once per function and buffer): every PhysicalStorageBuffer
  // pointer in it becomes a uint32 byte offset into the buffer (head comment); the functions
  // it calls with such pointers are cloned too.
  Id OffsetClone(InstIndex at, Id function, const Buffer& b);
  // The words after the pointer (and object) of a load or store from word `w` on: its memory
  // operands without Aligned (empty when nothing is left).
  std::vector<uint32_t> MemoryOperandsWithoutAligned(InstIndex i, uint32_t w) const;
  Id ClampValueAs(const TensorAccess& a);
  // c modulo n in [0, n) for a signed c, through OpUMod of non-negative values only: c umod n
  // for c >= 0, else n - 1 - ((-c - 1) umod n), -c - 1 being ~c. (Neither OpSMod nor OpSRem:
  // lavapipe's OpSMod gives negative results for negative c, and NVIDIA's driver (580.159)
  // computes OpSRem of a negative c as if unsigned.)
  Id Modulo(Id c, Id n) {
    const Id negative = Emit(Op::SLessThan, Bool(), {c, Const(0)});
    const Id r = Emit(Op::UMod, U32(),
                      {Emit(Op::Select, U32(), {negative, Emit(Op::Not, U32(), {c}), c}), n});
    const Id reflected = Emit(Op::ISub, U32(), {Emit(Op::ISub, U32(), {n, Const(1)}), r});
    return Emit(Op::Select, U32(), {negative, reflected, r});
  }
  // With a view: whether element e lies in the clip rectangle, and its index in the clipped
  // rectangle (row-major), which is what enumerates the slice. Without: (0, e).
  std::pair<Id, Id> Clip(const TensorAccess& a, Id e);
  void LowerViewOp(InstIndex i);
  bool ReadMatrix(InstIndex i, Id type, MatrixInfo* out);
  // The calling subgroup's region of the component type's array (at least `elements` long).
  struct Region {
    Id component = 0, scratch = 0, pointer = 0, start = 0, lane = 0, group = 0;
  };
  Region RegionOf(Id component, uint32_t elements);
  // A loop over the slots j = 0 .. count-1 of each invocation (straight code for one slot): the
  // block is split (the loop's merge block continues it).
  struct SlotLoop {
    uint32_t count = 0;  // j runs from `first` to count - 1.
    Id j = 0, next = 0, header = 0, body = 0, continue_target = 0, merge = 0;
    // A value carried around the loop (when `carried` is set): `carried` in the body,
    // `carried_next` (defined by the body) after it.
    Id carried = 0, carried_next = 0;
  };
  SlotLoop BeginSlotLoop(uint32_t count, uint32_t first = 0, Id carried_type = 0,
                         Id carried_initial = 0);
  void EndSlotLoop(const SlotLoop& loop);
  // The loop over the elements e of a region that the invocations divide among themselves (e =
  // lane + j * Lanes()); when Lanes() does not divide `elements`, the last slot's code is in a
  // selection that only e < elements enter.
  struct ElementLoop {
    SlotLoop loop;
    Id e = 0, merge = 0;
  };
  ElementLoop BeginElements(const Region& r, uint32_t elements);
  void EndElements(const ElementLoop& loop);
  // CombineFunc folded left to right over the region's elements index(0) .. index(count - 1).
  Id Fold(const Region& r, Id combine, uint32_t count, const std::function<Id(Id)>& index);
  // Element j * S + lane: the one slot j of each invocation stands for.
  Id Element(const Region& r, const SlotLoop& loop) {
    if (!loop.j) return r.lane;
    return Emit(Op::IAdd, U32(), {r.lane, Emit(Op::IMul, U32(), {loop.j, Const(Lanes())})});
  }
  Id Slot(const Region& r, Id index);
  Id LoadSlot(const Region& r, Id index);
  void StoreSlot(const Region& r, Id index, Id value);
  // A KHR store of the matrix `offset` elements into the region, then a barrier.
  void StoreMatrix(const Region& r, Id matrix, bool column_major, uint32_t stride,
                   uint32_t offset = 0);
  // A barrier, a KHR load from the region's start defining `result`, a barrier.
  // `offset` elements into the region.
  void LoadMatrix(const Region& r, Id type, Id result, bool column_major, uint32_t stride,
                  uint32_t offset = 0);
  // `value` (uint32) as parameter `n` of the function type `ft` (a signed one is bitcast).
  Id AsParameter(InstIndex ft, uint32_t n, Id value) {
    const Id type = m_.word(ft, 3 + n);
    const InstIndex td = m_.Def(type);
    if (td != ir::kNoInst && m_.opcode(td) == Op::TypeInt && m_.word(td, 3) == 1) {
      return Emit(Op::Bitcast, type, {value});
    }
    return value;
  }
  void LowerTransposeOrConvertUse(InstIndex i);
  void LowerPerElementOp(InstIndex i);
  void LowerReduce(InstIndex i);
  void LowerLoadTensor(InstIndex i);
  void LowerStoreTensor(InstIndex i);
  bool IsWorkgroupStore(InstIndex i) const {
    return m_.opcode(i) == Op::CooperativeMatrixStoreKHR && m_.num_words(i) > 2 &&
           workgroup_matrices_.count(m_.TypeOf(m_.word(i, 2)));
  }
  void LowerWorkgroupStore(InstIndex i);
  void LowerWorkgroupMulAdd(InstIndex i);
  // A conversion between component types whose result has another Use than its operand.
  bool ConvertsUse(InstIndex i) const {
    const Op op = m_.opcode(i);
    if (op == Op::Bitcast || !grammar::IsCoopConversion(op)) return false;
    const InstIndex to = m_.Def(m_.type_id(i));
    const InstIndex from = m_.Def(m_.TypeOf(m_.word(i, 3)));
    return to != ir::kNoInst && from != ir::kNoInst &&
           m_.opcode(to) == Op::TypeCooperativeMatrixKHR &&
           m_.opcode(from) == Op::TypeCooperativeMatrixKHR && m_.word(to, 6) != m_.word(from, 6) &&
           ConstantValue(m_.word(to, 6)) != ConstantValue(m_.word(from, 6));
  }
  void LowerConversionWithUse(InstIndex i);

  const ir::Module& m_;
  const uint32_t s_;
  Id next_id_;
  std::string error_;
  bool vulkan_memory_model_ = false;
  uint32_t num_subgroups_ = 0;
  std::map<Id, LayoutType> layouts_;
  std::map<Id, ViewType> views_;
  std::set<Id> workgroup_matrices_;  // Workgroup-scope matrix types (now Subgroup-scope).
  std::set<Id> blocked_layouts_;     // Layout types some OpTensorLayoutSetBlockSizeNV sets.
  // Functions cloned to take byte offsets for block pointers (OffsetClone), by function, buffer
  // variable and leading indices; and the clones' code, which follows the functions.
  std::map<std::vector<uint32_t>, Id> clones_;
  std::vector<uint32_t> clone_code_;
  std::map<std::tuple<Id, uint32_t, uint32_t>, uint32_t> decoration_values_;
  // Aliases of descriptor variables, by (variable, scalar type); the variables aliased.
  std::map<std::pair<Id, Id>, Id> aliases_;
  std::set<Id> aliased_;
  std::vector<Id> alias_interface_;
  std::map<std::pair<Id, uint32_t>, Id> strided_;  // StridedPointer, by (pointee, stride).
  ir::Declarations declarations_{m_};
  std::vector<uint32_t> decorations_, scalar_types_, constants_, derived_, body_;
  Id lane_variable_ = 0, subgroup_variable_ = 0, index_variable_ = 0;
  // The workgroup size when every entry point has the same one (else 0: nothing is shared).
  uint32_t workgroup_size_ = 0;
  // The instruction being lowered works on Workgroup-scope matrices whose element loops divide
  // among the workgroup's invocations: its region is the workgroup's one, its element loops run
  // over LocalInvocationIndex and its barriers have Workgroup scope (head comment).
  bool shared_ = false;
  // Invocations that divide an element loop among themselves.
  uint32_t Lanes() const { return shared_ ? workgroup_size_ : s_; }
  bool SharesWork(InstIndex i) const;
  struct ScratchArray {
    Id variable = 0;
    uint32_t elements = 0;
  };
  std::map<Id, ScratchArray> scratch_;
  std::map<Id, ScratchArray> shared_scratch_;  // One region for the workgroup (shared_).
  // Owned rows in rounds (set_owned): the types, the rounds, and while an instruction runs in
  // rounds its result's id and the id its rounds' code gives it instead.
  std::set<Id> owned_;
  std::map<InstIndex, uint32_t> rounds_;
  // The rounds of the instruction being lowered (1: not in rounds).
  uint32_t round_count_ = 1;
  // Elements of each component's array that instructions in rounds need (all their regions).
  std::map<Id, uint32_t> round_elements_;
  std::vector<OwnedNeed> owned_needs_;
  // Some instruction goes through its subgroup's region and another through the workgroup's.
  bool mixed_regions_ = false;
  Id renamed_result_ = 0, round_result_ = 0;
  bool OwnedInstruction(InstIndex i) const;
  // Whether instruction i's lowering splits its block (through a region, or a Workgroup store);
  // `shares`: SharesWork(i).
  bool SplitsBlock(InstIndex i, bool shares) const {
    return Splits(m_.opcode(i)) || IsWorkgroupStore(i) || ConvertsUse(i) ||
           (shares && m_.opcode(i) == Op::CooperativeMatrixMulAddKHR);
  }
  struct Rounds {
    SlotLoop loop;
    Id result = 0, type = 0, merge = 0, header = 0;
  };
  Rounds BeginRounds(InstIndex i);
  void EndRounds(const Rounds& rounds);
  // The elements the instruction being lowered needs, by component type and sharing.
  std::map<std::pair<Id, bool>, uint32_t> need_;
  InstIndex largest_need_at_ = ir::kNoInst;
  uint64_t largest_need_ = 0, own_bytes_ = 0, region_bytes_ = 0;
  // Words of body_ that wait for a region size, by component type.
  std::vector<std::pair<size_t, Id>> region_uses_;
  // Per function: blocks split by a store, by their last piece.
  std::map<Id, Id> split_blocks_;
  std::set<Id> own_phis_;  // The slot loops' (their parents are right).
  Id block_label_ = 0;     // The input block being copied.
  Id current_label_ = 0;   // The output block being written.
  // The layout members extracted by the access being lowered.
  std::map<uint32_t, Id> members_;
};

bool Lowering::ReadEnvironment() {
  uint64_t largest = 0;
  bool any_entry = false, all_equal = true;
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    const Op op = m_.opcode(i);
    if (op == Op::MemoryModel && m_.word(i, 2) == U(spv::MemoryModel::Vulkan)) {
      vulkan_memory_model_ = true;
    }
    if (op == Op::Decorate && m_.num_words(i) >= 3) {
      decoration_values_.emplace(std::tuple{m_.word(i, 1), kWhole, m_.word(i, 2)},
                                 m_.num_words(i) > 3 ? m_.word(i, 3) : 0);
    } else if (op == Op::MemberDecorate && m_.num_words(i) >= 4) {
      decoration_values_.emplace(std::tuple{m_.word(i, 1), m_.word(i, 2), m_.word(i, 3)},
                                 m_.num_words(i) > 4 ? m_.word(i, 4) : 0);
    }
    if (op != Op::EntryPoint || m_.num_words(i) < 3) continue;
    any_entry = true;
    // LocalSize, LocalSizeId or the WorkgroupSize built-in, whichever the entry point has.
    const auto size = ir::WorkgroupSize(m_, m_.word(i, 2));
    if (!size) {
      Fail(i,
           "the entry point's workgroup size is not a constant (a spec constant, or not "
           "declared); run --freeze-spec-const --fold-spec-const first");
      return false;
    }
    const uint64_t n = (*size)[0] * (*size)[1] * (*size)[2];
    if (n == 0 || n > 0xFFFFFFFFu) {
      Fail(i, "the entry point's workgroup size (" + std::to_string(n) +
                  " invocations) is not a valid one");
      return false;
    }
    if (largest && n != largest) all_equal = false;
    largest = std::max(largest, n);
  }
  if (any_entry && largest == 0) {
    error_ = "--lower-coop-matrix2 needs the workgroup size (LocalSize) of the entry points";
    return false;
  }
  num_subgroups_ = std::max<uint32_t>(1u, static_cast<uint32_t>((largest + s_ - 1) / s_));
  workgroup_size_ = all_equal ? static_cast<uint32_t>(largest) : 0;
  return true;
}

void Lowering::LowerGlobal(InstIndex i, std::vector<uint32_t>& globals) {
  const Op op = m_.opcode(i);
  const ir::Inst inst = m_.inst(i);
  if (op == Op::TypeTensorLayoutNV) {
    const auto dim = ConstantValue(m_.word(i, 2));
    const auto mode = ConstantValue(m_.word(i, 3));
    if (!dim || *dim == 0 || *dim > 5) {
      Fail(i, "the Dim of a tensor layout must be a constant between 1 and 5");
      return;
    }
    if (!mode) {
      Fail(i,
           "a clamp mode given by a specialization constant is not lowered yet (run "
           "--freeze-spec-const first)");
      return;
    }
    if (*mode > kRepeatMirrored) {
      Fail(i, "unknown clamp mode " + std::to_string(*mode));
      return;
    }
    LayoutType& t = layouts_[m_.result_id(i)];
    t.dim = *dim;
    t.clamp_mode = *mode;
    std::vector<uint32_t> words = {m_.result_id(i)};
    words.insert(words.end(), t.members(), U32());
    Put(globals, Op::TypeStruct, words);
    return;
  }
  if (op == Op::TypeTensorViewNV) {
    const auto dim = ConstantValue(m_.word(i, 2));
    const InstIndex has_dimensions = m_.Def(m_.word(i, 3));
    if (!dim || *dim == 0 || *dim > 5 || m_.num_words(i) != 4 + *dim) {
      Fail(i,
           "the Dim of a tensor view must be a constant between 1 and 5, with one permutation "
           "entry per dimension");
      return;
    }
    if (has_dimensions == ir::kNoInst || (m_.opcode(has_dimensions) != Op::ConstantFalse &&
                                          m_.opcode(has_dimensions) != Op::ConstantTrue)) {
      Fail(i, "HasDimensions must be OpConstantTrue or OpConstantFalse");
      return;
    }
    ViewType& v = views_[m_.result_id(i)];
    v.has_dimensions = m_.opcode(has_dimensions) == Op::ConstantTrue;
    for (uint32_t k = 0; k < *dim; ++k) {
      const auto p = ConstantValue(m_.word(i, 4 + k));
      if (!p || *p >= *dim) {
        Fail(i, "a permutation entry is not a constant below Dim");
        return;
      }
      v.permutation.push_back(*p);
    }
    std::vector<uint32_t> words = {m_.result_id(i)};
    words.insert(words.end(), v.has_dimensions ? 4 + 2 * *dim : 4, U32());
    Put(globals, Op::TypeStruct, words);
    return;
  }
  if (op == Op::TypeCooperativeMatrixKHR) {
    const auto scope = ConstantValue(m_.word(i, 3));
    if (scope && *scope == U(spv::Scope::Workgroup)) {
      // Replicated: the same shape at Subgroup scope in every subgroup (head comment).
      workgroup_matrices_.insert(m_.result_id(i));
      std::vector<uint32_t> words(inst.words.begin() + 1, inst.words.end());
      words[2] = Const(U(spv::Scope::Subgroup));
      Put(globals, op, words);
      return;
    }
  }
  globals.insert(globals.end(), inst.words.begin(), inst.words.end());
}

void Lowering::LowerLayoutOp(InstIndex i) {
  const Op op = m_.opcode(i);
  const Id type = m_.type_id(i);
  const Id result = m_.result_id(i);
  auto it = layouts_.find(type);
  if (it == layouts_.end()) {
    Fail(i, "the result type is not a tensor layout type");
    return;
  }
  const LayoutType& t = it->second;
  if (op == Op::CreateTensorLayoutNV) {
    std::vector<uint32_t> words = {type};
    for (uint32_t k = 0; k < t.members(); ++k) words.push_back(Const(k >= t.BlockSize(0) ? 1 : 0));
    const Id initial = Declare(derived_, Op::ConstantComposite, words);
    Emit(Op::CopyObject, type, {initial}, result);
    return;
  }
  // The operands as uint32 (a signed 32-bit integer is reinterpreted).
  std::vector<Id> args;
  for (uint32_t w = 4; w < m_.num_words(i); ++w) {
    const Id arg = m_.word(i, w);
    const InstIndex td = m_.Def(m_.TypeOf(arg));
    if (td == ir::kNoInst || m_.opcode(td) != Op::TypeInt || m_.word(td, 2) != 32) {
      Fail(i, "an operand is not a 32-bit integer");
      return;
    }
    args.push_back(m_.word(td, 3) ? Emit(Op::Bitcast, U32(), {arg}) : arg);
  }
  const uint32_t expected = op == Op::TensorLayoutSliceNV           ? 2 * t.dim
                            : op == Op::TensorLayoutSetClampValueNV ? 1
                                                                    : t.dim;
  if (args.size() != expected) {
    Fail(i, "expected " + std::to_string(expected) + " operands after the tensor layout, found " +
                std::to_string(args.size()));
    return;
  }
  // (member, value) pairs inserted in order; the last insert defines the result.
  std::vector<std::pair<uint32_t, Id>> inserts;
  Id layout = m_.word(i, 3);
  switch (op) {
    case Op::TensorLayoutSetDimensionNV: {
      std::vector<Id> strides(t.dim);
      strides[t.dim - 1] = Const(1);
      for (uint32_t k = t.dim - 1; k-- > 0;) {
        Id extent = args[k + 1];
        if (blocked_layouts_.count(type)) {
          // Packed strides count blocks: ceil(dimension / block size).
          const Id block = Emit(Op::CompositeExtract, U32(), {layout, t.BlockSize(k + 1)});
          const Id last = Emit(Op::ISub, U32(), {block, Const(1)});
          extent = Emit(Op::UDiv, U32(), {Emit(Op::IAdd, U32(), {extent, last}), block});
        }
        strides[k] = Emit(Op::IMul, U32(), {strides[k + 1], extent});
      }
      for (uint32_t k = 0; k < t.dim; ++k) {
        inserts.push_back({t.Dimension(k), args[k]});
        inserts.push_back({t.Stride(k), strides[k]});
        inserts.push_back({t.Offset(k), Const(0)});
        inserts.push_back({t.Span(k), args[k]});
      }
      break;
    }
    case Op::TensorLayoutSetStrideNV:
      for (uint32_t k = 0; k < t.dim; ++k) inserts.push_back({t.Stride(k), args[k]});
      break;
    case Op::TensorLayoutSetBlockSizeNV:
      for (uint32_t k = 0; k < t.dim; ++k) inserts.push_back({t.BlockSize(k), args[k]});
      break;
    case Op::TensorLayoutSliceNV:
      for (uint32_t k = 0; k < t.dim; ++k) {
        const Id old = Emit(Op::CompositeExtract, U32(), {layout, t.Offset(k)});
        inserts.push_back({t.Offset(k), Emit(Op::IAdd, U32(), {old, args[2 * k]})});
        inserts.push_back({t.Span(k), args[2 * k + 1]});
      }
      break;
    default:  // OpTensorLayoutSetClampValueNV
      inserts.push_back({t.ClampValue(), args[0]});
      break;
  }
  for (size_t k = 0; k < inserts.size(); ++k) {
    layout = Emit(Op::CompositeInsert, type, {inserts[k].second, layout, inserts[k].first},
                  k + 1 == inserts.size() ? result : 0);
  }
}

bool Lowering::ReadTensorAccess(InstIndex i, bool store, TensorAccess* a) {
  members_.clear();
  // Load: type, result, Pointer, Object, TensorLayout, memory operands, tensor operands.
  // Store: Pointer, Object, TensorLayout, memory operands, tensor operands.
  const uint32_t first = store ? 1 : 3;
  a->inst = i;
  a->pointer = m_.word(i, first);
  a->object = m_.word(i, first + 1);
  a->layout = m_.word(i, first + 2);
  a->matrix_type = store ? m_.TypeOf(a->object) : m_.type_id(i);
  uint32_t w = first + 3;
  if (w >= m_.num_words(i)) {
    Fail(i, "the Memory Operand is missing");
    return false;
  }
  a->memory_operands = MemoryOperandsWithoutAligned(i, w);
  const uint32_t mask = m_.word(i, w++);
  for (uint32_t bit = 1; bit != 0 && w < m_.num_words(i); bit <<= 1) {
    if ((mask & bit) &&
        (bit == kAligned || bit == kMakePointerAvailable || bit == kMakePointerVisible)) {
      ++w;
    }
  }
  if (w >= m_.num_words(i)) {
    Fail(i, "the Tensor Addressing Operands are missing");
    return false;
  }
  const uint32_t tensor_operands = m_.word(i, w++);
  if (tensor_operands & ~7u) {
    Fail(i, "unknown Tensor Addressing Operands");
    return false;
  }
  if (tensor_operands & 6u) {
    // TensorView (0x1) comes first, then DecodeFunc (0x2), then DecodeVectorFunc (0x4), which
    // is dropped: calling DecodeFunc for every element is always allowed.
    const uint32_t at = w + (tensor_operands & 1u);
    if (!(tensor_operands & 2u) || at >= m_.num_words(i) || store) {
      Fail(i, "DecodeVectorFunc needs DecodeFunc, and only loads take them");
      return false;
    }
    a->decode = m_.word(i, at);
  }
  if (tensor_operands & 1) {
    if (w >= m_.num_words(i)) {
      Fail(i, "the TensorView operand is missing");
      return false;
    }
    a->view = m_.word(i, w);
    auto view = views_.find(m_.TypeOf(a->view));
    if (view == views_.end()) {
      Fail(i, "the TensorView is not a tensor view");
      return false;
    }
    a->view_type = &view->second;
  }
  auto layout = layouts_.find(m_.TypeOf(a->layout));
  if (layout == layouts_.end()) {
    Fail(i, "the TensorLayout is not a tensor layout");
    return false;
  }
  a->layout_type = &layout->second;
  if (a->view_type && a->view_type->permutation.size() != a->layout_type->dim) {
    Fail(i, "the tensor view's Dim differs from the tensor layout's");
    return false;
  }
  MatrixInfo mat;
  if (!ReadMatrix(i, a->matrix_type, &mat)) return false;
  a->rows = mat.rows;
  a->cols = mat.cols;
  a->component = mat.component;
  const InstIndex ct = m_.Def(a->component);
  a->is_float = m_.opcode(ct) == Op::TypeFloat;
  a->width = m_.word(ct, 2);
  if (a->decode && !ReadDecodeFunc(i, a)) return false;
  const InstIndex pt = m_.Def(m_.TypeOf(a->pointer));
  if (pt == ir::kNoInst || m_.opcode(pt) != Op::TypePointer) {
    Fail(i, "the Pointer is not a pointer");
    return false;
  }
  if (m_.word(pt, 2) == U(spv::StorageClass::PhysicalStorageBuffer)) {
    a->addressing = Addressing::kPhysical;
    return true;
  }
  if (m_.word(pt, 3) != a->component || a->decode) {
    a->addressing = Addressing::kBuffer;
    return ReadBuffer(i, a->pointer, &a->buffer);
  }
  const InstIndex chain = m_.Def(a->pointer);
  if (chain == ir::kNoInst ||
      (m_.opcode(chain) != Op::AccessChain && m_.opcode(chain) != Op::InBoundsAccessChain) ||
      m_.num_words(chain) < 5) {
    Fail(i, "the Pointer must come from OpAccessChain with at least one index");
    return false;
  }
  return true;
}

std::vector<uint32_t> Lowering::MemoryOperandsWithoutAligned(InstIndex i, uint32_t w) const {
  if (w >= m_.num_words(i)) return {};
  const uint32_t mask = m_.word(i, w++);
  std::vector<uint32_t> out = {mask & ~kAligned};
  for (uint32_t bit = 1; bit != 0 && w < m_.num_words(i); bit <<= 1) {
    if (!(mask & bit)) continue;
    if (bit == kAligned) {
      ++w;
    } else if (bit == kMakePointerAvailable || bit == kMakePointerVisible) {
      out.push_back(m_.word(i, w++));
    }
  }
  if (out[0] == 0) out.clear();
  return out;
}

bool Lowering::ReadDecodeFunc(InstIndex i, TensorAccess* a) {
  const InstIndex fd = m_.Def(a->decode);
  const InstIndex ft = fd == ir::kNoInst ? ir::kNoInst : m_.Def(m_.word(fd, 4));
  const uint32_t dim = a->layout_type->dim;
  // DecodeFunc(pointer to the block, uint[Dim] block coordinates, uint[Dim] coordinates in the
  // block), returning the component type.
  auto is_uint_array = [&](Id type) {
    const InstIndex d = m_.Def(type);
    if (d == ir::kNoInst || m_.opcode(d) != Op::TypeArray || ConstantValue(m_.word(d, 3)) != dim)
      return false;
    const InstIndex e = m_.Def(m_.word(d, 2));
    return e != ir::kNoInst && m_.opcode(e) == Op::TypeInt && m_.word(e, 2) == 32;
  };
  if (fd == ir::kNoInst || m_.opcode(fd) != Op::Function || ft == ir::kNoInst ||
      m_.num_words(ft) != 6 || m_.word(ft, 2) != a->component || !is_uint_array(m_.word(ft, 4)) ||
      !is_uint_array(m_.word(ft, 5)) || !IsPhysicalPointer(m_.word(ft, 3))) {
    Fail(i,
         "DecodeFunc must be a function of (PhysicalStorageBuffer pointer, uint[Dim], "
         "uint[Dim]) returning the component type");
    return false;
  }
  // SPV_NV_cooperative_matrix2: the block pointer is Pointer plus the block's index times "the
  // size of the pointee type": the pointer type's ArrayStride where it has one (the step of
  // OpPtrAccessChain), else the pointee's laid-out size.
  a->block_pointer = m_.word(ft, 3);
  const auto stride = DecorationOf(a->block_pointer, spv::Decoration::ArrayStride);
  const auto bytes = stride ? stride : LaidOutBytes(m_.word(m_.Def(a->block_pointer), 3));
  if (!bytes) {
    Fail(i, "the size of DecodeFunc's block type is not known (no explicit layout)");
    return false;
  }
  a->block_bytes = *bytes;
  return true;
}

bool Lowering::ReadMatrix(InstIndex i, Id type, MatrixInfo* out) {
  const InstIndex mt = m_.Def(type);
  if (mt == ir::kNoInst || m_.opcode(mt) != Op::TypeCooperativeMatrixKHR) {
    Fail(i, "the matrix is not a KHR cooperative matrix");
    return false;
  }
  const auto scope = ConstantValue(m_.word(mt, 3));
  const auto rows = ConstantValue(m_.word(mt, 4));
  const auto cols = ConstantValue(m_.word(mt, 5));
  if (!scope || (*scope != U(spv::Scope::Subgroup) && *scope != U(spv::Scope::Workgroup))) {
    Fail(i, "only Subgroup- and Workgroup-scope matrices are lowered by --lower-coop-matrix2");
    return false;
  }
  if (!rows || !cols) {
    Fail(i,
         "matrices whose Rows / Columns are not constants are not lowered (run "
         "--freeze-spec-const --fold-spec-const first)");
    return false;
  }
  *out = {type, m_.word(mt, 2), *rows, *cols};
  return true;
}

Lowering::Region Lowering::RegionOf(Id component, uint32_t elements) {
  Region r;
  r.component = component;
  r.lane = Emit(Op::Load, U32(),
                {shared_ ? InputBuiltin(&index_variable_, spv::BuiltIn::LocalInvocationIndex)
                         : InputBuiltin(&lane_variable_, spv::BuiltIn::SubgroupLocalInvocationId)});
  r.group = Emit(Op::Load, U32(), {InputBuiltin(&subgroup_variable_, spv::BuiltIn::SubgroupId)});
  r.scratch = Scratch(component, elements);
  r.pointer = Pointer(spv::StorageClass::Workgroup, component);
  r.start = shared_     ? Const(0)
            : round_count_ > 1 ? Emit(Op::IMul, U32(), {Emit(Op::UDiv, U32(), {r.group, Const(round_count_)}),
                                                  Const(elements)})
                         : RegionStart(r.group, component);
  return r;
}

Id Lowering::Slot(const Region& r, Id index) {
  return Emit(Op::AccessChain, r.pointer, {r.scratch, Emit(Op::IAdd, U32(), {r.start, index})});
}

Id Lowering::LoadSlot(const Region& r, Id index) {
  std::vector<uint32_t> load = {Slot(r, index)};
  for (uint32_t w : ScratchAccess()) load.push_back(w);
  return Emit(Op::Load, r.component, load);
}

void Lowering::StoreSlot(const Region& r, Id index, Id value) {
  std::vector<uint32_t> store = {Slot(r, index), value};
  for (uint32_t w : ScratchAccess()) store.push_back(w);
  Put(body_, Op::Store, store);
}

void Lowering::StoreMatrix(const Region& r, Id matrix, bool column_major, uint32_t stride,
                           uint32_t offset) {
  const Id start = offset ? Emit(Op::IAdd, U32(), {r.start, Const(offset)}) : r.start;
  const Id base = Emit(Op::AccessChain, r.pointer, {r.scratch, start});
  std::vector<uint32_t> store = {base, matrix, Const(column_major ? 1 : 0), Const(stride)};
  for (uint32_t w : ScratchAccess()) store.push_back(w);
  if (!shared_) {
    Put(body_, Op::CooperativeMatrixStoreKHR, store);
    Barrier();
    return;
  }
  // Every subgroup holds the same matrix: subgroup 0 writes the workgroup's region.
  const Id first = Emit(Op::IEqual, Bool(), {r.group, Const(0)});
  const Id write = next_id_++;
  const Id merge = next_id_++;
  EmitVoid(Op::SelectionMerge, {merge, 0u});
  EmitVoid(Op::BranchConditional, {first, write, merge});
  Put(body_, Op::Label, {write});
  Put(body_, Op::CooperativeMatrixStoreKHR, store);
  EmitVoid(Op::Branch, {merge});
  Put(body_, Op::Label, {merge});
  current_label_ = merge;
  Barrier();
}

void Lowering::LoadMatrix(const Region& r, Id type, Id result, bool column_major, uint32_t stride,
                          uint32_t offset) {
  Barrier();
  const Id start = offset ? Emit(Op::IAdd, U32(), {r.start, Const(offset)}) : r.start;
  const Id base = Emit(Op::AccessChain, r.pointer, {r.scratch, start});
  std::vector<uint32_t> load = {base, Const(column_major ? 1 : 0), Const(stride)};
  for (uint32_t w : ScratchAccess()) load.push_back(w);
  Emit(Op::CooperativeMatrixLoadKHR, type, load, result);
  Barrier();
}

Lowering::SlotLoop Lowering::BeginSlotLoop(uint32_t count, uint32_t first, Id carried_type,
                                           Id carried_initial) {
  SlotLoop loop;
  loop.count = count;
  if (count == 1 && !carried_type) return loop;
  loop.j = next_id_++;
  loop.next = next_id_++;
  loop.header = next_id_++;
  loop.body = next_id_++;
  loop.continue_target = next_id_++;
  loop.merge = next_id_++;
  EmitVoid(Op::Branch, {loop.header});
  const Id before = current_label_;
  Put(body_, Op::Label, {loop.header});
  Emit(Op::Phi, U32(), {Const(first), before, loop.next, loop.continue_target}, loop.j);
  own_phis_.insert(loop.j);
  if (carried_type) {
    loop.carried = next_id_++;
    loop.carried_next = next_id_++;
    Emit(Op::Phi, carried_type, {carried_initial, before, loop.carried_next, loop.continue_target},
         loop.carried);
    own_phis_.insert(loop.carried);
  }
  EmitVoid(Op::LoopMerge, {loop.merge, loop.continue_target, 0u});
  EmitVoid(Op::Branch, {loop.body});
  Put(body_, Op::Label, {loop.body});
  current_label_ = loop.body;
  return loop;
}

Lowering::ElementLoop Lowering::BeginElements(const Region& r, uint32_t elements) {
  ElementLoop l;
  l.loop = BeginSlotLoop((elements + Lanes() - 1) / Lanes());
  l.e = Element(r, l.loop);
  if (elements % Lanes() != 0) {
    const Id inside = Emit(Op::ULessThan, Bool(), {l.e, Const(elements)});
    const Id body = next_id_++;
    l.merge = next_id_++;
    EmitVoid(Op::SelectionMerge, {l.merge, 0u});
    EmitVoid(Op::BranchConditional, {inside, body, l.merge});
    Put(body_, Op::Label, {body});
    current_label_ = body;
  }
  return l;
}

void Lowering::EndElements(const ElementLoop& l) {
  if (l.merge) {
    EmitVoid(Op::Branch, {l.merge});
    Put(body_, Op::Label, {l.merge});
    current_label_ = l.merge;
  }
  EndSlotLoop(l.loop);
}

Id Lowering::Fold(const Region& r, Id combine, uint32_t count, const std::function<Id(Id)>& index) {
  const Id first = LoadSlot(r, index(Const(0)));
  if (count == 1) return first;
  const SlotLoop loop = BeginSlotLoop(count, 1, r.component, first);
  Emit(Op::FunctionCall, r.component, {combine, loop.carried, LoadSlot(r, index(loop.j))},
       loop.carried_next);
  EndSlotLoop(loop);
  return loop.carried_next;
}

void Lowering::EndSlotLoop(const SlotLoop& loop) {
  if (!loop.j) return;
  EmitVoid(Op::Branch, {loop.continue_target});
  Put(body_, Op::Label, {loop.continue_target});
  Emit(Op::IAdd, U32(), {loop.j, Const(1)}, loop.next);
  const Id more = Emit(Op::ULessThan, Bool(), {loop.next, Const(loop.count)});
  EmitVoid(Op::BranchConditional, {more, loop.header, loop.merge});
  Put(body_, Op::Label, {loop.merge});
  current_label_ = loop.merge;
}

std::pair<Id, Id> Lowering::Clip(const TensorAccess& a, Id e) {
  if (!a.view) return {0, e};
  const Id u32 = U32();
  const Id rc[2] = {Emit(Op::UDiv, u32, {e, Const(a.cols)}),
                    Emit(Op::UMod, u32, {e, Const(a.cols)})};
  Id inside = 0;
  Id local[2], span[2];
  for (uint32_t k = 0; k < 2; ++k) {
    const Id offset = Emit(Op::CompositeExtract, u32, {a.view, 2 * k});
    span[k] = Emit(Op::CompositeExtract, u32, {a.view, 2 * k + 1});
    local[k] = Emit(Op::ISub, u32, {rc[k], offset});
    const Id in = Emit(Op::ULessThan, Bool(), {local[k], span[k]});
    inside = inside ? Emit(Op::LogicalAnd, Bool(), {inside, in}) : in;
    if (k == 1) {
      // The clipped rectangle's width: the column span, at most the columns from the offset on.
      const Id rest = Emit(Op::ISub, u32, {Const(a.cols), offset});
      const Id narrower = Emit(Op::ULessThan, Bool(), {span[1], rest});
      span[1] = Emit(Op::Select, u32, {narrower, span[1], rest});
    }
  }
  Id index = Emit(Op::IAdd, u32, {Emit(Op::IMul, u32, {local[0], span[1]}), local[1]});
  if (a.view_type->has_dimensions) {
    // The clip index enumerates the view's dimensions row-major in the permutation's order
    // (p[0] outermost); its coordinates times the view's strides give the index into the slice.
    const uint32_t dim = static_cast<uint32_t>(a.view_type->permutation.size());
    Id rest = index, linear = 0;
    for (uint32_t v = dim; v-- > 0;) {
      const uint32_t k = a.view_type->permutation[v];
      Id coordinate = rest;
      if (v > 0) {
        const Id extent = Emit(Op::CompositeExtract, u32, {a.view, 4 + k});
        coordinate = Emit(Op::UMod, u32, {rest, extent});
        rest = Emit(Op::UDiv, u32, {rest, extent});
      }
      const Id stride = Emit(Op::CompositeExtract, u32, {a.view, 4 + dim + k});
      const Id term = Emit(Op::IMul, u32, {coordinate, stride});
      linear = linear ? Emit(Op::IAdd, u32, {linear, term}) : term;
    }
    index = linear;
  }
  return {inside, index};
}

void Lowering::LowerViewOp(InstIndex i) {
  const Id type = m_.type_id(i);
  if (!views_.count(type)) {
    Fail(i, "the result type is not a tensor view type");
    return;
  }
  const ViewType& t = views_[type];
  const uint32_t dim = static_cast<uint32_t>(t.permutation.size());
  if (m_.opcode(i) == Op::CreateTensorViewNV) {
    // No clipping: offsets 0, spans as large as they get; dimensions and strides 0.
    std::vector<uint32_t> words = {type, Const(0), Const(~0u), Const(0), Const(~0u)};
    if (t.has_dimensions) words.insert(words.end(), 2 * dim, Const(0));
    const Id initial = Declare(derived_, Op::ConstantComposite, words);
    Emit(Op::CopyObject, type, {initial}, m_.result_id(i));
    return;
  }
  // OpTensorViewSetClipNV: row offset, row span, column offset, column span (members 0-3);
  // OpTensorViewSetDimensionNV / SetStrideNV: Dim values (members 4.. / 4 + Dim..).
  uint32_t first = 0, count = 4;
  if (m_.opcode(i) != Op::TensorViewSetClipNV) {
    if (!t.has_dimensions) {
      Fail(i, "the tensor view type has no dimensions (HasDimensions is false)");
      return;
    }
    first = m_.opcode(i) == Op::TensorViewSetDimensionNV ? 4 : 4 + dim;
    count = dim;
  }
  if (m_.num_words(i) != 4 + count) {
    Fail(i, "expected " + std::to_string(count) + " operands after the tensor view");
    return;
  }
  const bool packed_strides = m_.opcode(i) == Op::TensorViewSetDimensionNV;
  std::vector<Id> values;
  Id view = m_.word(i, 3);
  for (uint32_t k = 0; k < count; ++k) {
    const Id arg = m_.word(i, 4 + k);
    const InstIndex td = m_.Def(m_.TypeOf(arg));
    if (td == ir::kNoInst || m_.opcode(td) != Op::TypeInt || m_.word(td, 2) != 32) {
      Fail(i, "an operand is not a 32-bit integer");
      return;
    }
    values.push_back(m_.word(td, 3) ? Emit(Op::Bitcast, U32(), {arg}) : arg);
    view = Emit(Op::CompositeInsert, type, {values.back(), view, first + k},
                k + 1 == count && !packed_strides ? m_.result_id(i) : 0);
  }
  if (packed_strides) {
    // As OpTensorLayoutSetDimensionNV does: stride[Dim - 1] = 1, stride[k] = stride[k + 1] *
    // dimension[k + 1].
    Id stride = Const(1);
    for (uint32_t k = dim; k-- > 0;) {
      view = Emit(Op::CompositeInsert, type, {stride, view, 4 + dim + k},
                  k == 0 ? m_.result_id(i) : 0);
      if (k > 0) stride = Emit(Op::IMul, U32(), {stride, values[k]});
    }
  }
}

Id Lowering::ClampValueAs(const TensorAccess& a) {
  const Id value = Emit(Op::CompositeExtract, U32(), {a.layout, a.layout_type->ClampValue()});
  const InstIndex ct = m_.Def(a.component);
  if (a.width == 32) {
    if (m_.opcode(ct) == Op::TypeInt && m_.word(ct, 3) == 0) return value;
    return Emit(Op::Bitcast, a.component, {value});
  }
  // The low bits: the first component of the value reinterpreted as a vector.
  const Id vector = Declare(derived_, Op::TypeVector, {a.component, 32 / a.width});
  return Emit(Op::CompositeExtract, a.component, {Emit(Op::Bitcast, vector, {value}), 0});
}

std::pair<Id, Id> Lowering::ElementAddress(const TensorAccess& a, Id e, bool load,
                                           std::vector<Id>* clamped) {
  const LayoutType& t = *a.layout_type;
  const Id u32 = U32();
  // Each member is extracted once per access (the first element's code dominates the others').
  auto member = [&](uint32_t k) {
    auto [it, fresh] = members_.emplace(k, 0);
    if (fresh) it->second = Emit(Op::CompositeExtract, u32, {a.layout, k});
    return it->second;
  };
  // Coordinates of element e, row-major over the spans in the view's order of dimensions.
  std::vector<Id> coordinate(t.dim);
  Id rest = e;
  // Through a view with dimensions the index is the slice's own (row-major in the layout's
  // order), taken modulo the slice's elements.
  const bool permuted = a.view_type && !a.view_type->has_dimensions;
  const bool wrapped = a.view_type && a.view_type->has_dimensions;
  for (uint32_t v = t.dim; v-- > 0;) {
    const uint32_t k = permuted ? a.view_type->permutation[v] : v;
    Id local = rest;
    if (v > 0 || wrapped) {
      const Id span = member(t.Span(k));
      local = Emit(Op::UMod, u32, {rest, span});
      rest = Emit(Op::UDiv, u32, {rest, span});
    }
    coordinate[k] = Emit(Op::IAdd, u32, {member(t.Offset(k)), local});
  }
  Id in_bounds = 0;
  Id offset = 0;
  for (uint32_t k = 0; k < t.dim; ++k) {
    const Id dimension = member(t.Dimension(k));
    const Id inside = Emit(Op::ULessThan, Bool(), {coordinate[k], dimension});
    in_bounds = in_bounds ? Emit(Op::LogicalAnd, Bool(), {in_bounds, inside}) : inside;
    Id c = coordinate[k];
    if (load) {
      switch (t.clamp_mode) {
        case kClampToEdge: {
          const Id last = Emit(Op::ISub, u32, {dimension, Const(1)});
          const Id below = Emit(Op::SLessThan, Bool(), {c, Const(0)});
          const Id above = Emit(Op::SGreaterThan, Bool(), {c, last});
          c = Emit(Op::Select, u32, {below, Const(0), Emit(Op::Select, u32, {above, last, c})});
          break;
        }
        case kRepeat:
          c = Modulo(c, dimension);
          break;
        case kRepeatMirrored: {
          // Reflected without repeating the edge element (period 2n - 2; coordinate 0 when
          // n = 1), as NVIDIA's driver reads it (test/run/lower_coop_matrix2/tensor_mirrored).
          const Id last = Emit(Op::ISub, u32, {dimension, Const(1)});
          const Id period = Emit(Op::IMul, u32, {last, Const(2)});
          const Id single = Emit(Op::IEqual, Bool(), {period, Const(0)});
          const Id t = Modulo(c, Emit(Op::Select, u32, {single, Const(1), period}));
          const Id back = Emit(Op::ISub, u32, {period, t});
          c = Emit(Op::Select, u32, {Emit(Op::ULessThan, Bool(), {t, dimension}), t, back});
          break;
        }
        default:  // Undefined, Constant: any in-bounds element stands in.
          c = Emit(Op::Select, u32, {inside, c, Const(0)});
          break;
      }
    }
    if (clamped) {
      clamped->push_back(c);
      continue;
    }
    const Id term = Emit(Op::IMul, u32, {c, member(t.Stride(k))});
    offset = offset ? Emit(Op::IAdd, u32, {offset, term}) : term;
  }
  if (clamped) return {0, in_bounds};
  switch (a.addressing) {
    case Addressing::kBuffer: {
      const Id byte =
          Emit(Op::IAdd, u32, {a.base, Emit(Op::IMul, u32, {offset, Const(a.width / 8)})});
      return {ScalarPointer(a.buffer, a.component, byte), in_bounds};
    }
    case Addressing::kPhysical:
      return {Emit(Op::PtrAccessChain, a.strided, {a.base, offset}), in_bounds};
    case Addressing::kChain:
      break;
  }
  // Pointer's access chain with the offset added to its last index.
  const InstIndex chain = m_.Def(a.pointer);
  std::vector<uint32_t> operands;
  for (uint32_t w = 3; w < m_.num_words(chain); ++w) operands.push_back(m_.word(chain, w));
  operands.back() = Emit(Op::IAdd, u32, {operands.back(), offset});
  const Id address = Emit(m_.opcode(chain), m_.type_id(chain), operands);
  return {address, in_bounds};
}

void Lowering::PrepareAddressing(TensorAccess* a) {
  a->element_operands = a->memory_operands;
  if (a->addressing == Addressing::kBuffer) {
    a->base = ChainBytes(a->inst, m_.Def(a->pointer), a->buffer);
  } else if (a->addressing == Addressing::kPhysical) {
    const Id pointee = a->decode ? m_.word(m_.Def(a->block_pointer), 3) : a->component;
    const uint32_t bytes = a->decode ? a->block_bytes : a->width / 8;
    a->strided = StridedPointer(pointee, bytes);
    a->base = Emit(Op::Bitcast, a->strided, {a->pointer});
    // Vulkan: every PhysicalStorageBuffer access names its alignment (Aligned's literal comes
    // first: no lower bit takes one).
    std::vector<uint32_t>& ops = a->element_operands;
    if (ops.empty()) ops.push_back(0);
    ops[0] |= kAligned;
    ops.insert(ops.begin() + 1, a->width / 8);
  }
}

Id Lowering::Decode(const TensorAccess& a, const std::vector<Id>& coordinate) {
  const LayoutType& t = *a.layout_type;
  const InstIndex ft = m_.Def(m_.word(m_.Def(a.decode), 4));
  const Id u32 = U32();
  std::vector<Id> block(t.dim), in_block(t.dim);
  Id index = 0;
  for (uint32_t k = 0; k < t.dim; ++k) {
    const Id size = Emit(Op::CompositeExtract, u32, {a.layout, t.BlockSize(k)});
    block[k] = Emit(Op::UDiv, u32, {coordinate[k], size});
    in_block[k] = Emit(Op::UMod, u32, {coordinate[k], size});
    const Id stride = Emit(Op::CompositeExtract, u32, {a.layout, t.Stride(k)});
    const Id term = Emit(Op::IMul, u32, {block[k], stride});
    index = index ? Emit(Op::IAdd, u32, {index, term}) : term;
  }
  Id function = a.decode, pointer = 0;
  if (a.addressing == Addressing::kPhysical) {
    // The block pointer itself: Pointer stepped over `index` blocks.
    pointer = Emit(Op::PtrAccessChain, a.strided, {a.base, index});
    if (a.strided != a.block_pointer) pointer = Emit(Op::Bitcast, a.block_pointer, {pointer});
  } else {
    // The block's byte offset in Pointer's buffer, for the clone that reads through offsets.
    function = OffsetClone(a.inst, a.decode, a.buffer);
    if (!function) return 0;
    pointer = Emit(Op::IAdd, u32, {a.base, Emit(Op::IMul, u32, {index, Const(a.block_bytes)})});
  }
  const Id block_id = Emit(Op::CompositeConstruct, m_.word(ft, 4), block);
  const Id in_block_id = Emit(Op::CompositeConstruct, m_.word(ft, 5), in_block);
  return Emit(Op::FunctionCall, a.component, {function, pointer, block_id, in_block_id});
}

std::optional<uint32_t> Lowering::LaidOutBytes(Id type) const {
  const InstIndex d = m_.Def(type);
  if (d == ir::kNoInst) return std::nullopt;
  switch (m_.opcode(d)) {
    case Op::TypeInt:
    case Op::TypeFloat:
      return m_.word(d, 2) / 8;
    case Op::TypeVector: {
      const auto component = LaidOutBytes(m_.word(d, 2));
      if (!component) return std::nullopt;
      return *component * m_.word(d, 3);
    }
    case Op::TypeArray: {
      const auto length = ConstantValue(m_.word(d, 3));
      const auto stride = DecorationOf(type, spv::Decoration::ArrayStride);
      if (!length || !stride) return std::nullopt;
      return *length * *stride;
    }
    case Op::TypeStruct: {
      uint32_t end = 0;
      for (uint32_t w = 2; w < m_.num_words(d); ++w) {
        const auto offset = DecorationOf(type, spv::Decoration::Offset, w - 2);
        // A runtime array (the last member) adds no bytes: ggml's matmul_id hands DecodeFunc a
        // { B_TYPE b[]; } block pointer it never reads through.
        const bool runtime = m_.DefOpcode(m_.word(d, w)) == Op::TypeRuntimeArray;
        const auto bytes = runtime ? std::optional<uint32_t>(0) : LaidOutBytes(m_.word(d, w));
        if (!offset || !bytes) return std::nullopt;
        end = std::max(end, *offset + *bytes);
      }
      return end;
    }
    case Op::TypePointer:
      if (IsPhysicalPointer(type)) return 8;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::vector<std::pair<Id, uint32_t>> Lowering::LaidOutParts(Id type) const {
  std::vector<std::pair<Id, uint32_t>> parts;
  const InstIndex d = m_.Def(type);
  const Op op = d == ir::kNoInst ? Op::Nop : m_.opcode(d);
  if (op == Op::TypeVector) {
    const uint32_t bytes = LaidOutBytes(m_.word(d, 2)).value_or(0);
    for (uint32_t k = 0; k < m_.word(d, 3); ++k) parts.push_back({m_.word(d, 2), k * bytes});
  } else if (op == Op::TypeArray) {
    const uint32_t stride = DecorationOf(type, spv::Decoration::ArrayStride).value_or(0);
    const uint32_t length = ConstantValue(m_.word(d, 3)).value_or(0);
    for (uint32_t k = 0; k < length; ++k) parts.push_back({m_.word(d, 2), k * stride});
  } else if (op == Op::TypeStruct) {
    for (uint32_t k = 0; k + 2 < m_.num_words(d); ++k) {
      parts.push_back(
          {m_.word(d, 2 + k), DecorationOf(type, spv::Decoration::Offset, k).value_or(0)});
    }
  }
  return parts;
}

Id Lowering::IndexAsU32(Id value, Id type) {
  const InstIndex td = m_.Def(type);
  if (td == ir::kNoInst || m_.opcode(td) != Op::TypeInt) return value;
  if (m_.word(td, 2) != 32) return Emit(Op::UConvert, U32(), {value});
  return m_.word(td, 3) ? Emit(Op::Bitcast, U32(), {value}) : value;
}

bool Lowering::StepInto(InstIndex at, Id* type, Id index, Id* byte, Id value) {
  if (!value) value = index;
  const InstIndex d = m_.Def(*type);
  const Op op = d == ir::kNoInst ? Op::Nop : m_.opcode(d);
  uint32_t stride = 0;
  Id element = 0;
  if (op == Op::TypeStruct) {
    const auto member = ConstantValue(index);
    const auto offset =
        member ? DecorationOf(*type, spv::Decoration::Offset, *member) : std::nullopt;
    if (!member || *member + 2 >= m_.num_words(d) || !offset) {
      Fail(at, "a struct member without a constant index or an Offset in a block's access chain");
      return false;
    }
    *byte = AddBytes(*byte, *offset);
    *type = m_.word(d, 2 + *member);
    return true;
  }
  if (op == Op::TypeArray || op == Op::TypeRuntimeArray) {
    const auto s = DecorationOf(*type, spv::Decoration::ArrayStride);
    if (!s) {
      Fail(at, "an array without ArrayStride in a block's access chain");
      return false;
    }
    stride = *s;
    element = m_.word(d, 2);
  } else if (op == Op::TypeVector) {
    element = m_.word(d, 2);
    stride = LaidOutBytes(element).value_or(0);
  }
  if (!stride) {
    Fail(at,
         "an access chain into a block steps into something else than a struct, an array or "
         "a vector");
    return false;
  }
  if (const auto k = ConstantValue(index)) {
    *byte = AddBytes(*byte, *k * stride);
  } else {
    const Id term = Emit(Op::IMul, U32(), {IndexAsU32(value, m_.TypeOf(index)), Const(stride)});
    *byte = *byte == Const(0) ? term : Emit(Op::IAdd, U32(), {*byte, term});
  }
  *type = element;
  return true;
}

bool Lowering::ReadBuffer(InstIndex at, Id pointer, Buffer* b) {
  const InstIndex chain = m_.Def(pointer);
  const InstIndex variable = chain == ir::kNoInst ? ir::kNoInst : m_.Def(m_.word(chain, 3));
  if (chain == ir::kNoInst ||
      (m_.opcode(chain) != Op::AccessChain && m_.opcode(chain) != Op::InBoundsAccessChain) ||
      variable == ir::kNoInst || m_.opcode(variable) != Op::Variable ||
      m_.word(variable, 3) != U(spv::StorageClass::StorageBuffer)) {
    Fail(at,
         "a Pointer to another type than the component type (or with DecodeFunc) must be an "
         "access chain into a StorageBuffer variable or a PhysicalStorageBuffer pointer");
    return false;
  }
  b->variable = m_.result_id(variable);
  b->leading.clear();
  Id type = m_.word(m_.Def(m_.type_id(variable)), 3);
  uint32_t w = 4;
  // An array of blocks (a descriptor array): its indices must be constants, which the alias
  // variable is indexed with too.
  while (!DecorationOf(type, spv::Decoration::Block)) {
    const InstIndex d = m_.Def(type);
    if (d == ir::kNoInst ||
        (m_.opcode(d) != Op::TypeArray && m_.opcode(d) != Op::TypeRuntimeArray) ||
        w >= m_.num_words(chain) || !ConstantValue(m_.word(chain, w))) {
      Fail(at, "the buffer's block is not reached through constant indices");
      return false;
    }
    b->leading.push_back(m_.word(chain, w++));
    type = m_.word(d, 2);
  }
  b->first = w;
  return true;
}

Id Lowering::ChainBytes(InstIndex at, InstIndex chain, const Buffer& b) {
  Id type = m_.word(m_.Def(m_.type_id(m_.Def(b.variable))), 3);
  for (size_t k = 0; k < b.leading.size(); ++k) type = m_.word(m_.Def(type), 2);
  Id byte = Const(0);
  for (uint32_t w = b.first; w < m_.num_words(chain); ++w) {
    if (!StepInto(at, &type, m_.word(chain, w), &byte)) return byte;
  }
  return byte;
}

Id Lowering::ScalarPointer(const Buffer& b, Id scalar, Id byte) {
  const uint32_t bytes = ScalarBytes(scalar);
  auto [it, fresh] = aliases_.emplace(std::pair{b.variable, scalar}, 0);
  if (fresh) {
    // An alias of the binding: the same DescriptorSet and Binding, its block an array of the
    // scalar (Vulkan lets several variables name one binding; ggml's shaders do so themselves).
    const Id variable = b.variable;
    const Id array = next_id_++, block = next_id_++;
    Put(derived_, Op::TypeRuntimeArray, {array, scalar});
    Put(derived_, Op::TypeStruct, {block, array});
    Put(decorations_, Op::Decorate, {array, U(spv::Decoration::ArrayStride), bytes});
    Put(decorations_, Op::MemberDecorate, {block, 0, U(spv::Decoration::Offset), 0});
    Put(decorations_, Op::Decorate, {block, U(spv::Decoration::Block)});
    // What the original promises about the whole block holds for the alias.
    Id type = m_.word(m_.Def(m_.type_id(m_.Def(variable))), 3);
    std::vector<Id> arrays;  // The descriptor array types, outermost first.
    while (!DecorationOf(type, spv::Decoration::Block)) {
      arrays.push_back(type);
      type = m_.word(m_.Def(type), 2);
    }
    for (spv::Decoration d : {spv::Decoration::NonWritable, spv::Decoration::NonReadable}) {
      bool all = DecorationOf(variable, d).has_value();
      if (!all) {
        all = true;
        for (uint32_t w = 2; w < m_.num_words(m_.Def(type)); ++w) {
          all = all && DecorationOf(type, d, w - 2).has_value();
        }
      }
      if (all) Put(decorations_, Op::MemberDecorate, {block, 0, U(d)});
    }
    Id top = block;
    for (size_t k = arrays.size(); k-- > 0;) {
      const InstIndex d = m_.Def(arrays[k]);
      const Id wrapped = next_id_++;
      if (m_.opcode(d) == Op::TypeArray) {
        Put(derived_, Op::TypeArray, {wrapped, top, m_.word(d, 3)});
      } else {
        Put(derived_, Op::TypeRuntimeArray, {wrapped, top});
      }
      top = wrapped;
    }
    it->second = next_id_++;
    Put(derived_, Op::Variable,
        {Pointer(spv::StorageClass::StorageBuffer, top), it->second,
         U(spv::StorageClass::StorageBuffer)});
    for (spv::Decoration d : {spv::Decoration::DescriptorSet, spv::Decoration::Binding}) {
      if (const auto value = DecorationOf(variable, d)) {
        Put(decorations_, Op::Decorate, {it->second, U(d), *value});
      }
    }
    for (spv::Decoration d : {spv::Decoration::Coherent, spv::Decoration::Volatile}) {
      if (DecorationOf(variable, d)) Put(decorations_, Op::Decorate, {it->second, U(d)});
    }
    aliased_.insert(variable);
    alias_interface_.push_back(it->second);
  }
  std::vector<uint32_t> chain = {it->second};
  chain.insert(chain.end(), b.leading.begin(), b.leading.end());
  chain.push_back(Const(0));
  uint32_t shift = 0;
  while ((1u << shift) < bytes) ++shift;
  chain.push_back(shift ? Emit(Op::ShiftRightLogical, U32(), {byte, Const(shift)}) : byte);
  return Emit(Op::AccessChain, Pointer(spv::StorageClass::StorageBuffer, scalar), chain);
}

Id Lowering::LoadAt(InstIndex at, const Buffer& b, Id byte, Id type,
                    const std::vector<uint32_t>& operands, Id result) {
  const InstIndex d = m_.Def(type);
  const Op op = d == ir::kNoInst ? Op::Nop : m_.opcode(d);
  if (op == Op::TypeInt || op == Op::TypeFloat) {
    std::vector<uint32_t> load = {ScalarPointer(b, type, byte)};
    load.insert(load.end(), operands.begin(), operands.end());
    return Emit(Op::Load, type, load, result);
  }
  std::vector<uint32_t> parts;
  for (const auto& [element, offset] : LaidOutParts(type)) {
    parts.push_back(LoadAt(at, b, AddBytes(byte, offset), element, operands));
    if (failed()) return 0;
  }
  if (parts.empty()) {
    Fail(at, "a value read through a block pointer is not made of 8- to 64-bit scalars");
    return 0;
  }
  return Emit(Op::CompositeConstruct, type, parts, result);
}

void Lowering::StoreAt(InstIndex at, const Buffer& b, Id byte, Id type, Id value,
                       const std::vector<uint32_t>& operands) {
  const InstIndex d = m_.Def(type);
  const Op op = d == ir::kNoInst ? Op::Nop : m_.opcode(d);
  if (op == Op::TypeInt || op == Op::TypeFloat) {
    std::vector<uint32_t> store = {ScalarPointer(b, type, byte), value};
    store.insert(store.end(), operands.begin(), operands.end());
    Put(body_, Op::Store, store);
    return;
  }
  const auto parts = LaidOutParts(type);
  for (uint32_t k = 0; k < parts.size() && !failed(); ++k) {
    const auto& [element, offset] = parts[k];
    StoreAt(at, b, AddBytes(byte, offset), element, Emit(Op::CompositeExtract, element, {value, k}),
            operands);
  }
  if (parts.empty())
    Fail(at, "a value written through a block pointer is not made of 8- to 64-bit scalars");
}

Id Lowering::StridedPointer(Id pointee, uint32_t stride) {
  auto [it, fresh] = strided_.emplace(std::pair{pointee, stride}, 0);
  if (fresh) {
    // A pointer type of its own: the module's may carry another ArrayStride, or none.
    it->second = next_id_++;
    Put(derived_, Op::TypePointer,
        {it->second, U(spv::StorageClass::PhysicalStorageBuffer), pointee});
    Put(decorations_, Op::Decorate, {it->second, U(spv::Decoration::ArrayStride), stride});
  }
  return it->second;
}

Id Lowering::OffsetClone(InstIndex at, Id function, const Buffer& b) {
  std::vector<uint32_t> key = {function, b.variable};
  key.insert(key.end(), b.leading.begin(), b.leading.end());
  auto found = clones_.find(key);
  if (found != clones_.end()) return found->second;
  const ir::Function* f = nullptr;
  for (const ir::Function& g : m_.functions()) {
    if (m_.result_id(g.def) == function) f = &g;
  }
  if (!f || f->end == ir::kNoInst) {
    Fail(at, "DecodeFunc (or a function it passes a block pointer to) has no body");
    return 0;
  }
  // Fresh ids for everything the function defines.
  std::map<Id, Id> map;
  for (InstIndex i = f->def; i <= f->end; ++i) {
    if (m_.result_id(i)) map[m_.result_id(i)] = next_id_++;
  }
  const Id clone = map[function];
  clones_[key] = clone;
  const Id u32 = U32();
  // Types: a PhysicalStorageBuffer pointer is a uint32 byte offset, a Function variable holding
  // one holds the offset; anything else with such a pointer inside is not lowered.
  std::function<bool(Id)> holds_pointer = [&](Id type) {
    const InstIndex d = m_.Def(type);
    if (d == ir::kNoInst) return false;
    switch (m_.opcode(d)) {
      case Op::TypePointer:
        return IsPhysicalPointer(type) || holds_pointer(m_.word(d, 3));
      case Op::TypeArray:
      case Op::TypeRuntimeArray:
      case Op::TypeVector:
        return holds_pointer(m_.word(d, 2));
      case Op::TypeStruct:
        for (uint32_t w = 2; w < m_.num_words(d); ++w) {
          if (holds_pointer(m_.word(d, w))) return true;
        }
        return false;
      default:
        return false;
    }
  };
  auto map_type = [&](Id type) -> Id {
    if (!type || !holds_pointer(type)) return type;
    if (IsPhysicalPointer(type)) return u32;
    const InstIndex d = m_.Def(type);
    if (m_.opcode(d) == Op::TypePointer && m_.word(d, 2) == U(spv::StorageClass::Function) &&
        IsPhysicalPointer(m_.word(d, 3))) {
      return Pointer(spv::StorageClass::Function, u32);
    }
    return 0;
  };
  auto map_id = [&](Id id) -> Id {
    auto it = map.find(id);
    if (it != map.end()) return it->second;
    // A null or undefined block pointer of the module's globals: offset 0 (nothing may read
    // through it).
    const Op op = m_.DefOpcode(id);
    if ((op == Op::ConstantNull || op == Op::Undef) && IsPhysicalPointer(m_.TypeOf(id))) {
      return Const(0);
    }
    return id;
  };
  auto is_offset = [&](Id id) { return IsPhysicalPointer(m_.TypeOf(id)); };
  // A pointer to a Function variable (which then holds an offset).
  auto in_function = [&](Id pointer) {
    const InstIndex d = m_.Def(m_.TypeOf(pointer));
    return d != ir::kNoInst && m_.opcode(d) == Op::TypePointer &&
           m_.word(d, 2) == U(spv::StorageClass::Function);
  };
  // A 64-bit address stands for an offset as 2^32 + offset: never null, and its low bits (the
  // alignment a shader may test) are the offset's.
  auto to_address = [&](Id offset, Id type) -> Id {
    const InstIndex td = m_.Def(type);
    if (m_.opcode(td) == Op::TypeVector) {  // uvec2 / ivec2: low word, high word.
      const Id v = Emit(Op::CompositeConstruct, Declare(derived_, Op::TypeVector, {u32, 2}),
                        {offset, Const(1)});
      return Emit(Op::Bitcast, type, {v});
    }
    if (m_.word(td, 2) == 32) return m_.word(td, 3) ? Emit(Op::Bitcast, type, {offset}) : offset;
    const Id u64 = Declare(scalar_types_, Op::TypeInt, {64, 0});
    const Id wide =
        Emit(Op::IAdd, u64,
             {Emit(Op::UConvert, u64, {offset}), Declare(constants_, Op::Constant, {u64, 0, 1})});
    return m_.word(td, 3) ? Emit(Op::Bitcast, type, {wide}) : wide;
  };
  // `value` is the clone's copy of the module's `original`.
  auto from_address = [&](Id value, Id original) -> Id {
    const InstIndex td = m_.Def(m_.TypeOf(original));
    if (m_.opcode(td) == Op::TypeVector) {
      return Emit(Op::CompositeExtract, u32, {value, 0});
    }
    return m_.word(td, 2) == 32 ? IndexAsU32(value, m_.TypeOf(original))
                                : Emit(Op::UConvert, u32, {value});
  };

  std::vector<uint32_t> saved;
  std::swap(body_, saved);
  for (InstIndex i = f->def; i <= f->end && !failed(); ++i) {
    const ir::Inst inst = m_.inst(i);
    const Op op = m_.opcode(i);
    const Id result = m_.result_id(i) ? map[m_.result_id(i)] : 0;
    const Id type = map_type(m_.type_id(i));
    if (m_.type_id(i) && !type) {
      Fail(at, "DecodeFunc keeps a block pointer inside a composite (" +
                   DescribeInstruction(m_, i) + "), which is not lowered");
      break;
    }
    auto operand = [&](uint32_t w) { return map_id(m_.word(i, w)); };
    switch (op) {
      case Op::Function: {
        const InstIndex ft = m_.Def(m_.word(i, 4));
        std::vector<uint32_t> words = {type};
        for (uint32_t w = 3; w < m_.num_words(ft); ++w) words.push_back(map_type(m_.word(ft, w)));
        if (std::find(words.begin(), words.end(), 0u) != words.end()) {
          Fail(at,
               "a function taking or returning a block pointer inside a composite is not "
               "lowered");
          break;
        }
        Put(body_, Op::Function,
            {type, result, m_.word(i, 3), Declare(derived_, Op::TypeFunction, words)});
        continue;
      }
      case Op::Load:
        if (is_offset(m_.word(i, 3))) {
          LoadAt(at, b, operand(3), m_.type_id(i), MemoryOperandsWithoutAligned(i, 4), result);
          continue;
        }
        if (IsPhysicalPointer(m_.type_id(i)) && !in_function(m_.word(i, 3))) {
          Fail(at, "DecodeFunc reads a block pointer from memory (" + DescribeInstruction(m_, i) +
                       "), which is not lowered");
        }
        break;
      case Op::Store:
        if (is_offset(m_.word(i, 1))) {
          StoreAt(at, b, operand(1), m_.TypeOf(m_.word(i, 2)), operand(2),
                  MemoryOperandsWithoutAligned(i, 3));
          continue;
        }
        if (is_offset(m_.word(i, 2)) && !in_function(m_.word(i, 1))) {
          Fail(at, "DecodeFunc writes its block pointer to memory (" + DescribeInstruction(m_, i) +
                       "), which is not lowered");
        }
        break;
      case Op::AccessChain:
      case Op::InBoundsAccessChain:
      case Op::PtrAccessChain:
      case Op::InBoundsPtrAccessChain: {
        if (!is_offset(m_.word(i, 3))) break;
        const Id base_type = m_.TypeOf(m_.word(i, 3));
        Id byte = operand(3), pointee = m_.word(m_.Def(base_type), 3);
        uint32_t w = 4;
        if (op == Op::PtrAccessChain || op == Op::InBoundsPtrAccessChain) {
          // Element: steps of the base pointer type's ArrayStride.
          const auto stride = DecorationOf(base_type, spv::Decoration::ArrayStride);
          if (!stride) {
            Fail(at, "OpPtrAccessChain on a block pointer whose type has no ArrayStride");
            break;
          }
          byte = Emit(
              Op::IAdd, u32,
              {byte, Emit(Op::IMul, u32,
                          {IndexAsU32(operand(w), m_.TypeOf(m_.word(i, w))), Const(*stride)})});
          ++w;
        }
        for (; w < m_.num_words(i) && !failed(); ++w) {
          StepInto(at, &pointee, m_.word(i, w), &byte, operand(w));
        }
        Emit(Op::CopyObject, u32, {byte}, result);
        continue;
      }
      case Op::Bitcast:
      case Op::ConvertPtrToU:
      case Op::ConvertUToPtr: {
        const bool from = is_offset(m_.word(i, 3)), to = IsPhysicalPointer(m_.type_id(i));
        if (!from && !to) break;
        if (from && to) {
          Emit(Op::CopyObject, u32, {operand(3)}, result);
        } else if (from) {
          Emit(Op::CopyObject, m_.type_id(i), {to_address(operand(3), m_.type_id(i))}, result);
        } else {
          Emit(Op::CopyObject, u32, {from_address(operand(3), m_.word(i, 3))}, result);
        }
        continue;
      }
      case Op::PtrEqual:
      case Op::PtrNotEqual:
        if (!is_offset(m_.word(i, 3))) break;
        Emit(op == Op::PtrEqual ? Op::IEqual : Op::INotEqual, m_.type_id(i),
             {operand(3), operand(4)}, result);
        continue;
      case Op::PtrDiff: {
        if (!is_offset(m_.word(i, 3))) break;
        // (a - b) / the pointee's size, signed, in the result's integer type.
        const auto bytes = LaidOutBytes(m_.word(m_.Def(m_.TypeOf(m_.word(i, 3))), 3));
        const Id i32 = Declare(scalar_types_, Op::TypeInt, {32, 1});
        const Id diff = Emit(Op::Bitcast, i32, {Emit(Op::ISub, u32, {operand(3), operand(4)})});
        const Id q = Emit(Op::SDiv, i32,
                          {diff, Declare(constants_, Op::Constant, {i32, bytes.value_or(1)})});
        const InstIndex rt = m_.Def(m_.type_id(i));
        const Op convert = m_.word(rt, 2) != 32 ? Op::SConvert
                           : m_.word(rt, 3)     ? Op::CopyObject
                                                : Op::Bitcast;
        Emit(convert, m_.type_id(i), {q}, result);
        continue;
      }
      case Op::FunctionCall: {
        // A callee taking or returning block pointers takes offsets too: its clone.
        const InstIndex ft = m_.Def(m_.word(m_.Def(m_.word(i, 3)), 4));
        bool takes = false;
        for (uint32_t w = 2; w < m_.num_words(ft); ++w)
          takes = takes || holds_pointer(m_.word(ft, w));
        if (!takes) break;
        std::vector<uint32_t> words = {type, result, OffsetClone(at, m_.word(i, 3), b)};
        for (uint32_t w = 4; w < m_.num_words(i); ++w) words.push_back(operand(w));
        Put(body_, Op::FunctionCall, words);
        continue;
      }
      case Op::Phi:
      case Op::Select:
      case Op::CopyObject:
      case Op::ReturnValue:
      case Op::Variable:
      case Op::FunctionParameter:
        break;  // Copied with their types mapped: offsets flow through them as values.
      default:
        for (const auto& o : inst.operands) {
          const uint32_t first = m_.type_id(i) ? 3 : m_.result_id(i) ? 2 : 1;
          if (grammar::IsIdKind(o.kind) && o.offset >= first && is_offset(m_.word(i, o.offset))) {
            Fail(at, "DecodeFunc uses its block pointer in " + DescribeInstruction(m_, i) +
                         ", which is not lowered");
            break;
          }
        }
        break;
    }
    if (failed()) break;
    // Copied with fresh ids and mapped types.
    std::vector<uint32_t> words(inst.words.begin(), inst.words.end());
    for (const auto& o : inst.operands) {
      if (!grammar::IsIdKind(o.kind)) continue;
      uint32_t& word = words[o.offset];
      word = m_.type_id(i) && o.offset == 1 ? type : map_id(word);
    }
    body_.insert(body_.end(), words.begin(), words.end());
  }
  std::vector<uint32_t> code;
  std::swap(body_, code);
  std::swap(body_, saved);
  if (failed()) return 0;
  clone_code_.insert(clone_code_.end(), code.begin(), code.end());
  return clone;
}

void Lowering::LowerLoadTensor(InstIndex i) {
  TensorAccess a;
  if (!ReadTensorAccess(i, false, &a)) return;
  const uint32_t elements = a.rows * a.cols;
  const Region region = RegionOf(a.component, elements);
  const bool constant =
      a.layout_type->clamp_mode == kUndefined || a.layout_type->clamp_mode == kConstant;
  const Id clamp = constant ? ClampValueAs(a) : 0;
  // With a view, the elements outside its clip rectangle are Object's.
  if (a.view) StoreMatrix(region, a.object, false, a.cols);
  PrepareAddressing(&a);
  if (failed()) return;
  const ElementLoop loop = BeginElements(region, elements);
  const Id e = loop.e;
  const auto [in_clip, index] = Clip(a, e);
  Id value = 0, in_bounds = 0;
  if (a.decode) {
    std::vector<Id> coordinate;
    in_bounds = ElementAddress(a, index, true, &coordinate).second;
    value = Decode(a, coordinate);
    if (failed()) return;
  } else {
    Id address = 0;
    std::tie(address, in_bounds) = ElementAddress(a, index, true);
    std::vector<uint32_t> load = {address};
    load.insert(load.end(), a.element_operands.begin(), a.element_operands.end());
    value = Emit(Op::Load, a.component, load);
  }
  if (constant) value = Emit(Op::Select, a.component, {in_bounds, value, clamp});
  if (in_clip) value = Emit(Op::Select, a.component, {in_clip, value, LoadSlot(region, e)});
  StoreSlot(region, e, value);
  EndElements(loop);
  LoadMatrix(region, a.matrix_type, m_.result_id(i), false, a.cols);
}

void Lowering::LowerStoreTensor(InstIndex i) {
  TensorAccess a;
  if (!ReadTensorAccess(i, true, &a)) return;
  const uint32_t elements = a.rows * a.cols;
  const Region region = RegionOf(a.component, elements);
  StoreMatrix(region, a.object, false, a.cols);
  PrepareAddressing(&a);
  if (failed()) return;
  const ElementLoop loop = BeginElements(region, elements);
  const Id e = loop.e;
  const Id value = LoadSlot(region, e);
  const auto [in_clip, index] = Clip(a, e);
  auto [address, in_bounds] = ElementAddress(a, index, false);
  if (in_clip) in_bounds = Emit(Op::LogicalAnd, Bool(), {in_bounds, in_clip});
  if (workgroup_matrices_.count(a.matrix_type) && !shared_) {
    const Id first = Emit(Op::IEqual, Bool(), {region.group, Const(0)});
    in_bounds = Emit(Op::LogicalAnd, Bool(), {in_bounds, first});
  }
  const Id write = next_id_++;
  const Id merge = next_id_++;
  EmitVoid(Op::SelectionMerge, {merge, 0u});
  EmitVoid(Op::BranchConditional, {in_bounds, write, merge});
  Put(body_, Op::Label, {write});
  std::vector<uint32_t> w = {address, value};
  w.insert(w.end(), a.element_operands.begin(), a.element_operands.end());
  Put(body_, Op::Store, w);
  EmitVoid(Op::Branch, {merge});
  Put(body_, Op::Label, {merge});
  current_label_ = merge;
  EndElements(loop);
  Barrier();
}

// A Workgroup-scope matrix's OpCooperativeMatrixStoreKHR, kept as it is, runs in subgroup 0 only
// (every subgroup holds the same matrix).
void Lowering::LowerWorkgroupStore(InstIndex i) {
  const Id group =
      Emit(Op::Load, U32(), {InputBuiltin(&subgroup_variable_, spv::BuiltIn::SubgroupId)});
  const Id first = Emit(Op::IEqual, Bool(), {group, Const(0)});
  const Id write = next_id_++;
  const Id merge = next_id_++;
  EmitVoid(Op::SelectionMerge, {merge, 0u});
  EmitVoid(Op::BranchConditional, {first, write, merge});
  Put(body_, Op::Label, {write});
  const ir::Inst inst = m_.inst(i);
  body_.insert(body_.end(), inst.words.begin(), inst.words.end());
  EmitVoid(Op::Branch, {merge});
  Put(body_, Op::Label, {merge});
  current_label_ = merge;
}

// A Workgroup-scope multiply-add split by rows (shared_): subgroup 0 stores A and C into the
// workgroup's regions, subgroup g loads rows [g * R / W, (g + 1) * R / W) of each as a Subgroup
// matrix, multiplies them by the whole B and stores those rows of the result where its C rows
// were; every subgroup then loads the whole result.
void Lowering::LowerWorkgroupMulAdd(InstIndex i) {
  MatrixInfo a, c, d;
  if (!ReadMatrix(i, m_.TypeOf(m_.word(i, 3)), &a) ||
      !ReadMatrix(i, m_.TypeOf(m_.word(i, 5)), &c) || !ReadMatrix(i, m_.type_id(i), &d)) {
    return;
  }
  const uint32_t rows = a.rows / (workgroup_size_ / s_);
  auto part = [&](const MatrixInfo& m, uint32_t use) {
    return Declare(
        derived_, Op::TypeCooperativeMatrixKHR,
        {m.component, Const(U(spv::Scope::Subgroup)), Const(rows), Const(m.cols), Const(use)});
  };
  const uint32_t c_offset = a.component == c.component ? a.rows * a.cols : 0;
  const Region ra = RegionOf(a.component, a.rows * a.cols);
  const Region rc = RegionOf(c.component, c_offset + c.rows * c.cols);
  StoreMatrix(ra, m_.word(i, 3), false, a.cols);
  StoreMatrix(rc, m_.word(i, 5), false, c.cols, c_offset);
  auto block = [&](const Region& r, uint32_t offset, uint32_t cols) {
    const Id start = Emit(Op::IMul, U32(), {r.group, Const(rows * cols)});
    return Emit(Op::AccessChain, r.pointer,
                {r.scratch, offset ? Emit(Op::IAdd, U32(), {start, Const(offset)}) : start});
  };
  std::vector<uint32_t> access = ScratchAccess();
  auto load = [&](Id type, Id base, uint32_t cols) {
    std::vector<uint32_t> words = {base, Const(0), Const(cols)};
    words.insert(words.end(), access.begin(), access.end());
    return Emit(Op::CooperativeMatrixLoadKHR, type, words);
  };
  const Id a_rows = load(part(a, 0), block(ra, 0, a.cols), a.cols);
  const Id c_block = block(rc, c_offset, c.cols);
  const Id c_rows = load(part(c, 2), c_block, c.cols);
  std::vector<uint32_t> mul_add = {a_rows, m_.word(i, 4), c_rows};
  for (uint32_t w = 6; w < m_.num_words(i); ++w) mul_add.push_back(m_.word(i, w));
  const Id d_rows = Emit(Op::CooperativeMatrixMulAddKHR, part(d, 2), mul_add);
  std::vector<uint32_t> store = {c_block, d_rows, Const(0), Const(c.cols)};
  store.insert(store.end(), access.begin(), access.end());
  Put(body_, Op::CooperativeMatrixStoreKHR, store);
  LoadMatrix(rc, d.type, m_.result_id(i), false, d.cols, c_offset);
}

// A conversion that changes the Use too: the operand is stored to the region of its component
// type, each invocation converts its elements (the same conversion on scalars) into the region
// of the result's component type, and the result is loaded from there. No matrix of the result's
// component type at the operand's Use is made: a device may list none (the H100 has no bfloat16
// accumulator, which ggml's bfloat16 flash attention would need for its P -> P_A conversion).
void Lowering::LowerConversionWithUse(InstIndex i) {
  MatrixInfo in, out;
  if (!ReadMatrix(i, m_.TypeOf(m_.word(i, 3)), &in) || !ReadMatrix(i, m_.type_id(i), &out)) return;
  if (in.rows != out.rows || in.cols != out.cols) {
    Fail(i, "the operand's shape differs from the result's");
    return;
  }
  if (in.component == out.component) {
    Fail(i, "the operand's component type is the result's");
    return;
  }
  const uint32_t elements = in.rows * in.cols;
  const Region from = RegionOf(in.component, elements);
  const Region to = RegionOf(out.component, elements);
  StoreMatrix(from, m_.word(i, 3), false, in.cols);
  const ElementLoop loop = BeginElements(from, elements);
  StoreSlot(to, loop.e, Emit(m_.opcode(i), out.component, {LoadSlot(from, loop.e)}));
  EndElements(loop);
  LoadMatrix(to, out.type, m_.result_id(i), false, out.cols);
}

// Transpose: stored row-major, loaded column-major with the same stride. Use conversion: stored
// and loaded row-major.
void Lowering::LowerTransposeOrConvertUse(InstIndex i) {
  MatrixInfo in, out;
  if (!ReadMatrix(i, m_.TypeOf(m_.word(i, 3)), &in) || !ReadMatrix(i, m_.type_id(i), &out)) return;
  if (in.component != out.component) {
    Fail(i, "a conversion between component types is not lowered yet");
    return;
  }
  const Region region = RegionOf(in.component, in.rows * in.cols);
  StoreMatrix(region, m_.word(i, 3), false, in.cols);
  LoadMatrix(region, out.type, m_.result_id(i), m_.opcode(i) == Op::CooperativeMatrixTransposeNV,
             in.cols);
}

// Func(row, column, element, Operands...) for each element, by the invocation that holds slot
// e of the region; the results go to the result component's region and are loaded from there.
// An operand that is a matrix of the same shape passes its element (row, column): the k-th such
// operand is stored (k + 1) * R * C elements into its component's region.
void Lowering::LowerPerElementOp(InstIndex i) {
  MatrixInfo in, out;
  if (!ReadMatrix(i, m_.TypeOf(m_.word(i, 3)), &in) || !ReadMatrix(i, m_.type_id(i), &out)) return;
  const Id func = m_.word(i, 4);
  const InstIndex fd = m_.Def(func);
  const InstIndex ft = fd == ir::kNoInst ? ir::kNoInst : m_.Def(m_.word(fd, 4));
  if (ft == ir::kNoInst || m_.opcode(ft) != Op::TypeFunction || m_.num_words(ft) < 6) {
    Fail(i, "Func is not a function of (row, column, element, ...)");
    return;
  }
  const uint32_t elements = in.rows * in.cols;
  const Region from = RegionOf(in.component, elements);
  const Region to = out.component == in.component ? from : RegionOf(out.component, elements);
  StoreMatrix(from, m_.word(i, 3), false, in.cols);
  std::map<uint32_t, std::pair<Region, uint32_t>> matrix_operands;  // By word: region, offset.
  for (uint32_t w = 5; w < m_.num_words(i); ++w) {
    const Id type = m_.TypeOf(m_.word(i, w));
    const InstIndex td = m_.Def(type);
    if (td == ir::kNoInst || m_.opcode(td) != Op::TypeCooperativeMatrixKHR) continue;
    MatrixInfo operand;
    if (!ReadMatrix(i, type, &operand)) return;
    if (operand.rows != in.rows || operand.cols != in.cols) {
      Fail(i, "a matrix operand's shape differs from the matrix's");
      return;
    }
    const uint32_t offset = (static_cast<uint32_t>(matrix_operands.size()) + 1) * elements;
    const Region r = RegionOf(operand.component, offset + elements);
    StoreMatrix(r, m_.word(i, w), false, in.cols, offset);
    matrix_operands[w] = {r, offset};
  }
  const ElementLoop loop = BeginElements(from, elements);
  const Id e = loop.e;
  const Id row = Emit(Op::UDiv, U32(), {e, Const(in.cols)});
  const Id col = Emit(Op::UMod, U32(), {e, Const(in.cols)});
  std::vector<uint32_t> call = {func, AsParameter(ft, 0, row), AsParameter(ft, 1, col),
                                LoadSlot(from, e)};
  for (uint32_t w = 5; w < m_.num_words(i); ++w) {
    auto it = matrix_operands.find(w);
    if (it == matrix_operands.end()) {
      call.push_back(m_.word(i, w));
    } else {
      const auto& [r, offset] = it->second;
      call.push_back(LoadSlot(r, Emit(Op::IAdd, U32(), {e, Const(offset)})));
    }
  }
  StoreSlot(to, e, Emit(Op::FunctionCall, out.component, call));
  EndElements(loop);
  LoadMatrix(to, out.type, m_.result_id(i), false, in.cols);
}

// Reductions: every invocation computes its result slots from the stored matrix (CombineFunc
// applied left to right over the row, the column, everything, or the 2x2 block) and writes
// them after the matrix in the region, where the result is loaded from.
void Lowering::LowerReduce(InstIndex i) {
  MatrixInfo in, out;
  if (!ReadMatrix(i, m_.TypeOf(m_.word(i, 3)), &in) || !ReadMatrix(i, m_.type_id(i), &out)) return;
  const uint32_t mask = m_.word(i, 4);
  const Id combine = m_.word(i, 5);
  const bool by_row = mask & 1, by_column = mask & 2, quad = mask & 4;
  if (in.component != out.component || (quad && (by_row || by_column)) || mask == 0 ||
      (quad && (out.rows * 2 != in.rows || out.cols * 2 != in.cols)) ||
      (by_row && !by_column && out.rows != in.rows) ||
      (by_column && !by_row && out.cols != in.cols)) {
    Fail(i, "the Reduce mask and the result type do not match");
    return;
  }
  // The input at the region's start, the results after it: a Row (Column) reduction's one
  // value per row (column), which a load with Stride 0 spreads over the result's columns (rows).
  const uint32_t inputs = in.rows * in.cols;
  const bool everything = by_row && by_column;
  const uint32_t results = everything ? 0 : quad ? out.rows * out.cols : by_row ? out.rows
                                                                               : out.cols;
  const Region region = RegionOf(in.component, inputs + results);
  StoreMatrix(region, m_.word(i, 3), false, in.cols);
  if (everything) {
    // Row|Column: every invocation folds the whole matrix, and the result is that one value
    // in every element (a replicated construct, whose elements the validator knows agree).
    const Id total = Fold(region, combine, inputs, [](Id k) { return k; });
    Barrier();  // Every read of the region before the next write to it.
    Emit(Op::CompositeConstruct, out.type, {total}, m_.result_id(i));
    return;
  }
  const Id u32 = U32();
  auto at = [&](Id row, Id col) {
    return Emit(Op::IAdd, u32, {Emit(Op::IMul, u32, {row, Const(in.cols)}), col});
  };
  const ElementLoop loop = BeginElements(region, results);
  const Id e = loop.e;
  Id value = 0;
  const Id r = quad ? Emit(Op::UDiv, u32, {e, Const(out.cols)}) : e;
  const Id c = quad ? Emit(Op::UMod, u32, {e, Const(out.cols)}) : e;
  if (quad) {
    const Id r2 = Emit(Op::IMul, u32, {r, Const(2)});
    const Id c2 = Emit(Op::IMul, u32, {c, Const(2)});
    const Id r21 = Emit(Op::IAdd, u32, {r2, Const(1)});
    const Id c21 = Emit(Op::IAdd, u32, {c2, Const(1)});
    const Id block[4] = {at(r2, c2), at(r2, c21), at(r21, c2), at(r21, c21)};
    value = LoadSlot(region, block[0]);
    for (int k = 1; k < 4; ++k) {
      value = Emit(Op::FunctionCall, in.component, {combine, value, LoadSlot(region, block[k])});
    }
  } else if (by_row) {
    value = Fold(region, combine, in.cols, [&](Id x) { return at(r, x); });
  } else {
    value = Fold(region, combine, in.rows, [&](Id y) { return at(y, c); });
  }
  StoreSlot(region, Emit(Op::IAdd, u32, {e, Const(inputs)}), value);
  EndElements(loop);
  // 2x2: row-major. Row: column-major with Stride 0 (element (r, c) is value r); Column:
  // row-major with Stride 0 (element (r, c) is value c).
  LoadMatrix(region, out.type, m_.result_id(i), by_row && !quad, quad ? out.cols : 0, inputs);
}

// An instruction on Workgroup-scope matrices shares its element loops among the workgroup's
// invocations when the workgroup size is known and divides every loop's element count (the
// matrix's and the result's; a 2x2 reduction's result has a quarter of the elements).
bool Lowering::SharesWork(InstIndex i) const {
  if (!workgroup_size_) return false;
  const Op op = m_.opcode(i);
  std::vector<Id> types;
  switch (op) {
    case Op::CooperativeMatrixLoadTensorNV:
      types = {m_.type_id(i)};
      break;
    case Op::CooperativeMatrixStoreTensorNV:
      types = {m_.TypeOf(m_.word(i, 2))};
      break;
    case Op::CooperativeMatrixTransposeNV:
    case Op::CooperativeMatrixConvertUseEXT:
    case Op::CooperativeMatrixPerElementOpEXT:
    case Op::CooperativeMatrixReduceEXT:
      types = {m_.type_id(i), m_.TypeOf(m_.word(i, 3))};
      break;
    case Op::CooperativeMatrixMulAddKHR: {
      if (replicated_.count(i)) return false;
      // Split by rows among the subgroups (head comment); not in a loop header block, whose
      // split this pass does not do (the multiply-add then stays replicated).
      const ir::Block& block = m_.blocks()[m_.BlockOf(i)];
      if (block.end >= 2 && m_.opcode(block.end - 2) == Op::LoopMerge) return false;
      if (workgroup_size_ % s_ != 0) return false;
      const uint32_t groups = workgroup_size_ / s_;
      // The result, A (word 3), B (word 4: stays whole) and C (word 5).
      for (uint32_t w : {2u, 3u, 4u, 5u}) {
        const Id type = w == 2 ? m_.type_id(i) : m_.TypeOf(m_.word(i, w));
        if (!workgroup_matrices_.count(type)) return false;
        const InstIndex d = m_.Def(type);
        const auto rows = ConstantValue(m_.word(d, 4)), cols = ConstantValue(m_.word(d, 5));
        if (w != 4 &&
            (!rows || !cols || *rows % groups != 0 || (*rows / groups * *cols) % s_ != 0 ||
             (*rows / groups) % split_rows_multiple_ != 0)) {
          return false;
        }
      }
      return true;
    }
    default:
      if (!ConvertsUse(i)) return false;
      types = {m_.type_id(i), m_.TypeOf(m_.word(i, 3))};
      break;
  }
  for (Id type : types) {
    if (!workgroup_matrices_.count(type)) return false;
    const InstIndex d = m_.Def(type);
    const auto rows = ConstantValue(m_.word(d, 4)), cols = ConstantValue(m_.word(d, 5));
    if (!rows || !cols || (*rows * *cols) % workgroup_size_ != 0) return false;
  }
  return true;
}

bool Lowering::OwnedInstruction(InstIndex i) const {
  if (owned_.count(m_.type_id(i))) return true;
  for (uint32_t w = 1; w < m_.num_words(i); ++w) {
    const Id id = m_.word(i, w);
    if (m_.Def(id) != ir::kNoInst && owned_.count(m_.TypeOf(id))) return true;
  }
  return false;
}

// Before instruction i's code: a loop over the rounds r, entered by the subgroups whose
// SubgroupId % rounds is r; i's result gets a fresh id in there (carried around the loop).
Lowering::Rounds Lowering::BeginRounds(InstIndex i) {
  Rounds r;
  const Id result = m_.result_id(i);
  if (result && m_.type_id(i)) {
    r.result = result;
    r.type = m_.type_id(i);
    renamed_result_ = result;
    round_result_ = next_id_++;
    const Id undef = next_id_++;
    Put(derived_, Op::Undef, {r.type, undef});
    r.loop = BeginSlotLoop(round_count_, 0, r.type, undef);
  } else {
    r.loop = BeginSlotLoop(round_count_);
  }
  const Id u32 = U32();
  const Id group =
      Emit(Op::Load, u32, {InputBuiltin(&subgroup_variable_, spv::BuiltIn::SubgroupId)});
  const Id mine = Emit(Op::IEqual, Bool(), {Emit(Op::UMod, u32, {group, Const(round_count_)}),
                                             r.loop.j});
  const Id run = next_id_++;
  r.merge = next_id_++;
  r.header = current_label_;
  EmitVoid(Op::SelectionMerge, {r.merge, 0u});
  EmitVoid(Op::BranchConditional, {mine, run, r.merge});
  Put(body_, Op::Label, {run});
  current_label_ = run;
  return r;
}

// After instruction i's code: the selection and the round's Workgroup barrier closed, the
// result (the round's, else the value carried in) given its own id after the loop.
void Lowering::EndRounds(const Rounds& r) {
  const Id ran = current_label_;
  EmitVoid(Op::Branch, {r.merge});
  Put(body_, Op::Label, {r.merge});
  current_label_ = r.merge;
  if (r.result) {
    Emit(Op::Phi, r.type, {round_result_, ran, r.loop.carried, r.header}, r.loop.carried_next);
    own_phis_.insert(r.loop.carried_next);
  }
  renamed_result_ = round_result_ = 0;
  Barrier(spv::Scope::Workgroup);
  EndSlotLoop(r.loop);
  if (r.result) Emit(Op::CopyObject, r.type, {r.loop.carried_next}, r.result);
}

bool Lowering::LowerFunction(const ir::Function& f) {
  body_.clear();
  split_blocks_.clear();
  if (f.end == ir::kNoInst) return false;
  for (InstIndex i = f.def; i <= f.end && !failed(); ++i) {
    const Op op = m_.opcode(i);
    const bool converts_use = ConvertsUse(i);
    shared_ = SharesWork(i);
    need_.clear();
    const bool split_mul_add = shared_ && op == Op::CooperativeMatrixMulAddKHR;
    const bool splits = SplitsBlock(i, shared_);
    if (splits) {
      // The lowering splits the block; a loop header must stay one block.
      const ir::Block& block = m_.blocks()[m_.BlockOf(i)];
      if (block.end >= 2 && m_.opcode(block.end - 2) == Op::LoopMerge) {
        Fail(i, "not lowered yet in a loop header block");
        break;
      }
    }
    // The workgroup's region overlaps the subgroups' ones, which other subgroups may still use.
    if (shared_ && splits && mixed_regions_) Barrier();
    // An owned instruction through its subgroup's region, in rounds (set_owned): after a
    // Workgroup barrier (the subgroups' regions are laid out otherwise for it).
    const bool owned_regions = splits && !shared_ && OwnedInstruction(i);
    round_count_ = 1;
    if (owned_regions && rounds_.count(i)) round_count_ = std::min(rounds_.at(i), num_subgroups_);
    const bool rounds = round_count_ > 1 && num_subgroups_ % round_count_ == 0;
    if (!rounds) round_count_ = 1;
    Rounds r;
    if (rounds) {
      Barrier(spv::Scope::Workgroup);
      r = BeginRounds(i);
    }
    switch (op) {
      case Op::CreateTensorViewNV:
      case Op::TensorViewSetClipNV:
      case Op::TensorViewSetDimensionNV:
      case Op::TensorViewSetStrideNV:
        LowerViewOp(i);
        continue;
      case Op::CreateTensorLayoutNV:
      case Op::TensorLayoutSetDimensionNV:
      case Op::TensorLayoutSetStrideNV:
      case Op::TensorLayoutSliceNV:
      case Op::TensorLayoutSetClampValueNV:
      case Op::TensorLayoutSetBlockSizeNV:
        LowerLayoutOp(i);
        continue;
      case Op::CooperativeMatrixLoadTensorNV:
        LowerLoadTensor(i);
        break;
      case Op::CooperativeMatrixStoreTensorNV:
        LowerStoreTensor(i);
        break;
      case Op::CooperativeMatrixTransposeNV:
      case Op::CooperativeMatrixConvertUseEXT:
        LowerTransposeOrConvertUse(i);
        break;
      case Op::CooperativeMatrixPerElementOpEXT:
        LowerPerElementOp(i);
        break;
      case Op::CooperativeMatrixReduceEXT:
        LowerReduce(i);
        break;
      default:
        if (split_mul_add) {
          LowerWorkgroupMulAdd(i);
        } else if (converts_use) {
          LowerConversionWithUse(i);
        } else if (splits) {
          LowerWorkgroupStore(i);
        }
        break;
    }
    if (rounds) EndRounds(r);
    shared_ = false;
    uint64_t need = 0;
    for (const auto& [key, elements] : need_) need += RegionBytes(key.first, elements, key.second);
    if (need > largest_need_) {
      largest_need_ = need;
      largest_need_at_ = i;
    }
    if (need && std::getenv("COOPSPV_REGION_DEBUG")) {
      std::string parts;
      for (const auto& [key, elements] : need_) {
        parts += " " + std::to_string(key.first) + (key.second ? "s:" : ":") +
                 std::to_string(RegionBytes(key.first, elements, key.second));
      }
      std::fprintf(stderr, "region %6lu%s  %s\n", static_cast<unsigned long>(need),
                   parts.c_str(), Describe(i).c_str());
    }
    if (split_mul_add) split_mul_adds_.push_back({i, need});
    if (owned_regions) owned_needs_.push_back({i, need, round_count_});
    if (splits) {
      if (current_label_ != block_label_) split_blocks_[block_label_] = current_label_;
      continue;
    }
    if (op == Op::Label) current_label_ = block_label_ = m_.result_id(i);
    const ir::Inst inst = m_.inst(i);
    body_.insert(body_.end(), inst.words.begin(), inst.words.end());
  }
  if (failed()) return false;
  // OpPhi parents: a split block's edges now leave from its last piece.
  if (!split_blocks_.empty()) {
    for (size_t w = 0; w < body_.size(); w += body_[w] >> 16) {
      if ((body_[w] & 0xffff) != U(Op::Phi) || own_phis_.count(body_[w + 2])) continue;
      const size_t end = w + (body_[w] >> 16);
      for (size_t p = w + 4; p < end; p += 2) {
        auto it = split_blocks_.find(body_[p]);
        if (it != split_blocks_.end()) body_[p] = it->second;
      }
    }
  }
  return true;
}

std::unique_ptr<ir::Module> Lowering::Run(std::string* error, bool* changed) {
  *changed = false;
  bool has_matrix2 = false;
  for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
    const Op op = m_.opcode(i);
    if ((op == Op::Capability && IsMatrix2Capability(m_.word(i, 1))) ||
        op == Op::TypeTensorLayoutNV || op == Op::TypeTensorViewNV ||
        op == Op::CooperativeMatrixLoadTensorNV || op == Op::CooperativeMatrixStoreTensorNV ||
        op == Op::CooperativeMatrixTransposeNV || op == Op::CooperativeMatrixConvertUseEXT ||
        op == Op::CooperativeMatrixPerElementOpEXT || op == Op::CooperativeMatrixReduceEXT ||
        (op == Op::TypeCooperativeMatrixKHR &&
         ConstantValue(m_.word(i, 3)) == U(spv::Scope::Workgroup))) {
      has_matrix2 = true;
      break;
    }
  }
  if (!has_matrix2) return nullptr;
  *changed = true;
  for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
    if (m_.opcode(i) == Op::TensorLayoutSetBlockSizeNV) blocked_layouts_.insert(m_.type_id(i));
  }
  if (!ReadEnvironment()) {
    *error = error_;
    return nullptr;
  }
  InstIndex global_begin = m_.global_end();
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    if (ir::SectionOf(m_.opcode(i)) >= ir::Section::kGlobal) {
      global_begin = i;
      break;
    }
  }
  // Scalar types first, so that the types and constants this pass adds can follow them.
  std::vector<uint32_t> hoisted, globals;
  for (InstIndex i = global_begin; i < m_.global_end() && !failed(); ++i) {
    const Op op = m_.opcode(i);
    if (op == Op::TypeInt || op == Op::TypeFloat || op == Op::TypeBool) {
      const ir::Inst inst = m_.inst(i);
      hoisted.insert(hoisted.end(), inst.words.begin(), inst.words.end());
      continue;
    }
    LowerGlobal(i, globals);
  }
  // (SharesWork knows the Workgroup-scope types now.)
  {
    bool subgroup = false, workgroup = false;
    for (const ir::Function& f : m_.functions()) {
      for (InstIndex i = f.def; f.end != ir::kNoInst && i <= f.end; ++i) {
        const bool shares = SharesWork(i);
        if (SplitsBlock(i, shares)) (shares ? workgroup : subgroup) = true;
      }
    }
    mixed_regions_ = subgroup && workgroup;
  }
  std::vector<uint32_t> functions;
  std::vector<std::pair<size_t, Id>> pending_regions;
  for (const ir::Function& f : m_.functions()) {
    if (failed() || !LowerFunction(f)) break;
    for (const auto& [at, component] : region_uses_) {
      pending_regions.push_back({functions.size() + at, component});
    }
    region_uses_.clear();
    functions.insert(functions.end(), body_.begin(), body_.end());
  }
  // Regions: g * T, every T known now.
  for (const auto& [at, component] : pending_regions) {
    functions[at] = Const(scratch_[component].elements);
  }
  functions.insert(functions.end(), clone_code_.begin(), clone_code_.end());
  const uint32_t version = m_.header().version;
  if (!failed() && (lane_variable_ || subgroup_variable_) && version < grammar::MakeVersion(1, 3)) {
    error_ = "the lowering uses SubgroupId and SubgroupLocalInvocationId, which need SPIR-V 1.3";
  }
  if (failed()) {
    *error = error_;
    return nullptr;
  }
  std::vector<Id> interface;
  if (lane_variable_) interface.push_back(lane_variable_);
  if (subgroup_variable_) interface.push_back(subgroup_variable_);
  if (index_variable_) interface.push_back(index_variable_);
  if (version >= grammar::MakeVersion(1, 4)) {
    interface.insert(interface.end(), alias_interface_.begin(), alias_interface_.end());
  }
  own_bytes_ = OwnWorkgroupBytes();
  // One array per component type: the subgroups' regions or the workgroup's, the larger.
  std::map<Id, std::pair<Id, uint32_t>> arrays;  // component: (variable, elements)
  for (const auto* scratch : {&scratch_, &shared_scratch_}) {
    for (const auto& [component, s] : *scratch) {
      const uint32_t regions = scratch == &scratch_ ? num_subgroups_ : 1;
      auto& [variable, elements] = arrays[component];
      variable = s.variable;
      elements = std::max(elements, s.elements * regions);
    }
  }
  for (const auto& [component, elements] : round_elements_) {
    arrays[component].second = std::max(arrays[component].second, elements);
  }
  for (const auto& [component, array] : arrays) {
    const auto& [variable, elements] = array;
    region_bytes_ += RegionBytes(component, elements, true);
    const Id type = Declare(derived_, Op::TypeArray, {component, Const(elements)});
    Put(derived_, Op::Variable,
        {Pointer(spv::StorageClass::Workgroup, type), variable, U(spv::StorageClass::Workgroup)});
    if (version >= grammar::MakeVersion(1, 4)) interface.push_back(variable);
  }

  bool has_get_coordinate = false;
  for (InstIndex i = 0; i < global_begin; ++i) {
    if (m_.opcode(i) == Op::Capability && m_.word(i, 1) == kGetCoordinateCapability) {
      has_get_coordinate = true;
    }
  }
  std::vector<uint32_t> added;
  if (lane_variable_ || subgroup_variable_) added.push_back(U(spv::Capability::GroupNonUniform));
  std::vector<uint32_t> out = RewritePreamble(
      m_, global_begin, IsMatrix2Capability, added,
      [&](std::string_view name) {
        return std::find(std::begin(kMatrix2Extensions), std::end(kMatrix2Extensions), name) !=
                   std::end(kMatrix2Extensions) ||
               (name == "SPV_EXT_cooperative_matrix_maintenance1" && !has_get_coordinate);
      },
      interface);
  // An aliased variable is no longer Restrict (its alias reaches the same memory).
  if (!aliased_.empty()) {
    std::vector<uint32_t> kept(out.begin(), out.begin() + binary::kHeaderWords);
    for (size_t w = binary::kHeaderWords; w < out.size(); w += out[w] >> 16) {
      const size_t n = out[w] >> 16;
      if (n == 0) break;
      if ((out[w] & 0xFFFF) == U(Op::Decorate) && n == 3 && aliased_.count(out[w + 1]) &&
          out[w + 2] == U(spv::Decoration::Restrict)) {
        continue;
      }
      kept.insert(kept.end(), out.begin() + w, out.begin() + w + n);
    }
    out.swap(kept);
  }
  return JoinAndRead(
      {&out, &decorations_, &hoisted, &scalar_types_, &constants_, &globals, &derived_, &functions},
      next_id_, error);
}

uint64_t Lowering::OwnWorkgroupBytes() const {
  // From SPIR-V 1.4 an entry point's interface lists the variables it uses; before, all count.
  const bool listed = m_.header().version >= grammar::MakeVersion(1, 4);
  std::vector<std::pair<Id, uint64_t>> variables;
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    if (m_.opcode(i) != Op::Variable || m_.num_words(i) < 4 ||
        m_.word(i, 3) != U(spv::StorageClass::Workgroup)) {
      continue;
    }
    const InstIndex pointer = m_.Def(m_.type_id(i));
    std::optional<int64_t> bytes;
    if (pointer != ir::kNoInst && m_.opcode(pointer) == Op::TypePointer) {
      bytes = ir::PlainTypeBytes(m_, m_.word(pointer, 3), [this](Id id) {
        const auto value = ConstantValue(id);
        return value ? std::optional<int64_t>(*value) : std::nullopt;
      });
    }
    variables.push_back({m_.result_id(i), bytes.value_or(0)});
  }
  uint64_t most = 0;
  bool any_entry = false;
  for (InstIndex i = 0; i < m_.global_end(); ++i) {
    if (m_.opcode(i) != Op::EntryPoint) continue;
    any_entry = true;
    const ir::Inst entry = m_.inst(i);
    const std::span<const uint32_t> interface = ir::EntryPointInterface(entry);
    uint64_t total = 0;
    for (const auto& [id, bytes] : variables) {
      if (!listed || std::find(interface.begin(), interface.end(), id) != interface.end()) {
        total += bytes;
      }
    }
    most = std::max(most, total);
  }
  if (!any_entry) {
    for (const auto& v : variables) most += v.second;
  }
  return most;
}

// With a device profile (",<profile>" after the subgroup size), the result goes through
// --tile-coop-matrix for it, so that only shapes the device lists remain (tile_coop_matrix.cc),
// and a multiply-add is split by rows only into pieces whose height a listed shape divides.
// With the device's maxComputeSharedMemorySize, an output that would declare more Workgroup
// memory is lowered again with the split multiply-add whose regions need the most replicated
// (no region for it), until it fits; when it does not with every multiply-add replicated, the
// pass fails naming the instruction whose regions need the most.
class LowerAndTilePass : public Pass {
 public:
  LowerAndTilePass(uint32_t subgroup_size, std::optional<std::vector<TileShape>> shapes,
                   uint32_t shared_memory_limit)
      : subgroup_size_(subgroup_size),
        shapes_(std::move(shapes)),
        shared_memory_limit_(shared_memory_limit) {}
  const char* name() const override { return "lower-coop-matrix2"; }
  PassResult Run(ir::Module& m) override {
    uint32_t rows = 0;
    for (const TileShape& s : shapes_.value_or(std::vector<TileShape>{})) {
      rows = rows ? std::min(rows, s.m) : s.m;
    }
    // One lowering of `input`: again with the split multiply-add whose regions need the most
    // replicated while the output is above the limit.
    struct Attempt {
      std::unique_ptr<ir::Module> lowered;
      bool changed = false;
      bool fits = true;
      std::string error;  // The pass failed.
      std::string too_big;  // Why it does not fit, when it does not.
      std::vector<Lowering::OwnedNeed> owned_needs;  // The lowering's (Lowering::owned_needs).
      uint32_t subgroups = 0;
    };
    std::set<Id> owned_types;  // Owned rows (below), some instructions in rounds.
    auto attempt = [&](ir::Module& input, const std::map<InstIndex, uint32_t>& rounds = {}) {
      Attempt a;
      // Multiply-adds left replicated so far, the one whose regions need the most first.
      std::set<InstIndex> replicated;
      for (;;) {
        Lowering lowering(input, subgroup_size_);
        lowering.set_split_rows_multiple(std::max(rows, 1u));
        lowering.set_replicated(replicated);
        lowering.set_owned(owned_types, rounds);
        a.lowered = lowering.Run(&a.error, &a.changed);
        a.owned_needs = lowering.owned_needs();
        a.subgroups = lowering.subgroups();
        if (!a.error.empty()) return a;
        if (!a.changed || !shared_memory_limit_ ||
            lowering.workgroup_bytes() <= shared_memory_limit_) {
          return a;
        }
        const auto& split = lowering.split_mul_adds();
        if (!split.empty()) {
          replicated.insert(std::max_element(split.begin(), split.end(), [](auto x, auto y) {
                              return x.second < y.second;
                            })->first);
          continue;  // Again, that multiply-add replicated.
        }
        const InstIndex at = lowering.largest_need_at();
        a.fits = false;
        a.too_big =
            (at == ir::kNoInst ? std::string("the module")
                               : lowering.Describe(at) + ": its Workgroup regions need " +
                                     std::to_string(lowering.largest_need()) + " bytes, and") +
            " the lowered module needs " + std::to_string(lowering.workgroup_bytes()) +
            " bytes of Workgroup memory (" + std::to_string(lowering.own_workgroup_bytes()) +
            " of them its own variables) even with every multiply-add replicated";
        return a;
      }
    };
    // Each subgroup owning its rows of the Workgroup-scope matrices that allow it
    // (band_coop_matrix2.cc), at a multiple of the smallest listed M.
    // COOPSPV_OWN_ROWS=0 keeps the matrices whole (the strategy before owned rows), for
    // comparisons.
    const char* own_rows = std::getenv("COOPSPV_OWN_ROWS");
    PassResult owned = own_rows && std::string_view(own_rows) == "0"
                           ? PassResult::Unchanged()
                           : OwnCoopMatrix2Rows(m, subgroup_size_, std::max(rows, 1u), &owned_types);
    if (owned.status == PassStatus::kFailed) {
      return PassResult::Failed("owning rows: " + owned.error);
    }
    ir::Module* input = owned.rebuilt ? owned.rebuilt.get() : &m;
    Attempt a = attempt(*input);
    if (!a.error.empty()) return PassResult::Failed(a.error);
    // While the owned rows do not fit: the owned instructions whose subgroups' regions need the
    // most (at least half the most any needs) go in twice as many rounds (2, 4, ... the
    // subgroups), the others keep their regions.
    std::map<InstIndex, uint32_t> rounds;
    while (!a.fits && owned.rebuilt) {
      // Twice the rounds must still divide the subgroups.
      auto can_double = [&](const Lowering::OwnedNeed& n) {
        return 2 * n.rounds <= a.subgroups && a.subgroups % (2 * n.rounds) == 0;
      };
      uint64_t most = 0;
      for (const auto& n : a.owned_needs) {
        if (can_double(n)) most = std::max(most, n.bytes);
      }
      if (most == 0) break;  // Every owned instruction in as many rounds as it can.
      for (const auto& n : a.owned_needs) {
        if (can_double(n) && 2 * n.bytes >= most) rounds[n.at] = n.rounds * 2;
      }
      a = attempt(*input, rounds);
      if (!a.error.empty()) return PassResult::Failed(a.error);
      if (std::getenv("COOPSPV_BAND_DEBUG")) {
        std::fprintf(stderr, "owned rows, %zu instructions in rounds: %s\n", rounds.size(),
                     a.fits ? "fit" : a.too_big.c_str());
      }
    }
    if (!a.fits && owned.rebuilt) {
      if (std::getenv("COOPSPV_BAND_DEBUG")) {
        std::fprintf(stderr, "owned rows do not fit: %s\n", a.too_big.c_str());
      }
      // Each subgroup's regions hold its rows of a matrix, all of them the whole matrix; shared
      // instructions (in bands, below) need one band's region for the workgroup.
      owned.rebuilt.reset();
      input = &m;
      a = attempt(m);
      if (!a.error.empty()) return PassResult::Failed(a.error);
    }
    if (!a.fits) {
      // Workgroup matrices in row bands (band_coop_matrix2.cc), the bands as tall as possible
      // (a multiply-add split among the subgroups needs rows for each) and no lower than the
      // profile's smallest M (a band is then still a listed tile height).
      std::string why = a.too_big;
      for (uint32_t band = 128; band >= std::max(rows, 8u); band /= 2) {
        PassResult banded = BandCoopMatrix2(*input, band);
        if (banded.status != PassStatus::kChanged || !banded.rebuilt) continue;
        Attempt b = attempt(*banded.rebuilt);
        if (b.error.empty() && b.fits) {
          a = std::move(b);
          a.changed = true;
          break;
        }
        if (b.error.empty()) why = b.too_big + " (in row bands of " + std::to_string(band) + ")";
      }
      if (!a.fits) {
        return PassResult::Failed(why + ", above the device's maxComputeSharedMemorySize " +
                                  std::to_string(shared_memory_limit_) +
                                  " (VUID-RuntimeSpirv-Workgroup-06530)");
      }
    }
    if (!a.changed && owned.rebuilt) {  // Owned rows and nothing else to lower.
      a.lowered = std::move(owned.rebuilt);
      a.changed = true;
    }
    const bool changed = a.changed;
    std::unique_ptr<ir::Module> lowered = std::move(a.lowered);
    if (!shapes_) return RebuiltResult(changed ? std::move(lowered) : nullptr, "");
    PassResult tiled = TileCoopMatrices(changed ? *lowered : m, *shapes_);
    if (tiled.status == PassStatus::kFailed) {
      return PassResult::Failed("tiling the lowered matrices: " + tiled.error);
    }
    // A matrix no listed shape takes, not even as tiles (the kernel's own float32 operands, an
    // 8 x 16 integer matrix, a bfloat16 multiply-add into float16 on the H100, ...), would make
    // the device refuse the output: it becomes plain code (--lower-coop-matrix=<subgroup size>),
    // with every matrix an instruction relates to it; the others stay the device's tiles.
    ir::Module& out = tiled.rebuilt ? *tiled.rebuilt : changed ? *lowered : m;
    PassResult plain = LowerUnlistedCoopMatrices(out, subgroup_size_, *shapes_);
    if (plain.status != PassStatus::kUnchanged) return plain;
    if (tiled.status != PassStatus::kUnchanged) return tiled;
    return RebuiltResult(changed ? std::move(lowered) : nullptr, "");
  }

 private:
  uint32_t subgroup_size_;
  std::optional<std::vector<TileShape>> shapes_;  // None: no tiling.
  uint32_t shared_memory_limit_;                  // 0: no limit.
};

}  // namespace

std::unique_ptr<Pass> CreateLowerCoopMatrix2Pass(std::string_view argument, std::string* error) {
  const size_t comma = argument.find(',');
  if (comma == std::string_view::npos) {
    // No device: no tiling, no memory limit.
    uint32_t size = 0;
    if (!ParseSubgroupSize(argument, &size, error)) return nullptr;
    return CreateLowerCoopMatrix2DevicePass(size, std::nullopt, 0);
  }
  uint32_t size = 0;
  if (!ParseSubgroupSize(argument.substr(0, comma), &size, error)) return nullptr;
  const std::string_view profile = argument.substr(comma + 1);
  if (profile.empty()) {  // The default shapes, no memory limit.
    std::vector<TileShape> shapes;
    if (!TileShapesFromArgument(profile, &shapes, error)) return nullptr;
    return CreateLowerCoopMatrix2DevicePass(size, std::move(shapes), 0);
  }
  LegalizeTarget target;
  if (!LegalizeTargetFromProfile(profile, &target, error)) return nullptr;
  return CreateLowerCoopMatrix2DevicePass(size, TileShapesOf(*target.profile),
                                          target.profile->properties.maxComputeSharedMemorySize);
}

std::unique_ptr<Pass> CreateLowerCoopMatrix2DevicePass(uint32_t subgroup_size,
                                                       std::optional<std::vector<TileShape>> shapes,
                                                       uint32_t shared_memory_limit) {
  return std::make_unique<LowerAndTilePass>(subgroup_size, std::move(shapes), shared_memory_limit);
}

}  // namespace coopspv::opt
