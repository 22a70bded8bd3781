// cuBLASLt GEMM: row-major amps tensors as column-major cuBLAS matrices (D^T = W^T A^T), strided batches,
// one handle and workspace per device, alignment-aware heuristics. cuBLAS errors become RuntimeErrors.
#include "runtime/backend/cuda/blas.hpp"

#include <cublasLt.h>
#include <dlfcn.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cuda {
namespace {

constexpr size_t kWorkspaceBytes = size_t(32) << 20;  // cuBLAS's recommendation for Hopper

// cuBLASLt is opened on the first GEMM, not linked: the library is ~500 MiB, and loading it at start-up
// cost every amps process (GPU or not) 0.3 s and 200 MiB of resident memory.
#define AMPS_LT_FUNCTIONS(X)                                                                                  \
  X(cublasLtCreate) X(cublasLtGetStatusString) X(cublasLtMatmul) X(cublasLtMatmulAlgoGetHeuristic)            \
  X(cublasLtMatmulDescCreate) X(cublasLtMatmulDescDestroy) X(cublasLtMatmulDescSetAttribute)                  \
  X(cublasLtMatmulPreferenceCreate) X(cublasLtMatmulPreferenceDestroy) X(cublasLtMatmulPreferenceSetAttribute) \
  X(cublasLtMatrixLayoutCreate) X(cublasLtMatrixLayoutDestroy) X(cublasLtMatrixLayoutSetAttribute)

struct LtApi {
#define AMPS_LT_MEMBER(fn) decltype(&::fn) fn = nullptr;
  AMPS_LT_FUNCTIONS(AMPS_LT_MEMBER)
#undef AMPS_LT_MEMBER
};

const LtApi& lt() {
  static const LtApi api = [] {
    void* h = dlopen(AMPS_CUBLASLT_SONAME, RTLD_NOW | RTLD_LOCAL);
    AMPS_CHECK(h != nullptr, "cannot load cuBLASLt ({}): {}; add its folder (e.g. /usr/local/cuda/lib64) to "
               "LD_LIBRARY_PATH", AMPS_CUBLASLT_SONAME, dlerror());
    LtApi a;
#define AMPS_LT_LOAD(fn)                                                      \
  a.fn = reinterpret_cast<decltype(a.fn)>(dlsym(h, #fn));                    \
  AMPS_CHECK(a.fn != nullptr, "cuBLASLt ({}) lacks {}", AMPS_CUBLASLT_SONAME, #fn);
    AMPS_LT_FUNCTIONS(AMPS_LT_LOAD)
#undef AMPS_LT_LOAD
    return a;
  }();
  return api;
}

void check_blas(cublasStatus_t s, const char* what) {
  AMPS_CHECK(s == CUBLAS_STATUS_SUCCESS, "cuBLASLt error in {}: {}", what, lt().cublasLtGetStatusString(s));
}

struct DeviceBlas {
  cublasLtHandle_t handle = nullptr;
  void* workspace = nullptr;
};

// The handle and workspace of [d] (created on first use; kept for the process's life).
DeviceBlas& blas_for(Device d) {
  static std::mutex m;
  static std::deque<DeviceBlas> all;  // a deque: growing it keeps the references handed out earlier valid
  std::lock_guard<std::mutex> lock(m);
  if (all.size() <= size_t(d.index)) all.resize(size_t(d.index) + 1);
  DeviceBlas& b = all[size_t(d.index)];
  if (!b.handle) {
    check_blas(lt().cublasLtCreate(&b.handle), "cublasLtCreate");
    check(cudaMalloc(&b.workspace, kWorkspaceBytes), "cuBLASLt workspace allocation");
  }
  return b;
}

// One matrix operand as cuBLAS sees it: column-major [rows, cols] with leading dimension ld, possibly to
// be transposed, [batch_stride] elements apart.
struct Mat {
  Tensor keep;  // the tensor [ptr] points into
  const void* ptr = nullptr;
  int64_t rows = 0, cols = 0, ld = 0, batch_stride = 0;
  bool trans = false;
};

// [t] (3-D [B, r, c], row-major semantics) as a column-major matrix of the transposed product, copying
// only when neither its rows nor its columns are unit-stride.
Mat as_mat(Tensor t) {
  const int64_t r = t.size(1), c = t.size(2);
  auto row_major = [&] { return (c == 1 || t.stride(2) == 1) && (r == 1 || t.stride(1) >= c); };
  auto col_major = [&] { return (r == 1 || t.stride(1) == 1) && (c == 1 || t.stride(2) >= r); };
  if (!row_major() && !col_major()) t = contiguous(t);
  Mat m;
  m.keep = t;
  m.ptr = device_data(t);
  m.batch_stride = t.size(0) == 1 ? 0 : t.stride(0);
  if (row_major()) {  // row-major r x c is column-major c x r: used as is
    m.rows = c, m.cols = r, m.ld = r == 1 ? std::max<int64_t>(c, 1) : t.stride(1);
  } else {  // column-major r x c: transposed by cuBLAS
    m.rows = r, m.cols = c, m.ld = c == 1 ? std::max<int64_t>(r, 1) : t.stride(2), m.trans = true;
  }
  return m;
}

// [t] with its batch dims merged into one: [B, r, c] (a copy only when the batch strides do not merge).
Tensor batched3(const Tensor& t, int64_t batch) {
  Dims s{batch, t.size(-2), t.size(-1)};
  if (std::optional<Tensor> v = native::try_view(t, s)) return *v;
  return native::view(contiguous(t), s);
}

cudaDataType_t data_type(DType t) {
  switch (t) {
    case DType::float16: return CUDA_R_16F;
    case DType::bfloat16: return CUDA_R_16BF;
    case DType::float64: return CUDA_R_64F;
    default: return CUDA_R_32F;
  }
}

uint32_t alignment(const void* p) {
  uint32_t a = 256;
  while (a > 1 && reinterpret_cast<uintptr_t>(p) % a != 0) a /= 2;
  return a;
}

// The cuBLASLt descriptors and the heuristic's algorithm for one GEMM geometry, made once and cached (plan_for):
// the heuristic query alone cost a GEMM launch ~0.2 ms of host time (measured on an H200), which made every
// training step host-bound. Destroys its descriptors.
struct Plan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() {
    for (cublasLtMatrixLayout_t l : {a, b, d})
      if (l) lt().cublasLtMatrixLayoutDestroy(l);
    if (desc) lt().cublasLtMatmulDescDestroy(desc);
  }
};

// Everything a plan depends on: the device, dtype, operand layouts (transposes, sizes, leading dims, batch
// strides), the output's, and the pointers' alignments (the heuristic picks kernels by them).
struct PlanKey {
  int device;
  DType dt;
  bool ta, tb;
  int64_t dims[13];
  uint32_t align[3];
  bool operator==(const PlanKey& o) const {
    return device == o.device && dt == o.dt && ta == o.ta && tb == o.tb &&
           std::equal(std::begin(dims), std::end(dims), std::begin(o.dims)) &&
           std::equal(std::begin(align), std::end(align), std::begin(o.align));
  }
};

struct PlanKeyHash {
  size_t operator()(const PlanKey& k) const {
    uint64_t h = uint64_t(k.device) * 0x9E3779B97F4A7C15ull ^ uint64_t(k.dt) << 8 ^ uint64_t(k.ta) << 16 ^ uint64_t(k.tb) << 17;
    for (int64_t v : k.dims) h = (h ^ uint64_t(v)) * 0x100000001B3ull;
    for (uint32_t v : k.align) h = (h ^ v) * 0x100000001B3ull;
    return size_t(h);
  }
};

cublasLtMatrixLayout_t make_layout(cudaDataType_t t, int64_t rows, int64_t cols, int64_t ld, int64_t batch,
                                   int64_t stride) {
  cublasLtMatrixLayout_t h = nullptr;
  check_blas(lt().cublasLtMatrixLayoutCreate(&h, t, uint64_t(rows), uint64_t(cols), ld), "layout");
  int32_t count = int32_t(batch);
  check_blas(lt().cublasLtMatrixLayoutSetAttribute(h, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count)), "layout");
  check_blas(lt().cublasLtMatrixLayoutSetAttribute(h, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof(stride)),
             "layout");
  return h;
}

// The algorithm cuBLASLt's heuristic ranks first for [plan]'s descriptors, given the pointers' alignments.
cublasLtMatmulAlgo_t best_algo(Device dev, DType dt, const Plan& plan, const uint32_t (&align)[3], int64_t n, int64_t m,
                               int64_t k, int64_t batch) {
  cublasLtMatmulPreference_t pref = nullptr;
  check_blas(lt().cublasLtMatmulPreferenceCreate(&pref), "preference");
  std::unique_ptr<cublasLtMatmulPreferenceOpaque_t, cublasStatus_t (*)(cublasLtMatmulPreference_t)> pref_guard(pref, lt().cublasLtMatmulPreferenceDestroy);
  uint64_t ws = kWorkspaceBytes;
  check_blas(lt().cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)), "preference");
  const cublasLtMatmulPreferenceAttributes_t attrs[4] = {
      CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
      CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES};
  const uint32_t values[4] = {align[0], align[1], align[2], align[2]};
  for (int i = 0; i < 4; ++i)
    check_blas(lt().cublasLtMatmulPreferenceSetAttribute(pref, attrs[i], &values[i], sizeof(values[i])), "preference");
  cublasLtMatmulHeuristicResult_t heur{};
  int found = 0;
  // No algorithm comes back as CUBLAS_STATUS_NOT_SUPPORTED: reported with the shapes rather than as a bare status.
  const cublasStatus_t hs = lt().cublasLtMatmulAlgoGetHeuristic(blas_for(dev).handle, plan.desc, plan.a, plan.b, plan.d,
                                                                plan.d, pref, 1, &heur, &found);
  AMPS_CHECK(hs == CUBLAS_STATUS_SUCCESS && found > 0, "cuBLASLt has no algorithm for a {} matmul of [{}, {}] x [{}, {}] "
             "(batch {}): {}", dtype_name(dt), m, k, k, n, batch, lt().cublasLtGetStatusString(hs));
  return heur.algo;
}

