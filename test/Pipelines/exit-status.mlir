// credit-opt exits with failure whenever an error was reported, even by a
// pass that then succeeds: gpu-module-to-binary reports a toolkit without
// libdevice and carries on (credit-to-ptx's target check refuses such a
// toolkit before any pass runs; this pipeline leaves that check out).
// RUN: rm -rf %t && mkdir -p %t/tk/bin
// RUN: not credit-opt %s --pass-pipeline='builtin.module(credit-cluster-tiling{erase-host=true},convert-credit-to-nvvm,canonicalize,cse,nvvm-attach-target{chip=sm_90 features=+ptx81},gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts),gpu-module-to-binary{format=isa toolkit=%t/tk})' -o %t/out.mlir 2>&1 | FileCheck %s
// No output is written.
// RUN: not ls %t/out.mlir
// The pipeline refuses the toolkit up front.
// RUN: not credit-opt %s --credit-to-ptx=toolkit=%t/tk 2>&1 | FileCheck %s --check-prefix=CHECKED

// So does an error the parser reports and then ignores.
// RUN: not credit-opt %S/Inputs/dropped-lexer-error.mlir -o %t/parsed.mlir 2>&1 | FileCheck %s --check-prefix=PARSER
// RUN: not ls %t/parsed.mlir
// RUN: not credit-opt %S/Inputs/dropped-lexer-error.mlir --split-input-file 2>&1 | FileCheck %s --check-prefix=PARSER

// PARSER: error: @ identifier expected to start with letter or '_'
// PARSER: credit-opt: the parser reported an error; failing
// CHECK: error: LibDevice path: {{.*}}libdevice.10.bc does not exist or is not a file.
// CHECK: credit-opt: a pass reported an error; failing
// CHECKED: error: credit-to-ptx: toolkit '{{.*}}tk' is not a CUDA toolkit: '{{.*}}libdevice.10.bc' does not exist
func.func @f(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise "f" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 64, vector = 1, elems = 1>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}
