//===- DefaultTiling.h - default tilings for credit.rowwise -----*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_TRANSFORMS_DEFAULTTILING_H
#define CREDIT_TRANSFORMS_DEFAULTTILING_H

#include "Credit/Dialect/CreditOps.h"

namespace mlir {
namespace credit {

/// The widest vector (in elements) of at most 16 bytes for the row inputs
/// and outputs of `op` that divides the row length.
unsigned getDefaultVectorWidth(RowwiseOp op);

/// Registers-staged tiling for `op` with `cluster` CTAs per row, if the row
/// fits in the registers of that many CTAs; unless `allowIdle`, only one in
/// which every CTA gets part of the row.
std::optional<TilingAttr> getRegisterTiling(RowwiseOp op, unsigned cluster,
                                            bool allowIdle = false);

/// A tiling for `op`: the one `credit-choose-tiling` attaches. With
/// `cluster == 0` the smallest cluster whose registers hold the row, else
/// shared-memory staging on 16 CTAs, else rereads on 16 CTAs. With a
/// cluster size, registers, shared memory or rereads on that many CTAs.
TilingAttr getDefaultTiling(RowwiseOp op, unsigned cluster = 0);

} // namespace credit
} // namespace mlir

#endif // CREDIT_TRANSFORMS_DEFAULTTILING_H
