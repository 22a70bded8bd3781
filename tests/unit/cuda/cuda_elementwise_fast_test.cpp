// The elementwise kernels' paths (runtime/backend/cuda/elementwise_path.hpp): flat packs with vector loads for
// contiguous launches, the strided walk with 32-bit index math, and the 64-bit one. The path choice and the 32-bit
// divider are checked here on the CPU (CudaElementwisePath.*); the kernels on each path against the CPU backend
// (Cuda.Flat*, Cuda.Strided*: sizes around the pack width and its tails, misaligned and aligned views, broadcast
// 0-dim tensors and Python numbers, in-place ops and out=, every float dtype and some integer/bool ones), which
// skip without a GPU.
#include <gtest/gtest.h>

#include <limits>

#include "cuda_test_util.hpp"

#ifdef AMPS_HAVE_CUDA
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/backend/cuda/elementwise_path.hpp"
#endif

namespace amps::rt {
namespace {

using O = OpId;

#ifdef AMPS_HAVE_CUDA
using cuda::Path;

TEST(CudaElementwisePath, IntDivMatchesDivision) {
  std::vector<uint32_t> ds = {1, 2, 3, 5, 7, 12, 64, 255, 256, 257, 768, 3072, 65535, 65536, 65537, 1000003,
                              (1u << 30) - 1, 1u << 30, (1u << 30) + 1, (1u << 31) - 1};
  std::vector<uint32_t> ns = {0, 1, 2, 3, 1000, 65535, 65536, 123456789, (1u << 30) - 1, 1u << 30, (1u << 31) - 2,
                              (1u << 31) - 1};
  uint64_t state = 88172645463325252ull;  // xorshift64: more numerators and divisors, deterministic
  auto next = [&] { state ^= state << 13, state ^= state >> 7, state ^= state << 17; return uint32_t(state); };
  for (int k = 0; k < 2000; ++k) ds.push_back(1 + next() % ((1u << 31) - 1)), ds.push_back(1 + next() % 5000);
  for (int k = 0; k < 200; ++k) ns.push_back(next() % (1u << 31));
  for (uint32_t d : ds) {
    const cuda::IntDiv v = cuda::make_int_div(d);
    for (uint32_t n : ns) ASSERT_EQ(cuda::int_div(v, n), n / d) << n << " / " << d;
    for (uint32_t n : {d - 1, d, d + 1, 2 * d - 1, 2 * d, 3 * d}) {  // around the multiples, where rounding would show
      if (n >= (1u << 31)) continue;
      ASSERT_EQ(cuda::int_div(v, n), n / d) << n << " / " << d;
    }
  }
}

// offsets32 (the strided32 kernels' index math, the same code on the host) against the row-major walk in 64 bits.
TEST(CudaElementwisePath, Offsets32MatchTheWideWalk) {
  uint64_t state = 2463534242ull;
  auto next = [&] { state ^= state << 13, state ^= state >> 7, state ^= state << 17; return state; };
  for (int trial = 0; trial < 300; ++trial) {
    cuda::Shape sh;
    sh.ndim = int(next() % (cuda::kMaxDims + 1));
    cuda::Operand ops[3];
    for (int d = 0; d < sh.ndim; ++d) {
      sh.sizes[d] = 1 + int64_t(next() % (sh.ndim > 4 ? 3 : 9));
      sh.numel *= sh.sizes[d];
      for (cuda::Operand& o : ops) o.strides[d] = int64_t(next() % 3 == 0 ? 0 : next() % 2001) - (trial % 2 ? 1000 : 0);
    }
    for (cuda::Operand& o : ops) o.data = reinterpret_cast<void*>(uintptr_t(0x1000));
    ASSERT_TRUE(cuda::fits_32bit(sh, ops));
    const cuda::Walk w = cuda::make_walk(cuda::Path::strided32, sh, ops);
    for (int64_t i = 0; i < sh.numel; ++i) {
      int32_t off[3];
      cuda::offsets32(sh, w, ops, uint32_t(i), off);
      int64_t rest = i, want[3] = {0, 0, 0};
      for (int d = sh.ndim - 1; d >= 0; --d) {
        for (int k = 0; k < 3; ++k) want[k] += (rest % sh.sizes[d]) * ops[k].strides[d];
        rest /= sh.sizes[d];
      }
      for (int k = 0; k < 3; ++k) ASSERT_EQ(off[k], want[k]) << "trial " << trial << " index " << i;
    }
  }
}

cuda::Operand operand(uintptr_t address, std::initializer_list<int64_t> strides) {
  cuda::Operand o;
  o.data = reinterpret_cast<void*>(address);
  int d = 0;
  for (int64_t s : strides) o.strides[d++] = s;
  return o;
}

cuda::Shape shape_of(std::initializer_list<int64_t> sizes) {
  cuda::Shape sh;
  for (int64_t s : sizes) sh.sizes[sh.ndim++] = s, sh.numel *= s;
  return sh;
}

TEST(CudaElementwisePath, ChoosesFlatOnlyWhereEveryOperandFits) {
  const cuda::Shape n = shape_of({4097});
  const cuda::Operand out = operand(0x10000, {1}), in = operand(0x20000, {1});
  EXPECT_EQ(cuda::choose_path(n, {out, in}, {2, 2}, 8), Path::flat);
  EXPECT_EQ(cuda::choose_path(n, {out, operand(0x20002, {1})}, {2, 2}, 8), Path::strided32);  // x[1:] of f16
  EXPECT_EQ(cuda::choose_path(n, {out, operand(0x20010, {1})}, {2, 2}, 8), Path::flat);       // x[8:] of f16
  EXPECT_EQ(cuda::choose_path(n, {out, operand(0x20000, {0})}, {2, 2}, 8), Path::flat);       // a 0-dim tensor
  EXPECT_EQ(cuda::choose_path(n, {out, operand(0, {0})}, {2, 2}, 8), Path::flat);             // a Python number
  EXPECT_EQ(cuda::choose_path(n, {out, operand(0x20000, {2})}, {2, 2}, 8), Path::strided32);  // x[::2]
  EXPECT_EQ(cuda::choose_path(n, {operand(0x10000, {0}), in}, {2, 2}, 8), Path::strided32);   // output not stride 1
  EXPECT_EQ(cuda::choose_path(n, {operand(0x10008, {1}), in}, {1, 2}, 8), Path::flat);        // bool out, 8 aligned
  EXPECT_EQ(cuda::choose_path(n, {operand(0x10004, {1}), in}, {1, 2}, 8), Path::strided32);
  EXPECT_EQ(cuda::choose_path(shape_of({}), {operand(0x10000, {}), operand(0, {})}, {4, 4}, 4), Path::strided32);
  // rows: the innermost dim in whole packs, read with stride 1 or 0, aligned rows
  const cuda::Shape att = shape_of({12, 256, 256});
  const cuda::Operand att_out = operand(0x10000, {65536, 256, 1}), mask = operand(0x20000, {0, 256, 1});
  EXPECT_EQ(cuda::choose_path(att, {att_out, mask}, {2, 1}, 8), Path::rows);  // masked_fill's broadcast mask
  EXPECT_EQ(cuda::choose_path(att, {att_out, operand(0x20001, {0, 256, 1})}, {2, 1}, 8), Path::strided32);
  EXPECT_EQ(cuda::choose_path(att, {att_out, operand(0x20000, {0, 264, 1})}, {2, 1}, 8), Path::rows);  // padded rows
  EXPECT_EQ(cuda::choose_path(att, {att_out, operand(0x20000, {0, 260, 1})}, {2, 1}, 8), Path::strided32);  // misaligned
  EXPECT_EQ(cuda::choose_path(att, {att_out, operand(0x20000, {0, 1, 256})}, {2, 1}, 8), Path::strided32);  // transposed
  EXPECT_EQ(cuda::choose_path(shape_of({12, 255}), {operand(0x10000, {255, 1}), operand(0x20000, {255, 1})}, {2, 2}, 8),
            Path::strided32);  // rows not in whole packs
  EXPECT_EQ(cuda::choose_path(shape_of({12, 256}), {operand(0x10000, {256, 1}), operand(0x20000, {257, 1})}, {2, 2}, 8),
            Path::strided32);  // a [12, 256] slice of [12, 257]: rows misaligned
  const cuda::Shape rows = shape_of({64, 768});
  const cuda::Operand x = operand(0x10000, {768, 1}), mean = operand(0x20000, {1, 0}), number = operand(0, {0, 0});
  EXPECT_EQ(cuda::choose_path(rows, {x, x, mean}, {4, 4, 4}, 4), Path::rows);  // x - mean(x, -1, keepdim=True)
  EXPECT_EQ(cuda::make_walk(Path::rows, rows, {x, x, mean, number}).bcast, 0b1100u);
  EXPECT_EQ(cuda::make_walk(Path::flat, n, {out, in, operand(0x30000, {0}), number}).bcast, 0b1100u);
  EXPECT_EQ(cuda::choose_path(rows, {operand(0x10000, {0, 1}), x}, {4, 4}, 4), Path::rows);
  EXPECT_EQ(cuda::choose_path(rows, {operand(0x10000, {1, 0}), x}, {4, 4}, 4), Path::strided32);  // out not stride 1
  const cuda::Shape big = shape_of({(int64_t(1) << 31) + 5});
  EXPECT_EQ(cuda::choose_path(big, {operand(0x10000, {1}), operand(0x20000, {1})}, {1, 1}, 16), Path::strided64);
  const cuda::Shape three = shape_of({3});
  EXPECT_EQ(cuda::choose_path(three, {operand(0x10000, {1}), operand(0x20000, {int64_t(1) << 30})}, {1, 1}, 16),
            Path::strided64);  // offsets 0, 2^30, 2^31
  EXPECT_EQ(cuda::choose_path(three, {operand(0x10000, {1}), operand(0x20000, {(int64_t(1) << 30) - 1})}, {1, 1}, 16),
            Path::strided32);
  EXPECT_EQ(cuda::choose_path(shape_of({2, 3}), {operand(0x10000, {3, 1}), operand(0x20000, {-(int64_t(1) << 31), 1})},
                              {1, 1}, 16), Path::strided64);
}
#endif

const int64_t kSizes[] = {1, 3, 4, 5, 1023, 4097, (int64_t(1) << 20) + 3};
const double kNaN = std::numeric_limits<double>::quiet_NaN(), kInf = std::numeric_limits<double>::infinity();

// Runs [op] on [cpu] and on [gpu] (the same values, on cuda, perhaps as views) and compares the outputs.
::testing::AssertionResult agree(OpId op, Args cpu, Args gpu, int64_t k = 1) {
  Tensors want = dispatch(op, cpu), got = dispatch(op, gpu);
  if (want.size() != got.size()) return ::testing::AssertionFailure() << "output count differs";
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i].device() != kCuda) return ::testing::AssertionFailure() << op_name(op) << ": output on the host";
    if (got[i].dtype() != want[i].dtype()) return ::testing::AssertionFailure() << op_name(op) << ": dtype differs";
    auto [atol, rtol] = tolerance(want[i].dtype(), k);
    ::testing::AssertionResult r = test::all_close(got[i], want[i], atol, rtol);
    if (!r) return r << " (" << op_name(op) << ", " << dtype_name(want[i].dtype()) << ", " << want[i].numel() << ")";
  }
  return ::testing::AssertionSuccess();
}

