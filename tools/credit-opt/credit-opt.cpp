//===- credit-opt.cpp - the CREDIT optimizer driver -----------------------===//
//
// Part of the CREDIT project.
//
// credit-opt parses, verifies, transforms and prints IR that mixes the credit
// dialect with the upstream dialects a user's input and our lowering need,
// and runs every registered upstream and credit pass and pipeline.
//
// Unlike a plain mlir-opt, it exits with failure whenever an error was
// reported, even by the parser or a pass that went on to succeed (some
// upstream passes report an error and carry on), and it then writes no
// output file.
//
//===----------------------------------------------------------------------===//

#include "Credit/InitAllCredit.h"
#include "Credit/Support/InputLimits.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

using namespace mlir;

/// Whether parsing `input` (each chunk, when it is split) reports an error.
/// MLIR's parser can report one and still return IR: a stray token after a
/// dialect attribute (`#credit.tiling<...>@`) is reported by the lexer and
/// then dropped, and MlirOptMain would go on and succeed. The input is
/// parsed here first, quietly, to know.
static bool parseReportsErrors(const llvm::MemoryBuffer &input,
                               const DialectRegistry &registry,
                               const MlirOptMainConfig &config) {
  bool reported = false;
  auto parseChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                        raw_ostream &) {
    MLIRContext context(registry, MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
    ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &diag) {
      reported |= diag.getSeverity() == DiagnosticSeverity::Error;
      return success();
    });
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
    Block block;
    (void)parseSourceFile(sourceMgr, &block, ParserConfig(&context));
    return success();
  };
  std::unique_ptr<llvm::MemoryBuffer> copy =
      llvm::MemoryBuffer::getMemBufferCopy(input.getBuffer(),
                                           input.getBufferIdentifier());
  if (config.inputSplitMarker().empty())
    (void)parseChunk(std::move(copy), llvm::nulls());
  else
    (void)splitAndProcessBuffer(std::move(copy), parseChunk, llvm::nulls(),
                                config.inputSplitMarker());
  return reported;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  credit::registerCreditPasses();

  DialectRegistry registry;
  credit::registerCreditDialects(registry);

  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "CREDIT optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();

  // Every context that runs passes notes the errors reported in it; the
  // handler declines each diagnostic, so the usual printing (or the
  // -verify-diagnostics checks) still sees it.
  std::atomic<bool> errorReported = false;
  if (!config.shouldVerifyDiagnostics()) {
    MlirOptMainConfig base = config;
    config.setPassPipelineSetupFn([base, &errorReported](PassManager &pm) {
      pm.getContext()->getDiagEngine().registerHandler(
          [&errorReported](Diagnostic &diag) {
            if (diag.getSeverity() == DiagnosticSeverity::Error)
              errorReported = true;
            return failure();
          });
      return base.setupPassPipeline(pm);
    });
  }

  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &message);
  if (!input) {
    llvm::errs() << message << "\n";
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &message);
  if (!output) {
    llvm::errs() << message << "\n";
    return EXIT_FAILURE;
  }
  // Input the parser would crash on (Credit/Support/InputLimits.h), and
  // bytecode, are refused up front.
  if (std::optional<credit::UnsafeInput> unsafe =
          credit::findUnsafeInput(input->getBuffer())) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    sourceMgr.PrintMessage(
        llvm::SMLoc::getFromPointer(input->getBufferStart() + unsafe->offset),
        llvm::SourceMgr::DK_Error, unsafe->reason);
    return EXIT_FAILURE;
  }
  bool parserReported = !config.shouldVerifyDiagnostics() &&
                        parseReportsErrors(*input, registry, config);
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  if (parserReported) {
    llvm::errs() << "credit-opt: the parser reported an error; failing\n";
    return EXIT_FAILURE;
  }
  if (errorReported) {
    llvm::errs() << "credit-opt: a pass reported an error; failing\n";
    return EXIT_FAILURE;
  }
  output->keep();
  return EXIT_SUCCESS;
}
