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
