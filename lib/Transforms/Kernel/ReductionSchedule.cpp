//===- ReductionSchedule.cpp - reduction stages and their barriers --------===//
//
// Part of the CREDIT project.
//
// Each reduction stage combines per-thread partial values over the slice,
// then across the CTA (credit.block_reduce), across the cluster
// (credit.cluster_reduce) and, for a row split over several clusters,
// across those clusters (credit.grid_reduce). All cluster and grid
// synchronization is decided here.
//
// Barrier discipline (cluster > 1):
//  - every thread arrives (relaxed) at a cluster barrier when it starts and
//    waits on it before its first store into a peer's shared memory, so no
//    CTA writes to a peer that has not started;
//  - the scratch of each stage alternates between two buffers from row to
//    row;
//  - asynchronous exchange (the default): each buffer has an mbarrier,
//    initialized before the start arrive (fence.mbarrier_init orders it
//    for the peers); the values go out with st.async and complete on the
//    receiver's mbarrier, and each CTA waits only for its own buffer to
//    fill. A peer can reuse a buffer (row r + 2) only once it has this
//    CTA's values of row r + 1, which this CTA sends after a CTA barrier
//    (the next block reduction) that follows every read of row r;
//  - barrier exchange: each cluster_reduce is a release-arrive /
//    acquire-wait round of the whole cluster, so a peer can only overwrite
//    a buffer after every CTA has read it;
//  - stores go to peers, reads are local, and every store into a CTA's
//    shared memory precedes that CTA's last wait: no CTA exits while a peer
//    can still touch its shared memory. A cluster without rows completes
//    the start barrier before it exits.
//  - an op without reduction stages never touches a peer's shared
//    memory, so its clusters have no barrier at all.
//
// Split rows (splits > 1): the clusters of a row group meet once per stage
// through global memory. Each cluster's rank 0 publishes its values in the
// row's slot for the stage (a slot per row and stage: nothing is reused
// within a launch) and counts itself in on the row's counter; every CTA
// waits for the count of the stage. The count only grows within a row, so
// waiting for `(stage + 1) * splits` arrivals is exact; after the last
// stage every CTA counts itself out with an increment that wraps the
// counter to zero at the final count.
// The wait needs every cluster of the grid resident: the grid rule caps
// the row groups at the resident clusters over `splits` (buildPlan
// refuses a tiling when not even one group fits).
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "Credit/Dialect/Combiners.h"
#include "Credit/Transforms/ElementwiseCloning.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::credit;
using namespace mlir::credit::detail;

void KernelEmitter::createScratch() {
  // Two buffers (alternating rows) per stage; sizes come from the plan.
  auto workgroup = gpu::AddressSpaceAttr::get(op.getContext(),
                                              gpu::AddressSpace::Workgroup);
  auto addScratch = [&](StringRef symbol, int64_t size) -> memref::GlobalOp {
    auto type = MemRefType::get({size}, b.getF32Type(),
                                MemRefLayoutAttrInterface(), workgroup);
    return memref::GlobalOp::create(
        b, loc, symbol, b.getStringAttr("private"), type, Attribute(),
        /*constant=*/false, b.getI64IntegerAttr(16));
  };
  if (plan.blockScratchFloats)
    blockScratchGlobal =
        addScratch("credit_block_scratch", plan.blockScratchFloats);
  if (plan.clusterScratchFloats)
    clusterScratchGlobal =
        addScratch("credit_cluster_scratch", plan.clusterScratchFloats);
  if (plan.gridScratchFloats)
    gridScratchGlobal =
        addScratch("credit_grid_scratch", plan.gridScratchFloats);
  if (plan.clusterBarriers) {
    auto type = MemRefType::get({plan.clusterBarriers}, b.getI64Type(),
                                MemRefLayoutAttrInterface(), workgroup);
    clusterBarriersGlobal = memref::GlobalOp::create(
        b, loc, "credit_cluster_barriers", b.getStringAttr("private"), type,
        Attribute(), /*constant=*/false, b.getI64IntegerAttr(8));
  }
}

