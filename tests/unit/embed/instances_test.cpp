// Script-class instances through the C API (what save/load of whole models use): identity, the class's home module
// by name, own attributes in order, bare instances without init, direct and script-style attribute sets, misuse.
#include <cstdlib>
#include <string>

#include "amps/amps.h"
#include "embed_util.hpp"

using amps_test::CapturedVm;

namespace {

amps_value* global(CapturedVm& t, const char* name) {
  amps_value* v = nullptr;
  EXPECT_EQ(amps_get_global(t.vm, name, &v), AMPS_OK) << t.message();
  return v;
}

std::string text(CapturedVm& t, const amps_value* v) {
  const char* s = nullptr;
  size_t n = 0;
  EXPECT_EQ(amps_to_str(t.vm, v, &s, &n), AMPS_OK);
  return std::string(s ? s : "", n);
}

const char* kScript =
    "class P { fn init(self, x) { print(\"init\"); self.x = x; self.y = [x] } }\n"
    "let p = P(2)\n"
    "let q = p\n"
    "let r = P(3)\n";

}  // namespace

TEST(EmbedInstances, IdentityClassAndAttributes) {
  CapturedVm t;
  t.ok(kScript);
  amps_value *p = global(t, "p"), *q = global(t, "q"), *r = global(t, "r");
  EXPECT_TRUE(amps_is_instance(p));
  EXPECT_EQ(amps_identity(p), amps_identity(q));
  EXPECT_NE(amps_identity(p), amps_identity(r));
  amps_value *three = amps_int(3), *mod = nullptr, *name = nullptr, *attrs = nullptr;
  EXPECT_FALSE(amps_is_instance(three));
  EXPECT_EQ(amps_identity(three), 0u);
  ASSERT_EQ(amps_instance_class(t.vm, p, &mod, &name), AMPS_OK);
  EXPECT_EQ(text(t, mod), "__main__");
  EXPECT_EQ(text(t, name), "P");
  ASSERT_EQ(amps_instance_attrs(t.vm, p, &attrs), AMPS_OK);
  char* shown = nullptr;
  ASSERT_EQ(amps_repr(t.vm, attrs, &shown), AMPS_OK);
  EXPECT_STREQ(shown, "{'x': 2, 'y': [2]}");
  free(shown);
  EXPECT_EQ(amps_instance_class(t.vm, three, &mod, &name), AMPS_ERROR_MISUSE);
  for (amps_value* v : {p, q, r, three, mod, name, attrs}) amps_release(v);
}

TEST(EmbedInstances, NewInstanceSkipsInitAndTakesAttributes) {
  CapturedVm t;
  t.ok(kScript);
  amps_value *cls = nullptr, *missing = nullptr, *obj = nullptr, *seven = amps_int(7);
  ASSERT_EQ(amps_find_class(t.vm, "__main__", "P", &cls), AMPS_OK);
  ASSERT_NE(cls, nullptr);
  ASSERT_EQ(amps_find_class(t.vm, "__main__", "Nope", &missing), AMPS_OK);
  EXPECT_EQ(missing, nullptr);
  t.out.clear();
  ASSERT_EQ(amps_instance_new(t.vm, cls, &obj), AMPS_OK);
  ASSERT_EQ(amps_instance_set(t.vm, obj, "x", seven), AMPS_OK);
  ASSERT_EQ(amps_set_attr(t.vm, obj, "z", seven), AMPS_OK);
  ASSERT_EQ(amps_set_global(t.vm, "made", obj), AMPS_OK);
  t.ok("print(type(made).__name__, made.x, made.z, hasattr(made, \"y\"))");
  EXPECT_EQ(t.out, "P 7 7 false\n");   // no "init" line: init did not run
  EXPECT_EQ(amps_instance_new(t.vm, seven, &missing), AMPS_ERROR_MISUSE);
  EXPECT_EQ(amps_instance_set(t.vm, seven, "x", seven), AMPS_ERROR_MISUSE);
  EXPECT_EQ(amps_set_attr(t.vm, seven, "x", seven), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.kind(), "AttributeError");
  for (amps_value* v : {cls, obj, seven}) amps_release(v);
}

