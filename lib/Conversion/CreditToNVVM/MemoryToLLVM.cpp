//===- MemoryToLLVM.cpp - credit.global_view to a memref descriptor -------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Conversion/CreditToNVVM.h"
#include "Credit/Dialect/CreditOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::credit;

/// Builds the descriptor {pointer, pointer, 0, [size], [1]} of a 1-D memref
/// of `type` and casts it to that type; the LLVM conversion of the memref
/// ops that use it then folds the cast away.
static Value buildDescriptor(OpBuilder &b, Location loc, MemRefType type,
                             Value pointer, Value size) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  auto array = LLVM::LLVMArrayType::get(i64, 1);
  Type pointerType = pointer.getType();
  auto descriptorType = LLVM::LLVMStructType::getLiteral(
      ctx, {pointerType, pointerType, i64, array, array});
  Value descriptor = LLVM::PoisonOp::create(b, loc, descriptorType);
  auto insert = [&](Value value, ArrayRef<int64_t> position) {
    descriptor =
        LLVM::InsertValueOp::create(b, loc, descriptor, value, position);
  };
  Value zero = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(0));
  Value one = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1));
  insert(pointer, {0});
  insert(pointer, {1});
  insert(zero, {2});
  insert(size, {3, 0});
  insert(one, {4, 0});
  return UnrealizedConversionCastOp::create(b, loc, type, descriptor)
      .getResult(0);
}

namespace {
/// credit.global_view: a descriptor over the kernel's bare pointer.
struct GlobalViewLowering : public OpConversionPattern<GlobalViewOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GlobalViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildDescriptor(rewriter, op.getLoc(), op.getResult().getType(),
                            adaptor.getPointer(), adaptor.getSize()));
    return success();
  }
};

/// credit.dynamic_shared_memory: a descriptor over an external, zero-length
/// array in shared memory. (An internal global would be a 1-byte static
/// variable that the backend may even demote into the function.)
struct DynamicSharedMemoryLowering
    : public OpConversionPattern<DynamicSharedMemoryOp> {
  using OpConversionPattern::OpConversionPattern;
  static constexpr StringLiteral kSymbol = "credit_dynamic_shared_memory";

  LogicalResult
  matchAndRewrite(DynamicSharedMemoryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Operation *module = SymbolTable::getNearestSymbolTable(op);
    auto arrayType = LLVM::LLVMArrayType::get(rewriter.getI8Type(), 0);
    if (!SymbolTable::lookupSymbolIn(module, kSymbol)) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&module->getRegion(0).front());
      LLVM::GlobalOp::create(rewriter, loc, arrayType, /*isConstant=*/false,
                             LLVM::Linkage::External, kSymbol, Attribute(),
                             /*alignment=*/16, /*addrSpace=*/3);
    }
    auto pointerType = LLVM::LLVMPointerType::get(op.getContext(), 3);
    Value base = LLVM::AddressOfOp::create(rewriter, loc, pointerType, kSymbol);
    MemRefType type = op.getResult().getType();
    Value size = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI64Type(),
        rewriter.getI64IntegerAttr(type.getNumElements()));
    rewriter.replaceOp(op, buildDescriptor(rewriter, loc, type, base, size));
    return success();
  }
};
} // namespace

void mlir::credit::populateCreditMemoryToLLVMPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DynamicSharedMemoryLowering, GlobalViewLowering>(
      patterns.getContext());
}
