// RUN: credit-opt %s --split-input-file --credit-raise-linalg | FileCheck %s

// credit-raise-linalg turns reduction-reuse computations written in linalg
// (as torch-mlir, StableHLO and IREE emit them) into one credit.rowwise op
// each. The checks follow behaviour: which operands become which operand
// groups, the stages and their combiners, the outputs and what reads them,
// and that the linalg ops are gone; test/Transforms/raise-linalg-negative.mlir
// holds what must be left alone.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d0)>
// torch-mlir's softmax: max and sum kept as [M, 1], read back through
// (d0, 0) maps.
// CHECK-LABEL: func.func @torch_softmax
// CHECK-SAME: (%[[X:.*]]: tensor<4x1000xf32>)
// CHECK: %[[R:.*]] = credit.rowwise "torch_softmax_0" ins(%[[X]] : tensor<4x1000xf32>) outs(%{{.*}} : tensor<4x1000xf32>)
// CHECK-NEXT: reduce [max]
// CHECK: reduce [add]
// CHECK: math.exp
// CHECK: epilogue
// CHECK: arith.divf
// CHECK: return %[[R]]
// CHECK-NOT: linalg.
// torch-mlir style: aten._softmax decomposed, keepdim reductions.
func.func @torch_softmax(%x: tensor<4x1000xf32>) -> tensor<4x1000xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %max = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x1000xf32>) outs(%f1 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %e2 = tensor.empty() : tensor<4x1000xf32>
  %sub = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x1000xf32>, tensor<4x1xf32>) outs(%e2 : tensor<4x1000xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.subf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<4x1000xf32>
  %exp = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<4x1000xf32>) outs(%e2 : tensor<4x1000xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<4x1000xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4x1000xf32>) outs(%f2 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4x1xf32>
  %div = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<4x1000xf32>, tensor<4x1xf32>) outs(%e2 : tensor<4x1000xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %d = arith.divf %in, %in_0 : f32
    linalg.yield %d : f32
  } -> tensor<4x1000xf32>
  return %div : tensor<4x1000xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col3 = affine_map<(d0, d1, d2) -> (d2)>
