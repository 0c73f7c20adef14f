//===- CreditToNVVM.h - tiled credit ops to NVVM ----------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_CONVERSION_CREDITTONVVM_H
#define CREDIT_CONVERSION_CREDITTONVVM_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
class ConversionTarget;
namespace credit {

/// Lowers credit.block_reduce and credit.cluster_reduce to warp shuffles,
/// shared memory, barriers and DSMEM stores.
void populateCreditReductionToNVVMPatterns(RewritePatternSet &patterns);

/// Lowers credit.global_view to a memref descriptor over the pointer.
void populateCreditMemoryToLLVMPatterns(RewritePatternSet &patterns);

/// Lowers f32 math ops (scalars and vectors) to the GPU's approximate
/// instructions and to exact LLVM intrinsics, so that kernels need no
/// libdevice.
void populateCreditMathToNVVMPatterns(RewritePatternSet &patterns);

/// Marks the f32 math ops that populateCreditMathToNVVMPatterns handles as
/// illegal in `target`.
void configureCreditMathToNVVMTarget(ConversionTarget &target);

} // namespace credit
} // namespace mlir

#endif // CREDIT_CONVERSION_CREDITTONVVM_H
