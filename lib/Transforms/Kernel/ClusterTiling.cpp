//===- ClusterTiling.cpp - credit.rowwise to cluster kernels --------------===//
//
// Part of the CREDIT project.
//
// Outlines each tiled credit.rowwise op into a gpu.func kernel in which a row
// is split across the CTAs of a cluster. Each CTA keeps its slice on chip
// (or rereads it), reduces it stage by stage with credit.block_reduce and
// credit.cluster_reduce, and reuses it in the epilogue. What is built is
// the op's KernelPlan; the barrier discipline is described in
// ReductionSchedule.cpp.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "Credit/Analysis/CostModel.h"
#include "Credit/Analysis/Profile.h"
#include "Credit/Dialect/CreditOps.h"
#include "Credit/Transforms/ElementwiseCloning.h"
#include "Credit/Transforms/Passes.h"
#include "Credit/Transforms/TargetOptions.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITCLUSTERTILING
#include "Credit/Transforms/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;
using namespace mlir::credit::detail;

//===----------------------------------------------------------------------===//
// Rows: their state, epilogue and finalize
//===----------------------------------------------------------------------===//

RowState KernelEmitter::beginRow(Value rowBase) {
  RowState state;
  state.row = plan.rows > 1 ? add(rowBase, rowInCta) : rowBase;
  if (plan.rows > 1)
    state.rowValid = cmp(arith::CmpIPredicate::ult, state.row, rowEnd);
  state.first = cmp(arith::CmpIPredicate::eq, rowBase, rowBegin);
  Value iteration = arith::DivUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, rowBase, rowBegin),
      index(plan.rows));
  state.parity = arith::RemUIOp::create(b, loc, iteration, index(2));
  state.phase = arith::RemUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, iteration, index(2)), index(2));

  // Rows past the end read row 0 instead, and store nothing.
  Value safeRow = state.rowValid
                      ? Value(arith::SelectOp::create(b, loc, state.rowValid,
                                                      state.row, index(0)))
                      : state.row;
  for (auto [view, operand] : llvm::zip(scalarViews, op.getScalars())) {
    Value value = memref::LoadOp::create(b, loc, view, ValueRange{safeRow});
    Type element = elementTypeOf(operand);
    if (isa<FloatType>(element) && !element.isF32())
      value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    state.scalars.push_back(value);
  }
  for (Value stride : inputStrides)
    state.inputOffsets.push_back(mul(safeRow, stride));
  for (Value stride : outputStrides)
    state.outputOffsets.push_back(mul(state.row, stride));
  loadRowRegisters(state);
  copyRowToShared(state);
  return state;
}