// 1-D [x] (CPU) on cuda as a view [shift] elements into a longer buffer: shift 1 misaligns every pack, shift 8
// keeps 16-byte alignment for 2-byte and wider types.
Tensor on_cuda_at(const Tensor& x, int64_t shift) {
  Tensor buf = input({x.numel() + shift}, x.dtype(), 0.9);
  buf.slice(0, shift, shift + x.numel()).copy_(x);
  return buf.to(kCuda).slice(0, shift, shift + x.numel());
}

// Values in about [-3, 3].
Tensor values(int64_t n, DType t, double phase = 0.0) { return input({n}, t, phase, 0.0, 3.0); }

// values() with a NaN, infinities and signed zeros near the start (for ops whose special cases the CPU and the
// device share exactly: sign games, comparisons, selections, casts).
Tensor specials(int64_t n, DType t, double phase = 0.0) {
  Tensor x = values(n, t, phase);
  const double special[] = {kNaN, kInf, -kInf, -0.0, 0.0};
  for (int64_t i = 0; i < 5 && i < n; ++i) x.slice(0, i, i + 1).copy_(Tensor::scalar(Scalar(special[i]), t));
  return x;
}

Tensor positive(const Tensor& x) { return gt(x, Scalar(0.0)); }

TEST_F(Cuda, FlatUnaryOpsMatchTheCpuAtEverySize) {
  for (DType t : kFloats)
    for (int64_t n : kSizes) {
      const Tensor x = values(n, t), s = specials(n, t);
      for (const char* mode : {"none", "tanh"})
        EXPECT_TRUE(same_on_cuda(O::gelu, {x, std::string(mode)}, 4)) << n;
      for (O op : {O::exp, O::sigmoid, O::tanh, O::sqrt}) EXPECT_TRUE(same_on_cuda(op, {x}, 4)) << op_name(op) << " " << n;
      for (O op : {O::neg, O::abs, O::relu, O::isnan, O::isfinite, O::floor})
        EXPECT_TRUE(same_on_cuda(op, {s})) << op_name(op) << " " << n;
      EXPECT_TRUE(same_on_cuda(O::clamp, {s, Scalar(-1.0), Scalar(0.5)})) << n;
      if (n > 5000) continue;  // digamma/polygamma always take the strided path (launch_unary): a few sizes
      const Tensor pos = input({n}, t, 0.3, 2.0, 1.5);
      EXPECT_TRUE(same_on_cuda(O::digamma, {pos}, 4)) << n;
      EXPECT_TRUE(same_on_cuda(O::polygamma, {int64_t(1), pos}, 4)) << n;
    }
  for (DType t : {DType::int64, DType::int32, DType::uint8, DType::int8, DType::bool_})
    for (int64_t n : {int64_t(5), int64_t(4097)}) {
      const Tensor x = input({n}, t, 0.3, 0.0, 100.0);
      for (O op : {O::abs, O::sign, O::logical_not}) EXPECT_TRUE(same_on_cuda(op, {x})) << op_name(op);
      if (t == DType::bool_) continue;
      for (O op : {O::neg, O::relu}) EXPECT_TRUE(same_on_cuda(op, {x})) << op_name(op);
    }
}

