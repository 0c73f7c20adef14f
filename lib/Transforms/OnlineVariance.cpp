//===- OnlineVariance.cpp - one stage for a sum and its squared deviations ===//
//
// Part of the CREDIT project.
//
// A variance written the textbook way takes two stages: the row sum S,
// then sums of (a - K)^2 with K a row value computed from S (the mean
// S / N). Each stage ends in a CTA, cluster and (for split rows) grid
// exchange, and with reread staging each stage reads the row again. The
// `sqdev` combiner computes the squared deviations from the row mean in
// the sum's own stage (partials merge by Chan's formula), so this pass
// merges such a pair of stages into one:
//
//   reduce [add] { yield a }  reduce [add] { yield (a - K)^2 }
//     =>  reduce [add, add, sqdev] { yield a, 1.0, a }
//
// and the regions after it read sum((a - K)^2) as Q + n * (S / n - K)^2
// (exact: the deviations from the mean sum to zero), with K computed
// there from the merged stage's results as the second stage computed it.
// A stage merges into the one before it when exactly one of its entries
// uses the earlier stage's results, as an `add` of d * d with d = a' - K
// (or K - a'), where a' is the same expression of the element arguments
// that an `add` of the earlier stage yields and K is computed from the
// earlier stages' results and constants only. Anything else is left as
// written.
//
//===----------------------------------------------------------------------===//

#include "Merge/StagePair.h"

#include "Credit/Dialect/CreditOps.h"
#include "Credit/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITONLINEVARIANCE
#include "Credit/Transforms/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;
using namespace mlir::credit::detail;

namespace {

/// Decides and performs the merge of stage `stage + 1` into `stage`.
class VarianceMerge : StagePair {
public:
  using StagePair::StagePair;

  /// Whether the merge keeps the op's meaning.
  bool isLegal();
  /// The op with the two stages merged; erases `op`.
  RowwiseOp rewrite(OpBuilder &b);

private:
  /// Matches d * d, d = a' - K or K - a', for the second stage's `value`;
  /// sets `sumPosition` and `center`.
  bool matchDeviation(Value value);
  /// Whether `value` (in the second stage) is computed from the results of
  /// the stages before it and constants only; collects its ops, each after
  /// those defining its operands.
  bool isRowValue(Value value, llvm::SetVector<Operation *> &ops);
  /// Where the merged stage yields the first stage's entry `k` and the
  /// second stage's entry `k` (not the deviation).
  unsigned firstPosition(unsigned k) const;
  unsigned secondPosition(unsigned k) const;
  /// Rewires the arguments of a region after the merged stage.
  void rewireLaterRegion(OpBuilder &b, Block &block, unsigned resultsBefore);

  /// Results of the stages before the first.
  unsigned earlierResults = 0;
  /// The deviation's entry in the second stage, the first stage's add it
  /// deviates from, K and the ops computing K.
  unsigned deviationEntry = 0;
  unsigned sumPosition = 0;
  Value center;
  llvm::SetVector<Operation *> centerOps;
};

} // namespace

bool VarianceMerge::isRowValue(Value value, llvm::SetVector<Operation *> &ops) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner() == &second &&
           arg.getArgNumber() + earlierResults >= first.getNumArguments();
  Operation *def = value.getDefiningOp();
  if (def->getBlock() != &second || def->getNumRegions() ||
      !llvm::all_of(def->getOperands(),
                    [&](Value operand) { return isRowValue(operand, ops); }))
    return false;
  ops.insert(def);
  return true;
}

bool VarianceMerge::matchDeviation(Value value) {
  auto square = value.getDefiningOp<arith::MulFOp>();
  if (!square || square.getLhs() != square.getRhs())
    return false;
  auto deviation = square.getLhs().getDefiningOp<arith::SubFOp>();
  if (!deviation)
    return false;
  Operation *yield = first.getTerminator();
  for (auto [element, row] :
       {std::pair(deviation.getLhs(), deviation.getRhs()),
        std::pair(deviation.getRhs(), deviation.getLhs())}) {
    if (usesFirstResults(element) || !usesFirstResults(row))
      continue;
    llvm::SetVector<Operation *> ops;
    if (!isRowValue(row, ops))
      continue;
    for (auto [k, kind] : llvm::enumerate(firstKinds)) {
      if (kind != CombinerKind::Add ||
          !isSameExpression(yield->getOperand(k), element))
        continue;
      sumPosition = k;
      center = row;
      // Operands first: clones see their operands defined.
      centerOps = std::move(ops);
      return true;
    }
  }
  return false;
}

bool VarianceMerge::isLegal() {
  earlierResults =
      first.getNumArguments() - op.getElementRegionArgTypes(0).size();
  Operation *yield = second.getTerminator();
  bool found = false;
  for (auto [k, kind] : llvm::enumerate(secondKinds)) {
    if (!usesFirstResults(yield->getOperand(k)))
      continue;
    if (found || kind != CombinerKind::Add ||
        !matchDeviation(yield->getOperand(k)))
      return false;
    deviationEntry = k;
    found = true;
  }
  return found;
}

unsigned VarianceMerge::firstPosition(unsigned k) const {
  // The sum moves last, before its count and the sqdev entry.
  if (k == sumPosition)
    return firstKinds.size() - 1;
  return k < sumPosition ? k : k - 1;
}

