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

// A pass that fails without reporting why (convert-gpu-to-nvvm, whose
// first greedy rewrites do not converge on this kernel) gets an error at
// the op it failed on, instead of an exit status alone.
// RUN: not credit-opt %S/Inputs/nvvm-no-convergence.mlir --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t/silent.mlir 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: not ls %t/silent.mlir
// A pass that fails and says why gets no such line.
// RUN: not credit-opt %S/Inputs/untiled.mlir --pass-pipeline='builtin.module(credit-cluster-tiling)' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAINED

// SILENT: nvvm-no-convergence.mlir:6:1: error: pass 'convert-gpu-to-nvvm' failed here without reporting why (a silent failure of that pass, not a verdict on the input); please report this input
// EXPLAINED: error: credit-cluster-tiling: the op has no tiling; run credit-choose-tiling first
// EXPLAINED-NOT: without reporting why
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