TEST_F(Cuda, FlatBinaryOpsMatchTheCpuAtEverySize) {
  for (DType t : kFloats)
    for (int64_t n : kSizes) {
      const Tensor x = values(n, t), y = input({n}, t, 0.7, 0.5), s = specials(n, t);
      const Tensor zero_dim = make({1.25}, Dims{}, t);
      for (O op : {O::add, O::sub, O::mul, O::div, O::maximum, O::lt, O::eq})
        EXPECT_TRUE(same_on_cuda(op, {s, y})) << op_name(op) << " " << n;
      for (O op : {O::add, O::sub, O::mul, O::div, O::maximum, O::lt, O::eq, O::pow}) {
        EXPECT_TRUE(same_on_cuda(op, {x, y}, 2)) << op_name(op) << " " << n;
        EXPECT_TRUE(same_on_cuda(op, {x, wrap_number(Scalar(0.125))}, 2)) << op_name(op) << " " << n;  // Python number
        EXPECT_TRUE(same_on_cuda(op, {x, zero_dim}, 2)) << op_name(op) << " " << n;  // a 0-dim cuda tensor
        EXPECT_TRUE(same_on_cuda(op, {zero_dim, y}, 2)) << op_name(op) << " " << n;  // broadcast first operand
      }
      EXPECT_TRUE(same_on_cuda(O::add, {x, y, Scalar(2.5)}, 2)) << n;  // alpha
      EXPECT_TRUE(same_on_cuda(O::sub, {x, y, Scalar(-0.5)}, 2)) << n;
    }
  for (DType t : {DType::int64, DType::int32, DType::uint8, DType::int16, DType::bool_})
    for (int64_t n : {int64_t(5), int64_t(4097)}) {
      const Tensor x = input({n}, t, 0.1, 0.0, 50.0), y = input({n}, t, 0.8, 0.0, 9.0);
      for (O op : {O::add, O::mul, O::eq, O::maximum, O::logical_and}) {
        if (op == O::maximum && t == DType::bool_) continue;
        EXPECT_TRUE(same_on_cuda(op, {x, y})) << op_name(op) << " " << dtype_name(t);
        EXPECT_TRUE(same_on_cuda(op, {x, wrap_number(Scalar(int64_t(3)))})) << op_name(op) << " " << dtype_name(t);
      }
    }
  EXPECT_TRUE(same_on_cuda(O::add, {input({4097}, DType::int32), input({4097}, DType::float16)}));  // promotion
}