SmallVector<Value> KernelEmitter::emitEpilogue(RowState &state,
                                               ValueRange results,
                                               ValueRange columnSums) {
  if (op.getEpilogue().empty())
    return llvm::to_vector(columnSums);
  Block &block = op.getEpilogue().front();
  beginPass(state, plan.numStages);
  // Outputs narrower than f32 that select a constant (cross_entropy's
  // ignored rows) select an opaque copy of it (hideSelectedConstants).
  auto narrow = [&](Value output) {
    auto element = dyn_cast<FloatType>(elementTypeOf(output));
    return element && element.getWidth() < 32;
  };
  auto yield = cast<YieldOp>(block.getTerminator());
  bool hide = llvm::any_of(llvm::enumerate(op.getOutputs()), [&](auto out) {
    return narrow(out.value()) &&
           yield.getOperand(out.index())
               .template getDefiningOp<arith::SelectOp>();
  });
  Value zero = hide ? createOpaqueZero(plan.numStages) : Value();
  // Column tests (j == s or j != s, s the same for the row): constants in
  // every chunk but the one that holds s, which branches to the region as
  // written (cross_entropy's one-hot target). Not with column sums, whose
  // chunks must all add.
  SmallVector<Value> tested;
  SmallVector<std::pair<Value, Value>> constants;
  if (!plan.numColumnSums)
    for (arith::CmpIOp compare : block.getOps<arith::CmpIOp>())
      if (Value column = getColumnTestValue(op, compare)) {
        tested.push_back(emitColumnTestValue(state, block, column, results));
        bool equal = compare.getPredicate() == arith::CmpIPredicate::eq;
        constants.push_back({compare, arith::ConstantIntOp::create(
                                          b, loc, b.getI1Type(), !equal)});
      }

  // Exponentials the last stage computed (getReusedExponentials): exp(x -
  // t) times exp(t - m), t the thread's maximum and m the row's. A thread
  // whose maximum is -inf computed zeros, and exp(-inf - m) is 0 (NaN where
  // m is -inf too), as exp(x - m) would be.
  struct Reuse {
    Value exp;
    ArrayRef<Value> chunks;
    Value scale;
  };
  SmallVector<Reuse> reuses;
  for (const ReusedExponential &exp : getReusedExponentials(op, plan)) {
    const RowState::Exponentials &kept = state.exponentials[exp.max];
    assert(kept.chunks.size() == size_t(plan.chunks) &&
           "the stage keeps an exponential per chunk");
    Value rowMax = results[op.getNumResultsBeforeStage(exp.stage) + exp.max];
    Value scale = math::ExpOp::create(
        b, loc, arith::SubFOp::create(b, loc, kept.threadMax, rowMax));
    reuses.push_back(
        {exp.exp->getResult(0), kept.chunks,
         vector::BroadcastOp::create(b, loc, vectorOf(b.getF32Type()), scale)});
  }

  // The sweeps, with `fixed` values of the block as given.
  auto emitSweeps = [&](SmallVector<std::pair<Value, Value>> fixed) {
    SmallVector<std::pair<Value, Value>> elsewhere = fixed;
    llvm::append_range(elsewhere, constants);
    // The software pipeline (KernelPlan::prefetchRegisters): each sweep
    // loads the next one's broadcast vectors before it computes, the first
    // sweep's loaded ahead of the loop; they travel as loop values.
    bool pipelined = plan.prefetchRegisters > 0;
    auto loadSweep = [&](Value sweep, Value valid) {
      SmallVector<Value> loaded;
      for (int64_t chunk = 0; chunk < plan.chunks; ++chunk)
        llvm::append_range(
            loaded, loadPrefetched(
                        getChunkPosition(sweep, chunk, state.rowValid), valid));
      return loaded;
    };
    SmallVector<Value> init = llvm::to_vector(columnSums);
    if (pipelined)
      llvm::append_range(init, loadSweep(index(0), Value()));
    unsigned numSums = columnSums.size();
    auto sweepBody = [&](Value sweep, SmallVector<Value> carried) {
      SmallVector<Value> sums(carried.begin(), carried.begin() + numSums);
      SmallVector<Value> next;
      if (pipelined) {
        Value following = add(sweep, index(1));
        next = loadSweep(following, cmp(arith::CmpIPredicate::ult, following,
                                        index(plan.sweeps)));
      }
      // Sweeps load every chunk before the first store: a store may alias
      // a later chunk's load for all LLVM and ptxas know, so loads emitted
      // after it would wait for the previous chunk's loads to return
      // (layernorm's gamma and beta: one memory latency per chunk). Each
      // column is still read before the same thread writes it. One-sweep
      // stagings (registers, mixed) load chunk by chunk: their chunks are
      // many, and every chunk's loads at once measured up to twice the
      // registers (layernorm bf16 4096 c1 t128 e32: 64 -> 121).
      SmallVector<ChunkPosition> positions;
      SmallVector<SmallVector<Value>> chunkArgs;
      ArrayRef<Value> current = ArrayRef<Value>(carried).drop_front(numSums);
      SmallVector<unsigned> prefetched =
          pipelined ? getPrefetchedArgs(op, plan) : SmallVector<unsigned>();
      auto loadChunk = [&](int64_t chunk) {
        positions.push_back(getChunkPosition(sweep, chunk, state.rowValid));
        SmallVector<Value> loaded(pipelined ? op.getNumElementArgs() : 0);
        for (unsigned arg : prefetched) {
          loaded[arg] = current.front();
          current = current.drop_front();
        }
        chunkArgs.push_back(getElementArgs(block, state, chunk,
                                           positions.back(), plan.numStages,
                                           results, loaded));
      };
      bool hoist = !plan.tiling.isOneSweep();
      if (hoist)
        for (int64_t chunk = 0; chunk < plan.chunks; ++chunk)
          loadChunk(chunk);
      for (int64_t chunk = 0; chunk < plan.chunks; ++chunk) {
        if (!hoist)
          loadChunk(chunk);
        const ChunkPosition &pos = positions[chunk];
        ArrayRef<Value> args = chunkArgs[chunk];
        SmallVector<std::pair<Value, Value>> exponentials;
        for (const Reuse &reuse : reuses)
          exponentials.push_back(
              {reuse.exp, arith::MulFOp::create(b, loc, reuse.chunks[chunk],
                                                reuse.scale)});
        auto emitChunk = [&](ArrayRef<std::pair<Value, Value>> fixedHere) {
          SmallVector<std::pair<Value, Value>> given(fixedHere);
          llvm::append_range(given, exponentials);
          SmallVector<Value> values = cloneElementwise(b, block, args, given);
          for (auto [o, output] : llvm::enumerate(op.getOutputs())) {
            Type element = elementTypeOf(output);
            Value value = values[o];
            if (zero && narrow(output))
              hideSelectedConstants(value, zero);
            if (!isa<VectorType>(value.getType()))
              value = vector::BroadcastOp::create(
                  b, loc, vectorOf(value.getType()), value);
            if (isa<FloatType>(element) && !element.isF32())
              value = arith::TruncFOp::create(b, loc, vectorOf(element), value);
            storeVector(value, outputViews[o],
                        add(state.outputOffsets[o], pos.column), pos.valid);
          }
          for (unsigned q = 0; q < plan.numColumnSums; ++q)
            accumulateColumnSum(state, q, chunk, pos,
                                values[plan.numOutputs + q], sums);
        };
        if (tested.empty()) {
          emitChunk(fixed);
          continue;
        }
        // s is in the chunk: s - (its first column) < vector, unsigned.
        Value holds;
        for (Value column : tested) {
          Value offset = arith::SubIOp::create(b, loc, column, pos.column);
          holds = orOf(holds, cmp(arith::CmpIPredicate::ult, offset,
                                  index(plan.vector)));
        }
        auto ifOp = scf::IfOp::create(b, loc, holds, /*withElseRegion=*/true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        emitChunk(fixed);
        b.setInsertionPointToStart(ifOp.elseBlock());
        emitChunk(elsewhere);
      }
      llvm::append_range(sums, next);
      return sums;
    };
    SmallVector<Value> swept = forEachSweep(init, sweepBody);
    swept.resize(numSums);
    return swept;
  };

  // The row condition (getEpilogueRowCondition): the sweeps once for each
  // of its values, one branch per row rather than a select per element.
  Value condition = getEpilogueRowCondition(op);
  if (!condition)
    return emitSweeps({});
  Value value = cloneSlice(b, block, condition, [&](unsigned arg) {
    return getRowUniformArg(state, block, arg, results);
  });
  auto ifOp = scf::IfOp::create(b, loc, value, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  for (bool taken : {true, false}) {
    b.setInsertionPointToStart(taken ? ifOp.thenBlock() : ifOp.elseBlock());
    emitSweeps({{condition,
                 arith::ConstantIntOp::create(b, loc, b.getI1Type(), taken)}});
  }
  // No column sums (getEpilogueRowCondition).
  return {};
}

void KernelEmitter::emitFinalize(RowState &state, ValueRange results) {
  if (op.getFinalize().empty())
    return;
  SmallVector<Value> args = llvm::to_vector(state.scalars);
  llvm::append_range(args, results);
  SmallVector<Value> values =
      cloneElementwise(b, op.getFinalize().front(), args);
  // One thread per row writes the row's scalar outputs.
  Value writer = andOf(cmp(arith::CmpIPredicate::eq, threadInRow, index(0)),
                       state.rowValid);
  if (plan.cluster > 1)
    writer = andOf(writer, cmp(arith::CmpIPredicate::eq, rank, index(0)));
  if (plan.splits > 1)
    writer = andOf(writer, cmp(arith::CmpIPredicate::eq, split, index(0)));
  emitIf(writer, [&] {
    for (auto [i, output] : llvm::enumerate(op.getScalarOutputs())) {
      Type element = elementTypeOf(output);
      Value value = values[i];
      if (isa<FloatType>(element) && !element.isF32())
        value = arith::TruncFOp::create(b, loc, element, value);
      memref::StoreOp::create(b, loc, value, scalarOutputViews[i],
                              ValueRange{state.row});
    }
  });
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

void KernelEmitter::emitBody(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToEnd(&entry);
  bindScratch();
  bindParameters(entry);

  // Thread coordinates and the cluster's rows.
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  threadInRow = arith::RemUIOp::create(b, loc, tid, index(plan.threadsPerRow));
  rowInCta = arith::DivUIOp::create(b, loc, tid, index(plan.threadsPerRow));
  rank = plan.cluster > 1
             ? Value(gpu::ClusterBlockIdOp::create(b, loc, gpu::Dimension::x))
             : index(0);
  clusterIndex = arith::DivUIOp::create(b, loc, blockId, index(plan.cluster));
  rowGroup = clusterIndex;
  split = index(0);
  if (plan.splits > 1) {
    rowGroup = arith::DivUIOp::create(b, loc, clusterIndex, index(plan.splits));
    split = arith::RemUIOp::create(b, loc, clusterIndex, index(plan.splits));
  }
  sliceBase = mul(add(mul(split, index(plan.cluster)), rank), index(plan.slice));
  rowBegin = mul(rowGroup, rowsPerCluster);
  rowEnd = arith::MinUIOp::create(b, loc, add(rowBegin, rowsPerCluster), m);

  createOperandViews();
  createStagedViews();
  emitClusterStart();
  emitGridDependencyWait();
  loadBroadcastRegisters();

  auto rowLoop = scf::ForOp::create(
      b, loc, rowBegin, rowEnd, index(plan.rows), getInitialColumnSums(),
      [&](OpBuilder &builder, Location l, Value rowBase, ValueRange sums) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(builder.getInsertionBlock(),
                            builder.getInsertionPoint());
        RowState state = beginRow(rowBase);
        SmallVector<Value> results;
        for (unsigned stage = 0; stage < plan.numStages; ++stage)
          llvm::append_range(results, emitStage(stage, state, results));
        SmallVector<Value> nextSums = emitEpilogue(state, results, sums);
        emitFinalize(state, results);
        scf::YieldOp::create(b, loc, nextSums);
      });

  finishColumnSums(rowLoop.getResults());
  if (!launchesDependentsAtEntry())
    emitLaunchDependents();
  emitClusterEnd();
  gpu::ReturnOp::create(b, loc);
  foldColumnCompares();
}

void KernelEmitter::emitGridDependencyWait() {
  // Launched with programmatic stream serialization (the manifest's
  // dependent_launch), the grid may start while the kernel before it on the
  // stream still runs: everything before this touches only registers and
  // shared memory; wait here for that kernel's writes before the first
  // global access. Without the launch attribute this is a no-op.
  NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
  if (launchesDependentsAtEntry())
    emitLaunchDependents();
}

bool KernelEmitter::launchesDependentsAtEntry() const {
  // The next grid's CTAs then start on the SMs this one leaves idle and wait
  // there, so that its launch overlaps this grid's work (decode grid on an
  // H100: 1.16x against no dependent launch). With split rows they start
  // after the rows are done: at entry, rows split over 32 or 64 clusters
  // ran up to 1.16x slower than at the end (RESULTS.md, thirty-third
  // session).
  return plan.splits == 1;
}

void KernelEmitter::emitLaunchDependents() {
  // Lets the kernel after this one on the stream launch once every CTA of
  // this grid has executed it (or exited); a no-op for a kernel launched
  // without programmatic stream serialization after it.
  NVVM::GriddepcontrolOp::create(b, loc,
                                 NVVM::GridDepActionKind::launch_dependents);
}

gpu::GPUModuleOp KernelEmitter::emit(ModuleOp module, StringRef name) {
  MLIRContext *ctx = op.getContext();
  b.setInsertionPointToEnd(module.getBody());
  gpuModule = gpu::GPUModuleOp::create(b, loc, name);
  b.setInsertionPointToStart(gpuModule.getBody());
  createScratch();

  createParameters();
  SmallVector<Type> argTypes;
  for (const KernelParam &param : params)
    argTypes.push_back(param.kind == "ptr"
                           ? Type(LLVM::LLVMPointerType::get(ctx, 1))
                           : Type(b.getI64Type()));
  auto func =
      gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(plan.threads), 1, 1}));
  func.setKnownClusterSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(plan.cluster), 1, 1}));
  // Sweeps: the plan's occupancy, held by keeping ptxas within the
  // register budget (see KernelPlan::registerBudget).
  if (plan.enforceRegisterBudget)
    func->setAttr("nvvm.maxnreg", b.getI32IntegerAttr(plan.registerBudget));
  emitBody(func);
  return gpuModule;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// A symbol for the kernel of `op` under `plan`: workload, input type, N
