// cuDNN's legacy convolution API (forward, backward data, backward filter) through a table of functions dlsym()ed
// from libcudnn.so.N on the first convolution (linking it would load ~1 GiB of engines into every amps process,
// GPU or not). One handle per device on the device's stream; workspaces from the caching allocator; the
// heuristic algorithm choice (cudnnGet*_v7, no benchmarking) cached per pass, dtype and geometry.
#include "runtime/backend/cuda/cudnn.hpp"

#include <cudnn.h>
#include <dlfcn.h>

#include <climits>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::cuda::cudnn {
namespace {

constexpr size_t kMaxWorkspace = size_t(1) << 30;  // algorithms needing more are passed over

#define AMPS_DNN_FUNCTIONS(X)                                                                                   \
  X(cudnnGetVersion) X(cudnnGetErrorString) X(cudnnCreate) X(cudnnSetStream)                                    \
  X(cudnnCreateTensorDescriptor) X(cudnnDestroyTensorDescriptor) X(cudnnSetTensorNdDescriptor)                  \
  X(cudnnCreateFilterDescriptor) X(cudnnDestroyFilterDescriptor) X(cudnnSetFilterNdDescriptor)                  \
  X(cudnnCreateConvolutionDescriptor) X(cudnnDestroyConvolutionDescriptor) X(cudnnSetConvolutionNdDescriptor)   \
  X(cudnnSetConvolutionGroupCount) X(cudnnSetConvolutionMathType)                                               \
  X(cudnnGetConvolutionForwardAlgorithm_v7) X(cudnnGetConvolutionForwardWorkspaceSize) X(cudnnConvolutionForward) \
  X(cudnnGetConvolutionBackwardDataAlgorithm_v7) X(cudnnGetConvolutionBackwardDataWorkspaceSize)                \
  X(cudnnConvolutionBackwardData) X(cudnnGetConvolutionBackwardFilterAlgorithm_v7)                              \
  X(cudnnGetConvolutionBackwardFilterWorkspaceSize) X(cudnnConvolutionBackwardFilter)

struct DnnApi {
#define AMPS_DNN_MEMBER(fn) decltype(&::fn) fn = nullptr;
  AMPS_DNN_FUNCTIONS(AMPS_DNN_MEMBER)
#undef AMPS_DNN_MEMBER
};

const DnnApi& api() {
  static const DnnApi table = [] {
    void* h = dlopen(AMPS_CUDNN_SONAME, RTLD_NOW | RTLD_LOCAL);
    AMPS_CHECK(h != nullptr, "cannot load cuDNN ({}): {}; add its folder (e.g. /usr/local/cuda/lib64, or PyTorch's "
               "site-packages/nvidia/cudnn/lib) to LD_LIBRARY_PATH", AMPS_CUDNN_SONAME, dlerror());
    DnnApi a;
#define AMPS_DNN_LOAD(fn)                                                   \
  a.fn = reinterpret_cast<decltype(a.fn)>(dlsym(h, #fn));                   \
  AMPS_CHECK(a.fn != nullptr, "cuDNN ({}) lacks {}", AMPS_CUDNN_SONAME, #fn);
    AMPS_DNN_FUNCTIONS(AMPS_DNN_LOAD)
#undef AMPS_DNN_LOAD
    const size_t v = a.cudnnGetVersion();
    AMPS_CHECK(v / 10000 == CUDNN_MAJOR, "cuDNN ({}) is version {}, amps was built for major version {}",
               AMPS_CUDNN_SONAME, v, CUDNN_MAJOR);
    return a;
  }();
  return table;
}

void check_dnn(cudnnStatus_t s, const char* what) {
  AMPS_CHECK(s == CUDNN_STATUS_SUCCESS, "cuDNN error in {}: {}", what, api().cudnnGetErrorString(s));
}

// The handle of [d] (created on first use with the device current, bound to its stream; kept for the process's life).
cudnnHandle_t handle_for(Device d) {
  static std::mutex m;
  static std::vector<cudnnHandle_t> all;
  std::lock_guard<std::mutex> lock(m);
  if (all.size() <= size_t(d.index)) all.resize(size_t(d.index) + 1, nullptr);
  cudnnHandle_t& h = all[size_t(d.index)];
  if (!h) {
    check_dnn(api().cudnnCreate(&h), "cudnnCreate");
    check_dnn(api().cudnnSetStream(h, stream(d)), "cudnnSetStream");
  }
  return h;
}

cudnnDataType_t data_type(DType t) {
  switch (t) {
    case DType::float16: return CUDNN_DATA_HALF;
    case DType::bfloat16: return CUDNN_DATA_BFLOAT16;
    case DType::float64: return CUDNN_DATA_DOUBLE;
    default: return CUDNN_DATA_FLOAT;
  }
}

bool half_type(DType t) { return t == DType::float16 || t == DType::bfloat16; }

// The math type a convolution of [t] starts from: tensor cores for half types (float accumulation), FMA only for
// f32 (CUDNN_DEFAULT_MATH would allow TF32 on Ampere and later, which the GEMMs do not use either).
cudnnMathType_t base_math(DType t) {
  if (half_type(t)) return CUDNN_TENSOR_OP_MATH;
  return t == DType::float32 ? CUDNN_FMA_MATH : CUDNN_DEFAULT_MATH;
}

// [t]'s sizes as cuDNN ints, a 1-D convolution's operands with a unit height inserted at dim 2.
std::vector<int> dims_of(const Tensor& t, bool unit_height) {
  AMPS_CHECK(t.numel() <= INT_MAX, "cuDNN convolution: a tensor of shape {} has more than 2^31-1 elements",
             format_shape(t.sizes()));
  std::vector<int> d;
  for (int64_t s : t.sizes()) d.push_back(int(s));
  if (unit_height) d.insert(d.begin() + 2, 1);
  return d;
}

std::vector<int> row_major_strides(const std::vector<int>& d) {
  std::vector<int> s(d.size(), 1);
  for (size_t i = d.size() - 1; i > 0; --i) s[i - 1] = s[i] * d[i];
  return s;
}

// The descriptors of one call, destroyed with it.
struct Descs {
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  Descs() {
    check_dnn(api().cudnnCreateTensorDescriptor(&x), "descriptor");
    check_dnn(api().cudnnCreateTensorDescriptor(&y), "descriptor");
    check_dnn(api().cudnnCreateFilterDescriptor(&w), "descriptor");
    check_dnn(api().cudnnCreateConvolutionDescriptor(&conv), "descriptor");
  }
  ~Descs() {
    api().cudnnDestroyTensorDescriptor(x);
    api().cudnnDestroyTensorDescriptor(y);
    api().cudnnDestroyFilterDescriptor(w);
    api().cudnnDestroyConvolutionDescriptor(conv);
  }
  Descs(const Descs&) = delete;
  Descs& operator=(const Descs&) = delete;
};

void set_tensor(cudnnTensorDescriptor_t d, cudnnDataType_t t, const std::vector<int>& dims) {
  const std::vector<int> st = row_major_strides(dims);
  check_dnn(api().cudnnSetTensorNdDescriptor(d, t, int(dims.size()), dims.data(), st.data()), "tensor descriptor");
}

// Geometry in cuDNN ints, a 1-D convolution's with the unit height's (stride 1, padding 0, dilation 1) in front.
struct Geometry {
  std::vector<int> stride, padding, dilation;
};

Geometry geometry(const common::ConvParams& p) {
  Geometry g;
  const bool unit = p.stride.size() == 1;
  if (unit) g.stride.push_back(1), g.padding.push_back(0), g.dilation.push_back(1);
  for (size_t i = 0; i < p.stride.size(); ++i) {
    g.stride.push_back(int(p.stride[i]));
    g.padding.push_back(int(p.padding[i]));
    g.dilation.push_back(int(p.dilation[i]));
  }
  return g;
}

void set_descs(Descs& d, const common::ConvParams& p, const Tensor& x, const Tensor& w, const Tensor& y) {
  const DType dt = x.dtype();
  const bool unit = p.stride.size() == 1;
  const cudnnDataType_t t = data_type(dt);
  set_tensor(d.x, t, dims_of(x, unit));
  set_tensor(d.y, t, dims_of(y, unit));
  const std::vector<int> wd = dims_of(w, unit);
  check_dnn(api().cudnnSetFilterNdDescriptor(d.w, t, CUDNN_TENSOR_NCHW, int(wd.size()), wd.data()), "filter descriptor");
  const Geometry g = geometry(p);
  const cudnnDataType_t compute = dt == DType::float64 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
  check_dnn(api().cudnnSetConvolutionNdDescriptor(d.conv, int(g.stride.size()), g.padding.data(), g.stride.data(),
                                                  g.dilation.data(), CUDNN_CROSS_CORRELATION, compute),
            "convolution descriptor");
  check_dnn(api().cudnnSetConvolutionGroupCount(d.conv, int(p.groups)), "convolution groups");
  check_dnn(api().cudnnSetConvolutionMathType(d.conv, base_math(dt)), "convolution math type");
}

// An algorithm with the math type it runs in and the workspace bytes it needs.
struct Choice {
  int algo = 0;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
  size_t workspace = 0;
};

// The heuristic's results, best first, that run, fit the workspace cap and (for f32/f64) do not ask for tensor
// cores, then algorithm 0 (implicit GEMM) as the last resort.
template <typename Perf> std::vector<Choice> usable(const Perf* perf, int n, DType dt) {
  std::vector<Choice> r;
  for (int i = 0; i < n; ++i) {
    const bool tensor_op = perf[i].mathType == CUDNN_TENSOR_OP_MATH || perf[i].mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    if (perf[i].status != CUDNN_STATUS_SUCCESS || perf[i].memory > kMaxWorkspace || (tensor_op && !half_type(dt))) continue;
    r.push_back({int(perf[i].algo), half_type(dt) ? perf[i].mathType : base_math(dt), 0});
  }
  r.push_back({0, base_math(dt), 0});
  return r;
}

std::vector<Choice> candidates(Pass pass, cudnnHandle_t h, const Descs& d, DType dt) {
  int n = 0;
  if (pass == Pass::forward) {
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    check_dnn(api().cudnnGetConvolutionForwardAlgorithm_v7(h, d.x, d.w, d.conv, d.y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                            &n, perf), "forward algorithm");
    return usable(perf, n, dt);
  }
  if (pass == Pass::backward_data) {
    cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    check_dnn(api().cudnnGetConvolutionBackwardDataAlgorithm_v7(h, d.w, d.y, d.conv, d.x,
                                                                 CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &n, perf),
              "backward data algorithm");
    return usable(perf, n, dt);
  }
  cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
  check_dnn(api().cudnnGetConvolutionBackwardFilterAlgorithm_v7(h, d.x, d.y, d.conv, d.w,
                                                                 CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &n, perf),
            "backward filter algorithm");
  return usable(perf, n, dt);
}

// The workspace [c] needs with [d]'s convolution descriptor in [c]'s math type; not SUCCESS where cuDNN cannot
// run that combination.
cudnnStatus_t workspace_bytes(Pass pass, cudnnHandle_t h, const Descs& d, Choice& c) {
  cudnnStatus_t s = api().cudnnSetConvolutionMathType(d.conv, c.math);
  if (s != CUDNN_STATUS_SUCCESS) return s;
  if (pass == Pass::forward)
    return api().cudnnGetConvolutionForwardWorkspaceSize(h, d.x, d.w, d.conv, d.y, cudnnConvolutionFwdAlgo_t(c.algo),
                                                         &c.workspace);
  if (pass == Pass::backward_data)
    return api().cudnnGetConvolutionBackwardDataWorkspaceSize(h, d.w, d.y, d.conv, d.x,
                                                              cudnnConvolutionBwdDataAlgo_t(c.algo), &c.workspace);
  return api().cudnnGetConvolutionBackwardFilterWorkspaceSize(h, d.x, d.y, d.conv, d.w,
                                                              cudnnConvolutionBwdFilterAlgo_t(c.algo), &c.workspace);
}

// The first candidate cuDNN accepts with its workspace under the cap.
Choice first_runnable(Pass pass, cudnnHandle_t h, const Descs& d, const Tensor& x, const Tensor& w) {
  for (Choice c : candidates(pass, h, d, x.dtype()))
    if (workspace_bytes(pass, h, d, c) == CUDNN_STATUS_SUCCESS && c.workspace <= kMaxWorkspace) return c;
  AMPS_FAIL("cuDNN has no algorithm for the {} pass of a {} convolution of {} with weight {}",
            pass == Pass::forward ? "forward" : pass == Pass::backward_data ? "backward data" : "backward filter",
            dtype_name(x.dtype()), format_shape(x.sizes()), format_shape(w.sizes()));
}

// The cached choice for this pass, device, dtype and geometry (the heuristic runs once per key); leaves [d]'s
// convolution descriptor in the chosen math type.
Choice choose(Pass pass, cudnnHandle_t h, Descs& d, const common::ConvParams& p, const Tensor& x, const Tensor& w,
              const Tensor& y) {
  static std::mutex m;
  static std::map<std::vector<int64_t>, Choice> cache;
  std::vector<int64_t> key{int64_t(pass), int64_t(x.dtype()), x.device().index, p.groups};
  for (const Dims* v : {&x.sizes(), &w.sizes(), &y.sizes()}) key.insert(key.end(), v->begin(), v->end());
  for (const std::vector<int64_t>* v : {&p.stride, &p.padding, &p.dilation}) key.insert(key.end(), v->begin(), v->end());
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(std::move(key), first_runnable(pass, h, d, x, w)).first;
  check_dnn(api().cudnnSetConvolutionMathType(d.conv, it->second.math), "convolution math type");
  return it->second;
}

void run(Pass pass, cudnnHandle_t h, const Descs& d, const Choice& c, const Tensor& x, const Tensor& w, const Tensor& y,
         void* ws) {
  const double one_d = 1, zero_d = 0;
  const float one_f = 1, zero_f = 0;
  const bool f64 = x.dtype() == DType::float64;
  const void* one = f64 ? static_cast<const void*>(&one_d) : &one_f;
  const void* zero = f64 ? static_cast<const void*>(&zero_d) : &zero_f;
  void *px = device_data(x), *pw = device_data(w), *py = device_data(y);
  if (pass == Pass::forward)
    check_dnn(api().cudnnConvolutionForward(h, one, d.x, px, d.w, pw, d.conv, cudnnConvolutionFwdAlgo_t(c.algo), ws,
                                            c.workspace, zero, d.y, py), "cudnnConvolutionForward");
  else if (pass == Pass::backward_data)
    check_dnn(api().cudnnConvolutionBackwardData(h, one, d.w, pw, d.y, py, d.conv, cudnnConvolutionBwdDataAlgo_t(c.algo),
                                                 ws, c.workspace, zero, d.x, px), "cudnnConvolutionBackwardData");
  else
    check_dnn(api().cudnnConvolutionBackwardFilter(h, one, d.x, px, d.y, py, d.conv,
                                                   cudnnConvolutionBwdFilterAlgo_t(c.algo), ws, c.workspace, zero, d.w,
                                                   pw), "cudnnConvolutionBackwardFilter");
}

}  // namespace

void convolution(Pass pass, const common::ConvParams& p, const Tensor& x, const Tensor& w, const Tensor& y) {
  AMPS_ASSERT(x.is_contiguous() && w.is_contiguous() && y.is_contiguous() && x.dtype() == w.dtype() &&
              x.dtype() == y.dtype(), "cudnn::convolution operands");
  const Device dev = x.device();
  cudnnHandle_t h = handle_for(dev);
  Descs d;
  set_descs(d, p, x, w, y);
  const Choice c = choose(pass, h, d, p, x, w, y);
  Tensor ws = c.workspace ? Tensor::empty({int64_t((c.workspace + 7) / 8)}, DType::int64, dev) : Tensor();
  run(pass, h, d, c, x, w, y, ws.defined() ? device_data(ws) : nullptr);
}

}  // namespace amps::rt::cuda::cudnn
