// Line charts as standalone SVG documents (axes, ticks, grid, legend, optional log y axis).
#pragma once

#include <string>
#include <vector>

namespace amps::stdlib::plot {

struct Series {
  std::string name;        // legend label; series with an empty name get no legend entry
  std::vector<double> x, y;
};

struct ChartOptions {
  std::string title, xlabel, ylabel;
  bool logy = false;       // points with y <= 0 are left out on a log axis
  int width = 800, height = 500;
};

// The SVG text of a line chart. Non-finite points (and y <= 0 with logy) break a line instead of
// distorting the axes. An empty chart still has axes (range 0..1).
std::string render_lines(const std::vector<Series>& series, const ChartOptions& opt);

// Tick positions for an axis: "nice" steps of 1, 2 or 5 x 10^k covering [lo, hi] for a linear axis,
// powers of ten for a log axis (lo, hi > 0). At least two ticks.
std::vector<double> linear_ticks(double lo, double hi, int target = 6);
std::vector<double> log_ticks(double lo, double hi);
// A short tick label ("0.25", "1e+05", "1000").
std::string tick_label(double v);
// Text with &, <, >, " escaped for XML.
std::string xml_escape(const std::string& s);

}  // namespace amps::stdlib::plot
