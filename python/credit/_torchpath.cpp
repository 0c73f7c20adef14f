// _torchpath.cpp - CREDIT's per-call path in C++, autograd nodes included.
//
// Part of the CREDIT project.
//
// The Python fast path (fastpath.py) resolves a launch plan once per
// request and hands it here as a `Plan`. Each later call then does all of
// its work in C++: the cheap checks (type, dtype, shape, device,
// contiguity, alignment), the outputs (PyTorch's caching allocator), the
// kernel arguments, the grid rule (_grid_rule.h, the manifest's) and
// cuLaunchKernel on the current stream of the plan's device. For the
// forward ops with a backward workload (softmax, rms_norm, layer_norm,
// cross_entropy) it also records the autograd node, a
// torch::autograd::Function whose backward launches the backward plan, so
// that a call with autograd costs what PyTorch's own ops cost, not a
// Python autograd.Function's overhead.
//
// A call whose tensors a plan does not take as they are returns None
// before anything is allocated or recorded: the Python path then copies
// what needs copying or raises the ArgumentError. The module is compiled
// against the installed PyTorch on first use (native.py); without it the
// Python path runs alone.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/csrc/utils/pybind.h>

#include <cuda.h>
#include <dlfcn.h>

#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "_dependent_launch.h"
#include "_grid_rule.h"

namespace py = pybind11;
using torch::autograd::AutogradContext;
using torch::autograd::tensor_list;

namespace {

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

using LaunchFn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned,
                              unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);
using ErrorNameFn = CUresult (*)(CUresult, const char **);
using CtxGetFn = CUresult (*)(CUcontext *);
using CtxSetFn = CUresult (*)(CUcontext);
using DeviceGetFn = CUresult (*)(CUdevice *, int);
using PrimaryRetainFn = CUresult (*)(CUcontext *, CUdevice);

struct Driver {
  LaunchFn launch = nullptr;
  CreditLaunchExFn launchEx = nullptr;
  ErrorNameFn errorName = nullptr;
  CtxGetFn getCurrent = nullptr;
  CtxSetFn setCurrent = nullptr;
  DeviceGetFn deviceGet = nullptr;
  PrimaryRetainFn primaryRetain = nullptr;
};

/// The process's libcuda (PyTorch has loaded it), found once.
const Driver &driver() {
  static const Driver loaded = [] {
    Driver d;
    if (void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL)) {
      d.launch = reinterpret_cast<LaunchFn>(dlsym(library, "cuLaunchKernel"));
      d.launchEx = reinterpret_cast<CreditLaunchExFn>(
          dlsym(library, "cuLaunchKernelEx"));
      d.errorName =
          reinterpret_cast<ErrorNameFn>(dlsym(library, "cuGetErrorName"));
      d.getCurrent =
          reinterpret_cast<CtxGetFn>(dlsym(library, "cuCtxGetCurrent"));
      d.setCurrent =
          reinterpret_cast<CtxSetFn>(dlsym(library, "cuCtxSetCurrent"));
      d.deviceGet = reinterpret_cast<DeviceGetFn>(dlsym(library, "cuDeviceGet"));
      d.primaryRetain = reinterpret_cast<PrimaryRetainFn>(
          dlsym(library, "cuDevicePrimaryCtxRetain"));
    }
    return d;
  }();
  TORCH_CHECK(loaded.launch && loaded.launchEx && loaded.getCurrent &&
                  loaded.setCurrent &&
                  loaded.deviceGet && loaded.primaryRetain,
              "credit: cannot load the CUDA driver's launch and context "
              "functions (libcuda.so.1)");
  return loaded;
}

std::string driverError(const Driver &d, CUresult result) {
  const char *name = nullptr;
  if (d.errorName)
    d.errorName(result, &name);
  return std::string(name ? name : "unknown error") + " (" +
         std::to_string(static_cast<int>(result)) + ")";
}

