// An op without a tiling, for passes that need one (exit-status.mlir).
func.func @untiled(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise "untiled" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}
