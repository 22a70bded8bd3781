// The `plot` module: plot.lines(path, series, title="", xlabel="", ylabel="", logy=false) writes a
// standalone SVG line chart. `series` maps a name to a list of numbers (x = 0, 1, ...), a list of
// (x, y) pairs, or a 1-D tensor; a bare list is one unnamed series.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "interp/tensor_value.hpp"
#include "stdlib/plot/svg_plot.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib {

using namespace amps::interp;

namespace {

double number(const Value& v, const std::string& name) {
  if (v.is_number()) return v.to_double();
  if (const rt::Tensor* t = tensor_of(v); t && t->numel() == 1) return t->to_doubles()[0];
  throw rt::Error("TypeError", fmt::format("plot.lines(): series '{}' holds a {}, expected numbers or (x, y) pairs", name, type_name(v)));
}

void add_point(plot::Series& s, const Value& v, size_t i) {
  if (v.is(ObjKind::Tuple) || v.is(ObjKind::List)) {
    auto& xy = v.is(ObjKind::Tuple) ? v.as<Tuple>()->items : v.as<List>()->items;
    if (xy.size() != 2) throw rt::Error("ValueError", fmt::format("plot.lines(): series '{}' has a point with {} values, expected (x, y)", s.name, xy.size()));
    s.x.push_back(number(xy[0], s.name)), s.y.push_back(number(xy[1], s.name));
    return;
  }
  s.x.push_back(double(i)), s.y.push_back(number(v, s.name));
}

plot::Series to_series(Interp& in, std::string name, const Value& v) {
  plot::Series s{std::move(name), {}, {}};
  if (const rt::Tensor* t = tensor_of(v)) {
    if (t->dim() != 1) throw rt::Error("ValueError", fmt::format("plot.lines(): series '{}' is a {}-dim tensor, expected 1-D", s.name, t->dim()));
    s.y = t->to_doubles();
    for (size_t i = 0; i < s.y.size(); ++i) s.x.push_back(double(i));
    return s;
  }
  if (!v.is(ObjKind::List) && !v.is(ObjKind::Tuple))
    throw rt::Error("TypeError", fmt::format("plot.lines(): series '{}' must be a list of numbers or (x, y) pairs, not {}", s.name, type_name(v)));
  size_t i = 0;
  in.iterate(v, Span{}, [&](Value p) { add_point(s, p, i++); return true; });
  return s;
}

std::vector<plot::Series> all_series(Interp& in, const Value& v) {
  std::vector<plot::Series> out;
  if (!v.is(ObjKind::Dict)) {
    out.push_back(to_series(in, "", v));
    return out;
  }
  for (auto& [k, s] : v.as<Dict>()->entries) out.push_back(to_series(in, in.str(k), s));
  return out;
}

void write_text(const std::string& path, const std::string& text) {
  std::error_code ec;   // like save(): missing parent directories are created
  if (std::filesystem::path(path).has_parent_path()) std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) f << text;
  if (!f || !f.flush())
    throw rt::Error(errno == EACCES ? "PermissionError" : errno == ENOENT ? "FileNotFoundError" : "IOError",
                    fmt::format("plot.lines(): cannot write '{}': {}", path, std::strerror(errno)));
}

Value b_lines(Interp& in, CallArgs& a) {
  ArgReader r(a, "lines", {"path", "series", "title", "xlabel", "ylabel", "logy", "width", "height"});
  std::string path = checked_path(in, r, 0, "plot.lines");
  plot::ChartOptions o{r.str_or(2, ""), r.str_or(3, ""), r.str_or(4, ""), r.bool_or(5, false), int(r.int_or(6, 800)), int(r.int_or(7, 500))};
  if (o.width < 200 || o.height < 150 || o.width > 20000 || o.height > 20000)
    Interp::fail("ValueError", fmt::format("plot.lines(): width and height must be within 200x150 .. 20000x20000, got {}x{}", o.width, o.height), a.span);
  write_text(path, plot::render_lines(all_series(in, r.required(1)), o));
  return Value();
}

}  // namespace

void install_plot(Interp& in) {
  in.def_module("plot", [](Interp&, Module& m) { def(m, "lines", b_lines); });
}

}  // namespace amps::stdlib