/// Makes the primary context of the kernels' device current on this
/// thread for the duration of a launch. A thread of PyTorch's that made no
/// CUDA runtime call yet (an autograd worker whose first work is a CREDIT
/// backward) has no current context, and the runtime's device guard binds
/// none; the previous context (or none) comes back afterwards, so that
/// the runtime's notion of the current device is left alone.
class ContextGuard {
public:
  ContextGuard(const Driver &d, CUcontext context) : driver(d) {
    CUresult result = d.getCurrent(&previous);
    TORCH_CHECK(result == CUDA_SUCCESS, "credit: cuCtxGetCurrent failed: ",
                driverError(d, result));
    if (previous != context) {
      result = d.setCurrent(context);
      TORCH_CHECK(result == CUDA_SUCCESS, "credit: cuCtxSetCurrent failed: ",
                  driverError(d, result));
      switched = true;
    }
  }
  ~ContextGuard() {
    if (switched)
      driver.setCurrent(previous);
  }
  ContextGuard(const ContextGuard &) = delete;
  ContextGuard &operator=(const ContextGuard &) = delete;

private:
  const Driver &driver;
  CUcontext previous = nullptr;
  bool switched = false;
};

//===----------------------------------------------------------------------===//
// Plans
//===----------------------------------------------------------------------===//

/// Buffers a split-row kernel uses on one stream, for up to `rows` rows:
/// the row parts' partial values and the per-row arrival counters, which
/// the kernel leaves at zero.
struct SplitBuffers {
  uint64_t stream;
  int64_t rows;
  at::Tensor partials, counters;
};

/// One loaded kernel and the row counts it is launched for.
struct Kernel {
  uint64_t function = 0;
  unsigned block = 0, cluster = 0, shared = 0;
  int64_t policy = 0, group = 1, active = 1, switchShare = 0, low = 0,
          high = 0;
  bool split = false;
  /// Launched with programmatic stream serialization (_dependent_launch.h).
  bool dependent = false;
  /// Floats of partial values per row of a split kernel.
  int64_t partialFloats = 0;
  /// The kernel's parameters but m and rows_per_cluster.
  size_t params = 0;
  std::vector<SplitBuffers> buffers;
};

/// What every call of one request on one device needs (fastpath.Plan).
struct Plan {
  std::string name;
  std::vector<Kernel> kernels;
  int64_t blocks = 64, alignment = 16;
  std::vector<at::ScalarType> outputs, scalarDtypes;
  size_t scalarOutputs = 0, columnSums = 0;
  c10::DeviceIndex device = 0;
  /// The device's primary context, which the kernels were loaded into.
  CUcontext context = nullptr;
  /// Per-row outputs a caller discards, by index; outgrown buffers (these
  /// and split kernels') stay alive: a captured CUDA graph may still use
  /// them.
  std::vector<at::Tensor> scratch, retired;
  /// Guards the buffers: a backward runs on autograd's threads, without
  /// the GIL.
  std::mutex mutex;

  const Kernel &kernelFor(int64_t m) const {
    for (const Kernel &kernel : kernels)
      if (kernel.low <= m && m <= kernel.high)
        return kernel;
    return kernels.front(); // m == 0: any kernel (it launches nothing)
  }
};

/// Plans live as long as the process: an autograd node may outlive the
/// Python plan that made it. Never destroyed (nothing to free at exit).
std::vector<std::shared_ptr<Plan>> &registry() {
  static auto *plans = new std::vector<std::shared_ptr<Plan>>();
  return *plans;
}