void KernelEmitter::bindScratch() {
  if (blockScratchGlobal)
    blockScratch = memref::GetGlobalOp::create(
        b, loc, blockScratchGlobal.getType(), blockScratchGlobal.getSymName());
  if (clusterScratchGlobal)
    clusterScratch = memref::GetGlobalOp::create(
        b, loc, clusterScratchGlobal.getType(),
        clusterScratchGlobal.getSymName());
  if (gridScratchGlobal)
    gridScratch = memref::GetGlobalOp::create(
        b, loc, gridScratchGlobal.getType(), gridScratchGlobal.getSymName());
  if (clusterBarriersGlobal)
    clusterBarriers = memref::GetGlobalOp::create(
        b, loc, clusterBarriersGlobal.getType(),
        clusterBarriersGlobal.getSymName());
}

void KernelEmitter::emitClusterStart() {
  if (plan.cluster == 1 || plan.numStages == 0)
    return;
  if (clusterBarriers) {
    // One thread initializes the mbarriers (one arrival each: the thread
    // that sets the expected bytes); the fence makes them visible to the
    // peers' st.async before this thread's start arrive.
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    emitIf(cmp(arith::CmpIPredicate::eq, tid, index(0)), [&] {
      Value base = memref::ExtractAlignedPointerAsIndexOp::create(
          b, loc, clusterBarriers);
      Value one = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
      for (int64_t i = 0; i < plan.clusterBarriers; ++i) {
        Value address = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                                   add(base, index(8 * i)));
        Value pointer = LLVM::IntToPtrOp::create(
            b, loc, LLVM::LLVMPointerType::get(op.getContext(), 3), address);
        NVVM::MBarrierInitOp::create(b, loc, pointer, one,
                                     /*predicate=*/Value());
      }
      NVVM::FenceMbarrierInitOp::create(b, loc);
    });
  }
  NVVM::ClusterArriveRelaxedOp::create(b, loc, /*aligned=*/UnitAttr());
}

void KernelEmitter::emitClusterEnd() {
  if (plan.cluster == 1 || plan.numStages == 0)
    return;
  emitIf(cmp(arith::CmpIPredicate::uge, rowBegin, rowEnd), [&] {
    NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/UnitAttr());
  });
}

static vector::CombiningKind toVectorKind(CombinerKind kind) {
  switch (kind) {
  case CombinerKind::Add:
  case CombinerKind::AddExp:
  case CombinerKind::SqDev:
    return vector::CombiningKind::ADD;
  case CombinerKind::Max:
    return vector::CombiningKind::MAXIMUMF;
  case CombinerKind::Min:
    return vector::CombiningKind::MINIMUMF;
  }
  llvm_unreachable("unknown combiner");
}

Value KernelEmitter::asVector(Value value) {
  if (isa<VectorType>(value.getType()))
    return value;
  return vector::BroadcastOp::create(b, loc, vectorOf(value.getType()), value);
}

Value KernelEmitter::createChunkSum(ArrayRef<Value> chunks,
                                    ArrayRef<Value> valid,
                                    function_ref<Value(Value)> term) {
  Value sum = createCombinerIdentity(b, loc, CombinerKind::Add);
  for (auto [chunk, chunkValid] : llvm::zip_equal(chunks, valid)) {
    Value partial = vector::ReductionOp::create(
        b, loc, vector::CombiningKind::ADD, term ? term(chunk) : chunk);
    Value added = arith::AddFOp::create(b, loc, sum, partial);
    sum = chunkValid ? selectValid(chunkValid, added, sum) : added;
  }
  return sum;
}

Value KernelEmitter::createSquaredDeviation(Value chunk, Value mean) {
  Value deviation = arith::SubFOp::create(
      b, loc, chunk, vector::BroadcastOp::create(b, loc, chunk.getType(), mean));
  return arith::MulFOp::create(b, loc, deviation, deviation);
}

Value KernelEmitter::emitColumnPick(RowState &state, Block &block,
                                    const ColumnPick &pick,
                                    ValueRange results) {
  unsigned numInputs = op.getInputs().size();
  unsigned elementArgs = op.getNumElementArgs();
  Value column = emitColumnTestValue(state, block, pick.column, results);
  // One thread of the CTA whose slice holds the column (rows past the end
  // have none), which reads the elements there; the others read column 0.
  Value owner =
      andOf(andOf(cmp(arith::CmpIPredicate::sge, column, sliceBase),
                  cmp(arith::CmpIPredicate::slt, column,
                      add(sliceBase, index(plan.slice)))),
            andOf(cmp(arith::CmpIPredicate::slt, column, index(plan.n)),
                  andOf(cmp(arith::CmpIPredicate::eq, threadInRow, index(0)),
                        state.rowValid)));
  Value at = arith::SelectOp::create(b, loc, owner, column, index(0));
  auto element = [&](Value view, Value position) -> Value {
    Value value = memref::LoadOp::create(b, loc, view, ValueRange{position});
    if (isa<FloatType>(value.getType()) && !value.getType().isF32())
      value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return value;
  };
  Value picked = cloneSlice(b, block, pick.picked, [&](unsigned arg) {
    if (arg == 0)
      return at;
    if (arg <= numInputs)
      return element(inputViews[arg - 1], add(state.inputOffsets[arg - 1], at));
    if (arg < elementArgs)
      return element(broadcastViews[arg - 1 - numInputs], at);
    return getRowUniformArg(state, block, arg, results);
  });
  // A -0.0 summed with the zeros of the other columns is 0.0.
  Value zero = createCombinerIdentity(b, loc, CombinerKind::Add);
  picked = arith::AddFOp::create(
      b, loc, picked,
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0)));
  return arith::SelectOp::create(b, loc, owner, picked, zero);
}

