//===- InitAllCredit.h - register what CREDIT needs -------------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// One place for a tool or a compiler that embeds CREDIT to register the
// credit dialect, everything credit-to-ptx needs to run (dialects,
// interfaces, NVVM target models, LLVM IR translations), and the passes.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_INITALLCREDIT_H
#define CREDIT_INITALLCREDIT_H

namespace mlir {
class DialectRegistry;
namespace credit {

/// Registers the credit dialect and every dialect, interface, target model
/// and translation the credit-to-ptx pipeline uses.
void registerCreditDialects(DialectRegistry &registry);

/// Registers the credit passes and the credit-to-ptx pipeline.
void registerCreditPasses();

} // namespace credit
} // namespace mlir

#endif // CREDIT_INITALLCREDIT_H
