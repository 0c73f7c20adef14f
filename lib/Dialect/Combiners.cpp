//===- Combiners.cpp - building combiner arithmetic -----------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/Combiners.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/DenseMap.h"

#include <limits>

using namespace mlir;
using namespace mlir::credit;

Value mlir::credit::createCombinerIdentity(OpBuilder &b, Location loc,
                                           CombinerKind kind) {
  float value = 0.0f;
  if (kind == CombinerKind::Max)
    value = -std::numeric_limits<float>::infinity();
  else if (kind == CombinerKind::Min)
    value = std::numeric_limits<float>::infinity();
  return arith::ConstantOp::create(b, loc, b.getF32Type(),
                                   b.getF32FloatAttr(value));
}

std::optional<unsigned>
mlir::credit::getExpPartner(ArrayRef<CombinerKind> kinds, unsigned position) {
  for (unsigned k = position; k-- > 0;)
    if (kinds[k] == CombinerKind::Max)
      return k;
  return std::nullopt;
}

/// A splat of the f32 `value` shaped like `like` (f32 or a vector of f32).
static Value createF32Like(OpBuilder &b, Location loc, float value,
                           Value like) {
  Type type = like.getType();
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        b, loc, vector, DenseElementsAttr::get(vector, b.getF32FloatAttr(value)));
  return arith::ConstantOp::create(b, loc, type, b.getF32FloatAttr(value));
}

Value mlir::credit::createExpShift(OpBuilder &b, Location loc, Value max) {
  Value empty = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OEQ, max,
      createF32Like(b, loc, -std::numeric_limits<float>::infinity(), max));
  return arith::SelectOp::create(b, loc, empty, createF32Like(b, loc, 0.0f, max),
                                 max);
}

Value mlir::credit::createCombine(OpBuilder &b, Location loc, CombinerKind kind,
                                  Value lhs, Value rhs) {
  switch (kind) {
  case CombinerKind::Add:
    return arith::AddFOp::create(b, loc, lhs, rhs);
  case CombinerKind::Max:
    return arith::MaximumFOp::create(b, loc, lhs, rhs);
  case CombinerKind::Min:
    return arith::MinimumFOp::create(b, loc, lhs, rhs);
  case CombinerKind::AddExp:
    llvm_unreachable("addexp combines with its partner: createCombineAll");
  case CombinerKind::SqDev:
    llvm_unreachable("sqdev combines with its sum and count: "
                     "createMomentsMerge");
  }
  llvm_unreachable("unknown combiner kind");
}

Value mlir::credit::createMomentsDiv(OpBuilder &b, Location loc, Value lhs,
                                     Value rhs) {
  return arith::DivFOp::create(b, loc, lhs, rhs,
                               arith::FastMathFlags::afn);
}

Moments mlir::credit::createMomentsMerge(OpBuilder &b, Location loc,
                                         const Moments &lhs,
                                         const Moments &rhs) {
  Value count = arith::AddFOp::create(b, loc, lhs.count, rhs.count);
  Value product = arith::MulFOp::create(b, loc, lhs.count, rhs.count);
  // mean_b - mean_a is the exact negation of mean_a - mean_b, and every
  // other operation is commutative: the merge is symmetric bit for bit.
  Value lhsMean = createMomentsDiv(b, loc, lhs.sum, lhs.count);
  Value rhsMean = createMomentsDiv(b, loc, rhs.sum, rhs.count);
  Value delta = arith::SubFOp::create(b, loc, rhsMean, lhsMean);
  Value square = arith::MulFOp::create(b, loc, delta, delta);
  Value term = arith::MulFOp::create(
      b, loc, square, createMomentsDiv(b, loc, product, count));
  // With an empty side (count 0) the means are 0/0: nothing to add.
  Value zero = createF32Like(b, loc, 0.0f, count);
  Value some =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, product, zero);
  term = arith::SelectOp::create(b, loc, some, term, zero);
  Value m2 = arith::AddFOp::create(
      b, loc, arith::AddFOp::create(b, loc, lhs.m2, rhs.m2), term);
  return {arith::AddFOp::create(b, loc, lhs.sum, rhs.sum), count, m2};
}

/// A partial's squared deviations from `mean` instead of its own mean:
/// m2 + (sum - count * mean)^2 / count (just m2 where count is 0).
static Value createCenteredM2(OpBuilder &b, Location loc,
                              const Moments &moments, Value mean) {
  Value offset = arith::SubFOp::create(
      b, loc, moments.sum, arith::MulFOp::create(b, loc, moments.count, mean));
  Value square = arith::MulFOp::create(b, loc, offset, offset);
  Value term = createMomentsDiv(b, loc, square, moments.count);
  Value zero = createF32Like(b, loc, 0.0f, mean);
  Value some = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                     moments.count, zero);
  return arith::AddFOp::create(
      b, loc, moments.m2, arith::SelectOp::create(b, loc, some, term, zero));
}

/// The moments of a `sqdev` entry at `k` of `values`.
static Moments getMoments(ArrayRef<Value> values, unsigned k) {
  return {values[k - 2], values[k - 1], values[k]};
}

