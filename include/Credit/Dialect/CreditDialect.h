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

#endif // CREDIT_DIALECT_CREDITDIALECT_H
