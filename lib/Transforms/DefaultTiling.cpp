//===- DefaultTiling.cpp - default tilings for credit.rowwise -------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Transforms/DefaultTiling.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::credit;

namespace {
/// Registers a thread may spend on its slice: half of what is left of the
/// 64K registers of an SM (at most 255 per thread) after this many for
/// addresses and partial values; the other half holds the temporaries of the
/// element regions.
constexpr int64_t kRegistersForTheRest = 40;
constexpr int64_t kRegisterFileSize = 65536;
constexpr int64_t kMaxRegistersPerThread = 255;
/// Threads per CTA the default tilings aim for before they use more.
constexpr int64_t kPreferredThreads = 256;
} // namespace

unsigned mlir::credit::getDefaultVectorWidth(RowwiseOp op) {
  unsigned widestBytes = 1;
  for (Value value : llvm::concat<Value>(op.getInputs(), op.getOutputs()))
    widestBytes = std::max<unsigned>(
        widestBytes,
        cast<ShapedType>(value.getType()).getElementTypeBitWidth() / 8);
  unsigned vector = 16 / widestBytes;
  while (op.getRowLength() % vector != 0)
    vector /= 2;
  return vector;
}

std::optional<TilingAttr> mlir::credit::getRegisterTiling(RowwiseOp op,
                                                          unsigned cluster,
                                                          bool allowIdle) {
  int64_t n = op.getRowLength();
  int64_t vector = getDefaultVectorWidth(op);
  // Staged values per element: the row inputs and, kept across rows, the
  // broadcast inputs.
  int64_t inputs = op.getInputs().size() + op.getBroadcasts().size();
  int64_t perCta = llvm::divideCeil(n, cluster);
  for (int64_t threads = 32; threads <= 1024; threads += 32) {
    int64_t elems = llvm::alignTo(llvm::divideCeil(perCta, threads), vector);
    // Start from the preferred CTA size unless the slice is too small for it.
    if (threads < kPreferredThreads && elems > vector)
      continue;
    int64_t budget =
        (std::min(kRegisterFileSize / threads, kMaxRegistersPerThread) -
         kRegistersForTheRest) /
        2;
    if (elems * inputs > budget)
      continue;
    // The cluster must cover the row, and unless allowed, every CTA of the
    // cluster must get part of it.
    int64_t slice = threads * elems;
    if (slice * cluster < n || (!allowIdle && slice * (cluster - 1) >= n))
      continue;
    return TilingAttr::get(op.getContext(), cluster, threads, vector, elems,
                           /*rows=*/1, Staging::Registers);
  }
  return std::nullopt;
}

/// A tiling with `staging` (shared or reread) on `cluster` CTAs: up to 1024
/// threads (64 registers each), each with up to four 16-byte vectors in
/// flight per sweep, at most 16 staged values per thread (so that 64
/// registers hold them).
static TilingAttr getSweepTiling(RowwiseOp op, unsigned cluster,
                                 Staging staging) {
  int64_t vector = getDefaultVectorWidth(op);
  // Sweeps hold a chunk of each row input at a time (broadcast inputs are
  // loaded as they are used).
  int64_t inputs = op.getInputs().size();
  int64_t perCta = llvm::divideCeil(op.getRowLength(), cluster);
  int64_t elems = std::max<int64_t>(
      vector, std::min<int64_t>(4 * vector, 16 / inputs) / vector * vector);
  int64_t threads = std::min<int64_t>(
      1024, llvm::alignTo(llvm::divideCeil(perCta, elems), 32));
  // Small slices: fewer elements per thread rather than idle threads.
  int64_t perCtaVectors = llvm::alignTo(perCta, vector);
  while (elems > vector && threads * elems > perCtaVectors && threads < 1024)
    elems -= vector;
  return TilingAttr::get(op.getContext(), cluster, threads, vector, elems,
                         /*rows=*/1, staging);
}

/// Whether `tiling` keeps the row in shared memory that a CTA can have.
static bool fitsSharedMemory(RowwiseOp op, TilingAttr tiling) {
  return op.getDynamicSharedMemoryBytes(tiling) +
             op.getStaticSharedMemoryBytes(tiling) <=
         RowwiseOp::kMaxSharedMemoryBytes;
}

TilingAttr mlir::credit::getDefaultTiling(RowwiseOp op, unsigned cluster) {
  SmallVector<unsigned> clusters = {1, 2, 4, 8, 16};
  if (cluster != 0)
    clusters = {cluster};
  for (unsigned size : clusters)
    if (std::optional<TilingAttr> tiling = getRegisterTiling(op, size))
      return *tiling;
  // A forced cluster may be larger than the row needs.
  if (cluster != 0)
    if (std::optional<TilingAttr> tiling =
            getRegisterTiling(op, cluster, /*allowIdle=*/true))
      return *tiling;
  unsigned last = clusters.back();
  TilingAttr shared = getSweepTiling(op, last, Staging::Shared);
  if (fitsSharedMemory(op, shared))
    return shared;
  return getSweepTiling(op, last, Staging::Reread);
}
