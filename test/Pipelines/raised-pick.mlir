// Cross-entropy as torch-mlir writes it in linalg (the target's logit
// picked with linalg.index), raised and tiled: the raised stage's sum of
// the picked logit is a column pick (matchColumnPick), so the kernel reads
// the logit at the target once per row (a load of the row input at a
// computed column, outside the sweeps) instead of comparing, selecting
// and adding per element; the epilogue's one-hot is a column test, each
// chunk branching on whether it holds the target.
// RUN: credit-opt %s --credit-raise-linalg --credit-online-softmax --credit-narrow-indices --credit-choose-tiling=chip=sm_90 --credit-cluster-tiling | FileCheck %s

// CHECK: gpu.func @cross_entropy_0_f32_n32000_{{[a-z0-9]+}}(
// CHECK: %[[T:.*]] = memref.load %{{.*}} : memref<?xi64, #gpu.address_space<global>>
// CHECK: %[[AT:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<?xf32, #gpu.address_space<global>>
// CHECK: %[[PICK:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: credit.block_reduce [max, add, addexp] %{{.*}}, %[[PICK]], %{{.*}}
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.if
// CHECK: gpu.return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
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
