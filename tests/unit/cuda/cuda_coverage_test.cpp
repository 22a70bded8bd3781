// Coverage without a GPU: every op the examples and the benchmark scripts dispatch (run here on the CPU with their
// smoke arguments, forward, backward and optimizer steps alike) has a CUDA kernel for the dtype it ran in, so a
// script that runs on the CPU does not stop on cuda with "... not implemented for ... on cuda". It reads the CUDA
// backend's kernel table, which needs no device.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "interp/embed/handles.hpp"
#include "interp/interp.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"
#include "stdlib/install.hpp"
#ifdef AMPS_HAVE_CUDA
#include "runtime/backend/cuda/cuda_backend.hpp"
#endif

namespace amps::rt {
namespace {

namespace fs = std::filesystem;

// Records (op, dtype of its first tensor argument) for every op dispatched below autograd.
class OpRecorder final : public DispatchLayer {
 public:
  std::set<std::pair<OpId, DType>> seen;
  std::string_view name() const override { return "op_recorder"; }
  Tensors call(OpId op, Args& args, const Next& next) override {
    for (const IValue& v : args) {
      if (v.is_tensor() && v.tensor().defined()) { seen.insert({op, v.tensor().dtype()}); break; }
      if (v.kind() == IValue::Kind::tensor_list && !v.tensors().empty()) { seen.insert({op, v.tensors()[0].dtype()}); break; }
    }
    return next(op, args);
  }
};

// The words after `# smoke-args:` in [script] (the arguments its smoke test runs it with).
std::vector<std::string> smoke_args(const fs::path& script) {
  std::ifstream in(script);
  std::string line;
  std::vector<std::string> words;
  while (std::getline(in, line)) {
    const size_t at = line.find("smoke-args:");
    if (at == std::string::npos) continue;
    std::istringstream rest(line.substr(at + 11));
    for (std::string w; rest >> w;) words.push_back(w);
    break;
  }
  // Outputs go to a scratch folder, not where the example's own smoke test (maybe running now) writes.
  for (size_t i = 0; i + 1 < words.size(); ++i)
    if (words[i] == "--out") words[i + 1] = (fs::temp_directory_path() / "amps_cuda_coverage" / script.stem()).string();
  return words;
}

// Runs [script] from the source tree root (examples read lib/ and data paths from there); the ops it dispatched.
std::set<std::pair<OpId, DType>> ops_of(const fs::path& script, std::vector<std::string> args) {
  interp::InterpConfig cfg;
  cfg.script_args = std::move(args);
  cfg.sinks.out = [](std::string_view) {};
  cfg.sinks.err = [](std::string_view) {};
  interp::Interp in(cfg);
  stdlib::install_stdlib(interp::embed::handle_of(in));
  auto recorder = std::make_shared<OpRecorder>();
  in.runtime().add_layer(recorder, layer_order::autograd + 1);
  in.run_file(script.string());
  return recorder->seen;
}

TEST(CudaCoverage, EveryOpOfTheExamplesAndBenchmarksHasACudaKernel) {
#ifndef AMPS_HAVE_CUDA
  GTEST_SKIP() << "built without the CUDA backend";
#else
  const fs::path root = AMPS_SOURCE_DIR;
  if (!fs::exists(root / "examples")) GTEST_SKIP() << "no source tree at " << root;
  const fs::path old_cwd = fs::current_path();
  fs::current_path(root);
  std::vector<std::pair<fs::path, std::vector<std::string>>> scripts;
  for (const auto& e : fs::directory_iterator(root / "examples"))
    if (e.path().extension() == ".amps") scripts.push_back({e.path(), smoke_args(e.path())});
  scripts.push_back({root / "bench/gpt_block.amps", {"1", "2", "8", "32", "2", "1", "64"}});
  scripts.push_back({root / "bench/mlp.amps", {"1"}});
  scripts.push_back({root / "bench/cnn.amps", {"1"}});
  for (const auto& [script, args] : scripts) {
    SCOPED_TRACE(script.filename().string());
    // The main job reads Debian's Fashion-MNIST files (`make test` installs them here; the GPU machine lacks them).
    if (script.filename() == "fashion_mnist_amp.amps" && !fs::exists("/usr/share/datasets/fashion-mnist")) {
      std::printf("note: %s left out: no Fashion-MNIST files on this machine\n", script.filename().c_str());
      continue;
    }
    std::set<std::pair<OpId, DType>> seen;
    try {
      seen = ops_of(script, args);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "the script failed on the CPU: " << e.what();
    }
    for (const auto& [op, dtype] : seen)
      EXPECT_TRUE(cuda::kernel_table().supports(op, dtype)) << op_name(op) << " (" << dtype_name(dtype) << ") has no CUDA kernel";
  }
  fs::current_path(old_cwd);
#endif
}

// Every op of the table has a CUDA kernel (composed, or run on the host where none is native): a new op without one
// fails this test.
TEST(CudaCoverage, EveryOpHasACudaKernel) {
#ifndef AMPS_HAVE_CUDA
  GTEST_SKIP() << "built without the CUDA backend";
#else
  for (int i = 0; i < op_count; ++i)
    EXPECT_TRUE(cuda::kernel_table().get(OpId(i)) != nullptr) << op_name(OpId(i)) << " has no CUDA kernel";
#endif
}

}  // namespace
}  // namespace amps::rt
