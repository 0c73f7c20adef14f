//===- CostModel.cpp - predicting the time of a tiled op ------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Analysis/CostModel.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::credit;

//===----------------------------------------------------------------------===//
// Predictions
//===----------------------------------------------------------------------===//

/// A soft maximum: (a^p + b^p + c^p)^(1/p); a sum at p = 1, the maximum as
/// p grows.
static double softMax(double a, double b, double c, double p) {
  double top = std::max({a, b, c});
  if (top <= 0)
    return 0;
  double sum = std::pow(a / top, p) + std::pow(b / top, p) +
               std::pow(c / top, p);
  return top * std::pow(sum, 1.0 / p);
}

int64_t mlir::credit::getRowGroupLaunchShare(const KernelPlan &plan,
                                             const ChipProfile &profile) {
  // Split rows' clusters wait for each other: all must be resident.
  if (plan.grid != GridPolicy::OneWave || plan.splits != 1 ||
      profile.rowGroupLaunchShare <= 0 ||
      plan.ctasPerSM < profile.rowGroupLaunchCtasPerSM)
    return 0;
  return profile.rowGroupLaunchShare;
}

GridPolicy mlir::credit::getLaunchGrid(const KernelPlan &plan, int64_t rows,
                                       const ChipProfile &profile) {
  int64_t share = getRowGroupLaunchShare(plan, profile);
  if (share == 0)
    return plan.grid;
  int64_t rowGroups = llvm::divideCeil(std::max<int64_t>(rows, 1), plan.rows);
  int64_t resident = std::max<int64_t>(1, plan.coResidentGroups);
  return llvm::divideCeil(rowGroups, resident) >= share
             ? GridPolicy::RowGroupPerCluster
             : plan.grid;
}

namespace {
/// One row group of one CTA with `activeClusters` clusters working at once:
/// its latency chain, bandwidth share and issue share, and their
/// combination (micros).
struct GroupTime {
  double latencyUs = 0, bandwidthUs = 0, issueUs = 0, micros = 0;
  /// CTAs on the busiest SM, and the SMs busy.
  int64_t perSM = 1, activeSMs = 0;
  /// Whether clusters stack: the busiest SM holds more than an even share.
  bool stacked = false;
};
} // namespace

/// A kernel built to load its broadcast slice once per CTA loads it per row
/// group when launched as a cluster per row group.
static bool loadsBroadcastsPerGroup(const KernelPlan &plan, GridPolicy grid) {
  return plan.broadcastsInRegisters && grid == GridPolicy::RowGroupPerCluster;
}