SmallVector<Value> KernelEmitter::emitStage(unsigned stage, RowState &state,
                                            ValueRange results) {
  SmallVector<CombinerKind> kinds = op.getStageCombiners(stage);
  Block &block = op.getStages()[stage].front();
  SmallVector<Value> init = llvm::map_to_vector(kinds, [&](CombinerKind kind) {
    return createCombinerIdentity(b, loc, kind);
  });
  // Entries that pick one column: read once per row, before the sweeps so
  // that the read overlaps them.
  SmallVector<Value> picks(kinds.size());
  for (unsigned k = 0; k < kinds.size(); ++k)
    if (std::optional<ColumnPick> pick = matchColumnPick(op, stage, k))
      picks[k] = emitColumnPick(state, block, *pick, results);
  // The maxima that addexp entries sum relative to.
  llvm::SmallSetVector<unsigned, 2> partners;
  for (unsigned k = 0; k < kinds.size(); ++k)
    if (kinds[k] == CombinerKind::AddExp)
      partners.insert(*getExpPartner(kinds, k));

  // Rows reread from global memory keep no slice to pass over again.
  bool rereadMoments = plan.staging == Staging::Reread;
  // The maxima whose exponentials the epilogue reuses.
  llvm::SmallDenseSet<unsigned, 1> keepExponentials;
  for (const ReusedExponential &reused : getReusedExponentials(op, plan))
    if (reused.stage == stage)
      keepExponentials.insert(reused.max);
  beginPass(state, stage);
  SmallVector<Value> partials = forEachSweep(init, [&](Value sweep,
                                                       SmallVector<Value> accs) {
    SmallVector<Value> next = accs;
    auto accumulate = [&](Value acc, Value partial, Value valid,
                          CombinerKind kind) -> Value {
      // An addexp's partial is already relative to the sum's maximum.
      Value combined =
          kind == CombinerKind::AddExp
              ? Value(arith::AddFOp::create(b, loc, acc, partial))
              : createCombine(b, loc, kind, acc, partial);
      return valid ? selectValid(valid, combined, acc) : combined;
    };
    // Every entry but addexp combines chunk by chunk; addexp needs the
    // sweep's maximum first, so the exponents and weights of its chunks
    // are kept for the second pass.
    SmallVector<SmallVector<Value>> kept(kinds.size());
    SmallVector<Value> valid;
    for (int64_t chunk = 0; chunk < plan.chunks; ++chunk) {
      ChunkPosition pos = getChunkPosition(sweep, chunk, state.rowValid);
      SmallVector<Value> args =
          getElementArgs(block, state, chunk, pos, stage, results);
      SmallVector<Value> values = cloneElementwise(b, block, args);
      valid.push_back(pos.valid);
      for (auto [k, kind] : llvm::enumerate(kinds)) {
        Value value = values[k];
        bool isOne = kind == CombinerKind::AddExp &&
                     matchPattern(value, m_OneFloat());
        value = asVector(value);
        if (partners.contains(k) || kind == CombinerKind::AddExp ||
            (kind == CombinerKind::SqDev && rereadMoments))
          kept[k].push_back(isOne ? Value() : value);
        if (kind == CombinerKind::AddExp || kind == CombinerKind::SqDev ||
            picks[k])
          continue;
        Value partial =
            vector::ReductionOp::create(b, loc, toVectorKind(kind), value);
        next[k] = accumulate(next[k], partial, pos.valid, kind);
      }
    }
    // addexp: rescale the sum to the new maximum, add the sweep's terms.
    for (unsigned partner : partners) {
      Value shift = createExpShift(b, loc, next[partner]);
      RowState::Exponentials *keep = nullptr;
      if (keepExponentials.contains(partner)) {
        keep = &state.exponentials[partner];
        keep->threadMax = next[partner];
      }
      Value scale = math::ExpOp::create(
          b, loc, arith::SubFOp::create(b, loc, accs[partner], shift));
      Value shifts =
          vector::BroadcastOp::create(b, loc, vectorOf(b.getF32Type()), shift);
      SmallVector<unsigned> sums;
      for (auto [k, kind] : llvm::enumerate(kinds))
        if (kind == CombinerKind::AddExp && *getExpPartner(kinds, k) == partner)
          sums.push_back(k);
      for (unsigned k : sums)
        next[k] = arith::MulFOp::create(b, loc, accs[k], scale);
      // The second pass's own zero, where it reads the slice again.
      Value firstZero = state.opaqueZero;
      if (plan.recomputeExponentials)
        state.opaqueZero = createOpaqueZero(plan.numStages + 1 + stage);
      // Chunk by chunk, each exponential added where it is computed, so
      // that no chunk's exponentials wait for the others'.
      for (auto [chunk, exponent] : llvm::enumerate(kept[partner])) {
        SmallVector<Value> again;
        if (plan.recomputeExponentials) {
          ChunkPosition pos = getChunkPosition(sweep, chunk, state.rowValid);
          state.again = true;
          SmallVector<Value> args =
              getElementArgs(block, state, chunk, pos, stage, results);
          state.again = false;
          again = cloneElementwise(b, block, args);
          exponent = asVector(again[partner]);
        }
        Value e = math::ExpOp::create(
            b, loc, arith::SubFOp::create(b, loc, exponent, shifts));
        if (keep)
          keep->chunks.push_back(e);
        for (unsigned k : sums) {
          Value weight = kept[k][chunk];
          if (!again.empty())
            weight = matchPattern(again[k], m_OneFloat()) ? Value()
                                                          : asVector(again[k]);
          Value term =
              weight ? Value(arith::MulFOp::create(b, loc, e, weight)) : e;
          Value partial = vector::ReductionOp::create(
              b, loc, vector::CombiningKind::ADD, term);
          next[k] = accumulate(next[k], partial, valid[chunk], kinds[k]);
        }
      }
      state.opaqueZero = firstZero;
    }
    // sqdev, rows reread: the sweep's moments (its sum and count, then the
    // squared deviations from its mean), merged into the running ones once.
    for (auto [k, kind] : llvm::enumerate(kinds)) {
      if (kind != CombinerKind::SqDev || !rereadMoments)
        continue;
      Moments moments;
      moments.sum = createChunkSum(kept[k], valid, {});
      moments.count = createChunkSum(kept[k], valid, [&](Value chunk) {
        // The count entry yields 1.0 (the verifier checks it).
        return arith::ConstantOp::create(
            b, loc, chunk.getType(),
            DenseElementsAttr::get(cast<VectorType>(chunk.getType()), 1.0f));
      });
      Value mean = createMomentsDiv(b, loc, moments.sum, moments.count);
      moments.m2 = createChunkSum(kept[k], valid, [&](Value chunk) {
        return createSquaredDeviation(chunk, mean);
      });
      next[k] = createMomentsMerge(b, loc, {accs[k - 2], accs[k - 1], accs[k]},
                                   moments)
                    .m2;
    }
    return next;
  });

  for (auto [partial, pick] : llvm::zip_equal(partials, picks))
    if (pick)
      partial = pick;

  // sqdev, rows staged in registers or shared memory: a second pass over
  // the staged slice sums the squared deviations from the thread's own
  // mean (the first pass only added, keeping its loads back to back).
  SmallVector<unsigned> moments;
  for (auto [k, kind] : llvm::enumerate(kinds))
    if (kind == CombinerKind::SqDev && !rereadMoments)
      moments.push_back(k);
  if (!moments.empty()) {
    SmallVector<Value> means = llvm::map_to_vector(moments, [&](unsigned k) {
      return createMomentsDiv(b, loc, partials[k - 2], partials[k - 1]);
    });
    // Its own pass: packed registers widen the staged words again.
    beginPass(state, plan.numStages + 1 + stage);
    SmallVector<Value> zeros(moments.size(),
                             createCombinerIdentity(b, loc, CombinerKind::Add));
    SmallVector<Value> squares = forEachSweep(
        zeros, [&](Value sweep, SmallVector<Value> accs) {
          SmallVector<SmallVector<Value>> chunks(moments.size());
          SmallVector<Value> valid;
          for (int64_t chunk = 0; chunk < plan.chunks; ++chunk) {
            ChunkPosition pos = getChunkPosition(sweep, chunk, state.rowValid);
            valid.push_back(pos.valid);
            SmallVector<Value> values = cloneElementwise(
                b, block,
                getElementArgs(block, state, chunk, pos, plan.numStages,
                               results));
            for (auto [i, k] : llvm::enumerate(moments))
              chunks[i].push_back(asVector(values[k]));
          }
          for (size_t i = 0; i < means.size(); ++i)
            accs[i] = arith::AddFOp::create(
                b, loc, accs[i],
                createChunkSum(chunks[i], valid, [&](Value chunk) {
                  return createSquaredDeviation(chunk, means[i]);
                }));
          return accs;
        });
    for (auto [i, k] : llvm::enumerate(moments))
      partials[k] = squares[i];
  }

  // The scratch region of this stage in this row's buffer.
  auto bufferOffset = [&](int64_t region) {
    return mul(add(mul(state.parity, index(plan.numStages)), index(stage)),
               index(region));
  };
  ArrayAttr combiners = cast<ArrayAttr>(op.getCombiners()[stage]);
  Value blockOffset;
  if (blockScratch)
    blockOffset = bufferOffset(plan.warps * plan.stageWidth);
  auto blockReduce = BlockReduceOp::create(
      b, loc, ValueRange(partials).getTypes(), partials, blockScratch,
      blockOffset, combiners, b.getI32IntegerAttr(plan.threadsPerRow));
  SmallVector<Value> values(blockReduce.getResults());
  if (plan.cluster == 1)
    return plan.splits > 1
               ? emitGridReduce(stage, state, values, combiners,
                                bufferOffset(plan.stageWidth))
               : values;

  // Before the first store into a peer's shared memory, wait until every
  // CTA of the cluster has started (the arrive was issued at kernel entry).
  if (stage == 0)
    emitIf(state.first, [&] {
      NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/UnitAttr());
    });
  Value barrierIndex, phase;
  if (clusterBarriers) {
    // A CTA of one warp has no barrier in its block reduction; the
    // reuse argument above needs one between the reads of a buffer and
    // the next row's sends.
    if (plan.warps == 1)
      gpu::BarrierOp::create(b, loc);
    barrierIndex = add(mul(state.parity, index(plan.numStages)), index(stage));
    phase = state.phase;
  }
  auto clusterReduce = ClusterReduceOp::create(
      b, loc, ValueRange(values).getTypes(), values, clusterScratch,
      bufferOffset(plan.cluster * plan.stageWidth), clusterBarriers,
      barrierIndex, phase, combiners, b.getI32IntegerAttr(plan.cluster));
  values.assign(clusterReduce.getResults().begin(),
                clusterReduce.getResults().end());
  if (plan.splits > 1)
    return emitGridReduce(stage, state, values, combiners,
                          bufferOffset(plan.stageWidth));
  return values;
}

