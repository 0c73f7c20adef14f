func.func @f(%x: tensor<?x3xf32>, %o: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %y = credit.rowwise "ok" ins(%x : tensor<?x3xf32>) outs(%o : tensor<?x3xf32>) 
    reduce [add] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      %d = arith.divf %v, %s : f32
      credit.yield %d : f32
    }
  return %y : tensor<?x3xf32>
}
