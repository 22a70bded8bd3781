// Tests for Tensor/TensorImpl: creation, metadata, views sharing storage and version counters, devices.
#include <gtest/gtest.h>

#include "runtime/autograd_meta.hpp"
#include "runtime/context.hpp"
#include "runtime/functions.hpp"
#include "runtime/print.hpp"
#include "runtime/shape.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::all_close;
using test::make;
using test::throws_error;

TEST(Tensor, EmptyHasContiguousStrides) {
  Tensor t = Tensor::empty({2, 3, 4});
  EXPECT_EQ(t.strides(), (Dims{12, 4, 1}));
  EXPECT_EQ(t.numel(), 24);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.dtype(), DType::float32);
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_TRUE(throws_error([&] { t.size(3); }, "IndexError", "Dimension out of range"));
}

TEST(Tensor, ViewsShareStorageAndVersion) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor v = a.view({3, 2});
  Tensor tr = a.t();
  EXPECT_EQ(v.storage(), a.storage());
  EXPECT_EQ(tr.storage(), a.storage());
  EXPECT_FALSE(tr.is_contiguous());
  uint32_t before = a.version();
  v.fill_(7.0);
  EXPECT_GT(a.version(), before);
  EXPECT_EQ(tr.version(), a.version());
  EXPECT_TRUE(all_close(a, {7, 7, 7, 7, 7, 7}));
}

