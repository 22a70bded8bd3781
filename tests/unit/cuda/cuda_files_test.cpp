// The data file writers and readers with cuda tensors: save_npy / save_npz copy a cuda tensor (any layout) to
// the host bit-exactly, and loaded tensors (npy, loadtxt, from_file(device=cuda)) move to cuda unchanged.
// Skips without a GPU.
#include <gtest/gtest.h>

#include <unistd.h>

#include "../embed/embed_util.hpp"
#include "amps/amps.hpp"

namespace {

using Captured = amps_test::CapturedCppVm;

TEST(CudaFiles, NpyNpzLoadtxtFromFileMatchTheCpu) {
  Captured c;
  ASSERT_TRUE(c.vm.run("print(cuda.available())"));
  if (c.out != "true\n") GTEST_SKIP() << "no GPU";
  c.out.clear();
  std::string dir = "/tmp/amps_cuda_files_" + std::to_string(::getpid());
  amps::Result r = c.vm.run(
      "import data\n"
      "import os\n"
      "let d = \"" + dir + "\"\n"
      "os.makedirs(d, exist_ok=true)\n"
      "let t = (arange(24, dtype=float32) * 0.3).cos().reshape(2, 3, 4)\n"
      "fn same(x, y) { return x.dtype == y.dtype and x.shape == y.shape and (x == y).all().item() }\n"
      "for dt in [float32, float16, float64, int32, int64] {\n"
      "  let g = t.to(dt).to(cuda).transpose(0, 2)\n"
      "  data.save_npy(d + \"/a.npy\", g)\n"
      "  data.save_npz(d + \"/b.npz\", g=g)\n"
      "  assert same(data.load_npy(d + \"/a.npy\"), g.cpu()), str(dt)\n"
      "  assert same(data.load_npz(d + \"/b.npz\")[\"g\"].to(cuda), g), str(dt)\n"
      "}\n"
      "let f = open(d + \"/c.txt\", \"w\")\n"
      "f.write(\"1 2\\n3 4\\n\")\n"
      "f.close()\n"
      "assert same(data.loadtxt(d + \"/c.txt\").to(cuda).cpu(), tensor([[1.0, 2.0], [3.0, 4.0]]))\n"
      "let m = from_file(d + \"/m.bin\", true, 4)\n"
      "m.copy_(arange(4, dtype=float32))\n"
      "m = none\n"
      "let onc = from_file(d + \"/m.bin\", size=4, device=cuda)\n"
      "print(onc.device, same(onc.cpu(), arange(4, dtype=float32)))\n"
      "for n in os.listdir(d) { os.remove(d + \"/\" + n) }\n"
      "os.rmdir(d)\n",
      "cuda_files.amps");
  ASSERT_TRUE(r) << r.error->diagnostic;
  EXPECT_EQ(c.out, "cuda:0 true\n");
}

}  // namespace
