//===- CreditDialect.h - credit dialect -------------------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_DIALECT_CREDITDIALECT_H
#define CREDIT_DIALECT_CREDITDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dialect.h"

#include "Credit/Dialect/CreditOpsDialect.h.inc"

namespace mlir::credit {
/// Whether `name` is a C identifier ([A-Za-z_][A-Za-z0-9_]*): what workload
/// and kernel names must be, since symbols, PTX entries and artifact file
/// names are made from them.
bool isIdentifier(llvm::StringRef name);
} // namespace mlir::credit

#endif // CREDIT_DIALECT_CREDITDIALECT_H
