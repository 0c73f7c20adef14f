// A kernel binary as credit-to-ptx leaves it, for credit-write-artifacts.
module attributes {credit.kernels = {k = {n = 4 : i64}}, gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.0\0A.target sm_90\0A.address_size 64\0A.visible .entry k()\0A{\0A\09ret;\0A}\0A">]
}
