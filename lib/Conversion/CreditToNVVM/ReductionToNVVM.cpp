//===- ReductionToNVVM.cpp - block, cluster and grid reductions -----------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Conversion/CreditToNVVM.h"
#include "Credit/Dialect/Combiners.h"
#include "Credit/Dialect/CreditOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::credit;

static Value createIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

namespace {

/// credit.block_reduce: shuffles within each warp; with several warps per
/// group, an exchange through shared memory and a second, shorter round of
/// shuffles whose result lane 0 broadcasts.
struct BlockReduceLowering : public OpConversionPattern<BlockReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BlockReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<CombinerKind> kinds = op.getCombinerKinds();
    int64_t numValues = kinds.size();
    SmallVector<Value> values =
        createButterfly(rewriter, loc, kinds, adaptor.getValues(), kWarpLanes);
    int64_t warpsPerGroup = op.getGroupThreads() / kWarpLanes;
    if (warpsPerGroup == 1) {
      rewriter.replaceOp(op, values);
      return success();
    }

    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value warpSize = createIndex(rewriter, loc, kWarpLanes);
    Value lane = arith::RemUIOp::create(rewriter, loc, tid, warpSize);
    Value warp = arith::DivUIOp::create(rewriter, loc, tid, warpSize);
    Value scratch = adaptor.getScratch();
    Value offset = adaptor.getOffset();
    Value k = createIndex(rewriter, loc, numValues);

    // Lane 0 of every warp publishes the warp's values.
    Value isLeader =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, lane,
                              createIndex(rewriter, loc, 0));
    Value warpBase = arith::AddIOp::create(
        rewriter, loc, offset, arith::MulIOp::create(rewriter, loc, warp, k));
    scf::IfOp::create(rewriter, loc, isLeader, [&](OpBuilder &b, Location l) {
      for (auto [i, value] : llvm::enumerate(values)) {
        Value at = arith::AddIOp::create(b, l, warpBase, createIndex(b, l, i));
        memref::StoreOp::create(b, l, value, scratch, at);
      }
      scf::YieldOp::create(b, l);
    });
    gpu::BarrierOp::create(rewriter, loc);

    // Lane i of each warp reads the group's warp i (identity past the
    // group's warps) and the group's values are combined again.
    Value groupWarps = createIndex(rewriter, loc, warpsPerGroup);
    Value firstWarp = arith::MulIOp::create(
        rewriter, loc, arith::DivUIOp::create(rewriter, loc, warp, groupWarps),
        groupWarps);
    Value inGroup = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, lane, groupWarps);
    Value readLane = arith::MinUIOp::create(
        rewriter, loc, lane, createIndex(rewriter, loc, warpsPerGroup - 1));
    Value readBase = arith::AddIOp::create(
        rewriter, loc, offset,
        arith::MulIOp::create(
            rewriter, loc,
            arith::AddIOp::create(rewriter, loc, firstWarp, readLane), k));
    int64_t lanes = llvm::PowerOf2Ceil(warpsPerGroup);
    Value zeroLane = arith::ConstantOp::create(
        rewriter, loc, rewriter.getI32Type(), rewriter.getI32IntegerAttr(0));
    Value width =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                  rewriter.getI32IntegerAttr(kWarpLanes));
    SmallVector<Value> loaded;
    for (auto [i, kind] : llvm::enumerate(kinds)) {
      Value at = arith::AddIOp::create(rewriter, loc, readBase,
                                       createIndex(rewriter, loc, i));
      Value value = memref::LoadOp::create(rewriter, loc, scratch, at);
      loaded.push_back(
          arith::SelectOp::create(rewriter, loc, inGroup, value,
                                  createCombinerIdentity(rewriter, loc, kind)));
    }
    // Every thread takes lane 0's bits.
    SmallVector<Value> results = llvm::map_to_vector(
        createButterfly(rewriter, loc, kinds, loaded, lanes),
        [&](Value value) -> Value {
          return gpu::ShuffleOp::create(rewriter, loc, value, zeroLane, width,
                                        gpu::ShuffleMode::IDX)
              .getShuffleResult();
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// One PTX instruction with side effects (never hoisted or merged):
/// `result` is null for none.
static Value createPtx(OpBuilder &b, Location loc, Type result,
                       ValueRange operands, StringRef text,
                       StringRef constraints) {
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, result ? TypeRange(result) : TypeRange(), operands, text,
      constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  return result ? asmOp.getResult(0) : Value();
}

/// The address of a workgroup memref's first element, as a shared-memory
/// pointer.
static Value getSharedBase(OpBuilder &b, Location loc, Value memref) {
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3),
      Value(arith::IndexCastOp::create(b, loc, b.getI64Type(), address)));
}

