//===- credit-fuzz.cpp - a libFuzzer harness over credit-opt's paths ------===//
//
// Part of the CREDIT project.
//
// Feeds each input to what credit-opt does with a user's file: parse,
// verify, then the credit-to-ptx pipeline (linalg raising, cost model,
// tilings, cluster kernels, host launches for half the inputs, NVVM
// lowering, PTX serialization; no artifacts written). Any
// outcome is fine except a crash, a sanitizer report, a hang, or a
// verified module the pipeline neither compiles nor rejects with an error.
//
// Built with clang and -fsanitize=fuzzer (scripts/fuzz.sh). Valid inputs
// go through LLVM's code generation only for every fourth (by a hash of
// the input, so runs stay reproducible): it is slow, and the rest of the
// pipeline is where CREDIT's code is.
//
//===----------------------------------------------------------------------===//

#include "Credit/Conversion/Passes.h"
#include "Credit/InitAllCredit.h"
#include "Credit/Pipelines/Pipelines.h"
#include "Credit/Support/InputLimits.h"
#include "Credit/Target/Passes.h"
#include "Credit/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

using namespace mlir;

// CREDIT's code is instrumented and libMLIR is not. LLVM's headers make an
// instrumented BumpPtrAllocator poison its free slab space, and libMLIR's
// uninstrumented code then allocates from the same allocator without
// unpoisoning it: ASan would report use-after-poison on sound code. Manual
// poisoning is therefore off; every other check stays on.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_leaks=0:allocator_may_return_null=1";
}

static const DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    credit::registerCreditPasses();
    auto *r = new DialectRegistry();
    credit::registerCreditDialects(*r);
    return r;
  }();
  return *registry;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // Lets a parse run under a CrashRecoveryContext; a crash outside one
  // still reaches the sanitizer and libFuzzer.
  llvm::CrashRecoveryContext::Enable();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Inputs are MLIR text; very large ones only slow the search.
  if (size > 16384)
    return 0;
  // MLIR's lexer reads up to a terminating NUL, which files read by
  // credit-opt have and libFuzzer's buffers do not.
  std::string owned(reinterpret_cast<const char *>(data), size);
  llvm::StringRef text(owned);
  // credit-opt refuses input the parser would crash on.
  if (credit::findUnsafeInput(text))
    return 0;
  // Loading the pipeline's dialects into a context costs more than most
  // inputs, so a context serves a few hundred inputs and is then replaced
  // (interned attributes and types would otherwise pile up). Reproducing a
  // finding runs its input in a fresh context.
  static std::unique_ptr<MLIRContext> shared;
  static unsigned uses = 0;
  if (!shared || ++uses % 256 == 0)
    shared = std::make_unique<MLIRContext>(getRegistry(),
                                           MLIRContext::Threading::DISABLED);
  MLIRContext &context = *shared;
  bool errors = false;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    errors |= diag.getSeverity() == DiagnosticSeverity::Error;
    return success();
  });
  // The parser can report an error and still return IR (a stray token
  // after a dialect attribute); credit-opt rejects such input, and so
  // does this harness. A parser that crashes is stopped, as in
  // credit-opt, and its context abandoned.
  OwningOpRef<ModuleOp> module;
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafely(
          [&] { module = parseSourceString<ModuleOp>(text, &context); })) {
    (void)shared.release();
    return 0;
  }
  if (!module || errors || failed(verify(*module)))
    return 0;

  // Half the inputs keep their host code: launches replace the ops.
  size_t hash = llvm::hash_value(text);
  bool keepHost = hash % 2;
  PassManager pm(&context);
  if (hash % 8 < 2) {
    credit::CreditToPTXOptions options;
    options.keepHost = keepHost;
    credit::buildCreditToPTXPipeline(pm, options);
  } else {
    pm.addPass(credit::createCreditRaiseLinalg());
    pm.addPass(credit::createCreditOnlineSoftmax());
    // A quarter of the inputs compile the partial part of a row split
    // across devices, a quarter the combine part.
    if (unsigned split = (hash >> 3) % 4; split < 2)
      pm.addPass(credit::createCreditSplitStages(
          credit::CreditSplitStagesOptions{
              split == 0 ? "partial" : "combine",
              split == 0 ? 1u : unsigned(1 + (hash >> 5) % 4)}));
    pm.addPass(credit::createCreditCheckTarget());
    // As credit-to-ptx does: a kept host gets no split rows.
    credit::CreditChooseTilingOptions choose;
    if (keepHost)
      choose.maxSplits = 1;
    pm.addPass(credit::createCreditChooseTiling(choose));
    credit::CreditClusterTilingOptions tiling;
    tiling.eraseHost = !keepHost;
    pm.addPass(credit::createCreditClusterTiling(tiling));
    if (keepHost)
      pm.addPass(credit::createConvertCreditToGPULaunch());
    pm.nest<gpu::GPUModuleOp>().addPass(credit::createConvertCreditToNVVM());
  }
  bool failed = mlir::failed(pm.run(*module));
  // A pass that reports an error must fail, and a failure must say why.
  if (failed != errors) {
    llvm::errs() << (failed ? "the pipeline failed without an error"
                            : "an error was reported but the pipeline "
                              "succeeded")
                 << "\n";
    abort();
  }
  return 0;
}
