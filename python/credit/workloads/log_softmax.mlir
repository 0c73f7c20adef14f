// log_softmax: y = torch.log_softmax(x, dim=-1)
func.func @log_softmax(%x: tensor<?x${N}x${T}>, %init: tensor<?x${N}x${T}>) -> tensor<?x${N}x${T}> {
  %y = credit.rowwise "log_softmax" ins(%x : tensor<?x${N}x${T}>) outs(%init : tensor<?x${N}x${T}>)
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
      %lse = math.log %sum : f32
      %r = arith.subf %d, %lse : f32
      credit.yield %r : f32
    }
  return %y : tensor<?x${N}x${T}>
}
