// The chip decides what a tiling may use.
// RUN: credit-opt %s --credit-cluster-tiling=chip=sm_90 | FileCheck %s
// RUN: not credit-opt %s --credit-cluster-tiling=chip=sm_120 2>&1 | FileCheck %s --check-prefix=SM120
// RUN: not credit-opt %s --credit-cluster-tiling=chip=sm_80 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not credit-opt %s --credit-cluster-tiling=profile=%t.missing.json 2>&1 | FileCheck %s --check-prefix=PROFILE

// CHECK: gpu.module @rowwise_f32_n4096_c16t64e4
// CHECK: gpu.func @rowwise_f32_n4096_c16t64e4
// CHECK-SAME: known_cluster_size = array<i32: 16, 1, 1>
// SM120: error: credit-cluster-tiling: cannot build #credit.tiling<cluster = 16, threads = 64, vector = 4, elems = 4> on sm_120: a cluster of 16 CTAs is larger than sm_120 supports (8)
// SM80: error: credit-cluster-tiling: unsupported chip 'sm_80': CREDIT kernels use thread-block clusters, which need sm_90 or later
// PROFILE: error: credit-cluster-tiling: cannot read profile '{{.*}}missing.json'
func.func @sixteen(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 16, threads = 64, vector = 4, elems = 4>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x4096xf32>
}
