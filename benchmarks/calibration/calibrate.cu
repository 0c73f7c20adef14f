// calibrate.cu - microbenchmarks for CREDIT's cost model.
//
// Measures, on the GPU it runs on, what the cost model (lib/Analysis/
// CostModel.cpp) needs: device-to-device copy bandwidth, L2 latency,
// streaming bandwidth against bytes in flight and CTAs per SM (and on a
// few SMs), block-reduction and cluster-exchange round costs, launch and
// per-CTA start costs, issue rate, SM clock, and the clusters that can be
// resident at once (cuOccupancyMaxActiveClusters). Prints one JSON object.
//
//   nvcc -O3 -arch=sm_90 -std=c++17 -o calibrate calibrate.cu
//   ./calibrate > raw.json
//
// python -m credit.costmodel profile turns the JSON into targets/<chip>.json.

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t error_ = (call);                                             \
    if (error_ != cudaSuccess) {                                             \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,          \
              cudaGetErrorString(error_));                                   \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

static int g_sms = 0;

/// Median milliseconds of `reps` runs of `launch` (after two warm-ups).
template <typename F> static float timeMs(F launch, int reps = 9) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  launch();
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> times;
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return times[times.size() / 2];
}

/// A launch of `grid` CTAs of `block` threads in clusters of `cluster`.
struct ClusterLaunch {
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute attr;
  ClusterLaunch(int grid, int block, int cluster, size_t smem = 0) {
    config.gridDim = dim3(grid);
    config.blockDim = dim3(block);
    config.dynamicSmemBytes = smem;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cluster;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    config.attrs = &attr;
    config.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch &) = delete;
};

//===----------------------------------------------------------------------===//
// Streaming: each CTA works through "rows" of threads * CHUNKS 16-byte
// vectors: loads them all (all in flight), sums them, writes them back
// scaled, like a registers-staged CREDIT kernel.
//===----------------------------------------------------------------------===//

template <int CHUNKS>
__global__ void streamKernel(const float4 *__restrict__ in,
                             float4 *__restrict__ out, long rows,
                             float *sink) {
  extern __shared__ float pad[];
  long rowVectors = long(blockDim.x) * CHUNKS;
  float total = 0;
  for (long row = blockIdx.x; row < rows; row += gridDim.x) {
    const float4 *src = in + row * rowVectors;
    float4 *dst = out + row * rowVectors;
    float4 v[CHUNKS];
#pragma unroll
    for (int c = 0; c < CHUNKS; ++c)
      v[c] = src[c * blockDim.x + threadIdx.x];
    float s = 0;
#pragma unroll
    for (int c = 0; c < CHUNKS; ++c)
      s += v[c].x + v[c].y + v[c].z + v[c].w;
#pragma unroll
    for (int c = 0; c < CHUNKS; ++c)
      dst[c * blockDim.x + threadIdx.x] =
          make_float4(v[c].x * s, v[c].y, v[c].z, v[c].w);
    total += s;
  }
  if (total == 1234.5f)
    sink[0] = pad[0] + total;
}

struct StreamBuffers {
  float4 *in = nullptr, *out = nullptr;
  size_t bytes = 0;
  float *sink = nullptr;
};

/// GB/s (read + written) of streamKernel with `threads` threads, `chunks`
/// vectors each, `ctasPerSM` CTAs on each of `sms` SMs.
template <int CHUNKS>
static double streamGBs(StreamBuffers &b, int threads, int ctasPerSM,
                        int sms) {
  // Shared memory pins the CTAs per SM.
  size_t smem = ctasPerSM >= 32 ? 0 : (228 * 1024) / ctasPerSM - 1024 - 256;
  smem = std::min<size_t>(smem, 227 * 1024);
  CHECK(cudaFuncSetAttribute(streamKernel<CHUNKS>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(smem)));
  long rowBytes = long(threads) * CHUNKS * 16;
  long rows = long(b.bytes / 2) / rowBytes;
  // Few SMs: less data, so that a run stays short.
  if (sms < g_sms)
    rows = std::min<long>(rows, long(sms) * ctasPerSM * 64);
  int grid = sms * ctasPerSM;
  float ms = timeMs([&] {
    streamKernel<CHUNKS><<<grid, threads, smem>>>(b.in, b.out, rows, b.sink);
  });
  return 2.0 * rows * rowBytes / (ms * 1e6);
}

