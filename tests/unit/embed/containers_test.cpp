// Values natives build and read through the API: types and type names, tuples, dicts, len, items,
// iteration as a for loop does it, attributes that may be absent, builtins, dtypes and devices.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "amps/amps.hpp"
#include "embed_util.hpp"

using amps_test::CapturedVm;

namespace {

// Runs [code] and returns its trailing expression's value (a new handle).
amps_value* eval(CapturedVm& t, const char* code) {
  amps_value* r = nullptr;
  EXPECT_EQ(amps_run(t.vm, "<eval>", code, &r), AMPS_OK) << amps_last_error(t.vm)->diagnostic;
  return r;
}

int64_t as_int(CapturedVm& t, const amps_value* v) {
  int64_t i = -1;
  EXPECT_EQ(amps_to_int(t.vm, v, &i), AMPS_OK) << t.message();
  return i;
}

}  // namespace

TEST(EmbedValues, TypesAndTypeNames) {
  CapturedVm t;
  t.ok("class Point { }");
  const char* codes[] = {"[1]", "(1,)", "{\"a\": 1}", "float16", "cpu", "Point()", "range(3)", "none"};
  const amps_type types[] = {AMPS_TYPE_LIST, AMPS_TYPE_TUPLE, AMPS_TYPE_DICT, AMPS_TYPE_DTYPE,
                             AMPS_TYPE_DEVICE, AMPS_TYPE_OTHER, AMPS_TYPE_OTHER, AMPS_TYPE_NONE};
  const char* names[] = {"list", "tuple", "dict", "dtype", "device", "Point", "range", "none"};
  for (size_t i = 0; i < std::size(codes); ++i) {
    amps_value* v = eval(t, codes[i]);
    EXPECT_EQ(amps_typeof(v), types[i]) << codes[i];
    EXPECT_STREQ(amps_type_name(v), names[i]) << codes[i];
    amps_release(v);
  }
  EXPECT_STREQ(amps_type_name(nullptr), "none");
}

TEST(EmbedValues, TuplesAndDictsBuiltByTheHostReachTheScript) {
  CapturedVm t;
  amps_value* items[] = {amps_int(1), amps_str("x", 1)};
  amps_value* tup = amps_tuple(2, items);
  amps_value* d = amps_dict();
  ASSERT_EQ(amps_dict_set(t.vm, d, items[1], tup), AMPS_OK);
  ASSERT_EQ(amps_dict_set(t.vm, d, items[0], items[0]), AMPS_OK);
  ASSERT_EQ(amps_set_global(t.vm, "d", d), AMPS_OK);
  t.ok("print(d, d[\"x\"][1])");
  EXPECT_EQ(t.out, "{'x': (1, 'x'), 1: 1} x\n");
  amps_value* lst = amps_list(1, items);
  EXPECT_EQ(amps_dict_set(t.vm, d, lst, tup), AMPS_ERROR_RUNTIME);   // lists are unhashable
  EXPECT_EQ(t.kind(), "TypeError");
  EXPECT_EQ(t.message(), "unhashable type: 'list'");
  for (amps_value* v : {items[0], items[1], tup, d, lst}) amps_release(v);
}

TEST(EmbedValues, LenItemsAndDictEntries) {
  CapturedVm t;
  amps_value* d = eval(t, "{\"a\": 1, \"b\": [10, 20, 30]}");
  int64_t n = 0;
  ASSERT_EQ(amps_len(t.vm, d, &n), AMPS_OK);
  EXPECT_EQ(n, 2);
  amps_value *k = nullptr, *v = nullptr;
  ASSERT_EQ(amps_dict_entry(t.vm, d, 1, &k, &v), AMPS_OK);
  const char* s = nullptr;
  ASSERT_EQ(amps_to_str(t.vm, k, &s, nullptr), AMPS_OK);
  EXPECT_STREQ(s, "b");
  amps_value* last = nullptr;
  ASSERT_EQ(amps_item(t.vm, v, -1, &last), AMPS_OK);
  EXPECT_EQ(as_int(t, last), 30);
  amps_value* missing = k;   // reused below: "b" is present, "zz" is not
  amps_value* found = nullptr;
  ASSERT_EQ(amps_dict_get(t.vm, d, missing, &found), AMPS_OK);
  EXPECT_EQ(amps_typeof(found), AMPS_TYPE_LIST);
  amps_value* zz = amps_str("zz", 2);
  amps_value* none = zz;
  ASSERT_EQ(amps_dict_get(t.vm, d, zz, &none), AMPS_OK);
  EXPECT_EQ(none, nullptr);
  amps_value* out = nullptr;
  EXPECT_EQ(amps_item(t.vm, v, 3, &out), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.kind(), "IndexError");
  EXPECT_EQ(amps_item(t.vm, d, 0, &out), AMPS_ERROR_MISUSE);
  EXPECT_EQ(amps_dict_entry(t.vm, d, 2, &out, nullptr), AMPS_ERROR_MISUSE);
  for (amps_value* x : {d, k, v, last, found, zz}) amps_release(x);
}

