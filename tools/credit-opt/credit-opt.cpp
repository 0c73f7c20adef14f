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
// output file; it reports a pass that fails without saying why; and it
// refuses input on which an upstream parser crashes, pointing at the line,
// instead of crashing with it.
//
//===----------------------------------------------------------------------===//

#include "Credit/InitAllCredit.h"
#include "Credit/Pipelines/Pipelines.h"
#include "Credit/Support/InputLimits.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

using namespace mlir;

/// What a quiet parse of the input found.
struct QuietParse {
  /// An error was reported.
  bool reported = false;
  /// The parser (or the verifier it runs) crashed and was stopped.
  bool crashed = false;
  /// The diagnostics reported before the crash, as MLIR prints them.
  std::string diagnostics;
};

/// Parses `text`, named `name` (each chunk, when it is split), quietly, to know
/// whether the parser reports an error, and whether it crashes. MLIR's parser
/// can report an error and still return IR: a stray token after a dialect
/// attribute (`#credit.tiling<...>@`) is reported by the lexer and then
/// dropped, and MlirOptMain would go on and succeed. And many upstream
/// parsers dereference what they failed to parse (acc.getdeviceptr builds
/// a TypeAttr of a null type; the ops of Credit/Support/InputLimits.h
/// store null attributes): with every dialect registered no list of inputs
/// covers them, so the parse runs under a crash recovery context that
/// turns such a crash into a refusal. The crashed context is abandoned,
/// not destroyed, and credit-opt exits right after.
static QuietParse parseQuietly(llvm::StringRef text, llvm::StringRef name,
                               const DialectRegistry &registry,
                               const MlirOptMainConfig &config) {
  QuietParse result;
  llvm::raw_string_ostream diagnostics(result.diagnostics);
  auto parseChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                        raw_ostream &) {
    MLIRContext context(registry, MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
    // Formats each diagnostic into `diagnostics`, printed only on a crash;
    // the handler registered after it notes errors and passes them on.
    SourceMgrDiagnosticHandler formatter(*sourceMgr, &context, diagnostics);
    ScopedDiagnosticHandler noter(&context, [&](Diagnostic &diag) {
      result.reported |= diag.getSeverity() == DiagnosticSeverity::Error;
      return failure();
    });
    Block block;
    (void)parseSourceFile(sourceMgr, &block, ParserConfig(&context));
    return success();
  };
  // A copy ends with the NUL that MLIR's lexer stops at.
  std::unique_ptr<llvm::MemoryBuffer> copy =
      llvm::MemoryBuffer::getMemBufferCopy(text, name);
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  result.crashed = !recovery.RunSafely([&] {
    if (config.inputSplitMarker().empty())
      (void)parseChunk(std::move(copy), llvm::nulls());
    else
      (void)splitAndProcessBuffer(std::move(copy), parseChunk, llvm::nulls(),
                                  config.inputSplitMarker());
  });
  llvm::CrashRecoveryContext::Disable();
  return result;
}

/// The line on which the parser crashes on `input`, found by parsing
/// ever shorter prefixes: the first line that, with all before it, makes
/// the parser crash. Each crashed parse's context is abandoned.
static unsigned findCrashingLine(const llvm::MemoryBuffer &input,
                                 const DialectRegistry &registry,
                                 const MlirOptMainConfig &config) {
  llvm::StringRef text = input.getBuffer();
  if (text.empty())
    return 1;
  SmallVector<size_t> lineEnds;
  for (size_t at = 0; at < text.size();) {
    at = std::min(text.find('\n', at), text.size() - 1) + 1;
    lineEnds.push_back(at);
  }
  // The whole input crashes: find the fewest lines that do.
  size_t low = 0, high = lineEnds.size() - 1;
  while (low < high) {
    size_t mid = low + (high - low) / 2;
    if (parseQuietly(text.take_front(lineEnds[mid]),
                     input.getBufferIdentifier(), registry, config)
            .crashed)
      high = mid;
    else
      low = mid + 1;
  }
  return low + 1;
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

  // Every context that runs passes notes the errors reported in it (a
  // pass may report one and still succeed); the handler declines each
  // diagnostic, so the usual printing (or the -verify-diagnostics checks)
  // still sees it. Every pipeline also names a pass that fails without
  // reporting why (Pipelines.h).
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
      credit::reportSilentPassFailures(pm);
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
  QuietParse parse = parseQuietly(
      input->getBuffer(), input->getBufferIdentifier(), registry, config);
  if (parse.crashed) {
    llvm::errs() << parse.diagnostics;
    llvm::SourceMgr sourceMgr;
    unsigned buffer = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    unsigned line = findCrashingLine(*input, registry, config);
    sourceMgr.PrintMessage(
        sourceMgr.FindLocForLineAndColumn(buffer, line, 1),
        llvm::SourceMgr::DK_Error,
        "MLIR's parser crashed on this line, which is likely malformed (a "
        "parser bug: it should have reported an error); credit-opt refuses "
        "the input");
    return EXIT_FAILURE;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  if (parse.reported && !config.shouldVerifyDiagnostics()) {
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
