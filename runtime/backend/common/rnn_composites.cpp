#include "runtime/backend/common/rnn_composites.hpp"

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// PyTorch's check_rnn_cell_forward_input / _hidden: input [B, input_size] (or [input_size]) against w_ih's columns,
// each hidden state [B, hidden_size] with the input's batch.
void check_cell(std::string_view op, const Tensor& x, const Tensors& hs, const Tensor& w_ih, const Tensor& w_hh,
                int64_t gates) {
  AMPS_CHECK(x.dim() == 1 || x.dim() == 2, "{}: Expected input to be 1D or 2D, got {}D instead", op, x.dim());
  AMPS_CHECK(w_ih.dim() == 2 && w_hh.dim() == 2 && w_hh.size(0) % gates == 0, "{}: weights must be 2-D, w_ih "
             "[{} * hidden_size, input_size] and w_hh [{} * hidden_size, hidden_size]; got {} and {}", op, gates,
             gates, format_shape(w_ih.sizes()), format_shape(w_hh.sizes()));
  AMPS_CHECK(x.size(-1) == w_ih.size(1), "input has inconsistent input_size: got {} expected {}", x.size(-1),
             w_ih.size(1));
  const int64_t hidden = w_hh.size(0) / gates;
  for (size_t i = 0; i < hs.size(); ++i) {
    const Tensor& h = hs[i];
    AMPS_CHECK(h.dim() == x.dim() && (x.dim() == 1 || h.size(0) == x.size(0)), "Input batch size {} doesn't match "
               "hidden{} batch size {}", x.dim() == 2 ? x.size(0) : 1, i, h.dim() == 2 ? h.size(0) : 1);
    AMPS_CHECK(h.size(-1) == hidden, "hidden{} has inconsistent hidden_size: got {}, expected {}", i, h.size(-1),
               hidden);
  }
}

// input @ w_ih^T + b_ih and h @ w_hh^T + b_hh (each bias optional).
Tensors gate_inputs(const ArgReader& a, const Tensor& h) {
  return {linear(a.tensor(0), a.tensor(2), a.opt_tensor(4)), linear(h, a.tensor(3), a.opt_tensor(5))};
}

Tensors chunks(const Tensor& t, int64_t n) { return dispatch(O::chunk, Args{t, n, int64_t(-1)}); }

}  // namespace

// lstm_cell(input, (h, c), w_ih, w_hh, b_ih, b_hh) -> (h', c'): gates i, f, g, o; c' = f * c + i * g,
// h' = o * tanh(c').
Tensors lstm_cell_math(Args& args) {
  ArgReader a(O::lstm_cell, args);
  const std::vector<Tensor> list = a.tensors(1);
  const Tensors hx(list.begin(), list.end());
  AMPS_CHECK(hx.size() == 2, "lstm_cell: hx must be a pair (h, c), got {} tensors", hx.size());
  check_cell("lstm_cell", a.tensor(0), hx, a.tensor(2), a.tensor(3), 4);
  const Tensors in = gate_inputs(a, hx[0]);
  const Tensors g = chunks(in[0] + in[1], 4);
  const Tensor c = sigmoid(g[1]) * hx[1] + sigmoid(g[0]) * tanh(g[2]);
  return {sigmoid(g[3]) * tanh(c), c};
}

// gru_cell(input, h, w_ih, w_hh, b_ih, b_hh) -> h': r = sigmoid(i_r + h_r), z = sigmoid(i_z + h_z),
// n = tanh(i_n + r * h_n), h' = n + z * (h - n) (PyTorch's form).
Tensors gru_cell_math(Args& args) {
  ArgReader a(O::gru_cell, args);
  const Tensor h = a.tensor(1);
  check_cell("gru_cell", a.tensor(0), {h}, a.tensor(2), a.tensor(3), 3);
  const Tensors in = gate_inputs(a, h);
  const Tensors gi = chunks(in[0], 3), gh = chunks(in[1], 3);
  const Tensor r = sigmoid(gi[0] + gh[0]), z = sigmoid(gi[1] + gh[1]);
  const Tensor n = tanh(gi[2] + r * gh[2]);
  return {n + z * (h - n)};
}

// rnn_tanh_cell / rnn_relu_cell(input, h, w_ih, w_hh, b_ih, b_hh) -> act(input @ w_ih^T + b_ih + h @ w_hh^T + b_hh).
Tensors rnn_tanh_cell_math(Args& args) {
  ArgReader a(O::rnn_tanh_cell, args);
  check_cell("rnn_tanh_cell", a.tensor(0), {a.tensor(1)}, a.tensor(2), a.tensor(3), 1);
  const Tensors in = gate_inputs(a, a.tensor(1));
  return {tanh(in[0] + in[1])};
}

Tensors rnn_relu_cell_math(Args& args) {
  ArgReader a(O::rnn_relu_cell, args);
  check_cell("rnn_relu_cell", a.tensor(0), {a.tensor(1)}, a.tensor(2), a.tensor(3), 1);
  const Tensors in = gate_inputs(a, a.tensor(1));
  return {relu(in[0] + in[1])};
}

}  // namespace amps::rt::common
