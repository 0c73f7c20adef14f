"""Experiment of 2026-12-07 (thirty-seventh session): one CTA per SM forced
by padding each kernel's dynamic shared memory to PAD bytes (the kernels do
not use it), then split_sweep.py's timing. Asks whether the slow tilings at
small M are the hardware packing several CTAs on one SM (no: RESULTS.md,
thirty-seventh session; pad-probe-2026-12-07-run1.json).

    cd python && PAD=118784 AFTER_FOREIGN=1 ROWS=4,8,16 \
      python ../benchmarks/experiments/pad_probe.py LIBRARY RESULT
"""
import dataclasses, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from credit import launcher
PAD = int(os.environ.get('PAD', '0'))
if PAD:
    original = launcher.LoadedKernel.__init__
    def init(self, manifest, device):
        original(self, manifest, device)
        if manifest.dynamic_shared_memory < PAD:
            d = launcher._driver()
            launcher._check(d.cuFuncSetAttribute(
                self.function,
                d.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                PAD), 'padding shared memory')
            self.manifest = dataclasses.replace(manifest, dynamic_shared_memory=PAD)
    launcher.LoadedKernel.__init__ = init
import split_sweep
split_sweep.time(sys.argv[1], sys.argv[2])
