func.func @split(%x: tensor<?x16384xf32>, %o: tensor<?x16384xf32>) -> tensor<?x16384xf32> {
  %r = credit.rowwise ins(%x : tensor<?x16384xf32>) outs(%o : tensor<?x16384xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 4, elems = 8, splits = 4>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x16384xf32>
}