unsigned VarianceMerge::secondPosition(unsigned k) const {
  return firstKinds.size() + 2 + (k < deviationEntry ? k : k - 1);
}

void VarianceMerge::rewireLaterRegion(OpBuilder &b, Block &block,
                                      unsigned resultsBefore) {
  unsigned prefix = block.getNumArguments() - resultsBefore;
  unsigned base = prefix + earlierResults;
  unsigned oldCount = firstKinds.size() + secondKinds.size();
  Location loc = op.getLoc();
  SmallVector<BlockArgument> added;
  for (unsigned i = 0; i <= oldCount; ++i)
    added.push_back(
        block.insertArgument(base + oldCount + i, b.getF32Type(), loc));

  for (unsigned k = 0; k < firstKinds.size(); ++k)
    block.getArgument(base + k).replaceAllUsesWith(added[firstPosition(k)]);
  for (unsigned k = 0; k < secondKinds.size(); ++k)
    if (k != deviationEntry)
      block.getArgument(base + firstKinds.size() + k)
          .replaceAllUsesWith(added[secondPosition(k)]);
  BlockArgument squaresArg =
      block.getArgument(base + firstKinds.size() + deviationEntry);
  if (squaresArg.use_empty()) {
    block.eraseArguments(base, oldCount);
    return;
  }

  // K, computed here from the merged stage's results.
  b.setInsertionPointToStart(&block);
  IRMapping mapping;
  for (unsigned i = first.getNumArguments() - earlierResults;
       i < second.getNumArguments(); ++i) {
    unsigned result = i + earlierResults - first.getNumArguments();
    mapping.map(second.getArgument(i),
                result < earlierResults
                    ? block.getArgument(prefix + result)
                    : Value(added[firstPosition(result - earlierResults)]));
  }
  for (Operation *nested : centerOps)
    b.clone(*nested, mapping);
  Value rowCenter = mapping.lookup(center);
  // sum((a - K)^2) = Q + n * (S / n - K)^2.
  unsigned sum = firstKinds.size() - 1;
  Value count = added[sum + 1], m2 = added[sum + 2];
  Value mean = arith::DivFOp::create(b, loc, added[sum], count);
  Value offset = arith::SubFOp::create(b, loc, mean, rowCenter);
  Value squares = arith::AddFOp::create(
      b, loc, m2,
      arith::MulFOp::create(b, loc, count,
                            arith::MulFOp::create(b, loc, offset, offset)));
  squaresArg.replaceAllUsesWith(squares);
  block.eraseArguments(base, oldCount);
}

RowwiseOp VarianceMerge::rewrite(OpBuilder &b) {
  SmallVector<CombinerKind> merged(firstKinds.size() + secondKinds.size() + 1);
  for (auto [k, kind] : llvm::enumerate(firstKinds))
    merged[firstPosition(k)] = kind;
  merged[firstKinds.size()] = CombinerKind::Add;
  merged[firstKinds.size() + 1] = CombinerKind::SqDev;
  for (auto [k, kind] : llvm::enumerate(secondKinds))
    if (k != deviationEntry)
      merged[secondPosition(k)] = kind;
  // Results of all stages up to the second, before the merge.
  unsigned resultsBefore = earlierResults + merged.size() - 1;
  RowwiseOp fused = createMergedOp(b, merged);

  // The merged stage: the first's entries, the count and sqdev, then the
  // second's entries that do not use the first's results, with their ops.
  Location loc = op.getLoc();
  Operation *yield = first.getTerminator();
  b.setInsertionPoint(yield);
  IRMapping mapping;
  for (unsigned i = 0; i < first.getNumArguments(); ++i)
    mapping.map(second.getArgument(i), first.getArgument(i));
  for (Operation &nested : second.without_terminator())
    if (!llvm::any_of(nested.getResults(),
                      [&](Value result) { return usesFirstResults(result); }))
      b.clone(nested, mapping);
  SmallVector<Value> values(merged.size());
  for (unsigned k = 0; k < firstKinds.size(); ++k)
    values[firstPosition(k)] = yield->getOperand(k);
  values[firstKinds.size()] = arith::ConstantOp::create(
      b, loc, b.getF32Type(), b.getF32FloatAttr(1.0f));
  values[firstKinds.size() + 1] = yield->getOperand(sumPosition);
  Operation *secondYield = second.getTerminator();
  for (unsigned k = 0; k < secondKinds.size(); ++k)
    if (k != deviationEntry)
      values[secondPosition(k)] = mapping.lookup(secondYield->getOperand(k));
  YieldOp::create(b, yield->getLoc(), values);
  yield->erase();

  // Every later region reads the merged results.
  for (unsigned s = stage + 1; s < fused.getNumStages(); ++s) {
    rewireLaterRegion(b, fused.getStages()[s].front(), resultsBefore);
    resultsBefore += fused.getStageCombiners(s).size();
  }
  for (Region *region : {&fused.getEpilogue(), &fused.getFinalize()})
    if (!region->empty())
      rewireLaterRegion(b, region->front(), resultsBefore);

  op->replaceAllUsesWith(fused);
  op->erase();
  return fused;
}

namespace {
struct CreditOnlineVariancePass
    : public credit::impl::CreditOnlineVarianceBase<CreditOnlineVariancePass> {
  void runOnOperation() override { mergeStages<VarianceMerge>(getOperation()); }
};
} // namespace
