// A stray token after a dialect attribute: MLIR's lexer reports an error
// that the attribute parser then drops, and the module still parses
// (found by credit-fuzz).
func.func @f(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise "f" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 64, vector = 1, elems = 1>@}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}
