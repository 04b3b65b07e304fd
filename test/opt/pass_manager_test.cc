// The pass manager: order, in-place changes with preserved analyses, failures, and
// --validate-after-each naming the pass that broke the module.
#include "source/opt/pass_manager.h"

#include <gtest/gtest.h>

#include "source/ir/analyses.h"
#include "source/ir/builder.h"
#include "source/opt/passes.h"
#include "source/text/assembler.h"

namespace coopspv::opt {
namespace {

constexpr const char* kModule = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_7 = OpConstant %uint 7
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

std::unique_ptr<ir::Module> Read() {
  std::vector<uint32_t> words;
  Diagnostic d;
  EXPECT_TRUE(text::Assemble(kModule, {}, &words, &d)) << d.ToString();
  return ir::Module::Read(words, &d);
}

// Removes OpReturn: the function's block loses its terminator.
class BreakingPass : public Pass {
 public:
  const char* name() const override { return "break-things"; }
  PassResult Run(ir::Module& m) override {
    ir::Builder b(m);
    for (ir::InstIndex i = 0; i < m.num_instructions(); ++i) {
      if (m.opcode(i) == spv::Op::Return) b.Remove(i);
    }
    Diagnostic d;
    return PassResult::Rebuilt(b.Finish(&d));
  }
};

// Changes the literal of %uint_7 in place and says the CFG survives.
class InPlacePass : public Pass {
 public:
  const char* name() const override { return "in-place"; }
  uint32_t preserved() const override { return ir::kAnalysisCfg; }
  PassResult Run(ir::Module& m) override {
    for (ir::InstIndex i = 0; i < m.num_instructions(); ++i) {
      if (m.opcode(i) == spv::Op::Constant) m.SetWord(i, 3, 8);
    }
    return PassResult::ChangedInPlace();
  }
};

class FailingPass : public Pass {
 public:
  const char* name() const override { return "always-fails"; }
  PassResult Run(ir::Module&) override { return PassResult::Failed("on purpose"); }
};

TEST(PassManager, ValidateAfterEachNamesTheBreakingPass) {
  auto module = Read();
  PassManager manager;
  manager.Add(CreateCompactIdsPass("", nullptr));
  manager.Add(std::make_unique<BreakingPass>());
  PassManagerOptions options;
  options.validate_after_each = true;
  std::string error;
  std::vector<PassTiming> timings;
  EXPECT_FALSE(manager.Run(&module, options, &timings, &error));
  EXPECT_NE(error.find("--break-things produced an invalid module"), std::string::npos) << error;
  EXPECT_NE(error.find("function.structure"), std::string::npos) << error;
  ASSERT_EQ(timings.size(), 2u);
  EXPECT_EQ(timings[0].pass, "compact-ids");
}

TEST(PassManager, WithoutValidationTheBrokenModuleComesBack) {
  auto module = Read();
  PassManager manager;
  manager.Add(std::make_unique<BreakingPass>());
  std::string error;
  EXPECT_TRUE(manager.Run(&module, {}, nullptr, &error)) << error;
  EXPECT_FALSE(val::Validate(*module, {}).valid);
}

TEST(PassManager, FailureStopsThePipeline) {
  auto module = Read();
  PassManager manager;
  manager.Add(std::make_unique<FailingPass>());
  manager.Add(std::make_unique<BreakingPass>());
  std::vector<PassTiming> timings;
  std::string error;
  EXPECT_FALSE(manager.Run(&module, {}, &timings, &error));
  EXPECT_EQ(error, "--always-fails failed: on purpose");
  EXPECT_EQ(timings.size(), 1u);
}

TEST(PassManager, InPlaceChangesKeepPreservedAnalyses) {
  auto module = Read();
  const ir::Cfg* cfg = &module->cfg();
  const ir::DefUse* def_use = &module->def_use();
  (void)def_use;
  PassManager manager;
  manager.Add(std::make_unique<InPlacePass>());
  std::string error;
  ASSERT_TRUE(manager.Run(&module, {}, nullptr, &error)) << error;
  EXPECT_EQ(&module->cfg(), cfg);  // Preserved: the same object.
  for (ir::InstIndex i = 0; i < module->num_instructions(); ++i) {
    if (module->opcode(i) == spv::Op::Constant) {
      EXPECT_EQ(module->word(i, 3), 8u);
    }
  }
}

}  // namespace
}  // namespace coopspv::opt
