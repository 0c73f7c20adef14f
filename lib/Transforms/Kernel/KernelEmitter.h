//===- KernelEmitter.h - builds the kernel of one tiled op ------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// The emitter that credit-cluster-tiling uses to turn one credit.rowwise op
// into a gpu.func. It builds exactly what the op's KernelPlan says (shape of
// the work, staging, scratch, synchronization), split by concern:
//
//   KernelABI.cpp          parameters, their binding, the manifest
//   Staging.cpp            chunk positions, loads and stores, staged views
//   ReductionSchedule.cpp  reduction stages, scratch, cluster barriers
//   ColumnSums.cpp         column-sum outputs
//   ClusterTiling.cpp      the row loop, epilogue, finalize, the pass
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_LIB_TRANSFORMS_KERNEL_KERNELEMITTER_H
#define CREDIT_LIB_TRANSFORMS_KERNEL_KERNELEMITTER_H

#include "Credit/Analysis/Plan.h"
#include "Credit/Dialect/CreditOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <functional>

namespace mlir {
namespace credit {
namespace detail {

/// One kernel parameter, in launch order.
struct KernelParam {
  std::string name;
  /// "ptr" or "i64".
  StringRef kind;
  /// What the runtime passes: "row_input", "row_stride", "m", ...
  StringRef role;
  /// For pointers, the element type of the operand.
  Type elementType;
  /// For pointers, the operand's shape in terms of m, n and p.
  StringRef shape;
};

/// Where the current thread's chunk of a sweep lies.
struct ChunkPosition {
  /// Element offset inside the CTA's slice (and its shared-memory stage).
  Value local;
  /// Column of the row.
  Value column;
  /// The column as columnBase() + columnOffset: a base shared by the
  /// thread's chunks of the sweep (built on request), and a constant.
  std::function<Value()> columnBase;
  int64_t columnOffset = 0;
  /// Whether the chunk lies inside the row; null when that holds for every
  /// thread.
  Value inRange;
  /// inRange, and the thread's row exists; null when that holds for every
  /// thread.
  Value valid;
};

/// The per-row values of the row loop.
struct RowState {
  Value row;
  /// Null when every row group of the CTA has a row.
  Value rowValid;
  /// i1: this is the cluster's first row.
  Value first;
  /// Which of the two scratch buffers this row uses, and which phase of
  /// their mbarriers (asynchronous exchange): the buffer's uses so far,
  /// modulo 2.
  Value parity, phase;
  SmallVector<Value> scalars;
  SmallVector<Value> inputOffsets;
  SmallVector<Value> outputOffsets;
  /// Registers staging: the loaded chunks, [input][chunk], in the storage
  /// type where the plan packs them, else the compute type.
  SmallVector<SmallVector<Value>> registers;
  /// The current pass's zero (see KernelEmitter::beginPass); null where
  /// registers hold no 16-bit chunks.
  Value opaqueZero;
  /// An addexp stage's second pass reads the slice again
  /// (KernelPlan::recomputeExponentials): registers are widened as reuses
  /// and shared memory is read at indices offset by opaqueZero.
  bool again = false;
  /// The exponentials the last stage computed for the epilogue
  /// (getReusedExponentials), by its `max` entry: the thread's maximum t
  /// and exp(x - t) per chunk.
  struct Exponentials {
    Value threadMax;
    SmallVector<Value> chunks;
  };
  llvm::SmallDenseMap<unsigned, Exponentials, 1> exponentials;
};

/// Builds the kernel of one credit.rowwise op from its plan.
class KernelEmitter {
public:
  KernelEmitter(RowwiseOp op, const KernelPlan &plan)
      : op(op), plan(plan), b(op.getContext()), loc(op.getLoc()) {}

  /// Creates the gpu.module with the kernel `name` at the end of `module`.
  gpu::GPUModuleOp emit(ModuleOp module, StringRef name);

