//===- CreditPlugin.cpp - CREDIT as a plugin of mlir-opt ------------------===//
//
// Part of the CREDIT project.
//
// Loaded by an MLIR tool built on MlirOptMain (upstream mlir-opt among
// them) with --load-dialect-plugin and --load-pass-plugin: the dialect
// plugin registers what credit-to-ptx needs, the pass plugin the passes and
// the pipeline. Both entry points are in one library, CreditPlugin.so.
//
//===----------------------------------------------------------------------===//

#include "Credit/InitAllCredit.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Credit", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::credit::registerCreditDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Credit", LLVM_VERSION_STRING,
          [] { mlir::credit::registerCreditPasses(); }};
}
