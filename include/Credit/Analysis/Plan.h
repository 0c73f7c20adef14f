//===- Plan.h - what a tiling of a credit.rowwise op costs ------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// A KernelPlan states everything about one (op, tiling) pair that the cost
// model scores, the kernel emitter builds and the manifest records: the
// shape of the work per thread and per CTA, shared memory, bytes moved per
// row, synchronization rounds, estimated registers, occupancy and the grid
// rule. It is computed in one place (buildPlan), so that the model and the
// generated code cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_ANALYSIS_PLAN_H
#define CREDIT_ANALYSIS_PLAN_H

#include "Credit/Analysis/Target.h"
#include "Credit/Dialect/CreditOps.h"

#include <string>

namespace mlir {
namespace credit {

/// How the launcher maps rows to clusters.
enum class GridPolicy {
  /// One cluster per group of `rows` rows; the hardware starts a cluster
  /// whenever one finishes. One-CTA kernels use this.
  RowGroupPerCluster,
  /// One wave: as many clusters as can be resident, each looping over an
  /// equal share of the rows, so that the cluster start-up barrier is paid
  /// once per cluster. With rows split over several clusters, a group of
  /// `splits` clusters shares each row, and every group is resident (the
  /// groups wait for each other).
  OneWave,
  /// Column-sum outputs: one cluster (group of `splits` clusters) per row
  /// block (P groups).
  RowBlocks,
};

/// The name of `policy` in manifests and reports.
llvm::StringRef stringifyGridPolicy(GridPolicy policy);

/// What limits the CTAs an SM can hold.
enum class OccupancyLimit { Threads, Registers, SharedMemory, CtaSlots };
llvm::StringRef stringifyOccupancyLimit(OccupancyLimit limit);

/// The most 16-byte (or narrower) vector accesses per thread and sweep that
/// the emitter unrolls; larger tilings are rejected rather than compiled
/// into unbounded straight-line code.
constexpr int64_t kMaxChunksPerSweep = 128;

/// The most chunks that may lie past the row's end whose loads are branched
/// around and whose reductions select (KernelPlan::integerMasks): a thread
/// has 7 predicate registers, and the row loop and its exchange hold some.
constexpr int64_t kMostBranchedChunks = 5;

struct KernelPlan {
  TilingAttr tiling;

  //===--- Work per thread and CTA ---------------------------------------===//
  int64_t n = 0;
  int64_t cluster = 1, threads = 0, vector = 1, elems = 0, rows = 1;
  /// Clusters that share a row, and the CTAs of all of them.
  int64_t splits = 1, ctasPerRow = 1;
  Staging staging = Staging::Registers;
  /// How the CTAs of a cluster exchange partial values (cluster > 1).
  Exchange exchange = Exchange::Async;
  /// Threads that share a row, and warps per CTA.
  int64_t threadsPerRow = 0, warps = 0;
  /// Vector accesses per thread and input in one sweep (elems / vector).
  int64_t chunks = 0;
  /// Elements of a row one CTA owns, and the sweeps that cover them.
  int64_t slice = 0, sweeps = 0;
  /// Sweeps emitted one after the other in each iteration of the sweep
  /// loop (2 where a row that is not split takes 2, 4 or at least 5, else
  /// 1; an odd count's last sweep follows the loop):
  /// ptxas then issues the second sweep's loads while the first computes.
  int64_t sweepsPerIteration = 1;
  unsigned numStages = 0;
  /// The most values one reduction stage combines.
  unsigned stageWidth = 0;

  //===--- Operands ------------------------------------------------------===//
  unsigned numInputs = 0, numBroadcasts = 0, numScalars = 0, numOutputs = 0,
           numScalarOutputs = 0, numColumnSums = 0;
  /// Bytes per column of all row inputs, row outputs and broadcast inputs.
  int64_t inputBytesPerColumn = 0, outputBytesPerColumn = 0,
          broadcastBytesPerColumn = 0;
  /// Bytes of the widest row input, broadcast input or row output element:
  /// every access to them is `vector` elements wide.
  int64_t widestElementBytes = 0;

