func.func @f(%x: tensor<?x0xf32>, %o: tensor<?x0xf32>) -> tensor<?x0xf32> {
  %y = credit.rowwise "ok" ins(%x : tensor<?x0xf32>) outs(%o : tensor<?x0xf32>) 
    reduce [add] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      %d = arith.divf %v, %s : f32
      credit.yield %d : f32
    }
  return %y : tensor<?x0xf32>
}