/// and the tiling (cluster, threads, elements per thread, rows per CTA when
/// more than one, clusters per row when more than one, staging when not
/// registers, the exchange protocol when not asynchronous).
static std::string getKernelName(RowwiseOp op, const KernelPlan &plan) {
  // The verifier makes workload names identifiers.
  std::string workload = op.getWorkload().value_or("rowwise").str();
  Type element =
      cast<ShapedType>(op.getInputs().front().getType()).getElementType();
  std::string name =
      llvm::formatv("{0}_{1}_n{2}_c{3}t{4}e{5}", workload,
                    stringifyType(element), plan.n, plan.cluster, plan.threads,
                    plan.elems)
          .str();
  if (plan.rows > 1)
    name += llvm::formatv("r{0}", plan.rows).str();
  if (plan.splits > 1)
    name += llvm::formatv("s{0}", plan.splits).str();
  if (plan.staging != Staging::Registers)
    name += "_" + stringifyStaging(plan.staging).str();
  if (plan.exchange != Exchange::Async)
    name += "_" + stringifyExchange(plan.exchange).str();
  return name;
}

/// The row counts `op` uses `tiling` for.
static SmallVector<std::pair<int64_t, int64_t>> getRowRanges(RowwiseOp op,
                                                             TilingAttr tiling) {
  std::optional<ArrayAttr> variants = op.getVariants();
  if (!variants)
    return {{1, 0}};
  SmallVector<std::pair<int64_t, int64_t>> ranges;
  for (Attribute attr : *variants) {
    auto variant = cast<VariantAttr>(attr);
    if (variant.getTiling() == tiling)
      ranges.push_back({variant.getMinRows(), variant.getMaxRows()});
  }
  return ranges;
}