std::shared_ptr<Plan> makePlan(std::string name, py::list kernels,
                               int64_t blocks, int64_t alignment,
                               std::vector<at::ScalarType> outputs,
                               size_t scalarOutputs, size_t columnSums,
                               std::vector<at::ScalarType> scalarDtypes,
                               int64_t device) {
  auto plan = std::make_shared<Plan>();
  plan->name = std::move(name);
  for (py::handle item : kernels) {
    auto fields = item.cast<py::tuple>();
    TORCH_CHECK(fields.size() == 14, "credit: a kernel is 14 fields");
    Kernel kernel;
    kernel.function = fields[0].cast<uint64_t>();
    kernel.block = fields[1].cast<unsigned>();
    kernel.cluster = fields[2].cast<unsigned>();
    kernel.shared = fields[3].cast<unsigned>();
    kernel.policy = fields[4].cast<int64_t>();
    kernel.group = fields[5].cast<int64_t>();
    kernel.active = fields[6].cast<int64_t>();
    kernel.low = fields[7].cast<int64_t>();
    kernel.high = fields[8].cast<int64_t>();
    kernel.split = fields[9].cast<bool>();
    kernel.params = fields[10].cast<size_t>();
    kernel.partialFloats = fields[11].cast<int64_t>();
    kernel.switchShare = fields[12].cast<int64_t>();
    kernel.dependent = fields[13].cast<bool>();
    TORCH_CHECK(kernel.params + 2 <= 64 && kernel.block > 0 &&
                    kernel.cluster > 0,
                "credit: bad launch configuration for ", plan->name);
    plan->kernels.push_back(std::move(kernel));
  }
  TORCH_CHECK(!plan->kernels.empty(), "credit: a plan without kernels");
  plan->blocks = blocks;
  plan->alignment = alignment > 0 ? alignment : 1;
  plan->outputs = std::move(outputs);
  plan->scalarOutputs = scalarOutputs;
  plan->columnSums = columnSums;
  plan->scalarDtypes = std::move(scalarDtypes);
  plan->device = static_cast<c10::DeviceIndex>(device);
  plan->scratch.resize(scalarOutputs);
  registry().push_back(plan);
  return plan;
}

//===----------------------------------------------------------------------===//
// Checks, outputs and the launch
//===----------------------------------------------------------------------===//

/// A call whose tensors passed the checks: its rows and the arguments of
/// its inputs, in the kernel ABI's order.
struct Call {
  int64_t m = 0, n = 0;
  /// Outputs filled with NaN (int8: -128) first, for tests.
  bool poison = false;
  uint64_t args[64];
  size_t count = 0;

  void push(uint64_t value) { args[count++] = value; }
};

bool onDevice(const Plan &plan, const at::Tensor &t) {
  return t.defined() && t.layout() == at::kStrided && t.is_cuda() &&
         t.get_device() == plan.device && t.is_contiguous();
}

uint64_t pointer(const at::Tensor &t) {
  return reinterpret_cast<uint64_t>(t.data_ptr());
}

/// Checks the tensors against `plan` (fastpath.run's checks) and collects
/// their arguments; false when one is not a tensor the plan takes as it
/// is. Row inputs are shaped like the first, broadcasts are [N] vectors of
/// its dtype, per-row inputs have M elements of the plan's dtypes.
bool check(const Plan &plan, at::ArrayRef<at::Tensor> inputs,
           at::ArrayRef<at::Tensor> broadcasts, at::ArrayRef<at::Tensor> scalars,
           Call &call) {
  if (inputs.empty() || scalars.size() != plan.scalarDtypes.size())
    return false;
  const at::Tensor &x = inputs[0];
  if (!x.defined() || x.dim() == 0)
    return false;
  const auto dtype = x.scalar_type();
  const auto sizes = x.sizes();
  call.n = sizes.back();
  // Every argument launch() pushes, split buffers, m and rows included.
  size_t arguments = 2 * inputs.size() + broadcasts.size() + scalars.size() +
                     2 * plan.outputs.size() + plan.scalarOutputs +
                     plan.columnSums + 4;
  if (call.n <= 0 || arguments > std::size(call.args))
    return false;
  call.m = x.numel() / call.n;
  for (const at::Tensor &t : inputs) {
    if (!onDevice(plan, t) || t.scalar_type() != dtype ||
        !t.sizes().equals(sizes) || pointer(t) % plan.alignment)
      return false;
    call.push(pointer(t));
    call.push(static_cast<uint64_t>(call.n));
  }
  for (const at::Tensor &t : broadcasts) {
    if (!onDevice(plan, t) || t.scalar_type() != dtype || t.dim() != 1 ||
        t.size(0) != call.n || pointer(t) % plan.alignment)
      return false;
    call.push(pointer(t));
  }
  for (size_t i = 0; i < scalars.size(); ++i) {
    const at::Tensor &t = scalars[i];
    if (!onDevice(plan, t) || t.scalar_type() != plan.scalarDtypes[i] ||
        t.numel() != call.m)
      return false;
    call.push(pointer(t));
  }
  return true;
}

