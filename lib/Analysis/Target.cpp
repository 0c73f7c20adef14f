//===- Target.cpp - what CREDIT needs to know about a GPU -----------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Analysis/Target.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::credit;

std::optional<unsigned> mlir::credit::parseComputeCapability(
    llvm::StringRef chip) {
  if (!chip.consume_front("sm_"))
    return std::nullopt;
  // Architecture-specific (a) and family (f) variants share the limits.
  if (chip.ends_with("a") || chip.ends_with("f"))
    chip = chip.drop_back();
  unsigned version;
  if (chip.empty() || chip.getAsInteger(10, version))
    return std::nullopt;
  return version;
}

std::optional<TargetInfo> mlir::credit::getTargetInfo(llvm::StringRef chip) {
  std::optional<unsigned> capability = parseComputeCapability(chip);
  if (!capability || *capability < 90)
    return std::nullopt;
  TargetInfo target;
  target.chip = chip.str();
  target.computeCapability = *capability;
  switch (*capability / 10) {
  case 9: // Hopper: H100 SXM and H200.
    target.numSMs = 132;
    break;
  case 10: // Blackwell data center (B200, B300).
  case 11: // Thor.
    target.numSMs = *capability >= 110 ? 20 : 148;
    break;
  case 12: // Blackwell consumer and workstation parts.
    target.numSMs = *capability == 121 ? 48 : 170;
    target.maxThreadsPerSM = 1536;
    target.sharedMemoryPerSM = 100 * 1024;
    target.maxSharedMemoryPerCta = 99 * 1024;
    target.maxClusterSize = 8;
    break;
  default:
    // A later chip: Hopper's limits, which every later chip meets so far.
    target.numSMs = 132;
    break;
  }
  return target;
}

int64_t mlir::credit::getResidentClusters(const ActiveClusterTable &table,
                                          int64_t numSMs, int64_t cluster,
                                          int64_t ctasPerSM) {
  if (cluster < 1 || ctasPerSM < 1)
    return 0;
  auto measured = table.find(cluster);
  if (measured != table.end() && !measured->second.empty()) {
    const llvm::SmallVector<int64_t, 32> &counts = measured->second;
    size_t index = std::min<size_t>(ctasPerSM, counts.size()) - 1;
    return counts[index];
  }
  return numSMs * ctasPerSM / cluster;
}
