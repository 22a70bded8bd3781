// save/load of a whole model trained on cuda (torch.save(model) / torch.load): the loaded model (on the cpu, as every
// loaded tensor) moves back with .to(cuda), keeps its tied weight tied, computes what the saved one does and trains
// on; an optimizer saved with it keeps pointing at its parameters. Skips without a GPU.
#include <gtest/gtest.h>

#include <unistd.h>

#include "../embed/embed_util.hpp"
#include "amps/amps.hpp"

namespace {

using Captured = amps_test::CapturedCppVm;

TEST(CudaSaveModel, WholeModelRoundTripMovesBackAndTrains) {
  Captured c;
  ASSERT_TRUE(c.vm.run("print(cuda.available())"));
  if (c.out != "true\n") GTEST_SKIP() << "no GPU";
  c.out.clear();
  std::string path = "/tmp/amps_cuda_save_model_" + std::to_string(::getpid()) + ".pt";
  amps::Result r = c.vm.run(
      "import nn\n"
      "import optim\n"
      "import os\n"
      "class Tied(nn.Module) {\n"
      "  fn init(self) { super.init(); self.emb = nn.Embedding(7, 5); self.out = nn.Linear(5, 7); self.out.weight = self.emb.weight }\n"
      "  fn forward(self, ids) { return self.out(self.emb(ids).tanh()) }\n"
      "}\n"
      "manual_seed(0)\n"
      "let m = Tied().to(cuda)\n"
      "let opt = optim.Adam(m.parameters(), lr=0.01)\n"
      "let ids = tensor([[1, 2, 3], [4, 5, 6]], device=cuda)\n"
      "m(ids).logsumexp(-1).sum().backward()\n"
      "opt.step()\n"
      "save({\"model\": m, \"opt\": opt}, \"" + path + "\")\n"
      "let ck = load(\"" + path + "\")\n"
      "let m2 = ck[\"model\"].to(cuda)\n"
      "let o2 = ck[\"opt\"]\n"
      "print(m2.out.weight.device, m2.out.weight is m2.emb.weight, (m2(ids) - m(ids)).abs().max().item() == 0.0)\n"
      "print(o2.param_groups[0][\"params\"][0] is ck[\"model\"].emb.weight)\n"
      "m2.zero_grad()\n"
      "m2(ids).logsumexp(-1).sum().backward()\n"
      "print(m2.emb.weight.grad.device, m2.out.bias.grad is not none)\n"
      "os.remove(\"" + path + "\")\n",
      "cuda_save_model.amps");
  ASSERT_TRUE(r) << r.error->diagnostic;
  EXPECT_EQ(c.out, "cuda:0 true true\ntrue\ncuda:0 true\n");
}

}  // namespace
