//===- embed-credit.cpp - a compiler that embeds CREDIT -------------------===//
//
// Part of the CREDIT project.
//
// What a downstream compiler does with CREDIT's CMake package: register
// its dialects and passes with the two calls of InitAllCredit.h, parse a
// module, run a textual pipeline that includes credit-to-ptx, and print
// the result. Usage: embed-credit INPUT.mlir PIPELINE, where PIPELINE runs
// on the module ("credit-to-ptx{artifacts-dir=out}").
//
//===----------------------------------------------------------------------===//

#include "Credit/InitAllCredit.h"
#include "Credit/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: embed-credit INPUT.mlir PIPELINE\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  mlir::credit::registerCreditDialects(registry);
  mlir::credit::registerCreditPasses();
  mlir::MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sourceMgr, &context);
  if (!module)
    return 1;

  mlir::PassManager pm(&context);
  // A pass that fails without a diagnostic is named, as in credit-opt.
  mlir::credit::reportSilentPassFailures(pm);
  if (mlir::failed(mlir::parsePassPipeline(argv[2], pm)) ||
      mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