static GroupTime predictGroup(const KernelPlan &plan,
                              const ChipProfile &profile, GridPolicy grid,
                              int64_t activeClusters) {
  double smLimitBytesPerUs = profile.smGBs * 1e3;
  GroupTime result;
  int64_t ctas = activeClusters * plan.cluster;
  result.activeSMs = std::min(profile.numSMs, ctas);
  // The busiest SM holds the CTAs spread evenly, or more: a cluster never
  // spans two GPCs, so clusters stack on some SMs before every SM holds
  // one (7 clusters of 16 CTAs fit at one CTA per SM on the H200, an 8th
  // takes a second slot on some: RESULTS.md, thirty-seventh session). It
  // holds the fewest CTAs at which the chip fits the clusters that work.
  int64_t perSM = std::clamp<int64_t>(llvm::divideCeil(ctas, profile.numSMs), 1,
                                      plan.ctasPerSM);
  int64_t evenPerSM = perSM;
  while (perSM < plan.ctasPerSM &&
         getResidentClusters(profile.activeClusters, profile.numSMs,
                             plan.cluster, perSM) < activeClusters)
    ++perSM;
  result.perSM = perSM;
  result.stacked = perSM > evenPerSM;

  // Bytes one CTA moves per row group. Rereads hit L2 while the rows being
  // worked on fit in it.
  double ctasPerRow = double(plan.ctasPerRow);
  double columns = double(plan.n) / ctasPerRow;
  double rowsPerGroup = double(plan.rows);
  double dramBytes =
      rowsPerGroup * double(plan.compulsoryBytesPerRow) / ctasPerRow;
  double rereadBytes =
      rowsPerGroup * double(plan.rereadBytesPerRow) / ctasPerRow;
  // Rereads hit the SM's L1 while the slices of its CTAs fit beside their
  // shared memory, else L2 while the rows being worked on fit in it.
  double sliceBytes = rowsPerGroup * columns * plan.inputBytesPerColumn;
  double l1Left =
      double(profile.l1Bytes) -
      perSM * double(plan.staticSharedBytes + plan.dynamicSharedBytes);
  enum { L1, L2, DRAM } rereadLevel =
      perSM * sliceBytes <= l1Left                             ? L1
      : double(ctas) * sliceBytes <= 0.5 * double(profile.l2Bytes) ? L2
                                                                   : DRAM;
  double l2Bytes =
      rowsPerGroup * double(plan.broadcastBytesPerRow) / ctasPerRow;
  if (loadsBroadcastsPerGroup(plan, grid))
    l2Bytes += double(plan.broadcastBytesPerCta);
  // Column sums kept in global memory are read and written back per row;
  // the cluster's block of them stays in L2.
  l2Bytes += rowsPerGroup * double(plan.columnSumBytesPerRow) / ctasPerRow;
  double l1Bytes = 0;
  (rereadLevel == L1 ? l1Bytes : rereadLevel == L2 ? l2Bytes : dramBytes) +=
      rereadBytes;
  double sharedBytes =
      rowsPerGroup * double(plan.sharedBytesPerRow) / ctasPerRow + l1Bytes;

  // Bytes per microsecond from DRAM for one SM: its own limit, or what its
  // CTAs keep in flight per DRAM round trip (Little's law: a round of loads
  // is a sweep of every row input, or the whole slice with async staging).
  double inFlight = perSM * double(plan.bytesInFlightPerCta);
  double smBytesPerUs =
      std::min(smLimitBytesPerUs, 2 * inFlight / profile.dramLatencyUs);
  double sharedBytesPerUs = profile.sharedBytesPerCycle * profile.clockGHz * 1e3;
  // DRAM, L2 and shared memory stream in parallel; the SM's own path
  // carries both global streams. The busiest SM's perSM CTAs bound what
  // one SM moves; the DRAM and the L2 serve the CTAs that work, fewer than
  // perSM on every SM where clusters leave slots empty (45 clusters of 8
  // CTAs fill 360 of 132 x 3 slots).
  result.bandwidthUs =
      std::max({perSM * std::max({dramBytes / smBytesPerUs,
                                  (dramBytes + l2Bytes) / smLimitBytesPerUs,
                                  sharedBytes / sharedBytesPerUs}),
                double(ctas) * dramBytes / (profile.dramGBs * 1e3),
                double(ctas) * l2Bytes / (profile.l2GBs * 1e3)});

  // Instructions: the regions' arithmetic and every vector access, global
  // accesses narrower than the widest at a surcharge.
  double opsPerElement =
      plan.opsPerElement +
      profile.accessOps *
          (plan.globalAccessesPerElement + plan.sharedAccessesPerElement) +
      profile.narrowAccessOps * plan.unusedAccessShare *
          plan.globalAccessesPerElement;
  double ops = rowsPerGroup * columns * opsPerElement;
  result.issueUs = perSM * ops / profile.opsPerUsPerSM;

  // The chain of one CTA: each thread's share of the instructions, and
  // every round it waits for.
  double ownOps = ops / double(plan.threads);
  result.latencyUs =
      double(plan.dramRounds) * profile.dramLatencyUs +
      double(plan.rereadRounds) * (rereadLevel == L1   ? profile.l1LatencyUs
                                   : rereadLevel == L2 ? profile.l2LatencyUs
                                                       : profile.dramLatencyUs) +
      double(plan.columnSumRounds) * profile.l2LatencyUs +
      double(plan.blockRounds) *
          (profile.blockReduceUs + profile.blockReducePerWarpUs * plan.warps) +
      double(plan.exchangeRounds) *
          profile.getClusterExchangeUs(plan.cluster, plan.exchange) +
      double(plan.gridRounds) * profile.getGridExchangeUs(plan.splits) +
      ownOps / profile.threadOpsPerUs;
  if (grid == GridPolicy::RowGroupPerCluster)
    result.latencyUs += profile.ctaLaunchUs;

  // One CTA per SM waits out its own chain between its transfers (the
  // terms add); more CTAs hide each other's chains (towards a maximum).
  // Mixed staging's terms add whatever the CTAs per SM: with the overlap
  // of the other stagings the model was 12-17% fast on every measured
  // mixed tiling of several CTAs per SM, with it within -6..+12%
  // (benchmarks/RESULTS.md, 2026-12-04, mixed staging).
  double overlap = plan.staging == Staging::Mixed
                       ? 1.0
                       : 1 + (profile.overlap - 1) * (1 - 1.0 / perSM);
  result.micros =
      softMax(result.latencyUs, result.bandwidthUs, result.issueUs, overlap);
  // Registers over the budget spill to local memory.
  result.micros *=
      1 + profile.spillCost * double(plan.registersOverBudget) / 32;
  return result;
}

