//===- StagePair.h - two consecutive reduction stages to merge --*- C++ -*-===//
//
// Part of the CREDIT project.
//
// What credit-online-softmax and credit-online-variance share: the question
// of which values of a stage depend on the stage before it, whether two
// expressions of the stages compute the same thing from the same element
// arguments, and the op with two stages made one.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_LIB_TRANSFORMS_MERGE_STAGEPAIR_H
#define CREDIT_LIB_TRANSFORMS_MERGE_STAGEPAIR_H

#include "Credit/Dialect/CreditOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace credit {
namespace detail {

/// Stages `stage` (first) and `stage + 1` (second) of a `credit.rowwise`.
class StagePair {
public:
  StagePair(RowwiseOp op, unsigned stage);

  /// Whether `value` (in the second stage) uses a result of the first.
  bool usesFirstResults(Value value);
  /// Whether the second stage's argument `arg` is a result of the first.
  bool isFirstResult(BlockArgument arg) const;
  /// Whether `later` (in the second stage) computes what `earlier` (in the
  /// first) does from the same element arguments.
  bool isSameExpression(Value earlier, Value later);

  /// A new op, before `op`, with the two stages' combiner lists replaced
  /// by `merged` and every region of `op` but the second stage, which
  /// stays in `op`: the merged stage's region holds `first`, for the
  /// caller to complete.
  RowwiseOp createMergedOp(OpBuilder &b, ArrayRef<CombinerKind> merged);

  RowwiseOp op;
  unsigned stage;
  Block &first, &second;
  SmallVector<CombinerKind> firstKinds, secondKinds;

private:
  DenseMap<Value, bool> dependence;
};

/// Merges stage pairs of every `credit.rowwise` under `root` with `Merge`
/// (a StagePair with isLegal() and rewrite(b) returning the new op) until
/// no pair merges; each merge removes a stage.
template <typename Merge> void mergeStages(Operation *root) {
  SmallVector<RowwiseOp> ops;
  root->walk([&](RowwiseOp op) { ops.push_back(op); });
  OpBuilder b(root->getContext());
  for (RowwiseOp op : ops) {
    for (unsigned stage = 0; stage + 1 < op.getNumStages();) {
      Merge merge(op, stage);
      if (!merge.isLegal()) {
        ++stage;
        continue;
      }
      op = merge.rewrite(b);
    }
  }
}

} // namespace detail
} // namespace credit
} // namespace mlir

#endif // CREDIT_LIB_TRANSFORMS_MERGE_STAGEPAIR_H
