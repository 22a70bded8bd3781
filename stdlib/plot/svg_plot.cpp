// SVG line-chart rendering (see svg_plot.hpp).
#include "stdlib/plot/svg_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace amps::stdlib::plot {

namespace {

// Matplotlib's "tab10" palette: distinct, colour-blind friendly.
const char* const kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                               "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr double kLeft = 80, kRight = 30, kTop = 50, kBottom = 60;

// Data range of one axis, widened to its ticks; maps data values to pixels.
struct Axis {
  double lo, hi;
  bool log;
  std::vector<double> ticks;
  double px0, px1;   // pixel positions of lo and hi
  double operator()(double v) const {
    double f = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
    return px0 + f * (px1 - px0);
  }
};

bool usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

Axis make_axis(std::vector<double> vals, bool log, double px0, double px1) {
  double lo = log ? 1 : 0, hi = log ? 10 : 1;
  if (!vals.empty()) {
    auto [mn, mx] = std::minmax_element(vals.begin(), vals.end());
    lo = *mn, hi = *mx;
  }
  if (lo == hi) {
    double pad = log ? 0 : std::max(std::abs(lo) * 0.1, 1.0);
    lo = log ? lo / 10 : lo - pad, hi = log ? hi * 10 : hi + pad;
  }
  std::vector<double> t = log ? log_ticks(lo, hi) : linear_ticks(lo, hi);
  return {std::min(lo, t.front()), std::max(hi, t.back()), log, t, px0, px1};
}

std::vector<double> values(const std::vector<Series>& ss, bool y_axis, bool log) {
  std::vector<double> out;
  for (auto& s : ss)
    for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i)
      if (std::isfinite(s.x[i]) && usable(s.y[i], y_axis && log)) out.push_back(y_axis ? s.y[i] : s.x[i]);
  return out;
}

// One <polyline> per unbroken run of usable points.
std::string series_paths(const Series& s, const Axis& ax, const Axis& ay, const char* color) {
  std::string out, pts;
  auto flush = [&] {
    if (!pts.empty()) out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.8\" stroke-linejoin=\"round\" points=\"{}\"/>\n", color, pts);
    pts.clear();
  };
  for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
    if (!std::isfinite(s.x[i]) || !usable(s.y[i], ay.log)) { flush(); continue; }
    pts += fmt::format("{}{:.2f},{:.2f}", pts.empty() ? "" : " ", ax(s.x[i]), ay(s.y[i]));
  }
  flush();
  return out;
}

std::string axes(const Axis& ax, const Axis& ay, const ChartOptions& o) {
  std::string out = fmt::format("<g stroke=\"#e0e0e0\" stroke-width=\"1\">\n");
  for (double t : ax.ticks) out += fmt::format("<line x1=\"{0:.2f}\" y1=\"{1}\" x2=\"{0:.2f}\" y2=\"{2}\"/>\n", ax(t), ay.px1, ay.px0);
  for (double t : ay.ticks) out += fmt::format("<line x1=\"{1}\" y1=\"{0:.2f}\" x2=\"{2}\" y2=\"{0:.2f}\"/>\n", ay(t), ax.px0, ax.px1);
  out += "</g>\n";
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>\n", ax.px0, ay.px1,
                     ax.px1 - ax.px0, ay.px0 - ay.px1);
  out += "<g font-size=\"12\" fill=\"#333\">\n";
  for (double t : ax.ticks)
    out += fmt::format("<text x=\"{:.2f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", ax(t), ay.px0 + 18, tick_label(t));
  for (double t : ay.ticks)
    out += fmt::format("<text x=\"{}\" y=\"{:.2f}\" text-anchor=\"end\" dominant-baseline=\"middle\">{}</text>\n", ax.px0 - 8, ay(t), tick_label(t));
  out += "</g>\n";
  return out;
}

