//===- InitAllCredit.cpp - register what CREDIT needs ---------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/InitAllCredit.h"

#include "Credit/Conversion/Passes.h"
#include "Credit/Dialect/CreditDialect.h"
#include "Credit/Pipelines/Pipelines.h"
#include "Credit/Target/Passes.h"
#include "Credit/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::credit::registerCreditDialects(DialectRegistry &registry) {
  // The pipeline lowers through most of upstream (arith, math, memref,
  // vector, scf, cf, gpu, nvvm, llvm) and relies on their ConvertToLLVM
  // interfaces, the NVVM target model and the LLVM IR translations: with
  // fewer registered it fails deep inside upstream passes.
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<CreditDialect>();
}

void mlir::credit::registerCreditPasses() {
  registerCreditTransformsPasses();
  registerCreditConversionPasses();
  registerCreditTargetPasses();
  registerCreditPipelines();
}
