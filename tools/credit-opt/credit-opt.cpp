//===- credit-opt.cpp - the CREDIT optimizer driver -----------------------===//
//
// Part of the CREDIT project.
//
// credit-opt parses, verifies, transforms and prints IR that mixes the credit
// dialect with the upstream dialects a user's input and our lowering need,
// and runs every registered upstream and credit pass and pipeline.
//
// Unlike a plain mlir-opt, it exits with failure whenever an error was
// reported, even by a pass that went on to succeed (some upstream passes
// report an error and carry on), and it then writes no output file.
//
//===----------------------------------------------------------------------===//

#include "Credit/InitAllCredit.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

using namespace mlir;

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
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  if (errorReported) {
    llvm::errs() << "credit-opt: a pass reported an error; failing\n";
    return EXIT_FAILURE;
  }
  output->keep();
  return EXIT_SUCCESS;
}
