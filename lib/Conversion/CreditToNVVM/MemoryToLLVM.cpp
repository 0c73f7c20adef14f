//===- MemoryToLLVM.cpp - views and asynchronous copies -------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Conversion/CreditToNVVM.h"
#include "Credit/Dialect/CreditOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

/// credit.async_copy: cp.async between the elements' addresses; where the
/// copy is not valid, source size 0 (nothing read, zeros written) from the
/// buffer's first element.
struct AsyncCopyLowering : public OpConversionPattern<AsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = op.getSource().getType().getElementType();
    int64_t elementBytes = llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
    int32_t bytes = int32_t(op.getElements() * elementBytes);
    auto address = [&](Value memref, Value index, unsigned space) -> Value {
      Value base =
          memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, memref);
      Value offset = arith::MulIOp::create(
          rewriter, loc, index,
          arith::ConstantIndexOp::create(rewriter, loc, elementBytes));
      Value at = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getI64Type(),
          arith::AddIOp::create(rewriter, loc, base, offset));
      return LLVM::IntToPtrOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(op.getContext(), space),
          at);
    };
    Value sourceIndex = arith::SelectOp::create(
        rewriter, loc, adaptor.getValid(), adaptor.getSourceIndex(),
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    Value source = address(adaptor.getSource(), sourceIndex, 1);
    Value target = address(adaptor.getTarget(), adaptor.getTargetIndex(), 3);
    auto i32 = [&](int32_t value) -> Value {
      return arith::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                       rewriter.getI32IntegerAttr(value));
    };
    Value sourceBytes = arith::SelectOp::create(
        rewriter, loc, adaptor.getValid(), i32(bytes), i32(0));
    // 16-byte copies may bypass L1 (.cg); smaller ones must go through it.
    auto modifier = NVVM::LoadCacheModifierKindAttr::get(
        op.getContext(), bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                     : NVVM::LoadCacheModifierKind::CA);
    NVVM::CpAsyncOp::create(rewriter, loc, target, source,
                            rewriter.getI32IntegerAttr(bytes), modifier,
                            sourceBytes);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::credit::populateCreditMemoryToLLVMPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<AsyncCopyLowering, DynamicSharedMemoryLowering, GlobalViewLowering>(
          patterns.getContext());
}
