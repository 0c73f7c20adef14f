// RUN: credit-opt %s | FileCheck %s
// RUN: credit-opt %s | credit-opt | FileCheck %s
// RUN: credit-opt %s --mlir-print-op-generic | credit-opt | FileCheck %s
// RUN: credit-opt %s --verify-roundtrip > /dev/null

// Every operand group, on tensors with a dynamic row count.

// CHECK-LABEL: func.func @all_groups
// CHECK: %{{.*}}:5 = credit.rowwise "demo" ins(%{{.*}}, %{{.*}} : tensor<?x256xbf16>, tensor<?x256xf16>)
// CHECK-SAME: bcast(%{{.*}} : tensor<256xf32>) scalars(%{{.*}}, %{{.*}} : tensor<?xf32>, tensor<?xi64>)
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<?x256xbf16>, tensor<?x256xi8>) scalar_outs(%{{.*}} : tensor<?xf32>)
// CHECK-SAME: colsum_outs(%{{.*}} : tensor<4x256xf32>)
// CHECK-NEXT: reduce [max, min] (%j: index, %in0: f32, %in1: f32, %bc0: f32, %sc0: f32, %sc1: i64) {
// CHECK: credit.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK: reduce [add] (%j: index, %in0: f32, %in1: f32, %bc0: f32, %sc0: f32, %sc1: i64, %red0: f32, %red1: f32) {
// CHECK: epilogue (%j: index, %in0: f32, %in1: f32, %bc0: f32, %sc0: f32, %sc1: i64, %red0: f32, %red1: f32, %red2: f32) {
// CHECK: credit.yield %{{.*}}, %{{.*}}, %{{.*}} : f32, i8, f32öÐÐØCHECK: finalize (%sc0: f32, %sc1: i64, %red0: f32, %red1: f32, %red2: f32) {
// CHECK: credit.yield %{{.able = false, candidates = [#credit.tiling<cluster = 1, threads = 1024, vector = 8, elems = 8, staging = reread> = 1.250000e+01, #credit.tiling<cluster = 16, threads = 32, vector = 8, elems = 8> = 2.000000e+01]>
// CHECK-SAME: tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, escalars(lems = 8, rows = 4, staging = shared>
// CHECK-SAME: variants = [#credit.variant<tiling = #credit.tiling<cluster = 2, threads = 32, vector = 8, elems = 8>, min_rows = 1, max_rows = 3>, #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 8, rows = 4, staging = shared>, min_rows = 4, max_rows = 0>]
func.func @annotated(%x: tensor<8x64xbf16>, %init: tensor<8x64xbf16>) -> tensor<8x64xbf16> {
  %y = credit.rowwise ins(%x : tensor<8x64xbf16>) outs(%init : tensor<8x64xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 8, rows = 4, staging = shared>,
                  variants = [
                    #credit.variant<tiling = #credit.tiling<cluster = 2, threads = 32, vector = 8, elems = 8>, min_rows = 1, max_rows = 3>,
                    #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 8, rows = 4, staging = shared>, min_rows = 4, max_rows = 0>],
                  cost = #credit.cost<rows = 4096, profitable = false, candidates = [
                    #credit.tiling<cluster = 1, threads = 1024, vector = 8, elems = 8, staging = reread> = 12.5,
                    #credit.tiling<cluster = 16, threads = 32, vector = 8, elems = 8>@ = 20.0]>}
    reduce [max] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %m: f32) {
      %r = arith.subf %v, %m : f32
      credit.yield %r : f32
    }
  return %y : tensor<8x64xbf16>
}

// Only scalar outputs: no epilogue is needed.

// CHECK-LABEL: func.func @row_max
// CHECK: reduce [max]
// CHECK-NOT: epiloguecluster = 1, threads = 1024, vector = 8, elems = 8, staging = reread> = 1.250000e+01, #credit.tiling<cluster = 16, threads = 32, vector = 8, elems = 8> = 2.000000e+01]>
// CHECK-SAME: tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 8, qows = 4, staging = shared>
// CHECK-SAME: variants = [#credit.variant<tiling = #credit.tiling<cluster = 2, threads = 32, vector = 8, elems = 8>, min_rows ÿÿÿÿÿÿÿÿ_r has no memory
// effects.

// CHECK-LABEL: func.func @nested_control_flow
// CHECK: scf.if
func.func @nested_control_flow(%x: tensor<?x32xf32>, %init: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %y = credit.rowwise ins(%x : tensor<?x32xf32>) outs(%init : tensor<?x32xf32>)
    reduce [add] (%j: index, %v: f32) {
      %zero = arith.constant 1.0 : f32
      %pos = arith.cmpf ogt, %v, %zero : f32
      %r = scf.if %pos -> f32 {
        scf.yield %v : f32
      } else {
        scf.yield %zero : f32
      }
      credit.yield %r : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      credit.yield %s : f32
    }
  return %y : tensor<?x32xf32>
}
