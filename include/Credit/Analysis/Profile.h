//===- Profile.h - a GPU's calibrated performance profile -------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// The numbers the cost model uses, measured on a device by
// scripts/device_calibrate.sh and kept as JSON in targets/ (targets/h200.json
// is built in as the sm_90 default). Profiles of chips nobody calibrated
// here are derived from published specifications and say so
// ("calibrated": false).
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_ANALYSIS_PROFILE_H
#define CREDIT_ANALYSIS_PROFILE_H

#include "Credit/Analysis/Target.h"
#include "Credit/Dialect/CreditAttrs.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>

namespace mlir {
namespace credit {

struct ChipProfile {
  /// The device and chip it describes, and whether it was measured.
  std::string device, chip;
  bool calibrated = false;
  /// Where the profile came from: a file, or "built-in NAME".
  std::string source;

  int64_t numSMs = 0;
  double clockGHz = 0;
  /// Clusters resident at once, by cluster size and CTAs per SM
  /// (cuOccupancyMaxActiveClusters); see TargetInfo.
  ActiveClusterTable activeClusters;

  //===--- Memory --------------------------------------------------------===//
  /// Device-to-device copy bandwidth, bytes read plus written per second.
  double dramGBs = 0;
  /// Round trip of a global load under load, microseconds.
  double dramLatencyUs = 0;
  /// The most bytes per second one SM moves to and from memory.
  double smGBs = 0;
  /// Bandwidth and round trip of L2 hits (rereads), whole chip, and the
  /// L2's size.
  double l2GBs = 0, l2LatencyUs = 0;
  int64_t l2Bytes = 0;
  /// Bytes per cycle an SM reads or writes of its shared memory (and of
  /// its L1, the same storage), the L1/shared storage of an SM and an L1
  /// hit's round trip.
  double sharedBytesPerCycle = 0, l1LatencyUs = 0;
  int64_t l1Bytes = 0;

  //===--- Synchronization -----------------------------------------------===//
  /// One block reduction through shared memory (warp shuffles, a CTA
  /// barrier, shuffles again): `blockReduceUs + blockReducePerWarpUs *
  /// warps`.
  double blockReduceUs = 0, blockReducePerWarpUs = 0;
  /// One cluster exchange (DSMEM stores to every peer and a release/acquire
  /// cluster barrier), by cluster size.
  std::map<int64_t, double> clusterExchangeUs;
  /// One asynchronous cluster exchange (st.async to every peer completing
  /// on its mbarrier, each CTA waiting for its own), by cluster size; a
  /// profile without it prices the asynchronous exchange as the barrier
  /// one.
  std::map<int64_t, double> asyncExchangeUs;
  /// One exchange between the `splits` clusters of a split row through
  /// global memory (partial values stored, a release add on the row's
  /// counter, every CTA's acquire polls and its loads of the partials):
  /// `gridExchangeUs + gridExchangePerClusterUs * splits`.
  double gridExchangeUs = 0, gridExchangePerClusterUs = 0;

  /// The exchange between `splits` clusters of a row.
  double getGridExchangeUs(int64_t splits) const {
    return splits > 1 ? gridExchangeUs + gridExchangePerClusterUs * splits
                      : 0;
  }

  //===--- Launch --------------------------------------------------------===//
  /// A kernel launch in a stream or graph, to its last CTA's exit.
  double launchUs = 0;
  /// Starting one more CTA (cluster) on an SM whose previous one finished.
  double ctaLaunchUs = 0;
  /// When a cluster kernel takes a cluster per row group rather than one
  /// persistent wave: from `rowGroupLaunchShare` row groups per resident
  /// cluster, for kernels of at least `rowGroupLaunchCtasPerSM` CTAs per
  /// SM (0: always one wave). Measured (benchmarks/RESULTS.md, 2026-12-04
  /// and 2026-12-05): at many row groups per cluster clusters launched as
  /// others finish drift out of step and the last wave is not padded out
  /// (up to 12% faster); at few, or with one CTA per SM, the persistent
  /// loop is faster (up to 12%).
  int64_t rowGroupLaunchShare = 0, rowGroupLaunchCtasPerSM = 0;

  //===--- Arithmetic ----------------------------------------------------===//
  /// Simple f32 operations per microsecond one SM issues, and what one
  /// vector access to global or shared memory costs in such operations
  /// (the access and its address arithmetic).
  double opsPerUsPerSM = 0, accessOps = 0;
  /// What a global access narrower than the widest costs on top, in such
  /// operations, scaled by the share it leaves unused
  /// (KernelPlan::unusedAccessShare).
  double narrowAccessOps = 0;
  /// Operations per microsecond one thread issues on its own (its part of
  /// a row's chain when little else runs).
  double threadOpsPerUs = 0;
  /// What a kernel loses per register its estimate exceeds its budget by
  /// (spills to local memory), as a fraction of its time per 32 registers.
  double spillCost = 0;

  //===--- The model's fitted shape --------------------------------------===//
  /// Exponent of the soft maximum that combines a CTA's latency chain with
  /// the SM's bandwidth and issue limits (large: a hard maximum; 1: a sum).
  double overlap = 2;

  /// One exchange by `protocol` between `cluster` CTAs, interpolated
  /// between measured sizes.
  double getClusterExchangeUs(int64_t cluster,
                              Exchange protocol = Exchange::Barrier) const;
};

/// Parses a profile from JSON text; `source` names it in messages. On
/// failure returns nothing and sets `error` to what is wrong.
std::optional<ChipProfile> parseProfile(llvm::StringRef json,
                                        llvm::StringRef source,
                                        std::string &error);

/// Reads a profile file.
std::optional<ChipProfile> readProfile(llvm::StringRef path,
                                       std::string &error);

/// The built-in profile for `chip`: the calibrated H200 for sm_90 and
/// sm_90a, profiles derived from specifications otherwise.
std::optional<ChipProfile> getBuiltinProfile(llvm::StringRef chip,
                                             std::string &error);

/// The profile at `path`, or the chip's built-in one when `path` is empty.
std::optional<ChipProfile> loadProfile(llvm::StringRef chip,
                                       llvm::StringRef path,
                                       std::string &error);

/// The target description of `chip`, refined by the profile at `path` (or
/// the chip's built-in profile): the SM count and the measured cluster
/// residency of the device; the profile itself goes to `profile` when
/// given. Nothing, with `error` set, for an unknown chip or an unreadable
/// profile.
std::optional<TargetInfo> loadTarget(llvm::StringRef chip,
                                     llvm::StringRef path,
                                     std::string *error,
                                     ChipProfile *profile = nullptr);

/// Applies `profile`'s device facts to `target`.
void refineTarget(TargetInfo &target, const ChipProfile &profile);

} // namespace credit
} // namespace mlir

#endif // CREDIT_ANALYSIS_PROFILE_H
