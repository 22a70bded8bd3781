// stdlib bindings through an embedded interpreter: the sandbox turns every file access into a
// PermissionError, while file-free parts (progress, loaders over tensors) keep working.
#include <gtest/gtest.h>

#include "amps/amps.hpp"
#include "tests/unit/stdlib/test_vms.hpp"

namespace amps::stdlib {
namespace {

using test::Sandboxed;

TEST(StdlibSandbox, FileAccessIsAPermissionError) {
  const char* calls[] = {
      "save(ones(2), \"/tmp/amps_sandbox.safetensors\")",
      "load(\"/tmp/amps_sandbox.safetensors\")",
      "load_metadata(\"/tmp/amps_sandbox.safetensors\")",
      "log_csv(\"/tmp/amps_sandbox.csv\", {\"a\": 1})",
      "import data; data.CSVLogger(\"/tmp/amps_sandbox.csv\", [\"a\"])",
      "import data; data.fashion_mnist(\"train\")",
      "import data; data.FashionMNIST(\"test\", root=\"/tmp\")",
      "import plot; plot.lines(\"/tmp/amps_sandbox.svg\", [1, 2])",
  };
  for (const char* code : calls) {
    Sandboxed s;
    std::string e = s.error(code);
    EXPECT_TRUE(e.starts_with("PermissionError: ")) << code << " -> " << e;
    EXPECT_NE(e.find("sandbox"), std::string::npos) << e;
  }
}

TEST(StdlibSandbox, FileFreePartsStillWork) {
  Sandboxed s;
  s.run("import data\n"
        "let n = 0\n"
        "for (x, y) in progress(data.DataLoader(data.TensorDataset(arange(5), arange(5)), batch_size=2), desc=\"b\") { n += x.shape[0] }\n"
        "print(n)\n");
  EXPECT_EQ(s.out, "5\n");
  EXPECT_NE(s.err.find("b: 3/3 (100%)"), std::string::npos) << s.err;
}

}  // namespace
}  // namespace amps::stdlib
