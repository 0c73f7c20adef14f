//===- NarrowIndices.cpp - column compares in 32 bits ---------------------===//
//
// Part of the CREDIT project.
//
// Element regions compare the column index with per-row values: the one-hot
// of a class label (`index_cast %j : index to i64` == label), masks of the
// first k columns. Index and i64 are 64 bits wide on the GPU, where integer
// work takes two instructions and the column's lanes are computed in 64
// bits; a column is below N <= 2^30, so these compares are exact in 32 bits
// once the per-row side is clamped into [-1, N]:
//
//   j P t  <=>  j32 P trunc(clamp(t, -1, N))   for every predicate P
//
// (signed: a t below 0 behaves as -1 and one above N as N, since 0 <= j <
// N; unsigned: a negative t is larger than every column, as -1 is in 32
// bits). The clamp is per row, so the kernel computes it once per row and
// each element pays one 32-bit compare.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/CreditOps.h"
#include "Credit/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITNARROWINDICES
#include "Credit/Transforms/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;

namespace {

/// Values of one element region that differ between the elements of a row:
/// the column index, the row and broadcast elements and what the region's
/// top-level ops compute from them. Results of ops with regions count as
/// per element: a per-row value is only what this can prove. (The rewrite
/// is exact either way; a per-element bound only costs its clamp.)
static llvm::DenseSet<Value> getPerElementValues(Block &block,
                                                 unsigned elementArgs) {
  llvm::DenseSet<Value> perElement;
  for (unsigned i = 0; i < elementArgs; ++i)
    perElement.insert(block.getArgument(i));
  for (Operation &op : block.without_terminator())
    if (op.getNumRegions() > 0 ||
        llvm::any_of(op.getOperands(),
                     [&](Value v) { return perElement.contains(v); }))
      perElement.insert(op.result_begin(), op.result_end());
  return perElement;
}

/// Whether `value` is the column argument `column` itself or an index cast
/// of it to an integer wider than 32 bits.
static bool isWideColumn(Value value, Value column) {
  if (value == column)
    return true;
  Operation *def = value.getDefiningOp();
  if (!isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp>(def) ||
      def->getOperand(0) != column)
    return false;
  auto type = dyn_cast<IntegerType>(value.getType());
  return type && type.getWidth() > 32;
}

/// `value` (index or a wide integer) clamped into [-1, n] and narrowed to
/// i32; a constant when `value` is one.
static Value createNarrowedBound(OpBuilder &b, Location loc, Value value,
                                 int64_t n) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return arith::ConstantIntOp::create(
        b, loc, b.getI32Type(),
        std::clamp<int64_t>(constant.getSExtValue(), -1, n));
  Type type = value.getType();
  auto bound = [&](int64_t v) -> Value {
    if (type.isIndex())
      return arith::ConstantIndexOp::create(b, loc, v);
    return arith::ConstantIntOp::create(b, loc, type, v);
  };
  Value low = arith::MaxSIOp::create(b, loc, value, bound(-1));
  Value clamped = arith::MinSIOp::create(b, loc, low, bound(n));
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), clamped);
  return arith::TruncIOp::create(b, loc, b.getI32Type(), clamped);
}

/// Rewrites the column compares of one element region.
static void narrowRegion(Region &region, unsigned elementArgs, int64_t n) {
  if (region.empty())
    return;
  Block &block = region.front();
  Value column = block.getArgument(0);
  llvm::DenseSet<Value> perElement = getPerElementValues(block, elementArgs);
  Value column32;
  for (arith::CmpIOp cmp :
       llvm::make_early_inc_range(block.getOps<arith::CmpIOp>())) {
    Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
    bool columnLeft = isWideColumn(lhs, column) && !perElement.contains(rhs);
    bool columnRight = isWideColumn(rhs, column) && !perElement.contains(lhs);
    if (!columnLeft && !columnRight)
      continue;
    Location loc = cmp.getLoc();
    if (!column32) {
      OpBuilder atStart = OpBuilder::atBlockBegin(&block);
      column32 = arith::IndexCastUIOp::create(atStart, loc,
                                              atStart.getI32Type(), column);
    }
    OpBuilder b(cmp);
    Value bound = createNarrowedBound(b, loc, columnLeft ? rhs : lhs, n);
    Value replacement = arith::CmpIOp::create(
        b, loc, cmp.getPredicate(), columnLeft ? column32 : bound,
        columnLeft ? bound : column32);
    cmp.replaceAllUsesWith(replacement);
    cmp.erase();
    // The column's cast, or the bound's constant, when nothing else uses it.
    for (Value operand : {lhs, rhs})
      if (Operation *def = operand.getDefiningOp();
          def && def->use_empty() && isPure(def))
        def->erase();
  }
}

struct CreditNarrowIndicesPass
    : public credit::impl::CreditNarrowIndicesBase<CreditNarrowIndicesPass> {
  void runOnOperation() override {
    getOperation()->walk([&](RowwiseOp op) {
      int64_t n = op.getRowLength();
      unsigned elementArgs = op.getNumElementArgs();
      for (Region &stage : op.getStages())
        narrowRegion(stage, elementArgs, n);
      narrowRegion(op.getEpilogue(), elementArgs, n);
    });
  }
};

} // namespace