/// The widest vector of 32-bit values, in values (a power of two).
constexpr int64_t kMaxPushValues = 4;

/// The largest power of two up to kMaxPushValues that `value` (an index) is
/// known to be a multiple of, from the arithmetic that computes it.
static int64_t getKnownPowerOfTwoFactor(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return *constant == 0
               ? kMaxPushValues
               : std::min<int64_t>(*constant & -*constant, kMaxPushValues);
  Operation *def = value.getDefiningOp();
  if (auto mul = dyn_cast_or_null<arith::MulIOp>(def))
    return std::min(getKnownPowerOfTwoFactor(mul.getLhs()) *
                        getKnownPowerOfTwoFactor(mul.getRhs()),
                    kMaxPushValues);
  if (auto add = dyn_cast_or_null<arith::AddIOp>(def))
    return std::min(getKnownPowerOfTwoFactor(add.getLhs()),
                    getKnownPowerOfTwoFactor(add.getRhs()));
  return 1;
}

/// The alignment in bytes of a workgroup memref's first element: its
/// global's where it is one, else its element's.
static int64_t getBaseAlignment(Value memref) {
  int64_t element = 4;
  auto get = memref.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return element;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  if (!global || !global.getAlignment())
    return element;
  return std::max<int64_t>(element, *global.getAlignment());
}

/// How the values a rank pushes to a peer go out: (first value, count)
/// pieces of 1, 2 or 4 consecutive values, each one st.async. Entry
/// `offset + r * k + i` of a base aligned to `baseAlign` bytes is aligned
/// to w values for every rank r when w divides i, k and the offset.
static SmallVector<std::pair<int64_t, int64_t>>
getPushPieces(int64_t numValues, int64_t offsetFactor, int64_t baseAlign) {
  SmallVector<std::pair<int64_t, int64_t>> pieces;
  for (int64_t i = 0; i < numValues;) {
    int64_t width = kMaxPushValues;
    while (width > 1 && (i % width || numValues % width ||
                         offsetFactor % width || 4 * width > baseAlign))
      width /= 2;
    pieces.push_back({i, width});
    i += width;
  }
  return pieces;
}

