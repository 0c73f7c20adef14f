// A valid chunk, then one whose op crashes MLIR 22's acc.getdeviceptr
// parser (it builds a TypeAttr of a type it never set).
func.func @fine(%x: f32) -> f32 {
  return %x : f32
}

// -----

func.func @crash() {
  %p = llvm.mlir.zero : !llvm.ptr
  %d = acc.getdeviceptr varPtr(%p : !llvm.ptr) -> !llvm.ptr
  return
}
