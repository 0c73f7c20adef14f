// Experiment of 2026-12-05 (twenty-third session, issue #10): how a CTA's
// slice of a long row reaches shared memory, measured outside the compiler.
// A bf16 softmax row is split over a cluster of C CTAs; each CTA stages its
// slice, reduces it online (max, rescaled sum), the partials meet through
// DSMEM, and the CTA writes exp(x - max) / sum from its staged slice. The
// staging is one of:
//   async    each thread copies its 16-byte vectors with cp.async, then
//            waits for all of them (what CREDIT's async staging does);
//   loop     async in clusters that stay resident (as many as fit) and
//            loop over rows, each row's copies waited for before its
//            reduction (CREDIT's one-wave grid);
//   bulk     one thread issues one cp.async.bulk of the whole slice,
//            completed on a transaction-counted mbarrier (TMA, 1-D);
//   persist  bulk, in clusters that stay resident and loop over rows with
//            two buffers: the next row's slice is in flight while this
//            row is reduced, exchanged and written;
//   persist-a  the same loop and buffers with each thread's cp.async: the
//            next row's copies are committed as a group before this row's
//            are waited for (cp.async.wait_group 1);
//   regs     no staging: each thread keeps its vectors in registers
//            (Quack's form).
// Beside them a copy of the same bytes (the ceiling). Each result is checked
// against a float64 softmax of three rows.
//
//   nvcc -O3 -arch=sm_90a -std=c++17 -o tma_staging tma_staging.cu
//   ./tma_staging            # prints a table, one line per (shape, form)
//
// Measured on 2026-12-05: benchmarks/tma-staging-2026-12-05-run1.json and
// RESULTS.md (twenty-third session).
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

constexpr int kThreads = 256;
enum Form { Async, Loop, Bulk, Persist, PersistAsync, Regs };
const char *kFormNames[] = {"async",   "loop",      "bulk",
                            "persist", "persist-a", "regs"};

struct Partial {
  float max, sum;
};

__device__ inline Partial combine(Partial a, Partial b) {
  float m = fmaxf(a.max, b.max);
  float s = (a.max == -INFINITY ? 0.f : a.sum * __expf(a.max - m)) +
            (b.max == -INFINITY ? 0.f : b.sum * __expf(b.max - m));
  return {m, s};
}

__device__ inline void accumulate(Partial &p, uint4 v) {
  const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(&v);
  float x[8];
  for (int i = 0; i < 4; ++i) {
    float2 f = __bfloat1622float2(h[i]);
    x[2 * i] = f.x;
    x[2 * i + 1] = f.y;
  }
  float m = p.max;
  for (int i = 0; i < 8; ++i)
    m = fmaxf(m, x[i]);
  float s = p.max == -INFINITY ? 0.f : p.sum * __expf(p.max - m);
  for (int i = 0; i < 8; ++i)
    s += __expf(x[i] - m);
  p = {m, s};
}

__device__ inline uint4 normalize(uint4 v, float m, float inv) {
  const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(&v);
  uint4 out;
  __nv_bfloat162 *o = reinterpret_cast<__nv_bfloat162 *>(&out);
  for (int i = 0; i < 4; ++i) {
    float2 f = __bfloat1622float2(h[i]);
    o[i] = __floats2bfloat162_rn(__expf(f.x - m) * inv, __expf(f.y - m) * inv);
  }
  return out;
}

