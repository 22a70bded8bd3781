// The recurrent cells as PyTorch defines them (implicit composites, see implicit_composites.hpp): lstm_cell,
// gru_cell, rnn_tanh_cell and rnn_relu_cell, each one time step of a batch ([B, input] or unbatched [input]).
// Written with linear, chunk, sigmoid and tanh, so the one definition is every backend's kernel and the cell's
// differentiable decomposition; autocast sees the cell itself (lower_precision_fp on cuda, PyTorch's list), as the
// nn.RNNCell/LSTMCell/GRUCell and nn.RNN/LSTM/GRU modules (stdlib/nn_rnn.amps) call it.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors lstm_cell_math(Args& args);
Tensors gru_cell_math(Args& args);
Tensors rnn_tanh_cell_math(Args& args);
Tensors rnn_relu_cell_math(Args& args);

}  // namespace amps::rt::common