TEST_F(Cuda, FlatTernaryOpsMatchTheCpuAtEverySize) {
  for (DType t : kFloats)
    for (int64_t n : kSizes) {
      const Tensor x = values(n, t), y = input({n}, t, 0.7), z = input({n}, t, 0.2, 1.5, 0.5), s = specials(n, t);
      const Tensor cond = positive(input({n}, DType::float32, 0.4));
      EXPECT_TRUE(same_on_cuda(O::where, {cond, s, y})) << n;
      EXPECT_TRUE(same_on_cuda(O::masked_fill, {s, cond, Scalar(2.0)})) << n;
      EXPECT_TRUE(same_on_cuda(O::threshold_backward, {y, s, Scalar(0.0)})) << n;
      EXPECT_TRUE(same_on_cuda(O::where, {cond, x, wrap_number(Scalar(-2.0))})) << n;
      EXPECT_TRUE(same_on_cuda(O::masked_fill, {x, cond, Scalar(-1e4)})) << n;
      EXPECT_TRUE(same_on_cuda(O::threshold_backward, {y, x, Scalar(0.0)})) << n;
      EXPECT_TRUE(same_on_cuda(O::addcmul, {x, y, z, Scalar(0.5)}, 2)) << n;
      EXPECT_TRUE(same_on_cuda(O::addcdiv, {x, y, z, Scalar(-0.5)}, 2)) << n;
      EXPECT_TRUE(same_on_cuda(O::lerp, {x, y, z}, 2)) << n;
      EXPECT_TRUE(same_on_cuda(O::gelu_backward, {y, x, std::string("none")}, 4)) << n;
      EXPECT_TRUE(same_on_cuda(O::gelu_backward, {y, x, std::string("tanh")}, 4)) << n;
    }
  const Tensor c = positive(input({4097}, DType::float32, 0.4)), d = positive(input({4097}, DType::float32, 0.9));
  EXPECT_TRUE(same_on_cuda(O::where, {c, input({4097}, DType::int64), input({4097}, DType::int64, 0.5)}));
  EXPECT_TRUE(same_on_cuda(O::where, {c, c, d}));
}

