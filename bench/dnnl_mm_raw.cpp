// Baseline for amps' mm: times the raw oneDNN matmul primitive (f32, bf16) and prints JSON lines.
//
// Usage: dnnl_mm_raw [threads=2] [dtype n [most=50]]: every case, or the one named (f32|bf16, 512|1024|2048, as
// mm.amps takes them, so run_bench.py can alternate the two case by case). Each primitive is created once; one
// warm-up run, then repeats until ~1 s or [most] runs (at least 5), as mm.amps samples; the median time gives
// GFLOP/s = 2*n^3 / t. gflops_two_dst: the same with two destinations written in turn. A dtype this
// CPU has no oneDNN kernel for prints "gflops":null with the reason.
#include <dnnl.hpp>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

const char* name_of(dt t) { return t == dt::f32 ? "f32" : "bf16"; }

// An n x n matrix of type 't' filled with uniform [-1, 1) values (converted by a reorder).
dnnl::memory random_matrix(const dnnl::engine& eng, dnnl::stream& s, int64_t n, dt t, unsigned seed) {
  dnnl::memory::desc f32_md({n, n}, dt::f32, tag::ab);
  dnnl::memory src(f32_md, eng), dst({{n, n}, t, tag::ab}, eng);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  float* p = static_cast<float*>(src.get_data_handle());
  for (int64_t i = 0; i < n * n; ++i) p[i] = u(rng);
  dnnl::reorder(src, dst).execute(s, src, dst);
  s.wait();
  return dst;
}

// The median time of one product; with [dst2], calls alternate between args' destination and dst2.
double median_seconds(const dnnl::matmul& mm, dnnl::stream& s, std::unordered_map<int, dnnl::memory> args,
                      size_t most, const dnnl::memory* dst2 = nullptr) {
  using clock = std::chrono::steady_clock;
  const dnnl::memory dst1 = args.at(DNNL_ARG_DST);
  mm.execute(s, args);  // warm-up: first touch, kernel caches
  s.wait();
  std::vector<double> t;
  const auto start = clock::now();
  while (t.size() < 5 || (t.size() < most && std::chrono::duration<double>(clock::now() - start).count() < 1.0)) {
    if (dst2) args[DNNL_ARG_DST] = t.size() % 2 ? *dst2 : dst1;
    const auto t0 = clock::now();
    mm.execute(s, args);
    s.wait();
    t.push_back(std::chrono::duration<double>(clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// One JSON line for C[n,n] = A·B with A, B, C all of type 't'.
void bench_one(const dnnl::engine& eng, dnnl::stream& s, int64_t n, dt t, size_t most) {
  dnnl::memory::desc md({n, n}, t, tag::ab);
  dnnl::matmul::primitive_desc pd;
  try {
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(md, md, md), eng);
  } catch (const dnnl::error& e) {
    std::printf("{\"op\":\"mm\",\"dtype\":\"%s\",\"n\":%lld,\"gflops\":null,\"error\":\"%s\"}\n",
                name_of(t), static_cast<long long>(n), "no oneDNN kernel on this CPU");
    return;
  }
  dnnl::matmul mm(pd);
  dnnl::memory a = random_matrix(eng, s, n, t, 1), b = random_matrix(eng, s, n, t, 2), c(md, eng), c2(md, eng);
  const std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}};
  const double sec = median_seconds(mm, s, args, most);
  // As `c = mm(a, b)` in a script writes: a new result while the old one is alive, so two destinations take turns.
  const double sec2 = median_seconds(mm, s, args, most, &c2);
  const double flop = 2.0 * n * n * n;
  std::printf("{\"op\":\"mm\",\"dtype\":\"%s\",\"n\":%lld,\"gflops\":%.2f,\"gflops_two_dst\":%.2f,\"impl\":\"%s\","
              "\"threads\":%d}\n", name_of(t), static_cast<long long>(n), flop / sec * 1e-9, flop / sec2 * 1e-9,
              pd.impl_info_str(), omp_get_max_threads());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  omp_set_num_threads(argc > 1 ? std::atoi(argv[1]) : 2);
  try {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream s(eng);
    const std::string only_dt = argc > 3 ? argv[2] : "";
    const int64_t only_n = argc > 3 ? std::atoll(argv[3]) : 0;
    const size_t most = argc > 4 ? size_t(std::max(5, std::atoi(argv[4]))) : 50;
    for (dt t : {dt::f32, dt::bf16})
      for (int64_t n : {512, 1024, 2048})
        if ((only_dt.empty() || only_dt == name_of(t)) && (only_n == 0 || only_n == n)) bench_one(eng, s, n, t, most);
  } catch (const dnnl::error& e) {
    std::fprintf(stderr, "dnnl_mm_raw: oneDNN error %d: %s\n", static_cast<int>(e.status), e.what());
    return 1;
  }
  return 0;
}