std::string labels(const ChartOptions& o) {
  double cx = kLeft + (o.width - kLeft - kRight) / 2, cy = kTop + (o.height - kTop - kBottom) / 2;
  std::string out;
  if (!o.title.empty()) out += fmt::format("<text x=\"{}\" y=\"30\" text-anchor=\"middle\" font-size=\"18\" font-weight=\"bold\">{}</text>\n", cx, xml_escape(o.title));
  if (!o.xlabel.empty()) out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n", cx, o.height - 15, xml_escape(o.xlabel));
  if (!o.ylabel.empty())
    out += fmt::format("<text x=\"20\" y=\"{0}\" text-anchor=\"middle\" font-size=\"14\" transform=\"rotate(-90 20 {0})\">{1}</text>\n", cy, xml_escape(o.ylabel));
  return out;
}

std::string legend(const std::vector<Series>& ss, double right, double top) {
  size_t named = 0, longest = 0;
  for (auto& s : ss)
    if (!s.name.empty()) ++named, longest = std::max(longest, s.name.size());
  if (named == 0) return "";
  double w = 40 + 7.5 * double(longest), h = 8 + 20 * double(named), x = right - w - 10, y = top + 10;
  std::string out = fmt::format("<g font-size=\"13\">\n<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#999\"/>\n", x, y, w, h);
  double row = y + 18;
  for (size_t i = 0; i < ss.size(); ++i) {
    if (ss[i].name.empty()) continue;
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"{3}\" stroke-width=\"2.5\"/>\n", x + 8, row - 4, x + 30, kColors[i % 10]);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", x + 36, row, xml_escape(ss[i].name));
    row += 20;
  }
  return out + "</g>\n";
}

}  // namespace

std::vector<double> linear_ticks(double lo, double hi, int target) {
  double raw = (hi - lo) / target, mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag * (raw / mag < 1.5 ? 1 : raw / mag < 3 ? 2 : raw / mag < 7 ? 5 : 10);
  std::vector<double> t;
  for (double k = std::floor(lo / step); k <= std::ceil(hi / step) + 1e-9; ++k) t.push_back(std::abs(k * step) < step * 1e-9 ? 0.0 : k * step);
  return t;
}

std::vector<double> log_ticks(double lo, double hi) {
  int k0 = int(std::floor(std::log10(lo) + 1e-12)), k1 = int(std::ceil(std::log10(hi) - 1e-12));
  if (k1 <= k0) k1 = k0 + 1;
  int stride = std::max(1, (k1 - k0 + 7) / 8);   // at most ~8 labelled decades
  std::vector<double> t;
  for (int k = k0; k <= k1 + stride - 1; k += stride) {
    t.push_back(std::pow(10.0, k));
    if (k1 - k0 <= 2 && k < k1)   // a narrow range also gets 2x and 5x ticks
      for (double m : {2.0, 5.0}) t.push_back(m * std::pow(10.0, k));
  }
  return t;
}

std::string tick_label(double v) {
  if (v == 0) return "0";
  double a = std::abs(v);
  if (a >= 1e5 || a < 1e-3) return fmt::format("{:.0e}", v);
  return fmt::format("{:.6g}", v);
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string render_lines(const std::vector<Series>& series, const ChartOptions& o) {
  Axis ax = make_axis(values(series, false, false), false, kLeft, o.width - kRight);
  Axis ay = make_axis(values(series, true, o.logy), o.logy, o.height - kBottom, kTop);
  std::string svg = fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
                                "viewBox=\"0 0 {0} {1}\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
                                "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", o.width, o.height);
  svg += axes(ax, ay, o) + labels(o);
  svg += fmt::format("<clipPath id=\"plot-area\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n<g clip-path=\"url(#plot-area)\">\n",
                     ax.px0, ay.px1, ax.px1 - ax.px0, ay.px0 - ay.px1);
  for (size_t i = 0; i < series.size(); ++i) svg += series_paths(series[i], ax, ay, kColors[i % 10]);
  return svg + "</g>\n" + legend(series, ax.px1, ay.px1) + "</svg>\n";
}

}  // namespace amps::stdlib::plot
