//===- CreditOps.h - credit operations --------------------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_DIALECT_CREDITOPS_H
#define CREDIT_DIALECT_CREDITOPS_H

#include "Credit/Dialect/CreditAttrs.h"
#include "Credit/Dialect/CreditDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Credit/Dialect/CreditOps.h.inc"

#endif // CREDIT_DIALECT_CREDITOPS_H
