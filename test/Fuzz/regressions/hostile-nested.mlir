func.func @f(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = credit.rowwise "a" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) {
      %t = tensor.empty() : tensor<4x64xf32>
      %u = credit.rowwise "b" ins(%t : tensor<4x64xf32>) outs(%t : tensor<4x64xf32>)
        reduce [add] (%k: index, %w: f32) { credit.yield %w : f32 }
        epilogue (%k: index, %w: f32, %s: f32) { credit.yield %s : f32 }
      credit.yield %v : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}
