// The pass registry: every pass with its flag, argument and one-line help, and the factories.
#ifndef COOPSPV_SOURCE_OPT_PASSES_H_
#define COOPSPV_SOURCE_OPT_PASSES_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "source/ir/builder.h"
#include "source/opt/pass.h"

namespace coopspv::opt {

struct PassInfo {
  const char* flag;  // Without "--".
  // How the argument is written in --help, nullptr when there is none; "=[...]" when it may be
  // left out.
  const char* argument;
  const char* help;  // One line.
  std::unique_ptr<Pass> (*create)(std::string_view argument, std::string* error);
};

std::span<const PassInfo> AllPasses();
const PassInfo* FindPass(std::string_view flag);

std::unique_ptr<Pass> CreateSetSpecConstDefaultValuePass(std::string_view argument,
                                                         std::string* error);
std::unique_ptr<Pass> CreateFreezeSpecConstPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateFoldSpecConstPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateFoldCoopLengthPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateLowerCoopMatrixPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateEliminateDeadPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateCompactIdsPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateLowerCoopVectorPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateStripDecodeVectorPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateCoopMatrixNvToKhrPass(std::string_view argument, std::string* error);
std::unique_ptr<Pass> CreateLowerSmallFloatsPass(std::string_view argument, std::string* error);
// --legalize-for-device=<profile>: reads the profile with LegalizeTargetFromProfile
// (legalize_for_device.h).
std::unique_ptr<Pass> CreateLegalizeForDeviceFromProfile(std::string_view argument,
                                                         std::string* error);

// OpDecorate, OpDecorateId, OpDecorateString, OpMemberDecorate, OpMemberDecorateString.
bool IsDecoration(spv::Op op);

// "%12 = OpName" (or "OpName" when the instruction has no result), for failure messages.
std::string DescribeInstruction(const ir::Module& module, ir::InstIndex i);

// Merges types and constants whose declarations became identical (after renaming the ids they
// use): each duplicate's uses move to the first declaration and the duplicate goes. Decorated
// ids, structs and forward-declared pointers are left alone. Returns null when nothing merged.
std::unique_ptr<ir::Module> MergeDuplicateDeclarations(const ir::Module& module,
                                                       Diagnostic* diagnostic);

// The end of a rebuilding pass: the builder's module with MergeDuplicateDeclarations applied
// (the result of Rebuilt), or Failed when the builder cannot write it.
PassResult FinishMergingDeclarations(ir::Builder& builder);

}  // namespace coopspv::opt

#endif  // COOPSPV_SOURCE_OPT_PASSES_H_
