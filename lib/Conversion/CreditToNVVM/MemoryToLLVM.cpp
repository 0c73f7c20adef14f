//===- MemoryToLLVM.cpp - credit.global_view to a memref descriptor -------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Conversion/CreditToNVVM.h"
#include "Credit/Dialect/CreditOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::credit;

namespace {
/// Builds the descriptor {pointer, pointer, 0, [size], [1]} of a 1-D memref
/// and casts it to the memref type; the LLVM conversion of the memref ops
/// that use it then folds the cast away.
struct GlobalViewLowering : public OpConversionPattern<GlobalViewOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GlobalViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Type pointer = adaptor.getPointer().getType();
    Type i64 = rewriter.getI64Type();
    auto array = LLVM::LLVMArrayType::get(i64, 1);
    auto descriptorType = LLVM::LLVMStructType::getLiteral(
        ctx, {pointer, pointer, i64, array, array});

    Value descriptor = LLVM::PoisonOp::create(rewriter, loc, descriptorType);
    auto insert = [&](Value value, ArrayRef<int64_t> position) {
      descriptor = LLVM::InsertValueOp::create(rewriter, loc, descriptor,
                                               value, position);
    };
    Value zero = LLVM::ConstantOp::create(rewriter, loc, i64,
                                          rewriter.getI64IntegerAttr(0));
    Value one = LLVM::ConstantOp::create(rewriter, loc, i64,
                                         rewriter.getI64IntegerAttr(1));
    insert(adaptor.getPointer(), {0});
    insert(adaptor.getPointer(), {1});
    insert(zero, {2});
    insert(adaptor.getSize(), {3, 0});
    insert(one, {4, 0});
    rewriter.replaceOpWithNewOp<UnrealizedConversionCastOp>(
        op, op.getResult().getType(), descriptor);
    return success();
  }
};
} // namespace

void mlir::credit::populateCreditMemoryToLLVMPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GlobalViewLowering>(patterns.getContext());
}
