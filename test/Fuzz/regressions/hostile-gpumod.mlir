module attributes {gpu.container_module, credit.kernels = [{name = "../evil"}]} {
gpu.module @"../x" {
}
}
