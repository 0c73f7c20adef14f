// RUN: credit-opt %s --split-input-file --credit-choose-tiling=profile=%S/Inputs/profile.json | FileCheck %s
// RUN: credit-opt %s --split-input-file --credit-choose-tiling="profile=%S/Inputs/profile.json cluster-size=4" | FileCheck %s --check-prefix=FORCED
// RUN: not credit-opt %s --split-input-file --credit-choose-tiling=cluster-size=3 2>&1 | FileCheck %s --check-prefix=BADSIZE
// RUN: credit-opt %s --split-input-file --credit-choose-tiling="profile=%S/Inputs/profile.json max-splits=1" | FileCheck %s --check-prefix=NOSPLIT
// RUN: not credit-opt %s --split-input-file --credit-choose-tiling=max-splits=0 2>&1 | FileCheck %s --check-prefix=BADSPLITS
// RUN: not credit-opt %s --split-input-file --credit-choose-tiling="chip=sm_120 cluster-size=16" 2>&1 | FileCheck %s --check-prefix=SM120
// NOSPLIT-NOT: splits =
// SM120: error: credit-choose-tiling: no tiling with 16 CTAs per row is legal for N = 262144 on sm_120 (its clusters hold at most 8 CTAs)
// BADSPLITS: error: credit-choose-tiling: max-splits must be from 1 to 64, got 0

// The tilings come from the cost model (a fixed test profile here). With a
// static M the one fastest tiling there; with a dynamic M the fastest at
// every row count, kept as variants whose row ranges cover every M once.

// Few long rows: several CTAs per row (a cluster, or several).
// CHECK-LABEL: func.func @long_rows
// CHECK: tiling = #credit.tiling<{{[^>]*(cluster = (2|4|8|16)|splits = )}}
// CHECK-NOT: variants
// FORCED-LABEL: func.func @long_rows
// FORCED: tiling = #credit.tiling<cluster = 4,
// BADSIZE: error: credit-choose-tiling: cluster-size must be 0 (choose), 1, 2, 4, 8 or 16, got 3
func.func @long_rows(%x: tensor<64x262144xbf16>, %o: tensor<64x262144xbf16>) -> tensor<64x262144xbf16> {
  %r = credit.rowwise ins(%x : tensor<64x262144xbf16>) outs(%o : tensor<64x262144xbf16>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<64x262144xbf16>
}

// -----

// Many short rows: one CTA per row, the row in registers.
// CHECK-LABEL: func.func @short_rows
// CHECK: tiling = #credit.tiling<cluster = 1, threads = {{[0-9]+}}, vector = 8, elems = {{[0-9]+}}>
// CHECK-NOT: variants
func.func @short_rows(%x: tensor<32768x4096xbf16>, %o: tensor<32768x4096xbf16>) -> tensor<32768x4096xbf16> {
  %r = credit.rowwise ins(%x : tensor<32768x4096xbf16>) outs(%o : tensor<32768x4096xbf16>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<32768x4096xbf16>
}

// -----

// A dynamic M: variants from one row up, the last without a bound; the op's
// tiling is one of them. Forced, every variant has that cluster size.
// CHECK-LABEL: func.func @dynamic
// CHECK: tiling = #credit.tiling<
// CHECK-SAME: variants = [#credit.variant<tiling = #credit.tiling<{{.*}}>, min_rows = 1, max_rows = {{[1-9][0-9]*}}>,
// CHECK-SAME: max_rows = 0>]
// FORCED-LABEL: func.func @dynamic
// FORCED-NOT: cluster = {{[^4]}},
// FORCED: return
func.func @dynamic(%x: tensor<?x262144xbf16>, %o: tensor<?x262144xbf16>) -> tensor<?x262144xbf16> {
  %r = credit.rowwise ins(%x : tensor<?x262144xbf16>) outs(%o : tensor<?x262144xbf16>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x262144xbf16>
}

// -----

// An existing tiling is kept unless a cluster size is forced; a forced size
// that no regular tiling has (4 CTAs for 99 columns) gets one with idle
// threads; an odd N gets scalar accesses.
// CHECK-LABEL: func.func @kept
// CHECK: tiling = #credit.tiling<cluster = 2, threads = 64, vector = 1, elems = 8, staging = reread>
// FORCED-LABEL: func.func @kept
// FORCED: tiling = #credit.tiling<cluster = 4, threads = 32, vector = 1,
func.func @kept(%x: tensor<?x99xf32>, %o: tensor<?x99xf32>) -> tensor<?x99xf32> {
  %r = credit.rowwise ins(%x : tensor<?x99xf32>) outs(%o : tensor<?x99xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 64, vector = 1, elems = 8, staging = reread>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x99xf32>
}
