//===- Combiners.cpp - building combiner arithmetic -----------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/Combiners.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

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

Value mlir::credit::createCombine(OpBuilder &b, Location loc, CombinerKind kind,
                                  Value lhs, Value rhs) {
  switch (kind) {
  case CombinerKind::Add:
    return arith::AddFOp::create(b, loc, lhs, rhs);
  case CombinerKind::Max:
    return arith::MaximumFOp::create(b, loc, lhs, rhs);
  case CombinerKind::Min:
    return arith::MinimumFOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown combiner kind");
}
