// Tensor printing: a port of torch/_tensor_str.py's _Formatter, summarisation and suffix layout.
#include "runtime/print.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "runtime/autograd_meta.hpp"
#include "runtime/context.hpp"
#include "runtime/shape.hpp"

namespace amps::rt {
namespace {

// Values are held as long double, whose 64-bit mantissa holds every int64 exactly; floating values are formatted
// as the doubles they came from (fmt's long double rounding differs).
using Elem = long double;

// Chooses one width and notation for all printed values, exactly as PyTorch's _Formatter.
class Formatter {
 public:
  Formatter(const std::vector<Elem>& values, DType dtype, const PrintOptions& o)
      : floating_(is_floating(dtype)), is_bool_(dtype == DType::bool_), precision_(o.precision) {
    if (!floating_) {
      for (Elem v : values) width_ = std::max(width_, format_raw(v).size());
    } else {
      init_floating(values);
    }
    if (floating_ && o.sci_mode) sci_ = *o.sci_mode;
  }

  size_t width() const { return width_; }

  std::string format(Elem v) const {
    std::string s = format_raw(v);
    return std::string(width_ > s.size() ? width_ - s.size() : 0, ' ') + s;
  }

 private:
  bool floating_, is_bool_;
  int precision_;
  bool int_mode_ = true, sci_ = false;
  size_t width_ = 1;

  void init_floating(const std::vector<Elem>& values) {
    std::vector<Elem> nz;
    for (Elem v : values)
      if (std::isfinite(v) && v != 0) nz.push_back(v);
    if (nz.empty()) return;
    Elem lo = INFINITY, hi = 0;
    for (Elem v : nz) {
      lo = std::min(lo, std::fabs(v));
      hi = std::max(hi, std::fabs(v));
      if (v != std::ceil(v)) int_mode_ = false;
    }
    sci_ = hi / lo > 1000.0 || hi > 1.0e8 || (!int_mode_ && lo < 1.0e-4);
    for (Elem v : nz) {
      std::string s = sci_ ? fmt::format("{:.{}e}", double(v), precision_)
                           : int_mode_ ? fmt::format("{:.0f}", double(v)) + "." : fmt::format("{:.{}f}", double(v), precision_);
      width_ = std::max(width_, s.size());
    }
  }

  std::string format_raw(Elem v) const {
    if (is_bool_) return v != 0 ? "True" : "False";
    if (!floating_) return fmt::format("{}", int64_t(v));
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (sci_) return fmt::format("{:.{}e}", double(v), precision_);   // floats print as the doubles they are
    if (int_mode_) return fmt::format("{:.0f}", double(v)) + ".";
    return fmt::format("{:.{}f}", double(v), precision_);
  }
};

struct Printer {
  const std::vector<Elem>& data;  // row-major values of the whole tensor
  const Dims& sizes;
  const Dims strides;               // contiguous strides of [sizes]
  bool summarize;
  const PrintOptions& o;

  bool elide(size_t d) const { return summarize && sizes[d] > 2 * o.edgeitems; }

  // Indices along dim [d] that get printed; -1 marks the "..." position.
  std::vector<int64_t> shown(size_t d) const {
    std::vector<int64_t> idx;
    if (!elide(d)) {
      for (int64_t i = 0; i < sizes[d]; ++i) idx.push_back(i);
      return idx;
    }
    for (int64_t i = 0; i < o.edgeitems; ++i) idx.push_back(i);
    idx.push_back(-1);
    for (int64_t i = sizes[d] - o.edgeitems; i < sizes[d]; ++i) idx.push_back(i);
    return idx;
  }

  void collect(size_t d, int64_t off, std::vector<Elem>& out) const {
    if (d == sizes.size()) {
      out.push_back(data[size_t(off)]);
      return;
    }
    for (int64_t i : shown(d))
      if (i >= 0) collect(d + 1, off + i * strides[d], out);
  }

