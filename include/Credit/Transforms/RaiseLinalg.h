//===- RaiseLinalg.h - linalg chains to credit.rowwise ----------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// The transform behind credit-raise-linalg, for compilers that call it
// without the pass.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_TRANSFORMS_RAISELINALG_H
#define CREDIT_TRANSFORMS_RAISELINALG_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace credit {

/// What raiseLinalgToRowwise reports.
struct RaiseLinalgDiagnostics {
  /// A remark for each op raised.
  bool remarkRaised = false;
  /// For each softmax and row reduction left alone, with the reason: a
  /// remark, or a warning (for pipelines that drop what is not raised).
  bool remarkUnraised = false;
  bool warnUnraised = false;
};

/// Rewrites every reduction-reuse computation on tensors under `root` into
/// one credit.rowwise op each:
///
/// - `linalg.softmax` along the last dimension;
/// - chains of linalg ops (generic or named, as torch-mlir, StableHLO or
///   IREE emit them) that reduce the last dimension of a row tensor with
///   `add`, `max` or `min` and reuse the row afterwards: the chain's
///   elementwise ops over rows, per-row values and broadcast vectors, its
///   reductions (ordered into stages by their dependences, those of one
///   stage combined together) and the outputs that are used outside it.
///
/// Leading dimensions are collapsed into the op's M. What is not recognised
/// is left as it was: a reduction over another dimension, a chain with no
/// row output that reuses a reduction, accumulators other than f32,
/// payloads with memory effects or captured non-constant values, a chain
/// whose output is used before the chain ends. Returns the number of
/// rowwise ops created.
unsigned raiseLinalgToRowwise(RewriterBase &rewriter, Operation *root,
                              const RaiseLinalgDiagnostics &diagnostics = {});

} // namespace credit
} // namespace mlir

#endif // CREDIT_TRANSFORMS_RAISELINALG_H
