// RUN: credit-opt %s | FileCheck %s
// RUN: credit-opt %s | credit-opt | FileCheck %s
// RUN: credit-opt %s --mlir-print-op-generic | credit-opt | FileCheck %s
// RUN: credit-opt %s --verify-roundtrip > /dev/null

// Every operand group, on tensors with a dynamic row count.

// CHECK-LABEL: func.func @all_groups
// CHECK: %{{.*}}:4 = credit.rowwise "demo" ins(%{{.*}}, %{{.*}} : tensor<?x256xbf16>, tensor<?x256xf16>)
// CHECK-SAME: bcast(%{{.*}} : tensor<256xf32>) scalars(%{{.*}}, %{{.*}} : tensor<?xf32>, tensor<?xi64>)
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<?x256xbf16>, tensor<?x256xi8>) scalar_outs(%{{.*}} : tensor<?xf32>)
// CHECK-SAME: colsum_outs(%{{.*}} : tensor<4x256xf32>)
// CHECK-NEXT: reduce [max, min] (%j: index, %in0: f32, %in1: f32, %bc0: f32, %sc0: f32, %sc1: i64) {
// CHECK: credit.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK: reduce [add] (%j: index, %in0: f32, %in1: f32, %bc0: f32, %sc0: f32, %sc1: i64, %red0: f32, %red1: f32) {
// CHECK: epilogue (%j: index, %in0: f32, %in1: f32, %bc0: f32, %sc0: f32, %sc1: i64, %red0: f32, %red1: f32, %red2: f32) {
// CHECK: credit.yield %{{.*}}, %{{.*}}, %{{.*}} : f32, i8, f32
// CHECK: finalize (%sc0: f32, %sc1: i64, %red0: f32, %red1: f32, %red2: f32) {
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
// CHECK-SAME: attributes {tiling = #credit.tiling<cluster = 2, threads = 128, vector = 4, elems = 4>}
// CHECK-NEXT: reduce [add]
// CHECK: epilogue
// CHECK-NOT: finalize
func.func @buffers(%x: memref<64x1000xf32, strided<[1024, 1]>>, %y: memref<64x1000xf16>) {
  credit.rowwise ins(%x : memref<64x1000xf32, strided<[1024, 1]>>) outs(%y : memref<64x1000xf16>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 128, vector = 4, elems = 4, rows = 1, staging = registers>}
    reduce [add] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.divf %v, %s : f32
      credit.yield %r : f32
    }
  return
}

// A tiling, variants by row count and a cost annotation. Default rows,
// staging and exchange are elided; a barrier exchange is printed.

// CHECK-LABEL: func.func @annotated
// CHECK: credit.rowwise
// CHECK-SAME: cost = #credit.cost<rows = 4096, profitable = false, candidates = [#credit.tiling<cluster = 1, threads = 1024, vector = 8, elems = 8, staging = reread> = 1.250000e+01, #credit.tiling<cluster = 16, threads = 32, vector = 8, elems = 8> = 2.000000e+01]>
// CHECK-SAME: tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 8, rows = 4, staging = shared>
// CHECK-SAME: variants = [#credit.variant<tiling = #credit.tiling<cluster = 2, threads = 32, vector = 8, elems = 8, exchange = barrier>, min_rows = 1, max_rows = 3>, #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 8, rows = 4, staging = shared>, min_rows = 4, max_rows = 0>]
func.func @annotated(%x: tensor<8x64xbf16>, %init: tensor<8x64xbf16>) -> tensor<8x64xbf16> {
  %y = credit.rowwise ins(%x : tensor<8x64xbf16>) outs(%init : tensor<8x64xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 8, rows = 4, staging = shared>,
                  variants = [
                    #credit.variant<tiling = #credit.tiling<cluster = 2, threads = 32, vector = 8, elems = 8, exchange = barrier>, min_rows = 1, max_rows = 3>,
                    #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 8, rows = 4, staging = shared>, min_rows = 4, max_rows = 0>],
                  cost = #credit.cost<rows = 4096, profitable = false, candidates = [
                    #credit.tiling<cluster = 1, threads = 1024, vector = 8, elems = 8, staging = reread> = 12.5,
                    #credit.tiling<cluster = 16, threads = 32, vector = 8, elems = 8, exchange = async> = 20.0]>}
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
// CHECK-NOT: epilogue
// CHECK: finalize (%red0: f32)
func.func @row_max(%x: tensor<?x128xf16>, %init: tensor<?xf16>) -> tensor<?xf16> {
  %m = credit.rowwise ins(%x : tensor<?x128xf16>) scalar_outs(%init : tensor<?xf16>)
    reduce [max] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    finalize (%mx: f32) {
      credit.yield %mx : f32
    }
  return %m : tensor<?xf16>
}

// Reduction regions may use structured control flow that has no memory
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

// The online softmax normalizer: addexp sums relative to the max before it.

// CHECK-LABEL: func.func @online_softmax
// CHECK: reduce [max, addexp, add] (%j: index, %in0: f32) {
// CHECK: credit.yield %in0, %{{.*}}, %in0 : f32, f32, f32
// CHECK: epilogue (%j: index, %in0: f32, %red0: f32, %red1: f32, %red2: f32)
func.func @online_softmax(%x: tensor<?x512xf32>, %o: tensor<?x512xf32>) -> tensor<?x512xf32> {
  %y = credit.rowwise ins(%x : tensor<?x512xf32>) outs(%o : tensor<?x512xf32>)
    reduce [max, addexp, add] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one, %v : f32, f32, f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32, %t: f32) {
      credit.yield %s : f32
    }
  return %y : tensor<?x512xf32>
}

// No reduction stage: a row-wise map whose epilogue and finalize region
// see the per-row scalars (the combine part of a split row).
// CHECK-LABEL: func.func @no_stage
// CHECK: credit.rowwise "map" ins(%{{.*}} : tensor<?x64xf32>) scalars(%{{.*}} : tensor<?xf32>) outs(%{{.*}} : tensor<?x64xf32>) scalar_outs(%{{.*}} : tensor<?xf32>)
// CHECK-NEXT: epilogue (%{{.*}}: index, %{{.*}}: f32, %{{.*}}: f32) {
// CHECK: finalize (%{{.*}}: f32) {
func.func @no_stage(%x: tensor<?x64xf32>, %s: tensor<?xf32>, %o: tensor<?x64xf32>, %l: tensor<?xf32>) -> (tensor<?x64xf32>, tensor<?xf32>) {
  %r, %q = credit.rowwise "map" ins(%x : tensor<?x64xf32>) scalars(%s : tensor<?xf32>) outs(%o : tensor<?x64xf32>) scalar_outs(%l : tensor<?xf32>)
    epilogue (%j: index, %v: f32, %c: f32) {
      %y = arith.mulf %v, %c : f32
      credit.yield %y : f32
    }
    finalize (%c: f32) { credit.yield %c : f32 }
  return %r, %q : tensor<?x64xf32>, tensor<?xf32>
}
