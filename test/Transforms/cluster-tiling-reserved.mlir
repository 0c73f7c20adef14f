// The manifests belong to credit-cluster-tiling: an input that brings its
// own could steer which binaries become artifacts, so it is refused.
// RUN: not credit-opt %s --credit-cluster-tiling 2>&1 | FileCheck %s
// A second run over the pass's own output is refused the same way.
// RUN: credit-opt %S/../Dialect/ops.mlir --credit-choose-tiling --credit-cluster-tiling -o %t.mlir
// RUN: not credit-opt %t.mlir --credit-cluster-tiling 2>&1 | FileCheck %s

// CHECK: error: credit-cluster-tiling: the module already has 'credit.kernels', which only this pass sets (run it once per module)
module attributes {credit.kernels = {k = {n = 4 : i64}}} {
  func.func @f(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
    %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
        attributes {tiling = #credit.tiling<cluster = 1, threads = 64, vector = 1, elems = 1>}
      reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
      epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
    return %r : tensor<?x64xf32>
  }
}
