//===- OnlineSoftmax.cpp - one stage for a maximum and its exp sums -------===//
//
// Part of the CREDIT project.
//
// Softmax written the textbook way takes two stages: the row maximum M,
// then sums of exp(a - M). Each stage ends in a CTA, cluster and (for split
// rows) grid exchange, and with reread staging each stage reads the row
// again. The `addexp` combiner computes those sums in the maximum's own
// stage by rescaling partial sums to the running maximum, so this pass
// merges such a pair of stages into one:
//
//   reduce [max] { yield a }  reduce [add] { yield exp(a - M) * w }
//     =>  reduce [max, addexp] { yield a, w }
//
// The merged stage yields the same values in the same order, so later
// regions are untouched. A stage merges into the one before it when each
// of its entries is either independent of the earlier stage's results or
// an `add` of exp(a' - M) (times a weight w independent of them), where M
// is the last `max` of the earlier stage, a' is the same expression of the
// element arguments that that max yields, and no `max` of its own stage
// comes before the entry. Anything else is left as written.
//
//===----------------------------------------------------------------------===//

#include "Merge/StagePair.h"

#include "Credit/Dialect/Combiners.h"
#include "Credit/Dialect/CreditOps.h"
#include "Credit/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITONLINESOFTMAX
#include "Credit/Transforms/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;
using namespace mlir::credit::detail;

namespace {

/// An entry of the later stage rewritten to addexp: the ops it no longer
/// needs and the weight it yields (null for 1).
struct ExpTerm {
  SmallVector<Operation *> chain;
  Value weight;
};

/// Decides and performs the merge of stage `stage + 1` into `stage`.
class StageMerge : StagePair {
public:
  using StagePair::StagePair;

  /// Whether the merge keeps the op's meaning.
  bool isLegal();
  /// The op with the two stages merged; erases `op`.
  RowwiseOp rewrite(OpBuilder &b);

private:
  /// Matches exp(a' - M) or exp(a' - M) * w for entry `value`.
  std::optional<ExpTerm> matchExpTerm(Value value);

  /// The first stage's last max, and the second stage's argument for it.
  unsigned maxPosition = 0;
  BlockArgument maxResult;
  /// Per entry of the second stage, its exp term if it becomes addexp.
  SmallVector<std::optional<ExpTerm>> terms;
};

} // namespace

std::optional<ExpTerm> StageMerge::matchExpTerm(Value value) {
  ExpTerm term;
  Operation *def = value.getDefiningOp();
  if (auto mul = dyn_cast_if_present<arith::MulFOp>(def)) {
    for (auto [exp, weight] : {std::pair(mul.getLhs(), mul.getRhs()),
                               std::pair(mul.getRhs(), mul.getLhs())}) {
      if (usesFirstResults(weight) || !exp.getDefiningOp<math::ExpOp>())
        continue;
      term.chain.push_back(mul);
      term.weight = weight;
      def = exp.getDefiningOp();
      break;
    }
  }
  auto exp = dyn_cast_if_present<math::ExpOp>(def);
  if (!exp || exp.getFastmath() != arith::FastMathFlags::none)
    return std::nullopt;
  auto sub = exp.getOperand().getDefiningOp<arith::SubFOp>();
  if (!sub || sub.getFastmath() != arith::FastMathFlags::none ||
      sub.getRhs() != maxResult || usesFirstResults(sub.getLhs()) ||
      !isSameExpression(first.getTerminator()->getOperand(maxPosition),
                        sub.getLhs()))
    return std::nullopt;
  term.chain.push_back(exp);
  term.chain.push_back(sub);
  return term;
}

bool StageMerge::isLegal() {
  auto last = llvm::find(llvm::reverse(firstKinds), CombinerKind::Max);
  if (last == firstKinds.rend())
    return false;
  maxPosition = std::distance(last, firstKinds.rend()) - 1;
  maxResult = second.getArgument(first.getNumArguments() + maxPosition);

  Operation *yield = second.getTerminator();
  bool maxBefore = false;
  bool anyTerm = false;
  llvm::SmallPtrSet<Operation *, 16> removed;
  for (auto [k, kind] : llvm::enumerate(secondKinds)) {
    Value value = yield->getOperand(k);
    terms.push_back(std::nullopt);
    if (!usesFirstResults(value)) {
      maxBefore = maxBefore || kind == CombinerKind::Max;
      continue;
    }
    if (kind != CombinerKind::Add || maxBefore)
      return false;
    terms.back() = matchExpTerm(value);
    if (!terms.back())
      return false;
    removed.insert(terms.back()->chain.begin(), terms.back()->chain.end());
    anyTerm = true;
  }
  if (!anyTerm)
    return false;
  // Nothing else may use the first stage's results: the merged stage has
  // no such arguments.
  for (Operation &nested : second.without_terminator())
    if (!removed.contains(&nested))
      for (Value result : nested.getResults())
        if (usesFirstResults(result))
          return false;
  return true;
}

RowwiseOp StageMerge::rewrite(OpBuilder &b) {
  SmallVector<CombinerKind> merged(firstKinds);
  for (auto [k, kind] : llvm::enumerate(secondKinds))
    merged.push_back(terms[k] ? CombinerKind::AddExp : kind);
  RowwiseOp fused = createMergedOp(b, merged);

  // The second stage's body joins the first's, without the chains that
  // used the maximum; its element arguments are the first's.
  Block &block = fused.getStages()[stage].front();
  Operation *yield = block.getTerminator();
  IRMapping mapping;
  for (unsigned i = 0; i < first.getNumArguments(); ++i)
    mapping.map(second.getArgument(i), block.getArgument(i));
  llvm::SmallPtrSet<Operation *, 16> removed;
  for (const std::optional<ExpTerm> &term : terms)
    if (term)
      removed.insert(term->chain.begin(), term->chain.end());
  b.setInsertionPoint(yield);
  for (Operation &nested : second.without_terminator())
    if (!removed.contains(&nested))
      b.clone(nested, mapping);
  SmallVector<Value> values(yield->getOperands());
  Value one;
  for (auto [k, term] : llvm::enumerate(terms)) {
    if (!term) {
      values.push_back(
          mapping.lookup(second.getTerminator()->getOperand(k)));
      continue;
    }
    if (term->weight) {
      values.push_back(mapping.lookup(term->weight));
      continue;
    }
    if (!one)
      one = arith::ConstantOp::create(b, op.getLoc(), b.getF32Type(),
                                      b.getF32FloatAttr(1.0f));
    values.push_back(one);
  }
  YieldOp::create(b, yield->getLoc(), values);
  yield->erase();

  op->replaceAllUsesWith(fused);
  op->erase();
  return fused;
}

namespace {
struct CreditOnlineSoftmaxPass
    : public credit::impl::CreditOnlineSoftmaxBase<CreditOnlineSoftmaxPass> {
  void runOnOperation() override { mergeStages<StageMerge>(getOperation()); }
};
} // namespace
