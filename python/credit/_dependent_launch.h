/* _dependent_launch.h - programmatic dependent launch, for the C launchers.
 *
 * Part of the CREDIT project.
 *
 * Kernels whose manifest says `dependent_launch` wait for the grid before
 * them on the stream (griddepcontrol.wait) before their first global
 * access and then let the next grid launch (griddepcontrol.launch_
 * dependents). Launched with programmatic stream serialization, such a
 * kernel's CTAs start on the SMs the kernel before it leaves idle and
 * wait there, so the launch overlaps that kernel instead of following
 * it. Shared by _fastlaunch.c and _torchpath.cpp; plain C, no Python.
 */

#ifndef CREDIT_DEPENDENT_LAUNCH_H
#define CREDIT_DEPENDENT_LAUNCH_H

#include <cuda.h>
#include <string.h>

/* cuLaunchKernelEx, found in the process's driver like cuLaunchKernel. */
typedef CUresult (*CreditLaunchExFn)(const CUlaunchConfig *, CUfunction,
                                     void **, void **);

/* Launches `function` over gridX CTAs of `block` threads (its cluster size
 * is compiled in) with programmatic stream serialization allowed. */
static inline CUresult creditLaunchDependent(CreditLaunchExFn launchEx,
                                             CUfunction function,
                                             unsigned gridX, unsigned block,
                                             unsigned shared, CUstream stream,
                                             void **params) {
  CUlaunchAttribute attribute;
  memset(&attribute, 0, sizeof attribute);
  attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attribute.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig config;
  memset(&config, 0, sizeof config);
  config.gridDimX = gridX;
  config.gridDimY = 1;
  config.gridDimZ = 1;
  config.blockDimX = block;
  config.blockDimY = 1;
  config.blockDimZ = 1;
  config.sharedMemBytes = shared;
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return launchEx(&config, function, params, NULL);
}

#endif /* CREDIT_DEPENDENT_LAUNCH_H */
