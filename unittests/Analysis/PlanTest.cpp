//===- PlanTest.cpp - plan, target and profile arithmetic -----------------===//
//
// Part of the CREDIT project.
//
// The numbers a KernelPlan states, against cases worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "Credit/Analysis/CostModel.h"
#include "Credit/Analysis/Plan.h"
#include "Credit/Analysis/Profile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseSet.h"

#include <gtest/gtest.h>
#include <set>

using namespace mlir;
using namespace mlir::credit;

namespace {

/// softmax over N = 4096 f32 rows: two stages of one value each.
constexpr const char *kSoftmax = R"mlir(
func.func @f(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [add] (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %s : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x4096xf32>
}
)mlir";

/// softmax merged into one online stage (credit-online-softmax's form):
/// max and its sum of exponentials, N = 4096 f32.
constexpr const char *kOnlineSoftmax = R"mlir(
func.func @f(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
    reduce [max, addexp] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one : f32, f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %s : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x4096xf32>
}
)mlir";

/// Two bf16 inputs of N = 65536: stage 0 reads x and y, stage 1 reads x
/// only, the epilogue reads y only; a broadcast w read by the epilogue.
constexpr const char *kTwoInputs = R"mlir(
func.func @f(%x: tensor<?x65536xbf16>, %y: tensor<?x65536xbf16>, %w: tensor<65536xbf16>,
             %o: tensor<?x65536xbf16>) -> tensor<?x65536xbf16> {
  %r = credit.rowwise ins(%x, %y : tensor<?x65536xbf16>, tensor<?x65536xbf16>)
      bcast(%w : tensor<65536xbf16>) outs(%o : tensor<?x65536xbf16>)
    reduce [add, add] (%j: index, %a: f32, %b: f32, %c: f32) {
      credit.yield %a, %b : f32, f32
    }
    reduce [max] (%j: index, %a: f32, %b: f32, %c: f32, %s: f32, %t: f32) {
      credit.yield %a : f32
    }
    epilogue (%j: index, %a: f32, %b: f32, %c: f32, %s: f32, %t: f32, %m: f32) {
      %p = arith.mulf %b, %c : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x65536xbf16>
}
)mlir";

/// Layer norm's statistics in one stage (credit-online-variance's form):
/// f32 x of N = 65536, sum, count and squared deviations; an epilogue.
constexpr const char *kMoments = R"mlir(
func.func @f(%x: tensor<?x65536xf32>, %o: tensor<?x65536xf32>) -> tensor<?x65536xf32> {
  %r = credit.rowwise ins(%x : tensor<?x65536xf32>) outs(%o : tensor<?x65536xf32>)
    reduce [add, add, sqdev] (%j: index, %a: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %a, %one, %a : f32, f32, f32
    }
    epilogue (%j: index, %a: f32, %s: f32, %n: f32, %q: f32) {
      %d = arith.subf %a, %s : f32
      %p = arith.mulf %d, %q : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x65536xf32>
}
)mlir";

class PlanTest : public ::testing::Test {
protected:
  PlanTest() {
    context.loadDialect<CreditDialect, func::FuncDialect, arith::ArithDialect,
                        math::MathDialect>();
    target = *getTargetInfo("sm_90");
  }

  RowwiseOp parse(const char *text) {
    module = parseSourceString<ModuleOp>(text, &context);
    RowwiseOp op;
    module->walk([&](RowwiseOp found) { op = found; });
    return op;
  }

  TilingAttr tiling(unsigned cluster, unsigned threads, unsigned vector,
                    unsigned elems, Staging staging = Staging::Registers,
                    unsigned rows = 1, unsigned splits = 1,
                    Exchange exchange = Exchange::Async) {
    return TilingAttr::get(&context, cluster, threads, vector, elems, rows,
                           staging, splits, exchange);
  }

  /// kProfile (below), with `target` refined by it (resident clusters).
  ChipProfile refinedTestProfile();

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  TargetInfo target;
};

TEST_F(PlanTest, RegistersOnAClusterOfFour) {
  RowwiseOp op = parse(kSoftmax);
  ASSERT_TRUE(op);
  std::optional<KernelPlan> plan =
      buildPlan(op, tiling(4, 256, 4, 4), target);
  ASSERT_TRUE(plan);
  // 256 threads x 4 elements = 1024 per CTA, 4 CTAs cover 4096.
  EXPECT_EQ(plan->slice, 1024);
  EXPECT_EQ(plan->sweeps, 1);
  EXPECT_EQ(plan->chunks, 1);
  EXPECT_EQ(plan->warps, 8);
  // Scratch: 2 buffers x 2 stages x (8 warps | 4 CTAs) x 1 value.
  EXPECT_EQ(plan->blockScratchFloats, 32);
  EXPECT_EQ(plan->clusterScratchFloats, 16);
  // The asynchronous exchange's mbarriers: one per buffer and stage, 8 bytes.
  EXPECT_EQ(plan->clusterBarriers, 4);
  EXPECT_EQ(plan->staticSharedBytes, 4 * (32 + 16) + 8 * 4);
  EXPECT_EQ(plan->dynamicSharedBytes, 0);
  // Each row: 4096 f32 read and written once; each stage pushes one f32
  // from each of 4 CTAs to each of 4.
  EXPECT_EQ(plan->compulsoryBytesPerRow, 4096 * 8);
  EXPECT_EQ(plan->rereadBytesPerRow, 0);
  EXPECT_EQ(plan->dsmemBytesPerRow, 2 * 4 * 4 * 4);
  EXPECT_EQ(plan->exchangeRounds, 2);
  EXPECT_EQ(plan->blockRounds, 2);
  EXPECT_EQ(plan->dramRounds, 1);
  EXPECT_EQ(plan->rereadRounds, 0);
  // One 16-byte load and one store per 4 elements.
  EXPECT_DOUBLE_EQ(plan->globalAccessesPerElement, 2.0 / 4);
  EXPECT_EQ(plan->stagedValues, 4);
  // exp(v - m) of stage 1 is used again by the epilogue.
  EXPECT_EQ(plan->carriedValues, 1);
  EXPECT_EQ(plan->grid, GridPolicy::OneWave);
  // Per element: max 1; sub 1 + exp 4 + add 1; sub 1 + exp 4 + div 10;
  // one load and one store conversion.
  EXPECT_DOUBLE_EQ(plan->opsPerElement, 1 + 6 + 15 + 2);
}

TEST_F(PlanTest, OccupancyFromThreadsRegistersAndSharedMemory) {
  RowwiseOp op = parse(kSoftmax);
  ASSERT_TRUE(op);
  // 1024 threads: two CTAs by threads, registers allowing.
  std::optional<KernelPlan> wide =
      buildPlan(op, tiling(1, 1024, 4, 4), target);
  ASSERT_TRUE(wide);
  EXPECT_LE(wide->estimatedRegisters, 32);
  EXPECT_EQ(wide->ctasPerSM, 2);
  EXPECT_EQ(wide->occupancyLimit, OccupancyLimit::Threads);
  EXPECT_DOUBLE_EQ(wide->occupancy, 1.0);
  EXPECT_EQ(wide->grid, GridPolicy::RowGroupPerCluster);
  EXPECT_EQ(wide->coResidentClusters, 132 * 2);

  // 64 threads with 64 elements each: registers decide. Whatever the
  // estimate, the count follows from it: the SM holds 65536 / (regs rounded
  // to 8 * 32) warps, rounded down to a multiple of 4, two warps a CTA.
  std::optional<KernelPlan> deep = buildPlan(op, tiling(1, 64, 4, 64), target);
  ASSERT_TRUE(deep);
  int64_t allocated = (deep->estimatedRegisters + 7) / 8 * 8;
  int64_t warps = 65536 / (allocated * 32) / 4 * 4;
  EXPECT_EQ(deep->ctasPerSM, std::min<int64_t>(32, warps / 2));

  // 800 threads are 25 warps: two CTAs need the registers of 52 warps, so
  // at most 65536 / (52 * 32) = 39.4, rounded down to 32 registers a
  // thread (at 40, the GPU holds only one: 51 warps' worth).
  std::optional<KernelPlan> odd =
      buildPlan(op, tiling(1, 800, 4, 4, Staging::Reread), target);
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd->ctasPerSM, 2);
  EXPECT_EQ(odd->registerBudget, 32);
  EXPECT_TRUE(odd->enforceRegisterBudget);
}