/// credit.cluster_reduce: push to peers through DSMEM (st.async on the
/// peers' mbarriers, or plain stores and a release/acquire cluster
/// barrier), combine the local copies a rank per lane with shuffles.
struct ClusterReduceLowering : public OpConversionPattern<ClusterReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ClusterReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    SmallVector<CombinerKind> kinds = op.getCombinerKinds();
    int64_t numValues = kinds.size();
    int64_t cluster = op.getCluster();
    Value scratch = adaptor.getScratch();
    Value offset = adaptor.getOffset();
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    Type f32 = rewriter.getF32Type();

    Value rank32 = NVVM::ClusterId::create(rewriter, loc, i32);
    Value rank = arith::IndexCastOp::create(rewriter, loc,
                                            rewriter.getIndexType(), rank32);
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);

    // This CTA's entries, seen from a peer of the cluster.
    Value base = getSharedBase(rewriter, loc, scratch);
    Value myEntries = arith::AddIOp::create(
        rewriter, loc, offset,
        arith::MulIOp::create(rewriter, loc, rank,
                              createIndex(rewriter, loc, numValues)));
    Value isPusher =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, tid,
                              createIndex(rewriter, loc, cluster));
    auto sharedPtr = LLVM::LLVMPointerType::get(ctx, 3);
    auto clusterPtr = LLVM::LLVMPointerType::get(ctx, 7);
    // Asynchronous exchange: this buffer's mbarrier in this CTA.
    Value barrier;
    if (Value barriers = adaptor.getBarriers()) {
      barrier = LLVM::GEPOp::create(
          rewriter, loc, sharedPtr, i64, getSharedBase(rewriter, loc, barriers),
          ValueRange{arith::IndexCastOp::create(rewriter, loc, i64,
                                                adaptor.getBarrierIndex())});
    }
    ValueRange values = adaptor.getValues();
    SmallVector<std::pair<int64_t, int64_t>> pieces =
        getPushPieces(numValues, getKnownPowerOfTwoFactor(op.getOffset()),
                      getBaseAlignment(scratch));
    scf::IfOp::create(rewriter, loc, isPusher, [&](OpBuilder &b, Location l) {
      Value peer = arith::IndexCastOp::create(b, l, i32, tid);
      Value peerBarrier =
          barrier ? Value(NVVM::MapaOp::create(b, l, clusterPtr, barrier, peer))
                  : Value();
      auto remoteEntry = [&](int64_t i) -> Value {
        Value at = arith::IndexCastOp::create(
            b, l, i64,
            arith::AddIOp::create(b, l, myEntries, createIndex(b, l, i)));
        Value local = LLVM::GEPOp::create(b, l, sharedPtr, f32, base, at);
        return NVVM::MapaOp::create(b, l, clusterPtr, local, peer);
      };
      if (!barrier) {
        for (auto [i, value] : llvm::enumerate(values))
          LLVM::StoreOp::create(b, l, value, remoteEntry(i));
        scf::YieldOp::create(b, l);
        return;
      }
      // Each piece completes its bytes on the peer's mbarrier (release at
      // cluster scope); aligned neighbours go out as one vector write.
      for (auto [first, count] : pieces) {
        SmallVector<Value> operands = {remoteEntry(first)};
        SmallVector<std::string> names;
        for (int64_t i = first; i < first + count; ++i) {
          operands.push_back(LLVM::BitcastOp::create(b, l, i32, values[i]));
          names.push_back("$" + std::to_string(operands.size() - 1));
        }
        operands.push_back(peerBarrier);
        std::string data =
            count == 1 ? names.front() : "{" + llvm::join(names, ", ") + "}";
        std::string text = llvm::formatv(
            "st.async.shared::cluster.mbarrier::complete_tx::bytes{0}.b32 "
            "[$0], {1}, [${2}];",
            count == 1 ? "" : ".v" + std::to_string(count), data, count + 1);
        std::string constraints = "l";
        for (int64_t i = 0; i < count; ++i)
          constraints += ",r";
        createPtx(b, l, Type(), operands, text, constraints + ",l,~{memory}");
      }
      scf::YieldOp::create(b, l);
    });
    if (barrier) {
      // Thread 0 expects every rank's values and arrives (the barrier's one
      // arrival); every thread waits, with acquire at cluster scope, for
      // the phase to complete.
      Value isFirst =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid,
                                createIndex(rewriter, loc, 0));
      scf::IfOp::create(rewriter, loc, isFirst, [&](OpBuilder &b, Location l) {
        Value bytes = arith::ConstantIntOp::create(
            b, l, i32, int64_t(cluster * numValues * 4));
        createPtx(b, l, Type(), {barrier, bytes},
                  "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;",
                  "l,r,~{memory}");
        scf::YieldOp::create(b, l);
      });
      Value phase =
          arith::IndexCastOp::create(rewriter, loc, i32, adaptor.getPhase());
      scf::WhileOp::create(
          rewriter, loc, TypeRange(), ValueRange(),
          [&](OpBuilder &b, Location l, ValueRange) {
            Value done = createPtx(
                b, l, i32, {barrier, phase},
                "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.acquire."
                "cluster.shared::cta.b64 p, [$1], $2;\n\tselp.b32 $0, 1, 0, "
                "p;\n\t}",
                "=r,l,r,~{memory}");
            Value waiting = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::eq, done,
                arith::ConstantIntOp::create(b, l, i32, 0));
            scf::ConditionOp::create(b, l, waiting, ValueRange());
          },
          [&](OpBuilder &b, Location l, ValueRange) {
            scf::YieldOp::create(b, l);
          });
    } else {
      // barrier.cluster.arrive has release and barrier.cluster.wait acquire
      // semantics: every store above is visible after the wait.
      NVVM::ClusterArriveOp::create(rewriter, loc, /*aligned=*/UnitAttr());
      NVVM::ClusterWaitOp::create(rewriter, loc, /*aligned=*/UnitAttr());
    }

    // Lane i of every warp loads rank i % cluster's entries and the
    // cluster's lanes combine them with xor shuffles: a thread holds one
    // rank's values (and, for addexp, takes one exponential), not every
    // rank's. Every group of lanes, warp and CTA runs the same operations
    // on the same values in the same lanes, so all get the same bits.
    Value lane = arith::RemUIOp::create(rewriter, loc, tid,
                                        createIndex(rewriter, loc, kWarpLanes));
    Value readRank = arith::RemUIOp::create(
        rewriter, loc, lane, createIndex(rewriter, loc, cluster));
    Value readBase = arith::AddIOp::create(
        rewriter, loc, offset,
        arith::MulIOp::create(rewriter, loc, readRank,
                              createIndex(rewriter, loc, numValues)));
    SmallVector<Value> entries;
    for (int64_t i = 0; i < numValues; ++i) {
      Value at = arith::AddIOp::create(rewriter, loc, readBase,
                                       createIndex(rewriter, loc, i));
      entries.push_back(memref::LoadOp::create(rewriter, loc, scratch, at));
    }
    rewriter.replaceOp(op,
                       createButterfly(rewriter, loc, kinds, entries, cluster));
    return success();
  }
};

