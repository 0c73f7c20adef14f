//===- Tiling.h - choosing and explaining tilings ---------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// The transforms behind credit-cost-model and credit-choose-tiling, for
// compilers that drive them without the passes.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_TRANSFORMS_TILING_H
#define CREDIT_TRANSFORMS_TILING_H

#include "Credit/Analysis/CostModel.h"

namespace mlir {
namespace credit {

/// Gives `op` the model's choice: with a static M, the fastest tiling
/// there; else `tiling` at `rows` rows and, when the choice changes with M,
/// `variants` (at most `maxVariants`). Only tilings with `cluster` CTAs when
/// it is not 0, and rows split over at most `maxSplits` clusters. Emits an
/// error at the op when no tiling is legal.
LogicalResult chooseTiling(RowwiseOp op, const TargetInfo &target,
                           const ChipProfile &profile, unsigned cluster,
                           int64_t rows, unsigned maxVariants = 6,
                           unsigned maxSplits = TilingAttr::kMaxSplits);

/// What is wrong with a forced cluster size (0 lets the model choose), or
/// an empty string.
std::string checkClusterSizeOption(unsigned cluster);

/// Sets `op`'s `#credit.cost` from `report`.
void annotateCost(RowwiseOp op, const CostReport &report);

/// The remark text for `report`: the fastest candidate and what bounds it,
/// the runner-up and the best tiling of the other kind (with or without a
/// cluster), and whether a cluster pays.
std::string explainCost(const CostReport &report);

} // namespace credit
} // namespace mlir

#endif // CREDIT_TRANSFORMS_TILING_H
