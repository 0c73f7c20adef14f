func.func @f(%a: f32, %buf: memref<0xf32, #gpu.address_space<workgroup>>, %o: index) -> f32 {
  %r = credit.block_reduce [add] %a scratch(%buf[%o] : memref<0xf32, #gpu.address_space<workgroup>>) {group_threads = 256 : i32} : f32
  return %r : f32
}
