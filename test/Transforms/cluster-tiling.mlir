// RUN: credit-opt %s --split-input-file --credit-cluster-tiling --verify-diagnostics | FileCheck %s
// RUN: credit-opt %s --split-input-file --credit-cluster-tiling=erase-host --verify-diagnostics | FileCheck %s --check-prefix=ERASE

// A cluster of 4 CTAs holding the row in registers: every CTA initializes
// the mbarriers of its two exchange buffers (thread 0, fenced for the
// cluster) and announces it has started, loads its slice with 16-byte
// vectors, reduces within the CTA and then across the cluster (after
// waiting for the peers to start) with the asynchronous exchange on the
// row's buffer and phase, and writes the epilogue from the same registers.

// CHECK-LABEL: module attributes
// CHECK-SAME: credit.kernels = {sum_scale_f32_n4096_c4t256e4 = {
// CHECK-SAME: block = [256, 1, 1]
// CHECK-SAME: cluster = [4, 1, 1]
// CHECK-SAME: dependent_launch = true
// CHECK-SAME: dynamic_shared_memory = 0
// CHECK-SAME: {dtype = "f32", kind = "ptr", name = "in0", role = "row_input", shape = "m,n"}, {kind = "i64", name = "in0_stride", role = "row_stride"}
// CHECK-SAME: {kind = "i64", name = "m", role = "m"}, {kind = "i64", name = "rows_per_cluster", role = "rows_per_cluster"}
// CHECK-SAME: gpu.container_module
// CHECK: func.func @host
// CHECK: credit.rowwise "sum_scale"
// CHECK-SAME: credit.kernels = [@sum_scale_f32_n4096_c4t256e4::@sum_scale_f32_n4096_c4t256e4]
// CHECK: gpu.module @sum_scale_f32_n4096_c4t256e4
// CHECK: memref.global "private" @credit_block_scratch : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK: memref.global "private" @credit_cluster_scratch : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK: memref.global "private" @credit_cluster_barriers : memref<2xi64, #gpu.address_space<workgroup>> {alignment = 8 : i64}
// CHECK: gpu.func @sum_scale_f32_n4096_c4t256e4(%{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) kernel
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-SAME: known_cluster_size = array<i32: 4, 1, 1>
// CHECK: gpu.cluster_block_id x
// CHECK: credit.global_view %{{.*}} : !llvm.ptr<1> -> memref<?xf32, #gpu.address_space<global>>
// CHECK: scf.if
// CHECK-COUNT-2: nvvm.mbarrier.init
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: nvvm.cluster.arrive.relaxed
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK: scf.for
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: vector.reduction <add>
// CHECK: credit.block_reduce [add] {{.*}} {group_threads = 256 : i32}
// CHECK: scf.if
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: credit.cluster_reduce [add] {{.*}} mbarrier(%{{.*}}[%{{.*}}] phase %{{.*}} : memref<2xi64, #gpu.address_space<workgroup>>) {cluster = 4 : i32}
// CHECK: arith.mulf {{.*}} : vector<4xf32>
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<?xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: nvvm.cluster.wait
// CHECK: gpu.return

// ERASE-NOT: func.func @host
// ERASE: gpu.module @sum_scale_f32_n4096_c4t256e4
func.func @host(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise "sum_scale" ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 4, threads = 256, vector = 4, elems = 4>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// Shared-memory staging: the first stage copies the slice to dynamic shared
// memory as it reduces; later stages and the epilogue read it back. With one
// warp per row group, no block scratch; with one CTA, no cluster ops. Row
// values that do not depend on an element (the mean) stay scalar. bf16
// widens by integer shifts and masks of its 32-bit words, not extf.

// CHECK-LABEL: module attributes {credit.kernels = {rowwise_bf16_n2048_c1t32e16_shared = {
// CHECK-SAME: dynamic_shared_memory = 4096
// CHECK: gpu.module @rowwise_bf16_n2048_c1t32e16_shared
// CHECK-NOT: credit_block_scratch
// CHECK-NOT: credit_cluster_scratch
// CHECK: credit.dynamic_shared_memory : memref<4096xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view
// CHECK-NOT: nvvm.cluster
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.load {{.*}} : memref<?xbf16, #gpu.address_space<global>>, vector<8xbf16>
// CHECK: vector.store {{.*}} : memref<?xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NOT: arith.extf
// CHECK: %[[WORDS:.*]] = vector.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
// CHECK: %[[FIRST:.*]] = arith.shli %[[WORDS]], %{{.*}} : vector<4xi32>
// CHECK: %[[SECOND:.*]] = arith.andi %[[WORDS]], %{{.*}} : vector<4xi32>
// CHECK: %[[BITS:.*]] = vector.shuffle %[[FIRST]], %[[SECOND]] [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xi32>, vector<4xi32>
// CHECK: arith.bitcast %[[BITS]] : vector<8xi32> to vector<8xf32>
// CHECK: credit.block_reduce [add] {{.*}} {group_threads = 32 : i32} : f32
// CHECK: vector.load {{.*}} : memref<?xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK: %[[MEAN:.*]] = arith.divf {{.*}} : f32
// CHECK: vector.broadcast %[[MEAN]] : f32 to vector<8xf32>
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK-NOT: credit.cluster_reduce
func.func @staged(%x: memref<?x2048xbf16>, %o: memref<?x2048xbf16>) {
  credit.rowwise ins(%x : memref<?x2048xbf16>) outs(%o : memref<?x2048xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 8, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %n = arith.constant 2048.0 : f32
      %mean = arith.divf %s, %n : f32
      %r = arith.subf %v, %mean : f32
      credit.yield %r : f32
    }
  return
}

// -----

// Async staging: each row starts by copying the whole slice into dynamic
// shared memory (every sweep's chunks, two sweeps of two per iteration of
// the loop, then one commit and wait), and every stage, the first too,
// reads it back; no stage loads the row from global memory.
// CHECK-LABEL: module attributes {credit.kernels = {rowwise_bf16_n2048_c1t32e16_async = {
// CHECK-SAME: dynamic_shared_memory = 4096
// CHECK: gpu.module @rowwise_bf16_n2048_c1t32e16_async
// CHECK: credit.dynamic_shared_memory : memref<4096xi8, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: credit.async_copy {{.*}} {elements = 8 : i32} : memref<?xbf16, #gpu.address_space<global>>, memref<?xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-3: credit.async_copy
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NOT: vector.load {{.*}}#gpu.address_space<global>
// CHECK: vector.load {{.*}} : memref<?xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK: credit.block_reduce [add] {{.*}} {group_threads = 32 : i32} : f32
// CHECK-NOT: vector.load {{.*}}#gpu.address_space<global>
// CHECK: vector.load {{.*}} : memref<?xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK: vector.store {{.*}}#gpu.address_space<global>
func.func @staged_async(%x: memref<?x2048xbf16>, %o: memref<?x2048xbf16>) {
  credit.rowwise ins(%x : memref<?x2048xbf16>) outs(%o : memref<?x2048xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 8, elems = 16, staging = async>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.subf %v, %s : f32
      credit.yield %r : f32
    }
  return
}

// -----

// Mixed staging: the last row input is loaded into registers (kept packed)
// and the first copied into shared memory, which holds only its slice. The
// online stage's first pass reads the stage for the maximum; its second
// pass reads it again at an index offset by a zero of its own (shl 2) and
// widens the registers anew (xori), computing the exponentials there
// rather than keeping the first pass's values; the epilogue reads the
// stage again. No global load of the first input.
// CHECK-LABEL: module attributes {credit.kernels = {rowwise_bf16_n512_c1t32e16_mixed = {
// CHECK-SAME: dynamic_shared_memory = 1024
// CHECK: gpu.module @rowwise_bf16_n512_c1t32e16_mixed
// CHECK: credit.dynamic_shared_memory : memref<1024xi8, #gpu.address_space<workgroup>>
// CHECK: vector.load %[[DY:[0-9]+]][{{.*}}] {{.*}} : memref<?xbf16, #gpu.address_space<global>>, vector<8xbf16>
// CHECK: vector.load %[[DY]][{{.*}}] {{.*}} : memref<?xbf16, #gpu.address_space<global>>, vector<8xbf16>
// CHECK-NOT: vector.load {{.*}}#gpu.address_space<global>
// CHECK: credit.async_copy %[[L:[0-9]+]][
// CHECK: credit.async_copy %[[L]][
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NOT: vector.load {{.*}}#gpu.address_space<global>
// CHECK-NOT: math.exp {{.*}} : vector<8xf32>
// CHECK: vector.load %view[{{.*}}] {{.*}}#gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NOT: math.exp {{.*}} : vector<8xf32>
// CHECK: vector.load %view[{{.*}}] {{.*}}#gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NOT: math.exp {{.*}} : vector<8xf32>
// CHECK: %[[ZERO:[0-9]+]] = llvm.inline_asm {{.*}}shl.b32 $0, $0, 2; }"
// CHECK: %[[OFFSET:[0-9]+]] = arith.index_castui %[[ZERO]] : i32 to index
// CHECK: %[[AT:[0-9]+]] = arith.addi %{{[0-9]+}}, %[[OFFSET]] : index
// CHECK: vector.load %view[%[[AT]]]
// CHECK: arith.xori
// CHECK: math.exp {{.*}} : vector<8xf32>
// CHECK: vector.load %view
// CHECK: arith.xori
// CHECK: math.exp {{.*}} : vector<8xf32>
// CHECK: credit.block_reduce [max, addexp, addexp]
// CHECK-NOT: vector.load {{.*}}#gpu.address_space<global>
// CHECK: vector.load %view
// CHECK: vector.store {{.*}}#gpu.address_space<global>
// CHECK: vector.load %view
// CHECK: vector.store {{.*}}#gpu.address_space<global>
// CHECK-NEXT: }
// CHECK: gpu.return
func.func @staged_mixed(%l: tensor<?x512xbf16>, %dy: tensor<?x512xbf16>, %o: tensor<?x512xbf16>) -> tensor<?x512xbf16> {
  %r = credit.rowwise ins(%l, %dy : tensor<?x512xbf16>, tensor<?x512xbf16>) outs(%o : tensor<?x512xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 8, elems = 16, staging = mixed>}
    reduce [max, addexp, addexp] (%j: index, %a: f32, %b: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %a, %one, %b : f32, f32, f32
    }
    epilogue (%j: index, %a: f32, %b: f32, %m: f32, %s: f32, %t: f32) {
      %d = arith.subf %a, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %s : f32
      %q = arith.divf %t, %s : f32
      %u = arith.subf %b, %q : f32
      %y = arith.mulf %p, %u : f32
      credit.yield %y : f32
    }
  return %r : tensor<?x512xbf16>
}

// -----

// Mixed staging copies its staged inputs asynchronously, whole 4-, 8- or
// 16-byte vectors; and it needs an input to keep in registers besides them.
func.func @staged_mixed_narrow(%x: memref<?x2047xbf16>, %y: memref<?x2047xbf16>, %o: memref<?x2047xbf16>) {
  // expected-error @+1 {{credit-cluster-tiling: cannot build #credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 64, staging = mixed> on sm_90: mixed staging copies 4, 8 or 16 bytes at a time, but a vector of 1 bf16 is 2 bytes}}
  credit.rowwise ins(%x, %y : memref<?x2047xbf16>, memref<?x2047xbf16>) outs(%o : memref<?x2047xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 64, staging = mixed>}
    reduce [add] (%j: index, %v: f32, %w: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %w: f32, %s: f32) { credit.yield %s : f32 }
  return
}

// -----

// Async staging copies whole 4-, 8- or 16-byte vectors: a 2-byte one is
// rejected at the op.
func.func @staged_async_narrow(%x: memref<?x2047xbf16>, %o: memref<?x2047xbf16>) {
  // expected-error @+1 {{credit-cluster-tiling: cannot build #credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 16, staging = async> on sm_90: async staging copies 4, 8 or 16 bytes at a time, but a vector of 1 bf16 is 2 bytes}}
  credit.rowwise ins(%x : memref<?x2047xbf16>) outs(%o : memref<?x2047xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 16, staging = async>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return
}

// -----

// Column sums (per-row-block partials) stay in registers across the
// cluster's rows and are written once; rows that do not fill the last
// sweep are masked: with one chunk that may lie past the row's end, by a
// branch around its load and a select.

// CHECK-LABEL: module attributes {credit.kernels = {colsum_f32_n1000_c2t64e8 = {
// CHECK-SAME: clusters = "p * clusters_per_row"
// CHECK-SAME: integer_masks = false, masked_chunks = 1
// CHECK: gpu.func
// CHECK: %{{.*}} = scf.for {{.*}} iter_args
// CHECK: arith.cmpi slt
// CHECK: scf.if
// CHECK: vector.load
// CHECK: arith.addf {{.*}} : vector<4xf32>
// CHECK: arith.select {{.*}} : vector<4xf32>
// CHECK: scf.yield
// CHECK: vector.store
func.func @colsum(%x: tensor<?x1000xf32>, %c: tensor<8x1000xf32>) -> tensor<8x1000xf32> {
  %r = credit.rowwise "colsum" ins(%x : tensor<?x1000xf32>) colsum_outs(%c : tensor<8x1000xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 64, vector = 4, elems = 8>}
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      credit.yield %d : f32
    }
  return %r : tensor<8x1000xf32>
}

// -----

// The same with seven chunks that may lie past the row's end (slices of
// 896, 104 elements left for the last CTA's 7 chunks of 128): the masks
// are integers (KernelPlan::integerMasks). The row's loads are
// unconditional, a masked chunk reading the first vector and keeping zero,
// and a masked column sum keeps its old value, through bitwise operations
// on an all-ones-or-zero mask: no select, so no predicate per chunk live
// across the loop.

// CHECK-LABEL: module attributes {credit.kernels = {colsum_masked_f32_n1000_c2t32e28 = {
// CHECK-SAME: integer_masks = true, masked_chunks = 7
// CHECK: gpu.func
// CHECK: %{{.*}} = scf.for {{.*}} iter_args
// CHECK-NOT: scf.if
// CHECK: %[[OUT:.*]] = arith.cmpi slt
// CHECK: %[[ONE:.*]] = arith.extui %[[OUT]] : i1 to i32
// CHECK: llvm.inline_asm {{.*}}"neg.s32 $0, $1;", "=r,r" %[[ONE]]
// CHECK-NOT: scf.if
// CHECK: vector.load
// CHECK-NOT: arith.select
// CHECK: arith.andi {{.*}} : vector<4xi32>
// CHECK: arith.addf {{.*}} : vector<4xf32>
// CHECK-NOT: arith.select
// CHECK: arith.andi {{.*}} : vector<4xi32>
// CHECK: arith.ori {{.*}} : vector<4xi32>
// CHECK: scf.yield
// CHECK: scf.if
// CHECK-NEXT: vector.store
func.func @colsum_masked(%x: tensor<?x1000xf32>, %c: tensor<8x1000xf32>) -> tensor<8x1000xf32> {
  %r = credit.rowwise "colsum_masked" ins(%x : tensor<?x1000xf32>) colsum_outs(%c : tensor<8x1000xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 32, vector = 4, elems = 28>}
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %m: f32) {
      %d = arith.subf %v, %m : f32
      credit.yield %d : f32
    }
  return %r : tensor<8x1000xf32>
}

// -----

// Variants: one kernel per tiling, each with the row counts it serves.
// CHECK-LABEL: module attributes {credit.kernels = {
// CHECK-SAME: rowwise_f32_n4096_c1t1024e4 = {
// CHECK-SAME: rows = {{\[}}[1, 31], [1024, unit]]
// CHECK-SAME: rowwise_f32_n4096_c4t256e4 = {
// CHECK-SAME: rows = {{\[}}[32, 1023]]
// CHECK: credit.rowwise
// CHECK-SAME: credit.kernels = [@rowwise_f32_n4096_c1t1024e4::@rowwise_f32_n4096_c1t1024e4, @rowwise_f32_n4096_c4t256e4::@rowwise_f32_n4096_c4t256e4]
// CHECK: gpu.module @rowwise_f32_n4096_c1t1024e4
// CHECK: gpu.func @rowwise_f32_n4096_c1t1024e4
// CHECK-SAME: known_cluster_size = array<i32: 1, 1, 1>
// CHECK: gpu.module @rowwise_f32_n4096_c4t256e4
// CHECK: gpu.func @rowwise_f32_n4096_c4t256e4
// CHECK-SAME: known_cluster_size = array<i32: 4, 1, 1>
func.func @variants(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {variants = [
        #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 1024, vector = 4, elems = 4>, min_rows = 1, max_rows = 31>,
        #credit.variant<tiling = #credit.tiling<cluster = 4, threads = 256, vector = 4, elems = 4>, min_rows = 32, max_rows = 1023>,
        #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 1024, vector = 4, elems = 4>, min_rows = 1024, max_rows = 0>]}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x4096xf32>
}

// -----

// Without a tiling there is nothing to build.
func.func @untiled(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{credit-cluster-tiling: the op has no tiling; run credit-choose-tiling first}}
  %r = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x64xf32>
}

// -----

// A tiling the chip cannot run is rejected at the op, before any code is
// built: here the staged slices need more shared memory than a CTA has.
func.func @shared_memory_limit(%x: tensor<?x65536xf32>, %y: tensor<?x65536xf32>, %o: tensor<?x65536xf32>) -> tensor<?x65536xf32> {
  // expected-error @+1 {{credit-cluster-tiling: cannot build #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 16, staging = shared> on sm_90: the tiling needs 524352 bytes of shared memory per CTA, more than the 232448 a CTA can have on sm_90}}
  %r = credit.rowwise ins(%x, %y : tensor<?x65536xf32>, tensor<?x65536xf32>) outs(%o : tensor<?x65536xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32, %w: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %w: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x65536xf32>
}

// -----

// Unrolled code is bounded: a thread makes at most 128 vector accesses per
// sweep.
func.func @too_many_chunks(%x: tensor<?x65536xf32>, %o: tensor<?x65536xf32>) -> tensor<?x65536xf32> {
  // expected-error @+1 {{each thread would make elems / vector = 512 vector accesses per sweep, more than the 128 the emitter unrolls}}
  %r = credit.rowwise ins(%x : tensor<?x65536xf32>) outs(%o : tensor<?x65536xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 4, elems = 2048>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x65536xf32>
}

// -----

// Two rows per CTA: the CTA's 256 threads form two row groups of 128 that
// reduce separately, and the second group's row may be past the end (it
// then reads row 0 and stores nothing).
// CHECK-LABEL: module attributes {credit.kernels = {rowwise_f32_n512_c1t256e4r2 = {
// CHECK-SAME: rows_per_cta = 2
// CHECK: gpu.func
// CHECK: arith.remui %{{.*}}, %c128
// CHECK: arith.divui %{{.*}}, %c128
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2
// CHECK: %[[VALID:.*]] = arith.cmpi ult
// CHECK: arith.select %[[VALID]]
// CHECK: credit.block_reduce [add] {{.*}} {group_threads = 128 : i32}
// CHECK: scf.if
// CHECK: vector.store
func.func @two_rows(%x: tensor<?x512xf32>, %o: tensor<?x512xf32>) -> tensor<?x512xf32> {
  %r = credit.rowwise ins(%x : tensor<?x512xf32>) outs(%o : tensor<?x512xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 4, rows = 2>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x512xf32>
}

// -----

// A row split over 4 clusters of 2 CTAs: each CTA owns the slice at
// (split * 2 + rank) * 2048, the clusters of a row group meet once per
// stage through global memory (the row's slot after the earlier stages';
// the last stage counts every CTA out), the launcher supplies the partial
// and counter buffers, and only split 0's rank 0 writes per-row outputs.
// The kernel waits for the grid before it at entry but lets the next one
// launch only after its rows.
// CHECK-LABEL: module attributes {credit.kernels = {rowwise_f32_n16384_c2t256e8s4 = {
// CHECK-SAME: clusters = "ceil(m / rows_per_cluster) * clusters_per_row", clusters_per_row = 4 : i64
// CHECK-SAME: {dtype = "f32", kind = "ptr", name = "split_partials", role = "split_partials", shape = "m,split_partial_floats_per_row"}, {dtype = "i32", kind = "ptr", name = "split_counters", role = "split_counters", shape = "m"}, {kind = "i64", name = "m", role = "m"}
// CHECK-SAME: co_resident_groups = {{[0-9]+}}
// CHECK-SAME: grid_rounds = 2 : i64
// CHECK-SAME: split_partial_floats_per_row = 12 : i64
// CHECK-SAME: splits = 4 : i64
// CHECK: memref.global "private" @credit_grid_scratch : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK: arith.divui %{{.*}}, %c4
// CHECK: arith.remui %{{.*}}, %c4
// CHECK: nvvm.griddepcontrol wait
// CHECK-NOT: nvvm.griddepcontrol launch_dependents
// CHECK: credit.cluster_reduce [add]
// CHECK: credit.grid_reduce [add] {{.*}} {arrivals = 4 : i64, splits = 4 : i32}
// CHECK: credit.cluster_reduce [max, add]
// CHECK: credit.grid_reduce [max, add] {{.*}} {arrivals = 8 : i64, departures = 8 : i32, splits = 4 : i32}
// CHECK: memref.store
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: arith.cmpi uge
// CHECK-NEXT: scf.if
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: gpu.return
func.func @split_rows(%x: tensor<?x16384xf32>, %o: tensor<?x16384xf32>, %s: tensor<?xf32>) -> (tensor<?x16384xf32>, tensor<?xf32>) {
  %r:2 = credit.rowwise ins(%x : tensor<?x16384xf32>) outs(%o : tensor<?x16384xf32>) scalar_outs(%s : tensor<?xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 4, elems = 8, splits = 4>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    reduce [max, add] (%j: index, %v: f32, %a: f32) {
      %d = arith.subf %v, %a : f32
      credit.yield %d, %d : f32, f32
    }
    epilogue (%j: index, %v: f32, %a: f32, %m: f32, %t: f32) { credit.yield %m : f32 }
    finalize (%a: f32, %m: f32, %t: f32) { credit.yield %t : f32 }
  return %r#0, %r#1 : tensor<?x16384xf32>, tensor<?xf32>
}

// -----

// Every cluster of a split row must be resident at once: a tiling whose
// group of clusters does not fit on the chip is refused.
func.func @split_too_wide(%x: tensor<?x4194304xf32>, %o: tensor<?x4194304xf32>) -> tensor<?x4194304xf32> {
  // expected-error @+1 {{credit-cluster-tiling: cannot build #credit.tiling<cluster = 16, threads = 1024, vector = 4, elems = 4, staging = reread, splits = 64> on sm_90: a row split over 64 clusters of 16 CTAs needs them all resident at once}}
  %r = credit.rowwise ins(%x : tensor<?x4194304xf32>) outs(%o : tensor<?x4194304xf32>)
      attributes {tiling = #credit.tiling<cluster = 16, threads = 1024, vector = 4, elems = 4, staging = reread, splits = 64>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) { credit.yield %s : f32 }
  return %r : tensor<?x4194304xf32>
}

// -----

// Without a reduction stage there is nothing for the clusters of a split
// row to exchange.
func.func @split_without_stages(%x: tensor<?x262144xf32>, %o: tensor<?x262144xf32>) -> tensor<?x262144xf32> {
  // expected-error @+1 {{credit-cluster-tiling: cannot build #credit.tiling<cluster = 4, threads = 1024, vector = 4, elems = 16, splits = 4> on sm_90: an op without reduction stages has nothing for 4 clusters per row to exchange; splits must be 1}}
  %r = credit.rowwise ins(%x : tensor<?x262144xf32>) outs(%o : tensor<?x262144xf32>)
      attributes {tiling = #credit.tiling<cluster = 4, threads = 1024, vector = 4, elems = 16, splits = 4>}
    epilogue (%j: index, %v: f32) { credit.yield %v : f32 }
  return %r : tensor<?x262144xf32>
}

// -----

// An addexp stage (online softmax), two sweeps of two chunks, emitted one
// after the other (the sweeps of one loop iteration): each sweep reduces
// the maximum of its chunks first, rescales the running sum to the new
// maximum once and adds the chunks' exponentials, each where it is
// computed; one block and one cluster exchange carry both values.
// CHECK-LABEL: module attributes {credit.kernels = {rowwise_f32_n4096_c2t256e4_reread = {
// CHECK: scf.for
// CHECK-COUNT-2: vector.reduction <maximumf>
// CHECK: arith.cmpf oeq
// CHECK: math.exp {{.*}} : f32
// CHECK: math.exp {{.*}} : vector<2xf32>
// CHECK-NEXT: vector.reduction <add>
// CHECK: math.exp {{.*}} : vector<2xf32>
// CHECK-NEXT: vector.reduction <add>
// CHECK-NOT: math.exp
// CHECK-COUNT-2: vector.reduction <maximumf>
// CHECK: arith.cmpf oeq
// CHECK: math.exp {{.*}} : f32
// CHECK: math.exp {{.*}} : vector<2xf32>
// CHECK-NEXT: vector.reduction <add>
// CHECK: math.exp {{.*}} : vector<2xf32>
// CHECK-NEXT: vector.reduction <add>
// CHECK-NOT: math.exp
// CHECK-NOT: scf.yield
// CHECK: credit.block_reduce [max, addexp]
// CHECK: credit.cluster_reduce [max, addexp]
// CHECK-NOT: credit.block_reduce
// CHECK: math.exp {{.*}} : vector<2xf32>
// CHECK: gpu.return
func.func @online_stage(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 2, elems = 4, staging = reread>}
    reduce [max, addexp] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one : f32, f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %s : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// Registers staging reuses the stage's exponentials in the epilogue: the
// stage computes exp(x - t) per chunk (t the thread's maximum), the
// epilogue multiplies them by exp(t - m) (m the row's maximum, after the
// exchange), one scalar exponential per row instead of one per element.
// CHECK-LABEL: module attributes {credit.kernels = {reused_f32_n4096_c2t256e8 = {
// CHECK: %[[T:[0-9]+]] = arith.maximumf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK: %[[E0:[0-9]+]] = math.exp %{{[0-9]+}} : vector<4xf32>
// CHECK: %[[E1:[0-9]+]] = math.exp %{{[0-9]+}} : vector<4xf32>
// CHECK: %[[M:[0-9]+]]:2 = credit.cluster_reduce [max, addexp]
// CHECK: %[[D:[0-9]+]] = arith.subf %[[T]], %[[M]]#0 : f32
// CHECK: %[[S:[0-9]+]] = math.exp %[[D]] : f32
// CHECK: %[[V:[0-9]+]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK-NOT: math.exp
// CHECK: arith.mulf %[[E0]], %[[V]] : vector<4xf32>
// CHECK-NOT: math.exp
// CHECK: arith.mulf %[[E1]], %[[V]] : vector<4xf32>
// CHECK-NOT: math.exp
// CHECK: gpu.return
func.func @reused(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise "reused" ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 4, elems = 8>}
    reduce [max, addexp] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one : f32, f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %s : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// Not reused: the epilogue also uses x itself (keeping both x and the
// exponentials would add registers), or exponentiates what the stage's
// maximum is not taken of.
// CHECK-LABEL: module attributes {credit.kernels = {also_x_f32_n4096_c2t256e8 = {
// CHECK: credit.cluster_reduce [max, addexp]
// CHECK: math.exp {{.*}} : vector<4xf32>
// CHECK: math.exp {{.*}} : vector<4xf32>
// CHECK: gpu.return
func.func @also_x(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise "also_x" ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 4, elems = 8>}
    reduce [max, addexp] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one : f32, f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.addf %e, %v : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// CHECK-LABEL: module attributes {credit.kernels = {scaled_f32_n4096_c2t256e8 = {
// CHECK: credit.cluster_reduce [max, addexp]
// CHECK: math.exp {{.*}} : vector<4xf32>
// CHECK: math.exp {{.*}} : vector<4xf32>
// CHECK: gpu.return
func.func @scaled(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise "scaled" ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 4, elems = 8>}
    reduce [max, addexp] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      %two = arith.constant 2.0 : f32
      %w = arith.mulf %v, %two : f32
      credit.yield %w, %one : f32, f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %s : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// A sqdev stage (a sum and its squared deviations, Chan's merge), rows
// reread, two sweeps emitted one after the other: each sweep sums its
// chunks and counts them, then sums the squared deviations from the
// sweep's mean (an approximate quotient) and merges these moments into the
// running ones once; one block and one cluster exchange carry the three
// values.
// CHECK-LABEL: module attributes {credit.kernels = {moments_f32_n4096_c2t256e4_reread = {
// CHECK: scf.for
// CHECK: %[[C0:.*]] = vector.load
// CHECK: %[[C1:.*]] = vector.load
// CHECK: %[[MEAN:.*]] = arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f32
// CHECK: %[[M0:.*]] = vector.broadcast %[[MEAN]]
// CHECK: %[[DEV:.*]] = arith.subf %[[C0]], %[[M0]] : vector<2xf32>
// CHECK: %[[DEV2:.*]] = arith.mulf %[[DEV]], %[[DEV]] : vector<2xf32>
// CHECK: vector.reduction <add>, %[[DEV2]]
// CHECK: %[[M1:.*]] = vector.broadcast %[[MEAN]]
// CHECK: arith.subf %[[C1]], %[[M1]] : vector<2xf32>
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK-COUNT-2: vector.load
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK-NOT: vector.load
// CHECK-NOT: scf.yield
// CHECK: credit.block_reduce [add, add, sqdev]
// CHECK: credit.cluster_reduce [add, add, sqdev]
// CHECK-NOT: credit.block_reduce
// CHECK: gpu.return
func.func @moments(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise "moments" ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 2, elems = 4, staging = reread>}
    reduce [add, add, sqdev] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one, %v : f32, f32, f32
    }
    epilogue (%j: index, %v: f32, %s: f32, %n: f32, %q: f32) {
      %d = arith.subf %v, %s : f32
      %p = arith.divf %d, %q : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// The same stage with rows staged in shared memory, two sweeps one after
// the other: the loads' sweeps only add (and count); second sweeps over the
// staged slice sum the squared deviations from the thread's mean, reading
// shared memory only.
// CHECK-LABEL: module attributes {credit.kernels = {moments_f32_n4096_c2t256e4_shared = {
// CHECK: scf.for
// CHECK-COUNT-4: vector.load %{{.*}} : memref<?xf32, #gpu.address_space<global>>
// CHECK-NOT: arith.divf
// CHECK: %[[MEAN:.*]] = arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f32
// CHECK-NOT: memref<?xf32, #gpu.address_space<global>>
// CHECK: %[[C:.*]] = vector.load %{{.*}} : memref<?xf32, #gpu.address_space<workgroup>>
// CHECK: %[[M:.*]] = vector.broadcast %[[MEAN]]
// CHECK: arith.subf %[[C]], %[[M]] : vector<2xf32>
// CHECK-NOT: memref<?xf32, #gpu.address_space<global>>
// CHECK-NOT: scf.yield
// CHECK: credit.block_reduce [add, add, sqdev]
// CHECK: credit.cluster_reduce [add, add, sqdev]
// CHECK: gpu.return
func.func @moments(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise "moments" ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 2, elems = 4, staging = shared>}
    reduce [add, add, sqdev] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one, %v : f32, f32, f32
    }
    epilogue (%j: index, %v: f32, %s: f32, %n: f32, %q: f32) {
      %d = arith.subf %v, %s : f32
      %p = arith.divf %d, %q : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// The barrier exchange (exchange = barrier): no mbarriers; each exchange is
// a cluster_reduce without one, which lowers to a cluster barrier round. A
// CTA of one warp (no barrier in its block reduction) gets a CTA barrier
// before each asynchronous exchange instead (next case).

// CHECK-LABEL: module attributes {credit.kernels = {sum_scale_f32_n4096_c4t256e4_barrier = {
// CHECK-SAME: exchange = "barrier"
// CHECK: gpu.module @sum_scale_f32_n4096_c4t256e4_barrier
// CHECK-NOT: credit_cluster_barriers
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: nvvm.cluster.arrive.relaxed
// CHECK: credit.cluster_reduce [add] %{{.*}} scratch(%{{.*}}[%{{.*}}] : memref<8xf32, #gpu.address_space<workgroup>>) {cluster = 4 : i32} : f32
func.func @barrier_exchange(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise "sum_scale" ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 4, threads = 256, vector = 4, elems = 4, exchange = barrier>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// CHECK-LABEL: module attributes {credit.kernels = {sum_scale_f32_n4096_c2t32e64 = {
// CHECK: memref.global "private" @credit_cluster_barriers : memref<2xi64, #gpu.address_space<workgroup>>
// CHECK: credit.block_reduce [add] {{.*}} {group_threads = 32 : i32}
// CHECK: gpu.barrier
// CHECK-NOT: credit.block_reduce
// CHECK: credit.cluster_reduce [add] {{.*}} mbarrier(
func.func @one_warp_async(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise "sum_scale" ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 32, vector = 4, elems = 64>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// f16 widens with extf (one conversion per element already), and so does
// bf16 loaded one element at a time (no 32-bit words to split).

// CHECK-LABEL: module attributes {credit.kernels = {widen_f16_f16_n2048_c1t256e8 = {
// CHECK: arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK-NOT: arith.shli
// CHECK: gpu.return
func.func @widen_f16(%x: tensor<?x2048xf16>, %o: tensor<?x2048xf16>) -> tensor<?x2048xf16> {
  %r = credit.rowwise "widen_f16" ins(%x : tensor<?x2048xf16>) outs(%o : tensor<?x2048xf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 8>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x2048xf16>
}

// -----

// CHECK-LABEL: module attributes {credit.kernels = {widen_odd_bf16_n2047_c1t256e8 = {
// CHECK: arith.extf %{{.*}} : vector<1xbf16> to vector<1xf32>
// CHECK-NOT: arith.shli
// CHECK: gpu.return
func.func @widen_odd(%x: tensor<?x2047xbf16>, %o: tensor<?x2047xbf16>) -> tensor<?x2047xbf16> {
  %r = credit.rowwise "widen_odd" ins(%x : tensor<?x2047xbf16>) outs(%o : tensor<?x2047xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 1, elems = 8>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x2047xbf16>
}

// -----

// Registers staging of bf16 keeps the loaded words (half the registers of
// the widened values): the stage widens them as loaded, the epilogue widens
// them again from the words xor the pass's opaque zero (the sign of m
// shifted by the pass number), so that no compiler merges the two widenings and keeps
// the f32 values live across the exchange.

// CHECK-LABEL: module attributes {credit.kernels = {packed_bf16_n4096_c2t256e8 = {
// CHECK: %[[RAW:.*]] = vector.load {{.*}} vector<8xbf16>
// CHECK: %[[W0:.*]] = vector.bitcast %[[RAW]] : vector<8xbf16> to vector<4xi32>
// CHECK: arith.shli %[[W0]]
// CHECK: credit.cluster_reduce [add]
// CHECK: %[[ZERO:[0-9]+]] = llvm.inline_asm {{.*}}"{ .reg .b64 t; shr.u64 t, $1, 63; cvt.u32.u64 $0, t; shl.b32 $0, $0, 1; }", "=r,l"
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[ZERO]] : i32 to vector<4xi32>
// CHECK: %[[W1:.*]] = vector.bitcast %[[RAW]] : vector<8xbf16> to vector<4xi32>
// CHECK: %[[X:.*]] = arith.xori %[[W1]], %[[SPLAT]] : vector<4xi32>
// CHECK: %[[B:.*]] = vector.bitcast %[[X]] : vector<4xi32> to vector<8xbf16>
// CHECK: %[[W2:.*]] = vector.bitcast %[[B]] : vector<8xbf16> to vector<4xi32>
// CHECK: arith.shli %[[W2]]
// CHECK: gpu.return
func.func @packed(%x: tensor<?x4096xbf16>, %o: tensor<?x4096xbf16>) -> tensor<?x4096xbf16> {
  %r = credit.rowwise "packed" ins(%x : tensor<?x4096xbf16>) outs(%o : tensor<?x4096xbf16>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 8, elems = 8>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xbf16>
}

// -----

// An op with an addexp stage (online softmax) keeps its registers widened:
// its maximum must be known before its exponentials, and neither keeping
// the widened values through the stage nor rescaling chunk by chunk was
// faster than keeping them (2026-12-02). No opaque zero, no xor.

// CHECK-LABEL: module attributes {credit.kernels = {packed_online_bf16_n4096_c1t256e16 = {
// CHECK-NOT: shr.u64 t, $1, 63
// CHECK-NOT: arith.xori
// CHECK: credit.block_reduce [max, addexp]
// CHECK-NOT: shr.u64 t, $1, 63
// CHECK-NOT: arith.xori
// CHECK: gpu.return
func.func @packed_online(%x: tensor<?x4096xbf16>, %o: tensor<?x4096xbf16>) -> tensor<?x4096xbf16> {
  %r = credit.rowwise "packed_online" ins(%x : tensor<?x4096xbf16>) outs(%o : tensor<?x4096xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 16>}
    reduce [max, addexp] (%j: index, %v: f32) {
      %one = arith.constant 1.0 : f32
      credit.yield %v, %one : f32, f32
    }
    epilogue (%j: index, %v: f32, %m: f32, %s: f32) {
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %s : f32
      credit.yield %p : f32
    }
  return %r : tensor<?x4096xbf16>
}

// -----

// A bf16 output that selects a constant by a row value (cross_entropy's
// ignored rows) selects an opaque copy of it, the constant's bits xor the
// epilogue's opaque zero, so that LLVM cannot move the select past the
// truncation (which made ptxas convert element by element). The f32
// output of the same op keeps its constant.

// CHECK-LABEL: module attributes {credit.kernels = {ignored_bf16_n4096_c1t256e16_shared = {
// CHECK: credit.block_reduce [add]
// CHECK: %[[ZERO:[0-9]+]] = llvm.inline_asm {{.*}}shl.b32 $0, $0, 1; }", "=r,l"
// CHECK: arith.cmpi ne
// CHECK: %[[BITS:.*]] = arith.xori %{{.*}}, %[[ZERO]] : i32
// CHECK: %[[HIDDEN:.*]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[HIDDEN]] : f32 to vector<8xf32>
// CHECK: %[[Y:.*]] = arith.select %{{.*}}, %{{.*}}, %[[SPLAT]] : vector<8xi1>, vector<8xf32>
// CHECK: arith.truncf %[[Y]] : vector<8xf32> to vector<8xbf16>
// CHECK: gpu.return
func.func @ignored(%x: tensor<?x4096xbf16>, %t: tensor<?xi64>, %o: tensor<?x4096xbf16>) -> tensor<?x4096xbf16> {
  %r = credit.rowwise "ignored" ins(%x : tensor<?x4096xbf16>) scalars(%t : tensor<?xi64>) outs(%o : tensor<?x4096xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32, %i: i64) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %i: i64, %s: f32) {
      %zero = arith.constant 0.0 : f32
      %ignore = arith.constant -100 : i64
      %keep = arith.cmpi ne, %i, %ignore : i64
      %y = arith.mulf %v, %s : f32
      %r = arith.select %keep, %y, %zero : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xbf16>
}

// -----

// CHECK-LABEL: module attributes {credit.kernels = {ignored_f32_n4096_c1t256e16_shared = {
// CHECK-NOT: llvm.inline_asm
// CHECK-NOT: arith.xori
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.return
func.func @ignored(%x: tensor<?x4096xf32>, %t: tensor<?xi64>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise "ignored" ins(%x : tensor<?x4096xf32>) scalars(%t : tensor<?xi64>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32, %i: i64) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %i: i64, %s: f32) {
      %zero = arith.constant 0.0 : f32
      %ignore = arith.constant -100 : i64
      %keep = arith.cmpi ne, %i, %ignore : i64
      %y = arith.mulf %v, %s : f32
      %r = arith.select %keep, %y, %zero : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// f32 rows in registers and bf16 rows staged in shared memory have nothing
// packed to widen again: no opaque zero.

// CHECK-LABEL: module attributes {credit.kernels = {unpacked_f32_n4096_c2t256e8 = {
// CHECK-NOT: shr.u64 t, $1, 63
// CHECK: gpu.return
func.func @unpacked(%x: tensor<?x4096xf32>, %o: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %r = credit.rowwise "unpacked" ins(%x : tensor<?x4096xf32>) outs(%o : tensor<?x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 4, elems = 8>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xf32>
}

// -----

// CHECK-LABEL: module attributes {credit.kernels = {unpacked_bf16_n4096_c2t256e8_shared = {
// CHECK-NOT: shr.u64 t, $1, 63
// CHECK: gpu.return
func.func @unpacked_shared(%x: tensor<?x4096xbf16>, %o: tensor<?x4096xbf16>) -> tensor<?x4096xbf16> {
  %r = credit.rowwise "unpacked" ins(%x : tensor<?x4096xbf16>) outs(%o : tensor<?x4096xbf16>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 256, vector = 8, elems = 8, staging = shared>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xbf16>
}

// -----

// Column compares: `j == k` and `j < k` (signed) compare the chunk's
// constant lanes with k - base, one value per pass (the base plus the
// pass's opaque zero, so that no pass reuses another's predicates); the
// signed one clamps k at -1 first. A per-element bound (`j <= v`) is
// clamped and subtracted lane by lane. The unsigned compare keeps the
// column.

// CHECK-LABEL: module attributes {credit.kernels = {column_compares_f32_n2048_c1t128e16 = {
// CHECK: shl.b32 $0, $0, 0;
// CHECK: %[[BASE:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[SHIFTED:.*]] = arith.addi %[[BASE]], %{{.*}} : i32
// CHECK: %[[DIFF:.*]] = arith.subi %[[K:.*]], %[[SHIFTED]] : i32
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[DIFF]] : i32 to vector<4xi32>
// CHECK: %[[LANES:.*]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
// CHECK: arith.cmpi eq, %[[LANES]], %[[SPLAT]] : vector<4xi32>
// CHECK: %[[PER:.*]] = arith.fptosi %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK: %[[PERCLAMPED:.*]] = arith.maxsi %[[PER]], %{{.*}} : vector<4xi32>
// CHECK: %[[BASES:.*]] = vector.broadcast %{{.*}} : i32 to vector<4xi32>
// CHECK: %[[PERDIFF:.*]] = arith.subi %[[PERCLAMPED]], %[[BASES]] : vector<4xi32>
// CHECK: arith.cmpi sle, %{{.*}}, %[[PERDIFF]] : vector<4xi32>
// CHECK: arith.constant dense<[512, 513, 514, 515]> : vector<4xi32>
// CHECK: shl.b32 $0, $0, 1;
// CHECK: %[[COLUMN:.*]] = arith.index_castui %{{.*}} : vector<4xindex> to vector<4xi32>
// CHECK: %[[CLAMPED:.*]] = arith.maxsi %[[K]], %{{.*}} : i32
// CHECK: %[[DIFF2:.*]] = arith.subi %[[CLAMPED]], %{{.*}} : i32
// CHECK: %[[SPLAT2:.*]] = vector.broadcast %[[DIFF2]] : i32 to vector<4xi32>
// CHECK: arith.cmpi slt, %{{.*}}, %[[SPLAT2]] : vector<4xi32>
// CHECK: arith.cmpi ult, %[[COLUMN]], %{{.*}} : vector<4xi32>
// CHECK-NOT: arith.cmpi eq, %{{.*}} : vector<4xi32>
// CHECK: gpu.return
func.func @column_compares(%x: tensor<?x2048xf32>, %t: tensor<?xi32>, %o: tensor<?x2048xf32>) -> tensor<?x2048xf32> {
  %r = credit.rowwise "column_compares" ins(%x : tensor<?x2048xf32>) scalars(%t : tensor<?xi32>) outs(%o : tensor<?x2048xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 128, vector = 4, elems = 16>}
    reduce [add] (%j: index, %v: f32, %k: i32) {
      %j32 = arith.index_castui %j : index to i32
      %hit = arith.cmpi eq, %j32, %k : i32
      %vi = arith.fptosi %v : f32 to i32
      %upto = arith.cmpi sle, %j32, %vi : i32
      %both = arith.andi %hit, %upto : i1
      %z = arith.constant 0.0 : f32
      %p = arith.select %both, %v, %z : f32
      credit.yield %p : f32
    }
    epilogue (%j: index, %v: f32, %k: i32, %s: f32) {
      %j32 = arith.index_castui %j : index to i32
      %below = arith.cmpi slt, %j32, %k : i32
      %under = arith.cmpi ult, %j32, %k : i32
      %both = arith.andi %below, %under : i1
      %z = arith.constant 0.0 : f32
      %r = arith.select %both, %s, %z : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x2048xf32>
}

// -----

// A sum that picks one column (select(j == t, v * w, 0.0)): one thread of
// the CTA whose slice holds column t reads the row and broadcast elements
// there before the sweeps, once per row; every other thread contributes
// the sum's identity, and the two sweeps (one after the other) only sum v.

// CHECK-LABEL: gpu.func @picked_bf16_n4096_c2t128e8_shared
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[T:.*]] = memref.load %{{.*}}[%[[ROW]]] : memref<?xi64, #gpu.address_space<global>>
// CHECK: %[[S:.*]] = arith.index_cast %[[T]] : i64 to index
// CHECK: %[[AT:.*]] = arith.select %[[OWNER:.*]], %[[S]], %{{.*}} : index
// CHECK: %[[POS:.*]] = arith.addi %{{.*}}, %[[AT]] : index
// CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[POS]]] : memref<?xbf16, #gpu.address_space<global>>
// CHECK: %[[XF:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK: %[[W:.*]] = memref.load %{{.*}}[%[[AT]]] : memref<?xbf16, #gpu.address_space<global>>
// CHECK: %[[WF:.*]] = arith.extf %[[W]] : bf16 to f32
// CHECK: %[[XW:.*]] = arith.mulf %[[XF]], %[[WF]] : f32
// CHECK: %[[PLUS:.*]] = arith.addf %[[XW]], %{{.*}} : f32
// CHECK: %[[PICK:.*]] = arith.select %[[OWNER]], %[[PLUS]], %{{.*}} : f32
// CHECK: %[[S0:.*]] = vector.reduction <add>
// CHECK-NEXT: %[[ACC:.*]] = arith.addf %{{.*}}, %[[S0]] : f32
// CHECK-NOT: vector.reduction
// CHECK: %[[S1:.*]] = vector.reduction <add>
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[S1]] : f32
// CHECK-NOT: vector.reduction
// CHECK: credit.block_reduce [add, add] %[[SUM]], %[[PICK]]
func.func @picked(%x: tensor<?x4096xbf16>, %w: tensor<4096xbf16>, %t: tensor<?xi64>, %o: tensor<?xf32>) -> tensor<?xf32> {
  %r = credit.rowwise "picked" ins(%x : tensor<?x4096xbf16>) bcast(%w : tensor<4096xbf16>) scalars(%t : tensor<?xi64>) scalar_outs(%o : tensor<?xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 128, vector = 8, elems = 8, staging = shared>}
    reduce [add, add] (%j: index, %v: f32, %g: f32, %i: i64) {
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %i : i64
      %zero = arith.constant 0.0 : f32
      %vg = arith.mulf %v, %g : f32
      %p = arith.select %hit, %vg, %zero : f32
      credit.yield %v, %p : f32, f32
    }
    finalize (%i: i64, %s: f32, %q: f32) {
      %r = arith.subf %s, %q : f32
      credit.yield %r : f32
    }
  return %r : tensor<?xf32>
}

// -----

// Not picks: 1.0 at the other columns, or a column that depends on the
// element. Both stay selects per element, summed in the sweeps.

// CHECK-LABEL: gpu.func @unpicked_bf16_n4096_c2t128e8_shared
// CHECK-NOT: memref.load %{{.*}} : memref<?xbf16, #gpu.address_space<global>>
// CHECK: scf.for
// CHECK: %[[A:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK: %[[B:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-DAG: vector.reduction <add>, %[[A]]
// CHECK-DAG: vector.reduction <add>, %[[B]]
// CHECK: credit.block_reduce [add, add]
func.func @unpicked(%x: tensor<?x4096xbf16>, %t: tensor<?xi64>, %o: tensor<?xf32>) -> tensor<?xf32> {
  %r = credit.rowwise "unpicked" ins(%x : tensor<?x4096xbf16>) scalars(%t : tensor<?xi64>) scalar_outs(%o : tensor<?xf32>)
      attributes {tiling = #credit.tiling<cluster = 2, threads = 128, vector = 8, elems = 8, staging = shared>}
    reduce [add, add] (%j: index, %v: f32, %i: i64) {
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %i : i64
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %p = arith.select %hit, %v, %one : f32
      %k = arith.fptosi %v : f32 to i64
      %self = arith.cmpi eq, %ji, %k : i64
      %q = arith.select %self, %v, %zero : f32
      credit.yield %p, %q : f32, f32
    }
    finalize (%i: i64, %s: f32, %q: f32) {
      %r = arith.subf %s, %q : f32
      credit.yield %r : f32
    }
  return %r : tensor<?xf32>
}

// -----

// An epilogue that selects on a row value (t != -100) and tests the column
// against one (j == t): the sweeps are emitted once per value of the row
// test, under an scf.if on it, each with the test a constant; each chunk
// branches on whether it holds column t, and only that branch compares
// the columns.

// CHECK-LABEL: gpu.func @onehot_bf16_n4096_c1t256e16_shared
// CHECK: %[[KEEP:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: scf.if %[[KEEP]] {
// CHECK: %[[OFFSET:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[HOLDS:.*]] = arith.cmpi ult, %[[OFFSET]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[HOLDS]] {
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : vector<8xi64>
// CHECK: arith.select %[[HIT]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK: vector.store {{.*}}
// CHECK-NEXT: } else {
// CHECK-NOT: arith.cmpi {{.*}} : vector<8xi64>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.cmpi {{.*}} : vector<8xi64>
// CHECK: vector.store {{.*}}
// CHECK-NEXT: }
// CHECK: } else {
// CHECK: gpu.return
func.func @onehot(%x: tensor<?x4096xbf16>, %t: tensor<?xi64>, %o: tensor<?x4096xbf16>) -> tensor<?x4096xbf16> {
  %r = credit.rowwise "onehot" ins(%x : tensor<?x4096xbf16>) scalars(%t : tensor<?xi64>) outs(%o : tensor<?x4096xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 8, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32, %i: i64) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %i: i64, %s: f32) {
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %ignore = arith.constant -100 : i64
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %i : i64
      %oh = arith.select %hit, %one, %zero : f32
      %y = arith.mulf %v, %s : f32
      %g = arith.subf %y, %oh : f32
      %keep = arith.cmpi ne, %i, %ignore : i64
      %r = arith.select %keep, %g, %zero : f32
      credit.yield %r : f32
    }
  return %r : tensor<?x4096xbf16>
}

// -----

// Neither with column sums (every chunk adds to them), nor for a compare
// of the column with a value of the element: one chunk body, per-element
// compares and selects.

// CHECK-LABEL: gpu.func @untested_f32_n4096_c1t256e16_shared
// CHECK-NOT: scf.if %{{.*}} {
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : vector<4xi64>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
// CHECK: gpu.return
func.func @untested(%x: tensor<?x4096xf32>, %t: tensor<?xi64>, %o: tensor<?x4096xf32>,
                    %c: tensor<64x4096xf32>) -> (tensor<?x4096xf32>, tensor<64x4096xf32>) {
  %r, %cs = credit.rowwise "untested" ins(%x : tensor<?x4096xf32>) scalars(%t : tensor<?xi64>)
      outs(%o : tensor<?x4096xf32>) colsum_outs(%c : tensor<64x4096xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32, %i: i64) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %i: i64, %s: f32) {
      %zero = arith.constant 0.0 : f32
      %ji = arith.index_cast %j : index to i64
      %k = arith.fptosi %v : f32 to i64
      %self = arith.cmpi eq, %ji, %k : i64
      %y = arith.select %self, %v, %zero : f32
      %hit = arith.cmpi eq, %ji, %i : i64
      %z = arith.select %hit, %v, %zero : f32
      credit.yield %y, %z : f32, f32
    }
  return %r, %cs : tensor<?x4096xf32>, tensor<64x4096xf32>
}

// -----

// The epilogue's software pipeline: over four sweeps of a shared-staged
// slice, two per iteration of the loop, the broadcast's two chunks of the
// first sweep are loaded before the loop, and each sweep loads the next
// one's (while there is one) before it computes with those it was handed,
// which stay bf16 until used. The staged chunks are read before the first
// store.
// CHECK-LABEL: gpu.func @rowwise_bf16_n2048_c1t32e16_shared
// CHECK: credit.block_reduce [add]
// CHECK: %[[G0:.*]] = vector.load %[[GAMMA:.*]][%{{.*}}] {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK: %[[G1:.*]] = vector.load %[[GAMMA]][%{{.*}}] {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK: scf.for %[[SWEEP:.*]] = %{{.*}} to %[[SWEEPS:.*]] step %{{.*}} iter_args(%[[C0:.*]] = %[[G0]], %[[C1:.*]] = %[[G1]]) -> (vector<8xbf16>, vector<8xbf16>)
// CHECK: %[[MORE:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK: %[[N0:.*]] = scf.if %[[MORE]] -> (vector<8xbf16>)
// CHECK-NEXT: vector.load %[[GAMMA]]
// CHECK: %[[N1:.*]] = scf.if %[[MORE]] -> (vector<8xbf16>)
// CHECK-NEXT: vector.load %[[GAMMA]]
// CHECK-NOT: vector.store
// CHECK: vector.load {{.*}}#gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NOT: vector.store
// CHECK: vector.bitcast %[[C0]]
// CHECK-NOT: vector.store
// CHECK: vector.load {{.*}}#gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NOT: vector.store
// CHECK: vector.bitcast %[[C1]]
// CHECK: vector.store {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK-NOT: vector.load
// CHECK: vector.store {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK-NOT: scf.yield
// CHECK: %[[N2:.*]] = scf.if %{{.*}} -> (vector<8xbf16>)
// CHECK-NEXT: vector.load %[[GAMMA]]
// CHECK: %[[N3:.*]] = scf.if %{{.*}} -> (vector<8xbf16>)
// CHECK-NEXT: vector.load %[[GAMMA]]
// CHECK: vector.bitcast %[[N0]]
// CHECK: vector.bitcast %[[N1]]
// CHECK: vector.store {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK: vector.store {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK-NEXT: scf.yield %[[N2]], %[[N3]] : vector<8xbf16>, vector<8xbf16>
func.func @pipelined(%x: memref<?x2048xbf16>, %g: memref<2048xbf16>, %o: memref<?x2048xbf16>) {
  credit.rowwise ins(%x : memref<?x2048xbf16>) bcast(%g : memref<2048xbf16>) outs(%o : memref<?x2048xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 8, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32, %w: f32) {
      %s = arith.mulf %v, %v : f32
      credit.yield %s : f32
    }
    epilogue (%j: index, %v: f32, %w: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      %y = arith.mulf %r, %w : f32
      credit.yield %y : f32
    }
  return
}

// -----

// One sweep: no pipeline (no loop values), but the chunks' broadcast loads
// still come before the first store.
// CHECK-LABEL: gpu.func @rowwise_bf16_n2048_c1t128e16_shared
// CHECK: credit.block_reduce [add]
// CHECK-NOT: iter_args
// CHECK: vector.load {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK-NOT: vector.store
// CHECK: vector.load {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK: vector.store {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK-NOT: vector.load
// CHECK: vector.store {{.*}}#gpu.address_space<global>>, vector<8xbf16>
func.func @one_sweep(%x: memref<?x2048xbf16>, %g: memref<2048xbf16>, %o: memref<?x2048xbf16>) {
  credit.rowwise ins(%x : memref<?x2048xbf16>) bcast(%g : memref<2048xbf16>) outs(%o : memref<?x2048xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 128, vector = 8, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32, %w: f32) {
      %s = arith.mulf %v, %v : f32
      credit.yield %s : f32
    }
    epilogue (%j: index, %v: f32, %w: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      %y = arith.mulf %r, %w : f32
      credit.yield %y : f32
    }
  return
}

// -----

// Registers staging loads the broadcast chunk by chunk, each before its
// own store (every chunk at once doubled the registers of such kernels).
// CHECK-LABEL: gpu.func @rowwise_bf16_n2048_c1t64e32
// CHECK: credit.block_reduce [add]
// CHECK: vector.load {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK-NOT: vector.load {{.*}}#gpu.address_space<global>>
// CHECK: vector.store {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK: vector.load {{.*}}#gpu.address_space<global>>, vector<8xbf16>
// CHECK-NOT: vector.load {{.*}}#gpu.address_space<global>>
// CHECK: vector.store {{.*}}#gpu.address_space<global>>, vector<8xbf16>
func.func @registers(%x: memref<?x2048xbf16>, %g: memref<2048xbf16>, %o: memref<?x2048xbf16>) {
  credit.rowwise ins(%x : memref<?x2048xbf16>) bcast(%g : memref<2048xbf16>) outs(%o : memref<?x2048xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 64, vector = 8, elems = 32>}
    reduce [add] (%j: index, %v: f32, %w: f32) {
      %s = arith.mulf %v, %v : f32
      credit.yield %s : f32
    }
    epilogue (%j: index, %v: f32, %w: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      %y = arith.mulf %r, %w : f32
      credit.yield %y : f32
    }
  return
}

// -----

// Runtimes find an op's kernels by (workload, N, input types): a later op
// under the key of an earlier one is listed under a suffixed name, with a
// warning where the user named it; other N or input types keep the name.
// CHECK-LABEL: module attributes
// CHECK-SAME: rowwise_1_f32_n64_c1t64e1 = {{{[^}]*}}
// CHECK-SAME: twice_1_f32_n64_c1t64e1 = {{{[^}]*}}
// CHECK-LABEL: func.func @names
// CHECK: credit.rowwise "twice" ins(%{{.*}} : tensor<?x64xf32>)
// CHECK-SAME: credit.kernels = [@twice_f32_n64_c1t64e1::
// CHECK: credit.rowwise "twice_1" ins(%{{.*}} : tensor<?x64xf32>)
// CHECK-SAME: credit.kernels = [@twice_1_f32_n64_c1t64e1::
// CHECK: credit.rowwise "twice" ins(%{{.*}} : tensor<?x64xf16>)
// CHECK: credit.rowwise "twice" ins(%{{.*}} : tensor<?x32xf32>)
// CHECK: credit.rowwise ins(%{{.*}} : tensor<?x64xf32>)
// CHECK-SAME: credit.kernels = [@rowwise_f32_n64_c1t64e1::
// CHECK: credit.rowwise "rowwise_1" ins(%{{.*}} : tensor<?x64xf32>)
// CHECK-SAME: credit.kernels = [@rowwise_1_f32_n64_c1t64e1::
func.func @names(%x: tensor<?x64xf32>, %h: tensor<?x64xf16>, %s: tensor<?x32xf32>,
                 %o: tensor<?x64xf32>, %p: tensor<?x32xf32>) {
  %a = credit.rowwise "twice" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 64, vector = 1, elems = 1>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %t: f32) { credit.yield %t : f32 }
  // expected-warning @+1 {{workload 'twice' already names an op with N = 64 and the same input types in this module; this op's kernels are listed as workload 'twice_1'}}
  %b = credit.rowwise "twice" ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 64, vector = 1, elems = 1>}
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %t: f32) { credit.yield %t : f32 }
  %c = credit.rowwise "twice" ins(%h : tensor<?x64xf16>) outs(%o : tensor<?x64xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 64, vector = 1, elems = 1>}
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %t: f32) { credit.yield %t : f32 }
  %d = credit.rowwise "twice" ins(%s : tensor<?x32xf32>) outs(%p : tensor<?x32xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 1, elems = 1>}
    reduce [max] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %t: f32) { credit.yield %t : f32 }
  %e = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 64, vector = 1, elems = 1>}
    reduce [add] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %t: f32) { credit.yield %t : f32 }
  %f = credit.rowwise ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 64, vector = 1, elems = 1>}
    reduce [min] (%j: index, %v: f32) { credit.yield %v : f32 }
    epilogue (%j: index, %v: f32, %t: f32) { credit.yield %t : f32 }
  return
}

// -----

// How many sweeps one iteration of the sweep loop emits: three sweeps stay
// one per iteration (two chunks' loads each), ...
// CHECK-LABEL: gpu.func @odd_sweeps_bf16_n1536_c1t32e16_shared
// CHECK: scf.for %{{.*}} = %{{.*}} to %c3{{.*}} step %c1{{.*}} iter_args
// CHECK-COUNT-2: vector.load {{.*}}#gpu.address_space<global>>
// CHECK-NOT: vector.load {{.*}}#gpu.address_space<global>>
// CHECK: scf.yield
func.func @odd_sweeps(%x: memref<?x1536xbf16>, %o: memref<?x1536xbf16>) {
  credit.rowwise "odd_sweeps" ins(%x : memref<?x1536xbf16>) outs(%o : memref<?x1536xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 8, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32) {
      %s = arith.mulf %v, %v : f32
      credit.yield %s : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return
}

// -----

// ... six sweeps pair up: three iterations of two sweeps each, the second
// sweep at the induction variable plus one, so that ptxas may issue its
// loads while the first sweep computes, ...
// CHECK-LABEL: gpu.func @even_sweeps_bf16_n3072_c1t32e16_shared
// CHECK: scf.for %[[SWEEP:.*]] = %{{.*}} to %c6{{.*}} step %c2{{.*}} iter_args
// CHECK-COUNT-2: vector.load {{.*}}#gpu.address_space<global>>
// CHECK: arith.addi %[[SWEEP]], %c1
// CHECK-COUNT-2: vector.load {{.*}}#gpu.address_space<global>>
// CHECK-NOT: vector.load {{.*}}#gpu.address_space<global>>
// CHECK: scf.yield
func.func @even_sweeps(%x: memref<?x3072xbf16>, %o: memref<?x3072xbf16>) {
  credit.rowwise "even_sweeps" ins(%x : memref<?x3072xbf16>) outs(%o : memref<?x3072xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 8, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32) {
      %s = arith.mulf %v, %v : f32
      credit.yield %s : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return
}

// -----

// ... and five sweeps take two iterations of two, then the fifth after the
// loop at the constant sweep 4.
// CHECK-LABEL: gpu.func @five_sweeps_bf16_n2560_c1t32e16_shared
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: scf.for %[[SWEEP:.*]] = %{{.*}} to %[[FOUR]] step %c2{{.*}} iter_args
// CHECK-COUNT-2: vector.load {{.*}}#gpu.address_space<global>>
// CHECK: arith.addi %[[SWEEP]], %c1
// CHECK-COUNT-2: vector.load {{.*}}#gpu.address_space<global>>
// CHECK: scf.yield
// CHECK-COUNT-2: vector.load {{.*}}#gpu.address_space<global>>
// CHECK-NOT: vector.load {{.*}}#gpu.address_space<global>>
// CHECK: credit.block_reduce
func.func @five_sweeps(%x: memref<?x2560xbf16>, %o: memref<?x2560xbf16>) {
  credit.rowwise "five_sweeps" ins(%x : memref<?x2560xbf16>) outs(%o : memref<?x2560xbf16>)
      attributes {tiling = #credit.tiling<cluster = 1, threads = 32, vector = 8, elems = 16, staging = shared>}
    reduce [add] (%j: index, %v: f32) {
      %s = arith.mulf %v, %v : f32
      credit.yield %s : f32
    }
    epilogue (%j: index, %v: f32, %s: f32) {
      %r = arith.mulf %v, %s : f32
      credit.yield %r : f32
    }
  return
}