Prediction mlir::credit::predict(const KernelPlan &plan, int64_t rows,
                                 const ChipProfile &profile,
                                 int64_t rowBlocks) {
  Prediction result;
  if (rows <= 0) {
    result.grid = plan.grid;
    result.micros = 0;
    result.bound = "latency";
    return result;
  }
  // Which clusters work, and how many row groups the busiest one has. The
  // clusters of a split row work as one group.
  GridPolicy grid = result.grid = getLaunchGrid(plan, rows, profile);
  int64_t rowGroups = llvm::divideCeil(rows, plan.rows);
  int64_t resident = std::max<int64_t>(1, plan.coResidentGroups);
  int64_t activeGroups;
  if (grid == GridPolicy::RowBlocks) {
    int64_t blocks = std::max<int64_t>(1, rowBlocks);
    activeGroups = std::min(blocks, resident);
    result.waves =
        llvm::divideCeil(rows, blocks) * llvm::divideCeil(blocks, activeGroups);
  } else {
    activeGroups = std::min(rowGroups, resident);
    result.waves = llvm::divideCeil(rowGroups, activeGroups);
  }
  result.activeClusters = activeGroups * plan.splits;
  // One wave gives each cluster a fixed share of the rows, so the busiest
  // has ceil(groups / clusters). A grid of a cluster per row group is
  // scheduled as clusters finish, which evens out all but a last partial
  // wave.
  double waves = double(result.waves);
  if (grid == GridPolicy::RowGroupPerCluster)
    waves = std::max(1.0, double(rowGroups) / double(activeGroups));
  GroupTime full = predictGroup(plan, profile, grid, result.activeClusters);
  result.latencyUs = full.latencyUs;
  result.bandwidthUs = full.bandwidthUs;
  result.issueUs = full.issueUs;
  result.activeSMs = full.activeSMs;
  result.busiestSMCtas = full.perSM;
  result.stacked = full.stacked;
  result.micros = profile.launchUs + waves * full.micros;
  // Broadcast inputs kept in registers: every CTA loads its slice of them
  // once, through its SM beside its first rows (at few rows, as much as a
  // row's own loads).
  if (!loadsBroadcastsPerGroup(plan, grid))
    result.micros +=
        full.perSM * double(plan.broadcastBytesPerCta) / (profile.smGBs * 1e3);
  // Clusters meet once at start-up before their first exchange.
  if (plan.cluster > 1)
    result.micros += profile.getClusterExchangeUs(plan.cluster);
  if (result.latencyUs >= result.bandwidthUs &&
      result.latencyUs >= result.issueUs)
    result.bound = "latency";
  else if (result.bandwidthUs >= result.issueUs)
    result.bound = "bandwidth";
  else
    result.bound = "issue";
  return result;
}