TEST_F(PlanTest, SharedStagingAndRereads) {
  RowwiseOp op = parse(kTwoInputs);
  ASSERT_TRUE(op);
  // Shared: 2 CTAs of 1024 threads x 16 elements sweep 32768-element
  // slices twice; two bf16 slices of 64 KB each.
  std::optional<KernelPlan> shared =
      buildPlan(op, tiling(2, 1024, 8, 16, Staging::Shared), target);
  ASSERT_TRUE(shared);
  EXPECT_EQ(shared->slice, 32768);
  EXPECT_EQ(shared->sweeps, 2);
  EXPECT_EQ(shared->dramRounds, 2);
  // The stage is written once (x, y) and read by stage 1 (x) and the
  // epilogue (y): 2 + 2 vectors of 8 per element.
  EXPECT_DOUBLE_EQ(shared->sharedAccessesPerElement, 4.0 / 8);
  EXPECT_EQ(shared->sharedBytesPerRow, 65536 * (4 + 4));
  EXPECT_TRUE(shared->enforceRegisterBudget);
  EXPECT_EQ(shared->dynamicSharedBytes, 2 * 32768 * 2);
  EXPECT_EQ(shared->stagedInputOffsets, (SmallVector<int64_t>{0, 65536}));
  // A sweep of x and y in flight: 1024 threads x 16 elements x 2 x 2 bytes.
  EXPECT_EQ(shared->bytesInFlightPerCta, 1024 * 16 * 4);

  // Async: the same stage filled by copies of the whole slice, all in
  // flight in one round; every stage, the first too, reads it back:
  // written once (x, y), read by stage 0 (x, y), stage 1 (x) and the
  // epilogue (y): 2 + 2 + 2 vectors of 8 per element.
  std::optional<KernelPlan> async =
      buildPlan(op, tiling(2, 1024, 8, 16, Staging::Async), target);
  ASSERT_TRUE(async);
  EXPECT_EQ(async->dramRounds, 1);
  EXPECT_EQ(async->bytesInFlightPerCta, 32768 * 4);
  EXPECT_DOUBLE_EQ(async->sharedAccessesPerElement, 6.0 / 8);
  EXPECT_EQ(async->sharedBytesPerRow, 65536 * (4 + 4 + 4));
  EXPECT_EQ(async->dynamicSharedBytes, shared->dynamicSharedBytes);
  // It copies whole 4-, 8- or 16-byte vectors: not 2 bytes of bf16.
  std::string why;
  EXPECT_FALSE(
      buildPlan(op, tiling(2, 1024, 1, 16, Staging::Async), target, &why));
  EXPECT_NE(why.find("async staging copies 4, 8 or 16 bytes"),
            std::string::npos)
      << why;
  // Stages of 2 and 1 values, width 2: 2 x 2 x (32 warps, 2 CTAs) x 2.
  EXPECT_EQ(shared->blockScratchFloats, 2 * 2 * 32 * 2);
  EXPECT_EQ(shared->clusterScratchFloats, 2 * 2 * 2 * 2);
  EXPECT_EQ(shared->ctasPerSM, 1);
  EXPECT_EQ(shared->occupancyLimit, OccupancyLimit::SharedMemory);
  // The broadcast is read per row where the epilogue uses it.
  EXPECT_EQ(shared->broadcastBytesPerRow, 65536 * 2);
  EXPECT_EQ(shared->compulsoryBytesPerRow, 65536 * 2 * 3);
  // DSMEM: (2 + 1) values, 2 x 2 CTA pairs, 4 bytes.
  EXPECT_EQ(shared->dsmemBytesPerRow, 3 * 2 * 2 * 4);

  // Rereads: stage 0 reads x and y, stage 1 x, the epilogue y: four row
  // reads of which two are compulsory; three rounds of sweeps.
  std::optional<KernelPlan> reread =
      buildPlan(op, tiling(2, 1024, 8, 16, Staging::Reread), target);
  ASSERT_TRUE(reread);
  EXPECT_EQ(reread->rereadBytesPerRow, 2 * 65536 * 2);
  EXPECT_EQ(reread->dramRounds, 2);
  EXPECT_EQ(reread->rereadRounds, 2 * 2);
  EXPECT_EQ(reread->dynamicSharedBytes, 0);

  // Registers hold the broadcast too; nothing is read per row but the row.
  std::optional<KernelPlan> registers =
      buildPlan(op, tiling(16, 512, 8, 8), target);
  ASSERT_TRUE(registers);
  EXPECT_EQ(registers->broadcastBytesPerRow, 0);
  EXPECT_EQ(registers->stagedValues, 8 * 3);
}

TEST_F(PlanTest, TheEpiloguePipelinesItsBroadcastLoads) {
  RowwiseOp op = parse(kTwoInputs);
  ASSERT_TRUE(op);
  // The epilogue uses broadcast w (argument 1 + 2 inputs), not y's
  // rereads: over two sweeps, the next sweep's 16 bf16 of w, 8 registers,
  // whatever the staging.
  for (Staging staging : {Staging::Shared, Staging::Reread, Staging::Async}) {
    std::optional<KernelPlan> plan =
        buildPlan(op, tiling(2, 1024, 8, 16, staging), target);
    ASSERT_TRUE(plan);
    EXPECT_EQ(getPrefetchedArgs(op, *plan), (SmallVector<unsigned>{3}));
    EXPECT_EQ(plan->prefetchRegisters, 16 * 2 / 4);
  }
  // One sweep (8 CTAs), nothing to load ahead of.
  std::optional<KernelPlan> oneSweep =
      buildPlan(op, tiling(8, 1024, 8, 8, Staging::Shared), target);
  ASSERT_TRUE(oneSweep);
  EXPECT_EQ(oneSweep->sweeps, 1);
  EXPECT_EQ(oneSweep->prefetchRegisters, 0);
  // Four sweeps of 8 elements: 8 bf16 ahead, 4 registers.
  std::optional<KernelPlan> fourSweeps =
      buildPlan(op, tiling(2, 1024, 8, 8, Staging::Shared), target);
  ASSERT_TRUE(fourSweeps);
  EXPECT_EQ(fourSweeps->sweeps, 4);
  EXPECT_EQ(fourSweeps->prefetchRegisters, 8 * 2 / 4);
  // Registers staging keeps the broadcast (one sweep): nothing ahead.
  std::optional<KernelPlan> registers =
      buildPlan(op, tiling(16, 512, 8, 8), target);
  ASSERT_TRUE(registers);
  EXPECT_TRUE(getPrefetchedArgs(op, *registers).empty());
  EXPECT_EQ(registers->prefetchRegisters, 0);
}

