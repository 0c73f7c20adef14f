//===- CreditToPTX.cpp - the credit-to-ptx pipeline -----------------------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Pipelines/Pipelines.h"

#include "Credit/Conversion/Passes.h"
#include "Credit/Target/Passes.h"
#include "Credit/Transforms/Passes.h"

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

void mlir::credit::buildCreditToPTXPipeline(OpPassManager &pm,
                                            const CreditToPTXOptions &options) {
  std::string ptxas;
  if (options.format == "bin")
    ptxas = findPtxas(options.toolkit);

  pm.addPass(createCreditCheckTarget(CreditCheckTargetOptions{
      options.chip, options.features, options.format, options.toolkit}));
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
  pm.addPass(createCreditChooseTiling(choose));
  CreditClusterTilingOptions tiling;
  tiling.chip = options.chip;
  tiling.profile = options.profile;
  tiling.eraseHost = true;
  pm.addPass(createCreditClusterTiling(tiling));
  pm.addPass(createConvertCreditToNVVM());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
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
  PassPipelineRegistration<CreditToPTXOptions>(
      "credit-to-ptx",
      "Compiles credit.rowwise ops to cluster kernels in PTX (and cubin), "
      "with a JSON manifest per kernel",
      buildCreditToPTXPipeline);
}