std::shared_ptr<const Plan> make_plan(Device dev, DType dt, const Mat& A, const Mat& B, int64_t ldd, int64_t d_stride,
                                      int64_t batch, int64_t n, int64_t m, int64_t k, const uint32_t (&align)[3]) {
  const bool f64 = dt == DType::float64;
  const cudaDataType_t t = data_type(dt);
  auto made = std::make_shared<Plan>();
  Plan& p = *made;
  check_blas(lt().cublasLtMatmulDescCreate(&p.desc, f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F,
                                           f64 ? CUDA_R_64F : CUDA_R_32F), "matmul desc");
  cublasOperation_t ta = A.trans ? CUBLAS_OP_T : CUBLAS_OP_N, tb = B.trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  check_blas(lt().cublasLtMatmulDescSetAttribute(p.desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)), "matmul desc");
  check_blas(lt().cublasLtMatmulDescSetAttribute(p.desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)), "matmul desc");
  p.a = make_layout(t, A.rows, A.cols, A.ld, batch, A.batch_stride);
  p.b = make_layout(t, B.rows, B.cols, B.ld, batch, B.batch_stride);
  p.d = make_layout(t, n, m, ldd, batch, d_stride);
  p.algo = best_algo(dev, dt, p, align, n, m, k, batch);
  return made;
}

