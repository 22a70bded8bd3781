// A small recursive-descent parser for the schema strings in ops.def.
#include "runtime/schema.hpp"

#include <array>
#include <charconv>
#include <cstdlib>

#include "runtime/error.hpp"

namespace amps::rt {
namespace {

class SchemaParser {
 public:
  explicit SchemaParser(std::string_view s) : s_(s) {}

  Schema parse() {
    Schema out;
    out.name = ident();
    if (eat('.')) out.overload = ident();
    expect('(');
    parse_args(out);
    expect(')');
    skip_ws();
    expect('-');
    expect('>');
    parse_returns(out);
    skip_ws();
    if (pos_ != s_.size()) fail("trailing text");
    finish(out);
    return out;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;

  [[noreturn]] void fail(std::string_view what) const {
    AMPS_FAIL("malformed schema '{}' at {}: {}", s_, pos_, what);
  }
  void skip_ws() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  bool peek(char c) {
    skip_ws();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  bool eat(char c) {
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }
  void expect(char c) {
    if (!eat(c)) fail(fmt::format("expected '{}'", c));
  }
  std::string ident() {
    skip_ws();
    size_t b = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    if (b == pos_) fail("expected a name");
    return std::string(s_.substr(b, pos_ - b));
  }

  void parse_args(Schema& out) {
    bool kwarg_only = false;
    while (!peek(')')) {
      if (eat('*')) {
        kwarg_only = true;
      } else {
        out.args.push_back(parse_arg());
        out.args.back().kwarg_only = kwarg_only;
      }
      if (!eat(',')) break;
    }
  }

  // Type: Base ['(' alias ['!'] ')'] ['[' [N] ']'] ['?']
  void parse_type(SchemaArg& a) {
    a.type = ident();
    if (eat('(')) {
      ident();
      a.mutated = eat('!');
      expect(')');
    }
    if (eat('[')) {
      a.list = true;
      if (!peek(']')) a.list_size = int(number().i64());
      expect(']');
    }
    a.optional = eat('?');
    static constexpr std::array<std::string_view, 8> kTypes = {"Tensor", "int",        "float",  "bool",
                                                               "Scalar", "ScalarType", "Device", "str"};
    if (std::find(kTypes.begin(), kTypes.end(), a.type) == kTypes.end()) fail("unknown type " + a.type);
  }

  SchemaArg parse_arg() {
    SchemaArg a;
    parse_type(a);
    a.name = ident();
    if (eat('=')) {
      a.has_default = true;
      a.default_value = parse_default();
    }
    return a;
  }

  IValue number() {
    skip_ws();
    size_t b = pos_;
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' ||
                                s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == '+'))
      ++pos_;
    std::string text(s_.substr(b, pos_ - b));
    if (text.empty()) fail("expected a number");
    if (text.find_first_of(".e") != std::string::npos) return IValue(std::strtod(text.c_str(), nullptr));
    return IValue(int64_t(std::strtoll(text.c_str(), nullptr, 10)));
  }

  IValue parse_default() {
    skip_ws();
    if (eat('[')) {
      Dims v;
      while (!peek(']')) {
        v.push_back(number().i64());
        if (!eat(',')) break;
      }
      expect(']');
      return IValue(v);
    }
    if (eat('\'')) {
      size_t e = s_.find('\'', pos_);
      if (e == std::string_view::npos) fail("unterminated string");
      std::string v(s_.substr(pos_, e - pos_));
      pos_ = e + 1;
      return IValue(v);
    }
    if (pos_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[pos_]))) {
      std::string w = ident();
      if (w == "None") return IValue();
      if (w == "True" || w == "False") return IValue(w == "True");
      fail("unknown default " + w);
    }
    return number();
  }

  void parse_returns(Schema& out) {
    if (!eat('(')) {
      out.returns.push_back(parse_return());
      return;
    }
    while (!peek(')')) {
      out.returns.push_back(parse_return());
      if (!eat(',')) break;
    }
    expect(')');
    bool named = out.returns.size() > 1;
    for (const SchemaReturn& r : out.returns) named = named && !r.name.empty();
    if (named)
      for (const SchemaReturn& r : out.returns) out.return_names.push_back(r.name);
  }

  SchemaReturn parse_return() {
    SchemaArg a;
    parse_type(a);
    SchemaReturn r{a.type + (a.list ? "[]" : ""), ""};
    skip_ws();
    if (pos_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[pos_]))) r.name = ident();
    return r;
  }

  static void finish(Schema& out) {
    out.out_index = out.find_arg("out");
    while (out.required_count < out.args.size() && !out.args[out.required_count].has_default)
      ++out.required_count;
  }
};

}  // namespace

int Schema::find_arg(std::string_view n) const {
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].name == n) return int(i);
  return -1;
}

Schema parse_schema(std::string_view text) { return SchemaParser(text).parse(); }

const Schema& op_parsed_schema(OpId op) {
  static const std::vector<Schema> table = [] {
    std::vector<Schema> t;
    t.reserve(size_t(op_count));
    for (int i = 0; i < op_count; ++i) t.push_back(parse_schema(op_schema(OpId(i))));
    return t;
  }();
  return table[size_t(op)];
}

}  // namespace amps::rt