/// softmax_logits_bwd's online form, bf16 N = 65536: the maximum and two
/// sums of exponentials of l, one weighted by dy.
constexpr const char *kSoftmaxBwd = R"mlir(
func.func @f(%l: tensor<?x65536xbf16>, %dy: tensor<?x65536xbf16>,
             %o: tensor<?x65536xbf16>) -> tensor<?x65536xbf16> {
  %r = credit.rowwise ins(%l, %dy : tensor<?x65536xbf16>, tensor<?x65536xbf16>)
      outs(%o : tensor<?x65536xbf16>)
    reduce [max, addexp, addexp] (%j: index, %a: f32, %b: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %a, %one, %b : f32, f32, f32
    }
    epilogue (%j: index, %a: f32, %b: f32, %m: f32, %s: f32, %t: f32) {
      %d = arith.subf %a, %m : f32
      %e = math.exp %d : f32
      %u = arith.subf %b, %t : f32
      %y = arith.mulf %e, %u : f32
      credit.yield %y : f32
    }
  return %r : tensor<?x65536xbf16>
}
)mlir";

TEST_F(PlanTest, SweepsPairUpInTheLoop) {
  RowwiseOp op = parse(kTwoInputs);
  ASSERT_TRUE(op);
  auto expectSweeps = [&](RowwiseOp of, TilingAttr t, int64_t sweeps,
                          int64_t perIteration) {
    std::optional<KernelPlan> plan = buildPlan(of, t, target);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->sweeps, sweeps);
    EXPECT_EQ(plan->sweepsPerIteration, perIteration);
  };
  // 2 and 4 sweeps of a 32768-element slice: two per iteration.
  for (unsigned elems : {16u, 8u})
    expectSweeps(op, tiling(2, 1024, 8, elems, Staging::Shared),
                 32768 / (1024 * elems), 2);
  // Split rows keep one: 2 x 2 clusters of 1024 threads x 8 elements take
  // 2 sweeps of their 16384-element slices.
  expectSweeps(op, tiling(2, 1024, 8, 8, Staging::Shared, 1, 2), 2, 1);
  // Three sweeps (32768 over 512 x 24): one, as ptxas would hold all three
  // at once.
  expectSweeps(op, tiling(2, 512, 8, 24, Staging::Shared), 3, 1);
  // One sweep (registers staging): one.
  expectSweeps(op, tiling(16, 512, 8, 8), 1, 1);
  // 4096 over 96 threads x 4 elements: ceil(4096 / 384) = 11 sweeps, odd,
  // also two per iteration (the eleventh after the loop). (Parsing replaces
  // the module that holds `op`.)
  RowwiseOp softmax = parse(kSoftmax);
  ASSERT_TRUE(softmax);
  expectSweeps(softmax, tiling(1, 96, 4, 4, Staging::Reread), 11, 2);
}

TEST_F(PlanTest, ChunksPastTheRowsEndAreCounted) {
  RowwiseOp op = parse(kSoftmax);
  ASSERT_TRUE(op);
  auto expectMasked = [&](TilingAttr t, int64_t masked, bool integer) {
    std::optional<KernelPlan> plan = buildPlan(op, t, target);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->maskedChunks, masked);
    EXPECT_EQ(plan->integerMasks, integer);
  };
  // 4 CTAs of 1024 cover N = 4096 exactly: nothing is masked.
  expectMasked(tiling(4, 256, 4, 4), 0, false);
  // 3 x 1536: the last CTA has 1024 of its 6 chunks of 256; the first 4
  // are full for every thread.
  expectMasked(tiling(3, 64, 4, 24), 2, false);
  // 3 x 1792: 512 left for 14 chunks of 128, 4 full, 10 masked, more than
  // a thread keeps predicates for: integer masks.
  expectMasked(tiling(3, 32, 4, 56), 10, true);
  // 3 x 1408 (11 chunks of 128): 1280 left, 10 full, 1 masked.
  expectMasked(tiling(3, 32, 4, 44), 1, false);
  // Shared staging, 2 sweeps of 1024 per 2048-element slice of 3 CTAs:
  // the last CTA's last sweep lies wholly past the end (4096 - 2 x 2048 -
  // 1024 < 0), all 8 chunks masked; its masks stay branches and selects.
  expectMasked(tiling(3, 32, 4, 32, Staging::Shared), 8, false);
}

TEST_F(PlanTest, MixedStagingKeepsTheLastInputInRegisters) {
  RowwiseOp op = parse(kTwoInputs);
  ASSERT_TRUE(op);
  // 8 CTAs of 256 threads, 32 elements each: one sweep of 8192. x (input
  // 0) in shared memory, 8192 bf16; y in registers, 32 per thread packed.
  std::optional<KernelPlan> plan =
      buildPlan(op, tiling(8, 256, 8, 32, Staging::Mixed), target);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->sweeps, 1);
  EXPECT_FALSE(plan->isInputInRegisters(0));
  EXPECT_TRUE(plan->isInputCopiedAsync(0));
  EXPECT_TRUE(plan->isInputInRegisters(1));
  EXPECT_FALSE(plan->isInputCopiedAsync(1));
  EXPECT_EQ(plan->stagedInputOffsets, (SmallVector<int64_t>{0}));
  EXPECT_EQ(plan->dynamicSharedBytes, 8192 * 2);
  EXPECT_EQ(plan->stagedValues, 32);
  EXPECT_TRUE(plan->packedRegisters);
  EXPECT_FALSE(plan->recomputeExponentials);
  EXPECT_EQ(plan->dramRounds, 1);
  EXPECT_EQ(plan->bytesInFlightPerCta, 256 * 32 * (2 + 2));
  // x: copied in and read back (2), read again by the second stage (1);
  // the epilogue reads y from registers and w from global memory.
  EXPECT_DOUBLE_EQ(plan->sharedAccessesPerElement, 3.0 / 8);
  EXPECT_EQ(plan->sharedBytesPerRow, 65536 * (2 * 2 + 2));
  EXPECT_TRUE(plan->enforceRegisterBudget);

  // An online stage: its second pass computes l's exponentials again, so
  // it reads the stage once more and its arithmetic counts twice.
  RowwiseOp online = parse(kSoftmaxBwd);
  ASSERT_TRUE(online);
  std::optional<KernelPlan> mixed =
      buildPlan(online, tiling(4, 256, 8, 64, Staging::Mixed), target);
  std::optional<KernelPlan> async =
      buildPlan(online, tiling(4, 256, 8, 64, Staging::Async), target);
  ASSERT_TRUE(mixed && async);
  EXPECT_TRUE(mixed->recomputeExponentials);
  EXPECT_TRUE(mixed->packedRegisters);
  EXPECT_FALSE(async->recomputeExponentials);
  // l and dy widened again.
  EXPECT_EQ(mixed->opsPerElement, async->opsPerElement + 2);
  // Copied in and read back, read again by the second pass and by the
  // epilogue.
  EXPECT_DOUBLE_EQ(mixed->sharedAccessesPerElement, 4.0 / 8);
  EXPECT_EQ(mixed->dynamicSharedBytes, 16384 * 2);

  // One row input: nothing to stage beside the register input.
  RowwiseOp softmax = parse(kSoftmax);
  ASSERT_TRUE(softmax);
  std::string why;
  EXPECT_FALSE(
      buildPlan(softmax, tiling(1, 1024, 4, 4, Staging::Mixed), target, &why));
  EXPECT_EQ(why, "mixed staging keeps the last row input in registers and "
                 "the others in shared memory, but the op has one row input");
}

