// RUN: credit-opt %s --split-input-file --pass-pipeline="builtin.module(credit-choose-tiling,credit-cluster-tiling{profile=%S/../Transforms/Inputs/profile.json},convert-credit-to-gpu-launch)" | FileCheck %s
// RUN: credit-opt %s --split-input-file --pass-pipeline="builtin.module(credit-choose-tiling,credit-cluster-tiling,convert-credit-to-gpu-launch)" | FileCheck %s --check-prefix=SWITCH
// RUN: not credit-opt %s --convert-credit-to-gpu-launch -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNTILED
// RUN: not credit-opt %S/Inputs/split-rows-host.mlir --pass-pipeline="builtin.module(credit-cluster-tiling,convert-credit-to-gpu-launch)" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: error: convert-credit-to-gpu-launch: 'rowwise_f32_n16384_c2t256e8s4' splits rows over 4 clusters, which needs CREDIT's runtime (zeroed arrival counters); keep-host compiles tilings without splits

// A static M: one kernel, launched when there are rows, its grid a cluster
// per row (the plan's grid rule for one-CTA kernels).
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: credit.rowwise
// CHECK: %[[M:.*]] = memref.dim
// CHECK: %[[ANY:.*]] = arith.cmpi ugt, %[[M]]
// CHECK: scf.if %[[ANY]] {
// CHECK: %[[CLUSTERS:.*]] = arith.ceildivui %[[M]], %{{.*}} : index
// CHECK: %[[GRID:.*]] = arith.muli %[[CLUSTERS]]
// CHECK: gpu.launch_func @[[K:[a-z0-9_]+]]::@[[K]] clusters in ({{[^)]*}}) blocks in (%[[GRID]],
// CHECK: bufferization.to_tensor
// CHECK: gpu.module @[[K]]
func.func @softmax(%x: tensor<8x1024xf32>, %o: tensor<8x1024xf32>) -> tensor<8x1024xf32> {
  %y = credit.rowwise "softmax" ins(%x : tensor<8x1024xf32>) outs(%o : tensor<8x1024xf32>)
    reduce [max] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      credit.yield %d : f32
    }
  return %y : tensor<8x1024xf32>
}

// UNTILED: error: convert-credit-to-gpu-launch: the module has no kernels; run credit-cluster-tiling first

// -----

// A cluster kernel takes one wave of the plan's resident clusters, each
// looping over an equal share of the rows (a profile without a launch
// rule) ...
// CHECK-LABEL: func.func @cluster_rows
// CHECK: %[[M:.*]] = memref.dim
// CHECK: %[[SHARE:.*]] = arith.ceildivui %[[M]], %{{.*}} : index
// CHECK: %[[ROWS:.*]] = arith.maxui
// CHECK-NOT: arith.select
// CHECK: %[[CLUSTERS:.*]] = arith.ceildivui %[[M]], %[[ROWS]] : index
// CHECK: gpu.launch_func
// ... or, under a profile with a launch rule (the built-in H200 profile's:
// from 6 row groups per resident cluster), a cluster per row group from the
// manifest's share of row groups per resident cluster.
// SWITCH-LABEL: func.func @cluster_rows
// SWITCH: %[[M:.*]] = memref.dim
// SWITCH: %[[SHARE:.*]] = arith.ceildivui %[[M]], %[[ACTIVE:.*]] : index
// SWITCH: %[[LOOPED:.*]] = arith.maxui
// SWITCH: %[[GROUPS:.*]] = arith.ceildivui %[[M]], %{{.*}} : index
// SWITCH: %[[PER:.*]] = arith.ceildivui %[[GROUPS]], %[[ACTIVE]] : index
// SWITCH: %[[MANY:.*]] = arith.cmpi uge, %[[PER]], %{{.*}} : index
// SWITCH: %[[ROWS:.*]] = arith.select %[[MANY]], %{{.*}}, %[[LOOPED]] : index
// SWITCH: %[[CLUSTERS:.*]] = arith.ceildivui %[[M]], %[[ROWS]] : index
// SWITCH: gpu.launch_func
func.func @cluster_rows(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %y = credit.rowwise "softmax" ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 4, elems = 8>}
    reduce [max] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      credit.yield %d : f32
    }
  return %y : tensor<?x4096xf32>
}
