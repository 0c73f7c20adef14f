//===- CheckedOptions.h - passes that check their options -------*- C++ -*-===//
//
// Part of the CREDIT project.
//
// A pass whose options can be wrong (a chip without clusters, a profile
// that does not exist, a cluster size that is not a power of two) says so
// once, in `checkOptions`. Given as text, the options are checked where
// they are parsed, so the error names the pass in the pipeline; set from
// C++, they are checked when the pass runs, and the error is reported at
// the module's location without printing the module.
//
//===----------------------------------------------------------------------===//

#ifndef CREDIT_SUPPORT_CHECKEDOPTIONS_H
#define CREDIT_SUPPORT_CHECKEDOPTIONS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
namespace credit {

template <typename BaseT> class CheckedOptions : public BaseT {
public:
  using BaseT::BaseT;

  /// What is wrong with the pass's options, or an empty string.
  virtual std::string checkOptions() const = 0;

  LogicalResult initializeOptions(
      StringRef text,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(BaseT::initializeOptions(text, errorHandler)))
      return failure();
    std::string problem = checkOptions();
    if (problem.empty())
      return success();
    return errorHandler(this->getArgument() + ": " + problem);
  }

protected:
  /// For runOnOperation: false (and the pass failed) if the options are
  /// wrong.
  bool optionsAreValid() {
    std::string problem = checkOptions();
    if (problem.empty())
      return true;
    failOnOptions(problem);
    return false;
  }

  /// Reports `problem` with the options at the operation and fails the
  /// pass.
  void failOnOptions(StringRef problem) {
    emitError(this->getOperation()->getLoc())
        << this->getArgument() << ": " << problem;
    this->signalPassFailure();
  }
};

} // namespace credit
} // namespace mlir

#endif // CREDIT_SUPPORT_CHECKEDOPTIONS_H