static double streamByChunks(StreamBuffers &b, int chunks, int threads,
                             int ctasPerSM, int sms) {
  switch (chunks) {
  case 1:
    return streamGBs<1>(b, threads, ctasPerSM, sms);
  case 2:
    return streamGBs<2>(b, threads, ctasPerSM, sms);
  case 4:
    return streamGBs<4>(b, threads, ctasPerSM, sms);
  case 8:
    return streamGBs<8>(b, threads, ctasPerSM, sms);
  default:
    return streamGBs<16>(b, threads, ctasPerSM, sms);
  }
}

//===----------------------------------------------------------------------===//
// L2 latency: one thread chasing pointers through 20000 random 64-byte
// lines (1.3 MB); after the warm-up runs they all hit L2. The DRAM round
// trip comes from the streaming runs instead (Little's law where too few
// bytes are in flight).
//===----------------------------------------------------------------------===//

__global__ void chaseKernel(const unsigned *next, int hops, unsigned *sink) {
  unsigned at = 0;
  for (int i = 0; i < hops; ++i)
    at = next[at];
  sink[0] = at;
}

//===----------------------------------------------------------------------===//
// Block reductions: rounds of warp shuffles, a shared-memory exchange and a
// CTA barrier, as credit.block_reduce lowers.
//===----------------------------------------------------------------------===//

__global__ void blockReduceKernel(int rounds, float *sink) {
  __shared__ float scratch[2][32];
  float v = threadIdx.x;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int warps = blockDim.x / 32;
  for (int r = 0; r < rounds; ++r) {
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_xor_sync(0xffffffffu, v, o);
    if (lane == 0)
      scratch[r & 1][warp] = v;
    __syncthreads();
    float w = lane < warps ? scratch[r & 1][lane] : 0.f;
    for (int o = 16; o > 0; o /= 2)
      w += __shfl_xor_sync(0xffffffffu, w, o);
    v = __shfl_sync(0xffffffffu, w, 0) * 1e-3f + v;
  }
  if (v == 1234.5f)
    sink[0] = v;
}

//===----------------------------------------------------------------------===//
// Cluster exchanges: every CTA stores a value into every peer's shared
// memory (DSMEM), then a release/acquire cluster barrier, then each sums
// what it received, as credit.cluster_reduce lowers.
//===----------------------------------------------------------------------===//

__global__ void clusterExchangeKernel(int rounds, float *sink) {
  __shared__ float scratch[2][16];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  unsigned size = cluster.num_blocks();
  float v = rank + 1;
  cluster.sync();
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x < size) {
      float *peer = cluster.map_shared_rank(&scratch[r & 1][0], threadIdx.x);
      peer[rank] = v;
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
    float s = 0;
    for (unsigned i = 0; i < size; ++i)
      s += scratch[r & 1][i];
    v = s * 1e-3f;
  }
  cluster.sync();
  if (v == 1234.5f)
    sink[0] = v;
}

