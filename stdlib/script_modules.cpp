// Registration of the stdlib modules written in amps (see script_modules.hpp).
#include "stdlib/script_modules.hpp"

#include <string>

#include "stdlib/embedded.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib {

extern const amps_reg nn_natives[];   // nn_native.cpp
extern const amps_reg data_images_natives[];   // data/png.cpp
extern const amps_reg random_natives[];        // random_mt.cpp
namespace re { extern const amps_reg re_natives[]; }  // re/re_module.cpp

void def_script_module(Vm& vm, const char* name, const amps_reg* natives) {
  std::string source(embedded_source(name));
  AMPS_STDLIB_ASSERT(!source.empty(), "stdlib module {} has no embedded source", name);
  register_module(vm, name, natives, source.c_str());
}

void install_script_modules(Vm& vm) {
  def_script_module(vm, "nn_module");  // Module, Parameter, nn.init (nn re-exports them)
  def_script_module(vm, "nn_conv");    // Conv1d/2d/3d, ConvTranspose1d/2d (nn re-exports them)
  def_script_module(vm, "nn_rnn");     // the recurrent layers (nn re-exports them)
  def_script_module(vm, "nn_interpolate");  // nn.functional.interpolate (per-dim scale_factor, area)
  def_script_module(vm, "nn_extra");   // PReLU, parameter containers, InstanceNorm, EmbeddingBag, ... (nn re-exports them)
  def_script_module(vm, "nn_extra2");  // RMSNorm, Bilinear, Fold/Unfold, gumbel_softmax, checkpoint (nn re-exports them)
  def_script_module(vm, "nn_pool");    // MaxPool3d, AvgPool3d, AdaptiveMaxPool, MaxUnpool, LPPool, ... (nn re-exports them)
  def_script_module(vm, "nn_layers");      // Dropout, activation, pooling and padding modules (nn re-exports them)
  def_script_module(vm, "nn_loss");        // the loss modules (nn re-exports them)
  def_script_module(vm, "nn_functional");  // nn.functional
  def_script_module(vm, "nn_attention");   // F.multi_head_attention_forward (nn.MultiheadAttention runs it)
  def_script_module(vm, "nn_extra3");           // Transformer, AlphaDropout, 3-d/circular pads, ... (nn re-exports them)
  def_script_module(vm, "nn_lazy");             // the Lazy* modules, made from nn's classes
  def_script_module(vm, "nn_fractional_pool");  // FractionalMaxPool2d/3d and their functional forms
  def_script_module(vm, "nn_prune");            // nn.utils.prune
  def_script_module(vm, "nn_parametrize");      // nn.utils.parametrize and parametrizations
  def_script_module(vm, "nn", nn_natives);
  def_script_module(vm, "optim_lr_scheduler");  // optim.lr_scheduler, optim.swa_utils (optim re-exports them)
  def_script_module(vm, "optim_base");   // Optimizer and parameter groups (optim re-exports them)
  def_script_module(vm, "optim_lbfgs");  // LBFGS (optim re-exports it)
  def_script_module(vm, "optim_extra");  // Rprop, ASGD, SparseAdam (optim re-exports them)
  def_script_module(vm, "optim");
  def_script_module(vm, "data_extra");  // Dataset, IterableDataset, Sampler, DistributedSampler, ... (data re-exports them)
  def_script_module(vm, "data_images", data_images_natives);  // make_grid, save_image, write_png (data re-exports them)
  def_script_module(vm, "autograd_gradcheck");  // autograd.gradcheck / gradgradcheck (autograd_tools re-exports them)
  def_script_module(vm, "autograd_tools");      // autograd.functional, gradcheck, Variable (the autograd module attaches them)
  def_script_module(vm, "dist");
  def_script_module(vm, "argparse_format");  // argparse's help and usage layout (argparse imports it)
  def_script_module(vm, "argparse");
  def_script_module(vm, "random", random_natives);  // Python's random module (CPython's Mersenne Twister numbers)
  def_script_module(vm, "collections");  // namedtuple, OrderedDict, defaultdict, Counter, deque
  def_script_module(vm, "copy");         // copy.copy, copy.deepcopy
  def_script_module(vm, "torchvision");  // torchvision.utils: make_grid, save_image (data_images)
  def_script_module(vm, "py_set");  // the core's `set` builtin (interp/builtins_set.cpp imports it on first use)
  def_script_module(vm, "distributions_base");  // constraints, Distribution (distributions re-exports them)
  def_script_module(vm, "distributions_core");  // Normal ... OneHotCategorical, kl_divergence (re-exported)
  def_script_module(vm, "distributions_transforms");  // transforms, biject_to/transform_to (re-exported)
  def_script_module(vm, "distributions_extra");   // TransformedDistribution, LogNormal, Cauchy, ... (re-exported)
  def_script_module(vm, "distributions_extra2");  // Poisson, Binomial, Multinomial, ... (re-exported)
  def_script_module(vm, "distributions_extra3");  // Relaxed*, LogisticNormal, MixtureSameFamily (re-exported)
  def_script_module(vm, "distributions_extra4");  // ContinuousBernoulli, VonMises, LowRankMultivariateNormal (re-exported)
  def_script_module(vm, "distributions");       // torch.distributions: gathers the above, more KL pairs
  def_script_module(vm, "re", re::re_natives);  // Python's re module (PCRE2 underneath, stdlib/re/)
  def_script_module(vm, "itertools");  // Python's itertools (count, chain, islice, product, ...)
}

}  // namespace amps::stdlib
