// RUN: credit-opt %s --convert-credit-to-nvvm | FileCheck %s

// f32 transcendentals use the hardware's approximations, exact operations
// use LLVM's intrinsics (as calls, which the GPU-to-NVVM conversion keeps),
// vectors go lane by lane, and other types are left alone.
// CHECK-LABEL: func.func @math
func.func @math(%x: f32, %v: vector<2xf32>, %d: f64) -> (f32, f32, f32, f32, f32, vector<2xf32>, f64) {
  // CHECK: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
  // CHECK: %[[S:.*]] = arith.mulf %{{.*}}, %[[LOG2E]] : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[S]]) : (f32) -> f32
  %e = math.exp %x : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"
  // CHECK: arith.constant 0.693147182 : f32
  %l = math.log %x : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.f"
  %r = math.rsqrt %x : f32
  // CHECK: llvm.call_intrinsic "llvm.sqrt.f32"
  %s = math.sqrt %x : f32
  // CHECK: llvm.call_intrinsic "llvm.roundeven.f32"
  %q = math.roundeven %x : f32
  // CHECK: vector.extract %{{.*}}[0] : f32 from vector<2xf32>
  // CHECK: llvm.call_intrinsic "llvm.fabs.f32"
  // CHECK: vector.extract %{{.*}}[1] : f32 from vector<2xf32>
  // CHECK: llvm.call_intrinsic "llvm.fabs.f32"
  // CHECK: vector.from_elements {{.*}} : vector<2xf32>
  %a = math.absf %v : vector<2xf32>
  // CHECK: math.exp %{{.*}} : f64
  %f = math.exp %d : f64
  return %e, %l, %r, %s, %q, %a, %f : f32, f32, f32, f32, f32, vector<2xf32>, f64
}
