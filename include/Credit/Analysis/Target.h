//===- Target.h - what CREDIT needs to know about a GPU ---------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// The one place where chip facts live: thread, register and shared-memory
// limits, cluster limits, the warp size and the SM count. Plans, the cost
// model, the emitter and the target checks read them from here rather than
// from literals.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_ANALYSIS_TARGET_H
#define CREDIT_ANALYSIS_TARGET_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace mlir {
namespace credit {

/// Clusters that can be resident at once, measured on a device
/// (cuOccupancyMaxActiveClusters): `table[c][k - 1]` for clusters of c CTAs
/// when an SM holds k CTAs of the kernel (the last entry serves larger k).
/// A cluster never spans two GPCs, so this is less than SMs * k / c on parts
/// whose GPCs have different SM counts.
using ActiveClusterTable = std::map<int64_t, llvm::SmallVector<int64_t, 32>>;

/// Clusters of `cluster` CTAs resident at once on `numSMs` SMs that hold
/// `ctasPerSM` CTAs each: the measured count where `table` has one, else the
/// SMs as one pool.
int64_t getResidentClusters(const ActiveClusterTable &table, int64_t numSMs,
                            int64_t cluster, int64_t ctasPerSM);

/// Limits of one GPU architecture (and, where a calibrated profile says so,
/// of one device: its SM count and how clusters are placed on it).
struct TargetInfo {
  /// The chip as the pipeline names it ("sm_90", "sm_90a", "sm_100", ...).
  std::string chip;
  /// Compute capability times ten (90 for sm_90 and sm_90a).
  unsigned computeCapability = 0;
  int64_t numSMs = 0;
  int64_t warpSize = 32;
  int64_t maxThreadsPerCta = 1024;
  int64_t maxThreadsPerSM = 2048;
  int64_t maxCtasPerSM = 32;
  int64_t registersPerSM = 65536;
  int64_t maxRegistersPerThread = 255;
  /// Registers are given to warps in blocks of this many per thread.
  int64_t registerGranularity = 8;
  /// The register file is split between the SM's warp schedulers, so the
  /// warps it holds by registers are counted in groups of this many: a CTA
  /// of 25 warps needs the registers of 28 (at 80 registers a thread, not
  /// one fits).
  int64_t warpAllocationGranularity = 4;
  /// Shared memory an SM has for CTAs, and what one CTA may have.
  int64_t sharedMemoryPerSM = 228 * 1024;
  int64_t maxSharedMemoryPerCta = 227 * 1024;
  /// Shared memory the hardware reserves for every resident CTA.
  int64_t reservedSharedMemoryPerCta = 1024;
  /// Largest cluster without and with the non-portable opt-in.
  int64_t maxPortableClusterSize = 8;
  int64_t maxClusterSize = 16;
  /// Widest single global or shared access, in bytes.
  int64_t maxAccessBytes = 16;
  /// Clusters that can be resident at once, measured on a device (empty:
  /// the SMs are one pool).
  ActiveClusterTable measuredActiveClusters;

  /// Clusters of `cluster` CTAs that can be resident at once when an SM
  /// holds `ctasPerSM` CTAs of the kernel (getResidentClusters).
  int64_t getMaxActiveClusters(int64_t cluster, int64_t ctasPerSM) const {
    return getResidentClusters(measuredActiveClusters, numSMs, cluster,
                               ctasPerSM);
  }
};

/// The description of `chip`, or nothing for a chip CREDIT cannot target
/// (anything before sm_90, which has no thread-block clusters). Known chips
/// get their architecture's limits and the SM count of their usual part
/// (sm_90: H100 SXM / H200, 132; sm_100: B200, 148; sm_120: RTX 5090, 170).
std::optional<TargetInfo> getTargetInfo(llvm::StringRef chip);

/// The compute capability of a chip name ("sm_90a" -> 90), if it is one.
std::optional<unsigned> parseComputeCapability(llvm::StringRef chip);

} // namespace credit
} // namespace mlir

#endif // CREDIT_ANALYSIS_TARGET_H
