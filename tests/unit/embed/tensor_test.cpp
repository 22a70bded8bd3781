// Tensors across the API: wrapping host buffers without a copy (and when they are released),
// copies, strided layouts, reading back, and the misuse errors of wrong dtypes and sizes.
#include <cstdlib>
#include <vector>

#include "embed_util.hpp"

using amps_test::CapturedVm;

namespace {

void count_release(void* user, void*) { ++*static_cast<int*>(user); }

amps_value* global(amps_vm* vm, const char* name) {
  amps_value* v = nullptr;
  EXPECT_EQ(amps_get_global(vm, name, &v), AMPS_OK) << amps_last_error(vm)->diagnostic;
  return v;
}

}  // namespace

TEST(EmbedTensor, WrapSharesTheHostBufferAndReleasesItOnce) {
  std::vector<float> buf = {1, 2, 3, 4, 5, 6};
  int released = 0;
  {
    CapturedVm t;
    int64_t shape[] = {2, 3};
    amps_value* x = nullptr;
    ASSERT_EQ(amps_tensor_wrap(t.vm, buf.data(), AMPS_FLOAT32, 2, shape, nullptr, count_release, &released, &x), AMPS_OK);
    ASSERT_EQ(amps_set_global(t.vm, "x", x), AMPS_OK);
    amps_release(x);
    t.ok("x.mul_(10.0)\nprint(x.sum().item())");
    EXPECT_EQ(t.out, "210.0\n");
    EXPECT_EQ(buf[5], 60.0f);   // written in place
    EXPECT_EQ(released, 0);     // the vm still holds x
  }
  EXPECT_EQ(released, 1);
}

TEST(EmbedTensor, WrappedTensorsMayOutliveTheirVm) {
  std::vector<double> buf = {1, 2};
  int released = 0;
  amps_value* y = nullptr;
  {
    CapturedVm t;
    int64_t shape[] = {2};
    amps_value* x = nullptr;
    ASSERT_EQ(amps_tensor_wrap(t.vm, buf.data(), AMPS_FLOAT64, 1, shape, nullptr, count_release, &released, &x), AMPS_OK);
    y = amps_retain(x);
    amps_release(x);
  }
  EXPECT_EQ(released, 0);
  amps_release(y);
  EXPECT_EQ(released, 1);
}

TEST(EmbedTensor, StridedWrapAndCopyReadBackInRowMajorOrder) {
  CapturedVm t;
  std::vector<int32_t> buf = {1, 2, 3, 4, 5, 6};   // a 2x3 row-major matrix, viewed transposed
  int64_t shape[] = {3, 2}, strides[] = {1, 3};
  amps_value *w = nullptr, *c = nullptr;
  ASSERT_EQ(amps_tensor_wrap(t.vm, buf.data(), AMPS_INT32, 2, shape, strides, nullptr, nullptr, &w), AMPS_OK);
  ASSERT_EQ(amps_tensor_copy(t.vm, buf.data(), AMPS_INT32, 2, shape, strides, &c), AMPS_OK);
  buf[0] = 100;   // the copy does not see this; the wrap does
  std::vector<int32_t> got(6);
  ASSERT_EQ(amps_tensor_read(t.vm, w, AMPS_INT32, got.data(), 24), AMPS_OK);
  EXPECT_EQ(got, (std::vector<int32_t>{100, 4, 2, 5, 3, 6}));
  ASSERT_EQ(amps_tensor_read(t.vm, c, AMPS_INT32, got.data(), 24), AMPS_OK);
  EXPECT_EQ(got, (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));
  amps_tensor_info info{};
  ASSERT_EQ(amps_tensor_info_get(t.vm, w, &info), AMPS_OK);
  EXPECT_EQ(info.dtype, AMPS_INT32);
  EXPECT_EQ(info.ndim, 2u);
  EXPECT_EQ(info.strides[1], 3);
  EXPECT_EQ(info.data, buf.data());
  EXPECT_STREQ(info.device, "cpu");
  amps_release(w);
  amps_release(c);
}

