// The `plot` module: plot.lines(path, series, title="", xlabel="", ylabel="", logy=false) writes a
// standalone SVG line chart. `series` maps a name to a list of numbers (x = 0, 1, ...), a list of
// (x, y) pairs, or a 1-D tensor; a bare list is one unnamed series.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "stdlib/plot/svg_plot.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib {

namespace {

double number(Vm& vm, const Value& v, const std::string& name) {
  if (v.is_number()) return *vm.to_float(v);
  if (v.is(AMPS_TYPE_TENSOR) && vm.tensor_info(v).numel == 1) return *vm.to_float(v);
  fail("TypeError", fmt::format("plot.lines(): series '{}' holds a {}, expected numbers or (x, y) pairs", name, v.type_name()));
}

void add_point(Vm& vm, plot::Series& s, const Value& v, size_t i) {
  if (v.is(AMPS_TYPE_TUPLE) || v.is(AMPS_TYPE_LIST)) {
    int64_t n = vm.len(v);
    if (n != 2) fail("ValueError", fmt::format("plot.lines(): series '{}' has a point with {} values, expected (x, y)", s.name, n));
    s.x.push_back(number(vm, vm.item(v, 0), s.name)), s.y.push_back(number(vm, vm.item(v, 1), s.name));
    return;
  }
  s.x.push_back(double(i)), s.y.push_back(number(vm, v, s.name));
}

// The values of a 1-D tensor as doubles (converted in the script's runtime: exact for every dtype).
std::vector<double> tensor_values(Vm& vm, const Value& t) {
  Value d = vm.call_method(t, "double").get();
  std::vector<double> out(size_t(vm.tensor_info(d).numel));
  vm.check(amps_tensor_read(vm.get(), d.get(), AMPS_FLOAT64, out.data(), out.size() * sizeof(double)));
  return out;
}

plot::Series to_series(Vm& vm, std::string name, const Value& v) {
  plot::Series s{std::move(name), {}, {}};
  if (v.is(AMPS_TYPE_TENSOR)) {
    size_t dim = vm.tensor_info(v).ndim;
    if (dim != 1) fail("ValueError", fmt::format("plot.lines(): series '{}' is a {}-dim tensor, expected 1-D", s.name, dim));
    s.y = tensor_values(vm, v);
    for (size_t i = 0; i < s.y.size(); ++i) s.x.push_back(double(i));
    return s;
  }
  if (!v.is(AMPS_TYPE_LIST) && !v.is(AMPS_TYPE_TUPLE))
    fail("TypeError", fmt::format("plot.lines(): series '{}' must be a list of numbers or (x, y) pairs, not {}", s.name, v.type_name()));
  for (int64_t i = 0; i < vm.len(v); ++i) add_point(vm, s, vm.item(v, i), size_t(i));
  return s;
}

std::vector<plot::Series> all_series(Vm& vm, const Value& v) {
  std::vector<plot::Series> out;
  if (!v.is(AMPS_TYPE_DICT)) {
    out.push_back(to_series(vm, "", v));
    return out;
  }
  for (size_t i = 0, n = size_t(vm.len(v)); i < n; ++i) {
    auto [k, s] = vm.dict_entry(v, i);
    out.push_back(to_series(vm, vm.str(k), s));
  }
  return out;
}

void write_text(const std::string& path, const std::string& text) {
  std::error_code ec;   // like save(): missing parent directories are created
  if (std::filesystem::path(path).has_parent_path()) std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) f << text;
  if (!f || !f.flush())
    fail(errno == EACCES ? "PermissionError" : errno == ENOENT ? "FileNotFoundError" : "OSError",
         fmt::format("plot.lines(): cannot write '{}': {}", path, std::strerror(errno)));
}

Value b_lines(Vm& vm, Call& call) {
  Args r(vm, call, "lines", {"path", "series", "title", "xlabel", "ylabel", "logy", "width", "height"});
  std::string path = checked_path(vm, r, 0, "plot.lines");
  plot::ChartOptions o{r.str_or(2, ""), r.str_or(3, ""), r.str_or(4, ""), r.bool_or(5, false), int(r.int_or(6, 800)), int(r.int_or(7, 500))};
  if (o.width < 200 || o.height < 150 || o.width > 20000 || o.height > 20000)
    fail("ValueError", fmt::format("plot.lines(): width and height must be within 200x150 .. 20000x20000, got {}x{}", o.width, o.height));
  write_text(path, plot::render_lines(all_series(vm, r.required(1)), o));
  return Value::none();
}

const amps_reg kPlotNatives[] = {
    {"lines", native<b_lines>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace

void install_plot(Vm& vm) { register_module(vm, "plot", kPlotNatives); }

}  // namespace amps::stdlib
