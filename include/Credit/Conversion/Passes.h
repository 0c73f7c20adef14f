//===- Passes.h - credit conversion passes ----------------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_CONVERSION_PASSES_H
#define CREDIT_CONVERSION_PASSES_H

#include "Credit/Conversion/CreditToNVVM.h"
#include "Credit/Conversion/RowwiseToLaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace credit {

#define GEN_PASS_DECL
#include "Credit/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Credit/Conversion/Passes.h.inc"

} // namespace credit
} // namespace mlir

#endif // CREDIT_CONVERSION_PASSES_H
