// RUN: credit-opt %s | FileCheck %s
// RUN: credit-opt %s | credit-opt | FileCheck %s
// RUN: credit-opt %s --mlir-print-op-generic | credit-opt | FileCheck %s
// RUN: credit-opt %s --verify-roundtrip > /dev/null

// Every operand group, on tensors with a dynamic row count.

// CHECK-LABEL: func.func @all_groups
// CHECK: %{{.*}}:4 = credit.rowwise "demo" ins(%{{.*}}, %{{.*}} : tensor<?x256xbf16>, tensor<?x256xf16>)
// CHECK-SAME: bcast(%{{.*}} : tensor<256xf32>) scalars(%{{.*}}, %{{.*}} : tensor<?xf32>, tensor<?xi64>)
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<?x25in1: f32, %bc0: f32, %sc0: f32, %sc1: i64) {
// CHECK: credit.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK: reduce [add] (%j: index, %in0: f32, %in1: f32, %bc0: f32, %sc0: f32, %sc1: i64, %red0: f32, %red1: f32) {
// CHECK: epilogue (%j: index, %in0: f32, %in1: f32, %bc0: f32, %sc0: f32, %sc1: i64, %red0: f32, %red1: f32, %red2: f32) {
// CHECK: credit.yield %{{.*}}, %{{.*}}, %{{.*}} : f32, i8, f32öÐÐØCHECK: finalize (%sc0: f32, %sc1: i64, %red0: f32, %red1: f32, %red2: f32) {
// CHECK: credit.yield %{{.*}} : f32
func.func @all_groups(%a: tensor<?x256xbf16>, %b: tensor<?x256xf16>, %w: tensor<256xf32>,
                      %g: tensor<?xf32>, %t: tensor<?xi64>, %o0: tensor<?x256xbf16>,
                      %o1: tensor<?x256xi8>, %s0: tensor<?xf32>, %c0: tensor<4x256xf32>)
    -> (tensor<?x256xbf16>, tensor<?x256xi8>, tensor<?xf32>, tensor<4x256xf32>) {
  %r:4 = credit.rowwise "demo" ins(%a, %b : tensor<?x256xbf16>, tensor<?x256xf16>)
      bcast(%w : tensor<256xf32>) scalars(%g, %t : tensor<?xf32>, tensor<?xi64>)
      outs(%o0, %o1 : tensor<?x256xbf16>, tensor<?x256xi8>) scalar_outs(%s0 : tensor<?xf32>)
      colsum_outs(%c0 : tensor<4x256xf32>)
    reduce [max, min] (%j: index, %x: f32, %y: f32, %wv: f32, %gv: f32, %tv: i64) {
      credit.yield %x, %y : f32, f32
    }
    reduce [add] (%j: index, %x: f32, %y: f32, %wv: f32, %gv: f32, %tv: i64, %mx: f32, %mn: f32) {
      %p = arith.mulf %x, %y : f32
      credit.yield %p : f32
    }
    epilogue (%j: index, %x: f32, %y: f32, %wv: f32, %gv: f32, %tv: i64, %mx: f32, %mn: f32, %s: f32) {
      %q = arith.fptosi %x : f32 to i8
      credit.yield %x, %q, %y : f32, i8, f32
    }
    finalize (%gv: f32, %tv: i64, %mx: f32, %mn: f32, %s: f32) {
      credit.yield %s : f32
    }
  return %r#0, %r#1, %r#2, %r#3 : tensor<?x256xbf16>, tensor<?x256xi8>, tensor<?xf32>, tensor<4x256xf32>
}

// On memrefs the op writes its outputs and returns nothing; rows may be
// strided with a unit inner stride, and the row count may be static.

// CHECK-LABEL: func.func @buffers
// CHECK: credit.rowwise ins(%{{.*}} : memref<64x1000xf32, strided<[1024, 1]>>) outs(%{{.*}} : memref<64x1000xf16>)
// CHEC_flow(%x: tensor<?x32xf32>, %initdit.tiling<cluster = 2, threads = 128, vector = 4, elems = 4>}
// CHECK-NEXT: reduce [add]
// CHECK: epilogue
// CHECK-NOT: finalize
func.func @buffers(%x: memref<64x1000xf32, strided<[1024, 1]>>, %y: memref<64x1000xf16>) {
  credit.rowwise ins(%x : memref<64x1000xf32, strided<[1024, 1]>>) outs(%y : memref<64x1000xf16>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 128, vector = 4, elems = 4, rows = 1, staging = registers>@}
    reduce [add] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.divf %v, %s : f32
      credit.yield %r : f32
    }
  return
}

// A tiling, variants by row count and a cost annotation. Default rows and
// staging are elided.

// CHECK-LABEL: func.func @annotated
// CHECK: credit.rowwise
// CHECK-SAME: cost = #credit.cost<rows = 4096, profitable = false, canr = 1, threads = 256, vector = 8, elems = 8, rows tion regions may use structured control flow that has no memory
// effects.

// CHECK-LABEL: func.func @nested_control_flow
// CHECK: scf.if
func.func @nested_control_flow(%x: tensor<?x32xf32>, %init: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %y = credit.rowwise ins(%x : tensor<?x32xf32>) outs(%init : tensor<?x32xf32>)
    reduce [add] (%j: index, %v: f32) {
      %zero = arith.constant 0.0 : f32
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
