//===- SplitStages.cpp - a row-wise op split at its reduction stage -------===//
//
// Part of the CREDIT project.
//
// When every row is sharded across devices, the row's reduction needs the
// shards' partial values from all devices before any epilogue can run. This
// pass splits a one-stage `credit.rowwise` op at its stage:
//
//   partial: reduce [kinds] { ... } finalize { yield the stage values }
//   combine: (no stage) epilogue/finalize { v = combine(p_0, ..., p_S-1);
//                                           original body on v }
//
// The combination is createCombineAll, the arithmetic of the kernels'
// combiners (their exchanges apply it lane by lane with shuffles), in
// shard order on every device. It depends on the row only, so the kernel
// computes it once per row.
//
//===----------------------------------------------------------------------===//

#include "Credit/Dialect/Combiners.h"
#include "Credit/Dialect/CreditOps.h"
#include "Credit/Support/CheckedOptions.h"
#include "Credit/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITSPLITSTAGES
#include "Credit/Transforms/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;

namespace {

/// The most shards a combine kernel takes partials from: its parameters
/// are one pointer per shard and entry.
constexpr unsigned kMaxShards = 64;

/// The f32 per-row type of the op's rows: tensor<Mxf32> or memref<Mxf32>.
Type getPerRowType(RowwiseOp op) {
  auto rows = cast<ShapedType>(op.getInputs().front().getType());
  Type f32 = Float32Type::get(op.getContext());
  if (op.hasBufferSemantics())
    return MemRefType::get({rows.getDimSize(0)}, f32);
  return RankedTensorType::get({rows.getDimSize(0)}, f32);
}

/// The workload name of a part: the op's own with a suffix, within the
/// dialect's length limit.
StringAttr getPartName(RowwiseOp op, StringRef suffix) {
  std::string base = op.getWorkload().value_or("rowwise").str();
  base.resize(std::min(base.size(),
                       RowwiseOp::kMaxWorkloadNameLength - suffix.size()));
  return StringAttr::get(op.getContext(), base + suffix.str());
}

/// Appends `count` arguments of `type` to `func`; returns them.
SmallVector<Value> appendArguments(func::FuncOp func, Type type,
                                   unsigned count, Location loc) {
  Block &entry = func.getBody().front();
  SmallVector<Value> added;
  for (unsigned i = 0; i < count; ++i)
    added.push_back(entry.addArgument(type, loc));
  return added;
}

/// An empty block with `types` arguments in `region`; `b` inserts at its
/// start.
Block *createBlock(OpBuilder &b, Region &region, TypeRange types,
                   Location loc) {
  return b.createBlock(&region, region.end(), types,
                       SmallVector<Location>(types.size(), loc));
}

/// Sets `func`'s type from its entry block's arguments and what its
/// returns return.
void updateFunctionType(func::FuncOp func) {
  SmallVector<Type> results;
  func.walk([&](func::ReturnOp ret) {
    results.assign(ret.getOperandTypes().begin(), ret.getOperandTypes().end());
  });
  func.setType(FunctionType::get(func.getContext(),
                                 func.getBody().front().getArgumentTypes(),
                                 results));
}

class StageSplit {
public:
  StageSplit(RowwiseOp op, func::FuncOp func) : op(op), func(func) {}

  /// Whether the op can be split; emits why not.
  LogicalResult check(bool partial);
  void buildPartial(OpBuilder &b);
  void buildCombine(OpBuilder &b, unsigned shards);

private:
  /// Clones `from`'s body into `to`. Both blocks start with the same
  /// `leading` arguments; `from` then has the stage's results, `to` the
  /// shards' partials, which are combined into the results first.
  void cloneWithCombinedResults(Block &from, Block &to, unsigned leading,
                                unsigned shards, OpBuilder &b);

  RowwiseOp op;
  func::FuncOp func;
};

} // namespace

LogicalResult StageSplit::check(bool partial) {
  if (op.getNumStages() != 1)
    return op.emitOpError()
           << "credit-split-stages: a row split across shards must have "
              "exactly one reduction stage (the shards' partials meet once), "
              "this op has "
           << op.getNumStages();
  // The partials become arguments of the function.
  if (!func)
    return op.emitOpError()
           << "credit-split-stages: the op must be inside a func.func";
  if (partial)
    for (OpOperand &use : op->getUses())
      if (!isa<func::ReturnOp>(use.getOwner()))
        return op.emitOpError()
               << "credit-split-stages: the partial part does not compute "
                  "the op's results, so they may only be returned; one is "
                  "used by '"
               << use.getOwner()->getName() << "'";
  return success();
}

