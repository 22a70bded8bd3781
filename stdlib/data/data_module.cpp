// The `data` module: datasets, loaders, Fashion-MNIST, synthetic ImageNet and CSV metrics logs.
#include "stdlib/data/fashion_mnist.hpp"
#include "stdlib/data/loader.hpp"
#include "stdlib/data/synthetic.hpp"
#include "stdlib/progress/csv_log.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib {

using namespace amps::interp;

void install_data(Interp& in) {
  in.def_module("data", [](Interp&, Module& m) {
    def(m, "TensorDataset", data::make_tensor_dataset);
    def(m, "DataLoader", data::make_data_loader);
    def(m, "default_collate", [](Interp& in, CallArgs& a) {
      ArgReader r(a, "default_collate", {"samples"});
      std::vector<Value> s;
      in.iterate(r.required(0), a.span, [&](Value v) { s.push_back(std::move(v)); return true; });
      if (s.empty()) Interp::fail("ValueError", "default_collate(): no samples", a.span);
      return data::collate(in, s, a.span);
    });
    def(m, "fashion_mnist", data::b_fashion_mnist);
    def(m, "FashionMNIST", data::b_fashion_mnist_dataset);
    m.attrs[intern("FASHION_MNIST_CLASSES")] = data::fashion_mnist_classes();
    def(m, "synthetic_imagenet", data::b_synthetic_imagenet);
    def(m, "CSVLogger", progress::b_csv_logger);
  });
}

}  // namespace amps::stdlib