/// The asynchronous exchange, as credit.cluster_reduce lowers with
/// mbarriers: every CTA pushes its value into every peer's buffer with
/// st.async, completing on the peer's mbarrier of that buffer; thread 0
/// expects the cluster's bytes and arrives, every thread waits for the
/// phase, and a CTA barrier (the next block reduction's) precedes the sends
/// of the round after.
__global__ void clusterAsyncExchangeKernel(int rounds, float *sink) {
  __shared__ float scratch[2][16];
  __shared__ alignas(8) unsigned long long barriers[2];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  unsigned size = cluster.num_blocks();
  auto shared = [](const void *p) {
    return (unsigned)__cvta_generic_to_shared(p);
  };
  if (threadIdx.x == 0) {
    for (int b = 0; b < 2; ++b)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(
                       shared(&barriers[b]))
                   : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster.sync();
  float v = rank + 1;
  for (int r = 0; r < rounds; ++r) {
    int b = r & 1;
    unsigned phase = (r >> 1) & 1;
    if (threadIdx.x < size) {
      unsigned data, bar;
      asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                   : "=r"(data)
                   : "r"(shared(&scratch[b][rank])), "r"(threadIdx.x));
      asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                   : "=r"(bar)
                   : "r"(shared(&barriers[b])), "r"(threadIdx.x));
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 "
                   "[%0], %1, [%2];" ::"r"(data),
                   "r"(__float_as_uint(v)), "r"(bar)
                   : "memory");
    }
    if (threadIdx.x == 0)
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::
                       "r"(shared(&barriers[b])),
                   "r"(size * 4)
                   : "memory");
    unsigned done = 0;
    while (!done)
      asm volatile("{\n\t.reg .pred p;\n\t"
                   "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 "
                   "p, [%1], %2;\n\tselp.b32 %0, 1, 0, p;\n\t}"
                   : "=r"(done)
                   : "r"(shared(&barriers[b])), "r"(phase)
                   : "memory");
    float s = 0;
    for (unsigned i = 0; i < size; ++i)
      s += scratch[b][i];
    v = s * 1e-3f;
    __syncthreads();
  }
  cluster.sync();
  if (v == 1234.5f)
    sink[0] = v;
}

/// Microseconds per round of an exchange kernel in clusters of `size`,
/// with `clusters` clusters of 256 threads.
static double exchangeUs(void (*kernel)(int, float *), int size,
                         int clusters, float *sink) {
  CHECK(cudaFuncSetAttribute(kernel,
                             cudaFuncAttributeNonPortableClusterSizeAllowed,
                             1));
  auto run = [&](int rounds) {
    ClusterLaunch launch(size * clusters, 256, size);
    return timeMs([&] {
      CHECK(cudaLaunchKernelEx(&launch.config, kernel, rounds, sink));
    });
  };
  // The difference between many and few rounds leaves launch costs out.
  double many = run(2000), few = run(200);
  return (many - few) * 1e3 / 1800;
}

//===----------------------------------------------------------------------===//
// Shared memory and DSMEM bandwidth per CTA (what the paper's model uses):
// 16-byte reads or stores of a CTA's own shared memory, and 16-byte stores
// into the peer's shared memory in a cluster of two.
//===----------------------------------------------------------------------===//

__global__ void smemKernel(int rounds, int store, float *sink) {
  extern __shared__ float4 buffer[];
  int words = 8192; // 128 KB
  float4 acc = make_float4(0, 0, 0, 0);
  for (int i = threadIdx.x; i < words; i += blockDim.x)
    buffer[i] = make_float4(i, 1, 2, 3);
  __syncthreads();
  for (int r = 0; r < rounds; ++r)
    for (int i = threadIdx.x; i < words; i += blockDim.x) {
      if (store) {
        buffer[i] = make_float4(r, i, 0, 0);
      } else {
        float4 v = buffer[i];
        acc.x += v.x;
        acc.y += v.y;
      }
    }
  __syncthreads();
  if (acc.x == 1234.5f)
    sink[0] = acc.x + buffer[threadIdx.x].x;
}

__global__ void dsmemStoreKernel(int rounds, float *sink) {
  extern __shared__ float4 buffer[];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned peer = cluster.block_rank() ^ 1;
  float4 *remote = cluster.map_shared_rank(buffer, peer);
  int words = 8192;
  cluster.sync();
  for (int r = 0; r < rounds; ++r)
    for (int i = threadIdx.x; i < words; i += blockDim.x)
      remote[i] = make_float4(r, i, 0, 0);
  cluster.sync();
  if (buffer[threadIdx.x].x == 1234.5f)
    sink[0] = 1;
}

