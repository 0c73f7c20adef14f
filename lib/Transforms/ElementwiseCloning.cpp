//===- ElementwiseCloning.cpp - clone scalar regions onto vectors ---------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Transforms/ElementwiseCloning.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::credit;

/// The vector width of `value` in `mapping`, or 0 if it is a scalar.
static int64_t getWidth(Value value) {
  if (auto vector = dyn_cast<VectorType>(value.getType()))
    return vector.getNumElements();
  return 0;
}

/// Clones `op`, whose vector operands all have `width` lanes, one lane at a
/// time, and packs each result back into a vector.
static void cloneByLane(OpBuilder &builder, Operation &op, IRMapping &mapping,
                        int64_t width) {
  // Every value the op reads, including values its regions capture.
  llvm::SetVector<Value> used(op.operand_begin(), op.operand_end());
  for (Region &region : op.getRegions())
    getUsedValuesDefinedAbove(region, used);

  SmallVector<SmallVector<Value>> laneResults(op.getNumResults());
  for (int64_t lane = 0; lane < width; ++lane) {
    IRMapping laneMapping = mapping;
    for (Value value : used) {
      Value mapped = mapping.lookupOrDefault(value);
      if (getWidth(mapped))
        laneMapping.map(value, vector::ExtractOp::create(builder, op.getLoc(),
                                                         mapped, lane));
    }
    Operation *clone = builder.clone(op, laneMapping);
    for (auto [index, result] : llvm::enumerate(clone->getResults()))
      laneResults[index].push_back(result);
  }
  for (auto [result, lanes] : llvm::zip(op.getResults(), laneResults)) {
    auto type = VectorType::get({width}, result.getType());
    mapping.map(result, vector::FromElementsOp::create(builder, op.getLoc(),
                                                       type, lanes));
  }
}

SmallVector<Value>
mlir::credit::cloneElementwise(OpBuilder &builder, Block &block,
                               ValueRange args,
                               ArrayRef<std::pair<Value, Value>> fixed) {
  IRMapping mapping;
  mapping.map(block.getArguments(), args);
  for (auto [value, given] : fixed)
    mapping.map(value, given);
  for (Operation &op : block.without_terminator()) {
    if (op.getNumResults() && llvm::all_of(op.getResults(), [&](Value result) {
          return mapping.contains(result);
        }))
      continue;
    int64_t width = 0;
    for (Value operand : op.getOperands())
      width = std::max(width, getWidth(mapping.lookupOrDefault(operand)));
    // Values captured by nested regions count too.
    for (Region &region : op.getRegions()) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(region, captured);
      for (Value value : captured)
        width = std::max(width, getWidth(mapping.lookupOrDefault(value)));
    }

    if (width == 0) {
      builder.clone(op, mapping);
      continue;
    }
    bool elementwise =
        op.hasTrait<OpTrait::Elementwise>() && op.getNumRegions() == 0 &&
        llvm::all_of(op.getResultTypes(),
                     [](Type type) { return type.isIntOrIndexOrFloat(); });
    if (!elementwise) {
      cloneByLane(builder, op, mapping, width);
      continue;
    }
    // x / d with a row-uniform d: one reciprocal per row and a multiply per
    // element (at most one more rounding than the division).
    if (auto div = dyn_cast<arith::DivFOp>(op)) {
      Value numerator = mapping.lookupOrDefault(div.getLhs());
      Value denominator = mapping.lookupOrDefault(div.getRhs());
      if (getWidth(numerator) && !getWidth(denominator)) {
        Location loc = op.getLoc();
        Type type = denominator.getType();
        Value one = arith::ConstantOp::create(builder, loc, type,
                                              builder.getFloatAttr(type, 1.0));
        Value reciprocal = arith::DivFOp::create(builder, loc, one, denominator,
                                                 div.getFastmathAttr());
        Value splat = vector::BroadcastOp::create(
            builder, loc, numerator.getType(), reciprocal);
        mapping.map(div.getResult(),
                    arith::MulFOp::create(builder, loc, numerator, splat,
                                          div.getFastmathAttr())
                        .getResult());
        continue;
      }
    }
    SmallVector<Value> operands;
    for (Value operand : op.getOperands()) {
      Value mapped = mapping.lookupOrDefault(operand);
      if (!getWidth(mapped))
        mapped = vector::BroadcastOp::create(
            builder, op.getLoc(), VectorType::get({width}, mapped.getType()),
            mapped);
      operands.push_back(mapped);
    }
    SmallVector<Type> resultTypes =
        llvm::map_to_vector(op.getResultTypes(), [&](Type type) -> Type {
          return VectorType::get({width}, type);
        });
    OperationState state(op.getLoc(), op.getName(), operands, resultTypes,
                         op.getAttrs());
    Operation *vectorOp = builder.create(state);
    mapping.map(op.getResults(), vectorOp->getResults());
  }
  return llvm::map_to_vector(
      block.getTerminator()->getOperands(),
      [&](Value value) { return mapping.lookupOrDefault(value); });
}

Value mlir::credit::cloneSlice(OpBuilder &builder, Block &block, Value value,
                               function_ref<Value(unsigned)> argument) {
  llvm::DenseSet<Operation *> needed;
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (def && def->getBlock() == &block && needed.insert(def).second)
      llvm::append_range(worklist, def->getOperands());
  }
  IRMapping mapping;
  auto map = [&](Value used) {
    auto arg = dyn_cast<BlockArgument>(used);
    if (arg && arg.getOwner() == &block && !mapping.contains(arg))
      mapping.map(arg, argument(arg.getArgNumber()));
  };
  map(value);
  for (Operation &op : block.without_terminator()) {
    if (!needed.contains(&op))
      continue;
    llvm::for_each(op.getOperands(), map);
    builder.clone(op, mapping);
  }
  return mapping.lookupOrDefault(value);
}