TEST(EmbedValues, LenFollowsTheLanguageAndChecksDunderLen) {
  CapturedVm t;
  t.ok("class Five { fn __len__(self) { return 5 } }\nclass Bad { fn __len__(self) { return -1 } }");
  const char* codes[] = {"\"abc\"", "range(0, 10, 3)", "Five()"};
  const int64_t lens[] = {3, 4, 5};
  for (size_t i = 0; i < std::size(codes); ++i) {
    amps_value* v = eval(t, codes[i]);
    int64_t n = -1;
    ASSERT_EQ(amps_len(t.vm, v, &n), AMPS_OK) << codes[i];
    EXPECT_EQ(n, lens[i]) << codes[i];
    amps_release(v);
  }
  amps_value* bad = eval(t, "Bad()");
  int64_t n = 0;
  EXPECT_EQ(amps_len(t.vm, bad, &n), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.message(), "__len__() should return a non-negative int");
  amps_value* one = amps_int(1);
  EXPECT_EQ(amps_len(t.vm, one, &n), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.message(), "object of type 'int' has no len()");
  amps_release(bad);
  amps_release(one);
}

// amps_iter/amps_next yield what `for` would, lazily, for every kind of iterable.
TEST(EmbedValues, IterationMatchesForLoops) {
  CapturedVm t;
  t.ok("class Count {\n  fn init(self, n) { self.i = 0\n self.n = n }\n  fn __iter__(self) { return self }\n"
       "  fn __next__(self) {\n    if self.i >= self.n { raise StopIteration(\"done\") }\n    self.i += 1\n    return self.i\n  }\n}\n"
       "class Seq { fn __len__(self) { return 3 }\n fn __getitem__(self, i) { return i * 10 } }");
  const char* codes[] = {"range(2, 5)", "[7, 8]", "(\"a\", \"b\")", "{\"k\": 1, \"j\": 2}", "\"hi\"", "Count(3)", "Seq()"};
  const char* expect[] = {"2 3 4 ", "7 8 ", "a b ", "k j ", "h i ", "1 2 3 ", "0 10 20 "};
  for (size_t i = 0; i < std::size(codes); ++i) {
    amps_value* v = eval(t, codes[i]);
    amps_value* it = nullptr;
    ASSERT_EQ(amps_iter(t.vm, v, &it), AMPS_OK) << codes[i] << ": " << t.message();
    std::string seen;
    for (;;) {
      amps_value* item = nullptr;
      ASSERT_EQ(amps_next(t.vm, it, &item), AMPS_OK) << t.message();
      if (!item) break;
      char* s = nullptr;
      ASSERT_EQ(amps_repr(t.vm, item, &s), AMPS_OK);
      seen += std::string(s) + " ";
      std::free(s);
      amps_release(item);
    }
    EXPECT_EQ(seen, expect[i]) << codes[i];
    amps_release(it);
    amps_release(v);
  }
  amps_value* five = amps_int(5);
  amps_value* it = nullptr;
  EXPECT_EQ(amps_iter(t.vm, five, &it), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.message(), "'int' object is not iterable");
  EXPECT_EQ(amps_next(t.vm, five, &it), AMPS_ERROR_MISUSE);   // not an iterator
  amps_release(five);
}

TEST(EmbedValues, FindAttrAndBuiltinsIgnoreShadowingGlobals) {
  CapturedVm t;
  t.ok("let repr = 3\nclass P { fn init(self) { self.x = 1 } }\nlet p = P()");
  amps_value *p = nullptr, *x = nullptr, *y = nullptr, *r = nullptr;
  ASSERT_EQ(amps_get_global(t.vm, "p", &p), AMPS_OK);
  ASSERT_EQ(amps_find_attr(t.vm, p, "x", &x), AMPS_OK);
  EXPECT_EQ(as_int(t, x), 1);
  ASSERT_EQ(amps_find_attr(t.vm, p, "y", &y), AMPS_OK);   // absent: no error
  EXPECT_EQ(y, nullptr);
  ASSERT_EQ(amps_get_builtin(t.vm, "repr", &r), AMPS_OK);
  amps_value* s = amps_str("q", 1);
  amps_value* q = nullptr;
  ASSERT_EQ(amps_call(t.vm, r, 1, &s, &q), AMPS_OK);
  const char* text = nullptr;
  ASSERT_EQ(amps_to_str(t.vm, q, &text, nullptr), AMPS_OK);
  EXPECT_STREQ(text, "'q'");
  amps_value* none = nullptr;
  EXPECT_EQ(amps_get_builtin(t.vm, "no_such_builtin", &none), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.kind(), "NameError");
  for (amps_value* v : {p, x, r, s, q}) amps_release(v);
}