void StageSplit::buildPartial(OpBuilder &b) {
  Location loc = op.getLoc();
  unsigned entries = op.getStageCombiners(0).size();
  Type perRow = getPerRowType(op);
  SmallVector<Value> destinations = appendArguments(func, perRow, entries, loc);
  SmallVector<Type> resultTypes;
  if (!op.hasBufferSemantics())
    resultTypes.assign(entries, perRow);

  b.setInsertionPoint(op);
  auto partial = RowwiseOp::create(
      b, loc, resultTypes, op.getInputs(), op.getBroadcasts(), op.getScalars(),
      ValueRange(), destinations, ValueRange(), op.getCombiners(),
      getPartName(op, "_partial"), nullptr, nullptr, nullptr, 1);
  partial.getStages()[0].takeBody(op.getStages()[0]);
  Block *finalize = createBlock(b, partial.getFinalize(),
                                partial.getFinalizeArgTypes(), loc);
  YieldOp::create(b, loc,
                  finalize->getArguments().take_back(entries));

  // The function returns the partials instead of the op's results.
  if (!op.hasBufferSemantics()) {
    func.walk([&](func::ReturnOp ret) {
      SmallVector<Value> returned;
      for (Value value : ret.getOperands())
        if (value.getDefiningOp() != op)
          returned.push_back(value);
      llvm::append_range(returned, partial.getResults());
      ret->setOperands(returned);
    });
  }
  op->erase();
  updateFunctionType(func);
}

void StageSplit::cloneWithCombinedResults(Block &from, Block &to,
                                          unsigned leading, unsigned shards,
                                          OpBuilder &b) {
  SmallVector<CombinerKind> kinds = op.getStageCombiners(0);
  unsigned entries = kinds.size();
  b.setInsertionPointToStart(&to);
  SmallVector<SmallVector<Value>> tuples;
  for (unsigned shard = 0; shard < shards; ++shard)
    tuples.push_back(llvm::map_to_vector(
        to.getArguments().slice(leading + shard * entries, entries),
        [](BlockArgument arg) -> Value { return arg; }));
  SmallVector<Value> combined =
      createCombineAll(b, op.getLoc(), kinds, tuples);

  IRMapping mapping;
  for (unsigned i = 0; i < leading; ++i)
    mapping.map(from.getArgument(i), to.getArgument(i));
  for (unsigned k = 0; k < entries; ++k)
    mapping.map(from.getArgument(leading + k), combined[k]);
  for (Operation &nested : from)
    b.clone(nested, mapping);
}

void StageSplit::buildCombine(OpBuilder &b, unsigned shards) {
  Location loc = op.getLoc();
  unsigned entries = op.getStageCombiners(0).size();
  SmallVector<Value> partials =
      appendArguments(func, getPerRowType(op), shards * entries, loc);
  SmallVector<Value> scalars(op.getScalars());
  llvm::append_range(scalars, partials);

  b.setInsertionPoint(op);
  auto combine = RowwiseOp::create(
      b, loc, op.getResultTypes(), op.getInputs(), op.getBroadcasts(),
      scalars, op.getOutputs(), op.getScalarOutputs(),
      op.getColumnSumOutputs(), b.getArrayAttr({}),
      getPartName(op, "_combine"), nullptr, nullptr, nullptr, 0);

  // Element regions: (j, rows, broadcasts, scalars, stage results) become
  // (j, rows, broadcasts, scalars, partials); finalize regions likewise
  // without the leading element arguments.
  if (!op.getEpilogue().empty()) {
    Block *epilogue = createBlock(b, combine.getEpilogue(),
                                  combine.getElementRegionArgTypes(0), loc);
    cloneWithCombinedResults(op.getEpilogue().front(), *epilogue,
                             op.getNumElementArgs() + op.getScalars().size(),
                             shards, b);
  }
  if (!op.getFinalize().empty()) {
    Block *finalize = createBlock(b, combine.getFinalize(),
                                  combine.getFinalizeArgTypes(), loc);
    cloneWithCombinedResults(op.getFinalize().front(), *finalize,
                             op.getScalars().size(), shards, b);
  }
  op->replaceAllUsesWith(combine);
  op->erase();
  updateFunctionType(func);
}

std::string mlir::credit::checkSplitStagesOptions(StringRef part,
                                                  unsigned shards) {
  if (part != "partial" && part != "combine")
    return "part must be 'partial' or 'combine', got '" + part.str() + "'";
  if (shards < 1 || shards > kMaxShards)
    return "shards must be from 1 to " + std::to_string(kMaxShards) +
           ", got " + std::to_string(shards);
  if (part == "partial" && shards != 1)
    return "shards is an option of the combine part";
  return "";
}

namespace {
struct CreditSplitStagesPass
    : public CheckedOptions<
          credit::impl::CreditSplitStagesBase<CreditSplitStagesPass>> {
  using CheckedOptions::CheckedOptions;

  std::string checkOptions() const override {
    return checkSplitStagesOptions(part, shards);
  }

  void runOnOperation() override {
    if (!optionsAreValid())
      return;
    bool partial = part == "partial";
    SmallVector<RowwiseOp> ops;
    getOperation()->walk([&](RowwiseOp op) { ops.push_back(op); });
    OpBuilder b(&getContext());
    for (RowwiseOp op : ops) {
      StageSplit split(op, op->getParentOfType<func::FuncOp>());
      if (failed(split.check(partial)))
        return signalPassFailure();
      if (partial)
        split.buildPartial(b);
      else
        split.buildCombine(b, shards);
    }
  }
};
} // namespace
