//===- MathToNVVM.cpp - f32 math on the GPU's own instructions ------------===//
//
// Part of the CREDIT project.
//
// The upstream GPU-to-NVVM conversion turns math ops into libdevice calls
// (__nv_expf, ...), which need libdevice at serialization and cost more than
// the hardware's approximations. The kernels here are memory-bound reductions
// whose f32 transcendentals feed sums and exponentials, so they use:
//   exp(x)   = ex2.approx.ftz(x * log2(e))
//   exp2(x)  = ex2.approx.ftz(x)
//   log(x)   = lg2.approx.ftz(x) * ln(2)
//   log2(x)  = lg2.approx.ftz(x)
//   rsqrt(x) = rsqrt.approx.ftz(x)
//   tanh(x)  = 1 - 2 / (exp(2x) + 1)
// and LLVM's intrinsics, which NVPTX selects exactly, for sqrt (sqrt.rn),
// fabs, floor, ceil, roundeven (cvt.rni) and fma. Vector operands are
// handled lane by lane.
//
//===----------------------------------------------------------------------===//

#include "Credit/Conversion/CreditToNVVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::credit;

/// Whether `type` is f32 or a 1-D vector of f32: what these patterns handle.
static bool isF32OrVector(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getRank() == 1 && !vector.isScalable() &&
           vector.getElementType().isF32();
  return type.isF32();
}

/// Applies `scalarFn` to `value` lane by lane if it is a vector.
static Value mapLanes(OpBuilder &b, Location loc, Value value,
                      function_ref<Value(Value)> scalarFn) {
  auto vector = dyn_cast<VectorType>(value.getType());
  if (!vector)
    return scalarFn(value);
  SmallVector<Value> lanes;
  for (int64_t lane = 0; lane < vector.getNumElements(); ++lane)
    lanes.push_back(scalarFn(vector::ExtractOp::create(b, loc, value, lane)));
  return vector::FromElementsOp::create(b, loc, vector, lanes);
}

static Value callIntrinsic(OpBuilder &b, Location loc, StringRef name,
                           Value operand) {
  return LLVM::CallIntrinsicOp::create(
             b, loc, b.getF32Type(), b.getStringAttr(name), ValueRange{operand})
      .getResult(0);
}

static Value scale(OpBuilder &b, Location loc, Value value, double factor) {
  Value constant = arith::ConstantOp::create(
      b, loc, b.getF32Type(), b.getF32FloatAttr(static_cast<float>(factor)));
  return arith::MulFOp::create(b, loc, value, constant);
}

namespace {

/// Lowers a unary f32 math op with `build`, lane by lane for vectors.
template <typename MathOp>
struct ApproximateUnary : public OpConversionPattern<MathOp> {
  using BuildFn = Value (*)(OpBuilder &, Location, Value);
  ApproximateUnary(MLIRContext *ctx, BuildFn build)
      : OpConversionPattern<MathOp>(ctx), build(build) {}

  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isF32OrVector(op.getType()))
      return failure();
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, mapLanes(rewriter, loc, adaptor.getOperand(),
                     [&](Value lane) { return build(rewriter, loc, lane); }));
    return success();
  }
  BuildFn build;
};

/// Replaces a math op by a call of the scalar LLVM intrinsic `name` (which
/// NVPTX selects exactly), lane by lane for vectors. Calls, not the typed
/// LLVM intrinsic ops: the GPU-to-NVVM conversion would turn those into
/// libdevice calls.
template <typename MathOp>
struct ToLLVMIntrinsic : public OpConversionPattern<MathOp> {
  ToLLVMIntrinsic(MLIRContext *ctx, StringRef name)
      : OpConversionPattern<MathOp>(ctx), name(name) {}

  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op->getResult(0).getType();
    if (!isF32OrVector(type))
      return failure();
    Location loc = op.getLoc();
    ValueRange operands = adaptor.getOperands();
    auto call = [&](ValueRange lanes) -> Value {
      return LLVM::CallIntrinsicOp::create(rewriter, loc, rewriter.getF32Type(),
                                           rewriter.getStringAttr(name), lanes)
          .getResult(0);
    };
    auto vector = dyn_cast<VectorType>(type);
    if (!vector) {
      rewriter.replaceOp(op, call(operands));
      return success();
    }
    SmallVector<Value> results;
    for (int64_t lane = 0; lane < vector.getNumElements(); ++lane) {
      SmallVector<Value> lanes = llvm::map_to_vector(operands, [&](Value v) {
        return Value(vector::ExtractOp::create(rewriter, loc, v, lane));
      });
      results.push_back(call(lanes));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, vector, results);
    return success();
  }
  std::string name;
};