TEST_F(Cuda, FlatCastsMatchTheCpuAtEverySize) {
  const DType all[] = {DType::float32, DType::float16, DType::bfloat16, DType::float64, DType::int64, DType::int32,
                       DType::uint8, DType::bool_};
  for (int64_t n : kSizes)
    for (DType from : all)
      for (DType to : all) {
        const Tensor x = is_floating(from) ? specials(n, from) : input({n}, from, 0.2, 0.0, 100.0);
        if (is_floating(from) && !is_floating(to) && to != DType::bool_) continue;  // NaN/inf to integers: undefined
        EXPECT_TRUE(same_on_cuda(O::to, {x, to})) << dtype_name(from) << " -> " << dtype_name(to) << " " << n;
      }
  for (DType from : kFloats)  // finite floats to integers (truncation, wrap-around into uint8)
    for (DType to : {DType::int64, DType::int32, DType::uint8})
      EXPECT_TRUE(same_on_cuda(O::to, {input({4097}, from, 0.2, 0.0, 100.0), to})) << dtype_name(from);
}

// Misaligned views (x[1:]: the strided path), aligned ones at an offset (x[8:]: flat), strided and broadcast operands.
TEST_F(Cuda, ViewsTakeTheStridedPathOrStayFlat) {
  for (DType t : kFloats)
    for (int64_t n : {int64_t(4), int64_t(1023), int64_t(4097)})
      for (int64_t shift : {1, 8}) {
        const Tensor x = values(n, t), y = input({n}, t, 0.7);
        const Tensor xv = on_cuda_at(x, shift), yv = on_cuda_at(y, shift);
        EXPECT_TRUE(agree(O::gelu, {x, std::string("none")}, {xv, std::string("none")}, 4)) << shift;
        EXPECT_TRUE(agree(O::mul, {x, wrap_number(Scalar(0.125))}, {xv, wrap_number(Scalar(0.125))})) << shift;
        EXPECT_TRUE(agree(O::add, {x, y}, {xv, y.to(kCuda)})) << shift;  // one operand shifted
        EXPECT_TRUE(agree(O::add, {x, y}, {xv, yv})) << shift;
        EXPECT_TRUE(agree(O::isnan, {x}, {xv})) << shift;
        EXPECT_TRUE(agree(O::to, {x, DType::float32}, {xv, DType::float32})) << shift;
        EXPECT_TRUE(agree(O::gelu_backward, {y, x, std::string("none")}, {yv, xv, std::string("none")}, 4)) << shift;
        const Tensor cond = positive(y);
        EXPECT_TRUE(agree(O::where, {cond, x, y}, {on_cuda_at(cond, shift), xv, y.to(kCuda)})) << shift;
      }
  for (DType t : kFloats) {
    const Tensor a = input({6, 40, 33}, t), row = input({33}, t, 0.5);
    EXPECT_TRUE(same_on_cuda(O::add, {a, row}));  // broadcast row, not in whole packs: strided32
    const Tensor ad = a.to(kCuda), b = input({33, 40, 6}, t, 0.3);
    EXPECT_TRUE(agree(O::mul, {a.transpose(0, 2), b}, {ad.transpose(0, 2), b.to(kCuda)}));  // transposed on the device
    EXPECT_TRUE(agree(O::exp, {a.slice(2, 0, 33, 2)}, {ad.slice(2, 0, 33, 2)}, 4));  // every other element
    EXPECT_TRUE(agree(O::to, {a.transpose(1, 2), DType::float32}, {ad.transpose(1, 2), DType::float32}));
    EXPECT_TRUE(agree(O::to, {a.transpose(1, 2), DType::float16}, {ad.transpose(1, 2), DType::float16}));
  }
}

