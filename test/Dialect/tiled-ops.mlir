// RUN: credit-opt %s | FileCheck %s
// RUN: credit-opt %s --mlir-print-op-generic | credit-opt | FileCheck %s

// CHECK-LABEL: func.func @tiled
// CHECK: credit.global_view %{{.*}}, %{{.*}} : !llvm.ptr<1> -> memref<?xbf16, #gpu.address_space<global>>
// CHECK: credit.dynamic_shared_memory : memref<4096xi8, #gpu.address_space<workgroup>>
// CHECK: credit.block_reduce [add, max] %{{.*}}, %{{.*}} scratch(%{{.*}}[%{{.*}}] : memref<64xf32, #gpu.address_space<workgroup>>) {group_threads = 256 : i32} : f32, f32
// CHECK: credit.block_reduce [min] %{{.*}} {group_threads = 32 : i32} : f32
// CHECK: credit.cluster_reduce [add] %{{.*}} scratch(%{{.*}}[%{{.*}}] : memref<64xf32, #gpu.address_space<workgroup>>) {cluster = 16 : i32} : f32
// CHECK: credit.cluster_reduce [max] %{{.*}} scratch(%{{.*}}[%{{.*}}] : memref<64xf32, #gpu.address_space<workgroup>>) mbarrier(%{{.*}}[%{{.*}}] phase %{{.*}} : memref<4xi64, #gpu.address_space<workgroup>>) {cluster = 16 : i32} : f32
// CHECK: credit.grid_reduce [add, max] %{{.*}}, %{{.*}} partials(%{{.*}}[%{{.*}}] : !llvm.ptr<1>) counters(%{{.*}}[%{{.*}}] : !llvm.ptr<1>) split(%{{.*}}) publish(%{{.*}}) scratch(%{{.*}}[%{{.*}}] : memref<64xf32, #gpu.address_space<workgroup>>) {arrivals = 8 : i64, departures = 32 : i32, splits = 4 : i32} : f32, f32
func.func @tiled(%p: !llvm.ptr<1>, %n: i64, %a: f32, %b: f32,
                 %buf: memref<64xf32, #gpu.address_space<workgroup>>, %o: index,
                 %bars: memref<4xi64, #gpu.address_space<workgroup>>) -> (f32, f32, f32) {
  %v = credit.global_view %p, %n : !llvm.ptr<1> -> memref<?xbf16, #gpu.address_space<global>>
  %s = credit.dynamic_shared_memory : memref<4096xi8, #gpu.address_space<workgroup>>
  %r:2 = credit.block_reduce [add, max] %a, %b scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) {group_threads = 256 : i32} : f32, f32
  %w = credit.block_reduce [min] %a {group_threads = 32 : i32} : f32
  %c = credit.cluster_reduce [add] %r#0 scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) {cluster = 16 : i32} : f32
  %d = credit.cluster_reduce [max] %c scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) mbarrier(%bars[%o] phase %o : memref<4xi64, #gpu.address_space<workgroup>>) {cluster = 16 : i32} : f32
  %t = arith.constant true
  %g:2 = credit.grid_reduce [add, max] %d, %r#1 partials(%p[%o] : !llvm.ptr<1>) counters(%p[%o] : !llvm.ptr<1>) split(%o) publish(%t) scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) {splits = 4 : i32, arrivals = 8 : i64, departures = 32 : i32} : f32, f32
  return %g#0, %g#1, %w : f32, f32, f32
}
