// rowwise_quant (the paper's workload 6): amax = max|x| per row;
//   q = int8(clamp(round(x * 127 / amax), -127, 127)), 0 where amax = 0
//   scale = amax / 127
// (torch: amax = x.abs().amax(-1, keepdim=True);
//  q = torch.where(amax > 0, (x * 127 / amax).round().clamp(-127, 127), 0).to(torch.int8))
func.func @rowwise_quant(%x: tensor<?x${N}x${T}>, %q0: tensor<?x${N}xi8>, %scale0: tensor<?xf32>)
    -> (tensor<?x${N}xi8>, tensor<?xf32>) {
  %q, %scale = credit.rowwise "rowwise_quant" ins(%x : tensor<?x${N}x${T}>)
      outs(%q0 : tensor<?x${N}xi8>) scalar_outs(%scale0 : tensor<?xf32>)
    reduce [max] (%j: index, %v: f32) {
      %a = math.absf %v : f32
      credit.yield %a : f32
    }
    epilogue (%j: index, %v: f32, %amax: f32) {
      %zero = arith.constant 0.0 : f32
      %qmax = arith.constant 127.0 : f32
      %qmin = arith.constant -127.0 : f32
      %s = arith.mulf %v, %qmax : f32
      %t = arith.divf %s, %amax : f32
      %r = math.roundeven %t : f32
      %lo = arith.maximumf %r, %qmin : f32
      %c = arith.minimumf %lo, %qmax : f32
      %pos = arith.cmpf ogt, %amax, %zero : f32
      %sel = arith.select %pos, %c, %zero : f32
      %qv = arith.fptosi %sel : f32 to i8
      credit.yield %qv : i8
    }
    finalize (%amax: f32) {
      %qmax = arith.constant 127.0 : f32
      %sc = arith.divf %amax, %qmax : f32
      credit.yield %sc : f32
    }
  return %q, %scale : tensor<?x${N}xi8>, tensor<?xf32>
}
