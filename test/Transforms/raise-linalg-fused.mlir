// After upstream's elementwise fusion the chain has fewer, larger
// generics (the exponential inside the sum's payload): it is raised the
// same.
// RUN: mlir-opt %s --linalg-fuse-elementwise-ops | credit-opt --credit-raise-linalg | FileCheck %s

// CHECK-LABEL: func.func @log_softmax
// CHECK: credit.rowwise "log_softmax_0" ins(%{{.*}} : tensor<?x128256xbf16>) outs(%{{.*}} : tensor<?x128256xbf16>)
// CHECK-NEXT: reduce [max]
// CHECK: reduce [add]
// CHECK: math.exp
// CHECK: epilogue
// CHECK: math.log
// CHECK-NOT: linalg.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @log_softmax(%x: tensor<?x128256xbf16>) -> tensor<?x128256xbf16> {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x128256xbf16>
  %ef = tensor.empty(%m) : tensor<?x128256xf32>
  %xf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x128256xbf16>) outs(%ef : tensor<?x128256xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %v = arith.extf %in : bf16 to f32
    linalg.yield %v : f32
  } -> tensor<?x128256xf32>
  %e1 = tensor.empty(%m) : tensor<?xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xf : tensor<?x128256xf32>) outs(%f1 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.maximumf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %sh = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xf, %max : tensor<?x128256xf32>, tensor<?xf32>) outs(%ef : tensor<?x128256xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %v = arith.subf %in, %mx : f32
    linalg.yield %v : f32
  } -> tensor<?x128256xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sh : tensor<?x128256xf32>) outs(%ef : tensor<?x128256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<?x128256xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<?x128256xf32>) outs(%f0 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %ls = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sh, %sum : tensor<?x128256xf32>, tensor<?xf32>) outs(%ef : tensor<?x128256xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %l = math.log %s : f32
    %v = arith.subf %in, %l : f32
    linalg.yield %v : f32
  } -> tensor<?x128256xf32>
  %eb = tensor.empty(%m) : tensor<?x128256xbf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ls : tensor<?x128256xf32>) outs(%eb : tensor<?x128256xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %v = arith.truncf %in : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<?x128256xbf16>
  return %y : tensor<?x128256xbf16>
}