/// Bytes per cycle one CTA moves: `kind` 0 reads, 1 stores its own shared
/// memory, 2 stores into a peer's.
static double sharedBytesPerCycle(int kind, double clockGHz, float *sink) {
  size_t smem = 8192 * 16;
  auto run = [&](int rounds) {
    if (kind < 2) {
      CHECK(cudaFuncSetAttribute(smemKernel,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 int(smem)));
      return timeMs([&] {
        smemKernel<<<g_sms, 1024, smem>>>(rounds, kind, sink);
      });
    }
    CHECK(cudaFuncSetAttribute(dsmemStoreKernel,
                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                               int(smem)));
    ClusterLaunch launch(g_sms / 2 * 2, 1024, 2, smem);
    return timeMs([&] {
      CHECK(cudaLaunchKernelEx(&launch.config, dsmemStoreKernel, rounds,
                               sink));
    });
  };
  double ms = run(200) - run(20);
  return 180.0 * double(smem) / (ms * 1e-3 * clockGHz * 1e9);
}

//===----------------------------------------------------------------------===//
// Launch and CTA start costs; issue rate; clock.
//===----------------------------------------------------------------------===//

__global__ void emptyKernel(float *sink) {
  if (threadIdx.x == 1234)
    sink[0] = 1;
}

__global__ void clusterStartKernel(float *sink) {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
  asm volatile("barrier.cluster.wait.aligned;\n" ::: "memory");
  if (threadIdx.x == 1234)
    sink[0] = 1;
}

__global__ void fmaKernel(int iterations, float *sink) {
  float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4,
        a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
  for (int i = 0; i < iterations; ++i) {
    a0 = fmaf(a0, 0.999f, 0.5f);
    a1 = fmaf(a1, 0.999f, 0.5f);
    a2 = fmaf(a2, 0.999f, 0.5f);
    a3 = fmaf(a3, 0.999f, 0.5f);
    a4 = fmaf(a4, 0.999f, 0.5f);
    a5 = fmaf(a5, 0.999f, 0.5f);
    a6 = fmaf(a6, 0.999f, 0.5f);
    a7 = fmaf(a7, 0.999f, 0.5f);
  }
  float s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
  if (s == 1234.5f)
    sink[0] = s;
}

__global__ void clockKernel(long long spin, long long *out) {
  long long t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  long long c0 = clock64();
  while (clock64() - c0 < spin) {
  }
  long long c1 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  out[0] = c1 - c0;
  out[1] = t1 - t0;
}

/// Cluster exchanges by both protocols, one cluster and as many as fit.
static void printExchanges(float *sink) {
  struct {
    const char *key;
    void (*kernel)(int, float *);
  } protocols[] = {{"cluster_exchange_us", clusterExchangeKernel},
                   {"cluster_async_exchange_us", clusterAsyncExchangeKernel}};
  for (auto protocol : protocols) {
    printf("  \"%s\": {", protocol.key);
    bool first = true;
    for (int size : {2, 4, 8, 16}) {
      printf("%s\"%d\": {\"one\": %.4f, \"full\": %.4f}", first ? "" : ", ",
             size, exchangeUs(protocol.kernel, size, 1, sink),
             exchangeUs(protocol.kernel, size, std::max(1, g_sms / size),
                        sink));
      first = false;
    }
    printf("},\n");
  }
}