  std::string vector_str(int64_t off, size_t indent, const Formatter& f) const {
    size_t d = sizes.size() - 1;
    size_t per_line = std::max<size_t>(1, (size_t(o.linewidth) - indent) / (f.width() + 2));
    std::vector<std::string> items;
    for (int64_t i : shown(d)) items.push_back(i < 0 ? " ..." : f.format(data[size_t(off + i * strides[d])]));
    std::string s = "[";
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0) s += i % per_line == 0 ? ",\n" + std::string(indent + 1, ' ') : ", ";
      s += items[i];
    }
    return s + "]";
  }

  std::string str(size_t d, int64_t off, size_t indent, const Formatter& f) const {
    if (d + 1 == sizes.size()) return vector_str(off, indent, f);
    std::string sep = "," + std::string(sizes.size() - d - 1, '\n') + std::string(indent + 1, ' ');
    std::string s = "[";
    bool first = true;
    for (int64_t i : shown(d)) {
      if (!first) s += sep;
      first = false;
      s += i < 0 ? "..." : str(d + 1, off + i * strides[d], indent + 1, f);
    }
    return s + "]";
  }
};

// The printed values: int64 exactly (a double has 53 bits), everything else through double.
std::vector<Elem> print_values(const Tensor& t) {
  std::vector<Elem> out;
  if (t.dtype() == DType::int64) {
    Tensor c = t.to(Device::cpu()).contiguous();
    const int64_t* p = c.data<int64_t>();
    out.assign(p, p + c.numel());
    return out;
  }
  for (double v : t.to_doubles()) out.push_back(v);
  return out;
}

std::string body_str(const Tensor& t, const PrintOptions& o, size_t indent) {
  std::vector<Elem> data = print_values(t);
  bool summarize = t.numel() > o.threshold;
  Printer p{data, t.sizes(), contiguous_strides(t.sizes()), summarize, o};
  std::vector<Elem> shown;
  p.collect(0, 0, shown);
  Formatter f(shown, t.dtype(), o);
  if (t.dim() == 0) return f.format(data[0]);
  return p.str(0, 0, indent, f);
}

std::vector<std::string> suffixes(const Tensor& t) {
  std::vector<std::string> out;
  if (t.device() != Device::cpu()) out.push_back(fmt::format("device='{}'", device_str(t.device())));
  const DType dflt = current_context().default_dtype();  // PyTorch's repr leaves its dtype out, as int64's and bool's
  bool default_dtype = t.dtype() == dflt || t.dtype() == DType::int64 || t.dtype() == DType::bool_;
  if (t.numel() == 0) {
    if (t.dim() != 1) out.push_back("size=" + format_shape(t.sizes()));
    if (t.dtype() != dflt) out.push_back(fmt::format("dtype={}", dtype_name(t.dtype())));
  } else if (!default_dtype) {
    out.push_back(fmt::format("dtype={}", dtype_name(t.dtype())));
  }
  const AutogradMeta* m = t.autograd_meta();
  if (m && m->grad_fn) out.push_back(fmt::format("grad_fn=<{}>", m->grad_fn->name()));
  else if (t.requires_grad()) out.push_back("requires_grad=True");
  return out;
}

}  // namespace

std::string tensor_repr(const Tensor& t, const PrintOptions& o) {
  if (!t.defined()) return "None";
  const std::string prefix = "tensor(";
  std::string s = prefix + (t.numel() == 0 ? "[]" : body_str(t, o, prefix.size()));
  if (t.numel() > 0) current_context().count_host_sync();
  const size_t nl = s.rfind('\n');
  size_t last_line = nl == std::string::npos ? s.size() + 2 : s.size() - nl + 1;  // PyTorch's arithmetic
  for (const std::string& suf : suffixes(t)) {
    if (last_line + suf.size() + 2 > size_t(o.linewidth)) {
      s += ",\n" + std::string(prefix.size(), ' ') + suf;
      last_line = prefix.size() + suf.size();
    } else {
      s += ", " + suf;
      last_line += suf.size() + 2;
    }
  }
  return s + ")";
}

std::string python_float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << tensor_repr(t); }

}  // namespace amps::rt
