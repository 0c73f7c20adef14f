func.func @f(%x: tensor<?x256xf32>) {
  credit.rowwise "a" ins(%x : tensor<?x256xf32>)
    reduce [add] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
  return
}