TEST_F(PlanTest, SquaredDeviationsPassOverTheStagedSlice) {
  RowwiseOp op = parse(kMoments);
  ASSERT_TRUE(op);
  // Shared: the stage writes x (one vector of 4 per element), reads it
  // again for the deviations, and the epilogue reads it: 3 / 4.
  std::optional<KernelPlan> shared =
      buildPlan(op, tiling(4, 1024, 4, 16, Staging::Shared), target);
  ASSERT_TRUE(shared);
  EXPECT_DOUBLE_EQ(shared->sharedAccessesPerElement, 3.0 / 4);
  EXPECT_EQ(shared->sharedBytesPerRow, 65536 * (4 + 4 + 4));
  // One stage of three values: one exchange of 3 floats per CTA pair.
  EXPECT_EQ(shared->exchangeRounds, 1);
  EXPECT_EQ(shared->dsmemBytesPerRow, 3 * 4 * 4 * 4);
  // Reread: the deviations merge per sweep, no second read of the row;
  // the epilogue rereads it once (one sweep of 16384 per CTA).
  std::optional<KernelPlan> reread =
      buildPlan(op, tiling(4, 1024, 4, 16, Staging::Reread), target);
  ASSERT_TRUE(reread);
  EXPECT_EQ(reread->rereadBytesPerRow, 65536 * 4);
  EXPECT_EQ(reread->rereadRounds, 1);
}

TEST_F(PlanTest, IllegalTilingsSayWhy) {
  RowwiseOp op = parse(kTwoInputs);
  ASSERT_TRUE(op);
  std::string why;
  EXPECT_FALSE(buildPlan(op, tiling(1, 1024, 8, 16, Staging::Shared), target,
                         &why));
  EXPECT_NE(why.find("bytes of shared memory per CTA"), std::string::npos)
      << why;
  EXPECT_FALSE(buildPlan(op, tiling(1, 32, 8, 2048), target, &why));
  EXPECT_NE(why.find("vector accesses per sweep"), std::string::npos) << why;
  TargetInfo consumer = *getTargetInfo("sm_120");
  EXPECT_FALSE(buildPlan(op, tiling(16, 512, 8, 8), consumer, &why));
  EXPECT_NE(why.find("larger than sm_120 supports (8)"), std::string::npos)
      << why;
}

TEST(TargetTest, ChipsAndClusterResidency) {
  EXPECT_FALSE(getTargetInfo("sm_80"));
  EXPECT_FALSE(getTargetInfo("gfx90a"));
  EXPECT_EQ(parseComputeCapability("sm_90a"), 90u);
  EXPECT_EQ(parseComputeCapability("sm_100f"), 100u);
  TargetInfo hopper = *getTargetInfo("sm_90a");
  EXPECT_EQ(hopper.numSMs, 132);
  EXPECT_EQ(hopper.maxSharedMemoryPerCta, 227 * 1024);
  // Without a measured table the SMs are one pool.
  EXPECT_EQ(hopper.getMaxActiveClusters(16, 1), 8);
  EXPECT_EQ(hopper.getMaxActiveClusters(2, 8), 528);
  // A measured table wins, and its last entry serves larger counts.
  hopper.measuredActiveClusters[16] = {7, 15};
  EXPECT_EQ(hopper.getMaxActiveClusters(16, 1), 7);
  EXPECT_EQ(hopper.getMaxActiveClusters(16, 4), 15);
}

constexpr const char *kProfile = R"json({
  "device": "test", "chip": "sm_90", "calibrated": false, "sms": 100,
  "clock_ghz": 1.0, "dram_gbs": 1000, "dram_latency_us": 1.0,
  "sm_gbs": 50, "l2_gbs": 3000, "l2_latency_us": 0.2, "l2_bytes": 1000000,
  "shared_bytes_per_cycle": 128, "access_ops": 4, "narrow_access_ops": 0,
  "l1_bytes": 262144,
  "thread_ops_per_us": 1000, "spill_cost": 0.5,
  "l1_latency_us": 0.03,
  "block_reduce_us": 0.1, "block_reduce_per_warp_us": 0.01,
  "cluster_exchange_us": {"2": 1.0, "8": 2.0},
  "launch_us": 2.0, "cta_launch_us": 0.5, "ops_per_us_per_sm": 1000,
  "overlap": 2.0})json";

ChipProfile PlanTest::refinedTestProfile() {
  std::string error;
  std::optional<ChipProfile> profile = parseProfile(kProfile, "test", error);
  EXPECT_TRUE(profile) << error;
  refineTarget(target, *profile);
  return *profile;
}

TEST(ProfileTest, ParsesAndInterpolates) {
  std::string error;
  std::optional<ChipProfile> profile = parseProfile(kProfile, "test", error);
  ASSERT_TRUE(profile) << error;
  EXPECT_EQ(profile->numSMs, 100);
  EXPECT_DOUBLE_EQ(profile->getClusterExchangeUs(1), 0);
  EXPECT_DOUBLE_EQ(profile->getClusterExchangeUs(2), 1.0);
  EXPECT_DOUBLE_EQ(profile->getClusterExchangeUs(4), 1.0 + 2.0 / 6.0);
  EXPECT_DOUBLE_EQ(profile->getClusterExchangeUs(16), 2.0);
  // Without a measured asynchronous exchange it costs the barrier one.
  EXPECT_DOUBLE_EQ(profile->getClusterExchangeUs(4, Exchange::Async),
                   1.0 + 2.0 / 6.0);
  std::string text = kProfile;
  text.replace(text.find("\"launch_us\""), 0,
               "\"async_exchange_us\": {\"2\": 0.25, \"16\": 0.5}, ");
  profile = parseProfile(text, "test", error);
  ASSERT_TRUE(profile) << error;
  EXPECT_DOUBLE_EQ(profile->getClusterExchangeUs(2, Exchange::Async), 0.25);
  EXPECT_DOUBLE_EQ(profile->getClusterExchangeUs(9, Exchange::Async),
                   0.25 + 0.25 * 7 / 14);
  EXPECT_DOUBLE_EQ(profile->getClusterExchangeUs(2, Exchange::Barrier), 1.0);
  EXPECT_DOUBLE_EQ(profile->getClusterExchangeUs(1, Exchange::Async), 0);
}

