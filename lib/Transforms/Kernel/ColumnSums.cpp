//===- ColumnSums.cpp - column-sum outputs --------------------------------===//
//
// Part of the CREDIT project.
//
// A column-sum output [P, N] gets, in row p, the sum over the rows of block
// p of what the epilogue yields per column; cluster p owns block p. With
// registers staging a thread keeps its columns' sums in registers across
// the cluster's rows and stores them once; otherwise it accumulates into
// the output row by row (each (block, column) belongs to one thread).
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::credit;
using namespace mlir::credit::detail;

SmallVector<Value> KernelEmitter::getInitialColumnSums() {
  if (!columnSumsInRegisters())
    return {};
  VectorType type = vectorOf(b.getF32Type());
  Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  return SmallVector<Value>(plan.numColumnSums * plan.chunks, zero);
}

void KernelEmitter::accumulateColumnSum(RowState &state, unsigned q,
                                        unsigned chunk,
                                        const ChunkPosition &pos, Value value,
                                        SmallVector<Value> &sums) {
  if (!isa<VectorType>(value.getType()))
    value = vector::BroadcastOp::create(b, loc, vectorOf(b.getF32Type()), value);
  if (columnSumsInRegisters()) {
    Value &sum = sums[q * plan.chunks + chunk];
    Value added = arith::AddFOp::create(b, loc, sum, value);
    sum = pos.valid ? selectValid(pos.valid, added, sum) : added;
    return;
  }
  Value at = add(mul(rowGroup, index(plan.n)), pos.column);
  Value view = columnSumViews[q];
  emitIf(pos.valid, [&] {
    // The cluster's first row starts the sum; later rows add to it.
    VectorType type = vectorOf(b.getF32Type());
    auto ifFirst = scf::IfOp::create(
        b, loc, state.first,
        [&](OpBuilder &inner, Location il) {
          scf::YieldOp::create(inner, il, value);
        },
        [&](OpBuilder &inner, Location il) {
          Value old = vector::LoadOp::create(
              inner, il, type, view, ValueRange{at}, false,
              llvm::MaybeAlign(alignmentOf(inner.getF32Type())));
          scf::YieldOp::create(
              inner, il, Value(arith::AddFOp::create(inner, il, old, value)));
        });
    vector::StoreOp::create(b, loc, ifFirst.getResult(0), view, ValueRange{at},
                            false,
                            llvm::MaybeAlign(alignmentOf(b.getF32Type())));
  });
}

void KernelEmitter::finishColumnSums(ValueRange sums) {
  if (plan.numColumnSums == 0)
    return;
  Value blockBase = mul(rowGroup, index(plan.n));
  // Register sums go out once, after the last row; every row group writes
  // its block, zeros if it had no rows.
  if (columnSumsInRegisters()) {
    for (unsigned q = 0; q < plan.numColumnSums; ++q)
      for (int64_t chunk = 0; chunk < plan.chunks; ++chunk) {
        ChunkPosition pos = getChunkPosition(index(0), chunk, Value());
        storeVector(sums[q * plan.chunks + chunk], columnSumViews[q],
                    add(blockBase, pos.column), pos.valid);
      }
    return;
  }
  // Sums accumulated in place: a cluster without rows writes zeros.
  emitIf(cmp(arith::CmpIPredicate::uge, rowBegin, rowEnd), [&] {
    VectorType type = vectorOf(b.getF32Type());
    Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
    forEachSweep({}, [&](Value sweep, SmallVector<Value> none) {
      for (int64_t chunk = 0; chunk < plan.chunks; ++chunk) {
        ChunkPosition pos = getChunkPosition(sweep, chunk, Value());
        for (Value view : columnSumViews)
          storeVector(zero, view, add(blockBase, pos.column), pos.valid);
      }
      return none;
    });
  });
}
