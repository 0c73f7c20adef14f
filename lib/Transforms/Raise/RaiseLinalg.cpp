//===- RaiseLinalg.cpp - linalg to credit.rowwise -------------------------===//
//
// Part of the CREDIT project.
//
// credit-raise-linalg: linalg.softmax along the last dimension, and the
// reduction-reuse chains ChainAnalysis.cpp finds, become credit.rowwise
// ops. The pass is a thin wrapper over raiseLinalgToRowwise.
//
//===----------------------------------------------------------------------===//

#include "Credit/Transforms/RaiseLinalg.h"

#include "Chain.h"

#include "Credit/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITRAISELINALG
#include "Credit/Transforms/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;
using namespace mlir::credit::raise;

/// Why `op` is not a softmax a rowwise op computes (along the last
/// dimension of an f32, bf16 or f16 tensor of at least two dimensions
/// whose rows have a static length), or an empty string.
static std::string whyNotRowSoftmax(linalg::SoftmaxOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
  if (!type || !isa<RankedTensorType>(op.getOutput().getType()))
    return "it works on buffers, not tensors";
  if (type.getRank() < 2 || int64_t(op.getDimension()) != type.getRank() - 1)
    return "it runs along dimension " + std::to_string(op.getDimension()) +
           " of " + std::to_string(type.getRank()) +
           ", not along the last of at least two";
  int64_t n = type.getShape().back();
  if (ShapedType::isDynamic(n) || n < 1 || n > RowwiseOp::kMaxRowLength)
    return "its rows have no static length between 1 and 2^30";
  Type element = type.getElementType();
  if (!element.isF32() && !element.isBF16() && !element.isF16())
    return "its elements are neither f32, bf16 nor f16";
  return "";
}

/// softmax(x) = exp(x - max) / sum(exp(x - max)) over each row, in f32,
/// rounded once to the element type.
static void raiseSoftmax(RewriterBase &rewriter, linalg::SoftmaxOp softmax) {
  Location loc = softmax.getLoc();
  auto type = cast<RankedTensorType>(softmax.getInput().getType());
  int64_t n = type.getShape().back();
  rewriter.setInsertionPoint(softmax);
  Value rows = collapseRows(rewriter, loc, softmax.getInput());
  Value init = createRowsLike(rewriter, loc, rows, n, type.getElementType());
  MLIRContext *ctx = rewriter.getContext();
  auto kinds = [&](CombinerKind kind) {
    return rewriter.getArrayAttr({CombinerKindAttr::get(ctx, kind)});
  };
  auto op = RowwiseOp::create(
      rewriter, loc, TypeRange{init.getType()}, ValueRange{rows}, ValueRange(),
      ValueRange(), ValueRange{init}, ValueRange(), ValueRange(),
      rewriter.getArrayAttr({kinds(CombinerKind::Max), kinds(CombinerKind::Add)}),
      rewriter.getStringAttr("softmax"), nullptr, nullptr, nullptr, 2);

  Type f32 = rewriter.getF32Type(), index = rewriter.getIndexType();
  // Each region: (j, x, results so far); `body` yields from its arguments.
  auto build = [&](Region &region, unsigned results,
                   function_ref<Value(OpBuilder &, ValueRange)> body) {
    SmallVector<Type> types = {index, f32};
    types.append(results, f32);
    Block *block = new Block();
    region.push_back(block);
    for (Type argType : types)
      block->addArgument(argType, loc);
    OpBuilder b(block, block->end());
    YieldOp::create(b, loc, body(b, block->getArguments()));
  };
  auto exponential = [&](OpBuilder &b, ValueRange args) -> Value {
    return math::ExpOp::create(b, loc,
                               arith::SubFOp::create(b, loc, args[1], args[2]));
  };
  build(op.getStages()[0], 0,
        [](OpBuilder &, ValueRange args) { return args[1]; });
  build(op.getStages()[1], 1, exponential);
  build(op.getEpilogue(), 2, [&](OpBuilder &b, ValueRange args) -> Value {
    return arith::DivFOp::create(b, loc, exponential(b, args), args[3]);
  });

  rewriter.setInsertionPointAfter(op);
  Value result = expandRows(rewriter, loc, op.getResult(0),
                            cast<RankedTensorType>(softmax.getType(0)),
                            softmax.getInput());
  rewriter.replaceOp(softmax, result);
}

