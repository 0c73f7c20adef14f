//===- CreditToNVVMPass.cpp - lower tiled credit ops ----------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Conversion/Passes.h"
#include "Credit/Dialect/CreditOps.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CONVERTCREDITTONVVM
#include "Credit/Conversion/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;

namespace {
struct ConvertCreditToNVVMPass
    : public credit::impl::ConvertCreditToNVVMBase<ConvertCreditToNVVMPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addIllegalOp<AsyncCopyOp, BlockReduceOp, ClusterReduceOp,
                        GridReduceOp, DynamicSharedMemoryOp, GlobalViewOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configureCreditMathToNVVMTarget(target);
    RewritePatternSet patterns(ctx);
    populateCreditMathToNVVMPatterns(patterns);
    populateCreditMemoryToLLVMPatterns(patterns);
    populateCreditReductionToNVVMPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
