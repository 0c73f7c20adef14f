// RUN: credit-opt %s --split-input-file --verify-diagnostics

func.func @view_space(%p: !llvm.ptr<1>, %n: i64) {
  // expected-error @+1 {{result must be in #gpu.address_space<global>}}
  %v = credit.global_view %p, %n : !llvm.ptr<1> -> memref<?xf32>
  return
}

// -----

func.func @view_static(%p: !llvm.ptr<1>, %n: i64) {
  // expected-error @+1 {{result must be a dynamically sized memref with the identity layout}}
  %v = credit.global_view %p, %n : !llvm.ptr<1> -> memref<16xf32, #gpu.address_space<global>>
  return
}

// -----

func.func @view_pointer(%p: !llvm.ptr<3>, %n: i64) {
  // expected-error @+1 {{pointer must be in the global address space (1)}}
  %v = credit.global_view %p, %n : !llvm.ptr<3> -> memref<?xf32, #gpu.address_space<global>>
  return
}

// -----

func.func @dynamic_space() {
  // expected-error @+1 {{result must be in #gpu.address_space<workgroup>}}
  %s = credit.dynamic_shared_memory : memref<16xi8, #gpu.address_space<global>>
  return
}

// -----

func.func @dynamic_size() {
  // expected-error @+1 {{result must be statically sized with the identity layout}}
  %s = credit.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @combiner_count(%a: f32) {
  // expected-error @+1 {{expects one combiner per value and at least one value, found 2 combiners for 1 values}}
  %r = credit.block_reduce [add, max] %a {group_threads = 32 : i32} : f32
  return
}

// -----

func.func @addexp_partner(%a: f32, %b: f32) {
  // expected-error @+1 {{combiner 'addexp' #0 of the combiners needs a 'max' before it to sum relative to}}
  %r:2 = credit.block_reduce [addexp, max] %a, %b {group_threads = 32 : i32} : f32, f32
  return
}

// -----

func.func @sqdev_partners(%a: f32, %b: f32) {
  // expected-error @+1 {{combiner 'sqdev' #1 of the combiners needs an 'add' sum and an 'add' count right before it}}
  %r:2 = credit.block_reduce [add, sqdev] %a, %b {group_threads = 32 : i32} : f32, f32
  return
}

// -----

func.func @combiner_attr(%a: f32) {
  // expected-error @+1 {{combiners must be #credit.combiner attributes}}
  %r = "credit.block_reduce"(%a) <{combiners = [1 : i32], group_threads = 32 : i32,
                                  operandSegmentSizes = array<i32: 1, 0, 0>}> : (f32) -> f32
  return
}

// -----

func.func @group_threads(%a: f32) {
  // expected-error @+1 {{group_threads must be a multiple of 32 up to 1024, got 48}}
  %r = credit.block_reduce [add] %a {group_threads = 48 : i32} : f32
  return
}

// -----

func.func @group_threads_min(%a: f32) {
  // expected-error @+1 {{attribute 'group_threads' failed to satisfy constraint}}
  %r = credit.block_reduce [add] %a {group_threads = 16 : i32} : f32
  return
}

// -----

func.func @needs_scratch(%a: f32) {
  // expected-error @+1 {{needs scratch when a group has more than one warp}}
  %r = credit.block_reduce [add] %a {group_threads = 64 : i32} : f32
  return
}

// -----

func.func @scratch_space(%a: f32, %buf: memref<64xf32>, %o: index) {
  // expected-error @+1 {{scratch must be in #gpu.address_space<workgroup>}}
  %r = credit.block_reduce [add] %a scratch(%buf[%o] : memref<64xf32>) {group_threads = 64 : i32} : f32
  return
}

// -----

func.func @scratch_static(%a: f32, %buf: memref<?xf32, #gpu.address_space<workgroup>>, %o: index) {
  // expected-error @+1 {{scratch must be statically sized with the identity layout}}
  %r = credit.cluster_reduce [add] %a scratch(%buf[%o] : memref<?xf32, #gpu.address_space<workgroup>>) {cluster = 2 : i32} : f32
  return
}

// -----

func.func @cluster_size(%a: f32, %buf: memref<64xf32, #gpu.address_space<workgroup>>, %o: index) {
  // expected-error @+1 {{cluster must be 2, 4, 8 or 16, got 3}}
  %r = credit.cluster_reduce [add] %a scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) {cluster = 3 : i32} : f32
  return
}

// -----

func.func @cluster_combiners(%a: f32, %buf: memref<64xf32, #gpu.address_space<workgroup>>, %o: index) {
  // expected-error @+1 {{expects one combiner per value and at least one value, found 0 combiners for 1 values}}
  %r = credit.cluster_reduce [] %a scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) {cluster = 2 : i32} : f32
  return
}