  //===--- Shared memory, bytes per CTA ----------------------------------===//
  /// f32 entries of the block-, cluster- and grid-reduction scratch: two
  /// buffers (alternating rows) per stage.
  int64_t blockScratchFloats = 0, clusterScratchFloats = 0,
          gridScratchFloats = 0;
  /// Asynchronous exchange: the mbarriers (8 bytes each) the cluster
  /// scratch's buffers complete on, one per buffer and stage.
  int64_t clusterBarriers = 0;
  /// Shared, async and mixed staging: where each staged row input's slice
  /// starts in dynamic shared memory (16-byte aligned; the leading inputs,
  /// all but the last with mixed staging), and their total.
  llvm::SmallVector<int64_t> stagedInputOffsets;
  int64_t dynamicSharedBytes = 0;
  int64_t staticSharedBytes = 0;

  //===--- Traffic and synchronization per row ---------------------------===//
  /// Bytes every implementation must move per row: row inputs read once,
  /// row outputs written once, per-row scalars in and out.
  int64_t compulsoryBytesPerRow = 0;
  /// Global reads of row inputs beyond the first (reread staging).
  int64_t rereadBytesPerRow = 0;
  /// Reads of broadcast inputs per row (cached in L2); zero with registers
  /// staging, which loads them once per CTA.
  int64_t broadcastBytesPerRow = 0;
  /// What registers staging loads of the broadcast inputs once per CTA
  /// (broadcastsInRegisters): its slice of each, in bytes.
  int64_t broadcastBytesPerCta = 0;
  /// Bytes pushed into peers' shared memory per row, whole cluster.
  int64_t dsmemBytesPerRow = 0;
  /// Cluster exchanges (a barrier round each) and block reductions through
  /// shared memory per row.
  int64_t exchangeRounds = 0, blockRounds = 0;
  /// Split rows: exchanges between the row's clusters through global memory
  /// (one per stage), and the f32 partial values one row leaves there (per
  /// stage, cluster and reduced value).
  int64_t gridRounds = 0, splitPartialFloatsPerRow = 0;
  /// Dependent rounds of global loads a thread waits for per row: the
  /// first read of the row (one round with registers staging, one per
  /// sweep otherwise, one with async staging), and the rereads of later
  /// regions (reread staging: one per sweep and region that reads the row;
  /// they mostly hit L2).
  int64_t dramRounds = 0, rereadRounds = 0;
  /// Bytes of row inputs one CTA has in flight in its first read of a row:
  /// a sweep's worth, or the whole slice with async staging.
  int64_t bytesInFlightPerCta = 0;
  /// Vector accesses per element of the row: to global memory (row and
  /// broadcast reads, output writes) and to the shared-memory stage.
  double globalAccessesPerElement = 0, sharedAccessesPerElement = 0;
  /// The share of the widest access the chip allows that the widest
  /// operand's vector access leaves unused (0 for 16-byte accesses on
  /// sm_90, 0.75 for one f32 at a time).
  double unusedAccessShare = 0;
  /// Bytes per row moved through the shared-memory stage (written once,
  /// read by every later region that uses the row).
  int64_t sharedBytesPerRow = 0;
  /// Column sums accumulated in global memory (without registers staging):
  /// bytes read and written back per row, and the dependent rounds.
  int64_t columnSumBytesPerRow = 0, columnSumRounds = 0;
  /// Arithmetic per element of the row over all regions, in simple-op
  /// units (an add is 1, an exponential 4, a division 10); row-uniform
  /// values are computed once per row and not counted.
  double opsPerElement = 0;

