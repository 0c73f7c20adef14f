module attributes {gpu.container_module} {
gpu.module @"../x" {
  func.func @f(%x: memref<?x256xf32>, %o: memref<?x256xf32>) {
  credit.rowwise "a" ins(%x : memref<?x256xf32>) outs(%o : memref<?x256xf32>)
    reduce [add] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      credit.yield %v : f32
    }
  return
  }
}
}
