//===- ChooseTiling.cpp - tilings from the cost model ---------------------===//
//
// Part of the CREDIT project.
//
// A thin wrapper over the cost model library: the model's choice for every
// M, as the op's `tiling` and `variants`.
//
//===----------------------------------------------------------------------===//

#include "Credit/Transforms/Tiling.h"

#include "Credit/Transforms/Passes.h"
#include "Credit/Transforms/TargetOptions.h"

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITCHOOSETILING
#include "Credit/Transforms/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;

LogicalResult mlir::credit::chooseTiling(RowwiseOp op,
                                         const TargetInfo &target,
                                         const ChipProfile &profile,
                                         unsigned cluster, int64_t rows,
                                         unsigned maxVariants,
                                         unsigned maxSplits) {
  // A static M needs the one tiling that is fastest there.
  int64_t staticRows = getRepresentativeRows(op, 0);
  SmallVector<Variant> variants;
  if (staticRows > 0) {
    CostReport report =
        evaluateCandidates(op, target, profile, staticRows, cluster, maxSplits);
    if (!report.candidates.empty())
      variants.push_back({report.best().plan.tiling, 1, 0});
  } else {
    variants = chooseVariants(op, target, profile, cluster, maxVariants,
                              maxSplits);
  }
  if (variants.empty()) {
    InFlightDiagnostic error = op.emitError()
                               << "credit-choose-tiling: no tiling "
                               << (cluster ? "with " + std::to_string(cluster) +
                                                 " CTAs per row "
                                           : std::string())
                               << "is legal for N = " << op.getRowLength()
                               << " on " << target.chip;
    if (cluster > target.maxClusterSize)
      error << " (its clusters hold at most " << target.maxClusterSize
            << " CTAs)";
    return error;
  }
  int64_t at = getRepresentativeRows(op, rows);
  MLIRContext *ctx = op.getContext();
  for (const Variant &variant : variants)
    if (variant.minRows <= at && (variant.maxRows == 0 || at <= variant.maxRows))
      op.setTilingAttr(variant.tiling);
  if (variants.size() == 1) {
    op->removeAttr(op.getVariantsAttrName());
    return success();
  }
  SmallVector<Attribute> attrs;
  for (const Variant &variant : variants)
    attrs.push_back(VariantAttr::get(ctx, variant.tiling, variant.minRows,
                                     variant.maxRows));
  op.setVariantsAttr(ArrayAttr::get(ctx, attrs));
  return success();
}

std::string mlir::credit::checkClusterSizeOption(unsigned cluster) {
  if (llvm::is_contained({0u, 1u, 2u, 4u, 8u, 16u}, cluster))
    return "";
  return "cluster-size must be 0 (choose), 1, 2, 4, 8 or 16, got " +
         std::to_string(cluster);
}

namespace {
struct ChooseTilingPass
    : public TargetOptions<
          credit::impl::CreditChooseTilingBase<ChooseTilingPass>> {
  using TargetOptions::TargetOptions;

  std::string checkOptions() const override {
    if (std::string problem = checkClusterSizeOption(clusterSize);
        !problem.empty())
      return problem;
    if (rows < 1 || maxVariants < 1)
      return "rows and max-variants must be at least 1";
    if (maxSplits < 1 || maxSplits > TilingAttr::kMaxSplits)
      return "max-splits must be from 1 to " +
             std::to_string(TilingAttr::kMaxSplits) + ", got " +
             std::to_string(maxSplits);
    return checkTarget();
  }

  void runOnOperation() override {
    ChipProfile chipProfile;
    std::optional<TargetInfo> target = loadTargetForRun(chipProfile);
    if (!target)
      return;
    WalkResult result = getOperation()->walk([&](RowwiseOp op) {
      // A tiling given in the input is kept unless a size is forced.
      if (op.getTiling() && clusterSize == 0)
        return WalkResult::advance();
      if (failed(chooseTiling(op, *target, chipProfile, clusterSize, rows,
                              maxVariants, maxSplits)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