// The rows path (the innermost dim in whole packs, read with stride 1 or broadcast) and its neighbours that fall back.
TEST_F(Cuda, RowBroadcastsTakeTheRowsPath) {
  for (DType t : kFloats) {
    const Tensor a = input({6, 40, 32}, t), row = input({32}, t, 0.5), col = input({6, 40, 1}, t, 0.8, 1.5, 0.5);
    for (O op : {O::add, O::sub, O::mul, O::div, O::maximum, O::gt}) {
      EXPECT_TRUE(same_on_cuda(op, {a, row}, 2)) << op_name(op);  // a bias row
      EXPECT_TRUE(same_on_cuda(op, {a, col}, 2)) << op_name(op);  // x - mean(x, -1, keepdim=True)
      EXPECT_TRUE(same_on_cuda(op, {col, a}, 2)) << op_name(op);
    }
    EXPECT_TRUE(same_on_cuda(O::add, {a, row, Scalar(-1.5)}, 2));
    EXPECT_TRUE(same_on_cuda(O::gelu_backward, {a, row, std::string("none")}, 4));
    EXPECT_TRUE(same_on_cuda(O::addcmul, {a, row, col, Scalar(0.5)}, 2));
    EXPECT_TRUE(same_on_cuda(O::threshold_backward, {a, col, Scalar(1.75)}));
    const Tensor att = input({2, 3, 16, 16}, t), mask = positive(input({16, 16}, DType::float32, 0.2));
    EXPECT_TRUE(same_on_cuda(O::masked_fill, {att, mask, Scalar(-1e4)}));  // the GPT block's broadcast mask
    EXPECT_TRUE(same_on_cuda(O::where, {mask, att, wrap_number(Scalar(0.0))}));
    EXPECT_TRUE(same_on_cuda(O::where, {mask, wrap_number(Scalar(1.0)), att}));
    // device views: a [6, 40, 32] slice of [6, 40, 64] keeps its rows aligned (rows), one of [6, 40, 33] does not
    const Tensor wide = input({6, 40, 64}, t, 0.1), odd = input({6, 40, 33}, t, 0.2);
    const Tensor wd = wide.to(kCuda), od = odd.to(kCuda);
    for (int64_t start : {0, 8, 1}) {
      EXPECT_TRUE(agree(O::mul, {wide.slice(2, start, start + 32), row}, {wd.slice(2, start, start + 32), row.to(kCuda)}))
          << start;
      EXPECT_TRUE(agree(O::to, {wide.slice(2, start, start + 32), DType::float32},
                        {wd.slice(2, start, start + 32), DType::float32})) << start;
      EXPECT_TRUE(agree(O::neg, {wide.slice(2, start, start + 32)}, {wd.slice(2, start, start + 32)})) << start;
    }
    EXPECT_TRUE(agree(O::add, {odd.slice(2, 0, 32), row}, {od.slice(2, 0, 32), row.to(kCuda)}));
    Tensor inplace = wd.slice(2, 8, 40), ref = wide.slice(2, 8, 40).clone();
    dispatch(O::mul_, {inplace, col.to(kCuda)});  // in place into an aligned row view
    dispatch(O::mul_, {ref, col});
    EXPECT_TRUE(test::all_close(inplace, ref, 0, 0));
    EXPECT_TRUE(test::all_close(wd.slice(2, 0, 8), wide.slice(2, 0, 8), 0, 0));  // the rest untouched
  }
  for (DType t : {DType::int64, DType::int32, DType::uint8, DType::bool_}) {
    const Tensor a = input({8, 48}, t, 0.1, 0.0, 20.0), row = input({48}, t, 0.6, 0.0, 20.0);
    EXPECT_TRUE(same_on_cuda(O::add, {a, row})) << dtype_name(t);
    EXPECT_TRUE(same_on_cuda(O::eq, {a, row})) << dtype_name(t);
    EXPECT_TRUE(same_on_cuda(O::to, {a.transpose(0, 1), DType::float32})) << dtype_name(t);
  }
}

