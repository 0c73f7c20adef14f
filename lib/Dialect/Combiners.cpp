//===- Combiners.cpp - building combiner arithmetic -----------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/Combiners.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
  }
  llvm_unreachable("unknown combiner kind");
}

SmallVector<Value> mlir::credit::createCombineAll(OpBuilder &b, Location loc,
                                                  ArrayRef<CombinerKind> kinds,
                                                  ValueRange lhs,
                                                  ValueRange rhs) {
  SmallVector<Value> result;
  // The rescaling factors of each side, per max that has partners.
  llvm::SmallDenseMap<unsigned, std::pair<Value, Value>> scales;
  for (auto [k, kind] : llvm::enumerate(kinds)) {
    if (kind != CombinerKind::AddExp) {
      result.push_back(createCombine(b, loc, kind, lhs[k], rhs[k]));
      continue;
    }
    unsigned partner = *getExpPartner(kinds, k);
    auto [it, inserted] = scales.try_emplace(partner);
    if (inserted) {
      // The partner comes first: its combined maximum is already built.
      Value shift = createExpShift(b, loc, result[partner]);
      auto scale = [&](Value m) -> Value {
        return math::ExpOp::create(b, loc,
                                   arith::SubFOp::create(b, loc, m, shift));
      };
      it->second = {scale(lhs[partner]), scale(rhs[partner])};
    }
    auto [lhsScale, rhsScale] = it->second;
    Value lhsTerm = arith::MulFOp::create(b, loc, lhs[k], lhsScale);
    Value rhsTerm = arith::MulFOp::create(b, loc, rhs[k], rhsScale);
    result.push_back(arith::AddFOp::create(b, loc, lhsTerm, rhsTerm));
  }
  return result;
}
