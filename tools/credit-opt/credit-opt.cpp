//===- credit-opt.cpp - the CREDIT optimizer driver -----------------------===//
//
// Part of the CREDIT project.
//
// credit-opt parses, verifies, transforms and prints IR that mixes the credit
// dialect with the upstream dialects a user's input and our lowering need,
// and runs every registered upstream and credit pass and pipeline.
//
//===----------------------------------------------------------------------===//

#include "Credit/Conversion/Passes.h"
#include "Credit/Dialect/CreditDialect.h"
#include "Credit/Pipelines/Pipelines.h"
#include "Credit/Target/Passes.h"
#include "Credit/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::credit::registerCreditTransformsPasses();
  mlir::credit::registerCreditConversionPasses();
  mlir::credit::registerCreditTargetPasses();
  mlir::credit::registerCreditPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::credit::CreditDialect>();

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "CREDIT optimizer driver\n", registry));
}
