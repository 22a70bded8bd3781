// Typed C++ entry points for the rest of amps (amp/, stdlib, autograd rules): each builds the schema's
// argument list and goes through dispatch(), so dispatch layers see every call. Defaults follow ops.def.
#pragma once

#include <optional>
#include <string>

#include "runtime/tensor.hpp"

namespace amps::rt {

// ---- factories ----
Tensor zeros(const Dims& size, DType dtype = DType::float32, Device device = Device::cpu());
Tensor ones(const Dims& size, DType dtype = DType::float32, Device device = Device::cpu());
Tensor full(const Dims& size, Scalar value, std::optional<DType> dtype = std::nullopt, Device device = Device::cpu());
Tensor arange(Scalar start, std::optional<Scalar> end = std::nullopt, Scalar step = int64_t(1),
              std::optional<DType> dtype = std::nullopt, Device device = Device::cpu());
Tensor eye(int64_t n, std::optional<int64_t> m = std::nullopt, DType dtype = DType::float32,
           Device device = Device::cpu());
Tensor rand(const Dims& size, DType dtype = DType::float32, Device device = Device::cpu());
Tensor randn(const Dims& size, DType dtype = DType::float32, Device device = Device::cpu());
Tensor randint(int64_t low, int64_t high, const Dims& size, DType dtype = DType::int64, Device device = Device::cpu());
Tensor randperm(int64_t n, DType dtype = DType::int64, Device device = Device::cpu());
Tensor zeros_like(const Tensor& t);
Tensor ones_like(const Tensor& t);
Tensor full_like(const Tensor& t, Scalar value);
// Seeds the current context's generator (torch.manual_seed).
void manual_seed(uint64_t seed);

// ---- elementwise ----
Tensor add(const Tensor& a, const Tensor& b, Scalar alpha = int64_t(1));
Tensor sub(const Tensor& a, const Tensor& b, Scalar alpha = int64_t(1));
Tensor mul(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Tensor& b, std::optional<std::string> rounding_mode = std::nullopt);
Tensor pow(const Tensor& a, const Tensor& exponent);
Tensor maximum(const Tensor& a, const Tensor& b);
Tensor minimum(const Tensor& a, const Tensor& b);
Tensor eq(const Tensor& a, const Tensor& b);
Tensor ne(const Tensor& a, const Tensor& b);
Tensor lt(const Tensor& a, const Tensor& b);
Tensor le(const Tensor& a, const Tensor& b);
Tensor gt(const Tensor& a, const Tensor& b);
Tensor ge(const Tensor& a, const Tensor& b);
// Comparisons against a Python number (wrapped as a 0-dim tensor).
Tensor eq(const Tensor& a, Scalar b);
Tensor ne(const Tensor& a, Scalar b);
Tensor lt(const Tensor& a, Scalar b);
Tensor le(const Tensor& a, Scalar b);
Tensor gt(const Tensor& a, Scalar b);
Tensor ge(const Tensor& a, Scalar b);
Tensor neg(const Tensor& a);
Tensor abs(const Tensor& a);
Tensor sqrt(const Tensor& a);
Tensor rsqrt(const Tensor& a);
Tensor exp(const Tensor& a);
Tensor log(const Tensor& a);
Tensor tanh(const Tensor& a);
Tensor sigmoid(const Tensor& a);
Tensor relu(const Tensor& a);
Tensor gelu(const Tensor& a, const std::string& approximate = "none");
Tensor silu(const Tensor& a);
Tensor clamp(const Tensor& a, std::optional<Scalar> min, std::optional<Scalar> max);
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
Tensor masked_fill(const Tensor& a, const Tensor& mask, Scalar value);
Tensor isfinite(const Tensor& a);
Tensor addcmul(const Tensor& a, const Tensor& t1, const Tensor& t2, Scalar value = int64_t(1));
Tensor addcdiv(const Tensor& a, const Tensor& t1, const Tensor& t2, Scalar value = int64_t(1));
Tensor lerp(const Tensor& a, const Tensor& end, const Tensor& weight);
// In-place variants return their first argument.
Tensor& add_(Tensor& a, const Tensor& b, Scalar alpha = int64_t(1));
Tensor& sub_(Tensor& a, const Tensor& b, Scalar alpha = int64_t(1));
Tensor& mul_(Tensor& a, const Tensor& b);
Tensor& div_(Tensor& a, const Tensor& b);
Tensor& addcmul_(Tensor& a, const Tensor& t1, const Tensor& t2, Scalar value = int64_t(1));
Tensor& addcdiv_(Tensor& a, const Tensor& t1, const Tensor& t2, Scalar value = int64_t(1));
Tensor& lerp_(Tensor& a, const Tensor& end, const Tensor& weight);
Tensor& clamp_(Tensor& a, std::optional<Scalar> min, std::optional<Scalar> max);

// ---- reductions (dim = nullopt reduces everything) ----
Tensor sum(const Tensor& a, std::optional<Dims> dim = std::nullopt, bool keepdim = false,
           std::optional<DType> dtype = std::nullopt);
Tensor mean(const Tensor& a, std::optional<Dims> dim = std::nullopt, bool keepdim = false);
Tensor prod(const Tensor& a, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor max(const Tensor& a);
Tensor min(const Tensor& a);
// (values, indices) along [dim].
std::pair<Tensor, Tensor> max(const Tensor& a, int64_t dim, bool keepdim = false);
std::pair<Tensor, Tensor> min(const Tensor& a, int64_t dim, bool keepdim = false);
Tensor argmax(const Tensor& a, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmin(const Tensor& a, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor var(const Tensor& a, std::optional<Dims> dim = std::nullopt, int64_t correction = 1, bool keepdim = false);
Tensor std(const Tensor& a, std::optional<Dims> dim = std::nullopt, int64_t correction = 1, bool keepdim = false);
Tensor norm(const Tensor& a, Scalar p = 2.0, std::optional<Dims> dim = std::nullopt, bool keepdim = false);
Tensor all(const Tensor& a);
Tensor any(const Tensor& a);

// ---- shape ----
Tensor cat(const std::vector<Tensor>& ts, int64_t dim = 0);
Tensor stack(const std::vector<Tensor>& ts, int64_t dim = 0);
Tensor index_select(const Tensor& a, int64_t dim, const Tensor& index);
Tensor index_copy(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& source);
Tensor embedding(const Tensor& input, const Tensor& weight);
Tensor one_hot(const Tensor& input, int64_t num_classes = -1);

// ---- nn ----
Tensor matmul(const Tensor& a, const Tensor& b);
Tensor mm(const Tensor& a, const Tensor& b);
Tensor bmm(const Tensor& a, const Tensor& b);
Tensor addmm(const Tensor& input, const Tensor& m1, const Tensor& m2, Scalar beta = int64_t(1),
             Scalar alpha = int64_t(1));
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = Tensor());
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias = Tensor(), Dims stride = {1},
              Dims padding = {0}, Dims dilation = {1}, int64_t groups = 1);
Tensor max_pool2d(const Tensor& input, Dims kernel_size, Dims stride = {}, Dims padding = {0});
Tensor avg_pool2d(const Tensor& input, Dims kernel_size, Dims stride = {}, Dims padding = {0});
Tensor softmax(const Tensor& a, int64_t dim);
Tensor log_softmax(const Tensor& a, int64_t dim);
Tensor layer_norm(const Tensor& input, Dims normalized_shape, const Tensor& weight = Tensor(),
                  const Tensor& bias = Tensor(), double eps = 1e-5);
Tensor dropout(const Tensor& input, double p = 0.5, bool training = true);
Tensor cross_entropy(const Tensor& input, const Tensor& target, const std::string& reduction = "mean",
                     double label_smoothing = 0.0);
Tensor mse_loss(const Tensor& input, const Tensor& target, const std::string& reduction = "mean");

// ---- operators ----
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a);
Tensor operator+(const Tensor& a, Scalar b);
Tensor operator-(const Tensor& a, Scalar b);
Tensor operator*(const Tensor& a, Scalar b);
Tensor operator/(const Tensor& a, Scalar b);

}  // namespace amps::rt
