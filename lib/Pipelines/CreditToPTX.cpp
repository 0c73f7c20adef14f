//===- CreditToPTX.cpp - the credit-to-ptx pipeline -----------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Pipelines/Pipelines.h"

#include "Credit/Analysis/Profile.h"
#include "Credit/Conversion/Passes.h"
#include "Credit/Target/Passes.h"
#include "Credit/Transforms/Passes.h"
#include "Credit/Transforms/Tiling.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::credit;

std::string
mlir::credit::checkCreditToPTXOptions(const CreditToPTXOptions &options) {
  std::string problem = checkTargetOptions(options.chip, options.features,
                                           options.format, options.toolkit);
  if (!problem.empty())
    return problem;
  problem = checkClusterSizeOption(options.clusterSize);
  if (!problem.empty())
    return problem;
  if (!options.splitPart.empty()) {
    problem = checkSplitStagesOptions(options.splitPart, options.splitShards);
    if (!problem.empty())
      return "split-" + problem;
  } else if (options.splitShards != 1) {
    return "split-shards needs split-part=combine";
  }
  if (options.optLevel > 3)
    return "opt-level must be 0, 1, 2 or 3, got " +
           std::to_string(options.optLevel);
  if (!loadTarget(options.chip, options.profile, &problem))
    return problem;
  return "";
}

void mlir::credit::buildCreditToPTXPipeline(OpPassManager &pm,
                                            const CreditToPTXOptions &options) {
  std::string ptxas;
  if (options.format == "bin")
    ptxas = findPtxas(options.toolkit);

  if (options.raiseLinalg) {
    CreditRaiseLinalgOptions raise;
    raise.remarks = options.explain;
    // Without the host, what is not raised is not compiled at all.
    raise.warnUnraised = !options.keepHost;
    pm.addPass(createCreditRaiseLinalg(raise));
  }
  if (options.onlineSoftmax)
    pm.addPass(createCreditOnlineSoftmax());
  if (options.onlineVariance)
    pm.addPass(createCreditOnlineVariance());
  pm.addPass(createCreditNarrowIndices());
  if (!options.splitPart.empty())
    pm.addPass(createCreditSplitStages(
        CreditSplitStagesOptions{options.splitPart, options.splitShards}));
  pm.addPass(createCreditCheckTarget(
      CreditCheckTargetOptions{options.chip, options.features, options.format,
                               options.toolkit, /*requireOps=*/true}));
  if (options.explain) {
    CreditCostModelOptions costModel;
    costModel.chip = options.chip;
    costModel.profile = options.profile;
    pm.addPass(createCreditCostModel(costModel));
  }
  CreditChooseTilingOptions choose;
  choose.chip = options.chip;
  choose.profile = options.profile;
  choose.clusterSize = options.clusterSize;
  // Split rows need buffers the runtime owns (zeroed arrival counters);
  // a kept host has no runtime of CREDIT's, so its rows stay in a cluster.
  if (options.keepHost)
    choose.maxSplits = 1;
  pm.addPass(createCreditChooseTiling(choose));
  CreditClusterTilingOptions tiling;
  tiling.chip = options.chip;
  tiling.profile = options.profile;
  tiling.eraseHost = !options.keepHost;
  pm.addPass(createCreditClusterTiling(tiling));
  if (options.keepHost)
    pm.addPass(createConvertCreditToGPULaunch());
  // Only inside the kernels: the host may compute with math ops too.
  pm.nest<gpu::GPUModuleOp>().addPass(createConvertCreditToNVVM());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = getTargetFeatures(options.chip, options.features);
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  // convert-gpu-to-nvvm first applies its GPU rewrites greedily and fails,
  // without a diagnostic, when they do not converge; on the branches of a
  // large kernel fresh from scf-to-cf they may not (a row split over 32
  // CTAs whose stages yield constants, test/Pipelines/constant-stages.mlir).
  // Simplified first, they do.
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  binary.toolkitPath = options.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));

  pm.addPass(createCreditWriteArtifacts(
      CreditWriteArtifactsOptions{options.artifactsDir, options.chip, ptxas}));
}

void mlir::credit::registerCreditPipelines() {
  // Registered by hand rather than with PassPipelineRegistration so that
  // bad options are reported against the pipeline text when it is parsed,
  // before any pass runs on the module.
  registerPassPipeline(
      "credit-to-ptx",
      "Compiles credit.rowwise ops to cluster kernels in PTX (and cubin), "
      "with a JSON manifest per kernel",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        CreditToPTXOptions options;
        std::string parseErrors;
        llvm::raw_string_ostream errors(parseErrors);
        if (failed(options.parseFromString(text, errors)))
          return errorHandler(StringRef(parseErrors).trim());
        std::string problem = checkCreditToPTXOptions(options);
        if (!problem.empty())
          return errorHandler("credit-to-ptx: " + problem);
        buildCreditToPTXPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(CreditToPTXOptions());
      });
}
