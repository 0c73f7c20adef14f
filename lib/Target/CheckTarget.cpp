//===- CheckTarget.cpp - reject targets the backend aborts on -------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Target/Passes.h"

#include "Credit/Dialect/CreditOps.h"
#include "Credit/Support/CheckedOptions.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITCHECKTARGET
#include "Credit/Target/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;

std::optional<unsigned> mlir::credit::getMinimumPTXVersion(StringRef chip) {
  // From the PTX ISA's target table; only chips with clusters.
  unsigned version =
      llvm::StringSwitch<unsigned>(chip)
          .Case("sm_90", 78)
          .Case("sm_90a", 80)
          .Cases({"sm_100", "sm_100a", "sm_101", "sm_101a"}, 86)
          .Cases({"sm_120", "sm_120a"}, 87)
          .Cases({"sm_100f", "sm_101f", "sm_103", "sm_103a", "sm_103f",
                  "sm_120f", "sm_121", "sm_121a", "sm_121f"},
                 88)
          .Cases({"sm_110", "sm_110a", "sm_110f"}, 90)
          .Default(0);
  if (version == 0)
    return std::nullopt;
  return version;
}

std::optional<unsigned> mlir::credit::getPTXVersionFeature(StringRef features) {
  std::optional<unsigned> found;
  SmallVector<StringRef> parts;
  features.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    part = part.trim();
    unsigned version;
    if (part.consume_front("+ptx") && !part.getAsInteger(10, version))
      found = version;
  }
  return found;
}

std::string mlir::credit::getTargetFeatures(StringRef chip,
                                            StringRef features) {
  if (!features.empty())
    return features.str();
  unsigned version = std::max(getMinimumPTXVersion(chip).value_or(0),
                              kAsyncExchangePTXVersion);
  return "+ptx" + std::to_string(version);
}

std::string mlir::credit::findPtxas(StringRef toolkit) {
  auto inToolkit = [](StringRef root) -> std::string {
    SmallString<256> path(root);
    llvm::sys::path::append(path, "bin", "ptxas");
    return llvm::sys::fs::can_execute(path) ? std::string(path) : "";
  };
  if (!toolkit.empty())
    return inToolkit(toolkit);
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  for (const char *variable : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> root = llvm::sys::Process::GetEnv(variable))
      if (std::string found = inToolkit(*root); !found.empty())
        return found;
  return "";
}

/// The PTX ISA versions the NVPTX backend of LLVM 22 knows (its +ptxNN
/// features).
static bool isKnownPTXVersion(unsigned version) {
  return llvm::is_contained({32u, 40u, 41u, 42u, 43u, 50u, 60u, 61u,
                             62u, 63u, 64u, 65u, 70u, 71u, 72u, 73u,
                             74u, 75u, 76u, 77u, 78u, 80u, 81u, 82u,
                             83u, 84u, 85u, 86u, 87u, 88u, 90u},
                            version);
}

std::string mlir::credit::checkTargetOptions(StringRef chip,
                                             StringRef givenFeatures,
                                             StringRef format,
                                             StringRef toolkit) {
  std::string features = getTargetFeatures(chip, givenFeatures);
  std::string problem;
  llvm::raw_string_ostream os(problem);
  std::optional<unsigned> minimum = getMinimumPTXVersion(chip);
  if (!minimum) {
    os << "unsupported chip '" << chip
       << "': CREDIT kernels use thread-block clusters, which need sm_90 or "
          "later (sm_90, sm_90a, sm_100, ..., sm_121f)";
    return problem;
  }
  std::optional<unsigned> ptx = getPTXVersionFeature(features);
  if (!ptx || !isKnownPTXVersion(*ptx)) {
    os << "features '" << features
       << "' must name a PTX ISA version the backend knows (+ptx32 ... "
          "+ptx88, +ptx90); without one the NVPTX backend aborts for "
       << chip;
    return problem;
  }
  if (*ptx < *minimum) {
    os << chip << " needs PTX ISA " << *minimum / 10 << "." << *minimum % 10
       << " or later (+ptx" << *minimum << "), but features give +ptx" << *ptx
       << "; the NVPTX backend would abort";
    return problem;
  }
  if (*ptx < kAsyncExchangePTXVersion) {
    os << "CREDIT's cluster kernels exchange partial values with st.async, "
          "which needs PTX ISA 8.1 or later (+ptx81), but features give +ptx"
       << *ptx;
    return problem;
  }
  if (format != "isa" && format != "bin") {
    os << "format must be 'isa' (PTX) or 'bin' (PTX and cubin), got '" << format
       << "'";
    return problem;
  }
  // A toolkit that is named must be one: the NVVM target links libdevice
  // from it, and without it math functions stay unresolved calls.
  if (!toolkit.empty()) {
    SmallString<256> libdevice(toolkit);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (!llvm::sys::fs::is_directory(toolkit) ||
        !llvm::sys::fs::is_regular_file(libdevice)) {
      os << "toolkit '" << toolkit << "' is not a CUDA toolkit: '" << libdevice
         << "' does not exist";
      return problem;
    }
  }
  if (format == "bin" && findPtxas(toolkit).empty())
    os << "format=bin needs ptxas, which was not found "
       << (toolkit.empty() ? std::string("on PATH or under CUDA_ROOT, "
                                         "CUDA_HOME or CUDA_PATH")
                           : "in '" + toolkit.str() + "/bin'")
       << "; pass toolkit=<CUDA toolkit root> or use format=isa";
  return problem;
}

namespace {
struct CheckTargetPass
    : public CheckedOptions<
          credit::impl::CreditCheckTargetBase<CheckTargetPass>> {
  using CheckedOptions::CheckedOptions;

  std::string checkOptions() const override {
    return checkTargetOptions(chip, features, format, toolkit);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!optionsAreValid())
      return;
    if (requireOps &&
        !module.walk([](RowwiseOp) { return WalkResult::interrupt(); })
             .wasInterrupted()) {
      // Front ends write linalg; point at what the user most likely meant
      // to compile: the first linalg op that reduces, else the first one
      // (not an op in a linalg op's body, such as its linalg.yield).
      Operation *linalg = nullptr;
      module.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op->getName().getDialectNamespace() != "linalg")
          return WalkResult::advance();
        auto structured = dyn_cast<linalg::LinalgOp>(op);
        if (structured && structured.getNumReductionLoops() > 0) {
          linalg = op;
          return WalkResult::interrupt();
        }
        if (!linalg)
          linalg = op;
        return WalkResult::skip();
      });
      InFlightDiagnostic diag =
          emitError(linalg ? linalg->getLoc() : module.getLoc())
          << "nothing to compile: the module has no credit.rowwise op";
      if (linalg)
        diag << "; " << linalg->getName()
             << " is not raised to credit.rowwise (credit-raise-linalg "
                "takes reduction-reuse computations along the last "
                "dimension; its remarks say why it left an op alone)";
      return signalPassFailure();
    }
  }
};
} // namespace
