// credit-to-ptx{keep-host=true} keeps the host functions: each rowwise op
// becomes launches of its kernels (built from the manifests), the rest of
// the host stays as it was, and the kernels are still written out.
// RUN: rm -rf %t && mkdir -p %t
// RUN: credit-opt %s --pass-pipeline="builtin.module(credit-to-ptx{keep-host=true artifacts-dir=%t/a})" | FileCheck %s
// RUN: ls %t/a | FileCheck %s --check-prefix=FILES
// Without it, the host is dropped as before.
// RUN: credit-opt %s --credit-to-ptx | FileCheck %s --check-prefix=DROPPED
//
// The host lowers further with upstream passes, down to LLVM IR that calls
// the GPU runtime's cluster launch.
// RUN: credit-opt %S/Inputs/keep-host-softmax.mlir --pass-pipeline="builtin.module(credit-to-ptx{keep-host=true cluster-size=4})" -o %t/host.mlir
// RUN: mlir-opt %t/host.mlir --one-shot-bufferize="bufferize-function-boundaries" --convert-scf-to-cf --gpu-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts -o %t/host-llvm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t/host-llvm.mlir | FileCheck %s --check-prefix=LLVM
// RUN: credit-opt %S/Inputs/keep-host-long-rows.mlir --credit-to-ptx | FileCheck %s --check-prefix=SPLITS
// RUN: credit-opt %S/Inputs/keep-host-long-rows.mlir --pass-pipeline="builtin.module(credit-to-ptx{keep-host=true})" | FileCheck %s --check-prefix=NOSPLITS

// Rows split over clusters need CREDIT's runtime: a kept host compiles
// tilings without splits.
// SPLITS: gpu.binary @{{[a-z0-9_]*s[0-9]+}}
// NOSPLITS-NOT: gpu.binary @{{[a-z0-9_]*s[0-9]+}}
// NOSPLITS: gpu.launch_func

// FILES: kernels.json
// FILES: rmsnorm_bwd_{{.*}}.ptx
// FILES: softmax_{{.*}}.ptx

// DROPPED-NOT: func.func
// DROPPED: gpu.binary

// LLVM: call void @mgpuLaunchClusterKernel(

// A softmax with a dynamic M: the kernel is chosen by M at run time, a
// host math op stays a math op.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:[^:]*]]: tensor<?x8192xf32>,
// CHECK: %[[IN:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<?x8192xf32> to memref<?x8192xf32>
// CHECK: %[[OUT:.*]] = memref.alloc(%{{.*}}) : memref<?x8192xf32>
// CHECK: scf.if
// CHECK: scf.if
// CHECK: memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: gpu.launch_func @[[K0:softmax_f32_n8192_[a-z0-9]+]]::@[[K0]] clusters in
// CHECK-SAME: dynamic_shared_memory_size
// CHECK-SAME: args(%{{.*}} : !llvm.ptr<1>, %{{.*}} : i64, %{{.*}} : !llvm.ptr<1>, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64)
// CHECK: } else {
// CHECK: gpu.launch_func
// CHECK: %[[Y:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: %[[E:.*]] = math.exp %[[S:.*]] : f32
// CHECK: return %[[Y]], %[[E]]
func.func @softmax(%x: tensor<?x8192xf32>, %o: tensor<?x8192xf32>, %s: f32) -> (tensor<?x8192xf32>, f32) {
  %y = credit.rowwise "softmax" ins(%x : tensor<?x8192xf32>) outs(%o : tensor<?x8192xf32>)
    reduce [max] (%j: index, %v: f32) {
      credit.yield %v : f32
    }
    reduce [add] (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      credit.yield %e : f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %sum: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %sum : f32
      credit.yield %p : f32
    }
  %e = math.exp %s : f32
  return %y, %e : tensor<?x8192xf32>, f32
}

// Buffers with a row stride known at run time, and column sums: a grid of one cluster
// per row block, launched even without rows (it writes the zero sums). The
// tiling is given, so there is one kernel for every M (no branch on M).
// CHECK-LABEL: func.func @rmsnorm_bwd
// CHECK-SAME: (%[[XB:[^:]*]]: memref<?x8192xbf16, strided<[?, 1]>>,
// CHECK-SAME: %[[DW:[^:]*]]: memref<16x8192xf32>)
// CHECK-NOT: bufferization
// CHECK-NOT: scf.if
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[XB]]
// CHECK: %[[STRIDE:.*]] = arith.index_cast %[[STRIDES]]#0 : index to i64
// CHECK: gpu.launch_func @[[K1:rmsnorm_bwd_bf16_n8192_[a-z0-9]+]]::@[[K1]] clusters in ({{[^)]*}}) blocks in ({{[^)]*}})
// CHECK-SAME: args(%{{.*}} : !llvm.ptr<1>, %[[STRIDE]] : i64,
// CHECK-NEXT: return
// The kernels the launches name are in the module.
// CHECK-DAG: gpu.binary @[[K0]]
// CHECK-DAG: gpu.binary @[[K1]]
func.func @rmsnorm_bwd(%x: memref<?x8192xbf16, strided<[?, 1]>>, %dy: memref<?x8192xbf16>,
                       %w: memref<8192xbf16>, %rstd: memref<?xf32>,
                       %dx: memref<?x8192xbf16>, %dw: memref<16x8192xf32>) {
  credit.rowwise "rmsnorm_bwd" ins(%x, %dy : memref<?x8192xbf16, strided<[?, 1]>>, memref<?x8192xbf16>)
      bcast(%w : memref<8192xbf16>) scalars(%rstd : memref<?xf32>)
      outs(%dx : memref<?x8192xbf16>) colsum_outs(%dw : memref<16x8192xf32>)
      attributes {tiling = #credit.tiling<cluster = 4, threads = 128, vector = 8, elems = 16>}
    reduce [add] (%j: index, %xv: f32, %dyv: f32, %wv: f32, %r: f32) {
      %xhat = arith.mulf %xv, %r : f32
      %dyw = arith.mulf %dyv, %wv : f32
      %p = arith.mulf %dyw, %xhat : f32
      credit.yield %p : f32
    }
    epilogue (%j: index, %xv: f32, %dyv: f32, %wv: f32, %r: f32, %dot: f32) {
      %n = arith.constant 8192.0 : f32
      %c = arith.divf %dot, %n : f32
      %xhat = arith.mulf %xv, %r : f32
      %dyw = arith.mulf %dyv, %wv : f32
      %t = arith.mulf %xhat, %c : f32
      %u = arith.subf %dyw, %t : f32
      %dxv = arith.mulf %u, %r : f32
      %dwv = arith.mulf %dyv, %xhat : f32
      credit.yield %dxv, %dwv : f32, f32
    }
  return
}