TEST(ProfileTest, RejectsBrokenProfiles) {
  std::string error;
  EXPECT_FALSE(parseProfile("{", "p", error));
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
  std::string text = kProfile;
  std::string noDram = text;
  noDram.replace(noDram.find("\"dram_gbs\": 1000,"), 17, "");
  EXPECT_FALSE(parseProfile(noDram, "p", error));
  EXPECT_NE(error.find("missing 'dram_gbs'"), std::string::npos) << error;
  std::string badOverlap = text;
  badOverlap.replace(badOverlap.find("\"overlap\": 2.0"), 14,
                     "\"overlap\": 0.5");
  EXPECT_FALSE(parseProfile(badOverlap, "p", error));
  EXPECT_NE(error.find("'overlap' must be at least 1"), std::string::npos)
      << error;
  std::string tinyDram = text;
  tinyDram.replace(tinyDram.find("\"dram_gbs\": 1000,"), 17,
                   "\"dram_gbs\": 1e-300,");
  EXPECT_FALSE(parseProfile(tinyDram, "p", error));
  EXPECT_NE(error.find("'dram_gbs' must be from 1e-09 to 1e+15, got 1.00e-300"),
            std::string::npos)
      << error;
  std::string badKey = text;
  badKey.replace(badKey.find("{\"2\": 1.0"), 9, "{\"3\": 1.0");
  EXPECT_FALSE(parseProfile(badKey, "p", error));
  EXPECT_NE(error.find("keys must be cluster sizes"), std::string::npos)
      << error;
  // Optional entries, present and broken.
  struct {
    const char *entry, *message;
  } brokenEntries[] = {
      {"\"row_group_launch\": {\"min_share\": 0, \"min_ctas_per_sm\": 2}, ",
       "'row_group_launch': 'min_share' must be a positive integer"},
      {"\"row_group_launch\": 6, ", "'row_group_launch' must be an object"},
      {"\"async_exchange_us\": {\"2\": -1}, ",
       "'async_exchange_us' values must be 0 or numbers from 1e-09 to 1e+15"},
      // Numbers the model's sums and quotients would overflow with.
      {"\"async_exchange_us\": {\"2\": 1e300}, ",
       "'async_exchange_us' values must be 0 or numbers from 1e-09 to 1e+15"},
      {"\"grid_exchange_us\": 1e300, ",
       "'grid_exchange_us' must be 0 or from 1e-09 to 1e+15, got 1.00e+300"},
      {"\"grid_exchange_per_cluster_us\": 1e-300, ",
       "'grid_exchange_per_cluster_us' must be 0 or from 1e-09 to 1e+15"},
      {"\"row_group_launch\": {\"min_share\": 1099511627777, "
       "\"min_ctas_per_sm\": 2}, ",
       "'min_share' must be a positive integer of at most 1099511627776"},
  };
  for (const auto &broken : brokenEntries) {
    std::string withEntry = text;
    withEntry.replace(withEntry.find("\"launch_us\""), 0, broken.entry);
    EXPECT_FALSE(parseProfile(withEntry, "p", error)) << broken.entry;
    EXPECT_NE(error.find(broken.message), std::string::npos) << error;
  }
  // Every chip CREDIT targets has a built-in profile.
  for (const char *chip : {"sm_90", "sm_90a", "sm_100", "sm_120"})
    EXPECT_TRUE(getBuiltinProfile(chip, error)) << chip << ": " << error;
  EXPECT_FALSE(loadProfile("sm_100", "", error) &&
               loadProfile("sm_100", "", error)->chip != "sm_100");
}

TEST_F(PlanTest, WavesFollowTheGridRule) {
  RowwiseOp op = parse(kSoftmax);
  ASSERT_TRUE(op);
  ChipProfile profile = refinedTestProfile();
  // One wave of 16-CTA clusters: 100 SMs hold 6 clusters at 1 CTA per SM
  // (the pool rule: 100 * ctasPerSM / 16).
  std::optional<KernelPlan> plan =
      buildPlan(op, tiling(16, 256, 4, 1), target);
  ASSERT_TRUE(plan);
  int64_t resident = plan->coResidentClusters;
  EXPECT_EQ(resident, 100 * plan->ctasPerSM / 16);
  Prediction few = predict(*plan, 3, profile);
  EXPECT_EQ(few.activeClusters, 3);
  EXPECT_EQ(few.waves, 1);
  Prediction many = predict(*plan, 10 * resident + 1, profile);
  EXPECT_EQ(many.activeClusters, resident);
  EXPECT_EQ(many.waves, 11);
  EXPECT_GT(many.micros, few.micros);
  EXPECT_DOUBLE_EQ(predict(*plan, 0, profile).micros, 0);
}

TEST_F(PlanTest, ClustersStackWithinGpcs) {
  RowwiseOp op = parse(kSoftmax);
  ASSERT_TRUE(op);
  ChipProfile pool = refinedTestProfile();
  std::optional<KernelPlan> plan = buildPlan(op, tiling(16, 256, 4, 1), target);
  ASSERT_TRUE(plan);
  ASSERT_GE(plan->ctasPerSM, 2);
  // The pool rule fits 6 clusters of 16 on 100 SMs at one CTA each: 6 rows
  // take one CTA on the busiest SM.
  Prediction even = predict(*plan, 6, pool);
  EXPECT_EQ(even.busiestSMCtas, 1);
  EXPECT_FALSE(even.stacked);
  // Measured, only 5 fit at one CTA per SM (GPCs of unequal size) and 12 at
  // two: the 6th cluster stacks, and some SM holds two CTAs.
  ChipProfile gpcs = pool;
  gpcs.activeClusters[16] = {5, 12};
  Prediction five = predict(*plan, 5, gpcs);
  EXPECT_EQ(five.busiestSMCtas, 1);
  EXPECT_FALSE(five.stacked);
  Prediction six = predict(*plan, 6, gpcs);
  EXPECT_EQ(six.activeClusters, 6);
  EXPECT_EQ(six.busiestSMCtas, 2);
  EXPECT_TRUE(six.stacked);
  EXPECT_GT(six.micros, even.micros);
  std::string why = describePrediction(*plan, six);
  EXPECT_NE(why.find("stacked in GPCs to 2 CTAs on the busiest SM"),
            std::string::npos)
      << why;
  EXPECT_EQ(describePrediction(*plan, even).find("stacked"), std::string::npos);
  // Never past the CTAs an SM can hold, whatever the table says.
  gpcs.activeClusters[16] = {0};
  EXPECT_EQ(predict(*plan, 6, gpcs).busiestSMCtas, plan->ctasPerSM);
}

TEST_F(PlanTest, ManyRowGroupsPerClusterLaunchOnePerGroup) {
  RowwiseOp op = parse(kSoftmax);
  ASSERT_TRUE(op);
  ChipProfile profile = refinedTestProfile();
  std::optional<KernelPlan> plan = buildPlan(op, tiling(16, 256, 4, 1), target);
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->grid, GridPolicy::OneWave);
  int64_t resident = plan->coResidentGroups;
  ASSERT_GT(resident, 1);
  // Without the profile's rule a cluster kernel always takes one wave.
  EXPECT_EQ(getRowGroupLaunchShare(*plan, profile), 0);
  EXPECT_EQ(getLaunchGrid(*plan, 100 * resident, profile), GridPolicy::OneWave);

  profile.rowGroupLaunchShare = 6;
  profile.rowGroupLaunchCtasPerSM = plan->ctasPerSM;
  EXPECT_EQ(getRowGroupLaunchShare(*plan, profile), 6);
  // 5 row groups per resident cluster: one wave, each cluster looping over
  // 5; 5 and a bit: a cluster per row group, 5.x waves rather than 6.
  int64_t below = 5 * resident, above = 5 * resident + 1;
  EXPECT_EQ(getLaunchGrid(*plan, below, profile), GridPolicy::OneWave);
  EXPECT_EQ(getLaunchGrid(*plan, above, profile),
            GridPolicy::RowGroupPerCluster);
  Prediction looped = predict(*plan, below, profile);
  EXPECT_EQ(looped.grid, GridPolicy::OneWave);
  EXPECT_EQ(looped.waves, 5);
  Prediction grouped = predict(*plan, above, profile);
  EXPECT_EQ(grouped.grid, GridPolicy::RowGroupPerCluster);
  EXPECT_EQ(grouped.waves, 6);
  // Launched as it finishes, the extra row group costs a fraction of a
  // wave (and a CTA start per group), not a whole one.
  ChipProfile oneWave = profile;
  oneWave.rowGroupLaunchShare = 0;
  Prediction padded = predict(*plan, above, oneWave);
  EXPECT_EQ(padded.grid, GridPolicy::OneWave);
  EXPECT_LT(grouped.micros, padded.micros);
  std::string why = describePrediction(*plan, grouped);
  EXPECT_NE(why.find("launched as a cluster per row group"), std::string::npos)
      << why;
  EXPECT_EQ(describePrediction(*plan, looped).find("row group"),
            std::string::npos);

  // Fewer CTAs per SM than the rule asks: always one wave.
  profile.rowGroupLaunchCtasPerSM = plan->ctasPerSM + 1;
  EXPECT_EQ(getRowGroupLaunchShare(*plan, profile), 0);
  EXPECT_EQ(getLaunchGrid(*plan, 100 * resident, profile), GridPolicy::OneWave);
  // One-CTA kernels already take a cluster per row group.
  profile.rowGroupLaunchCtasPerSM = 1;
  std::optional<KernelPlan> single =
      buildPlan(op, tiling(1, 256, 4, 16), target);
  ASSERT_TRUE(single);
  EXPECT_EQ(single->grid, GridPolicy::RowGroupPerCluster);
  EXPECT_EQ(getRowGroupLaunchShare(*single, profile), 0);
}

