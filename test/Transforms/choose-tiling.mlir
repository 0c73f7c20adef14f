// RUN: credit-opt %s --split-input-file --credit-choose-tiling | FileCheck %s
// RUN: credit-opt %s --split-input-file --credit-choose-tiling=cluster-size=4 | FileCheck %s --check-prefix=FORCED
// RUN: not credit-opt %s --split-input-file --credit-choose-tiling=cluster-size=3 2>&1 | FileCheck %s --check-prefix=BADSIZE

// A bf16 row of 8192 fits in the registers of one CTA: 256 threads with 32
// elements each, 16-byte (8 x bf16) accesses.
// CHECK-LABEL: func.func @short_row
// CHECK: tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 32>
// FORCED-LABEL: func.func @short_row
// FORCED: tiling = #credit.tiling<cluster = 4, threads = 256, vector = 8, elems = 8>
// BADSIZE: error: credit-choose-tiling: cluster-size must be 0 (choose), 1, 2, 4, 8 or 16, got 3
func.func @short_row(%x: tensor<?x8192xbf16>, %o: tensor<?x8192xbf16>) -> tensor<?x8192xbf16> {
  %r = credit.rowwise ins(%x : tensor<?x8192xbf16>) outs(%o : tensor<?x8192xbf16>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x8192xbf16>
}

// -----

// A row of 131072 bf16 needs the registers of 8 CTAs.
// CHECK-LABEL: func.func @long_row
// CHECK: tiling = #credit.tiling<cluster = 8, threads = 256, vector = 8, elems = 64>
// FORCED-LABEL: func.func @long_row
// FORCED: tiling = #credit.tiling<cluster = 4, threads = 1024, vector = 8, elems = 16, staging = shared>
func.func @long_row(%x: tensor<?x131072xbf16>, %o: tensor<?x131072xbf16>) -> tensor<?x131072xbf16> {
  %r = credit.rowwise ins(%x : tensor<?x131072xbf16>) outs(%o : tensor<?x131072xbf16>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x131072xbf16>
}

// -----

// Too long for registers anywhere: staged in the shared memory of 16 CTAs,
// or reread when even that is too small.
// CHECK-LABEL: func.func @very_long_rows
// CHECK: tiling = #credit.tiling<cluster = 16, threads = 1024, vector = 8, elems = 16, staging = shared>
// CHECK: tiling = #credit.tiling<cluster = 16, threads = 1024, vector = 4, elems = 16, staging = reread>
// FORCED-LABEL: func.func @very_long_rows
// FORCED: staging = reread
// FORCED: staging = reread
func.func @very_long_rows(%x: tensor<?x1048576xbf16>, %o: tensor<?x1048576xbf16>,
                          %y: tensor<?x1048576xf32>, %p: tensor<?x1048576xf32>) {
  %r = credit.rowwise ins(%x : tensor<?x1048576xbf16>) outs(%o : tensor<?x1048576xbf16>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  %s = credit.rowwise ins(%y : tensor<?x1048576xf32>) outs(%p : tensor<?x1048576xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return
}

// -----

// An existing tiling is kept unless a cluster size is forced; an odd N gets
// scalar accesses.
// CHECK-LABEL: func.func @kept
// CHECK: tiling = #credit.tiling<cluster = 2, threads = 64, vector = 1, elems = 8, staging = reread>
// FORCED-LABEL: func.func @kept
// FORCED: tiling = #credit.tiling<cluster = 4, threads = 32, vector = 1, elems = 1>
func.func @kept(%x: tensor<?x99xf32>, %o: tensor<?x99xf32>) -> tensor<?x99xf32> {
  %r = credit.rowwise ins(%x : tensor<?x99xf32>) outs(%o : tensor<?x99xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 64, vector = 1, elems = 8, staging = reread>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x99xf32>
}