  /// The launch contract of the kernel emitted last, which the runtime
  /// launches for the row counts in `rowRanges` ([min, max], max 0: no
  /// bound), as a cluster per row group from `rowGroupLaunchShare` row
  /// groups per resident cluster (getRowGroupLaunchShare; 0: never).
  DictionaryAttr getManifest(StringRef name,
                             ArrayRef<std::pair<int64_t, int64_t>> rowRanges,
                             int64_t rowGroupLaunchShare);

private:
  //===--- Small helpers -------------------------------------------------===//
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value toIndex(Value i64) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), i64);
  }
  Value mul(Value lhs, Value rhs) {
    return arith::MulIOp::create(b, loc, lhs, rhs);
  }
  Value add(Value lhs, Value rhs) {
    return arith::AddIOp::create(b, loc, lhs, rhs);
  }
  Value andOf(Value lhs, Value rhs) {
    if (!lhs)
      return rhs;
    if (!rhs)
      return lhs;
    return arith::AndIOp::create(b, loc, lhs, rhs);
  }
  Value orOf(Value lhs, Value rhs) {
    if (!lhs)
      return rhs;
    return arith::OrIOp::create(b, loc, lhs, rhs);
  }
  Value cmp(arith::CmpIPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
  }
  VectorType vectorOf(Type element) {
    return VectorType::get({plan.vector}, element);
  }
  Type elementTypeOf(Value operand) {
    return cast<ShapedType>(operand.getType()).getElementType();
  }
  int64_t alignmentOf(Type element) {
    return std::min<int64_t>(16,
                             plan.vector * element.getIntOrFloatBitWidth() / 8);
  }
  /// Runs `body` under `condition` (always when it is null).
  void emitIf(Value condition, function_ref<void()> body);

  //===--- KernelABI.cpp -------------------------------------------------===//
  /// Lists the parameters in launch order.
  void createParameters();
  /// Binds the entry block's arguments: operand pointers, row strides, m
  /// and the rows of each cluster.
  void bindParameters(Block &entry);
  /// 1-D views of the operands' global memory.
  void createOperandViews();

