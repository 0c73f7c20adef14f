// RUN: credit-opt %s --split-input-file --convert-credit-to-nvvm | FileCheck %s

// A bare global pointer becomes a 1-D memref descriptor.
// CHECK-LABEL: func.func @view
// CHECK: %[[UNDEF:.*]] = llvm.mlir.poison : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: llvm.insertvalue %{{.*}}, %[[UNDEF]][0]
// CHECK: llvm.insertvalue {{.*}}[1]
// CHECK: llvm.insertvalue {{.*}}[2]
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[3, 0]
// CHECK: llvm.insertvalue {{.*}}[4, 0]
// CHECK: builtin.unrealized_conversion_cast {{.*}} to memref<?xbf16, #gpu.address_space<global>>
// CHECK-NOT: credit.global_view
func.func @view(%p: !llvm.ptr<1>, %n: i64) -> memref<?xbf16, #gpu.address_space<global>> {
  %v = credit.global_view %p, %n : !llvm.ptr<1> -> memref<?xbf16, #gpu.address_space<global>>
  return %v : memref<?xbf16, #gpu.address_space<global>>
}

// -----

// Dynamic shared memory is an external, zero-length shared array (PTX
// `.extern .shared`), declared once per module.
// CHECK: llvm.mlir.global external @credit_dynamic_shared_memory() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NOT: llvm.mlir.global
// CHECK-LABEL: gpu.func @kernel
// CHECK: llvm.mlir.addressof @credit_dynamic_shared_memory : !llvm.ptr<3>
// CHECK: llvm.mlir.constant(1024 : i64)
// CHECK: builtin.unrealized_conversion_cast {{.*}} to memref<1024xi8, #gpu.address_space<workgroup>>
// CHECK: llvm.mlir.addressof @credit_dynamic_shared_memory
gpu.module @m {
  gpu.func @kernel() kernel {
    %a = credit.dynamic_shared_memory : memref<1024xi8, #gpu.address_space<workgroup>>
    %b = credit.dynamic_shared_memory : memref<1024xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// An asynchronous copy: both addresses from the memrefs' aligned pointers
// plus the element offset in bytes; where the copy is not valid the source
// is element 0 and its size 0 (zeros, nothing read). 16 bytes bypass L1,
// fewer go through it.
// CHECK-LABEL: func.func @async_copy
// CHECK-SAME: (%[[SRC:.*]]: memref<?xbf16, #gpu.address_space<global>>, %[[I:.*]]: index, %[[DST:.*]]: memref<?xbf16, #gpu.address_space<workgroup>>, %[[J:.*]]: index, %[[OK:.*]]: i1)
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[I]], %c0 : index
// CHECK: memref.extract_aligned_pointer_as_index %[[SRC]]
// CHECK: arith.muli %[[SAFE]], %c2
// CHECK: %[[FROM:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK: memref.extract_aligned_pointer_as_index %[[DST]]
// CHECK: arith.muli %[[J]], %c2
// CHECK: %[[TO:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: %[[SIZE:.*]] = arith.select %[[OK]], %c16_i32, %c0_i32 : i32
// CHECK: nvvm.cp.async.shared.global %[[TO]], %[[FROM]], 16, cache = cg, %[[SIZE]]
// CHECK-NOT: credit.async_copy
// CHECK-LABEL: func.func @async_copy_small
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca,
func.func @async_copy(%src: memref<?xbf16, #gpu.address_space<global>>, %i: index, %dst: memref<?xbf16, #gpu.address_space<workgroup>>, %j: index, %ok: i1) {
  credit.async_copy %src[%i], %dst[%j] if %ok {elements = 8 : i32} : memref<?xbf16, #gpu.address_space<global>>, memref<?xbf16, #gpu.address_space<workgroup>>
  return
}
func.func @async_copy_small(%src: memref<?xf32, #gpu.address_space<global>>, %i: index, %dst: memref<?xf32, #gpu.address_space<workgroup>>, %j: index, %ok: i1) {
  credit.async_copy %src[%i], %dst[%j] if %ok {elements = 2 : i32} : memref<?xf32, #gpu.address_space<global>>, memref<?xf32, #gpu.address_space<workgroup>>
  return
}