std::string mlir::credit::describePrediction(const KernelPlan &plan,
                                             const Prediction &prediction) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:f1} us, bound by {1}", prediction.micros,
                      prediction.bound);
  if (prediction.bound == "latency") {
    SmallVector<std::string> rounds;
    int64_t loads = plan.dramRounds + plan.rereadRounds;
    if (loads)
      rounds.push_back(llvm::formatv("{0} load round{1}", loads,
                                     loads == 1 ? "" : "s"));
    if (plan.exchangeRounds)
      rounds.push_back(llvm::formatv("{0} cluster exchange{1} of {2} CTAs",
                                     plan.exchangeRounds,
                                     plan.exchangeRounds == 1 ? "" : "s",
                                     plan.cluster));
    if (plan.gridRounds)
      rounds.push_back(llvm::formatv("{0} exchange{1} of {2} clusters "
                                     "through global memory",
                                     plan.gridRounds,
                                     plan.gridRounds == 1 ? "" : "s",
                                     plan.splits));
    if (plan.blockRounds)
      rounds.push_back(llvm::formatv("{0} block reduction{1}",
                                     plan.blockRounds,
                                     plan.blockRounds == 1 ? "" : "s"));
    os << " (" << llvm::join(rounds, ", ") << " per row";
  } else if (prediction.bound == "bandwidth") {
    os << llvm::formatv(" ({0} of the SMs busy, {1} CTA{2} per SM, limited "
                        "by {3}",
                        prediction.activeSMs, plan.ctasPerSM,
                        plan.ctasPerSM == 1 ? "" : "s",
                        stringifyOccupancyLimit(plan.occupancyLimit));
    if (plan.rereadBytesPerRow)
      os << llvm::formatv(", {0} bytes reread per row",
                          plan.rereadBytesPerRow);
  } else {
    os << llvm::formatv(" ({0:f0} operations per element",
                        plan.opsPerElement);
  }
  os << llvm::formatv("; {0} wave{1} of {2} cluster{3}", prediction.waves,
                      prediction.waves == 1 ? "" : "s",
                      prediction.activeClusters,
                      prediction.activeClusters == 1 ? "" : "s");
  if (prediction.stacked)
    os << llvm::formatv(", stacked in GPCs to {0} CTAs on the busiest SM",
                        prediction.busiestSMCtas);
  if (prediction.grid != plan.grid)
    os << ", launched as a cluster per row group";
  os << ")";
  return text;
}

//===----------------------------------------------------------------------===//
// Candidates
//===----------------------------------------------------------------------===//

/// The most values a thread keeps live across a row (registers staging)
/// before the candidate is dropped: more leaves a CTA at one per SM with
/// little in flight. (At 64, the measured best tiling of two-input f32 rows
/// of 64K elements, 96 values per thread, was left out.)
static constexpr int64_t kMaxStagedValues = 128;
/// The most vector accesses per input a candidate's thread makes in a sweep:
/// more (narrow vectors of odd N with many elements) measured 2-4x slower
/// than the model can tell.
static constexpr int64_t kMaxCandidateChunks = 32;
/// The fewest elements per CTA of a split row's candidates: shorter parts
/// cost more in exchanges than they gain in parallelism.
static constexpr int64_t kMinSplitPart = 2048;
/// The fewest threads per CTA of a split row's candidates, and of sweeps on
/// CTAs smaller than their slice allows: smaller split-row CTAs never
/// measured fastest (0 of 226 evaluation points, 2026-12-02) and the
/// model underestimates them by up to 1.45x.
static constexpr int64_t kMinSplitThreads = 128;

/// Whether a one-sweep tiling of `threads` x `elems` elements per CTA,
/// `ctasPerRow` CTAs per row of `n` and `accessBytes` per vector is a
/// mixed-staging candidate. Measured at the 92 points of the cost-model
/// evaluation with several row inputs (benchmarks/COSTMODEL.md,
/// 2026-12-04): offered beyond these bounds, the model took mixed tilings
/// that measured up to 1.46x slower than its earlier choice; within them it
/// took none slower. Where the CTAs' slices pass the row's end, every
/// chunk's bounds test makes ptxas spill what the register estimate does
/// not see (softmax_logits_bwd bf16 31 x 203424, e56: 132 bytes spilled);
/// narrower vectors and more elements per thread leave it wrong by more;
/// CTAs under 256 threads were not measured.
static bool isMixedCandidate(int64_t threads, int64_t elems,
                             int64_t accessBytes, int64_t ctasPerRow,
                             int64_t n) {
  return threads >= 256 && elems <= 64 && accessBytes == 16 &&
         ctasPerRow * threads * elems == n;
}