at::Tensor empty(at::IntArrayRef sizes, at::ScalarType dtype,
                 const at::Tensor &like, bool poison = false) {
  auto options = at::TensorOptions().dtype(dtype).device(like.device());
  if (!poison)
    return at::empty(sizes, options);
  return at::full(sizes, at::isFloatingType(dtype) ? NAN : -128.0, options);
}

/// A discarded per-row output's buffer: at least m floats. Called with
/// the plan's mutex held.
const at::Tensor &scratchFor(Plan &plan, size_t index, int64_t m,
                             const at::Tensor &like) {
  at::Tensor &buffer = plan.scratch[index];
  if (!buffer.defined() || buffer.numel() < m) {
    int64_t size = m;
    if (buffer.defined()) {
      size = std::max(m, 2 * buffer.numel());
      plan.retired.push_back(buffer);
    }
    buffer = empty({std::max<int64_t>(size, 1)}, at::kFloat, like);
  }
  return buffer;
}

/// A split kernel's buffers on `stream` for m rows, made (the counters
/// zeroed on that stream, so that no host synchronization is needed, and
/// within a CUDA graph capture the zeroing is captured) when there are
/// none or too few. Called with the plan's mutex held.
const SplitBuffers &splitBuffers(Plan &plan, Kernel &kernel, int64_t m,
                                 uint64_t stream, const at::Tensor &like) {
  SplitBuffers *slot = nullptr;
  for (SplitBuffers &buffers : kernel.buffers) {
    if (buffers.stream != stream)
      continue;
    if (buffers.rows >= m)
      return buffers;
    plan.retired.push_back(buffers.partials);
    plan.retired.push_back(buffers.counters);
    slot = &buffers;
  }
  if (!slot) {
    kernel.buffers.push_back({stream, 0, {}, {}});
    slot = &kernel.buffers.back();
  }
  int64_t rows = std::max<int64_t>({m, 2 * slot->rows, 64});
  auto options = at::TensorOptions().device(like.device());
  slot->rows = rows;
  slot->partials =
      at::empty({rows * kernel.partialFloats}, options.dtype(at::kFloat));
  slot->counters = at::zeros({rows}, options.dtype(at::kInt));
  return *slot;
}

