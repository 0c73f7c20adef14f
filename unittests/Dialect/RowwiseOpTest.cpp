//===- RowwiseOpTest.cpp - credit.rowwise helper unit tests ---------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/CreditOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::credit;

namespace {

constexpr const char *kCrossEntropy = R"mlir(
func.func @f(%x: tensor<?x64xbf16>, %t: tensor<?xi64>, %w: tensor<64xf16>,
             %dx: tensor<?x64xbf16>, %loss: tensor<?xf32>, %c: tensor<2x64xf32>)
    -> (tensor<?x64xbf16>, tensor<?xf32>, tensor<2x64xf32>) {
  %r:3 = credit.rowwise ins(%x : tensor<?x64xbf16>) bcast(%w : tensor<64xf16>)
      scalars(%t : tensor<?xi64>) outs(%dx : tensor<?x64xbf16>)
      scalar_outs(%loss : tensor<?xf32>) colsum_outs(%c : tensor<2x64xf32>)
    reduce [max] (%j: index, %v: f32, %wv: f32, %tv: i64) {
      credit.yield %v : f32
    }
    reduce [add, add] (%j: index, %v: f32, %wv: f32, %tv: i64, %m: f32) {
      credit.yield %v, %v : f32, f32
    }
    epilogue (%j: index, %v: f32, %wv: f32, %tv: i64, %m: f32, %s: f32, %p: f32) {
      credit.yield %v, %v : f32, f32
    }
    finalize (%tv: i64, %m: f32, %s: f32, %p: f32) {
      credit.yield %s : f32
    }
  return %r#0, %r#1, %r#2 : tensor<?x64xbf16>, tensor<?xf32>, tensor<2x64xf32>
}
)mlir";

TEST(RowwiseOpTest, RegionSignatures) {
  MLIRContext context;
  context.loadDialect<CreditDialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kCrossEntropy, &context);
  ASSERT_TRUE(module);
  RowwiseOp op;
  module->walk([&](RowwiseOp found) { op = found; });
  ASSERT_TRUE(op);

  Builder b(&context);
  Type f32 = b.getF32Type(), i64 = b.getI64Type(), index = b.getIndexType();
  EXPECT_EQ(op.getRowLength(), 64);
  EXPECT_EQ(op.getNumStages(), 2u);
  EXPECT_EQ(op.getNumResultsBeforeStage(1), 1u);
  EXPECT_EQ(op.getNumStageResults(), 3u);
  EXPECT_FALSE(op.hasBufferSemantics());
  EXPECT_EQ(op.getStageCombiners(1),
            (SmallVector<CombinerKind>{CombinerKind::Add, CombinerKind::Add}));

  EXPECT_EQ(op.getElementRegionArgTypes(0),
            (SmallVector<Type>{index, f32, f32, i64}));
  EXPECT_EQ(op.getElementRegionArgTypes(2),
            (SmallVector<Type>{index, f32, f32, i64, f32, f32, f32}));
  EXPECT_EQ(op.getEpilogueYieldTypes(), (SmallVector<Type>{f32, f32}));
  EXPECT_EQ(op.getFinalizeArgTypes(), (SmallVector<Type>{i64, f32, f32, f32}));
  EXPECT_EQ(op.getFinalizeYieldTypes(), (SmallVector<Type>{f32}));

  // All three output lists are destinations, in order.
  EXPECT_EQ(op.getNumDpsInits(), 3);
  EXPECT_EQ(op.getDpsInitOperand(2)->get(), op.getColumnSumOutputs()[0]);
}

TEST(RowwiseOpTest, ComputeType) {
  MLIRContext context;
  Builder b(&context);
  EXPECT_EQ(RowwiseOp::getComputeType(b.getBF16Type()), b.getF32Type());
  EXPECT_EQ(RowwiseOp::getComputeType(b.getF16Type()), b.getF32Type());
  EXPECT_EQ(RowwiseOp::getComputeType(b.getI8Type()), b.getI8Type());
}

} // namespace