/// The candidates of `op` with `onlyCluster` CTAs (any when 0). Relaxed,
/// for a forced cluster size that no strict candidate has: 32-thread CTAs,
/// idle threads and CTAs of the cluster are allowed.
static std::vector<KernelPlan> enumerate(RowwiseOp op,
                                         const TargetInfo &target,
                                         unsigned onlyCluster,
                                         unsigned maxSplits, bool relaxed) {
  MLIRContext *ctx = op.getContext();
  int64_t n = op.getRowLength();
  int64_t vector = getVectorWidth(op, target);
  bool columnSums = !op.getColumnSumOutputs().empty();
  std::vector<KernelPlan> plans;
  int64_t blocks = getRowBlocks(op);
  int64_t inputBytes = 0;
  for (Value input : op.getInputs())
    inputBytes = std::max<int64_t>(
        inputBytes,
        llvm::divideCeil(getElementTypeOrSelf(input).getIntOrFloatBitWidth(),
                         8));
  auto add = [&](int64_t cluster, int64_t threads, int64_t elems, int64_t rows,
                 Staging staging, int64_t splits) -> bool {
    if (threads > target.maxThreadsPerCta)
      return false;
    // Valid by construction: whole warps per row, rows > 1 only on one CTA
    // of one cluster.
    auto tiling = TilingAttr::get(ctx, cluster, threads, vector, elems, rows,
                                  staging, splits, Exchange::Async);
    std::optional<KernelPlan> plan = buildPlan(op, tiling, target);
    if (!plan || plan->expectSpills || plan->stagedValues > kMaxStagedValues ||
        plan->chunks > kMaxCandidateChunks)
      return false;
    // Every row block of column sums must be resident with split rows.
    if (columnSums && splits > 1 && blocks > plan->coResidentGroups)
      return false;
    for (const KernelPlan &known : plans)
      if (known.tiling == tiling)
        return false;
    plans.push_back(std::move(*plan));
    return true;
  };

  SmallVector<int64_t> ctaSizes = {64, 128, 256, 512, 1024};
  if (relaxed)
    ctaSizes.insert(ctaSizes.begin(), 32);
  // Rows split over several clusters, for few long rows: up to the CTAs the
  // GPU has, and while every CTA gets a sizeable part of the row.
  // A forced cluster size means that many CTAs per row: one cluster.
  SmallVector<int64_t> splitCounts = {1};
  if (op.getNumStages() > 0 && !onlyCluster)
    for (int64_t splits = 2; splits <= int64_t(maxSplits); splits *= 2)
      splitCounts.push_back(splits);
  for (int64_t cluster : {1, 2, 4, 8, 16}) {
    if (cluster > target.maxClusterSize ||
        (onlyCluster && cluster != int64_t(onlyCluster)))
      continue;
    for (int64_t splits : splitCounts) {
      int64_t ctasPerRow = cluster * splits;
      if (splits > 1 &&
          (ctasPerRow > target.numSMs || n < kMinSplitPart * ctasPerRow))
        break;
      int64_t perCta = llvm::divideCeil(n, ctasPerRow);
      // The slice in registers, at every CTA size where every CTA of the
      // row and more than half of its threads get part of the row.
      bool registers = false;
      for (int64_t threads : ctaSizes) {
        int64_t elems =
            llvm::alignTo(llvm::divideCeil(perCta, threads), vector);
        if (!relaxed && threads * elems * (ctasPerRow - 1) >= n)
          continue;
        if (!relaxed && threads > 64 && threads * elems >= 2 * perCta)
          continue;
        if (splits > 1 && threads < kMinSplitThreads)
          continue;
        registers |=
            add(cluster, threads, elems, 1, Staging::Registers, splits);
        // The same sweep with all row inputs but the last in shared memory,
        // for slices that fit neither in registers nor in shared memory.
        if (op.getInputs().size() > 1 &&
            isMixedCandidate(threads, elems, vector * inputBytes, ctasPerRow,
                             n))
          add(cluster, threads, elems, 1, Staging::Mixed, splits);
      }
      // Short rows: several rows per CTA, 32 to 128 threads on each.
      if (cluster == 1 && splits == 1 && !columnSums) {
        for (int64_t perRow : {32, 64, 128}) {
          int64_t elems = llvm::alignTo(llvm::divideCeil(n, perRow), vector);
          if (perRow > 32 && perRow * elems >= 2 * n)
            continue;
          for (int64_t rows : {2, 4, 8, 16})
            if (rows * perRow >= 128)
              add(cluster, rows * perRow, elems, rows, Staging::Registers, 1);
        }
      }
      // Sweeps over a slice too long for registers: up to 1024 threads,
      // each with up to four vectors of each input in flight. Where the
      // slice takes several sweeps, also CTAs of half and a quarter as
      // many threads: two or four of them share an SM, so one loads while
      // another waits for its exchange.
      int64_t inputs = op.getInputs().size();
      int64_t elems = std::max<int64_t>(
          vector,
          std::min<int64_t>(4 * vector, 16 / inputs) / vector * vector);
      int64_t threads = std::min<int64_t>(
          target.maxThreadsPerCta,
          llvm::alignTo(llvm::divideCeil(perCta, elems), target.warpSize));
      int64_t sweeps = llvm::divideCeil(perCta, threads * elems);
      // Async staging is not offered: measured (COSTMODEL.md, runs 11-12)
      // it is the fastest candidate at 41 of 161 points, but the model
      // cannot yet tell which; offered, its choices were 4-6% slower on
      // the GPU's grids.
      if (sweeps >= 2 || !registers) {
        add(cluster, threads, elems, 1, Staging::Shared, splits);
        add(cluster, threads, elems, 1, Staging::Reread, splits);
      }
      // (Several sweeps means `threads` is the CTA maximum, whole warps.)
      if (sweeps >= 2)
        for (int64_t fewer : {threads / 2, threads / 4}) {
          if (fewer < kMinSplitThreads)
            break;
          add(cluster, fewer, elems, 1, Staging::Shared, splits);
          add(cluster, fewer, elems, 1, Staging::Reread, splits);
        }
      // A 16-bit slice in shared memory on a cluster's CTAs of 256 or 512
      // threads that take two sweeps or more over it, where one sweep of
      // more threads would cover it (Quack's shape for long rows: 16 CTAs
      // of 256 threads per row, three CTAs per SM). Measured (COSTMODEL.md,
      // run 10): up to 1.11x faster than every other candidate on 16-bit
      // rows, never more than 1.01x on 32-bit ones, and the model
      // underestimates them on 128 threads and on 32-bit rows, where it
      // took them at 0.75-0.93x of its earlier choice.
      if (sweeps == 1 && cluster > 1 && splits == 1 && inputBytes <= 2)
        for (int64_t fewer : {512, 256})
          if (fewer < threads && perCta > fewer * elems)
            add(cluster, fewer, elems, 1, Staging::Shared, splits);
    }
  }
  return plans;
}

