// The file functions added with open(), os, glob and the data readers: in a sandboxed interpreter each one
// that touches a file, a directory, the working or home directory raises PermissionError; os.path's string
// functions still work and os.environ is empty.
#include <gtest/gtest.h>

#include "amps/amps.hpp"
#include "tests/unit/stdlib/test_vms.hpp"

namespace amps::stdlib {
namespace {

using test::Sandboxed;

TEST(FilesSandbox, EveryFileAccessIsAPermissionError) {
  const char* calls[] = {
      "open(\"/tmp/amps_sandbox.txt\")",
      "open(\"/tmp/amps_sandbox.txt\", \"w\")",
      "from_file(\"/tmp/amps_sandbox.bin\", size=1)",
      "import os; os.path.exists(\"/tmp\")",
      "import os; os.path.isfile(\"/tmp\")",
      "import os; os.path.isdir(\"/tmp\")",
      "import os; os.path.getsize(\"/tmp\")",
      "import os; os.path.abspath(\"x\")",
      "import os; os.path.expanduser(\"~\")",
      "import os; os.listdir(\"/tmp\")",
      "import os; os.makedirs(\"/tmp/amps_sandbox_dir\", exist_ok=true)",
      "import os; os.mkdir(\"/tmp/amps_sandbox_dir\")",
      "import os; os.rmdir(\"/tmp/amps_sandbox_dir\")",
      "import os; os.remove(\"/tmp/amps_sandbox.txt\")",
      "import os; os.rename(\"/tmp/amps_sandbox.txt\", \"/tmp/amps_sandbox2.txt\")",
      "import os; os.getcwd()",
      "import glob; glob.glob(\"/tmp/*\")",
      "import data; data.loadtxt(\"/tmp/amps_sandbox.txt\")",
      "import data; data.load_npy(\"/tmp/amps_sandbox.npy\")",
      "import data; data.save_npy(\"/tmp/amps_sandbox.npy\", ones(2))",
      "import data; data.load_npz(\"/tmp/amps_sandbox.npz\")",
      "import data; data.save_npz(\"/tmp/amps_sandbox.npz\", x=ones(2))",
  };
  for (const char* code : calls) {
    Sandboxed s;
    std::string e = s.error(code);
    EXPECT_TRUE(e.starts_with("PermissionError: ")) << code << " -> " << e;
    EXPECT_NE(e.find("sandbox"), std::string::npos) << e;
  }
}

TEST(FilesSandbox, StringFunctionsStillWork) {
  Sandboxed s;
  EXPECT_EQ(s.error("import os\nprint(os.path.join(\"a\", \"b\"), os.path.splitext(\"x.npy\"), os.environ, os.getenv(\"HOME\"))"),
            "no error");
  EXPECT_EQ(s.out, "a/b ('x', '.npy') {} none\n");
}

}  // namespace
}  // namespace amps::stdlib