Value buildExp2(OpBuilder &b, Location loc, Value x) {
  return callIntrinsic(b, loc, "llvm.nvvm.ex2.approx.ftz.f", x);
}
Value buildExp(OpBuilder &b, Location loc, Value x) {
  return buildExp2(b, loc, scale(b, loc, x, llvm::numbers::log2e));
}
Value buildLog2(OpBuilder &b, Location loc, Value x) {
  return callIntrinsic(b, loc, "llvm.nvvm.lg2.approx.ftz.f", x);
}
Value buildLog(OpBuilder &b, Location loc, Value x) {
  return scale(b, loc, buildLog2(b, loc, x), llvm::numbers::ln2);
}
Value buildRsqrt(OpBuilder &b, Location loc, Value x) {
  return callIntrinsic(b, loc, "llvm.nvvm.rsqrt.approx.ftz.f", x);
}
Value buildTanh(OpBuilder &b, Location loc, Value x) {
  Value one = arith::ConstantOp::create(b, loc, b.getF32Type(),
                                        b.getF32FloatAttr(1.0f));
  Value two = arith::ConstantOp::create(b, loc, b.getF32Type(),
                                        b.getF32FloatAttr(2.0f));
  Value e = buildExp(b, loc, scale(b, loc, x, 2.0));
  Value ratio =
      arith::DivFOp::create(b, loc, two, arith::AddFOp::create(b, loc, e, one));
  return arith::SubFOp::create(b, loc, one, ratio);
}

} // namespace

void mlir::credit::populateCreditMathToNVVMPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ApproximateUnary<math::ExpOp>>(ctx, buildExp);
  patterns.add<ApproximateUnary<math::Exp2Op>>(ctx, buildExp2);
  patterns.add<ApproximateUnary<math::LogOp>>(ctx, buildLog);
  patterns.add<ApproximateUnary<math::Log2Op>>(ctx, buildLog2);
  patterns.add<ApproximateUnary<math::RsqrtOp>>(ctx, buildRsqrt);
  patterns.add<ApproximateUnary<math::TanhOp>>(ctx, buildTanh);
  patterns.add<ToLLVMIntrinsic<math::SqrtOp>>(ctx, "llvm.sqrt.f32");
  patterns.add<ToLLVMIntrinsic<math::AbsFOp>>(ctx, "llvm.fabs.f32");
  patterns.add<ToLLVMIntrinsic<math::FloorOp>>(ctx, "llvm.floor.f32");
  patterns.add<ToLLVMIntrinsic<math::CeilOp>>(ctx, "llvm.ceil.f32");
  patterns.add<ToLLVMIntrinsic<math::RoundEvenOp>>(ctx, "llvm.roundeven.f32");
  patterns.add<ToLLVMIntrinsic<math::FmaOp>>(ctx, "llvm.fma.f32");
}

void mlir::credit::configureCreditMathToNVVMTarget(ConversionTarget &target) {
  target.addDynamicallyLegalOp<math::ExpOp, math::Exp2Op, math::LogOp,
                               math::Log2Op, math::RsqrtOp, math::TanhOp,
                               math::SqrtOp, math::AbsFOp, math::FloorOp,
                               math::CeilOp, math::RoundEvenOp, math::FmaOp>(
      [](Operation *op) { return !isF32OrVector(op->getResult(0).getType()); });
}