TEST_F(PlanTest, TheDramIsSharedByTheCtasThatWork) {
  RowwiseOp op = parse(kTwoInputs);
  ASSERT_TRUE(op);
  ChipProfile profile = refinedTestProfile();
  // Clusters of 16 CTAs of 640 threads sweeping their slice through
  // shared memory: 2 or 3 CTAs per SM (k), and the pool rule fits
  // 100 * k / 16 clusters, which leave some of the 100 * k slots empty.
  // Every SM moves at most 50 GB/s and keeps 2 * 20480k bytes in flight
  // per microsecond, so the 1000 GB/s DRAM bounds each wave: it moves what
  // the working CTAs read and write, 1/16 of a row's (2 + 2 + 2) x 65536
  // bytes (two bf16 inputs, one bf16 output) each, not k CTAs' worth on
  // every SM.
  std::optional<KernelPlan> plan =
      buildPlan(op, tiling(16, 640, 8, 8, Staging::Shared), target);
  ASSERT_TRUE(plan);
  int64_t k = plan->ctasPerSM;
  ASSERT_GT(k, 1);
  ASSERT_EQ(plan->coResidentClusters, 100 * k / 16);
  int64_t ctas = plan->coResidentClusters * 16;
  ASSERT_LT(ctas, 100 * k);
  EXPECT_EQ(plan->compulsoryBytesPerRow, 6 * 65536);
  double perCta = 6.0 * 65536 / 16;
  Prediction p = predict(*plan, 4 * plan->coResidentClusters, profile);
  EXPECT_EQ(p.waves, 4);
  EXPECT_NEAR(p.bandwidthUs, ctas * perCta / 1e6, 1e-9);
  EXPECT_LT(p.bandwidthUs, 100 * k * perCta / 1e6);
}

TEST_F(PlanTest, RowsSplitOverClusters) {
  RowwiseOp op = parse(kSoftmax);
  ASSERT_TRUE(op);
  // 4 clusters of 2 CTAs: 8 CTAs share a row, 512 elements each.
  std::optional<KernelPlan> plan =
      buildPlan(op, tiling(2, 128, 4, 4, Staging::Registers, 1, 4), target);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->splits, 4);
  EXPECT_EQ(plan->ctasPerRow, 8);
  EXPECT_EQ(plan->slice, 512);
  // Each stage: one exchange in the cluster and one between the clusters;
  // a row leaves 4 splits x 1 value per stage in global memory; the grid
  // scratch is 2 buffers x 2 stages x 1 value.
  EXPECT_EQ(plan->exchangeRounds, 2);
  EXPECT_EQ(plan->gridRounds, 2);
  EXPECT_EQ(plan->splitPartialFloatsPerRow, 2 * 4);
  EXPECT_EQ(plan->gridScratchFloats, 4);
  EXPECT_EQ(plan->clusterScratchFloats, 2 * 2 * 2);
  EXPECT_EQ(plan->clusterBarriers, 2 * 2);
  EXPECT_EQ(plan->staticSharedBytes,
            4 * (plan->blockScratchFloats + 8 + 4) + 8 * 4);
  // Every cluster pushes 2 x 2 values per stage within itself.
  EXPECT_EQ(plan->dsmemBytesPerRow, 2 * 4 * 2 * 2 * 4);
  EXPECT_EQ(plan->grid, GridPolicy::OneWave);
  EXPECT_EQ(plan->coResidentGroups, plan->coResidentClusters / 4);
  // The groups wait for each other, so the kernel is held to the register
  // budget its residency assumes, registers staging too (a kernel of one
  // cluster per row is not).
  EXPECT_TRUE(plan->enforceRegisterBudget);
  EXPECT_FALSE(buildPlan(op, tiling(2, 128, 4, 16), target)
                   ->enforceRegisterBudget);
  // One-CTA clusters split a row too (without distributed shared memory),
  // and a wave never holds more groups than are resident.
  std::optional<KernelPlan> single =
      buildPlan(op, tiling(1, 256, 4, 4, Staging::Registers, 1, 4), target);
  ASSERT_TRUE(single);
  EXPECT_EQ(single->exchangeRounds, 0);
  EXPECT_EQ(single->clusterScratchFloats, 0);
  EXPECT_EQ(single->gridRounds, 2);
  EXPECT_EQ(single->grid, GridPolicy::OneWave);
  std::string error;
  ChipProfile profile = *parseProfile(kProfile, "test", error);
  int64_t groups = single->coResidentGroups;
  Prediction wide = predict(*single, 3 * groups, profile);
  EXPECT_EQ(wide.activeClusters, groups * 4);
  EXPECT_EQ(wide.waves, 3);
  // Too few CTAs for the row, and more clusters than the GPU holds.
  std::string whyNot;
  EXPECT_FALSE(buildPlan(op, tiling(1, 128, 4, 4, Staging::Registers, 1, 2),
                         target, &whyNot));
  EXPECT_EQ(whyNot, "the tiling covers 1024 elements of a row, but N = 4096");
  EXPECT_FALSE(buildPlan(op, tiling(16, 1024, 4, 4, Staging::Reread, 1, 64),
                         target, &whyNot));
  EXPECT_NE(whyNot.find("a row split over 64 clusters of 16 CTAs needs them "
                        "all resident at once"),
            std::string::npos);
}

TEST_F(PlanTest, NarrowAccessesCostMoreToIssue) {
  RowwiseOp op = parse(kSoftmax);
  ASSERT_TRUE(op);
  std::string error;
  ChipProfile plain = *parseProfile(kProfile, "test", error);
  std::string text = kProfile;
  text.replace(text.find("\"narrow_access_ops\": 0"),
               std::string("\"narrow_access_ops\": 0").size(),
               "\"narrow_access_ops\": 8");
  std::optional<ChipProfile> narrow = parseProfile(text, "test", error);
  ASSERT_TRUE(narrow) << error;
  refineTarget(target, plain);
  // 16-byte accesses (4 f32) pay no surcharge.
  std::optional<KernelPlan> wide =
      buildPlan(op, tiling(1, 256, 4, 16), target);
  ASSERT_TRUE(wide);
  EXPECT_DOUBLE_EQ(predict(*wide, 4096, *narrow).issueUs,
                   predict(*wide, 4096, plain).issueUs);
  // 4-byte accesses leave 3/4 of 16 bytes unused: every global access per
  // element costs 8 * 3/4 more operations, in proportion to the rest.
  std::optional<KernelPlan> scalar =
      buildPlan(op, tiling(1, 256, 1, 16), target);
  ASSERT_TRUE(scalar);
  EXPECT_DOUBLE_EQ(scalar->unusedAccessShare, 0.75);
  double base = predict(*scalar, 4096, plain).issueUs;
  double opsPerElement =
      scalar->opsPerElement +
      plain.accessOps * (scalar->globalAccessesPerElement +
                         scalar->sharedAccessesPerElement);
  EXPECT_NEAR(predict(*scalar, 4096, *narrow).issueUs / base,
              1 + 8 * 0.75 * scalar->globalAccessesPerElement / opsPerElement,
              1e-12);
}

