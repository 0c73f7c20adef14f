//===- StagePair.cpp - two consecutive reduction stages to merge ----------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "StagePair.h"

#include "mlir/IR/OperationSupport.h"

using namespace mlir;
using namespace mlir::credit;
using namespace mlir::credit::detail;

StagePair::StagePair(RowwiseOp op, unsigned stage)
    : op(op), stage(stage), first(op.getStages()[stage].front()),
      second(op.getStages()[stage + 1].front()),
      firstKinds(op.getStageCombiners(stage)),
      secondKinds(op.getStageCombiners(stage + 1)) {}

bool StagePair::isFirstResult(BlockArgument arg) const {
  return arg.getOwner() == &second &&
         arg.getArgNumber() >= first.getNumArguments();
}

bool StagePair::usesFirstResults(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return isFirstResult(arg);
  if (auto it = dependence.find(value); it != dependence.end())
    return it->second;
  // The defining op's operands and the values its regions capture.
  Operation *def = value.getDefiningOp();
  bool uses = false;
  def->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      Operation *from = isa<BlockArgument>(operand)
                            ? operand.getParentBlock()->getParentOp()
                            : operand.getDefiningOp();
      bool inside = nested != def && def->isAncestor(from);
      uses = uses || (!inside && usesFirstResults(operand));
    }
  });
  dependence[value] = uses;
  return uses;
}

bool StagePair::isSameExpression(Value earlier, Value later) {
  auto earlierArg = dyn_cast<BlockArgument>(earlier);
  auto laterArg = dyn_cast<BlockArgument>(later);
  if (earlierArg || laterArg)
    return earlierArg && laterArg && earlierArg.getOwner() == &first &&
           laterArg.getOwner() == &second &&
           earlierArg.getArgNumber() == laterArg.getArgNumber();
  Operation *lhs = earlier.getDefiningOp(), *rhs = later.getDefiningOp();
  if (lhs->getNumRegions() || rhs->getNumRegions() ||
      cast<OpResult>(earlier).getResultNumber() !=
          cast<OpResult>(later).getResultNumber())
    return false;
  return OperationEquivalence::isEquivalentTo(
      lhs, rhs,
      [&](Value a, Value b) { return success(isSameExpression(a, b)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

RowwiseOp StagePair::createMergedOp(OpBuilder &b,
                                    ArrayRef<CombinerKind> merged) {
  SmallVector<Attribute> lists(op.getCombiners().begin(),
                               op.getCombiners().end());
  lists[stage] = b.getArrayAttr(
      llvm::map_to_vector(merged, [&](CombinerKind kind) -> Attribute {
        return CombinerKindAttr::get(op.getContext(), kind);
      }));
  lists.erase(lists.begin() + stage + 1);

  b.setInsertionPoint(op);
  auto fused = RowwiseOp::create(
      b, op.getLoc(), op.getResultTypes(), op.getInputs(), op.getBroadcasts(),
      op.getScalars(), op.getOutputs(), op.getScalarOutputs(),
      op.getColumnSumOutputs(), b.getArrayAttr(lists), op.getWorkloadAttr(),
      op.getTilingAttr(), op.getVariantsAttr(), op.getCostAttr(),
      op.getNumStages() - 1);
  // The same computation: what was said about the op (a build driver's
  // credit.registers, say) holds for the fused op.
  fused->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  fused.getEpilogue().takeBody(op.getEpilogue());
  fused.getFinalize().takeBody(op.getFinalize());
  for (unsigned s = 0, target = 0; s < op.getNumStages(); ++s)
    if (s != stage + 1)
      fused.getStages()[target++].takeBody(op.getStages()[s]);
  return fused;
}
