// progress and CSV-logging units: bar and log-line rendering, durations, rates, CSV quoting,
// the header written once and checked against an existing file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "stdlib/progress/csv_log.hpp"
#include "stdlib/progress/progress.hpp"

namespace amps::stdlib::progress {
namespace {

TEST(Progress, BarShowsCountPercentRateAndEta) {
  ProgressState s{"train", 4, 10, 2.0};
  EXPECT_EQ(format_bar(s), "train:  40%|########            | 4/10 [00:02<00:03, 2.00 it/s]");
  EXPECT_EQ(format_line(s), "train: 4/10 (40%) 2.00 it/s, elapsed 00:02, ETA 00:03");
  ProgressState open{"", 7, std::nullopt, 3.5};
  EXPECT_EQ(format_bar(open), "7 [00:04, 2.00 it/s]");
  EXPECT_EQ(format_line(open), "7 2.00 it/s, elapsed 00:04");
}

TEST(Progress, DurationsAndRates) {
  EXPECT_EQ(format_duration(65), "01:05");
  EXPECT_EQ(format_duration(3665), "1:01:05");
  EXPECT_EQ(format_duration(NAN), "?");
  EXPECT_EQ(format_rate(1, 4), "4.00 s/it");
  EXPECT_EQ(format_rate(0, 4), "? it/s");
}

TEST(Csv, QuotingRoundTrips) {
  EXPECT_EQ(csv_escape("plain"), "plain");
  EXPECT_EQ(csv_escape("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_escape("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_split("x,\"a,b\",\"say \"\"hi\"\"\","), (std::vector<std::string>{"x", "a,b", "say \"hi\"", ""}));
}

TEST(Csv, HeaderOnceAndColumnsChecked) {
  std::string path = (std::filesystem::temp_directory_path() / ("amps_csv_" + std::to_string(::getpid()) + ".csv")).string();
  std::filesystem::remove(path);
  {
    CsvFile f(path, {"step", "loss"});
    f.append({{"step", "1"}, {"loss", "0.5"}});
  }
  {
    CsvFile f(path, {});   // columns from the existing header
    EXPECT_EQ(f.fields(), (std::vector<std::string>{"step", "loss"}));
    f.append({{"loss", "0.25"}});
    EXPECT_THROW(f.append({{"acc", "1"}}), ScriptError);
  }
  EXPECT_THROW(CsvFile(path, {"epoch"}), ScriptError);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, "step,loss\n1,0.5\n,0.25\n");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace amps::stdlib::progress