// The row's (max, sum): the block's partial, then the cluster's through
// DSMEM (each CTA writes its partial into every peer's slot `parity`).
__device__ Partial rowPartial(Partial p, Partial *warpSlots,
                              Partial (*clusterSlots)[16], int parity) {
  for (int offset = 16; offset; offset >>= 1) {
    Partial q = {__shfl_xor_sync(~0u, p.max, offset),
                 __shfl_xor_sync(~0u, p.sum, offset)};
    p = combine(p, q);
  }
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0)
    warpSlots[warp] = p;
  __syncthreads();
  cg::cluster_group cluster = cg::this_cluster();
  unsigned ctas = cluster.num_blocks(), rank = cluster.block_rank();
  if (threadIdx.x < ctas) {
    Partial block = warpSlots[0];
    for (int w = 1; w < kThreads / 32; ++w)
      block = combine(block, warpSlots[w]);
    Partial(*peer)[16] = cluster.map_shared_rank(clusterSlots, threadIdx.x);
    peer[parity][rank] = block;
  }
  cluster.sync();
  Partial row = clusterSlots[parity][0];
  for (unsigned r = 1; r < ctas; ++r)
    row = combine(row, clusterSlots[parity][r]);
  return row;
}

__device__ inline uint32_t smemAddress(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ inline void bulkLoad(void *dst, const void *src, uint32_t bytes,
                                uint64_t *bar) {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                   smemAddress(bar)),
               "r"(bytes)
               : "memory");
  // Bulk copies move at most 2^20 - 1 bytes per mbarrier phase; a slice is
  // at most 64 KB here.
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];\n" ::"r"(smemAddress(dst)),
               "l"(src), "r"(bytes), "r"(smemAddress(bar))
               : "memory");
}

__device__ inline void waitPhase(uint64_t *bar, uint32_t phase) {
  asm volatile("{\n"
               ".reg .pred done;\n"
               "wait:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra wait;\n"
               "}\n" ::"r"(smemAddress(bar)),
               "r"(phase)
               : "memory");
}

template <int Form>
__global__ void softmaxKernel(const __nv_bfloat16 *in, __nv_bfloat16 *out,
                              int rows, int n) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ Partial warpSlots[kThreads / 32];
  __shared__ Partial clusterSlots[2][16];
  __shared__ __align__(8) uint64_t bars[2];
  cg::cluster_group cluster = cg::this_cluster();
  int ctas = cluster.num_blocks(), rank = cluster.block_rank();
  int slice = n / ctas, vectors = slice / 8;
  size_t sliceBytes = size_t(slice) * 2;
  int firstRow = blockIdx.x / ctas, rowStep = gridDim.x / ctas;
  uint4 *staged[2] = {reinterpret_cast<uint4 *>(smem),
                      reinterpret_cast<uint4 *>(smem + sliceBytes)};
  auto source = [&](int row) {
    return reinterpret_cast<const uint4 *>(in + size_t(row) * n +
                                           size_t(rank) * slice);
  };
  if (Form == Bulk || Form == Persist) {
    if (threadIdx.x == 0) {
      for (int i = 0; i < 2; ++i)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(
            smemAddress(&bars[i])));
      asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    if (Form == Persist && threadIdx.x == 0 && firstRow < rows)
      bulkLoad(staged[0], source(firstRow), sliceBytes, &bars[0]);
  }
  auto asyncLoad = [&](uint4 *dst, const uint4 *from) {
    for (int v = threadIdx.x; v < vectors; v += kThreads)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                       smemAddress(dst + v)),
                   "l"(from + v)
                   : "memory");
    asm volatile("cp.async.commit_group;\n" ::: "memory");
  };
  if (Form == PersistAsync && firstRow < rows)
    asyncLoad(staged[0], source(firstRow));
  int iteration = 0;
  for (int row = firstRow; row < rows; row += rowStep, ++iteration) {
    int buffer = Form == Persist || Form == PersistAsync ? iteration % 2 : 0;
    uint4 *here = staged[buffer];
    const uint4 *src = source(row);
    uint4 kept[8];
    Partial p = {-INFINITY, 0.f};
    if (Form == Async || Form == Loop || Form == PersistAsync) {
      // Each thread reads back only the vectors it copied.
      if (Form == Async || Form == Loop) {
        asyncLoad(here, src);
        asm volatile("cp.async.wait_group 0;\n" ::: "memory");
      } else if (row + rowStep < rows) {
        asyncLoad(staged[buffer ^ 1], source(row + rowStep));
        asm volatile("cp.async.wait_group 1;\n" ::: "memory");
      } else {
        asm volatile("cp.async.wait_group 0;\n" ::: "memory");
      }
      for (int v = threadIdx.x; v < vectors; v += kThreads)
        accumulate(p, here[v]);
    } else if (Form == Bulk || Form == Persist) {
      if (Form == Bulk && threadIdx.x == 0)
        bulkLoad(here, src, sliceBytes, &bars[0]);
      if (Form == Persist && threadIdx.x == 0 && row + rowStep < rows)
        bulkLoad(staged[buffer ^ 1], source(row + rowStep), sliceBytes,
                 &bars[buffer ^ 1]);
      int use = Form == Persist ? iteration / 2 : iteration;
      waitPhase(&bars[buffer], use % 2);
      for (int v = threadIdx.x; v < vectors; v += kThreads)
        accumulate(p, here[v]);
    } else {
#pragma unroll
      for (int k = 0; k < 8; ++k)
        if (threadIdx.x + k * kThreads < vectors)
          kept[k] = __ldg(src + threadIdx.x + k * kThreads);
#pragma unroll
      for (int k = 0; k < 8; ++k)
        if (threadIdx.x + k * kThreads < vectors)
          accumulate(p, kept[k]);
    }
    Partial total = rowPartial(p, warpSlots, clusterSlots, iteration % 2);
    float inv = 1.f / total.sum;
    uint4 *dst =
        reinterpret_cast<uint4 *>(out + size_t(row) * n + size_t(rank) * slice);
    if (Form == Regs) {
#pragma unroll
      for (int k = 0; k < 8; ++k)
        if (threadIdx.x + k * kThreads < vectors)
          dst[threadIdx.x + k * kThreads] = normalize(kept[k], total.max, inv);
    } else {
      for (int v = threadIdx.x; v < vectors; v += kThreads)
        dst[v] = normalize(here[v], total.max, inv);
    }
    // This row's buffer is reread two rows on (persist) or the next row:
    // every thread is done with it before the copy into it is issued.
    __syncthreads();
  }
  // No CTA leaves while a peer may still write its slots.
  cluster.sync();
}

