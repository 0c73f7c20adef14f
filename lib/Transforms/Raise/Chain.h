//===- Chain.h - a reduction-reuse chain of linalg ops ----------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// credit-raise-linalg works in two steps, one file each:
//
//   ChainAnalysis.cpp  which ops form a chain around a row reduction, where
//                      each of its tensors lives (rows, per-row values,
//                      broadcast vectors), its reductions and their stages,
//                      its operands and outputs; nothing is changed
//   BuildRowwise.cpp   the credit.rowwise op of an analysed chain, whose
//                      regions are the chain's payloads cloned element by
//                      element, and the rewiring of the chain's users
//
// A chain of rank R reduces the last of R loops, of static extent N; every
// leading dimension is a row dimension, collapsed into the op's M.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_LIB_TRANSFORMS_RAISE_CHAIN_H
#define CREDIT_LIB_TRANSFORMS_RAISE_CHAIN_H

#include "Credit/Dialect/CreditOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace credit {
namespace raise {

/// Where a tensor of a chain lives.
enum class Space {
  Unknown,
  /// [lead..., N]: one element per row and column.
  Row,
  /// [lead...] or [lead..., 1]: one value per row.
  PerRow,
  /// [N]: one value per column, the same for every row.
  Column,
  /// A 0-d tensor or a scalar: one value.
  Uniform,
};

/// A reduction of the last loop in a chain.
struct Reduction {
  linalg::LinalgOp op;
  CombinerKind kind = CombinerKind::Add;
  /// The payload op that folds an element into the accumulator, and the
  /// element it folds.
  Operation *combiner = nullptr;
  Value element;
  /// maxnumf/minnumf: NaN elements are skipped; the stage combines the
  /// others, and `needsFlag` when the accumulator's initial value may be
  /// NaN (then whether any element was not NaN is a second value).
  bool ignoresNaN = false;
  bool needsFlag = false;
  /// The initial value is the combiner's identity: the stage's result is
  /// the reduction's.
  bool initIsIdentity = false;
  unsigned stage = 0;
  /// Positions among all stage results.
  unsigned slot = 0, flagSlot = 0;
};

/// A chain of linalg ops around one or more row reductions, analysed.
struct Chain {
  Block *block = nullptr;
  int64_t rank = 0, n = 0;
  /// The chain's ops, in block order.
  SmallVector<Operation *> members;
  llvm::SmallPtrSet<Operation *, 16> memberSet;
  DenseMap<Value, Space> spaces;
  SmallVector<Reduction> reductions;
  DenseMap<Operation *, unsigned> reductionOf;
  /// Operands from outside the chain, by the rowwise operand group they
  /// become: row inputs, broadcast inputs, per-row scalar inputs.
  llvm::SetVector<Value> rowInputs, broadcasts, scalars;
  /// Splat constants from outside the chain, inlined where they are used.
  DenseMap<Value, TypedAttr> constants;
  /// Results of the chain used outside it: row and per-row outputs.
  llvm::SetVector<Value> rowOutputs, scalarOutputs;
  /// The combiner kinds of each stage, in slot order.
  SmallVector<SmallVector<CombinerKind>> stageCombiners;

  bool isMember(Operation *op) const { return op && memberSet.contains(op); }
  bool isMemberResult(Value value) const {
    return isMember(value.getDefiningOp());
  }
  const Reduction *getReduction(Operation *op) const {
    auto it = reductionOf.find(op);
    return it == reductionOf.end() ? nullptr : &reductions[it->second];
  }
  unsigned getNumStages() const { return stageCombiners.size(); }
  unsigned getNumSlots() const {
    unsigned slots = 0;
    for (const SmallVector<CombinerKind> &kinds : stageCombiners)
      slots += kinds.size();
    return slots;
  }
  /// The first slot of stage `stage` (the number of results before it).
  unsigned getFirstSlot(unsigned stage) const {
    unsigned slots = 0;
    for (unsigned i = 0; i < stage; ++i)
      slots += stageCombiners[i].size();
    return slots;
  }
};

/// Whether `op` reduces the last of its loops into a per-row value the way
/// a chain can start from (the seeds of credit-raise-linalg).
bool isRowReduction(linalg::LinalgOp op);

/// Why a chain is not raised: the op that stops it, and the reason.
struct Diagnosis {
  Operation *op = nullptr;
  std::string reason;
};

/// Collects the chain around the row reduction `seed` and analyses it.
/// Every op considered part of the chain is added to `visited`, whether or
/// not the chain can be raised; nothing is returned when it cannot, and
/// `whyNot` says why.
std::optional<Chain> analyzeChain(linalg::LinalgOp seed,
                                  llvm::SmallPtrSetImpl<Operation *> &visited,
                                  Diagnosis *whyNot = nullptr);

/// Replaces the chain by one credit.rowwise op named `workload` and returns
/// it.
RowwiseOp buildRowwise(RewriterBase &rewriter, Chain &chain,
                       StringRef workload);

//===--- Shapes shared with the linalg.softmax raising ------------------===//

/// [lead..., N] -> [M, N], or `value` itself when it is 2-D.
Value collapseRows(OpBuilder &b, Location loc, Value value);
/// [lead...] or [lead..., 1] -> [M], or `value` itself when it is 1-D.
Value collapsePerRow(OpBuilder &b, Location loc, Value value);
/// An empty [M, N] (or, with `n` 0, [M]) tensor of `element`, with M the
/// rows of the 2-D `rows`.
Value createRowsLike(OpBuilder &b, Location loc, Value rows, int64_t n,
                     Type element);
/// `value` ([M, N] or [M]) reshaped to `type`, whose leading dimensions
/// are those of the row tensor `like`.
Value expandRows(OpBuilder &b, Location loc, Value value,
                 RankedTensorType type, Value like);

} // namespace raise
} // namespace credit
} // namespace mlir

#endif // CREDIT_LIB_TRANSFORMS_RAISE_CHAIN_H
