// The Python -> PCRE2 pattern translation of the `re` module (stdlib/re/re_translate.cpp): the rewrites PCRE2 needs
// to match as Python does, group bookkeeping (numbers, names, nesting for Match.lastindex), inline global flags, and
// positions counted in characters for non-ASCII patterns. Python's error messages are checked end to end by the
// goldens tests/lang/stdlib/re_errors.amps and re_refused.amps.
#include <gtest/gtest.h>

#include "stdlib/re/re_translate.hpp"

namespace amps::stdlib::re {
namespace {

std::string pcre(const std::string& p, int flags = 0) {
  Translation t = translate(p, flags);
  EXPECT_EQ(t.error, "") << p;
  return t.pcre;
}

TEST(ReTranslate, RewritesWhatPcre2ReadsDifferently) {
  EXPECT_EQ(pcre(R"(a\Z)"), R"(a\z)");                       // Python's \Z is end-only: PCRE2's \z
  EXPECT_EQ(pcre(R"(\v[\b])"), R"(\x{b}[\x{8}])");            // \v is one character, \b in a class a backspace
  EXPECT_EQ(pcre(R"(\u00e9\U0001F600\x41\101\0)"), R"(\x{e9}\x{1f600}\x{41}\x{41}\x{0})");
  EXPECT_EQ(pcre(R"((a)\1(?P<n>b)(?P=n))"), R"((a)\g{1}(?P<n>b)\g{2})");
  EXPECT_EQ(pcre("[[:alpha:]]"), R"([\[:alpha:]])");          // no POSIX classes in Python
  EXPECT_EQ(pcre("a{,3}b{2,}c{x}"), "a{0,3}b{2,}c{x}");
  EXPECT_EQ(pcre("(?#note)a"), "a");
  EXPECT_EQ(pcre(" a # c\n [ #] ", 64), "a[ #]");              // verbose: dropped outside classes only
}

TEST(ReTranslate, GroupsNamesAndNesting) {
  Translation t = translate("((?P<x>a)(?:b)(c(d)))", 0);
  EXPECT_EQ(t.groups, 4);
  EXPECT_EQ(t.parents, (std::vector<int>{0, 1, 1, 3}));   // group 1 holds 2 and 3, 3 holds 4
  EXPECT_EQ(t.names.at("x"), 2);
}

TEST(ReTranslate, InlineGlobalFlags) {
  Translation t = translate("(?im)(?x) a b", 0);
  EXPECT_EQ(t.flags, 2 | 8 | 64);
  EXPECT_EQ(t.pcre, "ab");
  EXPECT_EQ(translate("(?a)\\w", 0).flags, 256);
}

TEST(ReTranslate, ErrorPositionsCountCharacters) {
  Translation t = translate("éé)", 0);
  EXPECT_EQ(t.error, "unbalanced parenthesis");
  EXPECT_EQ(t.error_pos, 2);
  t = translate("ü(?P<n>x)(?P<n>y)", 0);
  EXPECT_EQ(t.error_pos, 13);
}

}  // namespace
}  // namespace amps::stdlib::re