  //===--- Staging.cpp ---------------------------------------------------===//
  /// Views of the staged row inputs in dynamic shared memory.
  void createStagedViews();
  ChunkPosition getChunkPosition(Value sweep, int64_t chunk, Value rowValid);
  /// How a vector load skips the lanes that are not valid.
  enum class Masking {
    /// With the plan's integer masks (KernelPlan::integerMasks), the lane
    /// reads the view's first vector (every masked caller's view has one)
    /// and keeps zero (selectValid): the load is unconditional. Without,
    /// as Branch.
    Select,
    /// The load is branched around: for loads a sweep or a row ahead of
    /// their use (before the row loop, a select would wait there for its
    /// load and so delay the first row's loads).
    Branch,
  };
  /// A vector load that yields zeros where `valid` is false.
  Value loadVector(Value view, Value index, Type element, Value valid,
                   Masking masking = Masking::Select);
  /// `valid ? onTrue : onFalse` for a chunk's validity (an i1). With the
  /// plan's integer masks, bitwise operations on an all-ones-or-zero mask
  /// that LLVM cannot turn back into a select: a select needs its
  /// condition in a predicate register, and a chunk's validity is
  /// loop-invariant, so each masked chunk would keep one live across the
  /// row loop (KernelPlan::integerMasks). Otherwise a select. Floats,
  /// vectors of them, and indices.
  Value selectValid(Value valid, Value onTrue, Value onFalse);
  void storeVector(Value value, Value view, Value index, Value valid);
  /// Extends float vectors to f32.
  Value toComputeType(Value value);
  /// Starts a pass over the slice (a reduction stage or the epilogue):
  /// with packed registers (KernelPlan::packedRegisters), a zero of the
  /// pass's own that neither LLVM nor ptxas can see is zero.
  /// `pass`: the stage's index, numStages for the epilogue.
  void beginPass(RowState &state, unsigned pass);
  /// An i32 zero that neither LLVM nor ptxas can see is zero, of pass
  /// `pass` (see beginPass).
  Value createOpaqueZero(unsigned pass);
  /// Where `value` is an arith.select of an f32 constant (or a broadcast
  /// of one), replaces the constant by its bits xor `zero` (an opaque
  /// zero): for outputs narrower than f32, else LLVM moves the select past
  /// the truncation and converts element by element.
  void hideSelectedConstants(Value value, Value zero);
  /// A loaded chunk as registers staging keeps it: as loaded where the
  /// plan packs registers, else in the compute type.
  Value keepInRegisters(Value raw);
  /// A kept chunk in the compute type. Packed, a `reuse` (a later pass, or
  /// a broadcast in the row loop) widens the bits xor the pass's zero: else
  /// LLVM or ptxas merge it with the first pass's widening and keep the
  /// wide values live across the exchange.
  Value widenStaged(RowState &state, Value kept, bool reuse);
  /// Registers staging: the broadcast inputs, once per CTA.
  void loadBroadcastRegisters();
  /// Registers staging: the CTA's slice of each row input.
  void loadRowRegisters(RowState &state);
  /// Async staging: copies the CTA's slice of each row input into shared
  /// memory, every chunk at once, and waits for the thread's own copies
  /// (each thread reads back only what it copied).
  void copyRowToShared(RowState &state);
  /// Where a chunk lives in a shared-memory stage.
  Value stagedIndex(const ChunkPosition &pos);
  /// Row input `input` at `pos`, in the compute type, for stage `stage`
  /// (`numStages` is the epilogue).
  Value getInput(RowState &state, unsigned input, unsigned chunk,
                 const ChunkPosition &pos, unsigned stage);
  Value getBroadcast(RowState &state, unsigned input, unsigned chunk,
                     const ChunkPosition &pos);
  /// Broadcast input `input`'s vector at `pos` from global memory, in its
  /// storage type; zeros outside the row or where `valid` (if given) is
  /// false.
  Value loadBroadcast(unsigned input, const ChunkPosition &pos, Value valid,
                      Masking masking = Masking::Select);
  /// Rewrites the regions' compares of a column with a value `t` into
  /// compares of the column's constant lanes with `t - base`: one value per
  /// thread instead of one register per element (which LLVM hoists out of
  /// the row loop and keeps live through the kernel).
  void foldColumnCompares();
  /// Argument `arg` of element region `block` where it is the same for the
  /// whole row: a scalar or an earlier stage's result.
  Value getRowUniformArg(RowState &state, Block &block, unsigned arg,
                         ValueRange results);
  /// The value `column` of `block` that a column test compares the column
  /// with (getColumnTestValue), computed once for the row, as an index.
  Value emitColumnTestValue(RowState &state, Block &block, Value column,
                            ValueRange results);
  /// The arguments of an element region at `pos`. `loaded`, where given,
  /// holds broadcast vectors loaded beforehand, by argument index (null:
  /// load here).
  SmallVector<Value> getElementArgs(Block &block, RowState &state,
                                    unsigned chunk, const ChunkPosition &pos,
                                    unsigned stage, ValueRange results,
                                    ArrayRef<Value> loaded = {});
  /// The epilogue's broadcast loads of chunk `pos` that its software
  /// pipeline issues ahead, one per getPrefetchedArgs in its order, in their
  /// storage type, zeros where `valid` (or the chunk's range) is false.
  SmallVector<Value> loadPrefetched(const ChunkPosition &pos, Value valid);
  /// Runs `body(sweep, values)` over the sweeps of the slice, threading
  /// `values` through.
  SmallVector<Value> forEachSweep(
      ValueRange init,
      function_ref<SmallVector<Value>(Value, SmallVector<Value>)> body);

