# -*- Python -*-
# lit configuration for the CREDIT regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "CREDIT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.credit_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs",
                   "regressions", "credit-capi-test.c"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%credit_src", config.credit_src_root))
config.substitutions.append(("%python", config.python_executable))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

config.substitutions.append(
    ("%credit_opt_path", os.path.join(config.credit_tools_dir, "credit-opt")))

# ptxas, for the tests that assemble PTX: PATH, CUDA_ROOT/CUDA_HOME/CUDA_PATH,
# then the usual install location. Found here, it is handed to the tests
# through CUDA_HOME; the tests skip that part (and say so) without it.
import shutil
ptxas = shutil.which("ptxas")
for variable in ["CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"]:
    root = os.environ.get(variable)
    if not ptxas and root and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
        ptxas = os.path.join(root, "bin", "ptxas")
if not ptxas and os.access("/usr/local/cuda/bin/ptxas", os.X_OK):
    ptxas = "/usr/local/cuda/bin/ptxas"
if ptxas:
    config.environment["CUDA_HOME"] = os.path.dirname(os.path.dirname(ptxas))
    config.available_features.add("ptxas")

tool_dirs = [config.credit_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["credit-opt", "credit-capi-test", "CreditUnitTests", "mlir-opt"], tool_dirs)
config.substitutions.append(
    ("%credit_plugin", os.path.join(config.credit_obj_root, "lib", "CreditPlugin.so")))
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
