//===- Combiners.h - building combiner arithmetic ---------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_DIALECT_COMBINERS_H
#define CREDIT_DIALECT_COMBINERS_H

#include "Credit/Dialect/CreditAttrs.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace credit {

/// The f32 identity of `kind`: 0 for add, -inf for max, +inf for min.
Value createCombinerIdentity(OpBuilder &b, Location loc, CombinerKind kind);

/// Combines `lhs` and `rhs` (f32 or vectors of f32) by `kind`; max and min
/// propagate NaN.
Value createCombine(OpBuilder &b, Location loc, CombinerKind kind, Value lhs,
                    Value rhs);

} // namespace credit
} // namespace mlir

#endif // CREDIT_DIALECT_COMBINERS_H
