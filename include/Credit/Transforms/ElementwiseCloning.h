//===- ElementwiseCloning.h - clone scalar regions onto vectors -*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_TRANSFORMS_ELEMENTWISECLONING_H
#define CREDIT_TRANSFORMS_ELEMENTWISECLONING_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace credit {

/// Clones the ops of `block` (a credit.rowwise region written on scalars)
/// at `builder`'s insertion point, with the block arguments replaced by
/// `args`, and returns the values its terminator yields.
///
/// An argument may be a scalar of the argument's type (a value that is the
/// same for every element, such as a stage result) or a 1-D vector of it
/// (one value per element). Ops whose operands are all scalars stay scalar,
/// so row-uniform code is computed once; elementwise ops with a vector
/// operand become vector ops, their scalar operands broadcast (a division
/// of a vector by a scalar becomes one reciprocal and a multiplication);
/// any other op with a vector operand is unrolled lane by lane. Yielded
/// values keep whichever form they have.
SmallVector<Value> cloneElementwise(OpBuilder &builder, Block &block,
                                    ValueRange args);

} // namespace credit
} // namespace mlir

#endif // CREDIT_TRANSFORMS_ELEMENTWISECLONING_H
