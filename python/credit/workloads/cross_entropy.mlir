// cross_entropy: fused forward and backward of
//   loss = F.cross_entropy(logits, target, reduction="none", ignore_index=-100)
//   dlogits = d(loss.sum()) / d(logits) = softmax(logits) - one_hot(target)
// Rows whose target is -100 get loss 0 and dlogits 0.
func.func @cross_entropy(%logits: tensor<?x${N}x${T}>, %target: tensor<?xi64>,
                         %dx0: tensor<?x${N}x${T}>, %loss0: tensor<?xf32>)
    -> (tensor<?x${N}x${T}>, tensor<?xf32>) {
  %dx, %loss = credit.rowwise "cross_entropy" ins(%logits : tensor<?x${N}x${T}>)
      scalars(%target : tensor<?xi64>)
      outs(%dx0 : tensor<?x${N}x${T}>) scalar_outs(%loss0 : tensor<?xf32>)
    reduce [max] (%j: index, %v: f32, %t: i64) {
      credit.yield %v : f32
    }
    reduce [add, add] (%j: index, %v: f32, %t: i64, %max: f32) {
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %t : i64
      %zero = arith.constant 0.0 : f32
      %picked = arith.select %hit, %v, %zero : f32
      credit.yield %e, %picked : f32, f32
    }
    epilogue (%j: index, %v: f32, %t: i64, %max: f32, %sum: f32, %xt: f32) {
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %ignore = arith.constant -100 : i64
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sum : f32
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %t : i64
      %oh = arith.select %hit, %one, %zero : f32
      %g = arith.subf %p, %oh : f32
      %ignored = arith.cmpi eq, %t, %ignore : i64
      %r = arith.select %ignored, %zero, %g : f32
      credit.yield %r : f32
    }
    finalize (%t: i64, %max: f32, %sum: f32, %xt: f32) {
      %zero = arith.constant 0.0 : f32
      %ignore = arith.constant -100 : i64
      %lse0 = math.log %sum : f32
      %lse = arith.addf %lse0, %max : f32
      %l = arith.subf %lse, %xt : f32
      %ignored = arith.cmpi eq, %t, %ignore : i64
      %r = arith.select %ignored, %zero, %l : f32
      credit.yield %r : f32
    }
  return %dx, %loss : tensor<?x${N}x${T}>, tensor<?xf32>
}
