// load() of whole-object checkpoints whose amps.structure was tampered with: a dangling object reference, an object
// node without its fields, a reference to a module that does not exist, a malformed function reference; each is
// refused with an error naming the file (ValueError for a corrupt structure, pickle's AttributeError for a missing
// name), never a crash; the untampered file still loads with its sharing.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../embed/embed_util.hpp"
#include "amps/amps.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct Captured : amps_test::CapturedCppVm {
  void run(const std::string& code) {
    amps::Result r = vm.run(code, "t.amps");
    ASSERT_TRUE(r) << r.error->diagnostic;
  }
};

std::string read_file(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// Rewrites the file's amps.structure with [from] replaced by [to] (once), keeping the data section.
void tamper(const std::string& src, const std::string& dst, const std::string& from, const std::string& to) {
  std::string raw = read_file(src);
  uint64_t n = 0;
  std::memcpy(&n, raw.data(), 8);
  json header = json::parse(raw.substr(8, n));
  std::string s = header["__metadata__"]["amps.structure"];
  size_t at = s.find(from);
  ASSERT_NE(at, std::string::npos) << from << " not in " << s;
  header["__metadata__"]["amps.structure"] = s.replace(at, from.size(), to);
  std::string h = header.dump();
  h.append((8 - h.size() % 8) % 8, ' ');
  uint64_t len = h.size();
  std::ofstream f(dst, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(&len), 8);
  f << h << raw.substr(8 + n);
}

TEST(CheckpointObjects, TamperedStructuresAreRefusedWithClearErrors) {
  Captured c;
  fs::path dir = fs::temp_directory_path() / ("amps_ckobj_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string base = (dir / "base.pt").string(), bad = (dir / "bad.pt").string();
  c.run("import nn\nclass P { fn init(self) { self.a = 1 } }\nlet p = P()\n"
        "save({\"x\": p, \"y\": p, \"f\": print, \"w\": nn.Linear(1, 1)}, \"" + base + "\")\n");
  struct Case { const char *from, *to, *want; };
  const Case cases[] = {
      {"{\"__ref__\":0}", "{\"__ref__\":9}", "ValueError 'BAD' has a corrupt amps.structure: a reference to an object stored nowhere before it"},
      {"\"attrs\"", "\"attrz\"", "ValueError 'BAD' has a corrupt amps.structure: an object node without id, module, class or attrs"},
      {"[\"builtins\",\"print\"]", "[\"no_such_module\",\"print\"]",
       "AttributeError Can't get attribute 'print' on <module 'no_such_module'>: 'BAD' holds a reference to print; define (or import) print in module 'no_such_module' before load()"},
      {"\"key\":\"w.weight\"", "\"key\":\"w.nothing\"", "ValueError 'BAD' has a corrupt amps.structure: a reference to a tensor the file does not hold"},
      {"\"module\":\"__main__\"", "\"module\":\"__main__\",\"extra\":", "ValueError 'BAD' has a corrupt amps.structure: not JSON"},
  };
  for (const Case& k : cases) {
    tamper(base, bad, k.from, k.to);
    c.out.clear();
    c.run("try { load(\"" + bad + "\") } catch e { print(e.kind, e.message) }");
    std::string want = k.want;
    want.replace(want.find("BAD"), 3, bad);
    EXPECT_EQ(c.out, want + "\n") << k.from;
  }
  c.out.clear();
  c.run("let back = load(\"" + base + "\")\nprint(back[\"x\"] is back[\"y\"], back[\"f\"] is print, back[\"w\"].weight.requires_grad)");
  EXPECT_EQ(c.out, "true true true\n");
  fs::remove_all(dir);
}

}  // namespace

namespace {

// A class of a file module is recorded by the module's name (as Python's), so another program that imports the same
// file by another path finds it; one that does not import it gets pickle's error.
TEST(CheckpointObjects, FileModuleClassesAreFoundByModuleName) {
  fs::path dir = fs::temp_directory_path() / ("amps_ckmod_" + std::to_string(::getpid()));
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "models.amps") << "import nn\nclass Tiny(nn.Module) {\n  fn init(self) { super.init(); self.l = nn.Linear(2, 1) }\n"
                                        "  fn forward(self, x) { return self.l(x) }\n}\n";
  std::string file = (dir / "m.pt").string();
  Captured saver, loader, stranger;
  saver.run("import \"" + (dir / "models.amps").string() + "\" as models\nsave(models.Tiny(), \"" + file + "\")\n");
  loader.run("import \"" + (dir / "sub" / ".." / "models.amps").string() + "\" as m\nlet t = load(\"" + file +
             "\")\nprint(type(t).__name__, isinstance(t, m.Tiny), t(ones(3, 2)).shape)\n");
  EXPECT_EQ(loader.out, "Tiny true (3, 1)\n");
  stranger.run("try { load(\"" + file + "\") } catch e { print(e.kind, e.message.split(\":\")[0]) }\n");
  EXPECT_EQ(stranger.out, "AttributeError Can't get attribute 'Tiny' on <module 'models'>\n");
  fs::remove_all(dir);
}

}  // namespace