  //===--- ReductionSchedule.cpp -----------------------------------------===//
  /// The block and cluster reduction scratch, as globals of `gpuModule`.
  void createScratch();
  /// References to the scratch from the kernel body.
  void bindScratch();
  /// Split rows: combines a stage's cluster-wide `values` over the row's
  /// clusters, handing them out through the grid scratch at
  /// `scratchOffset`.
  SmallVector<Value> emitGridReduce(unsigned stage, RowState &state,
                                    ValueRange values, ArrayAttr combiners,
                                    Value scratchOffset);
  /// Kernel entry: every CTA initializes its exchange mbarriers and
  /// announces that it has started.
  void emitClusterStart();
  /// Kernel entry, before the first global access: waits for the kernel
  /// before it on the stream (programmatic dependent launch), and lets the
  /// next one launch where launchesDependentsAtEntry().
  void emitGridDependencyWait();
  /// Whether the next kernel may launch at entry rather than after the
  /// rows.
  bool launchesDependentsAtEntry() const;
  /// Lets the next kernel on the stream launch.
  void emitLaunchDependents();
  /// Kernel exit: a cluster that had no rows completes the start barrier.
  void emitClusterEnd();
  /// `value` as a vector of the plan's width (broadcast if scalar).
  Value asVector(Value value);
  /// The sum over `chunks` (vectors) of `term` of each (the chunk itself
  /// when null), leaving out chunks whose `valid` is false.
  Value createChunkSum(ArrayRef<Value> chunks, ArrayRef<Value> valid,
                       function_ref<Value(Value)> term);
  /// (chunk - mean)^2, lane by lane.
  Value createSquaredDeviation(Value chunk, Value mean);
  /// The partial value of a column pick (matchColumnPick) of stage block
  /// `block` for the current row: computed from the row and broadcast
  /// elements at the picked column by one thread of the CTA whose slice
  /// holds it, the sum's identity in every other thread.
  Value emitColumnPick(RowState &state, Block &block, const ColumnPick &pick,
                       ValueRange results);
  /// Reduction stage `stage` of the current row: partial values over the
  /// slice, then the block and cluster reductions, and for split rows the
  /// exchange between the row's clusters.
  SmallVector<Value> emitStage(unsigned stage, RowState &state,
                               ValueRange results);

  //===--- ColumnSums.cpp ------------------------------------------------===//
  /// Whether column sums are kept in registers across the cluster's rows.
  bool columnSumsInRegisters() const {
    return plan.staging == Staging::Registers;
  }
  /// The initial register column sums (zeros), [output][chunk].
  SmallVector<Value> getInitialColumnSums();
  /// Adds epilogue value `value` of column-sum output `q` at `pos`.
  void accumulateColumnSum(RowState &state, unsigned q, unsigned chunk,
                           const ChunkPosition &pos, Value value,
                           SmallVector<Value> &sums);
  /// After the row loop: stores register sums, or zeros for a cluster
  /// without rows.
  void finishColumnSums(ValueRange sums);

  //===--- ClusterTiling.cpp ---------------------------------------------===//
  void emitBody(gpu::GPUFuncOp func);
  /// The row state of the row group starting at `rowBase`.
  RowState beginRow(Value rowBase);
  SmallVector<Value> emitEpilogue(RowState &state, ValueRange results,
                                  ValueRange columnSums);
  void emitFinalize(RowState &state, ValueRange results);

  RowwiseOp op;
  const KernelPlan &plan;
  OpBuilder b;
  Location loc;

  SmallVector<KernelParam> params;
  gpu::GPUModuleOp gpuModule;

  // Kernel-wide values.
  struct {
    SmallVector<Value> inputs, broadcasts, scalars, outputs, scalarOutputs,
        columnSums;
    /// Split rows: the partial values and arrival counters in global memory.
    Value splitPartials, splitCounters;
  } pointers;
  Value m, rowsPerCluster;
  /// The CTA's rank in its cluster, its cluster's index in the grid, the
  /// row group the cluster works on with the other clusters of its rows
  /// (the cluster itself without split rows) and its part of those rows.
  Value threadInRow, rowInCta, rank, clusterIndex, rowGroup, split;
  Value sliceBase, rowBegin, rowEnd;
  SmallVector<Value> inputViews, inputStrides, broadcastViews, scalarViews,
      outputViews, outputStrides, scalarOutputViews, columnSumViews;
  SmallVector<Value> stagedViews;
  /// The column vectors passed to element regions, each with its
  /// chunk-independent base (the rest is constant) and its pass's zero.
  SmallVector<std::tuple<Value, Value, Value>> columnVectors;
  /// Registers staging: broadcast chunks loaded once, [input][chunk],
  /// packed as the row's chunks are.
  SmallVector<SmallVector<Value>> broadcastRegisters;
  memref::GlobalOp blockScratchGlobal, clusterScratchGlobal,
      gridScratchGlobal, clusterBarriersGlobal;
  Value blockScratch, clusterScratch, gridScratch, clusterBarriers;
};

/// "f32", "bf16", ... for manifests and kernel names.
StringRef stringifyType(Type type);

} // namespace detail
} // namespace credit
} // namespace mlir

#endif // CREDIT_LIB_TRANSFORMS_KERNEL_KERNELEMITTER_H