/// Allocates the outputs of a checked call, launches it and returns the
/// outputs in the op's order: row outputs shaped like `x`, per-row outputs
/// shaped like its leading dimensions (undefined where `discard` has the
/// index's bit), column sums [blocks, N].
std::vector<at::Tensor> launch(Plan &plan, Call &call, const at::Tensor &x,
                               uint64_t discard = 0) {
  c10::cuda::CUDAGuard guard(plan.device);
  std::lock_guard<std::mutex> lock(plan.mutex);
  std::vector<at::Tensor> outputs;
  outputs.reserve(plan.outputs.size() + plan.scalarOutputs + plan.columnSums);
  for (at::ScalarType dtype : plan.outputs) {
    outputs.push_back(empty(x.sizes(), dtype, x, call.poison));
    call.push(pointer(outputs.back()));
    call.push(static_cast<uint64_t>(call.n));
  }
  auto perRow = x.sizes().slice(0, x.dim() - 1);
  for (size_t i = 0; i < plan.scalarOutputs; ++i) {
    if (discard >> i & 1) {
      call.push(pointer(scratchFor(plan, i, call.m, x)));
      outputs.emplace_back();
      continue;
    }
    outputs.push_back(empty(perRow, at::kFloat, x, call.poison));
    call.push(pointer(outputs.back()));
  }
  for (size_t i = 0; i < plan.columnSums; ++i) {
    outputs.push_back(empty({plan.blocks, call.n}, at::kFloat, x, call.poison));
    call.push(pointer(outputs.back()));
  }

  Kernel &kernel = const_cast<Kernel &>(plan.kernelFor(call.m));
  uint64_t stream = reinterpret_cast<uint64_t>(
      c10::cuda::getCurrentCUDAStream(plan.device).stream());
  if (kernel.split) {
    const SplitBuffers &buffers =
        splitBuffers(plan, kernel, call.m, stream, x);
    call.push(pointer(buffers.partials));
    call.push(pointer(buffers.counters));
  }
  TORCH_CHECK(call.count == kernel.params, "credit: ", plan.name, ": ",
              call.count, " arguments for ", kernel.params, " parameters");

  long long rows = 0, clusters = 0;
  if (const char *why = creditGridRule(kernel.policy, call.m, kernel.group,
                                       kernel.active, plan.blocks,
                                       kernel.switchShare, &rows, &clusters))
    TORCH_CHECK(false, "credit: ", plan.name, ": ", why);
  if (clusters == 0)
    return outputs; // no rows: nothing to launch
  long long gridX = clusters * kernel.cluster;
  TORCH_CHECK(gridX <= 0x7fffffffLL, "credit: ", plan.name,
              ": grid too large");
  call.push(static_cast<uint64_t>(call.m));
  call.push(static_cast<uint64_t>(rows));
  void *params[64];
  for (size_t i = 0; i < call.count; ++i)
    params[i] = &call.args[i];
  const Driver &d = driver();
  if (!plan.context) {
    CUdevice device;
    CUresult found = d.deviceGet(&device, plan.device);
    if (found == CUDA_SUCCESS)
      found = d.primaryRetain(&plan.context, device);
    TORCH_CHECK(found == CUDA_SUCCESS, "credit: ", plan.name,
                ": no primary context for device ", int(plan.device), ": ",
                driverError(d, found));
  }
  ContextGuard context(d, plan.context);
  auto function = reinterpret_cast<CUfunction>(kernel.function);
  auto onStream = reinterpret_cast<CUstream>(stream);
  CUresult result =
      kernel.dependent
          ? creditLaunchDependent(d.launchEx, function,
                                  static_cast<unsigned>(gridX), kernel.block,
                                  kernel.shared, onStream, params)
          : d.launch(function, static_cast<unsigned>(gridX), 1, 1,
                     kernel.block, 1, 1, kernel.shared, onStream, params,
                     nullptr);
  TORCH_CHECK(result == CUDA_SUCCESS, "credit: ", plan.name, ": ",
              kernel.dependent ? "cuLaunchKernelEx" : "cuLaunchKernel",
              " failed: ", driverError(d, result));
  return outputs;
}

/// The outputs of `plan` for tensors a backward made: they are brought to
/// what the plan takes (dtype of the first, contiguous, aligned) first, so
/// the checks must pass.
std::vector<at::Tensor> launchOwned(Plan &plan, bool poison,
                                    std::vector<at::Tensor> rows,
                                    at::ArrayRef<at::Tensor> broadcasts,
                                    std::vector<at::Tensor> scalars) {
  for (at::Tensor &t : rows) {
    t = t.to(rows[0].scalar_type()).contiguous();
    if (pointer(t) % plan.alignment)
      t = t.clone();
  }
  for (size_t i = 0; i < scalars.size() && i < plan.scalarDtypes.size(); ++i)
    scalars[i] = scalars[i].to(plan.scalarDtypes[i]).contiguous();
  Call call;
  call.poison = poison;
  TORCH_CHECK(check(plan, rows, broadcasts, scalars, call), "credit: ",
              plan.name, ": the backward's tensors do not fit its plan");
  return launch(plan, call, rows[0]);
}

/// A forward's note for its backward: the backward plan and whether
/// outputs are poisoned.
void keep(AutogradContext *ctx, Plan *backward, const Call &call) {
  ctx->saved_data["backward"] = reinterpret_cast<int64_t>(backward);
  ctx->saved_data["poison"] = call.poison;
}