TEST(EmbedTensor, ScriptTensorsComeBackToTheHost) {
  CapturedVm t;
  t.ok("let y = tensor([[1.0, 2.0], [3.0, 4.0]]).bfloat16() * 2\nlet loss = y.float().mean()");
  amps_value *y = global(t.vm, "y"), *loss = global(t.vm, "loss");
  EXPECT_EQ(amps_typeof(y), AMPS_TYPE_TENSOR);
  uint16_t raw[4];
  ASSERT_EQ(amps_tensor_read(t.vm, y, AMPS_BFLOAT16, raw, sizeof raw), AMPS_OK);
  EXPECT_EQ(raw[0], 0x4000);   // 2.0 in bfloat16
  double d = 0;
  ASSERT_EQ(amps_to_float(t.vm, loss, &d), AMPS_OK);
  EXPECT_EQ(d, 5.0);
  EXPECT_EQ(amps_to_float(t.vm, y, &d), AMPS_ERROR_MISUSE);   // four elements
  amps_release(y);
  amps_release(loss);
}

TEST(EmbedMisuse, WrongDtypeOrSizeBuffersAreErrors) {
  CapturedVm t;
  t.ok("let y = ones(3)");
  amps_value* y = global(t.vm, "y");
  double d[3];
  EXPECT_EQ(amps_tensor_read(t.vm, y, AMPS_FLOAT64, d, sizeof d), AMPS_ERROR_MISUSE);
  EXPECT_NE(t.message().find("the tensor is float32, the buffer's dtype is float64"), std::string::npos) << t.message();
  float f[2];
  EXPECT_EQ(amps_tensor_read(t.vm, y, AMPS_FLOAT32, f, sizeof f), AMPS_ERROR_MISUSE);
  EXPECT_NE(t.message().find("needs a buffer of 12 bytes, got 8"), std::string::npos) << t.message();
  EXPECT_EQ(amps_tensor_read(t.vm, y, amps_dtype(42), f, sizeof f), AMPS_ERROR_MISUSE);
  int64_t shape[] = {2}, neg[] = {-1};
  amps_value* x = nullptr;
  EXPECT_EQ(amps_tensor_wrap(t.vm, f, amps_dtype(42), 1, shape, nullptr, nullptr, nullptr, &x), AMPS_ERROR_MISUSE);
  EXPECT_NE(t.message().find("dtype 42 is not an amps_dtype"), std::string::npos) << t.message();
  EXPECT_EQ(amps_tensor_wrap(t.vm, f, AMPS_FLOAT32, 1, neg, nullptr, nullptr, nullptr, &x), AMPS_ERROR_MISUSE);
  EXPECT_EQ(amps_tensor_wrap(t.vm, nullptr, AMPS_FLOAT32, 1, shape, nullptr, nullptr, nullptr, &x), AMPS_ERROR_MISUSE);
  EXPECT_EQ(amps_tensor_copy(t.vm, f, AMPS_FLOAT32, 1, nullptr, nullptr, &x), AMPS_ERROR_MISUSE);
  amps_value* s = amps_str("no", 2);
  amps_tensor_info info;
  EXPECT_EQ(amps_tensor_info_get(t.vm, s, &info), AMPS_ERROR_MISUSE);
  EXPECT_NE(t.message().find("expected a tensor, got str"), std::string::npos) << t.message();
  EXPECT_EQ(x, nullptr);
  amps_release(s);
  amps_release(y);
}

struct AllocCounts { int allocs = 0, frees = 0; };

TEST(EmbedTensor, HostAllocatorServesTheVmsTensors) {
  AllocCounts counts;
  {
    CapturedVm t(false, [&](amps_config& c) {
      c.alloc_user = &counts;
      c.alloc = [](void* u, size_t n) { ++static_cast<AllocCounts*>(u)->allocs; return std::aligned_alloc(64, (n + 63) / 64 * 64); };
      c.free = [](void* u, void* p) { ++static_cast<AllocCounts*>(u)->frees; std::free(p); };
    });
    t.ok("let a = ones(4, 4)\nlet b = a @ a\nprint(b.sum().item())");
    EXPECT_EQ(t.out, "64.0\n");
    EXPECT_GE(counts.allocs, 2);
  }
  EXPECT_EQ(counts.allocs, counts.frees);
}