TEST(Tensor, TransposeAndSliceReadCorrectElements) {
  Tensor a = make({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  EXPECT_TRUE(all_close(a.t().contiguous(), {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  EXPECT_TRUE(all_close(a.slice(1, 1, std::nullopt, 2), {1, 3, 5, 7, 9, 11}));
  EXPECT_TRUE(all_close(a.slice(0, -2, std::nullopt), {4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_TRUE(all_close(a.select(1, -1), {3, 7, 11}));
  EXPECT_TRUE(all_close(a.narrow(0, 1, 1), {4, 5, 6, 7}));
  EXPECT_TRUE(all_close(a.permute({1, 0}), a.t()));
}

TEST(Tensor, ReshapeCopiesOnlyWhenNeeded) {
  Tensor a = make({0, 1, 2, 3, 4, 5}, {2, 3});
  EXPECT_EQ(a.reshape({6}).storage(), a.storage());
  Tensor t = a.t();
  Tensor r = t.reshape({6});
  EXPECT_NE(r.storage(), a.storage());
  EXPECT_TRUE(all_close(r, {0, 3, 1, 4, 2, 5}));
  EXPECT_TRUE(throws_error([&] { t.view({6}); }, "RuntimeError", "view size is not compatible"));
  EXPECT_TRUE(throws_error([&] { a.view({4, -1}); }, "RuntimeError", "shape '[4, -1]' is invalid for input of size 6"));
  EXPECT_EQ(a.view({-1, 2}).sizes(), (Dims{3, 2}));
}

TEST(Tensor, ExpandUnsqueezeSqueezeFlatten) {
  Tensor a = make({1, 2, 3}, {3});
  Tensor e = a.unsqueeze(0).expand({2, 3});
  EXPECT_EQ(e.strides(), (Dims{0, 1}));
  EXPECT_TRUE(all_close(e.contiguous(), {1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(a.unsqueeze(1).sizes(), (Dims{3, 1}));
  EXPECT_EQ(Tensor::empty({1, 3, 1}).squeeze().sizes(), (Dims{3}));
  EXPECT_EQ(Tensor::empty({1, 3, 1}).squeeze(0).sizes(), (Dims{3, 1}));
  EXPECT_EQ(Tensor::empty({2, 3, 4}).flatten(1).sizes(), (Dims{2, 12}));
  EXPECT_TRUE(throws_error([&] { a.expand({2, 4}); }, "RuntimeError", "must match the existing size (3)"));
}

TEST(Tensor, ItemAndHostSyncCount) {
  Tensor s = make({2.5}, {});
  uint64_t before = current_context().host_syncs();
  EXPECT_EQ(s.item().to_double(), 2.5);
  EXPECT_EQ(current_context().host_syncs(), before + 1);
  EXPECT_TRUE(throws_error([&] { make({1, 2}, {2}).item(); }, "RuntimeError", "2 elements cannot be converted"));
}

TEST(Tensor, RequiresGradOnlyForFloats) {
  Tensor f = make({1}, {1});
  f.set_requires_grad(true);
  EXPECT_TRUE(f.requires_grad());
  EXPECT_TRUE(f.is_leaf());
  Tensor i = make({1}, {1}, DType::int64);
  EXPECT_TRUE(throws_error([&] { i.set_requires_grad(true); }, "RuntimeError", "floating point dtype"));
  EXPECT_FALSE(make({1}, {1}).requires_grad());
}

TEST(Shape, BroadcastRulesAndErrors) {
  EXPECT_EQ(broadcast_shapes({2, 1, 3}, {4, 1}, "add"), (Dims{2, 4, 3}));
  EXPECT_EQ(broadcast_shapes({}, {5}, "add"), (Dims{5}));
  EXPECT_TRUE(throws_error([] { broadcast_shapes({2, 3}, {4}, "add"); }, "RuntimeError",
                           "add: shapes (2, 3) and (4,) are not broadcastable"));
  EXPECT_EQ(format_shape({}), "()");
  EXPECT_EQ(format_shape({4}), "(4,)");
}

TEST(Device, ParsingPrintingAndAvailability) {
  EXPECT_EQ(device_str(Device::cpu()), "cpu");
  EXPECT_EQ(device_str(device_from_string("cuda")), "cuda:0");
  EXPECT_EQ(device_str(device_from_string("xla")), "xla:0");
  EXPECT_EQ(device_str(device_from_string("xpu:1")), "xpu:1");
  EXPECT_TRUE(throws_error([] { device_from_string("tpu"); }, "RuntimeError", "Expected one of cpu, cuda, xla, xpu"));
  EXPECT_FALSE(cuda_available());
  EXPECT_TRUE(throws_error([] { Tensor::empty({2}, DType::float32, Device::cuda()); }, "RuntimeError",
                           "CUDA is not available"));
}

TEST(Device, EmulatedDevicesKeepTheirTagAndRejectMixing) {
  Device xla = device_from_string("xla:0");
  Tensor a = make({1, 2}, {2});
  Tensor x = a.to(xla);
  EXPECT_EQ(x.device(), xla);
  EXPECT_NE(x.storage(), a.storage());
  EXPECT_EQ((x + x).device(), xla);
  EXPECT_TRUE(all_close(x + x, {2, 4}));
  EXPECT_TRUE(throws_error([&] { return a + x; }, "RuntimeError",
                           "Expected all tensors to be on the same device, but found at least two devices, cpu and xla:0!"));
  EXPECT_EQ((x + make({1}, {})).device(), xla);  // a 0-dim cpu tensor may join
  EXPECT_NE(tensor_repr(x).find("device='xla:0'"), std::string::npos);
}

TEST(Factories, ZerosOnesFullArangeEye) {
  EXPECT_TRUE(all_close(zeros({2, 2}), {0, 0, 0, 0}));
  EXPECT_TRUE(all_close(ones({3}, DType::bfloat16), {1, 1, 1}));
  EXPECT_EQ(full({2}, int64_t(3)).dtype(), DType::int64);
  EXPECT_EQ(full({2}, 3.5).dtype(), DType::float32);
  EXPECT_TRUE(all_close(arange(int64_t(5)), {0, 1, 2, 3, 4}));
  EXPECT_EQ(arange(int64_t(5)).dtype(), DType::int64);
  EXPECT_TRUE(all_close(arange(1.0, 2.0, 0.25), {1, 1.25, 1.5, 1.75}));
  EXPECT_TRUE(all_close(eye(2, 3), {1, 0, 0, 0, 1, 0}));
}

}  // namespace
}  // namespace amps::rt
