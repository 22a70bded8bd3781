// plot units: tick choice, labels, escaping, and rendered charts that parse as XML (expat).
#include <gtest/gtest.h>

#include <cmath>

#include "stdlib/plot/svg_plot.hpp"

#ifdef AMPS_HAVE_EXPAT
#include <expat.h>
#endif

namespace amps::stdlib::plot {
namespace {

TEST(Plot, LinearTicksAreNiceAndCoverTheRange) {
  EXPECT_EQ(linear_ticks(0, 1), (std::vector<double>{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1}));
  auto t = linear_ticks(3.7, 97.2);
  EXPECT_LE(t.front(), 3.7);
  EXPECT_GE(t.back(), 97.2);
  EXPECT_DOUBLE_EQ(t[1] - t[0], 20);
}

TEST(Plot, LogTicksArePowersOfTen) {
  EXPECT_EQ(log_ticks(3, 70000), (std::vector<double>{1, 10, 100, 1000, 1e4, 1e5}));
  EXPECT_EQ(log_ticks(2, 3), (std::vector<double>{1, 2, 5, 10}));   // narrow ranges get 2x and 5x ticks
}

TEST(Plot, TickLabelsAndEscaping) {
  EXPECT_EQ(tick_label(0), "0");
  EXPECT_EQ(tick_label(0.6000000000000001), "0.6");
  EXPECT_EQ(tick_label(65536), "65536");
  EXPECT_EQ(tick_label(1e6), "1e+06");
  EXPECT_EQ(xml_escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
}

TEST(Plot, NonFinitePointsBreakTheLine) {
  Series s{"loss", {0, 1, 2, 3, 4}, {1, 2, NAN, 4, 5}};
  std::string svg = render_lines({s}, {});
  size_t lines = 0;
  for (size_t p = svg.find("<polyline"); p != std::string::npos; p = svg.find("<polyline", p + 1)) ++lines;
  EXPECT_EQ(lines, 2u);
  EXPECT_EQ(svg.find("nan,"), std::string::npos);   // no NaN coordinate reached the output
  EXPECT_EQ(svg.find(",nan"), std::string::npos);
}

TEST(Plot, LogAxisLeavesOutNonPositiveValues) {
  Series s{"scale", {0, 1, 2}, {65536, 0, 32768}};
  ChartOptions o;
  o.logy = true;
  std::string svg = render_lines({s}, o);
  EXPECT_NE(svg.find(">1e+05</text>"), std::string::npos);   // a decade tick above 65536
  EXPECT_EQ(svg.find(",inf"), std::string::npos);   // log10(0) did not reach the output
  EXPECT_EQ(svg.find(",-inf"), std::string::npos);
}

#ifdef AMPS_HAVE_EXPAT
// Counts elements by name while parsing; parse errors fail the test.
struct XmlStats {
  int svg = 0, polyline = 0, text = 0;
};

XmlStats parse_xml(const std::string& doc) {
  XmlStats st;
  XML_Parser p = XML_ParserCreate(nullptr);
  XML_SetUserData(p, &st);
  XML_SetStartElementHandler(p, [](void* ud, const XML_Char* name, const XML_Char**) {
    auto* s = static_cast<XmlStats*>(ud);
    std::string n = name;
    s->svg += n == "svg", s->polyline += n == "polyline", s->text += n == "text";
  });
  bool ok = XML_Parse(p, doc.data(), int(doc.size()), 1) == XML_STATUS_OK;
  EXPECT_TRUE(ok) << XML_ErrorString(XML_GetErrorCode(p)) << " at line " << XML_GetCurrentLineNumber(p);
  XML_ParserFree(p);
  return st;
}

TEST(Plot, ChartsAreWellFormedXml) {
  Series a{"train <loss>", {}, {}}, b{"val & test", {}, {}};
  for (int i = 0; i < 50; ++i) {
    a.x.push_back(i), a.y.push_back(2.0 * std::exp(-i / 10.0));
    b.x.push_back(i), b.y.push_back(2.2 * std::exp(-i / 12.0));
  }
  ChartOptions o{"Loss \"curve\"", "step", "loss", true};
  XmlStats st = parse_xml(render_lines({a, b}, o));
  EXPECT_EQ(st.svg, 1);
  EXPECT_EQ(st.polyline, 2);
  EXPECT_GE(st.text, 8);   // title, labels, ticks and legend
  EXPECT_EQ(parse_xml(render_lines({}, {})).polyline, 0);   // an empty chart is still a document
}
#endif

}  // namespace
}  // namespace amps::stdlib::plot
