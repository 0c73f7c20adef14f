//===- RowwiseToLaunch.h - host launches of the kernels ---------*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_CONVERSION_ROWWISETOLAUNCH_H
#define CREDIT_CONVERSION_ROWWISETOLAUNCH_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace credit {

/// Replaces each credit.rowwise op of `module` that credit-cluster-tiling
/// outlined (without erase-host) by gpu.launch_func ops of its kernels,
/// following their manifests: the kernel for the call's M, the grid, block,
/// cluster and dynamic shared memory, bare pointers and row strides. Tensor
/// operands go through bufferization.to_buffer, outputs are fresh buffers
/// returned through bufferization.to_tensor.
LogicalResult convertRowwiseToLaunches(RewriterBase &rewriter,
                                       ModuleOp module);

} // namespace credit
} // namespace mlir

#endif // CREDIT_CONVERSION_ROWWISETOLAUNCH_H
