// RUN: credit-opt %s --split-input-file --convert-credit-to-nvvm | FileCheck %s

// One warp per group: butterfly shuffles only, no shared memory, no barrier.
// CHECK-LABEL: func.func @warp_group
// CHECK-NOT: credit.block_reduce
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.store
// CHECK: return
func.func @warp_group(%v: f32) -> f32 {
  %r = credit.block_reduce [add] %v {group_threads = 32 : i32} : f32
  return %r : f32
}

// -----

// Several warps: lane 0 of each warp publishes to the scratch, the CTA
// synchronizes, and a shorter butterfly (8 warps: 3 steps) plus a broadcast
// from lane 0 finish. Max uses the NaN-propagating maximumf, with -inf for
// lanes past the group's warps.
// CHECK-LABEL: func.func @cta_group
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: scf.if
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK: memref.load
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[NEGINF]] : f32
// CHECK-COUNT-3: gpu.shuffle xor
// CHECK: arith.maximumf
// CHECK: gpu.shuffle idx
func.func @cta_group(%v: f32, %buf: memref<64xf32, #gpu.address_space<workgroup>>, %o: index) -> f32 {
  %r = credit.block_reduce [max] %v scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) {group_threads = 256 : i32} : f32
  return %r : f32
}

// -----

// Cluster reduction: threads 0..3 push to the peers' shared memory through
// DSMEM, the cluster synchronizes (release arrive, acquire wait), and lane
// i of every warp loads rank i % 4's two entries (not every rank's) and
// combines them over groups of 4 lanes with xor shuffles (distances 2, 1).
// CHECK-LABEL: func.func @cluster
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: llvm.inttoptr {{.*}} to !llvm.ptr<3>
// CHECK: scf.if
// CHECK: llvm.getelementptr
// CHECK: nvvm.mapa {{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<7>
// CHECK: nvvm.mapa
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<7>
// CHECK: nvvm.cluster.arrive
// CHECK-NOT: relaxed
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: %[[RANK:.*]] = arith.remui %[[LANE]], %[[FOUR:.*]] : index
// CHECK: arith.muli %[[RANK]]
// CHECK-COUNT-2: memref.load
// CHECK-NOT: memref.load
// CHECK: %[[D2:.*]] = arith.constant 2 : i32
// CHECK: gpu.shuffle  xor %{{.*}}, %[[D2]]
// CHECK-NEXT: arith.addf
// CHECK: gpu.shuffle  xor
// CHECK-NEXT: arith.addf
// CHECK: gpu.shuffle  xor
// CHECK-NEXT: arith.minimumf
// CHECK: gpu.shuffle  xor
// CHECK-NEXT: arith.minimumf
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: memref.load
// CHECK: return
func.func @cluster(%a: f32, %b: f32, %buf: memref<32xf32, #gpu.address_space<workgroup>>, %o: index) -> (f32, f32) {
  %r:2 = credit.cluster_reduce [add, min] %a, %b scratch(%buf[%o] : memref<32xf32, #gpu.address_space<workgroup>>) {cluster = 4 : i32} : f32, f32
  return %r#0, %r#1 : f32, f32
}

// -----

// The asynchronous exchange: the pushers write each value into the peer's
// entry with st.async completing on the peer's mbarrier of this buffer (no
// plain DSMEM store, no cluster barrier); thread 0 expects 4 ranks x 2
// values x 4 bytes and arrives; every thread polls the phase with acquire
// at cluster scope; then the same combination, a rank per lane.
// CHECK-LABEL: func.func @cluster_async
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: llvm.getelementptr {{.*}} -> !llvm.ptr<3>, i64
// CHECK: scf.if
// CHECK: %[[PEERBAR:.*]] = nvvm.mapa {{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: %[[DATA:.*]] = nvvm.mapa {{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: %[[BITS:.*]] = llvm.bitcast {{.*}} : f32 to i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}"st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];", "l,r,l,~{memory}" %[[DATA]], %[[BITS]], %[[PEERBAR]]
// CHECK: llvm.inline_asm has_side_effects {{.*}}"st.async.shared::cluster.mbarrier::complete_tx::bytes.b32
// CHECK-NOT: llvm.store
// CHECK: arith.constant 32 : i32
// CHECK: "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;"
// CHECK: scf.while
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// CHECK-NOT: nvvm.cluster.arrive
// CHECK-NOT: nvvm.cluster.wait
// CHECK-COUNT-2: memref.load
// CHECK-NOT: memref.load
// CHECK: gpu.shuffle  xor
func.func @cluster_async(%a: f32, %b: f32, %buf: memref<32xf32, #gpu.address_space<workgroup>>, %o: index,
                         %bars: memref<4xi64, #gpu.address_space<workgroup>>, %i: index, %p: index) -> (f32, f32) {
  %r:2 = credit.cluster_reduce [add, min] %a, %b scratch(%buf[%o] : memref<32xf32, #gpu.address_space<workgroup>>) mbarrier(%bars[%i] phase %p : memref<4xi64, #gpu.address_space<workgroup>>) {cluster = 4 : i32} : f32, f32
  return %r#0, %r#1 : f32, f32
}

// -----

// Aligned entries go out as one vector st.async per peer: the scratch is a
// global aligned to 16 bytes and the offset a multiple of 8 values, so a
// rank's two values (8 bytes) and four values (16 bytes) are aligned
// wherever the rank's entries start. The expected bytes stay 4 per value.
memref.global "private" @scratch16 : memref<64xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-LABEL: func.func @cluster_async_vector
// CHECK: scf.if
// CHECK-COUNT-1: "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [$0], {$1, $2}, [$3];", "l,r,r,l,~{memory}"
// CHECK-NOT: st.async
// CHECK: arith.constant 32 : i32
// CHECK: "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;"
// CHECK: scf.if
// CHECK-COUNT-1: "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [$0], {$1, $2, $3, $4}, [$5];", "l,r,r,r,r,l,~{memory}"
// CHECK-NOT: st.async
// CHECK: arith.constant 64 : i32
func.func @cluster_async_vector(%a: f32, %b: f32, %c: f32, %d: f32, %x: index,
                                %bars: memref<4xi64, #gpu.address_space<workgroup>>, %i: index, %p: index) -> (f32, f32, f32) {
  %buf = memref.get_global @scratch16 : memref<64xf32, #gpu.address_space<workgroup>>
  %c8 = arith.constant 8 : index
  %o = arith.muli %x, %c8 : index
  %r:2 = credit.cluster_reduce [max, addexp] %a, %b scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) mbarrier(%bars[%i] phase %p : memref<4xi64, #gpu.address_space<workgroup>>) {cluster = 4 : i32} : f32, f32
  %s:4 = credit.cluster_reduce [add, add, add, add] %a, %b, %c, %d scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) mbarrier(%bars[%i] phase %p : memref<4xi64, #gpu.address_space<workgroup>>) {cluster = 4 : i32} : f32, f32, f32, f32
  return %r#0, %s#0, %s#3 : f32, f32, f32
}

// -----

// Where alignment is not known the values go out one by one: an odd
// offset (8x + 1) for two values; three values per rank (a rank's entries
// start at every multiple of 3, so neither pair is always aligned); a
// scratch aligned to 4 bytes only.
memref.global "private" @scratch16b : memref<64xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
memref.global "private" @scratch4 : memref<64xf32, #gpu.address_space<workgroup>> {alignment = 4 : i64}
// CHECK-LABEL: func.func @cluster_async_scalar
// CHECK-NOT: .v2.b32
// CHECK-NOT: .v4.b32
// CHECK-COUNT-7: "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];"
// CHECK-NOT: st.async
// CHECK: return
func.func @cluster_async_scalar(%a: f32, %b: f32, %c: f32, %x: index,
                                %bars: memref<4xi64, #gpu.address_space<workgroup>>, %i: index, %p: index) -> (f32, f32, f32) {
  %buf = memref.get_global @scratch16b : memref<64xf32, #gpu.address_space<workgroup>>
  %small = memref.get_global @scratch4 : memref<64xf32, #gpu.address_space<workgroup>>
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %o8 = arith.muli %x, %c8 : index
  %odd = arith.addi %o8, %c1 : index
  %r:2 = credit.cluster_reduce [max, addexp] %a, %b scratch(%buf[%odd] : memref<64xf32, #gpu.address_space<workgroup>>) mbarrier(%bars[%i] phase %p : memref<4xi64, #gpu.address_space<workgroup>>) {cluster = 4 : i32} : f32, f32
  %s:3 = credit.cluster_reduce [add, add, add] %a, %b, %c scratch(%buf[%o8] : memref<64xf32, #gpu.address_space<workgroup>>) mbarrier(%bars[%i] phase %p : memref<4xi64, #gpu.address_space<workgroup>>) {cluster = 4 : i32} : f32, f32, f32
  %t:2 = credit.cluster_reduce [max, addexp] %a, %b scratch(%small[%o8] : memref<64xf32, #gpu.address_space<workgroup>>) mbarrier(%bars[%i] phase %p : memref<4xi64, #gpu.address_space<workgroup>>) {cluster = 4 : i32} : f32, f32
  return %r#0, %s#0, %t#0 : f32, f32, f32
}

// -----

// Split rows: the publisher stores its values and counts itself in with a
// release add; warp 0 polls with acquire loads until every cluster has
// arrived, each lane loads its splits' contributions (40 splits: two per
// lane, the second past the end for lanes 8..31), the warp combines them
// with xor shuffles, and lane 0 hands the result to the CTA through shared
// memory and a barrier.
// CHECK-LABEL: func.func @grid
// CHECK-NOT: credit.grid_reduce
// CHECK: scf.if
// CHECK: llvm.store
// CHECK: red.release.gpu.global.add.u32
// CHECK: arith.cmpi ult, %{{.*}}, %c32
// CHECK: scf.if
// CHECK: scf.while
// CHECK: ld.acquire.gpu.global.u32
// CHECK: arith.cmpi ult
// CHECK-COUNT-2: ld.relaxed.gpu.global.f32
// CHECK-NOT: ld.relaxed
// CHECK: arith.maximumf
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: scf.if
// CHECK: memref.store
// CHECK-NOT: red.relaxed
// CHECK: gpu.barrier
// CHECK: memref.load
func.func @grid(%a: f32, %p: !llvm.ptr<1>, %c: !llvm.ptr<1>, %i: index, %t: i1, %buf: memref<8xf32, #gpu.address_space<workgroup>>) -> f32 {
  %r = credit.grid_reduce [max] %a partials(%p[%i] : !llvm.ptr<1>) counters(%c[%i] : !llvm.ptr<1>) split(%i) publish(%t) scratch(%buf[%i] : memref<8xf32, #gpu.address_space<workgroup>>) {splits = 40 : i32, arrivals = 40 : i64} : f32
  return %r : f32
}

// -----

// A row's last exchange: every CTA counts itself out after reading with an
// increment that wraps to zero once the count reaches arrivals + departures
// (4 + 8), so that the next launch finds zero; no CTA waits for its answer.
// CHECK-LABEL: func.func @grid_last
// CHECK: red.release.gpu.global.add.u32
// CHECK: ld.acquire.gpu.global.u32
// CHECK: gpu.shuffle xor
// CHECK: memref.store
// CHECK: red.relaxed.gpu.global.inc.u32 [$0], 11;
// CHECK-NOT: atom.
// CHECK-NOT: st.relaxed
// CHECK: gpu.barrier
func.func @grid_last(%a: f32, %p: !llvm.ptr<1>, %c: !llvm.ptr<1>, %i: index, %t: i1, %buf: memref<8xf32, #gpu.address_space<workgroup>>) -> f32 {
  %r = credit.grid_reduce [add] %a partials(%p[%i] : !llvm.ptr<1>) counters(%c[%i] : !llvm.ptr<1>) split(%i) publish(%t) scratch(%buf[%i] : memref<8xf32, #gpu.address_space<workgroup>>) {splits = 2 : i32, arrivals = 4 : i64, departures = 8 : i32} : f32
  return %r : f32
}

// -----

// addexp with its max: the maximum's butterfly first; then each lane
// rescales its own sum to the warp's maximum (0 as the shift where it is
// -inf) and the sums are added in a butterfly of their own, so every lane
// ends with the same bits.
// CHECK-LABEL: func.func @online_warp
// CHECK-SAME: (%[[M0:.*]]: f32, %[[S0:.*]]: f32)
// CHECK-COUNT-5: arith.maximumf
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[EMPTY:.*]] = arith.cmpf oeq, %[[M:.*]], %[[NEGINF]] : f32
// CHECK: %[[SHIFT:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[M]] : f32
// CHECK: arith.subf %[[M0]], %[[SHIFT]] : f32
// CHECK: %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: arith.mulf %[[S0]], %[[E]] : f32
// CHECK-NOT: llvm.nvvm.ex2.approx.ftz.f
// CHECK-COUNT-5: arith.addf
// CHECK-NOT: arith.maximumf
// CHECK: return
func.func @online_warp(%m: f32, %s: f32) -> (f32, f32) {
  %r:2 = credit.block_reduce [max, addexp] %m, %s {group_threads = 32 : i32} : f32, f32
  return %r#0, %r#1 : f32, f32
}

// -----

// Two addexp entries of one max share its rescaling factor: each lane
// loads one rank's four entries, the max and the add take their
// butterflies, then the lane rescales its rank's two sums by one
// exponential against the cluster's maximum and they are added in
// butterflies of their own.
// CHECK-LABEL: func.func @online_cluster
// CHECK: nvvm.cluster.wait
// CHECK-COUNT-4: memref.load
// CHECK-NOT: memref.load
// CHECK: gpu.shuffle  xor
// CHECK-NEXT: arith.maximumf
// CHECK: gpu.shuffle  xor
// CHECK-NEXT: arith.addf
// CHECK: llvm.nvvm.ex2.approx.ftz.f
// CHECK-NOT: llvm.nvvm.ex2.approx.ftz.f
// CHECK: gpu.shuffle  xor
// CHECK-NEXT: arith.addf
// CHECK: gpu.shuffle  xor
// CHECK-NEXT: arith.addf
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @online_cluster(%m: f32, %s: f32, %a: f32, %t: f32, %buf: memref<64xf32, #gpu.address_space<workgroup>>, %o: index) -> (f32, f32, f32, f32) {
  %r:4 = credit.cluster_reduce [max, addexp, add, addexp] %m, %s, %a, %t scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) {cluster = 2 : i32} : f32, f32, f32, f32
  return %r#0, %r#1, %r#2, %r#3 : f32, f32, f32, f32
}

// -----

// Split rows: the contributions past the splits are the identities (-inf
// for the max, 0 for the sum) before they are combined as pairs.
// CHECK-LABEL: func.func @online_grid
// CHECK: ld.acquire.gpu.global.u32
// CHECK-COUNT-4: ld.relaxed.gpu.global.f32
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: arith.maximumf
// CHECK: llvm.nvvm.ex2.approx.ftz.f
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: gpu.barrier
func.func @online_grid(%m: f32, %s: f32, %p: !llvm.ptr<1>, %c: !llvm.ptr<1>, %i: index, %t: i1, %buf: memref<8xf32, #gpu.address_space<workgroup>>) -> (f32, f32) {
  %r:2 = credit.grid_reduce [max, addexp] %m, %s partials(%p[%i] : !llvm.ptr<1>) counters(%c[%i] : !llvm.ptr<1>) split(%i) publish(%t) scratch(%buf[%i] : memref<8xf32, #gpu.address_space<workgroup>>) {splits = 40 : i32, arrivals = 40 : i64} : f32, f32
  return %r#0, %r#1 : f32, f32
}

// -----

// sqdev with its sum and count: the sums and counts take their own
// butterflies (the same bits in every lane); each lane then centers its
// squared deviations on the warp's mean, m2 + (s - n * mean)^2 / n (nothing
// where its count is 0), and those are added in a butterfly of their own.
// CHECK-LABEL: func.func @moments_warp
// CHECK-SAME: (%[[S:.*]]: f32, %[[N:.*]]: f32, %[[Q:.*]]: f32)
// CHECK-COUNT-10: gpu.shuffle
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[MEAN:.*]] = arith.divf %{{.*}}, %[[SUM]] fastmath<afn> : f32
// CHECK-NEXT: %[[NM:.*]] = arith.mulf %[[N]], %[[MEAN]] : f32
// CHECK-NEXT: %[[OFF:.*]] = arith.subf %[[S]], %[[NM]] : f32
// CHECK-NEXT: %[[OFF2:.*]] = arith.mulf %[[OFF]], %[[OFF]] : f32
// CHECK-NEXT: %[[TERM:.*]] = arith.divf %[[OFF2]], %[[N]] fastmath<afn> : f32
// CHECK: %[[SOME:.*]] = arith.cmpf ogt, %[[N]], %[[ZERO:.*]] : f32
// CHECK-NEXT: %[[KEPT:.*]] = arith.select %[[SOME]], %[[TERM]], %[[ZERO]] : f32
// CHECK-NEXT: %[[OWN:.*]] = arith.addf %[[Q]], %[[KEPT]] : f32
// CHECK: gpu.shuffle xor %[[OWN]]
// CHECK-COUNT-4: gpu.shuffle
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @moments_warp(%s: f32, %n: f32, %q: f32) -> (f32, f32, f32) {
  %r:3 = credit.block_reduce [add, add, sqdev] %s, %n, %q {group_threads = 32 : i32} : f32, f32, f32
  return %r#0, %r#1, %r#2 : f32, f32, f32
}

// -----

// Across the cluster: a rank's moments per lane, combined as within a
// warp: the sums and counts in butterflies, then each lane's rank's sum
// offset from its count times the cluster's mean, m2_r + (s_r - n_r *
// mean)^2 / n_r (nothing for an empty rank), added in a butterfly.
// CHECK-LABEL: func.func @moments_cluster
// CHECK: nvvm.cluster.wait
// CHECK-COUNT-3: memref.load
// CHECK-NOT: memref.load
// CHECK-COUNT-2: gpu.shuffle  xor
// CHECK: %[[MEAN:.*]] = arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f32
// CHECK: arith.mulf %{{.*}}, %[[MEAN]] : f32
// CHECK: arith.cmpf ogt
// CHECK-NOT: arith.cmpf ogt
// CHECK: gpu.shuffle  xor
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @moments_cluster(%s: f32, %n: f32, %q: f32, %buf: memref<64xf32, #gpu.address_space<workgroup>>, %o: index) -> (f32, f32, f32) {
  %r:3 = credit.cluster_reduce [add, add, sqdev] %s, %n, %q scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) {cluster = 2 : i32} : f32, f32, f32
  return %r#0, %r#1, %r#2 : f32, f32, f32
}