std::vector<KernelPlan> mlir::credit::enumerateCandidates(
    RowwiseOp op, const TargetInfo &target, unsigned onlyCluster,
    unsigned maxSplits) {
  std::vector<KernelPlan> plans =
      enumerate(op, target, onlyCluster, maxSplits, /*relaxed=*/false);
  if (plans.empty() && onlyCluster)
    plans = enumerate(op, target, onlyCluster, maxSplits, /*relaxed=*/true);
  return plans;
}

//===----------------------------------------------------------------------===//
// Choices
//===----------------------------------------------------------------------===//

int64_t mlir::credit::getRowBlocks(RowwiseOp op) {
  for (Value output : op.getColumnSumOutputs()) {
    int64_t blocks = cast<ShapedType>(output.getType()).getDimSize(0);
    if (!ShapedType::isDynamic(blocks))
      return blocks;
  }
  return 64;
}

int64_t mlir::credit::getRepresentativeRows(RowwiseOp op, int64_t fallback) {
  int64_t rows = cast<ShapedType>(op.getInputs().front().getType()).getDimSize(0);
  return ShapedType::isDynamic(rows) || rows < 1 ? fallback : rows;
}

CostReport mlir::credit::evaluateCandidates(RowwiseOp op,
                                            const TargetInfo &target,
                                            const ChipProfile &profile,
                                            int64_t rows, unsigned cluster,
                                            unsigned maxSplits) {
  CostReport report;
  report.rows = rows;
  int64_t blocks = getRowBlocks(op);
  for (KernelPlan &plan :
       enumerateCandidates(op, target, cluster, maxSplits)) {
    Prediction prediction = predict(plan, rows, profile, blocks);
    report.candidates.push_back({std::move(plan), prediction});
  }
  llvm::stable_sort(report.candidates,
                    [](const Candidate &a, const Candidate &b) {
                      return a.prediction.micros < b.prediction.micros;
                    });
  for (const Candidate &candidate : report.candidates) {
    const Candidate *&best =
        candidate.plan.ctasPerRow == 1 ? report.bestSingle
                                        : report.bestCluster;
    if (!best)
      best = &candidate;
  }
  return report;
}