/// Gives every op a workload name that no earlier op of the module with the
/// same row length and input types has. Runtimes find an op's kernels by
/// (workload, N, input types), and two ops under one such key would mix
/// their variants' row ranges. A later unnamed op becomes rowwise_1,
/// rowwise_2, ...; a later named one gets the same suffix and a warning.
static void distinguishWorkloads(ArrayRef<RowwiseOp> ops) {
  llvm::StringSet<> taken;
  for (RowwiseOp op : ops) {
    std::string types;
    for (Value input : op.getInputs())
      types +=
          (stringifyType(cast<ShapedType>(input.getType()).getElementType()) +
           ",")
              .str();
    std::string key = llvm::formatv("|{0}|{1}", op.getRowLength(), types);
    std::string base = op.getWorkload().value_or("rowwise").str();
    std::string name = base;
    for (unsigned suffix = 1; taken.contains(name + key); ++suffix) {
      std::string tail = "_" + std::to_string(suffix);
      name = base.substr(0, RowwiseOp::kMaxWorkloadNameLength - tail.size()) +
             tail;
    }
    taken.insert(name + key);
    if (name == base)
      continue;
    if (op.getWorkload())
      mlir::emitWarning(op.getLoc())
          << "credit-cluster-tiling: workload '" << base
          << "' already names an op with N = " << op.getRowLength()
          << " and the same input types in this module; this "
             "op's kernels are listed as workload '"
          << name << "'";
    op.setWorkloadAttr(StringAttr::get(op.getContext(), name));
  }
}

