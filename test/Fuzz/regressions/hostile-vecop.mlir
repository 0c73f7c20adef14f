func.func @f(%x: tensor<?x256xf32>, %o: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %y = credit.rowwise "a" ins(%x : tensor<?x256xf32>) outs(%o : tensor<?x256xf32>)
    reduce [add] (%j: index, %v: f32) {
      %t = vector.broadcast %v : f32 to vector<4xf32>
      %e = vector.extract %t[0] : f32 from vector<4xf32>
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      credit.yield %v : f32
    }
  return %y : tensor<?x256xf32>
}
