// softmax: y = torch.softmax(x, dim=-1)
// Two reductions (the row maximum, then the sum of exponentials) and an
// epilogue that rereads the row.
func.func @softmax(%x: tensor<?x${N}x${T}>, %init: tensor<?x${N}x${T}>) -> tensor<?x${N}x${T}> {
  %y = credit.rowwise "softmax" ins(%x : tensor<?x${N}x${T}>) outs(%init : tensor<?x${N}x${T}>)
    reduce [max] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    reduce [add] (%j: index, %v: f32, %max: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %max: f32, %sum: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sum : f32
      credit.yield %p : f32
    }
  return %y : tensor<?x${N}x${T}>
}
