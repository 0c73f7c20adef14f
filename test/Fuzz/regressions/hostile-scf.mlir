func.func @f(%x: tensor<?x256xf32>, %o: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %y = credit.rowwise "a" ins(%x : tensor<?x256xf32>) outs(%o : tensor<?x256xf32>)
    reduce [add] (%j: index, %v: f32) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %r = scf.for %i = %c0 to %j step %c1 iter_args(%a = %v) -> f32 {
        %b = arith.addf %a, %v : f32
        scf.yield %b : f32
      }
      credit.yield %r : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      credit.yield %v : f32
    }
  return %y : tensor<?x256xf32>
}