// The plan for this geometry: from the cache, else made and cached. A program cycling through more than kMaxPlans
// geometries empties the cache and starts again (a plan still in use by another thread lives on in its shared_ptr).
constexpr size_t kMaxPlans = 4096;
std::shared_ptr<const Plan> plan_for(Device dev, DType dt, const Mat& A, const Mat& B, int64_t ldd, int64_t d_stride,
                                     int64_t batch, int64_t n, int64_t m, int64_t k, const uint32_t (&align)[3]) {
  static std::mutex mu;
  // never destroyed: at exit cuBLASLt may already be unloading
  static auto& plans = *new std::unordered_map<PlanKey, std::shared_ptr<const Plan>, PlanKeyHash>();
  const PlanKey key{int(dev.index), dt, A.trans, B.trans,
                    {A.rows, A.cols, A.ld, A.batch_stride, B.rows, B.cols, B.ld, B.batch_stride, ldd, d_stride, batch, n, m},
                    {align[0], align[1], align[2]}};
  std::lock_guard<std::mutex> lock(mu);
  auto it = plans.find(key);
  if (it != plans.end()) return it->second;
  if (plans.size() >= kMaxPlans) plans.clear();
  return plans.emplace(key, make_plan(dev, dt, A, B, ldd, d_stride, batch, n, m, k, align)).first->second;
}