/// credit.grid_reduce: the publishing CTA of each cluster stores its values
/// and counts itself in with a release add; warp 0 of every CTA polls the
/// count with acquire loads, loads the contributions a lane per split,
/// combines them with shuffles and shares them through shared memory and a
/// CTA barrier.
struct GridReduceLowering : public OpConversionPattern<GridReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GridReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    SmallVector<CombinerKind> kinds = op.getCombinerKinds();
    int64_t numValues = kinds.size();
    int64_t splits = op.getSplits();
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    Type f32 = rewriter.getF32Type();
    auto globalPtr = LLVM::LLVMPointerType::get(ctx, 1);
    Value scratch = adaptor.getScratch();
    Value offset = adaptor.getOffset();

    auto toI64 = [&](OpBuilder &b, Location l, Value index) -> Value {
      return arith::IndexCastOp::create(b, l, i64, index);
    };
    auto partialAt = [&](OpBuilder &b, Location l, Value split, int64_t k) {
      Value at = arith::AddIOp::create(
          b, l, adaptor.getEntry(),
          arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, split,
                                          createIndex(b, l, numValues)),
              createIndex(b, l, k)));
      return LLVM::GEPOp::create(b, l, globalPtr, f32, adaptor.getPartials(),
                                 ValueRange{toI64(b, l, at)});
    };
    Value counter = LLVM::GEPOp::create(rewriter, loc, globalPtr, i32,
                                        adaptor.getCounters(),
                                        ValueRange{toI64(rewriter, loc,
                                                         adaptor.getRow())});
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value isLeader =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid,
                              createIndex(rewriter, loc, 0));

    // Publish: the values, then the count, ordered by the release.
    Value publisher =
        arith::AndIOp::create(rewriter, loc, isLeader, adaptor.getPublish());
    ValueRange values = adaptor.getValues();
    scf::IfOp::create(rewriter, loc, publisher, [&](OpBuilder &b, Location l) {
      for (auto [k, value] : llvm::enumerate(values))
        LLVM::StoreOp::create(b, l, value,
                              partialAt(b, l, adaptor.getSplit(), k));
      createPtx(b, l, Type(), {counter},
                "red.release.gpu.global.add.u32 [$0], 1;", "l");
      scf::YieldOp::create(b, l);
    });

    // Warp 0 waits, every lane with its own acquire loads (one request per
    // poll for the warp), so that each lane's loads of the partials are
    // ordered after the arrivals it saw.
    Value inFirstWarp =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, tid,
                              createIndex(rewriter, loc, kWarpLanes));
    scf::IfOp::create(rewriter, loc, inFirstWarp, [&](OpBuilder &b,
                                                      Location l) {
      Value arrivals = arith::ConstantOp::create(
          b, l, i32, b.getI32IntegerAttr(int32_t(op.getArrivals())));
      scf::WhileOp::create(
          b, l, TypeRange(), ValueRange(),
          [&](OpBuilder &wb, Location wl, ValueRange) {
            Value count =
                createPtx(wb, wl, i32, {counter},
                          "ld.acquire.gpu.global.u32 $0, [$1];", "=r,l");
            Value waiting = arith::CmpIOp::create(
                wb, wl, arith::CmpIPredicate::ult, count, arrivals);
            scf::ConditionOp::create(wb, wl, waiting, ValueRange());
          },
          [&](OpBuilder &wb, Location wl, ValueRange) {
            scf::YieldOp::create(wb, wl);
          });
      // Lane i loads the contributions of splits i, i + 32, ... (all loads
      // issued before any is combined), combines them in that order, and
      // the warp combines its lanes with xor shuffles. Every CTA runs the
      // same operations on the same values, so all get the same bits.
      int64_t perLane = llvm::divideCeil(splits, kWarpLanes);
      SmallVector<SmallVector<Value>> entries(numValues);
      SmallVector<Value> inRange;
      for (int64_t j = 0; j < perLane; ++j) {
        Value split = arith::AddIOp::create(b, l, tid,
                                            createIndex(b, l, j * kWarpLanes));
        inRange.push_back(arith::CmpIOp::create(
            b, l, arith::CmpIPredicate::ult, split, createIndex(b, l, splits)));
        Value clamped = arith::MinUIOp::create(b, l, split,
                                               createIndex(b, l, splits - 1));
        for (int64_t k = 0; k < numValues; ++k)
          entries[k].push_back(
              createPtx(b, l, f32, {partialAt(b, l, clamped, k)},
                        "ld.relaxed.gpu.global.f32 $0, [$1];", "=f,l"));
      }
      Value isFirstLane = arith::CmpIOp::create(
          b, l, arith::CmpIPredicate::eq, tid, createIndex(b, l, 0));
      SmallVector<SmallVector<Value>> contributions(inRange.size());
      for (auto [j, valid] : llvm::enumerate(inRange))
        for (auto [k, kind] : llvm::enumerate(kinds))
          contributions[j].push_back(arith::SelectOp::create(
              b, l, valid, entries[k][j], createCombinerIdentity(b, l, kind)));
      SmallVector<Value> combined = createButterfly(
          b, l, kinds, createCombineAll(b, l, kinds, contributions),
          kWarpLanes);
      // Lane 0 hands the results to the CTA. On the row's last exchange it
      // counts the CTA out (after the shuffles, so every lane of the warp
      // is done polling) with an increment that wraps: the one that
      // completes the count (arrivals + departures) leaves zero for the
      // next launch, and nothing waits for its answer.
      scf::IfOp::create(b, l, isFirstLane, [&](OpBuilder &ib, Location il) {
        for (auto [k, value] : llvm::enumerate(combined)) {
          Value at =
              arith::AddIOp::create(ib, il, offset, createIndex(ib, il, k));
          memref::StoreOp::create(ib, il, value, scratch, at);
        }
        if (int64_t departures = op.getDepartures())
          createPtx(ib, il, Type(), {counter},
                    llvm::formatv("red.relaxed.gpu.global.inc.u32 [$0], {0};",
                                  op.getArrivals() + departures - 1)
                        .str(),
                    "l");
        scf::YieldOp::create(ib, il);
      });
      scf::YieldOp::create(b, l);
    });
    gpu::BarrierOp::create(rewriter, loc);

    SmallVector<Value> results;
    for (int64_t k = 0; k < numValues; ++k) {
      Value at = arith::AddIOp::create(rewriter, loc, offset,
                                       createIndex(rewriter, loc, k));
      results.push_back(memref::LoadOp::create(rewriter, loc, scratch, at));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::credit::populateCreditReductionToNVVMPatterns(
    RewritePatternSet &patterns) {
  patterns.add<BlockReduceLowering, ClusterReduceLowering, GridReduceLowering>(
      patterns.getContext());
}