/// The backward plan's outputs for the backward's own tensors.
std::vector<at::Tensor> launchBackward(AutogradContext *ctx,
                                       std::vector<at::Tensor> rows,
                                       at::ArrayRef<at::Tensor> broadcasts,
                                       std::vector<at::Tensor> scalars) {
  auto *plan = reinterpret_cast<Plan *>(ctx->saved_data["backward"].toInt());
  return launchOwned(*plan, ctx->saved_data["poison"].toBool(),
                     std::move(rows), broadcasts, std::move(scalars));
}

//===----------------------------------------------------------------------===//
// Autograd nodes
//===----------------------------------------------------------------------===//

// Each forward is given its already checked call. A backward runs on one
// of autograd's threads, without the GIL: it touches no Python object.

struct SoftmaxFunction : torch::autograd::Function<SoftmaxFunction> {
  static at::Tensor forward(AutogradContext *ctx, const at::Tensor &x,
                            Plan *forwardPlan, Plan *backwardPlan,
                            Call *call) {
    keep(ctx, backwardPlan, *call);
    ctx->save_for_backward({x});
    return launch(*forwardPlan, *call, x)[0];
  }

  static tensor_list backward(AutogradContext *ctx, tensor_list grads) {
    at::Tensor x = ctx->get_saved_variables()[0];
    auto dx = launchBackward(ctx, {x, grads[0]}, {}, {});
    return {dx[0], at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

struct RMSNormFunction : torch::autograd::Function<RMSNormFunction> {
  static at::Tensor forward(AutogradContext *ctx, const at::Tensor &x,
                            const at::Tensor &weight, Plan *forwardPlan,
                            Plan *backwardPlan, Call *call) {
    auto outputs = launch(*forwardPlan, *call, x); // y, rstd
    keep(ctx, backwardPlan, *call);
    ctx->save_for_backward({x, weight, outputs[1]});
    return outputs[0];
  }

  static tensor_list backward(AutogradContext *ctx, tensor_list grads) {
    auto saved = ctx->get_saved_variables();
    const at::Tensor &weight = saved[1];
    // dx and the column sums of dy * x * rstd by row block.
    auto outputs = launchBackward(ctx, {saved[0], grads[0]},
                               {weight}, {saved[2].reshape(-1)});
    at::Tensor dweight;
    if (ctx->needs_input_grad(1))
      dweight = outputs[1].sum(0).to(weight.scalar_type());
    return {outputs[0], dweight, at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

struct LayerNormFunction : torch::autograd::Function<LayerNormFunction> {
  static at::Tensor forward(AutogradContext *ctx, const at::Tensor &x,
                            const at::Tensor &weight, const at::Tensor &bias,
                            Plan *forwardPlan, Plan *backwardPlan,
                            Call *call) {
    auto outputs = launch(*forwardPlan, *call, x); // y, mean, rstd
    keep(ctx, backwardPlan, *call);
    ctx->save_for_backward({x, weight, bias, outputs[1], outputs[2]});
    return outputs[0];
  }

  static tensor_list backward(AutogradContext *ctx, tensor_list grads) {
    auto saved = ctx->get_saved_variables();
    const at::Tensor &x = saved[0], &weight = saved[1];
    at::Tensor dy = grads[0];
    auto dx = launchBackward(ctx, {x, dy}, {weight}, {});
    std::array<bool, 3> mask = {false, ctx->needs_input_grad(1),
                                ctx->needs_input_grad(2)};
    at::Tensor dweight, dbias;
    if (mask[1] || mask[2]) {
      // PyTorch's own kernel for dgamma and dbeta from the forward's
      // float32 mean and rstd (one launch; written out as ATen ops the two
      // column sums were nine), as the Python path does. It makes dbeta
      // like the bias.
      std::tie(std::ignore, dweight, dbias) = at::native_layer_norm_backward(
          dy.contiguous(), x, {x.size(-1)}, saved[3], saved[4], weight,
          saved[2], mask);
    }
    return {dx[0],       dweight,     dbias,
            at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

struct CrossEntropyFunction : torch::autograd::Function<CrossEntropyFunction> {
  static at::Tensor forward(AutogradContext *ctx, const at::Tensor &logits,
                            const at::Tensor &target, Plan *forwardPlan,
                            Plan *scalePlan, Call *call) {
    auto outputs = launch(*forwardPlan, *call, logits); // dlogits, loss
    keep(ctx, scalePlan, *call);
    ctx->saved_data["dlogits"] = outputs[0];
    return outputs[1];
  }

  static tensor_list backward(AutogradContext *ctx, tensor_list grads) {
    at::Tensor dlogits = ctx->saved_data["dlogits"].toTensor();
    auto perRow = dlogits.sizes().slice(0, dlogits.dim() - 1);
    at::Tensor scale = grads[0].expand(perRow).reshape(-1);
    auto dx = launchBackward(ctx, {dlogits}, {}, {scale});
    return {dx[0], at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

//===----------------------------------------------------------------------===//
// Python entry points: None where the tensors do not fit the plan
//===----------------------------------------------------------------------===//

py::object run(Plan &plan, const std::vector<at::Tensor> &inputs,
               const std::vector<at::Tensor> &broadcasts,
               const std::vector<at::Tensor> &scalars, uint64_t discard,
               bool poison) {
  Call call;
  call.poison = poison;
  if (!check(plan, inputs, broadcasts, scalars, call))
    return py::none();
  return py::cast(launch(plan, call, inputs[0], discard));
}

py::object runOne(Plan &plan, const at::Tensor &x, bool poison) {
  Call call;
  call.poison = poison;
  if (!check(plan, {x}, {}, {}, call))
    return py::none();
  return py::cast(launch(plan, call, x)[0]);
}

py::object softmax(Plan &forward, Plan &backward, const at::Tensor &x,
                   bool poison) {
  Call call;
  call.poison = poison;
  if (!check(forward, {x}, {}, {}, call))
    return py::none();
  return py::cast(SoftmaxFunction::apply(x, &forward, &backward, &call));
}

py::object rmsNorm(Plan &forward, Plan &backward, const at::Tensor &x,
                   const at::Tensor &weight, bool poison) {
  Call call;
  call.poison = poison;
  if (!check(forward, {x}, {weight}, {}, call))
    return py::none();
  return py::cast(
      RMSNormFunction::apply(x, weight, &forward, &backward, &call));
}

py::object layerNorm(Plan &forward, Plan &backward, const at::Tensor &x,
                     const at::Tensor &weight, const at::Tensor &bias,
                     bool poison) {
  Call call;
  call.poison = poison;
  if (!check(forward, {x}, {weight, bias}, {}, call))
    return py::none();
  return py::cast(
      LayerNormFunction::apply(x, weight, bias, &forward, &backward, &call));
}

py::object crossEntropy(Plan &forward, Plan &scale, const at::Tensor &logits,
                        const at::Tensor &target, bool poison) {
  Call call;
  call.poison = poison;
  if (!check(forward, {logits}, {}, {target}, call))
    return py::none();
  return py::cast(
      CrossEntropyFunction::apply(logits, target, &forward, &scale, &call));
}

} // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "CREDIT's per-call path in C++ (plans, launches, autograd)";
  py::class_<Plan, std::shared_ptr<Plan>>(m, "Plan")
      .def(py::init(&makePlan), py::arg("name"), py::arg("kernels"),
           py::arg("blocks"), py::arg("alignment"), py::arg("outputs"),
           py::arg("scalar_outputs"), py::arg("column_sums"),
           py::arg("scalar_dtypes"), py::arg("device"))
      .def_readonly("name", &Plan::name);
  m.def("run", &run, "outputs of a plan, or None",
        py::arg("plan"), py::arg("inputs"), py::arg("broadcasts"),
        py::arg("scalars"), py::arg("discard"), py::arg("poison"));
  m.def("run_one", &runOne, "the row output of a one-input plan, or None");
  m.def("softmax", &softmax, "softmax with its autograd node, or None");
  m.def("rms_norm", &rmsNorm, "rms_norm with its autograd node, or None");
  m.def("layer_norm", &layerNorm, "layer_norm with its autograd node, or None");
  m.def("cross_entropy", &crossEntropy,
        "per-row cross-entropy with its autograd node, or None");
}