// D (column-major n x m) = alpha * op(A) op(B) + beta * D for the prepared operands.
void run_lt(Device dev, DType dt, const Mat& A, const Mat& B, void* d, int64_t ldd, int64_t d_stride, int64_t batch,
            int64_t n, int64_t m, int64_t k, double alpha, double beta) {
  const uint32_t align[3] = {alignment(A.ptr), alignment(B.ptr), alignment(d)};
  const std::shared_ptr<const Plan> plan = plan_for(dev, dt, A, B, ldd, d_stride, batch, n, m, k, align);
  const bool f64 = dt == DType::float64;
  const float af = float(alpha), bf = float(beta);
  const void* pa = f64 ? static_cast<const void*>(&alpha) : &af;
  const void* pb = f64 ? static_cast<const void*>(&beta) : &bf;
  DeviceBlas& blas = blas_for(dev);
  check_blas(lt().cublasLtMatmul(blas.handle, plan->desc, pa, A.ptr, plan->a, B.ptr, plan->b, pb, d, plan->d, d, plan->d,
                                 &plan->algo, blas.workspace, kWorkspaceBytes, stream(dev)), "cublasLtMatmul");
}

}  // namespace

void gemm(const Tensor& a, const Tensor& w, const Tensor& dst, double alpha, double beta) {
  if (dst.numel() == 0) return;
  const int64_t M = dst.size(-2), N = dst.size(-1), K = a.size(-1);
  if (K == 0) {  // empty inner dimension: the product is zero
    if (beta == 0) return fill(dst, Scalar(0.0));
    Tensor s = Tensor::scalar(Scalar(beta), dst.dtype());
    Launch l = make_launch(dst.sizes(), {&dst, &dst, &s});
    check(launch_binary(stream(dst.device()), BinOp::mul, elem(dst.dtype()), l.shape, l.ops[0], l.ops[1], l.ops[2], 1.0),
          "gemm");
    return;
  }
  Dims batch(dst.sizes().begin(), dst.sizes().end() - 2);
  const int64_t B = numel_of(batch);
  auto full = [&](const Tensor& t) {
    Dims s = batch;
    s.push_back(t.size(-2));
    s.push_back(t.size(-1));
    return batched3(native::expand(t, s), B);
  };
  Mat am = as_mat(full(a)), wm = as_mat(full(w));
  // dst as [B, M, N]: a view, or (batch dims that do not merge) a contiguous copy written back at the end.
  const std::optional<Tensor> d_view = native::try_view(dst, Dims{B, M, N});
  Tensor d3 = d_view ? *d_view : native::view(contiguous(dst), Dims{B, M, N});
  const bool d_ok = d3.stride(2) == 1 && (M == 1 || d3.stride(1) >= N) && (B == 1 || d3.stride(0) != 0);
  Tensor out = d_ok ? d3 : contiguous(d3);
  const int64_t ldd = M == 1 ? N : out.stride(1), d_stride = B == 1 ? 0 : out.stride(0);
  // D^T (N x M) = W^T (N x K) A^T (K x M): cuBLAS's A is our w, its B is our a.
  run_lt(dst.device(), dst.dtype(), wm, am, device_data(out), ldd, d_stride, B, N, M, K, alpha, beta);
  if (!out.is_same(d3)) copy_into(d3, out);
  if (!d_view) copy_into(dst, native::view(d3, dst.sizes()));
}

}  // namespace amps::rt::cuda
