// Shared helpers of the CUDA kernel tests: the skip-without-a-GPU fixture, per-dtype tolerances and
// same_on_cuda(), which runs one op on the CPU and on cuda and compares every output.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "../runtime/test_util.hpp"
#include "runtime/arg_reader.hpp"
#include "runtime/backend/backend.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

#ifdef AMPS_HAVE_CUDA
namespace amps::rt::cuda {
uint64_t host_reads();  // runtime/backend/cuda/elementwise.cpp
}
#endif

namespace amps::rt {

// Device values the CUDA backend has read on the host so far (0 without CUDA support).
inline uint64_t cuda_host_reads() {
#ifdef AMPS_HAVE_CUDA
  return cuda::host_reads();
#else
  return 0;
#endif
}

using test::make;
using test::wavy;

inline const Device kCuda = Device::cuda(0);
inline const DType kFloats[] = {DType::float32, DType::float16, DType::bfloat16, DType::float64};

class Cuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_available()) GTEST_SKIP() << "no CUDA GPU present";
  }
};

// Absolute and relative tolerance for results of [t] (inputs of magnitude ~1, [k] terms summed).
inline std::pair<double, double> tolerance(DType t, int64_t k = 1) {
  const double grow = std::sqrt(double(std::max<int64_t>(k, 1)));
  switch (t) {
    case DType::float64: return {1e-12 * grow, 1e-12};
    case DType::float32: return {1e-5 * grow, 1e-5};
    case DType::float16: return {2e-3 * grow, 2e-3};
    case DType::bfloat16: return {1.6e-2 * grow, 1.6e-2};
    default: return {0.0, 0.0};
  }
}

// [v] with its tensors moved to cuda (wrapped Python numbers stay host scalars, as a script passes them).
inline IValue to_cuda(const IValue& v) {
  if (v.is_tensor() && v.tensor().defined() && !v.tensor().impl()->is_wrapped_number) return v.tensor().to(kCuda);
  if (v.kind() == IValue::Kind::tensor_list) {
    std::vector<Tensor> ts;
    for (const Tensor& t : v.tensors()) ts.push_back(t.to(kCuda));
    return ts;
  }
  return v;
}

// Runs [op] on the CPU and on cuda and compares every output (shape, dtype, values within tolerance).
inline ::testing::AssertionResult same_on_cuda(OpId op, const Args& cpu_args, int64_t k = 1) {
  Args a = cpu_args, b;
  for (const IValue& v : cpu_args) b.push_back(to_cuda(v));
  Tensors want = dispatch(op, a), got = dispatch(op, b);
  if (want.size() != got.size()) return ::testing::AssertionFailure() << "output count differs";
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i].device() != kCuda) return ::testing::AssertionFailure() << op_name(op) << ": output on " << device_str(got[i].device());
    if (got[i].dtype() != want[i].dtype())
      return ::testing::AssertionFailure() << op_name(op) << ": dtype " << dtype_name(got[i].dtype()) << " vs " << dtype_name(want[i].dtype());
    auto [atol, rtol] = tolerance(want[i].dtype(), k);
    ::testing::AssertionResult r = test::all_close(got[i], want[i], atol, rtol);
    if (!r) return r << " (" << op_name(op) << ", " << dtype_name(want[i].dtype()) << ")";
  }
  return ::testing::AssertionSuccess();
}

// Deterministic values in about [shift - scale, shift + scale].
inline Tensor input(const Dims& shape, DType t, double phase = 0.0, double shift = 0.0, double scale = 1.0) {
  std::vector<double> v = wavy(numel_of(shape), phase);
  for (double& x : v) x = x * scale + shift;
  return make(v, shape, t);
}

}  // namespace amps::rt