SmallVector<Variant> mlir::credit::chooseVariants(RowwiseOp op,
                                                  const TargetInfo &target,
                                                  const ChipProfile &profile,
                                                  unsigned cluster,
                                                  unsigned maxVariants,
                                                  unsigned maxSplits) {
  std::vector<KernelPlan> plans =
      enumerateCandidates(op, target, cluster, maxSplits);
  if (plans.empty())
    return {};
  int64_t blocks = getRowBlocks(op);
  // Row counts 1, 2, 3, 4, 6, 8, 12, ... 2^20: the model's time is a step
  // function of M whose steps (waves) are this coarse or finer.
  SmallVector<int64_t> grid;
  for (int64_t power = 1; power <= (int64_t(1) << 20); power *= 2) {
    grid.push_back(power);
    if (power >= 2 && power < (int64_t(1) << 20))
      grid.push_back(power + power / 2);
  }
  // times[g][c]: candidate c at grid point g.
  SmallVector<SmallVector<double>> times;
  for (int64_t rows : grid) {
    SmallVector<double> row;
    for (const KernelPlan &plan : plans)
      row.push_back(predict(plan, rows, profile, blocks).micros);
    times.push_back(std::move(row));
  }
  auto bestOf = [&](ArrayRef<double> row, ArrayRef<size_t> allowed) {
    size_t best = allowed.front();
    for (size_t c : allowed)
      if (row[c] < row[best])
        best = c;
    return best;
  };
  // The tiling launched at each grid point when `kept` are compiled: the
  // fastest of them at M = 1, then another takes over where it is more
  // than 3% faster than the current one (waves make close candidates trade
  // places from one M to the next).
  auto launched = [&](ArrayRef<size_t> kept) {
    SmallVector<size_t> choice;
    for (ArrayRef<double> row : times) {
      size_t best = bestOf(row, kept);
      choice.push_back(choice.empty() || row[choice.back()] > 1.03 * row[best]
                           ? best
                           : choice.back());
    }
    return choice;
  };
  SmallVector<size_t> all = llvm::to_vector(llvm::seq<size_t>(0, plans.size()));
  SmallVector<size_t> fastest;
  for (ArrayRef<double> row : times)
    fastest.push_back(bestOf(row, all));
  // The regret of what `kept` launches, summed over the grid in logs.
  auto regret = [&](ArrayRef<size_t> kept) {
    double sum = 0;
    for (auto [g, c] : llvm::enumerate(launched(kept)))
      sum += std::log(times[g][c] / times[g][fastest[g]]);
    return sum;
  };
  // Greedily keep the tiling that lowers that regret most, at most
  // maxVariants of them, while one lowers it by at least 1% (one grid
  // point 1% faster). Scoring what is launched rather than what is fastest
  // among the kept keeps no tiling that the ranges would never launch.
  SmallVector<size_t> kept;
  double keptRegret = 0;
  while (kept.size() < maxVariants) {
    std::optional<size_t> pick;
    double pickRegret = 0;
    for (size_t c : all) {
      if (llvm::is_contained(kept, c))
        continue;
      SmallVector<size_t> trial = kept;
      trial.push_back(c);
      double trialRegret = regret(trial);
      if (!pick || trialRegret < pickRegret - 1e-12) {
        pick = c;
        pickRegret = trialRegret;
      }
    }
    if (!pick || (!kept.empty() && pickRegret > keptRegret - std::log(1.01)))
      break;
    kept.push_back(*pick);
    keptRegret = pickRegret;
  }
  // Contiguous ranges of grid points that launch the same tiling.
  SmallVector<Variant> variants;
  for (auto [g, c] : llvm::enumerate(launched(kept))) {
    TilingAttr tiling = plans[c].tiling;
    if (!variants.empty() && variants.back().tiling == tiling)
      continue;
    if (!variants.empty())
      variants.back().maxRows = grid[g] - 1;
    variants.push_back({tiling, variants.empty() ? 1 : grid[g], 0});
  }
  return variants;
}
