//===- credit-opt.cpp - the CREDIT optimizer driver -----------------------===//
//
// Part of the CREDIT project.
//
// credit-opt parses, verifies, transforms and prints IR that mixes the credit
// dialect with the upstream dialects a user's input and our lowering need,
// and runs every registered upstream and credit pass and pipeline.
//
//===----------------------------------------------------------------------===//

#include "Credit/InitAllCredit.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::credit::registerCreditPasses();

  mlir::DialectRegistry registry;
  mlir::credit::registerCreditDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "CREDIT optimizer driver\n", registry));
}
