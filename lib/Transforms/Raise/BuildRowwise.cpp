//===- BuildRowwise.cpp - the credit.rowwise op of a linalg chain ---------===//
//
// Part of the CREDIT project.
//
// The regions of the new op compute the chain one element (or one row) at
// a time: the value of a chain tensor in a region is its producer's
// payload, cloned with the payload's arguments replaced by the values of
// the producer's operands there, down to the region's arguments (the
// op's inputs and the results of earlier stages). Values keep the types
// the payloads compute in; only the region boundary converts between them
// and the op's f32 compute type, which is exact for f16 and bf16.
//
//===----------------------------------------------------------------------===//

#include "Chain.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::credit;
using namespace mlir::credit::raise;

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

static SmallVector<ReassociationIndices> groupLeading(int64_t rank,
                                                      int64_t leading) {
  ReassociationIndices lead;
  for (int64_t i = 0; i < leading; ++i)
    lead.push_back(i);
  SmallVector<ReassociationIndices> groups = {lead};
  for (int64_t i = leading; i < rank; ++i)
    groups.push_back({i});
  return groups;
}

Value mlir::credit::raise::collapseRows(OpBuilder &b, Location loc,
                                        Value value) {
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  if (rank == 2)
    return value;
  return tensor::CollapseShapeOp::create(b, loc, value,
                                         groupLeading(rank, rank - 1));
}

Value mlir::credit::raise::collapsePerRow(OpBuilder &b, Location loc,
                                          Value value) {
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  if (rank == 1)
    return value;
  return tensor::CollapseShapeOp::create(b, loc, value,
                                         groupLeading(rank, rank));
}

Value mlir::credit::raise::createRowsLike(OpBuilder &b, Location loc,
                                          Value rows, int64_t n,
                                          Type element) {
  SmallVector<OpFoldResult> sizes = {tensor::getMixedSize(b, loc, rows, 0)};
  if (n)
    sizes.push_back(b.getIndexAttr(n));
  return tensor::EmptyOp::create(b, loc, sizes, element);
}

Value mlir::credit::raise::expandRows(OpBuilder &b, Location loc, Value value,
                                      RankedTensorType type, Value like) {
  if (value.getType() == type)
    return value;
  int64_t rank = type.getRank();
  bool rows = cast<RankedTensorType>(value.getType()).getRank() == 2;
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0; i < rank; ++i) {
    if (!type.isDynamicDim(i))
      sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
    else
      sizes.push_back(tensor::getMixedSize(b, loc, like, i));
  }
  return tensor::ExpandShapeOp::create(
      b, loc, type, value,
      groupLeading(rank, rows ? rank - 1 : rank), sizes);
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

namespace {
enum class RegionRole { Stage, Epilogue, Finalize };

/// Computes chain values in one region of the new op.
class RegionBuilder {
public:
  RegionBuilder(Chain &chain, Block *block, RegionRole kind, Location loc)
      : chain(chain), b(block, block->end()), block(block), kind(kind),
        loc(loc) {}

  /// The value of `tensor` at the region's element (or row).
  Value get(Value tensor);
  /// The element reduction `reduction` folds, at the region's element.
  Value getElement(const Reduction &reduction);
  /// `value` in the compute type the region yields (f32 for floats).
  Value toComputeType(Value value) {
    if (isa<FloatType>(value.getType()) && !value.getType().isF32())
      return arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return value;
  }
  OpBuilder &builder() { return b; }

private:
  static unsigned indexOf(const llvm::SetVector<Value> &values, Value value) {
    return llvm::find(values, value) - values.begin();
  }
  /// The block argument with the result in slot `slot`.
  Value getSlot(unsigned slot) {
    unsigned first = chain.scalars.size();
    if (kind != RegionRole::Finalize)
      first += 1 + chain.rowInputs.size() + chain.broadcasts.size();
    return block->getArgument(first + slot);
  }
  Value getArgument(Value external);
  Value getReductionResult(const Reduction &reduction);
  Value getCaptured(Value value);
  /// Clones the payload of `op` but for `skip`; returns the mapping.
  IRMapping clonePayload(linalg::LinalgOp op, Operation *skip);
  Value lookup(IRMapping &mapping, Block *body, Value value) {
    return value.getParentBlock() == body ? mapping.lookup(value)
                                          : getCaptured(value);
  }

  Chain &chain;
  OpBuilder b;
  Block *block;
  RegionRole kind;
  Location loc;
  DenseMap<Value, Value> values;
  IRMapping captured;
};
} // namespace

Value RegionBuilder::getArgument(Value external) {
  Type element = cast<ShapedType>(external.getType()).getElementType();
  unsigned index;
  if (chain.scalars.contains(external)) {
    index = indexOf(chain.scalars, external);
    if (kind != RegionRole::Finalize)
      index += 1 + chain.rowInputs.size() + chain.broadcasts.size();
  } else if (chain.broadcasts.contains(external)) {
    index = 1 + chain.rowInputs.size() + indexOf(chain.broadcasts, external);
  } else {
    index = 1 + indexOf(chain.rowInputs, external);
  }
  Value arg = block->getArgument(index);
  // f16 and bf16 elements arrive extended to f32: truncating is exact.
  if (isa<FloatType>(element) && !element.isF32())
    return arith::TruncFOp::create(b, loc, element, arg);
  return arg;
}