__global__ void copyKernel(const uint4 *in, uint4 *out, size_t vectors) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < vectors;
       i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

struct Shape {
  int rows, n, cluster;
};

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const Shape shapes[] = {{512, 131072, 8},  {512, 131072, 4},
                          {512, 131072, 16}, {64, 262144, 16},
                          {64, 262144, 8},   {256, 65536, 4},
                          {8, 262144, 16},   {4096, 16384, 2}};
  printf("%-18s %-8s %9s %9s %7s %9s\n", "shape", "form", "us", "copy us",
         "of copy", "max err");
  for (Shape s : shapes) {
    size_t elems = size_t(s.rows) * s.n;
    // Sets of inputs and outputs that together exceed the L2 (50 MB).
    int sets = std::max<size_t>(1, (256u << 20) / (4 * elems));
    std::vector<__nv_bfloat16> host(elems);
    srand(7);
    for (size_t i = 0; i < elems; ++i)
      host[i] = __float2bfloat16(4.f * rand() / RAND_MAX - 2.f);
    std::vector<__nv_bfloat16 *> ins(sets), outs(sets);
    for (int i = 0; i < sets; ++i) {
      CHECK(cudaMalloc(&ins[i], elems * 2));
      CHECK(cudaMalloc(&outs[i], elems * 2));
      CHECK(cudaMemcpy(ins[i], host.data(), elems * 2, cudaMemcpyHostToDevice));
    }
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    const int reps = std::max(20, 4 * sets);
    auto time = [&](auto launch) {
      for (int i = 0; i < sets; ++i)
        launch(i);
      CHECK(cudaEventRecord(start));
      for (int r = 0; r < reps; ++r)
        launch(r % sets);
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      return 1e3 * ms / reps;
    };
    size_t vectors = elems / 8;
    float copyUs = time([&](int i) {
      copyKernel<<<sms * 8, 256>>>(reinterpret_cast<const uint4 *>(ins[i]),
                                   reinterpret_cast<uint4 *>(outs[i]), vectors);
    });
    for (int form = Async; form <= Regs; ++form) {
      size_t slice = size_t(s.n) / s.cluster * 2;
      size_t shared = form == Regs ? 0
                      : form == Persist || form == PersistAsync ? 2 * slice
                                                                : slice;
      if (form == Regs && s.n / s.cluster / 8 > 8 * kThreads)
        continue; // more than 8 vectors a thread
      void (*kernel)(const __nv_bfloat16 *, __nv_bfloat16 *, int, int) =
          form == Async     ? softmaxKernel<Async>
          : form == Loop    ? softmaxKernel<Loop>
          : form == Bulk    ? softmaxKernel<Bulk>
          : form == Persist ? softmaxKernel<Persist>
          : form == PersistAsync ? softmaxKernel<PersistAsync>
                            : softmaxKernel<Regs>;
      CHECK(cudaFuncSetAttribute(
          kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
      CHECK(cudaFuncSetAttribute(kernel,
                                 cudaFuncAttributeNonPortableClusterSizeAllowed,
                                 1));
      cudaLaunchConfig_t config = {};
      cudaLaunchAttribute attribute;
      attribute.id = cudaLaunchAttributeClusterDimension;
      attribute.val.clusterDim.x = s.cluster;
      attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
      config.attrs = &attribute;
      config.numAttrs = 1;
      config.blockDim = dim3(kThreads);
      config.dynamicSmemBytes = shared;
      int clusters = s.rows;
      if (form == Loop || form == Persist || form == PersistAsync) {
        config.gridDim = dim3(s.cluster * s.rows);
        int active = 0;
        CHECK(cudaOccupancyMaxActiveClusters(&active, kernel, &config));
        clusters = std::min(s.rows, std::max(active, 1));
      }
      config.gridDim = dim3(s.cluster * clusters);
      float us = time([&](int i) {
        CHECK(cudaLaunchKernelEx(&config, kernel, ins[i], outs[i], s.rows,
                                 s.n));
      });
      CHECK(cudaGetLastError());
      // Check rows 0, rows / 2, rows - 1 of set 0 against float64.
      CHECK(cudaMemset(outs[0], 0xff, elems * 2));
      CHECK(cudaLaunchKernelEx(&config, kernel, ins[0], outs[0], s.rows, s.n));
      CHECK(cudaDeviceSynchronize());
      double worst = 0;
      std::vector<__nv_bfloat16> got(s.n);
      for (int row : {0, s.rows / 2, s.rows - 1}) {
        CHECK(cudaMemcpy(got.data(), outs[0] + size_t(row) * s.n, s.n * 2,
                         cudaMemcpyDeviceToHost));
        const __nv_bfloat16 *x = host.data() + size_t(row) * s.n;
        double m = -INFINITY, sum = 0;
        for (int j = 0; j < s.n; ++j)
          m = std::max(m, double(__bfloat162float(x[j])));
        for (int j = 0; j < s.n; ++j)
          sum += std::exp(double(__bfloat162float(x[j])) - m);
        for (int j = 0; j < s.n; ++j) {
          double want = std::exp(double(__bfloat162float(x[j])) - m) / sum;
          double err = std::fabs(double(__bfloat162float(got[j])) - want) /
                       want;
          if (!(err <= worst))
            worst = err; // NaN propagates
        }
      }
      char name[32];
      snprintf(name, sizeof name, "%dx%d c%d", s.rows, s.n, s.cluster);
      printf("%-18s %-8s %9.2f %9.2f %6.1f%% %9.2e%s\n", name,
             kFormNames[form], us, copyUs, 100 * copyUs / us, worst,
             worst < 1e-2 ? "" : "  WRONG");
    }
    for (int i = 0; i < sets; ++i) {
      CHECK(cudaFree(ins[i]));
      CHECK(cudaFree(outs[i]));
    }
  }
  return 0;
}
