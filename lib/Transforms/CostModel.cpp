//===- CostModel.cpp - the credit-cost-model pass -------------------------===//
//
// Part of the CREDIT project.
//
// A thin wrapper over the cost model library (Credit/Analysis/CostModel.h):
// annotates each op with every candidate's predicted time and explains the
// choice in a remark.
//
//===----------------------------------------------------------------------===//

#include "Credit/Transforms/Tiling.h"

#include "Credit/Transforms/Passes.h"
#include "Credit/Transforms/TargetOptions.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITCOSTMODEL
#include "Credit/Transforms/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;

/// "#credit.tiling<...>: 12.5 us, bound by ... (+6%)".
static std::string describe(const Candidate &candidate, double best) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << candidate.plan.tiling << ": "
     << describePrediction(candidate.plan, candidate.prediction);
  if (best > 0 && candidate.prediction.micros > best)
    os << llvm::formatv(", {0:f0}% slower",
                        (candidate.prediction.micros / best - 1) * 100);
  return text;
}

void mlir::credit::annotateCost(RowwiseOp op, const CostReport &report) {
  MLIRContext *ctx = op.getContext();
  SmallVector<TilingAttr> tilings;
  SmallVector<double> micros;
  for (const Candidate &candidate : report.candidates) {
    tilings.push_back(candidate.plan.tiling);
    // Hundredths of a microsecond are all the model can claim.
    micros.push_back(std::round(candidate.prediction.micros * 100) / 100);
  }
  op.setCostAttr(CostEstimateAttr::get(ctx, report.rows, report.profitable(),
                                       tilings,
                                       DenseF64ArrayAttr::get(ctx, micros)));
}

std::string mlir::credit::explainCost(const CostReport &report) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const Candidate &best = report.best();
  double bestMicros = best.prediction.micros;
  os << "at M = " << report.rows << ", fastest of "
     << report.candidates.size() << " candidates: " << describe(best, 0);
  if (report.candidates.size() > 1)
    os << "; runner-up " << describe(report.candidates[1], bestMicros);
  // The best of the other kind, when it is not the runner-up.
  const Candidate *other =
      best.plan.ctasPerRow > 1 ? report.bestSingle : report.bestCluster;
  if (other && other != &report.candidates[1] && other != &best)
    os << "; best " << (other->plan.ctasPerRow > 1 ? "with several CTAs"
                                                   : "with one CTA per row")
       << " " << describe(*other, bestMicros);
  if (report.bestSingle && report.bestCluster)
    os << (report.profitable() ? "; sharing a row between CTAs pays"
                               : "; sharing a row between CTAs does not pay");
  return text;
}

namespace {
struct CostModelPass
    : public TargetOptions<credit::impl::CreditCostModelBase<CostModelPass>> {
  using TargetOptions::TargetOptions;

  std::string checkOptions() const override {
    if (rows < 1)
      return "rows must be at least 1, got " + std::to_string(rows);
    return checkTarget();
  }

  void runOnOperation() override {
    ChipProfile chipProfile;
    std::optional<TargetInfo> target = loadTargetForRun(chipProfile);
    if (!target)
      return;
    WalkResult result = getOperation()->walk([&](RowwiseOp op) {
      CostReport report =
          evaluateCandidates(op, *target, chipProfile,
                             getRepresentativeRows(op, rows));
      if (report.candidates.empty()) {
        op.emitError() << "credit-cost-model: no tiling of this op is legal "
                          "on "
                       << chip;
        return WalkResult::interrupt();
      }
      annotateCost(op, report);
      if (remarks)
        mlir::emitRemark(op.getLoc())
            << "credit-cost-model: " << explainCost(report);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
