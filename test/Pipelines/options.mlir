// credit-to-ptx checks its options when the pipeline is parsed, before any
// pass touches the module: the error names the pipeline, neither points
// into the input nor prints the module, and nothing is written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not credit-opt %s --credit-to-ptx="chip=sm_80 artifacts-dir=%t/a" -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not credit-opt %s --pass-pipeline="builtin.module(credit-to-ptx{cluster-size=3})" 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not credit-opt %s --credit-to-ptx=opt-level=4 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not credit-opt %s --credit-to-ptx=profile=%t/missing.json 2>&1 | FileCheck %s --check-prefix=PROFILE
// RUN: not credit-opt %s --credit-to-ptx=bogus=1 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not credit-opt %s --credit-to-ptx=split-part=both 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not credit-opt %s --credit-to-ptx=split-shards=2 2>&1 | FileCheck %s --check-prefix=SHARDS
// RUN: not ls %t/out.mlir %t/a
// The passes check their own options the same way.
// RUN: not credit-opt %s --credit-choose-tiling=cluster-size=5 2>&1 | FileCheck %s --check-prefix=PASS
// Nothing to compile: a module without credit.rowwise ops, after raising,
// fails instead of losing its functions; what raising left alone is a
// warning that says why.
// RUN: not credit-opt %S/../Target/Inputs/linalg-unraisable.mlir --credit-to-ptx -o %t/none.mlir 2>&1 | FileCheck %s --check-prefix=NOTHING
// RUN: not ls %t/none.mlir
// Without features, the PTX ISA version is the chip's own (at least 8.1):
// sm_100 and sm_120 compile with chip= alone. Chips of those families
// without a built-in profile say so and name the ones there are.
// RUN: rm -rf %t/b && credit-opt %s --credit-to-ptx="chip=sm_100a artifacts-dir=%t/b" -o /dev/null && cat %t/b/*.ptx | FileCheck %s --check-prefix=PTX86
// RUN: rm -rf %t/r && credit-opt %s --credit-to-ptx="chip=sm_120 artifacts-dir=%t/r" -o /dev/null && cat %t/r/*.ptx | FileCheck %s --check-prefix=PTX87
// RUN: not credit-opt %s --credit-to-ptx="chip=sm_121f" 2>&1 | FileCheck %s --check-prefix=NOPROFILE

// CHIP: error: credit-to-ptx: unsupported chip 'sm_80'
// CHIP-NOT: options.mlir
// CHIP-NOT: see current operation
// SIZE: error: credit-to-ptx: cluster-size must be 0 (choose), 1, 2, 4, 8 or 16, got 3
// SIZE-NOT: see current operation
// OPT: error: credit-to-ptx: opt-level must be 0, 1, 2 or 3, got 4
// PROFILE: error: credit-to-ptx: cannot read profile '{{.*}}missing.json'
// UNKNOWN: no such option bogus
// SPLIT: error: credit-to-ptx: split-part must be 'partial' or 'combine', got 'both'
// SHARDS: error: credit-to-ptx: split-shards needs split-part=combine
// PTX86: .version 8.6
// PTX86: .target sm_100a
// PTX87: .version 8.7
// PTX87: .target sm_120
// NOPROFILE: error: credit-to-ptx: no built-in profile for 'sm_121f' (built in: sm_90 H200, sm_100 B200, sm_120 RTX 5090); calibrate one (scripts/device_calibrate.sh) and pass profile=<file>
// PASS: error: credit-choose-tiling: cluster-size must be 0 (choose), 1, 2, 4, 8 or 16, got 5
// PASS-NOT: see current operation
// NOTHING: linalg-unraisable.mlir:4:8: warning: not raised to credit.rowwise, so not compiled: it runs along dimension 0 of 2, not along the last of at least two
// NOTHING: linalg-unraisable.mlir:4:8: error: nothing to compile: the module has no credit.rowwise op; linalg.softmax is not raised to credit.rowwise
func.func @f(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise "f" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}
