// softmax_logits_bwd (the paper's workload 4): p = softmax(logits);
//   dx = p * (dy - sum(p * dy))
// (torch: torch.autograd.grad(torch.softmax(logits, -1), logits, dy)).
func.func @softmax_logits_bwd(%logits: tensor<?x${N}x${T}>, %dy: tensor<?x${N}x${T}>,
                              %dx0: tensor<?x${N}x${T}>) -> tensor<?x${N}x${T}> {
  %dx = credit.rowwise "softmax_logits_bwd" ins(%logits, %dy : tensor<?x${N}x${T}>, tensor<?x${N}x${T}>)
      outs(%dx0 : tensor<?x${N}x${T}>)
    reduce [max] (%j: index, %l: f32, %dyv: f32) {
      credit.yield %l : f32
    }
    reduce [add] (%j: index, %l: f32, %dyv: f32, %max: f32) {
      %d = arith.subf %l, %max : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    reduce [add] (%j: index, %l: f32, %dyv: f32, %max: f32, %sum: f32) {
      %d = arith.subf %l, %max : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sum : f32
      %pdy = arith.mulf %p, %dyv : f32
      credit.yield %pdy : f32
    }
    epilogue (%j: index, %l: f32, %dyv: f32, %max: f32, %sum: f32, %dot: f32) {
      %d = arith.subf %l, %max : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sum : f32
      %t = arith.subf %dyv, %dot : f32
      %r = arith.mulf %p, %t : f32
      credit.yield %r : f32
    }
  return %dx : tensor<?x${N}x${T}>
}