/// exp(max - shift) for each of the maxima that an addexp sums against.
static Value createRescale(OpBuilder &b, Location loc, Value max,
                           Value shift) {
  return math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, max, shift));
}

SmallVector<Value>
mlir::credit::createCombineAll(OpBuilder &b, Location loc,
                               ArrayRef<CombinerKind> kinds,
                               ArrayRef<SmallVector<Value>> tuples) {
  SmallVector<Value> result(tuples.front());
  for (auto [k, kind] : llvm::enumerate(kinds)) {
    if (kind == CombinerKind::SqDev) {
      // All at once rather than merge by merge (a chain of divisions):
      // m2 = sum_i m2_i + (s_i - n_i * mean)^2 / n_i, mean = s / n.
      Value sum = tuples.front()[k - 2], count = tuples.front()[k - 1];
      for (const SmallVector<Value> &tuple : tuples.drop_front()) {
        sum = arith::AddFOp::create(b, loc, sum, tuple[k - 2]);
        count = arith::AddFOp::create(b, loc, count, tuple[k - 1]);
      }
      Value mean = createMomentsDiv(b, loc, sum, count);
      Value m2;
      for (const SmallVector<Value> &tuple : tuples) {
        Value term = createCenteredM2(b, loc, getMoments(tuple, k), mean);
        m2 = m2 ? Value(arith::AddFOp::create(b, loc, m2, term)) : term;
      }
      result[k] = m2;
    } else if (kind != CombinerKind::AddExp) {
      for (const SmallVector<Value> &tuple : tuples.drop_front())
        result[k] = createCombine(b, loc, kind, result[k], tuple[k]);
    }
  }
  // Each tuple's factor for each max that has addexp partners.
  llvm::SmallDenseMap<unsigned, SmallVector<Value>> scales;
  for (auto [k, kind] : llvm::enumerate(kinds)) {
    if (kind != CombinerKind::AddExp)
      continue;
    unsigned partner = *getExpPartner(kinds, k);
    auto [it, inserted] = scales.try_emplace(partner);
    if (inserted) {
      Value shift = createExpShift(b, loc, result[partner]);
      for (const SmallVector<Value> &tuple : tuples)
        it->second.push_back(createRescale(b, loc, tuple[partner], shift));
    }
    Value sum;
    for (auto [tuple, scale] : llvm::zip_equal(tuples, it->second)) {
      Value term = arith::MulFOp::create(b, loc, tuple[k], scale);
      sum = sum ? Value(arith::AddFOp::create(b, loc, sum, term)) : term;
    }
    result[k] = sum;
  }
  return result;
}

/// `value` combined by `kind` (add, max or min) over groups of `lanes`.
static Value createButterflyOf(OpBuilder &b, Location loc, CombinerKind kind,
                               Value value, int64_t lanes) {
  Value width = arith::ConstantOp::create(b, loc, b.getI32Type(),
                                          b.getI32IntegerAttr(kWarpLanes));
  for (int64_t offset = lanes / 2; offset >= 1; offset /= 2) {
    Value distance = arith::ConstantOp::create(b, loc, b.getI32Type(),
                                               b.getI32IntegerAttr(offset));
    Value other = gpu::ShuffleOp::create(b, loc, value, distance, width,
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    value = createCombine(b, loc, kind, value, other);
  }
  return value;
}

SmallVector<Value> mlir::credit::createButterfly(OpBuilder &b, Location loc,
                                                 ArrayRef<CombinerKind> kinds,
                                                 ValueRange values,
                                                 int64_t lanes) {
  SmallVector<Value> result(values);
  for (auto [k, kind] : llvm::enumerate(kinds))
    if (kind != CombinerKind::AddExp && kind != CombinerKind::SqDev)
      result[k] = createButterflyOf(b, loc, kind, values[k], lanes);
  // sqdev: once the group's sum and count are known (the same bits in
  // every lane), each lane centers its squared deviations on the group's
  // mean and they are added in a butterfly of their own.
  for (auto [k, kind] : llvm::enumerate(kinds)) {
    if (kind != CombinerKind::SqDev)
      continue;
    Value mean = createMomentsDiv(b, loc, result[k - 2], result[k - 1]);
    Value own = createCenteredM2(
        b, loc, getMoments(SmallVector<Value>(values), k), mean);
    result[k] = createButterflyOf(b, loc, CombinerKind::Add, own, lanes);
  }
  // Floating-point addition is commutative, so the lanes' rescaled sums
  // add up to the same bits everywhere.
  for (auto [k, kind] : llvm::enumerate(kinds)) {
    if (kind != CombinerKind::AddExp)
      continue;
    unsigned partner = *getExpPartner(kinds, k);
    Value shift = createExpShift(b, loc, result[partner]);
    Value own = arith::MulFOp::create(
        b, loc, values[k], createRescale(b, loc, values[partner], shift));
    result[k] = createButterflyOf(b, loc, CombinerKind::Add, own, lanes);
  }
  return result;
}