  //===--- Registers and occupancy ---------------------------------------===//
  /// Values a thread keeps live across the row: staged row elements,
  /// broadcast elements and column sums.
  int64_t stagedValues = 0;
  /// Per element: values an earlier stage computes that a later region
  /// uses again (live across the reductions between).
  int64_t carriedValues = 0;
  /// 1 when a region computes with the column index per element (held as
  /// 64-bit values) other than in compares that fold into constant lanes
  /// (isFoldableColumnCompare).
  int64_t indexValues = 0;
  /// Exponentials a stage's `addexp` entries take per element: a sweep's
  /// are computed after its maximum, live beside its values.
  int64_t exponentials = 0;
  int64_t estimatedRegisters = 0;
  /// The most registers a thread may use for `ctasPerSM` CTAs to fit on an
  /// SM. Sweep tilings are built to it (.maxnreg): their estimate is rough
  /// and ptxas packs their few live values into 32 registers as often as
  /// not, so the budget makes their occupancy what the plan says. Registers
  /// staging is not capped (measured: capping costs 4% there); its estimate
  /// stands, except with rows split over clusters, whose residency must
  /// hold (the clusters of a row wait for each other).
  int64_t registerBudget = 0;
  bool enforceRegisterBudget = false;
  /// The estimate exceeds the budget (beyond the margin of sweeps), so ptxas
  /// is expected to spill; and registers the estimate exceeds it by.
  bool expectSpills = false;
  int64_t registersOverBudget = 0;
  /// Registers staging on a CTA that loops over rows: the broadcast inputs
  /// are loaded once and kept; otherwise they are loaded where used.
  bool broadcastsInRegisters = false;
  /// Registers that hold the epilogue's next sweep of broadcast loads
  /// (getPrefetchedArgs) while the current sweep computes: the epilogue's
  /// software pipeline, built where the slice takes several sweeps. Zero
  /// without.
  int64_t prefetchRegisters = 0;
  /// Registers staging of 16-bit row inputs or kept broadcasts, in an op
  /// without addexp stages: they stay packed in their storage type (half the
  /// registers) and are widened at each use. An addexp stage needs its
  /// maximum before its exponentials; there, keeping the widened values
  /// through the stage (or rescaling chunk by chunk) measured no faster, so
  /// its values stay widened (benchmarks/RESULTS.md, 2026-12-02). Mixed
  /// staging packs its register input whatever the stages: its addexp
  /// stages compute their exponentials in a second pass over the slice
  /// (recomputeExponentials).
  bool packedRegisters = false;
  /// An addexp stage's second pass, after the sweep's maximum, computes
  /// its exponents and weights again from the staged slice rather than
  /// keep every chunk's values live from the first pass (mixed staging,
  /// whose one sweep is too long to keep them).
  bool recomputeExponentials = false;
  /// Chunks of a thread's sweep that may lie past the row's end: those
  /// that the last CTA's last sweep does not fill for every thread (zero
  /// where the CTAs cover the row exactly).
  int64_t maskedChunks = 0;
  /// A masked chunk's load and the reductions and column sums over it go
  /// through an all-ones-or-zero integer mask instead of a branch and a
  /// select: registers staging with more than kMostBranchedChunks masked
  /// chunks. Branches and selects take a predicate register per chunk,
  /// live across the row loop, and a thread has 7: with more, ptxas
  /// spilled them and issued the row's loads one round trip after another
  /// (rmsnorm f32 8 x 57520 c8 t256 e32, eight masked chunks: 1.96x faster
  /// with masks). With few, the masks cost more than they save (H200,
  /// 2026-12-07: 1-5 masked chunks 0.69-1.10x, geomean 0.98x over 32
  /// timings; 6 or more 1.33x over 58), and so they do with shared staging
  /// (0.73-1.12x).
  bool integerMasks = false;
  int64_t ctasPerSM = 0;
  OccupancyLimit occupancyLimit = OccupancyLimit::Threads;
  /// Resident warps over the SM's maximum.
  double occupancy = 0;
  /// Clusters that fit on the GPU at once, and groups of `splits` of them
  /// (the most row groups one launch of a split-row kernel may have).
  int64_t coResidentClusters = 0, coResidentGroups = 0;
  GridPolicy grid = GridPolicy::RowGroupPerCluster;