/// A workload name for the `index`-th op raised in `scope`: the symbol's
/// name made an identifier, then the index.
static std::string getWorkloadName(Operation *scope, unsigned index) {
  std::string name = "rowwise";
  if (auto symbol = dyn_cast_or_null<SymbolOpInterface>(scope))
    name = symbol.getName().str();
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  if (name.empty() || llvm::isDigit(name.front()))
    name = "f_" + name;
  std::string suffix = "_" + std::to_string(index);
  name.resize(std::min(name.size(),
                       RowwiseOp::kMaxWorkloadNameLength - suffix.size()));
  return name + suffix;
}

unsigned mlir::credit::raiseLinalgToRowwise(
    RewriterBase &rewriter, Operation *root,
    const RaiseLinalgDiagnostics &diagnostics) {
  auto unraised = [&](Operation *op, const Twine &reason) {
    if (diagnostics.warnUnraised)
      op->emitWarning("not raised to credit.rowwise, so not compiled: ")
          << reason;
    else if (diagnostics.remarkUnraised)
      op->emitRemark("not raised to credit.rowwise: ") << reason;
  };
  // credit.rowwise runs on the host: code inside kernels is not raised.
  auto inKernel = [](Operation *op) {
    return op->getParentOfType<gpu::GPUModuleOp>() != nullptr;
  };
  unsigned raised = 0;
  SmallVector<linalg::SoftmaxOp> softmaxes;
  root->walk([&](linalg::SoftmaxOp op) {
    if (!inKernel(op))
      softmaxes.push_back(op);
  });
  for (linalg::SoftmaxOp op : softmaxes) {
    std::string whyNot = whyNotRowSoftmax(op);
    if (!whyNot.empty()) {
      unraised(op, whyNot);
      continue;
    }
    if (diagnostics.remarkRaised)
      op.emitRemark("raised to credit.rowwise \"softmax\"");
    raiseSoftmax(rewriter, op);
    ++raised;
  }

  SmallVector<linalg::LinalgOp> seeds;
  root->walk([&](linalg::LinalgOp op) {
    if (isRowReduction(op) && !inKernel(op))
      seeds.push_back(op);
  });
  // Ops already part of a chain (raised and erased, or not raisable).
  llvm::SmallPtrSet<Operation *, 32> visited;
  DenseMap<Operation *, unsigned> perScope;
  for (linalg::LinalgOp seed : seeds) {
    if (visited.contains(seed))
      continue;
    Diagnosis whyNot;
    std::optional<Chain> chain = analyzeChain(seed, visited, &whyNot);
    if (!chain) {
      unraised(whyNot.op, whyNot.reason);
      continue;
    }
    Operation *scope = seed->getParentOfType<FunctionOpInterface>();
    std::string name = getWorkloadName(scope, perScope[scope]++);
    if (diagnostics.remarkRaised)
      seed.emitRemark() << "raised " << chain->members.size()
                        << " ops to credit.rowwise \"" << name << "\" ("
                        << chain->getNumStages() << " reduction stages, "
                        << chain->rowOutputs.size() << " row and "
                        << chain->scalarOutputs.size()
                        << " per-row outputs)";
    buildRowwise(rewriter, *chain, name);
    ++raised;
  }
  return raised;
}

namespace {
struct RaiseLinalgPass
    : public credit::impl::CreditRaiseLinalgBase<RaiseLinalgPass> {
  using CreditRaiseLinalgBase::CreditRaiseLinalgBase;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    RaiseLinalgDiagnostics diagnostics;
    diagnostics.remarkRaised = diagnostics.remarkUnraised = remarks;
    diagnostics.warnUnraised = warnUnraised;
    raiseLinalgToRowwise(rewriter, getOperation(), diagnostics);
  }
};
} // namespace