#ifdef AMPS_HAVE_CUDA
// The path of a binary launch of cuda tensors [x] and [y] into [out] (one dtype), as launch_binary chooses it.
Path path_of(const Tensor& out, const Tensor& x, const Tensor& y) {
  cuda::Launch l = cuda::make_launch(out.sizes(), {&out, &x, &y});
  const int b = int(out.element_size());
  return cuda::choose_path(l.shape, {l.ops[0], l.ops[1], l.ops[2]}, {b, b, b}, cuda::pack_elems(b));
}

// The cases above take the paths they are meant to test (device addresses decide alignment).
TEST_F(Cuda, TestedLaunchesTakeTheirPaths) {
  for (DType t : kFloats) {
    const Tensor x = input({4105}, t).to(kCuda), y = input({4097}, t).to(kCuda);
    const Tensor out = Tensor::empty({4097}, t, kCuda), row = input({32}, t).to(kCuda);
    EXPECT_EQ(path_of(out, x.slice(0, 0, 4097), y), Path::flat) << dtype_name(t);
    EXPECT_EQ(path_of(out, x.slice(0, 8, 4105), y), Path::flat) << dtype_name(t);  // x[8:]
    EXPECT_EQ(path_of(out, x.slice(0, 1, 4098), y), Path::strided32) << dtype_name(t);  // x[1:]
    EXPECT_EQ(path_of(out, wrap_number(Scalar(2.0)).to(t), y), Path::flat) << dtype_name(t);
    const Tensor a = input({6, 40, 32}, t).to(kCuda), wide = input({6, 40, 64}, t).to(kCuda);
    const Tensor out3 = Tensor::empty({6, 40, 32}, t, kCuda);
    EXPECT_EQ(path_of(out3, a, row), Path::rows) << dtype_name(t);
    EXPECT_EQ(path_of(out3, a, input({6, 40, 1}, t).to(kCuda)), Path::rows) << dtype_name(t);
    EXPECT_EQ(path_of(out3, wide.slice(2, 8, 40), row), Path::rows) << dtype_name(t);
    EXPECT_EQ(path_of(out3, wide.slice(2, 1, 33), row), Path::strided32) << dtype_name(t);
    EXPECT_EQ(path_of(Tensor::empty({6, 40, 33}, t, kCuda), input({6, 40, 33}, t).to(kCuda), input({33}, t).to(kCuda)),
              Path::strided32) << dtype_name(t);
  }
}
#endif

