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
    // sum(p * dy) = sum(e * dy) / sum(e) with e = exp(l - max): both sums
    // of exponentials relative to the maximum, so the two stages merge into
    // one (credit-online-softmax).
    reduce [add, add] (%j: index, %l: f32, %dyv: f32, %max: f32) {
      %d = arith.subf %l, %max : f32
      %e = math.exp %d : f32
      %edy = arith.mulf %e, %dyv : f32
      credit.yield %e, %edy : f32, f32
    }
    epilogue (%j: index, %l: f32, %dyv: f32, %max: f32, %sum: f32, %edot: f32) {
      %d = arith.subf %l, %max : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sum : f32
      %dot = arith.divf %edot, %sum : f32
      %t = arith.subf %dyv, %dot : f32
      %r = arith.mulf %p, %t : f32
      credit.yield %r : f32
    }
  return %dx : tensor<?x${N}x${T}>
}