  /// Bytes of one CTA's slice of all row inputs.
  int64_t getSliceInputBytes() const { return slice * inputBytesPerColumn; }
  /// Whether row input `input` is held in registers between the regions:
  /// every input with registers staging, the last with mixed staging.
  bool isInputInRegisters(unsigned input) const {
    return staging == Staging::Registers ||
           (staging == Staging::Mixed && input + 1 == numInputs);
  }
  /// Whether row input `input` is copied into shared memory asynchronously
  /// when the row begins: async staging, and mixed staging's other inputs.
  bool isInputCopiedAsync(unsigned input) const {
    return staging == Staging::Async ||
           (staging == Staging::Mixed && !isInputInRegisters(input));
  }
};

/// The widest vector (in elements) of at most `target.maxAccessBytes` for
/// the row inputs, broadcast inputs and row outputs of `op` that divides the
/// row length.
unsigned getVectorWidth(RowwiseOp op, const TargetInfo &target);

/// Whether a compare of the column j with a value t, `bits` wide (after an
/// index cast, or 64 for index), folds into a compare of constant lanes
/// with t - base, one value per thread: exact for == and != at any width,
/// and for signed predicates from 32 bits up (t clamped at -1), since
/// 0 <= j < 2^31. The kernel emitter folds exactly these.
bool isFoldableColumnCompare(arith::CmpIPredicate predicate, unsigned bits);

/// The compares of a column with another value, directly or through one
/// index cast, each with the column as it is compared (the cast's result or
/// the column itself); whether these are all the column's uses.
bool collectColumnCompares(
    Value column, SmallVectorImpl<std::pair<arith::CmpIOp, Value>> &compares);

/// Whether `value`, of an element region of `op`, is the same for the
/// whole row: computed from scalars, earlier results and constants only
/// (no column, row or broadcast element).
bool isRowUniform(RowwiseOp op, Value value);

/// The condition that the kernel of `op` branches on once per row and
/// emits its epilogue for each way (it is then a constant there), if any:
/// the first row-uniform i1 of the epilogue that selects between values of
/// each element (cross_entropy's ignored rows, a quantization's all-zero
/// rows). None where the op has column sums.
Value getEpilogueRowCondition(RowwiseOp op);

/// The value s that `compare` tests the column j of its region against, if
/// it is such a test: `j == s` or `j != s`, with j compared as an index or
/// cast to 32 bits or more (so that no two columns meet) and s the same
/// for the whole row (it depends on no column, row or broadcast element).
/// Such a test is true (or false) at one column at most: a kernel can
/// take it as false (true) in every chunk but the one that holds s.
Value getColumnTestValue(RowwiseOp op, arith::CmpIOp compare);

/// An added entry of a reduction stage that picks one column of the row:
/// `select(j == s, a, 0.0)` or `select(j != s, 0.0, a)` for a column test
/// (getColumnTestValue) of j against s. Its sum over the row is a at
/// column s (plus 0.0, as the zeros it is summed with make it), and 0.0
/// where no column is s: a kernel computes it once per row, reading the
/// row at column s, rather than select and add per element.
struct ColumnPick {
  /// s, as the column is compared with it.
  Value column;
  /// a, which may use the column, row and broadcast elements.
  Value picked;
};

/// The column pick that entry `entry` of stage `stage` of `op` is, if any.
std::optional<ColumnPick> matchColumnPick(RowwiseOp op, unsigned stage,
                                          unsigned entry);

/// The arguments of `op`'s epilogue that its software pipeline loads a
/// sweep ahead (KernelPlan::prefetchRegisters): the broadcast inputs it
/// uses, where the plan does not keep them in registers, as indices of the
/// epilogue's arguments (1 + inputs + i for broadcast i). Row inputs that
/// reread staging loads again are not among them: pipelined, the
/// model chose such tilings over faster ones (cross_entropy bf16 8 x 1M,
/// benchmarks/RESULTS.md, 2026-12-04).
SmallVector<unsigned> getPrefetchedArgs(RowwiseOp op, const KernelPlan &plan);

/// An exponential of the epilogue that registers staging has computed
/// already: `exp(x - m)`, x a row input's element and m the result of a
/// `max` that an `addexp` of stage `stage` sums relative to, where the
/// stage's `max` entry is x itself. The stage computed exp(x - t) for its
/// sum, t the thread's own maximum, and keeps it; the epilogue multiplies
/// it by exp(t - m), once per row, instead of exponentiating each element
/// again (softmax, cross_entropy and softmax_logits_bwd: one exponential
/// per element rather than two).
struct ReusedExponential {
  /// The epilogue's `math.exp`.
  Operation *exp;
  unsigned stage;
  /// The stage's `max` entry.
  unsigned max;
};

/// The epilogue exponentials of `op` that its kernel under `plan` reuses:
/// with registers staging, from the last stage, of inputs the epilogue
/// uses in nothing else (so the exponentials take their registers rather
/// than add to them).
SmallVector<ReusedExponential> getReusedExponentials(RowwiseOp op,
                                                     const KernelPlan &plan);

/// ptxas's register count for `op`'s kernel of `tiling`, where the op
/// carries one (CreditDialect::kRegistersAttrName).
std::optional<int64_t> getMeasuredRegisters(RowwiseOp op, TilingAttr tiling);

/// The plan of `op` under `tiling` on `target`, or nothing when the tiling
/// is illegal there; `whyNot` then says why, in a sentence for a
/// diagnostic. Legal means that the kernel can be built and launched: the
/// tiling covers the row, its accesses fit the row and the chip, its
/// unrolled code is bounded, and one CTA (one cluster) fits on the GPU.
std::optional<KernelPlan> buildPlan(RowwiseOp op, TilingAttr tiling,
                                    const TargetInfo &target,
                                    std::string *whyNot = nullptr);

} // namespace credit
} // namespace mlir

#endif // CREDIT_ANALYSIS_PLAN_H
