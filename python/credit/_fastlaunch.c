/* _fastlaunch.c - one C call per CREDIT kernel launch.
 *
 * Part of the CREDIT project.
 *
 * The runtime's fast path (credit/fastpath.py) hands this module what a
 * launch needs as plain integers: the loaded CUfunction, the block, the
 * cluster size and dynamic shared memory, the manifest's grid rule, the
 * stream, the row count and the kernel arguments (device pointers and
 * 64-bit integers, all eight bytes wide). The grid rule is the manifest's
 * (manifest.py, KernelManifest.rows_per_cluster and grid): the rows each
 * cluster takes and the CTAs along x, with m and rows_per_cluster appended
 * to the arguments as the kernel ABI's last two parameters.
 *
 * The driver is found at run time (the process's libcuda, which PyTorch
 * has loaded), so the module needs no CUDA library to build or import; only
 * cuda.h for its types. It uses Python's limited API: one
 * build serves every CPython 3 from 3.10 on.
 */

#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>

#include "_dependent_launch.h"
#include "_grid_rule.h"

/* The kernel ABI has a handful of operands; a generous fixed bound keeps
 * the launch free of allocation. */
#define MAX_ARGS 64

/* cuLaunchKernel: the kernels' cluster size is compiled in
 * (.reqnctapercluster), so the classic launch starts whole clusters. */
typedef CUresult (*LaunchFn)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
typedef CUresult (*ErrorNameFn)(CUresult, const char **);
typedef CUresult (*CtxGetFn)(CUcontext *);

static LaunchFn launchKernel;
static CreditLaunchExFn launchKernelEx;
static ErrorNameFn getErrorName;
static CtxGetFn getCurrentContext;

static int loadDriver(void) {
  if (launchKernel)
    return 0;
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!driver) {
    PyErr_Format(PyExc_RuntimeError, "cannot load the CUDA driver: %s",
                 dlerror());
    return -1;
  }
  launchKernel = (LaunchFn)dlsym(driver, "cuLaunchKernel");
  launchKernelEx = (CreditLaunchExFn)dlsym(driver, "cuLaunchKernelEx");
  getErrorName = (ErrorNameFn)dlsym(driver, "cuGetErrorName");
  getCurrentContext = (CtxGetFn)dlsym(driver, "cuCtxGetCurrent");
  if (!launchKernel || !launchKernelEx) {
    PyErr_SetString(PyExc_RuntimeError, "the CUDA driver has no "
                                        "cuLaunchKernel or cuLaunchKernelEx");
    return -1;
  }
  return 0;
}

/* Applies the grid rule; sets a Python error and returns -1 when it
 * cannot apply. */
static int gridRule(long long policy, long long m, long long group,
                    long long active, long long blocks, long long switchShare,
                    long long *rows, long long *clusters) {
  const char *why = creditGridRule(policy, m, group, active, blocks,
                                   switchShare, rows, clusters);
  if (why) {
    PyErr_SetString(PyExc_ValueError, why);
    return -1;
  }
  return 0;
}

/* grid(policy, m, rows_per_cta, active, blocks, switch_share) ->
 * (rows_per_cluster, clusters): the rule launch() applies, for tests. */
static PyObject *grid(PyObject *self, PyObject *const *argv,
                      Py_ssize_t argc) {
  (void)self;
  if (argc != 6) {
    PyErr_SetString(PyExc_TypeError, "grid() takes 6 arguments");
    return NULL;
  }
  long long values[6];
  for (int i = 0; i < 6; ++i)
    values[i] = PyLong_AsLongLong(argv[i]);
  if (PyErr_Occurred())
    return NULL;
  long long rows, clusters;
  if (gridRule(values[0], values[1], values[2], values[3], values[4],
               values[5], &rows, &clusters) != 0)
    return NULL;
  return Py_BuildValue("(LL)", rows, clusters);
}

/* launch(function, block, cluster, shared, policy, rows_per_cta, active,
 *        switch_share, blocks, stream, m, args, dependent) -> None
 * `args` is a tuple of ints: the kernel's parameters without m and
 * rows_per_cluster; `dependent`: launch with programmatic stream
 * serialization (_dependent_launch.h). */