TEST_F(PlanTest, SweepsAlsoOnSmallerCtas) {
  // softmax over N = 4096 f32 on one cluster of 16: 256 elements per CTA,
  // a single sweep of 32 threads, so no sweeps on smaller CTAs.
  RowwiseOp op = parse(kSoftmax);
  ASSERT_TRUE(op);
  auto staged = [](const std::vector<KernelPlan> &plans, int64_t cluster) {
    std::set<int64_t> threads;
    for (const KernelPlan &plan : plans)
      if (!plan.tiling.isOneSweep() && plan.cluster == cluster &&
          plan.splits == 1)
        threads.insert(plan.threads);
    return threads;
  };
  EXPECT_EQ(staged(enumerateCandidates(op, target), 16), std::set<int64_t>{});
  // Two inputs of N = 65536 on one CTA: 8 elements per thread take 8 sweeps
  // of 1024 threads, so 512 and 256 threads (16 and 32 sweeps) join them.
  op = parse(kTwoInputs);
  ASSERT_TRUE(op);
  std::vector<KernelPlan> plans = enumerateCandidates(op, target);
  EXPECT_EQ(staged(plans, 1), (std::set<int64_t>{256, 512, 1024}));
  for (const KernelPlan &plan : plans) {
    if (!plan.tiling.isOneSweep()) {
      EXPECT_GE(plan.threads, 128);
    }
  }
}

} // namespace

/// Column uses: a one-hot compare (folds into constant lanes) in stage 0, a
/// signed mask in the epilogue; kColumnMath also uses j arithmetically.
constexpr const char *kColumnCompares = R"mlir(
func.func @f(%x: tensor<?x4096xf32>, %t: tensor<?xi32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise ins(%x : tensor<?x4096xf32>) scalars(%t : tensor<?xi32>) outs(%o : tensor<?x4096xf32>)
    reduce [add] (%j: index, %v: f32, %k: i32) {
      %j32 = arith.index_castui %j : index to i32
      %hit = arith.cmpi eq, %j32, %k : i32
      %z = arith.constant 0.0 : f32
      %p = arith.select %hit, %v, %z : f32
      credit.yield %p : f32
    }
    epilogue (%j: index, %v: f32, %k: i32, %s: f32) {
      %j32 = arith.index_cast %j : index to i32
      %below = arith.cmpi slt, %k, %j32 : i32
      %r = arith.select %below, %v, %s : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xf32>
}
)mlir";
constexpr const char *kColumnMath = R"mlir(
func.func @f(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %j32 = arith.index_castui %j : index to i32
      %u = arith.cmpi ult, %j32, %j32 : i32
      %f = arith.uitofp %j32 : i32 to f32
      %r = arith.mulf %v, %f : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xf32>
}
)mlir";

TEST_F(PlanTest, ColumnComparesNeedNoRegisters) {
  EXPECT_TRUE(isFoldableColumnCompare(arith::CmpIPredicate::eq, 16));
  EXPECT_TRUE(isFoldableColumnCompare(arith::CmpIPredicate::ne, 64));
  EXPECT_TRUE(isFoldableColumnCompare(arith::CmpIPredicate::sge, 32));
  EXPECT_FALSE(isFoldableColumnCompare(arith::CmpIPredicate::slt, 16));
  EXPECT_FALSE(isFoldableColumnCompare(arith::CmpIPredicate::ult, 32));

  TilingAttr t = tiling(1, 256, 4, 16);
  std::optional<KernelPlan> folded =
      buildPlan(parse(kColumnCompares), t, target);
  ASSERT_TRUE(folded);
  EXPECT_EQ(folded->indexValues, 0);
  std::optional<KernelPlan> math = buildPlan(parse(kColumnMath), t, target);
  ASSERT_TRUE(math);
  EXPECT_EQ(math->indexValues, 1);
  // The same registers otherwise (one pointer fewer, no scalar), plus 1.6
  // per element for the column.
  EXPECT_EQ(math->estimatedRegisters - folded->estimatedRegisters,
            std::lround(16 * 1.6 - 2.5));
}

/// Sums that pick a column (entries 0 and 1, the second in the `!=`
/// form, cast to i32) and four that do not: 1.0 elsewhere, a maximum, a
/// column that depends on the element, a cast too narrow to tell columns
/// apart.
constexpr const char *kPicks = R"mlir(
func.func @f(%x: tensor<?x4096xf32>, %t: tensor<?xi64>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise ins(%x : tensor<?x4096xf32>) scalars(%t : tensor<?xi64>) outs(%o : tensor<?x4096xf32>)
    reduce [add, add, add, max, add, add] (%j: index, %v: f32, %i: i64) {
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %i : i64
      %p = arith.select %hit, %v, %zero : f32
      %j32 = arith.index_castui %j : index to i32
      %i32 = arith.trunci %i : i64 to i32
      %miss = arith.cmpi ne, %i32, %j32 : i32
      %q = arith.select %miss, %zero, %v : f32
      %u = arith.select %hit, %v, %one : f32
      %k = arith.fptosi %v : f32 to i64
      %self = arith.cmpi eq, %ji, %k : i64
      %w = arith.select %self, %v, %zero : f32
      %j16 = arith.index_cast %j : index to i16
      %i16 = arith.trunci %i : i64 to i16
      %hit16 = arith.cmpi eq, %j16, %i16 : i16
      %z = arith.select %hit16, %v, %zero : f32
      credit.yield %p, %q, %u, %p, %w, %z : f32, f32, f32, f32, f32, f32
    }
    epilogue (%j: index, %v: f32, %i: i64, %a: f32, %b: f32, %c: f32, %d: f32, %e: f32, %f: f32) {
      %r = arith.mulf %v, %a : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xf32>
}
)mlir";

/// A sum of v and a pick of column t (cross_entropy's target logit), or
/// with `1.0` in place of `0.0` the same select summed per element.
constexpr const char *kPick = R"mlir(
func.func @f(%x: tensor<?x4096xf32>, %t: tensor<?xi64>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise ins(%x : tensor<?x4096xf32>) scalars(%t : tensor<?xi64>) outs(%o : tensor<?x4096xf32>)
    reduce [add, add] (%j: index, %v: f32, %i: i64) {
      %other = arith.constant 0.0 : f32
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %i : i64
      %p = arith.select %hit, %v, %other : f32
      credit.yield %v, %p : f32, f32
    }
    epilogue (%j: index, %v: f32, %i: i64, %s: f32, %q: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xf32>
}
)mlir";

