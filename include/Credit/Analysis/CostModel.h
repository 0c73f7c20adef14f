//===- CostModel.h - predicting the time of a tiled op ----------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// The cost model scores a KernelPlan at a row count M against a calibrated
// ChipProfile. A cluster works through its rows one row group at a time;
// for each it pays the longest of three things (softened, since they
// partly overlap):
//
//   latency    the dependent chain of one CTA: rounds of global loads, block
//              reductions, cluster exchanges, its own arithmetic and, for
//              one-CTA grids, starting the CTA;
//   bandwidth  its share of the SM's (and the DRAM's) bandwidth for the bytes
//              it moves, with every resident CTA of the SM streaming too;
//   issue      its share of the SM's instruction issue for the arithmetic.
//
// The kernel takes a launch plus as many row groups as the busiest cluster
// has (waves: ceil(row groups / resident clusters)), plus the cluster
// start-up barrier. Every term comes from the plan (bytes, rounds,
// occupancy, co-resident clusters) or the profile (latencies, bandwidths).
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_ANALYSIS_COSTMODEL_H
#define CREDIT_ANALYSIS_COSTMODEL_H

#include "Credit/Analysis/Plan.h"
#include "Credit/Analysis/Profile.h"

#include <vector>

namespace mlir {
namespace credit {

/// What the model predicts for one plan at M rows.
struct Prediction {
  /// Predicted kernel time, microseconds.
  double micros = 0;
  /// Per row group of one CTA: the latency chain, the bandwidth share and
  /// the issue share, microseconds.
  double latencyUs = 0, bandwidthUs = 0, issueUs = 0;
  /// Clusters working at once, the row groups the busiest one handles in
  /// sequence, and the SMs busy.
  int64_t activeClusters = 0, waves = 0, activeSMs = 0;
  /// CTAs on the busiest SM, and whether that is more than an even share
  /// because clusters stack within GPCs.
  int64_t busiestSMCtas = 0;
  bool stacked = false;
  /// Which term is largest: "latency", "bandwidth" or "issue".
  llvm::StringRef bound;
  /// The grid the kernel is launched with at this M (getLaunchGrid).
  GridPolicy grid = GridPolicy::RowGroupPerCluster;
};

/// The row groups per resident cluster, ceil(row groups / co-resident
/// groups), from which `plan`, a one-wave kernel, is launched as a cluster
/// per row group instead (the profile's rule); 0 when its grid never
/// changes. The manifest carries it for the runtime.
int64_t getRowGroupLaunchShare(const KernelPlan &plan,
                               const ChipProfile &profile);

/// The grid `plan` is launched with for `rows` rows: its policy, or a
/// cluster per row group from the share above.
GridPolicy getLaunchGrid(const KernelPlan &plan, int64_t rows,
                         const ChipProfile &profile);

/// Predicts `plan` at `rows` rows. `rowBlocks` is the number of row blocks
/// of column-sum outputs (the grid of such kernels).
Prediction predict(const KernelPlan &plan, int64_t rows,
                   const ChipProfile &profile, int64_t rowBlocks = 64);

/// The tilings the model considers for `op` on `target` (only those with
/// `cluster` CTAs when it is not 0): for each cluster size, the slice in
/// registers at every CTA size whose threads all get part of the row and
/// whose values fit a thread without spilling, several rows per CTA for
/// short rows, and the slice staged in shared memory or reread from global
/// memory in sweeps (by CTAs of up to 1024 threads and, where that takes
/// several sweeps, by CTAs of half and a quarter as many). Every one is
/// legal (buildPlan succeeds). A forced cluster size that no such tiling
/// has gets tilings with idle threads or CTAs instead. Rows are split over
/// at most `maxSplits` clusters.
std::vector<KernelPlan>
enumerateCandidates(RowwiseOp op, const TargetInfo &target,
                    unsigned cluster = 0,
                    unsigned maxSplits = TilingAttr::kMaxSplits);

/// One candidate and its prediction.
struct Candidate {
  KernelPlan plan;
  Prediction prediction;
};

/// Every candidate of an op scored at one row count, fastest first.
struct CostReport {
  int64_t rows = 0;
  std::vector<Candidate> candidates;
  /// The fastest candidate with one CTA per row and with several (a
  /// cluster, or several clusters), if any.
  const Candidate *bestSingle = nullptr, *bestCluster = nullptr;

  const Candidate &best() const { return candidates.front(); }
  /// Whether several CTAs per row are predicted to beat every one-CTA
  /// tiling.
  bool profitable() const {
    return bestCluster &&
           (!bestSingle ||
            bestCluster->prediction.micros < bestSingle->prediction.micros);
  }
};

/// Scores the candidates of `op` at `rows` rows; empty when none is legal.
CostReport evaluateCandidates(RowwiseOp op, const TargetInfo &target,
                              const ChipProfile &profile, int64_t rows,
                              unsigned cluster = 0,
                              unsigned maxSplits = TilingAttr::kMaxSplits);

/// A tiling and the row counts it is chosen for (maxRows 0: no bound).
struct Variant {
  TilingAttr tiling;
  int64_t minRows = 1, maxRows = 0;
};

/// The model's choice as a function of M: the fastest candidate at every
/// row count from 1 to 2^20 (and beyond), merged into at most `maxVariants`
/// contiguous ranges. Empty when no candidate is legal.
llvm::SmallVector<Variant> chooseVariants(RowwiseOp op,
                                          const TargetInfo &target,
                                          const ChipProfile &profile,
                                          unsigned cluster = 0,
                                          unsigned maxVariants = 3,
                                          unsigned maxSplits =
                                              TilingAttr::kMaxSplits);

/// The row blocks of `op`'s column-sum outputs (64 when not static).
int64_t getRowBlocks(RowwiseOp op);

/// The row count the model reports at: M when static, else `fallback`.
int64_t getRepresentativeRows(RowwiseOp op, int64_t fallback);

/// A sentence on why `plan` takes the time `prediction` says.
std::string describePrediction(const KernelPlan &plan,
                               const Prediction &prediction);

} // namespace credit
} // namespace mlir

#endif // CREDIT_ANALYSIS_COSTMODEL_H
