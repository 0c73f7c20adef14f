//===- SilentFailures.cpp - naming passes that fail without a word --------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include <atomic>

using namespace mlir;

namespace {

/// Notes every error reported in the context while the pass manager that
/// owns it lives (the handler declines each diagnostic, so the usual
/// printing or -verify-diagnostics still sees it), and reports a failed
/// pass where none was.
struct SilentFailureReport : public PassInstrumentation {
  explicit SilentFailureReport(MLIRContext *context) : context(context) {
    handler = context->getDiagEngine().registerHandler([this](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        errorReported = true;
      return failure();
    });
  }
  ~SilentFailureReport() override {
    context->getDiagEngine().eraseHandler(handler);
  }

  void runAfterPassFailed(Pass *pass, Operation *op) override {
    if (errorReported)
      return;
    StringRef name = pass->getArgument();
    // At the operation's location, without a dump of it (a whole kernel).
    emitError(op->getLoc())
        << "pass '" << (name.empty() ? pass->getName() : name)
        << "' failed here without reporting why (a silent "
           "failure of that pass, not a verdict on the input); "
           "please report this input";
  }

  MLIRContext *context;
  DiagnosticEngine::HandlerID handler;
  std::atomic<bool> errorReported = false;
};

} // namespace

void mlir::credit::reportSilentPassFailures(PassManager &pm) {
  pm.addInstrumentation(std::make_unique<SilentFailureReport>(pm.getContext()));
}