TEST(EmbedValues, DTypesAndDevices) {
  CapturedVm t;
  amps_value* bf = amps_dtype_value(AMPS_BFLOAT16);
  ASSERT_EQ(amps_set_global(t.vm, "dt", bf), AMPS_OK);
  t.ok("print(dt, zeros(2, dtype=dt).dtype == bfloat16)");
  EXPECT_EQ(t.out, "bfloat16 true\n");
  amps_dtype d = AMPS_FLOAT64;
  ASSERT_EQ(amps_to_dtype(t.vm, bf, &d), AMPS_OK);
  EXPECT_EQ(d, AMPS_BFLOAT16);
  EXPECT_STREQ(amps_dtype_name(AMPS_BOOL), "bool");
  EXPECT_EQ(amps_dtype_size(AMPS_FLOAT16), 2u);
  EXPECT_EQ(amps_dtype_name(amps_dtype(42)), nullptr);
  EXPECT_EQ(amps_dtype_value(amps_dtype(42)), nullptr);
  amps_value* dev = nullptr;
  ASSERT_EQ(amps_device_value(t.vm, "cpu", &dev), AMPS_OK);
  EXPECT_EQ(amps_typeof(dev), AMPS_TYPE_DEVICE);
  amps_value* bad = nullptr;
  EXPECT_EQ(amps_device_value(t.vm, "toaster:3", &bad), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(amps_to_dtype(t.vm, dev, &d), AMPS_ERROR_MISUSE);
  amps_release(bf);
  amps_release(dev);
}

TEST(EmbedValues, EmptyTensorsAreFilledInPlace) {
  CapturedVm t;
  int64_t shape[] = {2, 3};
  amps_value* x = nullptr;
  ASSERT_EQ(amps_tensor_empty(t.vm, AMPS_INT32, 2, shape, &x), AMPS_OK);
  amps_tensor_info info{};
  ASSERT_EQ(amps_tensor_info_get(t.vm, x, &info), AMPS_OK);
  ASSERT_EQ(info.numel, 6);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(info.data) % 64, 0u);   // the runtime's alignment
  for (int i = 0; i < 6; ++i) static_cast<int32_t*>(info.data)[i] = i;
  ASSERT_EQ(amps_set_global(t.vm, "x", x), AMPS_OK);
  t.ok("print(x.sum().item(), x.dtype, x.shape)");
  EXPECT_EQ(t.out, "15 int32 (2, 3)\n");
  int64_t negative[] = {-1};
  amps_value* bad = nullptr;
  EXPECT_EQ(amps_tensor_empty(t.vm, AMPS_FLOAT32, 1, negative, &bad), AMPS_ERROR_MISUSE);
  amps_release(x);
}

// Natives read keyword arguments in order and bind parameters with the builtins' TypeErrors.
TEST(EmbedValues, KeywordArgumentsAndBinding) {
  CapturedVm t;
  auto kwlist = [](amps_vm*, amps_args* call) -> amps_status {
    static const char* params[] = {"a", "b"};
    const amps_value* out[2] = {};
    if (amps_status s = amps_args_bind(call, "f", params, 2, out)) return s;
    std::string names;
    for (size_t i = 0; i < amps_kwarg_count(call); ++i) {
      const char* name = nullptr;
      amps_kwarg_at(call, i, &name);
      names += name;
    }
    amps_value* r = amps_str(names.data(), names.size());
    amps_return(call, r);
    amps_release(r);
    return out[0] && out[1] ? AMPS_OK : amps_raise(call, "TypeError", "need a and b");
  };
  amps_reg table[] = {{"f", kwlist, AMPS_CAST_NONE, nullptr}, {}};
  ASSERT_EQ(amps_register_globals(t.vm, table), AMPS_OK);
  t.ok("print(f(1, b=2), f(b=1, a=2))");
  EXPECT_EQ(t.out, "b ba\n");
  EXPECT_EQ(t.run("f(1, c=2)"), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.message(), "f() got an unexpected keyword argument 'c' (it takes: a, b)");
  EXPECT_EQ(t.run("f(1, 2, 3)"), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.message(), "f() takes at most 2 arguments (3 given)");
  EXPECT_EQ(t.run("f(1, a=2)"), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.message(), "f() got multiple values for argument 'a'");
}

// amps::Args: the typed reads name the function, the parameter and what was passed.
TEST(EmbedValues, CxxArgsReaderRaisesTheBuiltinsTypeErrors) {
  amps::Config cfg;
  cfg.no_stdlib = true;
  std::string out;
  cfg.write = [&out](std::string_view s) { out += s; };
  amps::Vm vm(std::move(cfg));
  auto err = vm.register_globals({{"g", [](amps::Vm& v, amps::Call& call) {
                                     amps::Args r(v, call, "g", {"n", "name", "flag"});
                                     return amps::Value::of(std::string_view(std::to_string(r.int_or(0, -1)) + r.str_or(1, "?") +
                                                                             (r.bool_or(2, false) ? "!" : "")));
                                   }}});
  ASSERT_FALSE(err) << err->message;
  ASSERT_TRUE(vm.run("print(g(), g(3, \"x\", flag=true), g(none, name=\"y\"))"));
  EXPECT_EQ(out, "-1? 3x! -1y\n");
  amps::Result r = vm.run("g(\"3\")");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error->message, "g(): argument 'n' must be int, not str");
  r = vm.run("g(name=1)");
  EXPECT_EQ(r.error->message, "g(): argument 'name' must be str, not int");
  r = vm.run("g(q=1)");
  EXPECT_EQ(r.error->message, "g() got an unexpected keyword argument 'q' (it takes: n, name, flag)");
}