TEST(EmbedInstances, LocalClassesHaveNoHomeAndModulesAreImported) {
  CapturedVm t(true);
  t.ok("fn mk() {\n  class L { fn init(self) { self.v = 1 } }\n  return L()\n}\nlet l = mk()\n");
  amps_value *l = global(t, "l"), *mod = nullptr, *name = nullptr, *lin = nullptr;
  EXPECT_EQ(amps_instance_class(t.vm, l, &mod, &name), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.kind(), "AttributeError");
  ASSERT_EQ(amps_find_class(t.vm, "nn", "Linear", &lin), AMPS_OK);   // nn was never imported by the script
  EXPECT_NE(lin, nullptr);
  for (amps_value* v : {l, lin}) amps_release(v);
}

TEST(EmbedInstances, GlobalNamesOfFunctionsBuiltinsAndClasses) {
  CapturedVm t;
  t.ok("fn top(x) { return x }\nlet anon = fn(x) { return x }\n");
  amps_value *top = global(t, "top"), *anon = global(t, "anon"), *mod = nullptr, *name = nullptr, *found = nullptr;
  ASSERT_EQ(amps_global_name(t.vm, top, &mod, &name), AMPS_OK);
  EXPECT_EQ(text(t, mod) + "." + text(t, name), "__main__.top");
  ASSERT_EQ(amps_find_global(t.vm, "__main__", "top", &found), AMPS_OK);
  EXPECT_EQ(amps_identity(found), amps_identity(top));
  amps_release(mod), amps_release(name), amps_release(found);
  amps_value* print_fn = nullptr;
  ASSERT_EQ(amps_get_builtin(t.vm, "print", &print_fn), AMPS_OK);
  ASSERT_EQ(amps_global_name(t.vm, print_fn, &mod, &name), AMPS_OK);
  EXPECT_EQ(text(t, mod) + "." + text(t, name), "builtins.print");
  amps_release(mod), amps_release(name);
  EXPECT_EQ(amps_global_name(t.vm, anon, &mod, &name), AMPS_ERROR_RUNTIME);   // a lambda: no name to find it by
  EXPECT_EQ(t.kind(), "AttributeError");
  amps_value* three = amps_int(3);
  EXPECT_EQ(amps_global_name(t.vm, three, &mod, &name), AMPS_ERROR_MISUSE);
  ASSERT_EQ(amps_find_global(t.vm, "no_such_module", "x", &found), AMPS_OK);
  EXPECT_EQ(found, nullptr);
  for (amps_value* v : {top, anon, print_fn, three}) amps_release(v);
}

TEST(EmbedInstances, MethodPartsAndInstancesHeldByModules) {
  CapturedVm t(true);
  t.ok("import nn\nclass A { fn f(self) { return 1 } }\nlet a = A()\nlet m = a.f\nlet r = nn.functional.relu\n");
  amps_value *m = global(t, "m"), *a = global(t, "a"), *r = global(t, "r"), *self = nullptr, *fn = nullptr;
  ASSERT_EQ(amps_method_parts(t.vm, m, &self, &fn), AMPS_OK);
  EXPECT_EQ(amps_identity(self), amps_identity(a));
  EXPECT_EQ(amps_typeof(fn), AMPS_TYPE_CALLABLE);
  amps_release(self), amps_release(fn);
  EXPECT_EQ(amps_method_parts(t.vm, a, &self, &fn), AMPS_ERROR_MISUSE);
  ASSERT_EQ(amps_method_parts(t.vm, r, &self, &fn), AMPS_OK);
  amps_value *mod = nullptr, *name = nullptr;
  ASSERT_EQ(amps_global_name(t.vm, self, &mod, &name), AMPS_OK);   // nn.functional's object, held by module nn
  EXPECT_EQ(text(t, mod) + "." + text(t, name), "nn.functional");
  EXPECT_EQ(amps_global_name(t.vm, a, &mod, &name), AMPS_ERROR_RUNTIME);   // an instance: only modules count, not main
  for (amps_value* v : {m, a, r, self, fn, mod, name}) amps_release(v);
}