static PyObject *launch(PyObject *self, PyObject *const *argv,
                        Py_ssize_t argc) {
  (void)self;
  if (argc != 13) {
    PyErr_SetString(PyExc_TypeError, "launch() takes 13 arguments");
    return NULL;
  }
  unsigned long long function = PyLong_AsUnsignedLongLong(argv[0]);
  long long block = PyLong_AsLongLong(argv[1]);
  long long cluster = PyLong_AsLongLong(argv[2]);
  long long shared = PyLong_AsLongLong(argv[3]);
  long long policy = PyLong_AsLongLong(argv[4]);
  long long group = PyLong_AsLongLong(argv[5]);
  long long active = PyLong_AsLongLong(argv[6]);
  long long switchShare = PyLong_AsLongLong(argv[7]);
  long long blocks = PyLong_AsLongLong(argv[8]);
  unsigned long long stream = PyLong_AsUnsignedLongLong(argv[9]);
  long long m = PyLong_AsLongLong(argv[10]);
  int dependent = PyObject_IsTrue(argv[12]);
  if (PyErr_Occurred() || dependent < 0)
    return NULL;
  PyObject *args = argv[11];
  if (!PyTuple_Check(args)) {
    PyErr_SetString(PyExc_TypeError, "launch(): args must be a tuple");
    return NULL;
  }
  Py_ssize_t count = PyTuple_Size(args);
  if (count < 0 || count + 2 > MAX_ARGS) {
    PyErr_SetString(PyExc_ValueError, "launch(): too many kernel arguments");
    return NULL;
  }
  if (block < 1 || cluster < 1 || shared < 0) {
    PyErr_SetString(PyExc_ValueError, "launch(): bad launch configuration");
    return NULL;
  }

  long long rows, clusters;
  if (gridRule(policy, m, group, active, blocks, switchShare, &rows,
               &clusters) != 0)
    return NULL;
  if (clusters == 0) /* no rows: nothing to launch */
    Py_RETURN_NONE;
  long long gridX = clusters * cluster;
  if (gridX > 0x7fffffffLL) {
    PyErr_SetString(PyExc_ValueError, "launch(): grid too large");
    return NULL;
  }

  uint64_t values[MAX_ARGS];
  void *params[MAX_ARGS];
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject *item = PyTuple_GetItem(args, i);
    values[i] = (uint64_t)PyLong_AsUnsignedLongLongMask(item);
    params[i] = &values[i];
  }
  if (PyErr_Occurred())
    return NULL;
  values[count] = (uint64_t)m;
  values[count + 1] = (uint64_t)rows;
  params[count] = &values[count];
  params[count + 1] = &values[count + 1];

  if (loadDriver() != 0)
    return NULL;
  /* A thread that made no CUDA runtime call has no context bound, and
   * the driver does not launch without one. This launcher is not told the
   * device: the caller (credit.fastpath) binds the device's primary
   * context on this error and launches again. */
  CUcontext context = NULL;
  if (getCurrentContext && getCurrentContext(&context) == CUDA_SUCCESS &&
      !context) {
    PyErr_SetString(PyExc_RuntimeError,
                    "no CUDA context is current on this thread: run a CUDA "
                    "operation on it first (e.g. torch.cuda.set_device)");
    return NULL;
  }
  CUresult result =
      dependent
          ? creditLaunchDependent(launchKernelEx,
                                  (CUfunction)(uintptr_t)function,
                                  (unsigned)gridX, (unsigned)block,
                                  (unsigned)shared,
                                  (CUstream)(uintptr_t)stream, params)
          : launchKernel((CUfunction)(uintptr_t)function, (unsigned)gridX, 1,
                         1, (unsigned)block, 1, 1, (unsigned)shared,
                         (CUstream)(uintptr_t)stream, params, NULL);
  if (result != CUDA_SUCCESS) {
    const char *name = NULL;
    if (getErrorName)
      getErrorName(result, &name);
    PyErr_Format(PyExc_RuntimeError, "%s failed: %s (%d)",
                 dependent ? "cuLaunchKernelEx" : "cuLaunchKernel",
                 name ? name : "unknown error", (int)result);
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"launch", (PyCFunction)(void (*)(void))launch, METH_FASTCALL,
     "launch(function, block, cluster, shared, policy, rows_per_cta, "
     "active, switch_share, blocks, stream, m, args, dependent): launches a "
     "CREDIT kernel"},
    {"grid", (PyCFunction)(void (*)(void))grid, METH_FASTCALL,
     "grid(policy, m, rows_per_cta, active, blocks, switch_share) -> "
     "(rows_per_cluster, clusters): the grid rule launch() applies"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastlaunch",
    "One C call per CREDIT kernel launch (cuLaunchKernel).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastlaunch(void) { return PyModule_Create(&module); }