// Llama's RMSNorm on [batch, seq, hidden] bf16 with f32 math and the
// weight multiplied in bf16: leading dimensions collapse into M and expand
// back, the bf16 product stays bf16.
// CHECK-LABEL: func.func @llama_rmsnorm
// CHECK-SAME: (%[[H:.*]]: tensor<?x?x4096xbf16>, %[[W:.*]]: tensor<4096xbf16>)
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[H]] {{\[\[}}0, 1], [2]] : tensor<?x?x4096xbf16> into tensor<?x4096xbf16>
// CHECK: %[[R:.*]] = credit.rowwise "llama_rmsnorm_0" ins(%[[ROWS]] : tensor<?x4096xbf16>) bcast(%[[W]] : tensor<4096xbf16>) outs(%{{.*}} : tensor<?x4096xbf16>)
// CHECK-NEXT: reduce [add]
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: epilogue
// CHECK: math.rsqrt
// CHECK: arith.mulf %{{.*}}, %{{.*}} : bf16
// CHECK: %[[OUT:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1], [2]] output_shape
// CHECK: return %[[OUT]]
// CHECK-NOT: linalg.
func.func @llama_rmsnorm(%h: tensor<?x?x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<?x?x4096xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 4096.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %d0 = tensor.dim %h, %c0 : tensor<?x?x4096xbf16>
  %d1 = tensor.dim %h, %c1 : tensor<?x?x4096xbf16>
  %e = tensor.empty(%d0, %d1) : tensor<?x?x4096xf32>
  %hf = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%h : tensor<?x?x4096xbf16>) outs(%e : tensor<?x?x4096xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %x = arith.extf %in : bf16 to f32
    linalg.yield %x : f32
  } -> tensor<?x?x4096xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%hf : tensor<?x?x4096xf32>) outs(%e : tensor<?x?x4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.mulf %in, %in : f32
    linalg.yield %x : f32
  } -> tensor<?x?x4096xf32>
  %z = tensor.empty(%d0, %d1) : tensor<?x?x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%z : tensor<?x?x1xf32>) -> tensor<?x?x1xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #keep3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sq : tensor<?x?x4096xf32>) outs(%zf : tensor<?x?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<?x?x1xf32>
  %rs = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sum : tensor<?x?x1xf32>) outs(%z : tensor<?x?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    linalg.yield %r : f32
  } -> tensor<?x?x1xf32>
  %y = linalg.generic {indexing_maps = [#id3, #keep3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%hf, %rs : tensor<?x?x4096xf32>, tensor<?x?x1xf32>) outs(%e : tensor<?x?x4096xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %x = arith.mulf %in, %in_0 : f32
    linalg.yield %x : f32
  } -> tensor<?x?x4096xf32>
  %eb = tensor.empty(%d0, %d1) : tensor<?x?x4096xbf16>
  %yb = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y : tensor<?x?x4096xf32>) outs(%eb : tensor<?x?x4096xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %x = arith.truncf %in : f32 to bf16
    linalg.yield %x : bf16
  } -> tensor<?x?x4096xbf16>
  %out = linalg.generic {indexing_maps = [#col3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %yb : tensor<4096xbf16>, tensor<?x?x4096xbf16>) outs(%eb : tensor<?x?x4096xbf16>) {
  ^bb0(%in: bf16, %in_0: bf16, %o: bf16):
    %x = arith.mulf %in, %in_0 : bf16
    linalg.yield %x : bf16
  } -> tensor<?x?x4096xbf16>
  return %out : tensor<?x?x4096xbf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
// LayerNorm with its mean and rstd returned: two stages (the variance is
// centred on the mean), both per-row values computed in finalize. M = N:
// the per-row [512] values and the [512] weights are told apart by how
// they are read.
// CHECK-LABEL: func.func @layernorm
// CHECK-SAME: (%[[X:.*]]: tensor<512x512xf32>, %[[G:.*]]: tensor<512xf32>, %[[B:.*]]: tensor<512xf32>)
// CHECK: %[[R:.*]]:3 = credit.rowwise "layernorm_0" ins(%[[X]] : tensor<512x512xf32>) bcast(%[[G]], %[[B]] : tensor<512xf32>, tensor<512xf32>) outs(%{{.*}} : tensor<512x512xf32>) scalar_outs(%{{.*}}, %{{.*}} : tensor<512xf32>, tensor<512xf32>)
// CHECK-NEXT: reduce [add]
// CHECK: reduce [add]
// CHECK: epilogue
// CHECK: finalize
// CHECK: math.rsqrt
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
// CHECK-NOT: linalg.
// LayerNorm (two passes: mean, then centred variance); mean and rstd are
// returned too. M = N = 512 static: per-row [512] and the [512] weights
// are told apart by how they are read.
func.func @layernorm(%x: tensor<512x512xf32>, %g: tensor<512xf32>, %b: tensor<512xf32>)
    -> (tensor<512x512xf32>, tensor<512xf32>, tensor<512xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 512.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512xf32>) -> tensor<512xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<512x512xf32>) outs(%f : tensor<512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<512xf32>
  %mean = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%s : tensor<512xf32>) outs(%e1 : tensor<512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    linalg.yield %m : f32
  } -> tensor<512xf32>
  %e2 = tensor.empty() : tensor<512x512xf32>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<512x512xf32>, tensor<512xf32>) outs(%e2 : tensor<512x512xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<512x512xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<512x512xf32>) outs(%f : tensor<512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.mulf %in, %in : f32
    %a = arith.addf %q, %out : f32
    linalg.yield %a : f32
  } -> tensor<512xf32>
  %rstd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%ss : tensor<512xf32>) outs(%e1 : tensor<512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %var = arith.divf %in, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<512xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %rstd, %g, %b : tensor<512x512xf32>, tensor<512xf32>, tensor<512xf32>, tensor<512xf32>)
      outs(%e2 : tensor<512x512xf32>) {
  ^bb0(%in: f32, %r: f32, %gi: f32, %bi: f32, %out: f32):
    %t = arith.mulf %in, %r : f32
    %u = arith.mulf %t, %gi : f32
    %w = arith.addf %u, %bi : f32
    linalg.yield %w : f32
  } -> tensor<512x512xf32>
  return %y, %mean, %rstd : tensor<512x512xf32>, tensor<512xf32>, tensor<512xf32>
}

