/*===- credit-capi-test.c - CREDIT through MLIR's C API -------------------===*\
|*                                                                            *|
|* Part of the CREDIT project.                                                *|
|*                                                                            *|
|* What a compiler written in C (or bound to Python, Rust, ...) does: loads   *|
|* the credit dialect by its handle, registers what credit-to-ptx needs,      *|
|* parses a module and runs the pipeline from its textual form; then runs a   *|
|* pass that fails silently on SILENT-INPUT, with failures reported.          *|
|* Usage: credit-capi-test ARTIFACTS-DIR SILENT-INPUT                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Credit-c/Dialects.h"
#include "mlir-c/Conversion.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <string.h>

static const char *kModule =
    "func.func @f(%x: tensor<?x1024xf32>, %o: tensor<?x1024xf32>)"
    "    -> tensor<?x1024xf32> {\n"
    "  %r = credit.rowwise \"capi_sum\" ins(%x : tensor<?x1024xf32>)"
    "      outs(%o : tensor<?x1024xf32>)\n"
    "    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }\n"
    "    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }\n"
    "  return %r : tensor<?x1024xf32>\n"
    "}\n";

static void printToFile(MlirStringRef text, void *file) {
  fwrite(text.data, 1, text.length, (FILE *)file);
}

static int fail(const char *what) {
  fprintf(stderr, "credit-capi-test: %s\n", what);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return fail("usage: credit-capi-test ARTIFACTS-DIR SILENT-INPUT");

  MlirContext ctx = mlirContextCreate();
  MlirDialectHandle credit = mlirGetDialectHandle__credit__();
  MlirStringRef name = mlirDialectHandleGetNamespace(credit);
  printf("dialect: %.*s\n", (int)name.length, name.data);

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirCreditRegisterDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirDialectHandleLoadDialect(credit, ctx);
  mlirCreditRegisterPasses();

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module))
    return fail("the module does not parse");
  MlirOperation op = mlirModuleGetOperation(module);
  if (!mlirOperationVerify(op))
    return fail("the module does not verify");

  char pipeline[4096];
  snprintf(pipeline, sizeof(pipeline),
           "builtin.module(credit-to-ptx{artifacts-dir=%s})", argv[1]);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), printToFile, stderr);
  if (mlirLogicalResultIsFailure(parsed))
    return fail("the pipeline does not parse");
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op)))
    return fail("credit-to-ptx failed");
  printf("credit-to-ptx: ok\n");

  /* A bad option is an error where the pipeline is parsed. */
  MlirPassManager bad = mlirPassManagerCreate(ctx);
  parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(bad),
      mlirStringRefCreateFromCString(
          "builtin.module(credit-to-ptx{cluster-size=3})"),
      printToFile, stdout);
  printf("\nbad option parsed: %s\n",
         mlirLogicalResultIsFailure(parsed) ? "no" : "yes");

  /* A pass that fails without a diagnostic (upstream convert-gpu-to-nvvm
   * on a kernel whose rewrites do not converge) is named, at the op. */
  FILE *file = fopen(argv[2], "rb");
  if (!file)
    return fail("cannot open SILENT-INPUT");
  static char text[1 << 20];
  size_t size = fread(text, 1, sizeof(text) - 1, file);
  fclose(file);
  text[size] = 0;
  mlirRegisterConversionConvertGpuOpsToNVVMOps();
  for (int guard = 0; guard < 2; ++guard) {
    /* Fresh each time: a failed run leaves the kernel partly rewritten. */
    MlirModule silent =
        mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
    if (mlirModuleIsNull(silent))
      return fail("SILENT-INPUT does not parse");
    MlirPassManager lowering = mlirPassManagerCreate(ctx);
    if (guard)
      mlirCreditPassManagerReportSilentFailures(lowering);
    parsed = mlirParsePassPipeline(
        mlirPassManagerGetAsOpPassManager(lowering),
        mlirStringRefCreateFromCString(
            "builtin.module(gpu.module(convert-gpu-to-nvvm))"),
        printToFile, stderr);
    if (mlirLogicalResultIsFailure(parsed))
      return fail("the lowering pipeline does not parse");
    fflush(stdout);
    MlirLogicalResult ran =
        mlirPassManagerRunOnOp(lowering, mlirModuleGetOperation(silent));
    fflush(stderr);
    printf("%s run: %s\n", guard ? "guarded" : "unguarded",
           mlirLogicalResultIsFailure(ran) ? "failed" : "succeeded");
    fflush(stdout);
    mlirPassManagerDestroy(lowering);
    mlirModuleDestroy(silent);
  }
  mlirPassManagerDestroy(bad);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