SmallVector<Value> KernelEmitter::emitGridReduce(unsigned stage,
                                                 RowState &state,
                                                 ValueRange values,
                                                 ArrayAttr combiners,
                                                 Value scratchOffset) {
  // The row's slot for this stage: after the earlier stages' slots, each
  // `splits` times its values wide.
  int64_t stageOffset = 0;
  for (unsigned earlier = 0; earlier < stage; ++earlier)
    stageOffset += plan.splits * op.getStageCombiners(earlier).size();
  Value entry = add(mul(state.row, index(plan.splitPartialFloatsPerRow)),
                    index(stageOffset));
  Value publish =
      plan.cluster > 1
          ? cmp(arith::CmpIPredicate::eq, rank, index(0))
          : Value(arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  bool last = stage + 1 == plan.numStages;
  auto gridReduce = GridReduceOp::create(
      b, loc, values.getTypes(), values, pointers.splitPartials, entry,
      pointers.splitCounters, state.row, split, publish, gridScratch, scratchOffset,
      combiners, b.getI32IntegerAttr(plan.splits),
      b.getI64IntegerAttr(int64_t(stage + 1) * plan.splits),
      b.getI32IntegerAttr(last ? plan.ctasPerRow : 0));
  return SmallVector<Value>(gridReduce.getResults());
}
