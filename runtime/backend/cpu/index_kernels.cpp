// CPU kernels for integer indexing: index_select, gather, index_copy(_), embedding, one_hot.
#include "runtime/backend/common/index_layout.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

// Index values as int64 with range checks against [size] (negative indices count from the end).
std::vector<int64_t> checked_indices(const Tensor& index, int64_t size, std::string_view op) {
  AMPS_CHECK(index.dtype() == DType::int64 || index.dtype() == DType::int32, "{}(): Expected dtype int32/int64 for "
             "index but got: {}", op, dtype_name(index.dtype()));
  std::vector<int64_t> out;
  for (double d : index.to_doubles()) {
    int64_t i = int64_t(d);
    AMPS_CHECK_INDEX(i >= -size && i < size, "index {} is out of bounds for dimension with size {}", i, size);
    out.push_back(i < 0 ? i + size : i);
  }
  return out;
}

Tensor index_select_impl(const Tensor& x, int64_t dim_arg, const Tensor& index, Device dev) {
  const common::IndexSelectLayout l = common::index_select_layout(x, dim_arg, index);
  std::vector<int64_t> idx = checked_indices(index, l.l.size, "index_select");
  Tensor out = Tensor::empty(l.out_shape, x.dtype(), dev);
  if (x.dim() == 0) {
    copy_into(out, x);
    return out;
  }
  for (size_t k = 0; k < idx.size(); ++k) copy_into(native::select(out, l.l.dim, int64_t(k)), native::select(x, l.l.dim, idx[k]));
  return out;
}

Tensors k_index_select(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(index_select_impl(a.tensor(0), a.i64(1), a.tensor(2), kc.device));
}

Tensors k_gather(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0), index = a.tensor(2);
  const int64_t dim = common::check_gather(x, a.i64(1), index);
  Tensor xc = contiguous(x), out = Tensor::empty(index.sizes(), x.dtype(), kc.device);
  std::vector<int64_t> idx = checked_indices(index, x.size(dim), "gather");
  const Dims xs = contiguous_strides(x.sizes()), is = contiguous_strides(index.sizes());
  AMPS_DISPATCH_ALL(x.dtype(), T, [&] {
    const T* in = xc.data<T>();
    T* o = out.data<T>();
    for (int64_t flat = 0; flat < index.numel(); ++flat) {
      int64_t src = 0, rem = flat;
      for (size_t d = 0; d < is.size(); ++d) {
        int64_t coord = rem / is[d];
        rem %= is[d];
        src += (int64_t(d) == dim ? idx[size_t(flat)] : coord) * xs[d];
      }
      o[flat] = in[src];
    }
  });
  return one_tensor(out);
}

// Writes source slices into [target] at index positions along dim.
void index_copy_into(const Tensor& target, int64_t dim_arg, const Tensor& index, const Tensor& source) {
  const int64_t dim = common::check_index_copy(target, dim_arg, index, source);
  std::vector<int64_t> idx = checked_indices(index, target.size(dim), "index_copy");
  for (size_t k = 0; k < idx.size(); ++k)
    copy_into(native::select(target, dim, idx[k]), native::select(source, dim, int64_t(k)));
}

Tensors k_index_copy(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  Tensor out = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  copy_into(out, x);
  index_copy_into(out, a.i64(1), a.tensor(2), a.tensor(3));
  return one_tensor(out);
}

Tensors k_index_copy_(const ArgReader& a, const KernelContext&) {
  Tensor x = a.tensor(0);
  index_copy_into(x, a.i64(1), a.tensor(2), a.tensor(3));
  return one_tensor(x);
}

Tensors k_embedding(const ArgReader& a, const KernelContext& kc) {
  Tensor input = a.tensor(0), weight = a.tensor(1);
  common::check_embedding(input, weight);
  Tensor flat = index_select_impl(weight, 0, reshape(input, {-1}), kc.device);
  return one_tensor(native::view(flat, common::embedding_shape(input, weight)));
}

Tensors k_one_hot(const ArgReader& a, const KernelContext& kc) {
  Tensor input = a.tensor(0);
  AMPS_CHECK(input.dtype() == DType::int64, "one_hot is only applicable to index tensor of type LongTensor.");
  std::vector<double> v = input.to_doubles();
  int64_t n = a.i64(1);
  if (n == -1) {
    AMPS_CHECK(!v.empty(), "Can not infer total number of classes from empty tensor.");
    for (double d : v) n = std::max(n, int64_t(d) + 1);
  }
  Dims shape = input.sizes();
  shape.push_back(n);
  Tensor out = Tensor::empty(shape, DType::int64, kc.device);
  fill(out, Scalar(int64_t(0)));
  for (size_t i = 0; i < v.size(); ++i) {
    int64_t c = int64_t(v[i]);
    AMPS_CHECK(c >= 0 && c < n, "Class values must be non-negative and smaller than num_classes ({}), got {}", n, c);
    out.data<int64_t>()[int64_t(i) * n + c] = 1;
  }
  return one_tensor(out);
}

}  // namespace

void register_index_kernels(KernelTable& t) {
  t.add(OpId::index_select, k_index_select);
  t.add(OpId::gather, k_gather);
  t.add(OpId::index_copy, k_index_copy);
  t.add(OpId::index_copy_, k_index_copy_);
  t.add(OpId::embedding, k_embedding, dtype_bit(DType::int64) | dtype_bit(DType::int32));
  t.add(OpId::one_hot, k_one_hot, dtype_bit(DType::int64));
}

}  // namespace amps::rt::cpu