// Cross-entropy written as a chain: per-row loss and the gradient, the
// target picked with linalg.index.

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
// Cross-entropy as a chain: the target's logit picked with linalg.index,
// the row's max and the picked logit in one stage, the per-row loss and
// the gradient.
// CHECK-LABEL: func.func @cross_entropy
// CHECK-SAME: (%[[X:.*]]: tensor<?x32000xf32>, %[[T:.*]]: tensor<?xi64>)
// CHECK: %[[R:.*]]:2 = credit.rowwise "cross_entropy_0" ins(%[[X]] : tensor<?x32000xf32>) scalars(%[[T]] : tensor<?xi64>) outs(%{{.*}} : tensor<?x32000xf32>) scalar_outs(%{{.*}} : tensor<?xf32>)
// CHECK-NEXT: reduce [max, add] (%[[J:.*]]: index,
// CHECK: arith.index_cast %[[J]] : index to i64
// CHECK: reduce [add]
// CHECK: epilogue
// CHECK: finalize
// CHECK: math.log
// CHECK: return %[[R]]#1, %[[R]]#0
// CHECK-NOT: linalg.
func.func @cross_entropy(%x: tensor<?x32000xf32>, %t: tensor<?xi64>) -> (tensor<?xf32>, tensor<?x32000xf32>) {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x32000xf32>
  %e1 = tensor.empty(%m) : tensor<?xf32>
  %fmax = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x32000xf32>) outs(%fmax : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.maximumf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<?x32000xf32>, tensor<?xf32>) outs(%f0 : tensor<?xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %e = math.exp %d : f32
    %a = arith.addf %e, %out : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %picked = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %t : tensor<?x32000xf32>, tensor<?xi64>) outs(%f0 : tensor<?xf32>) {
  ^bb0(%in: f32, %ti: i64, %out: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %hit = arith.cmpi eq, %ji, %ti : i64
    %p = arith.select %hit, %in, %zero : f32
    %a = arith.addf %p, %out : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %loss = linalg.generic {indexing_maps = [#v, #v, #v, #v], iterator_types = ["parallel"]}
      ins(%sum, %max, %picked : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
  ^bb0(%s: f32, %mx: f32, %p: f32, %out: f32):
    %l = math.log %s : f32
    %lse = arith.addf %l, %mx : f32
    %r = arith.subf %lse, %p : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%m) : tensor<?x32000xf32>
  %grad = linalg.generic {indexing_maps = [#id, #row, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum, %t : tensor<?x32000xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xi64>) outs(%e2 : tensor<?x32000xf32>) {
  ^bb0(%in: f32, %mx: f32, %s: f32, %ti: i64, %out: f32):
    %d = arith.subf %in, %mx : f32
    %e = math.exp %d : f32
    %p = arith.divf %e, %s : f32
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %hit = arith.cmpi eq, %ji, %ti : i64
    %oh = arith.select %hit, %one, %zero : f32
    %g = arith.subf %p, %oh : f32
    linalg.yield %g : f32
  } -> tensor<?x32000xf32>
  return %loss, %grad : tensor<?xf32>, tensor<?x32000xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
// Row-wise int8 quantization: an i8 row output and the per-row scale; the
// accumulator starts at 0, not max's identity, so the result combines it.
// CHECK-LABEL: func.func @rowwise_quant
// CHECK: %[[R:.*]]:2 = credit.rowwise "rowwise_quant_0" ins(%{{.*}} : tensor<?x4096xf32>) outs(%{{.*}} : tensor<?x4096xi8>) scalar_outs(%{{.*}} : tensor<?xf32>)
// CHECK-NEXT: reduce [max]
// CHECK: math.absf
// CHECK: epilogue
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %[[ZERO]], %{{.*}} : f32
// CHECK: arith.fptosi %{{.*}} : f32 to i8
// CHECK: credit.yield %{{.*}} : i8
// CHECK: return %[[R]]#0, %[[R]]#1
// CHECK-NOT: linalg.
func.func @rowwise_quant(%x: tensor<?x4096xf32>) -> (tensor<?x4096xi8>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %q = arith.constant 127.0 : f32
  %nq = arith.constant -127.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x4096xf32>
  %e1 = tensor.empty(%m) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %amax = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x4096xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = math.absf %in : f32
    %r = arith.maximumf %a, %out : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%m) : tensor<?x4096xi8>
  %qx = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %amax : tensor<?x4096xf32>, tensor<?xf32>) outs(%e2 : tensor<?x4096xi8>) {
  ^bb0(%in: f32, %a: f32, %out: i8):
    %s = arith.divf %q, %a : f32
    %v = arith.mulf %in, %s : f32
    %r = math.roundeven %v : f32
    %c = arith.minimumf %r, %q : f32
    %c2 = arith.maximumf %c, %nq : f32
    %i = arith.fptosi %c2 : f32 to i8
    linalg.yield %i : i8
  } -> tensor<?x4096xi8>
  %scale = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%amax : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
  ^bb0(%a: f32, %out: f32):
    %s = arith.divf %a, %q : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %qx, %scale : tensor<?x4096xi8>, tensor<?xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
// Softmax backward: two bf16 row inputs.
// CHECK-LABEL: func.func @softmax_bwd
// CHECK-SAME: (%[[Y:.*]]: tensor<8x2048xbf16>, %[[DY:.*]]: tensor<8x2048xbf16>)
// CHECK: credit.rowwise "softmax_bwd_0" ins(%[[Y]], %[[DY]] : tensor<8x2048xbf16>, tensor<8x2048xbf16>) outs(%{{.*}} : tensor<8x2048xbf16>)
// CHECK-NEXT: reduce [add]
// CHECK: epilogue
// CHECK-NOT: linalg.
func.func @softmax_bwd(%y: tensor<8x2048xbf16>, %dy: tensor<8x2048xbf16>) -> tensor<8x2048xbf16> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y, %dy : tensor<8x2048xbf16>, tensor<8x2048xbf16>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: bf16, %b: bf16, %out: f32):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %p = arith.mulf %af, %bf : f32
    %r = arith.addf %p, %out : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x2048xbf16>
  %dx = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %dy, %s : tensor<8x2048xbf16>, tensor<8x2048xbf16>, tensor<8xf32>) outs(%e2 : tensor<8x2048xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %sv: f32, %out: bf16):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %d = arith.subf %bf, %sv : f32
    %r = arith.mulf %af, %d : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x2048xbf16>
  return %dx : tensor<8x2048xbf16>
}

// StableHLO-style named ops.

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
// Named ops, as StableHLO lowers: linalg.reduce, linalg.broadcast and
// elementwise linalg.sub/exp/div.
// CHECK-LABEL: func.func @named_softmax
// CHECK: credit.rowwise "named_softmax_0" ins(%{{.*}} : tensor<8x512xf32>) outs(%{{.*}} : tensor<8x512xf32>)
// CHECK-NEXT: reduce [max]
// CHECK: reduce [add]
// CHECK: epilogue
// CHECK-NOT: linalg.
func.func @named_softmax(%x: tensor<8x512xf32>) -> tensor<8x512xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.reduce ins(%x : tensor<8x512xf32>) outs(%f1 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %m = arith.maximumf %in, %init : f32
      linalg.yield %m : f32
    }
  %e2 = tensor.empty() : tensor<8x512xf32>
  %bmax = linalg.broadcast ins(%max : tensor<8xf32>) outs(%e2 : tensor<8x512xf32>) dimensions = [1]
  %sub = linalg.sub ins(%x, %bmax : tensor<8x512xf32>, tensor<8x512xf32>) outs(%e2 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %exp = linalg.exp ins(%sub : tensor<8x512xf32>) outs(%e2 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%exp : tensor<8x512xf32>) outs(%f0 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  %bsum = linalg.broadcast ins(%sum : tensor<8xf32>) outs(%e2 : tensor<8x512xf32>) dimensions = [1]
  %div = linalg.div ins(%exp, %bsum : tensor<8x512xf32>, tensor<8x512xf32>) outs(%e2 : tensor<8x512xf32>) -> tensor<8x512xf32>
  return %div : tensor<8x512xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
// linalg.softmax along the last of three dimensions, one of them dynamic.
// CHECK-LABEL: func.func @linalg_softmax
// CHECK-SAME: (%[[X:.*]]: tensor<2x?x32000xbf16>,
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]]
// CHECK: %[[R:.*]] = credit.rowwise "softmax" ins(%[[ROWS]] : tensor<?x32000xbf16>) outs(%{{.*}} : tensor<?x32000xbf16>)
// CHECK-NEXT: reduce [max]
// CHECK: reduce [add]
// CHECK: math.exp
// CHECK: epilogue
// CHECK: arith.divf
// CHECK: %[[OUT:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1], [2]] output_shape [2, %{{.*}}, 32000]
// CHECK: return %[[OUT]]
func.func @linalg_softmax(%x: tensor<2x?x32000xbf16>, %d: tensor<2x?x32000xbf16>) -> tensor<2x?x32000xbf16> {
  %y = linalg.softmax dimension(2) ins(%x : tensor<2x?x32000xbf16>) outs(%d : tensor<2x?x32000xbf16>) -> tensor<2x?x32000xbf16>
  return %y : tensor<2x?x32000xbf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
// Along dimension 0 it is left alone.
// CHECK-LABEL: func.func @linalg_softmax_dim0
// CHECK: linalg.softmax dimension(0)
// CHECK-NOT: credit.rowwise
func.func @linalg_softmax_dim0(%x: tensor<64x128xf32>, %d: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %y = linalg.softmax dimension(0) ins(%x : tensor<64x128xf32>) outs(%d : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
// linalg.softmax decomposed the way upstream MLIR does it: maxnumf from a
// NaN initial value. NaN elements are skipped, and a second value tells a
// row of NaNs from one whose numbers are -inf, so the result is exact.
// CHECK-LABEL: func.func @softmax
// CHECK: credit.rowwise "softmax_0"
// CHECK-NEXT: reduce [max, max]
// CHECK: %[[NAN:.*]] = arith.cmpf uno
// CHECK: credit.yield
// CHECK: reduce [add] (%{{.*}}: index, %{{.*}}: f32, %[[MAX:.*]]: f32, %[[ANY:.*]]: f32)
// CHECK: arith.maxnumf %{{.*}}, %[[MAX]]
// CHECK: arith.cmpf ogt, %[[ANY]]
// CHECK: epilogue
// CHECK-NOT: linalg.
func.func @softmax(%arg0: tensor<?x4096xf32>, %arg1: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x4096xf32>
  %0 = tensor.empty(%dim) : tensor<?xf32>
  %cst = arith.constant 0xFFC00000 : f32
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?xf32>) -> tensor<?xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x4096xf32>) outs(%1 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %7 = arith.maxnumf %in, %out : f32
    linalg.yield %7 : f32
  } -> tensor<?xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %2 : tensor<?x4096xf32>, tensor<?xf32>) outs(%arg1 : tensor<?x4096xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %7 = arith.subf %in, %in_1 : f32
    %8 = math.exp %7 : f32
    linalg.yield %8 : f32
  } -> tensor<?x4096xf32>
  %cst_0 = arith.constant 0.000000e+00 : f32
  %4 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<?xf32>) -> tensor<?xf32>
  %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%3 : tensor<?x4096xf32>) outs(%4 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %7 = arith.addf %in, %out : f32
    linalg.yield %7 : f32
  } -> tensor<?xf32>
  %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %5 : tensor<?x4096xf32>, tensor<?xf32>) outs(%arg1 : tensor<?x4096xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %7 = arith.divf %in, %in_1 : f32
    linalg.yield %7 : f32
  } -> tensor<?x4096xf32>
  return %6 : tensor<?x4096xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
