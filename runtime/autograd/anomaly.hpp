// Anomaly detection (torch.autograd.set_detect_anomaly): while it is on, every recorded node remembers where its
// forward op ran (the host's text for the current source position), and backward refuses a node whose gradient
// holds NaN, naming the node (PyTorch's message) and that position. Off by default: it reads every gradient on
// the host.
#pragma once

#include <functional>
#include <string>

#include "runtime/autograd/node.hpp"
#include "runtime/context.hpp"

namespace amps::rt::autograd {

void set_detect_anomaly(bool on);
bool anomaly_enabled();
// [fn] gives the current source position as text ("train.amps:12:5") for the nodes [ctx] records (defined in
// layer.cpp: the provider belongs to the context's autograd layer, so each interpreter names its own positions).
void set_anomaly_site_provider(Context& ctx, std::function<std::string()> fn);
// RuntimeError when an output gradient [out] of node [n] holds NaN (anomaly mode only; the caller checks).
void check_anomaly(const GradNode& n, const Tensors& out);

}  // namespace amps::rt::autograd
