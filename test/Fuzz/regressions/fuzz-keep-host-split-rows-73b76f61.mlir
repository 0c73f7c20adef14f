

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