TEST_F(PlanTest, PickedColumnsAreReadOncePerRow) {
  RowwiseOp op = parse(kPicks);
  ASSERT_TRUE(op);
  Block &block = op.getStages()[0].front();
  std::optional<ColumnPick> p = matchColumnPick(op, 0, 0);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->column, block.getArgument(2));
  EXPECT_EQ(p->picked, block.getArgument(1));
  std::optional<ColumnPick> q = matchColumnPick(op, 0, 1);
  ASSERT_TRUE(q);
  EXPECT_TRUE(q->column.getDefiningOp<arith::TruncIOp>());
  EXPECT_EQ(q->picked, block.getArgument(1));
  for (unsigned k : {2, 3, 4, 5})
    EXPECT_FALSE(matchColumnPick(op, 0, k)) << "entry " << k;

  // Per element, the pick costs nothing: no cast, compare, select or add.
  TilingAttr t = tiling(1, 256, 4, 16);
  std::optional<KernelPlan> picked = buildPlan(parse(kPick), t, target);
  ASSERT_TRUE(picked);
  // One add; the epilogue's multiply; one load and one store.
  EXPECT_DOUBLE_EQ(picked->opsPerElement, 1 + 1 + 2);
  std::string summed = std::string(kPick);
  summed.replace(summed.find("0.0 : f32"), 3, "1.0");
  std::optional<KernelPlan> perElement =
      buildPlan(parse(summed.c_str()), t, target);
  ASSERT_TRUE(perElement);
  // Also the 64-bit cast and compare (2 each), the select, a second add.
  EXPECT_DOUBLE_EQ(perElement->opsPerElement, 2 + 2 + 1 + 2 + 1 + 2);
}

TEST_F(PlanTest, OnlineSoftmaxClustersPayPerRank) {
  RowwiseOp op = parse(kOnlineSoftmax);
  ASSERT_TRUE(op);
  // The same 4 elements per thread on one CTA and on a cluster of 16.
  std::optional<KernelPlan> one = buildPlan(op, tiling(1, 1024, 4, 4), target);
  std::optional<KernelPlan> sixteen =
      buildPlan(op, tiling(16, 64, 4, 4), target);
  ASSERT_TRUE(one && sixteen);
  EXPECT_EQ(one->exponentials, 1);
  EXPECT_EQ(one->carriedValues, 0);
  // 18 + 2 pointers x 2.5 + one chunk x 0.37 + 4 elements x (1 + 0.28),
  // and on the cluster 16 ranks x 2 values x 0.4.
  EXPECT_EQ(one->estimatedRegisters, std::lround(18 + 5 + 0.37 + 4 * 1.28));
  EXPECT_EQ(sixteen->estimatedRegisters,
            std::lround(18 + 5 + 0.37 + 4 * 1.28 + 0.4 * 16 * 2));
}

TEST_F(PlanTest, RegistersReuseTheStagesExponentials) {
  // The epilogue's exp(x - max) is the stage's exp(x - t) times a per-row
  // factor where registers keep the slice.
  RowwiseOp op = parse(kOnlineSoftmax);
  ASSERT_TRUE(op);
  std::optional<KernelPlan> registers =
      buildPlan(op, tiling(2, 256, 4, 8), target);
  std::optional<KernelPlan> shared =
      buildPlan(op, tiling(2, 256, 4, 4, Staging::Shared), target);
  ASSERT_TRUE(registers && shared);
  SmallVector<ReusedExponential> reused = getReusedExponentials(op, *registers);
  ASSERT_EQ(reused.size(), 1u);
  EXPECT_EQ(reused[0].stage, 0u);
  EXPECT_EQ(reused[0].max, 0u);
  EXPECT_TRUE(isa<math::ExpOp>(reused[0].exp));
  EXPECT_TRUE(getReusedExponentials(op, *shared).empty());
  // The epilogue's x - m (1) and exp (4) become one multiplication (1);
  // the division by the sum (10) stays. Per element with registers: 1 + 10
  // in the epilogue, 2 combines, an input and an output.
  EXPECT_DOUBLE_EQ(registers->opsPerElement, 1 + 10 + 2 + 2);
  EXPECT_DOUBLE_EQ(shared->opsPerElement - registers->opsPerElement, 4);
}

/// log_softmax over a decode-sized bf16 vocabulary, in credit-online-softmax's
/// form: max and its sum of exponentials, then x - max - log(sum).
constexpr const char *kLogSoftmaxVocabulary = R"mlir(
func.func @f(%x: tensor<?x262144xbf16>, %o: tensor<?x262144xbf16>) -> tensor<?x262144xbf16> {
  %r = credit.rowwise ins(%x : tensor<?x262144xbf16>) outs(%o : tensor<?x262144xbf16>)
    reduce [max, addexp] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one : f32, f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) {
      %l = math.log %s : f32
      %d = arith.subf %v, %m : f32
      %y = arith.subf %d, %l : f32
      credit.yield %y : f32
    }
  return %r : tensor<?x262144xbf16>
}
)mlir";

TEST_F(PlanTest, VariantsCoverEveryRowCountOnce) {
  std::string error;
  ChipProfile builtIn;
  std::optional<TargetInfo> h200 = loadTarget("sm_90", "", &error, &builtIn);
  ASSERT_TRUE(h200) << error;
  for (const char *text : {kSoftmax, kOnlineSoftmax, kTwoInputs, kMoments,
                           kLogSoftmaxVocabulary}) {
    RowwiseOp op = parse(text);
    ASSERT_TRUE(op);
    for (unsigned maxVariants : {1u, 3u, 6u}) {
      SmallVector<Variant> variants =
          chooseVariants(op, *h200, builtIn, 0, maxVariants);
      ASSERT_FALSE(variants.empty());
      llvm::DenseSet<TilingAttr> tilings;
      for (auto [i, variant] : llvm::enumerate(variants)) {
        // Contiguous from one row up, the last without a bound, and a new
        // range only where the tiling changes.
        EXPECT_EQ(variant.minRows, i == 0 ? 1 : variants[i - 1].maxRows + 1);
        EXPECT_EQ(variant.maxRows == 0, i + 1 == variants.size());
        if (i > 0)
          EXPECT_NE(variant.tiling, variants[i - 1].tiling);
        tilings.insert(variant.tiling);
      }
      EXPECT_LE(tilings.size(), maxVariants);
    }
  }
}

TEST_F(PlanTest, OneRowGetsItsOwnVariantWhereItPays) {
  // At M = 1 a 64-way split row is the model's fastest for this
  // vocabulary, a little ahead of a 16-CTA cluster that is also close to
  // the best at many row counts; the kept variants must not lose the
  // split to a tiling that saves a little everywhere (and is launched
  // nowhere).
  std::string error;
  ChipProfile builtIn;
  std::optional<TargetInfo> h200 = loadTarget("sm_90", "", &error, &builtIn);
  ASSERT_TRUE(h200) << error;
  RowwiseOp op = parse(kLogSoftmaxVocabulary);
  ASSERT_TRUE(op);
  CostReport one = evaluateCandidates(op, *h200, builtIn, 1);
  ASSERT_FALSE(one.candidates.empty());
  SmallVector<Variant> variants = chooseVariants(op, *h200, builtIn, 0, 6);
  ASSERT_FALSE(variants.empty());
  std::optional<KernelPlan> launched =
      buildPlan(op, variants.front().tiling, *h200);
  ASSERT_TRUE(launched);
  double fastest = one.candidates.front().prediction.micros;
  EXPECT_LE(predict(*launched, 1, builtIn, getRowBlocks(op)).micros,
            1.01 * fastest)
      << "M = 1 launches a tiling more than 1% slower than the fastest";
}