namespace {
struct ClusterTilingPass
    : public TargetOptions<
          credit::impl::CreditClusterTilingBase<ClusterTilingPass>> {
  using TargetOptions::TargetOptions;

  std::string checkOptions() const override { return checkTarget(); }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ChipProfile chipProfile;
    std::optional<TargetInfo> target = loadTargetForRun(chipProfile);
    if (!target)
      return;
    SmallVector<RowwiseOp> ops;
    module.walk([&](RowwiseOp op) { ops.push_back(op); });

    // The manifests are the compiler's: what the input says there would
    // steer which binaries become artifacts and under what names.
    if (module->hasAttr(CreditDialect::kKernelsAttrName)) {
      module.emitError() << "credit-cluster-tiling: the module already has '"
                         << CreditDialect::kKernelsAttrName
                         << "', which only this pass sets (run it once per "
                            "module)";
      return signalPassFailure();
    }
    distinguishWorkloads(ops);
    SymbolTable symbols(module);
    SmallVector<NamedAttribute> manifests;
    for (RowwiseOp op : ops) {
      SmallVector<TilingAttr> tilings = op.getCompiledTilings();
      if (tilings.empty()) {
        op.emitError("credit-cluster-tiling: the op has no tiling; run "
                     "credit-choose-tiling first");
        return signalPassFailure();
      }
      SmallVector<Attribute> kernels;
      for (TilingAttr tiling : tilings) {
        std::string whyNot;
        std::optional<KernelPlan> plan =
            buildPlan(op, tiling, *target, &whyNot);
        if (!plan) {
          op.emitError() << "credit-cluster-tiling: cannot build " << tiling
                         << " on " << chip << ": " << whyNot;
          return signalPassFailure();
        }
        std::string base = getKernelName(op, *plan);
        std::string name = base;
        for (unsigned suffix = 1; symbols.lookup(name); ++suffix)
          name = base + "_" + std::to_string(suffix);

        KernelEmitter emitter(op, *plan);
        gpu::GPUModuleOp gpuModule = emitter.emit(module, name);
        symbols.insert(gpuModule);
        manifests.emplace_back(
            StringAttr::get(&getContext(), name),
            emitter.getManifest(name, getRowRanges(op, tiling),
                                getRowGroupLaunchShare(*plan, chipProfile)));
        kernels.push_back(
            SymbolRefAttr::get(&getContext(), name,
                               {FlatSymbolRefAttr::get(&getContext(), name)}));
      }
      op->setAttr(CreditDialect::kKernelsAttrName, ArrayAttr::get(&getContext(), kernels));
    }
    module->setAttr(CreditDialect::kKernelsAttrName,
                    DictionaryAttr::get(&getContext(), manifests));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));

    if (eraseHost) {
      for (Operation &nested :
           llvm::make_early_inc_range(module.getBody()->getOperations()))
        if (!isa<gpu::GPUModuleOp>(nested))
          nested.erase();
    }
  }
};
} // namespace