// An intermediate used elsewhere becomes a second row output.
// CHECK-LABEL: func.func @exp_too
// CHECK: %[[R:.*]]:2 = credit.rowwise "exp_too_0" ins(%{{.*}} : tensor<64x1024xf32>) outs(%{{.*}}, %{{.*}} : tensor<64x1024xf32>, tensor<64x1024xf32>)
// CHECK: epilogue
// CHECK: %[[E:.*]] = math.exp
// CHECK: %[[P:.*]] = arith.divf %[[E]]
// CHECK: credit.yield %[[E]], %[[P]]
// CHECK: return %[[R]]#1, %[[R]]#0
// CHECK-NOT: linalg.
func.func @exp_too(%x: tensor<64x1024xf32>) -> (tensor<64x1024xf32>, tensor<64x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x1024xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x1024xf32>) outs(%e2 : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<64x1024xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<64x1024xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %s : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.divf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<64x1024xf32>
  return %y, %e : tensor<64x1024xf32>, tensor<64x1024xf32>
}

// -----

// Attention scores: the matmul stays, its result is the row input of the
// softmax; a memref softmax (buffers) stays too.
// CHECK-LABEL: func.func @scores
// CHECK: %[[S:.*]] = linalg.matmul
// CHECK: %[[R:.*]] = credit.rowwise "softmax" ins(%[[S]] : tensor<128x256xf32>)
// CHECK: linalg.matmul ins(%[[R]]
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : memref<128x256xf32>)
func.func @scores(%q: tensor<128x64xf32>, %k: tensor<64x256xf32>, %v: tensor<256x64xf32>,
                  %a: memref<128x256xf32>, %b: memref<128x256xf32>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %s = linalg.matmul ins(%q, %k : tensor<128x64xf32>, tensor<64x256xf32>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<128x256xf32>) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %e2 = tensor.empty() : tensor<128x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %o = linalg.matmul ins(%p, %v : tensor<128x256xf32>, tensor<256x64xf32>) outs(%f2 : tensor<128x64xf32>) -> tensor<128x64xf32>
  linalg.softmax dimension(1) ins(%a : memref<128x256xf32>) outs(%b : memref<128x256xf32>)
  return %o : tensor<128x64xf32>
}


// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// The paper's Pearson backward: two row inputs, a per-row upstream
// gradient, the two sums in one stage and the three centred products in
// the next, two row outputs.
// CHECK-LABEL: func.func @pearson_bwd
// CHECK-SAME: (%[[X:[^:]*]]: tensor<?x2048xf32>, %[[Y:[^:]*]]: tensor<?x2048xf32>, %[[G:[^:]*]]: tensor<?xf32>)
// CHECK: %[[R:.*]]:2 = credit.rowwise "pearson_bwd_0" ins(%[[X]], %[[Y]] : tensor<?x2048xf32>, tensor<?x2048xf32>) scalars(%[[G]] : tensor<?xf32>) outs(%{{.*}}, %{{.*}} : tensor<?x2048xf32>, tensor<?x2048xf32>)
// CHECK-NEXT: reduce [add, add]
// CHECK: reduce [add, add, add]
// CHECK: epilogue
// CHECK: return %[[R]]#0, %[[R]]#1
// CHECK-NOT: linalg.
func.func @pearson_bwd(%x: tensor<?x2048xf32>, %y: tensor<?x2048xf32>, %g: tensor<?xf32>)
    -> (tensor<?x2048xf32>, tensor<?x2048xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 2048.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %m = tensor.dim %x, %c0 : tensor<?x2048xf32>
  %e1 = tensor.empty(%m) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %sx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x2048xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %sy = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<?x2048xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%m) : tensor<?x2048xf32>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sx : tensor<?x2048xf32>, tensor<?xf32>) outs(%e2 : tensor<?x2048xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %in, %mean : f32
    linalg.yield %d : f32
  } -> tensor<?x2048xf32>
  %yc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sy : tensor<?x2048xf32>, tensor<?xf32>) outs(%e2 : tensor<?x2048xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %in, %mean : f32
    linalg.yield %d : f32
  } -> tensor<?x2048xf32>
  %vx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<?x2048xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.mulf %in, %in : f32
    %a = arith.addf %q, %out : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %vy = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%yc : tensor<?x2048xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.mulf %in, %in : f32
    %a = arith.addf %q, %out : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc, %yc : tensor<?x2048xf32>, tensor<?x2048xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %q = arith.mulf %a, %b : f32
    %r = arith.addf %q, %out : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %dx = linalg.generic {indexing_maps = [#id, #id, #row, #row, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %yc, %vx, %vy, %c, %g : tensor<?x2048xf32>, tensor<?x2048xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      outs(%e2 : tensor<?x2048xf32>) {
  ^bb0(%a: f32, %b: f32, %va: f32, %vb: f32, %cv: f32, %gv: f32, %out: f32):
    %ve = arith.addf %va, %eps : f32
    %we = arith.addf %vb, %eps : f32
    %ix = math.rsqrt %ve : f32
    %iy = math.rsqrt %we : f32
    %ixy = arith.mulf %ix, %iy : f32
    %t1 = arith.mulf %b, %ixy : f32
    %ix2 = arith.mulf %ix, %ix : f32
    %ix3 = arith.mulf %ix2, %ix : f32
    %k = arith.mulf %cv, %ix3 : f32
    %k2 = arith.mulf %k, %iy : f32
    %t2 = arith.mulf %a, %k2 : f32
    %d = arith.subf %t1, %t2 : f32
    %r = arith.mulf %gv, %d : f32
    linalg.yield %r : f32
  } -> tensor<?x2048xf32>
  %dy = linalg.generic {indexing_maps = [#id, #id, #row, #row, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %yc, %vx, %vy, %c, %g : tensor<?x2048xf32>, tensor<?x2048xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      outs(%e2 : tensor<?x2048xf32>) {
  ^bb0(%a: f32, %b: f32, %va: f32, %vb: f32, %cv: f32, %gv: f32, %out: f32):
    %ve = arith.addf %va, %eps : f32
    %we = arith.addf %vb, %eps : f32
    %ix = math.rsqrt %ve : f32
    %iy = math.rsqrt %we : f32
    %ixy = arith.mulf %ix, %iy : f32
    %t1 = arith.mulf %a, %ixy : f32
    %iy2 = arith.mulf %iy, %iy : f32
    %iy3 = arith.mulf %iy2, %iy : f32
    %k = arith.mulf %cv, %iy3 : f32
    %k2 = arith.mulf %k, %ix : f32
    %t2 = arith.mulf %b, %k2 : f32
    %d = arith.subf %t1, %t2 : f32
    %r = arith.mulf %gv, %d : f32
    linalg.yield %r : f32
  } -> tensor<?x2048xf32>
  return %dx, %dy : tensor<?x2048xf32>, tensor<?x2048xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// A payload with a branch (scf.if of scalar code) that reads a constant of
// the function: the branch is cloned whole, the constant with it.
// CHECK-LABEL: func.func @branch
// CHECK: credit.rowwise "branch_0" ins(%{{.*}} : tensor<64x1024xf32>) outs(%{{.*}} : tensor<64x1024xf32>)
// CHECK-NEXT: reduce [add]
// CHECK: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: scf.if
// CHECK: arith.mulf %{{.*}}, %[[HALF]] : f32
// CHECK: epilogue
// CHECK-NOT: linalg.
func.func @branch(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.cmpf olt, %in, %zero : f32
    %v = scf.if %c -> (f32) {
      %h = arith.mulf %in, %half : f32
      scf.yield %h : f32
    } else {
      scf.yield %in : f32
    }
    %a = arith.addf %v, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.divf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
