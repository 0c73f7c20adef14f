//===- Passes.h - credit transformation passes ------------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_TRANSFORMS_PASSES_H
#define CREDIT_TRANSFORMS_PASSES_H

#include "Credit/Dialect/CreditDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace credit {

#define GEN_PASS_DECL
#include "Credit/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Credit/Transforms/Passes.h.inc"

/// What is wrong with credit-split-stages' options (`part` is partial or
/// combine; `shards`, 1 to 64, only for combine), or an empty string.
std::string checkSplitStagesOptions(StringRef part, unsigned shards);

} // namespace credit
} // namespace mlir

#endif // CREDIT_TRANSFORMS_PASSES_H
