/*===- Dialects.h - CREDIT's C API ----------------------------------*- C
-*-===*\
|*                                                                            *|
|* Part of the CREDIT project.                                                *|
|*                                                                            *|
|* For compilers written against MLIR's C API: the credit dialect's handle,   *|
|* and functions that register everything credit-to-ptx needs and the passes. *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CREDIT_C_DIALECTS_H
#define CREDIT_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__credit__(): the credit dialect alone. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Credit, credit);

/* Inserts the credit dialect and every dialect, interface, target model and
 * LLVM IR translation that the credit-to-ptx pipeline uses into `registry`
 * (mlir::credit::registerCreditDialects). */
MLIR_CAPI_EXPORTED void
mlirCreditRegisterDialects(MlirDialectRegistry registry);

/* Registers the credit passes and the credit-to-ptx pipeline, so that
 * mlirParsePassPipeline knows them (mlir::credit::registerCreditPasses). */
MLIR_CAPI_EXPORTED void mlirCreditRegisterPasses(void);

/* Makes `pm` report, as an error at the op it ran on, any pass that fails
 * without reporting why (some upstream passes signal failure silently), as
 * credit-opt does (mlir::credit::reportSilentPassFailures). Without it such
 * a failure is a failed result with no diagnostic. */
MLIR_CAPI_EXPORTED void
mlirCreditPassManagerReportSilentFailures(MlirPassManager pm);

#ifdef __cplusplus
}
#endif

#endif /* CREDIT_C_DIALECTS_H */
