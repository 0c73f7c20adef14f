func.func @f(%x: tensor<?x256xf32>, %o: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %y = credit.rowwise "ok" ins(%x : tensor<?x256xf32>) outs(%o : tensor<?x256xf32>) 
    reduce [add] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      %e = math.erf %v : f32
      %d = math.tan %e : f32
      credit.yield %d : f32
    }
  return %y : tensor<?x256xf32>
}