TEST_F(Cuda, InPlaceAndOutOpsOnEveryPath) {
  for (DType t : kFloats)
    for (int64_t n : {int64_t(5), int64_t(4097)}) {
      const Tensor x = values(n, t), y = input({n}, t, 0.7);
      const Tensor twice = add(x, x), back = mul(twice, Tensor::scalar(Scalar(0.5), t));
      Tensor dx = x.to(kCuda);
      dispatch(O::add_, {dx, dx, Scalar(1)});  // the same tensor read twice and written
      EXPECT_TRUE(test::all_close(dx, twice, 0, 0)) << n;
      dispatch(O::mul_, {dx, wrap_number(Scalar(0.5))});
      EXPECT_TRUE(test::all_close(dx, back, 0, 0)) << n;
      Tensor view = on_cuda_at(x, 1), ref = x.clone();
      dispatch(O::add_, {view, y.to(kCuda), Scalar(2.0)});  // in place into a misaligned view
      dispatch(O::add_, {ref, y, Scalar(2.0)});
      EXPECT_TRUE(test::all_close(view, ref, 0, 0)) << n;
      Tensor out = Tensor::empty({n}, t, kCuda);
      Tensors r = dispatch(O::add, {x.to(kCuda), y.to(kCuda), Scalar(1), out});
      EXPECT_TRUE(r[0].is_same(out));
      EXPECT_TRUE(test::all_close(out, add(x, y), 0, 0)) << n;
      EXPECT_TRUE(same_on_cuda(O::mul, {x, y, Tensor::empty({0}, t)})) << n;  // out= resized
    }
}

// Element offsets past 2^31 (a 2 GiB buffer read every 2^30 elements) take the 64-bit strided path.
TEST_F(Cuda, StridedOffsetsPast32BitsUseTheWidePath) {
  const int64_t n = (int64_t(1) << 31) + 16;
  Tensor big = zeros({n}, DType::uint8, kCuda);
  Tensor v = big.slice(0, 0, n, int64_t(1) << 30);  // elements 0, 2^30 and 2^31
  ASSERT_EQ(v.numel(), 3);
#ifdef AMPS_HAVE_CUDA
  cuda::Launch l = cuda::make_launch(v.sizes(), {&v, &v});
  EXPECT_EQ(cuda::choose_path(l.shape, {l.ops[0], l.ops[1]}, {1, 1}, 16), cuda::Path::strided64);
#endif
  dispatch(O::add_, {v, wrap_number(Scalar(int64_t(5))), Scalar(1)});
  EXPECT_TRUE(test::all_close(v, make({5, 5, 5}, {3}, DType::uint8), 0, 0));
  EXPECT_TRUE(test::all_close(big.slice(0, 1, 2), make({0}, {1}, DType::uint8), 0, 0));  // its neighbour untouched
  EXPECT_TRUE(test::all_close(mul(v, v), make({25, 25, 25}, {3}, DType::uint8), 0, 0));
  EXPECT_TRUE(test::all_close(v.to(DType::float32), make({5, 5, 5}, {3}, DType::float32), 0, 0));
  EXPECT_TRUE(test::all_close(neg(v.to(DType::int32)), make({-5, -5, -5}, {3}, DType::int32), 0, 0));
}

}  // namespace
}  // namespace amps::rt