Value RegionBuilder::getCaptured(Value value) {
  if (Value clone = captured.lookupOrNull(value))
    return clone;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block);
  Operation *clone = b.clone(*value.getDefiningOp());
  Value result = clone->getResult(cast<OpResult>(value).getResultNumber());
  captured.map(value, result);
  return result;
}

IRMapping RegionBuilder::clonePayload(linalg::LinalgOp op, Operation *skip) {
  IRMapping mapping;
  const Reduction *reduction = chain.getReduction(op);
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    // A reduction's accumulator is the stage's result, not an element.
    if (arg.use_empty() || (reduction && op.isDpsInit(&operand)))
      continue;
    mapping.map(arg, get(operand.get()));
  }
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (&inner == skip)
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), block->getArgument(0));
      continue;
    }
    // Constants from outside, also those that branches read.
    inner.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (!body->getParent()->isAncestor(operand.getParentRegion()))
          mapping.map(operand, getCaptured(operand));
    });
    b.clone(inner, mapping);
  }
  return mapping;
}

Value RegionBuilder::getElement(const Reduction &reduction) {
  linalg::LinalgOp op = reduction.op;
  IRMapping mapping = clonePayload(op, reduction.combiner);
  return lookup(mapping, op.getBlock(), reduction.element);
}

Value RegionBuilder::getReductionResult(const Reduction &reduction) {
  Value partial = getSlot(reduction.slot);
  if (reduction.initIsIdentity && !reduction.needsFlag)
    return partial;
  // The accumulator's initial value joins last, through the payload's own
  // combiner.
  linalg::LinalgOp op = reduction.op;
  Value init = get(op.getDpsInitOperand(0)->get());
  OperationState state(loc, reduction.combiner->getName());
  state.addOperands({init, partial});
  state.addTypes(b.getF32Type());
  state.addAttributes(reduction.combiner->getAttrs());
  Value result = b.create(state)->getResult(0);
  if (reduction.needsFlag) {
    // All elements NaN: the initial value stands.
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    Value any = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                      getSlot(reduction.flagSlot), zero);
    result = arith::SelectOp::create(b, loc, any, result, init);
  }
  return result;
}

Value RegionBuilder::get(Value tensor) {
  if (Value known = values.lookup(tensor))
    return known;
  Value result;
  if (auto constant = chain.constants.find(tensor);
      constant != chain.constants.end()) {
    result = arith::ConstantOp::create(b, loc, constant->second);
  } else if (!isa<ShapedType>(tensor.getType())) {
    result = getCaptured(tensor);
  } else if (!chain.isMemberResult(tensor)) {
    result = getArgument(tensor);
  } else if (const Reduction *reduction =
                 chain.getReduction(tensor.getDefiningOp())) {
    result = getReductionResult(*reduction);
  } else if (auto op = tensor.getDefiningOp<linalg::LinalgOp>()) {
    IRMapping mapping = clonePayload(op, nullptr);
    Operation *yield = op.getBlock()->getTerminator();
    for (auto [opResult, yielded] :
         llvm::zip(op->getResults(), yield->getOperands()))
      values[opResult] = lookup(mapping, op.getBlock(), yielded);
    return values.lookup(tensor);
  } else { // a reshape or cast: the same elements
    result = get(tensor.getDefiningOp()->getOperand(0));
  }
  values[tensor] = result;
  return result;
}

//===----------------------------------------------------------------------===//
// The op
//===----------------------------------------------------------------------===//

/// Appends a block with `types` arguments to `region`.
static Block *createBlock(Region &region, TypeRange types, Location loc) {
  Block *block = new Block();
  region.push_back(block);
  for (Type type : types)
    block->addArgument(type, loc);
  return block;
}

/// Erases `ops` (shape and constant ops the chain used), and those of
/// their operands that become unused.
static void eraseDeadShapes(RewriterBase &rewriter,
                            llvm::SetVector<Operation *> ops) {
  while (!ops.empty()) {
    Operation *op = ops.pop_back_val();
    if (!isa<tensor::EmptyOp, tensor::DimOp, arith::ConstantOp>(op) ||
        !op->use_empty())
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        ops.insert(def);
    rewriter.eraseOp(op);
  }
}