// -----

func.func @block_scratch_empty(%a: f32, %buf: memref<0xf32, #gpu.address_space<workgroup>>, %o: index) {
  // expected-error @+1 {{scratch of 0 entries has no room for the 8 entries it needs from offset 0}}
  %r = credit.block_reduce [add] %a scratch(%buf[%o] : memref<0xf32, #gpu.address_space<workgroup>>) {group_threads = 256 : i32} : f32
  return
}

// -----

func.func @block_scratch_offset(%a: f32, %b: f32, %buf: memref<16xf32, #gpu.address_space<workgroup>>) {
  %o = arith.constant 4 : index
  // expected-error @+1 {{scratch of 16 entries has no room for the 16 entries it needs from offset 4}}
  %r:2 = credit.block_reduce [add, max] %a, %b scratch(%buf[%o] : memref<16xf32, #gpu.address_space<workgroup>>) {group_threads = 256 : i32} : f32, f32
  return
}

// -----

func.func @cluster_scratch_small(%a: f32, %buf: memref<8xf32, #gpu.address_space<workgroup>>, %o: index) {
  // expected-error @+1 {{scratch of 8 entries has no room for the 16 entries it needs from offset 0}}
  %r = credit.cluster_reduce [add] %a scratch(%buf[%o] : memref<8xf32, #gpu.address_space<workgroup>>) {cluster = 16 : i32} : f32
  return
}

// -----

func.func @scratch_negative_offset(%a: f32, %buf: memref<64xf32, #gpu.address_space<workgroup>>) {
  %o = arith.constant -1 : index
  // expected-error @+1 {{scratch offset -1 is negative}}
  %r = credit.cluster_reduce [add] %a scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) {cluster = 2 : i32} : f32
  return
}

// -----

func.func @grid_splits(%a: f32, %p: !llvm.ptr<1>, %i: index, %t: i1, %buf: memref<8xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{splits must be from 2 to 64, got 1}}
  %r = credit.grid_reduce [add] %a partials(%p[%i] : !llvm.ptr<1>) counters(%p[%i] : !llvm.ptr<1>) split(%i) publish(%t) scratch(%buf[%i] : memref<8xf32, #gpu.address_space<workgroup>>) {splits = 1 : i32, arrivals = 1 : i64} : f32
  return
}

// -----

func.func @grid_arrivals(%a: f32, %p: !llvm.ptr<1>, %i: index, %t: i1, %buf: memref<8xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{arrivals must be a positive multiple of splits (4), got 6}}
  %r = credit.grid_reduce [add] %a partials(%p[%i] : !llvm.ptr<1>) counters(%p[%i] : !llvm.ptr<1>) split(%i) publish(%t) scratch(%buf[%i] : memref<8xf32, #gpu.address_space<workgroup>>) {splits = 4 : i32, arrivals = 6 : i64} : f32
  return
}

// -----

func.func @grid_combiners(%a: f32, %p: !llvm.ptr<1>, %i: index, %t: i1, %buf: memref<8xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{expects one combiner per value and at least one value, found 2 combiners for 1 values}}
  %r = credit.grid_reduce [add, max] %a partials(%p[%i] : !llvm.ptr<1>) counters(%p[%i] : !llvm.ptr<1>) split(%i) publish(%t) scratch(%buf[%i] : memref<8xf32, #gpu.address_space<workgroup>>) {splits = 4 : i32, arrivals = 4 : i64} : f32
  return
}

// -----

func.func @grid_scratch(%a: f32, %b: f32, %p: !llvm.ptr<1>, %i: index, %t: i1, %buf: memref<1xf32, #gpu.address_space<workgroup>>) {
  %o = arith.constant 0 : index
  // expected-error @+1 {{scratch of 1 entries has no room for the 2 entries it needs from offset 0}}
  %r:2 = credit.grid_reduce [add, max] %a, %b partials(%p[%i] : !llvm.ptr<1>) counters(%p[%i] : !llvm.ptr<1>) split(%i) publish(%t) scratch(%buf[%o] : memref<1xf32, #gpu.address_space<workgroup>>) {splits = 4 : i32, arrivals = 4 : i64} : f32, f32
  return
}

// -----

func.func @grid_pointer_space(%a: f32, %p: !llvm.ptr, %q: !llvm.ptr<1>, %i: index, %t: i1, %buf: memref<8xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{operand #1 must be LLVM pointer in address space 1}}
  %r = credit.grid_reduce [add] %a partials(%p[%i] : !llvm.ptr) counters(%q[%i] : !llvm.ptr<1>) split(%i) publish(%t) scratch(%buf[%i] : memref<8xf32, #gpu.address_space<workgroup>>) {splits = 4 : i32, arrivals = 4 : i64} : f32
  return
}

// -----

func.func @cluster_barriers_space(%a: f32, %buf: memref<64xf32, #gpu.address_space<workgroup>>, %bars: memref<2xi64>, %o: index) {
  // expected-error @+1 {{mbarriers must be a statically sized memref in #gpu.address_space<workgroup> with the identity layout}}
  %r = credit.cluster_reduce [add] %a scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) mbarrier(%bars[%o] phase %o : memref<2xi64>) {cluster = 2 : i32} : f32
  return
}

// -----

func.func @cluster_barrier_index(%a: f32, %buf: memref<64xf32, #gpu.address_space<workgroup>>, %bars: memref<2xi64, #gpu.address_space<workgroup>>, %o: index) {
  %i = arith.constant 2 : index
  // expected-error @+1 {{mbarrier index 2 is outside the 2 mbarriers}}
  %r = credit.cluster_reduce [add] %a scratch(%buf[%o] : memref<64xf32, #gpu.address_space<workgroup>>) mbarrier(%bars[%i] phase %o : memref<2xi64, #gpu.address_space<workgroup>>) {cluster = 2 : i32} : f32
  return
}

// -----

func.func @async_copy_source(%src: memref<?xf32>, %i: index, %dst: memref<?xf32, #gpu.address_space<workgroup>>, %ok: i1) {
  // expected-error @+1 {{source must be in #gpu.address_space<global>}}
  credit.async_copy %src[%i], %dst[%i] if %ok {elements = 4 : i32} : memref<?xf32>, memref<?xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @async_copy_target(%src: memref<?xf32, #gpu.address_space<global>>, %i: index, %dst: memref<?xf32, #gpu.address_space<global>>, %ok: i1) {
  // expected-error @+1 {{target must be in #gpu.address_space<workgroup>}}
  credit.async_copy %src[%i], %dst[%i] if %ok {elements = 4 : i32} : memref<?xf32, #gpu.address_space<global>>, memref<?xf32, #gpu.address_space<global>>
  return
}

// -----

func.func @async_copy_types(%src: memref<?xf32, #gpu.address_space<global>>, %i: index, %dst: memref<?xbf16, #gpu.address_space<workgroup>>, %ok: i1) {
  // expected-error @+1 {{source and target element types differ: 'f32' and 'bf16'}}
  credit.async_copy %src[%i], %dst[%i] if %ok {elements = 4 : i32} : memref<?xf32, #gpu.address_space<global>>, memref<?xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @async_copy_size(%src: memref<?xbf16, #gpu.address_space<global>>, %i: index, %dst: memref<?xbf16, #gpu.address_space<workgroup>>, %ok: i1) {
  // expected-error @+1 {{copies 4, 8 or 16 bytes, not 1 elements of 'bf16'}}
  credit.async_copy %src[%i], %dst[%i] if %ok {elements = 1 : i32} : memref<?xbf16, #gpu.address_space<global>>, memref<?xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @async_copy_layout(%src: memref<?xf32, strided<[1], offset: 4>, #gpu.address_space<global>>, %i: index, %dst: memref<?xf32, #gpu.address_space<workgroup>>, %ok: i1) {
  // expected-error @+1 {{source and target must have the identity layout}}
  credit.async_copy %src[%i], %dst[%i] if %ok {elements = 4 : i32} : memref<?xf32, strided<[1], offset: 4>, #gpu.address_space<global>>, memref<?xf32, #gpu.address_space<workgroup>>
  return
}