/// `calibrate` measures everything; `calibrate exchanges` only the cluster
/// exchanges (a JSON object with those two keys).
int main(int argc, char **argv) {
  int device = 0;
  CHECK(cudaSetDevice(device));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));
  g_sms = prop.multiProcessorCount;
  float *sink;
  CHECK(cudaMalloc(&sink, 64));

  printf("{\n  \"device\": \"%s\",\n  \"sm\": \"sm_%d%d\",\n  \"sms\": %d,\n",
         prop.name, prop.major, prop.minor, g_sms);
  if (argc > 1 && std::string(argv[1]) == "exchanges") {
    printExchanges(sink);
    printf("  \"only\": \"exchanges\"\n}\n");
    return 0;
  }
  printf("  \"l2_bytes\": %d,\n  \"shared_per_sm\": %zu,\n", prop.l2CacheSize,
         prop.sharedMemPerMultiprocessor);

  // Clock.
  double clockGHz = 1.0;
  {
    long long *out;
    CHECK(cudaMalloc(&out, 16));
    clockKernel<<<1, 1>>>(20000000, out);
    CHECK(cudaDeviceSynchronize());
    long long host[2];
    CHECK(cudaMemcpy(host, out, 16, cudaMemcpyDeviceToHost));
    clockGHz = double(host[0]) / double(host[1]);
    printf("  \"clock_ghz\": %.4f,\n", clockGHz);
    CHECK(cudaFree(out));
  }

  // Copy.
  size_t copyBytes = size_t(1) << 30;
  char *a, *b;
  CHECK(cudaMalloc(&a, copyBytes));
  CHECK(cudaMalloc(&b, copyBytes));
  CHECK(cudaMemset(a, 1, copyBytes));
  float copyMs =
      timeMs([&] { CHECK(cudaMemcpyAsync(b, a, copyBytes,
                                         cudaMemcpyDeviceToDevice)); });
  printf("  \"copy_gbs\": %.1f,\n", 2.0 * copyBytes / (copyMs * 1e6));

  // L2 latency: a random walk over 64-byte lines of a 256 MB buffer.
  {
    size_t slots = (size_t(256) << 20) / 64;
    std::vector<unsigned> order(slots), next(slots * 16, 0);
    for (size_t i = 0; i < slots; ++i)
      order[i] = unsigned(i);
    srand(7);
    for (size_t i = slots - 1; i > 0; --i)
      std::swap(order[i], order[size_t(rand()) % (i + 1)]);
    for (size_t i = 0; i < slots; ++i)
      next[size_t(order[i]) * 16] = order[(i + 1) % slots] * 16;
    unsigned *chain;
    CHECK(cudaMalloc(&chain, next.size() * 4));
    CHECK(cudaMemcpy(chain, next.data(), next.size() * 4,
                     cudaMemcpyHostToDevice));
    int hops = 20000;
    float ms = timeMs([&] { chaseKernel<<<1, 1>>>(chain, hops, (unsigned *)sink); }, 5);
    printf("  \"l2_latency_ns\": %.1f,\n", ms * 1e6 / hops);
    CHECK(cudaFree(chain));
  }

  // Streaming against bytes in flight, on every SM and on a few.
  StreamBuffers buffers;
  buffers.in = reinterpret_cast<float4 *>(a);
  buffers.out = reinterpret_cast<float4 *>(b);
  buffers.bytes = copyBytes;
  buffers.sink = sink;
  printf("  \"stream\": [\n");
  bool first = true;
  for (int sms : {g_sms, g_sms / 2, 16, 4, 1})
    for (int threads : {128, 256, 512, 1024})
      for (int chunks : {1, 2, 4, 8, 16})
        for (int ctasPerSM : {1, 2, 4, 8, 16}) {
          if (threads * ctasPerSM > 2048)
            continue;
          // 1024 threads have 64 registers each: at most 4 vectors.
          if (threads * chunks > 4096)
            continue;
          if (sms < g_sms && !(ctasPerSM == 1 || ctasPerSM == 4))
            continue;
          double gbs = streamByChunks(buffers, chunks, threads, ctasPerSM, sms);
          printf("%s    {\"sms\": %d, \"threads\": %d, \"chunks\": %d, "
                 "\"ctas_per_sm\": %d, \"gbs\": %.1f}",
                 first ? "" : ",\n", sms, threads, chunks, ctasPerSM, gbs);
          first = false;
        }
  printf("\n  ],\n");

  // Block reductions.
  printf("  \"block_reduce_us\": {");
  first = true;
  for (int warps : {1, 2, 4, 8, 16, 32}) {
    auto run = [&](int rounds) {
      return timeMs(
          [&] { blockReduceKernel<<<g_sms, warps * 32>>>(rounds, sink); });
    };
    double us = (run(4000) - run(400)) * 1e3 / 3600;
    printf("%s\"%d\": %.4f", first ? "" : ", ", warps, us);
    first = false;
  }
  printf("},\n");

  printExchanges(sink);

  // Launches: an empty kernel, back to back; a grid of empty CTAs by
  // waves; clusters meeting at start-up.
  {
    float ms = timeMs([&] {
      for (int i = 0; i < 100; ++i)
        emptyKernel<<<1, 32>>>(sink);
    });
    printf("  \"launch_us\": %.3f,\n", ms * 1e3 / 100);
    printf("  \"cta_waves_us\": {");
    first = true;
    for (int waves : {1, 4, 16, 64}) {
      int grid = g_sms * 8 * waves;
      float wms = timeMs([&] { emptyKernel<<<grid, 256>>>(sink); });
      printf("%s\"%d\": %.3f", first ? "" : ", ", waves, wms * 1e3);
      first = false;
    }
    printf("},\n");
    printf("  \"cluster_start_us\": {");
    first = true;
    CHECK(cudaFuncSetAttribute(clusterStartKernel,
                               cudaFuncAttributeNonPortableClusterSizeAllowed,
                               1));
    for (int size : {1, 2, 4, 8, 16}) {
      ClusterLaunch launch(g_sms / size * size, 256, size);
      float cms = timeMs([&] {
        CHECK(cudaLaunchKernelEx(&launch.config, clusterStartKernel, sink));
      });
      printf("%s\"%d\": %.3f", first ? "" : ", ", size, cms * 1e3);
      first = false;
    }
    printf("},\n");
  }

  printf("  \"smem_read_bytes_per_cycle_cta\": %.2f,\n",
         sharedBytesPerCycle(0, clockGHz, sink));
  printf("  \"smem_store_bytes_per_cycle_cta\": %.2f,\n",
         sharedBytesPerCycle(1, clockGHz, sink));
  printf("  \"dsmem_store_bytes_per_cycle_cta\": %.2f,\n",
         sharedBytesPerCycle(2, clockGHz, sink));

  // Issue rate: independent FMAs on every SM.
  {
    int iterations = 20000;
    float ms = timeMs(
        [&] { fmaKernel<<<g_sms * 8, 256>>>(iterations, sink); });
    double ops = double(g_sms) * 8 * 256 * iterations * 8;
    printf("  \"fma_per_us_per_sm\": %.1f,\n", ops / (ms * 1e3) / g_sms);
  }

  // Resident clusters by cluster size and CTAs per SM.
  printf("  \"active_clusters\": {");
  first = true;
  CHECK(cudaFuncSetAttribute(emptyKernel,
                             cudaFuncAttributeNonPortableClusterSizeAllowed,
                             1));
  CHECK(cudaFuncSetAttribute(emptyKernel,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             227 * 1024));
  for (int size : {2, 4, 8, 16}) {
    printf("%s\"%d\": [", first ? "" : ", ", size);
    first = false;
    for (int k = 1; k <= 32; ++k) {
      size_t smem = (prop.sharedMemPerMultiprocessor) / k;
      smem = smem > 1024 + 256 ? smem - 1024 - 256 : 0;
      ClusterLaunch launch(size, 64, size, std::min<size_t>(smem, 227 * 1024));
      int count = 0;
      CHECK(cudaOccupancyMaxActiveClusters(&count, emptyKernel,
                                           &launch.config));
      printf("%s%d", k == 1 ? "" : ", ", count);
    }
    printf("]");
  }
  printf("}\n}\n");
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return 0;
}
