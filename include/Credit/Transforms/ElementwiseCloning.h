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
/// values keep whichever form they have. Values of the block in `fixed`
/// are taken as given there (an op all of whose results are is not
/// cloned).
SmallVector<Value>
cloneElementwise(OpBuilder &builder, Block &block, ValueRange args,
                 ArrayRef<std::pair<Value, Value>> fixed = {});

/// Computes `value` of `block` once, as it is (no vectors): clones the ops
/// of the block that it needs, in block order, at `builder`'s insertion
/// point, with each block argument they use as `argument` gives it (by
/// argument number).
Value cloneSlice(OpBuilder &builder, Block &block, Value value,
                 function_ref<Value(unsigned)> argument);

} // namespace credit
} // namespace mlir

#endif // CREDIT_TRANSFORMS_ELEMENTWISECLONING_H
