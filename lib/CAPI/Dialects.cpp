//===- Dialects.cpp - CREDIT's C API --------------------------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit-c/Dialects.h"

#include "Credit/Dialect/CreditDialect.h"
#include "Credit/InitAllCredit.h"
#include "Credit/Pipelines/Pipelines.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Credit, credit,
                                      mlir::credit::CreditDialect)

void mlirCreditRegisterDialects(MlirDialectRegistry registry) {
  mlir::credit::registerCreditDialects(*unwrap(registry));
}

void mlirCreditRegisterPasses(void) { mlir::credit::registerCreditPasses(); }

void mlirCreditPassManagerReportSilentFailures(MlirPassManager pm) {
  mlir::credit::reportSilentPassFailures(*unwrap(pm));
}