RowwiseOp mlir::credit::raise::buildRowwise(RewriterBase &rewriter,
                                            Chain &chain,
                                            StringRef workload) {
  SmallVector<Location> locs =
      llvm::map_to_vector(chain.members, [](Operation *op) {
        return op->getLoc();
      });
  Location loc = rewriter.getFusedLoc(locs);
  rewriter.setInsertionPoint(chain.members.back());

  SmallVector<Value> inputs, scalars;
  for (Value input : chain.rowInputs)
    inputs.push_back(collapseRows(rewriter, loc, input));
  for (Value scalar : chain.scalars)
    scalars.push_back(collapsePerRow(rewriter, loc, scalar));
  Value rows = inputs.front();
  SmallVector<Value> outputs, scalarOutputs;
  auto elementOf = [](Value value) {
    return cast<ShapedType>(value.getType()).getElementType();
  };
  for (Value output : chain.rowOutputs)
    outputs.push_back(
        createRowsLike(rewriter, loc, rows, chain.n, elementOf(output)));
  for (Value output : chain.scalarOutputs)
    scalarOutputs.push_back(
        createRowsLike(rewriter, loc, rows, 0, elementOf(output)));
  SmallVector<Type> resultTypes;
  for (Value init : llvm::concat<Value>(outputs, scalarOutputs))
    resultTypes.push_back(init.getType());

  SmallVector<Attribute> combiners;
  for (const SmallVector<CombinerKind> &kinds : chain.stageCombiners)
    combiners.push_back(rewriter.getArrayAttr(llvm::map_to_vector(
        kinds, [&](CombinerKind kind) -> Attribute {
          return CombinerKindAttr::get(rewriter.getContext(), kind);
        })));
  auto op = RowwiseOp::create(
      rewriter, loc, resultTypes, inputs, chain.broadcasts.getArrayRef(),
      scalars, outputs, scalarOutputs, ValueRange(),
      rewriter.getArrayAttr(combiners), rewriter.getStringAttr(workload),
      nullptr, nullptr, nullptr, chain.getNumStages());

  for (unsigned stage = 0; stage < chain.getNumStages(); ++stage) {
    Block *block = createBlock(op.getStages()[stage],
                               op.getElementRegionArgTypes(stage), loc);
    RegionBuilder region(chain, block, RegionRole::Stage, loc);
    OpBuilder &b = region.builder();
    SmallVector<Value> yields(chain.getNumSlots());
    for (const Reduction &reduction : chain.reductions) {
      if (reduction.stage != stage)
        continue;
      Value element = region.getElement(reduction);
      if (reduction.ignoresNaN) {
        // Skipped NaNs contribute the identity; the flag says whether any
        // element was a number.
        Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                            element, element);
        float identity = reduction.kind == CombinerKind::Max
                             ? -std::numeric_limits<float>::infinity()
                             : std::numeric_limits<float>::infinity();
        Value skipped =
            arith::ConstantOp::create(b, loc, b.getF32FloatAttr(identity));
        if (reduction.needsFlag)
          yields[reduction.flagSlot] = arith::SelectOp::create(
              b, loc, isNaN,
              arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)),
              arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1)));
        element = arith::SelectOp::create(b, loc, isNaN, skipped, element);
      }
      yields[reduction.slot] = element;
    }
    unsigned first = chain.getFirstSlot(stage);
    YieldOp::create(b, loc,
                    ArrayRef(yields).slice(
                        first, chain.stageCombiners[stage].size()));
  }
  auto buildOutputs = [&](Region &region, TypeRange argTypes,
                          RegionRole kind,
                          const llvm::SetVector<Value> &results) {
    Block *block = createBlock(region, argTypes, loc);
    RegionBuilder builder(chain, block, kind, loc);
    SmallVector<Value> yields;
    for (Value result : results)
      yields.push_back(builder.toComputeType(builder.get(result)));
    YieldOp::create(builder.builder(), loc, yields);
  };
  if (!chain.rowOutputs.empty())
    buildOutputs(op.getEpilogue(),
                 op.getElementRegionArgTypes(chain.getNumStages()),
                 RegionRole::Epilogue, chain.rowOutputs);
  if (!chain.scalarOutputs.empty())
    buildOutputs(op.getFinalize(), op.getFinalizeArgTypes(),
                 RegionRole::Finalize, chain.scalarOutputs);

  // The chain's users now read the op's results, in their shapes.
  rewriter.setInsertionPointAfter(op);
  SmallVector<Value> originals(chain.rowOutputs.begin(),
                               chain.rowOutputs.end());
  llvm::append_range(originals, chain.scalarOutputs);
  for (auto [result, original] : llvm::zip(op.getResults(), originals)) {
    Value replacement =
        expandRows(rewriter, loc, result,
                   cast<RankedTensorType>(original.getType()),
                   chain.rowInputs.front());
    rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
      return !chain.isMember(use.getOwner());
    });
  }
  llvm::SetVector<Operation *> shapes;
  for (Operation *member : llvm::reverse(chain.members)) {
    llvm::SetVector<Value> used(member->operand_begin(), member->operand_end());
    getUsedValuesDefinedAbove(member->getRegions(), used);
    for (Value value : used)
      if (Operation *def = value.getDefiningOp(); def && !chain.isMember(def))
        shapes.insert(def);
    rewriter.eraseOp(member);
  }
  eraseDeadShapes(rewriter, std::move(shapes));
  return op;
}
