// The REPL's cast-exploration commands (see repl_commands.hpp). `:explain` installs a tracing
// dispatch layer for one evaluation and lists every op the expression ran: its input and
// output dtypes and the autocast policy of the op for the device it ran on; `:profile` times them.
#include "interp/repl_commands.hpp"

#include <fmt/format.h>

#include <chrono>

#include "interp/tensor_value.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/op_profiler.hpp"

namespace amps::interp {

const char* kCastCommandsHelp =
    "  :policy DEVICE   the autocast cast lists of a device type (cuda, cpu, xla, xpu)\n"
    "  :explain EXPR    run EXPR and show each op it ran, its dtypes and its cast policy\n"
    "  :profile CODE    run CODE and time each op it ran (op, dtype, calls, self/total ms)\n"
    "  :trace on|off    print every autocast decision as it happens\n";

namespace {

// Records (op, input dtypes, output dtypes, device) of every op dispatched while installed.
class ExplainLayer : public rt::DispatchLayer {
 public:
  struct Entry {
    rt::OpId op;
    std::vector<rt::DType> in, out;
    rt::DeviceType device;
  };
  std::string_view name() const override { return "explain"; }
  rt::Tensors call(rt::OpId op, rt::Args& args, const rt::Next& next) override {
    Entry e{op, {}, {}, rt::DeviceType::cpu};
    for (auto& a : args)
      if (a.is_tensor()) e.in.push_back(a.tensor().dtype()), e.device = a.tensor().device().type;
    rt::Tensors out = next(op, args);
    for (auto& t : out) e.out.push_back(t.dtype());
    entries.push_back(std::move(e));
    return out;
  }
  std::vector<Entry> entries;
};

std::string dtypes(const std::vector<rt::DType>& ds) {
  std::string s;
  for (size_t i = 0; i < ds.size(); ++i) s += (i ? ", " : "") + std::string(rt::dtype_name(ds[i]));
  return s;
}

// amp.<fn>(args...) through the amp module, as a script would call it.
Value amp_call(Interp& in, const char* fn, std::vector<Value> args) {
  Value amp = in.import_module({intern("amp")}, {});
  return in.call(in.get_attr(amp, intern(fn), {}), std::move(args));
}

void policy(Interp& in, const std::string& device) {
  static const char* policies[] = {"lower_precision_fp", "fp32", "fp32_set_opt_dtype", "fp32_append_dtype", "promote", "banned"};
  for (const char* p : policies) {
    Value ops = amp_call(in, "ops", {make_str(device), make_str(p)});
    in.write_out(fmt::format("{} ({}):\n  {}\n", p, ops.as<List>()->items.size(), in.str(make_str(in.repr(ops)))));
  }
}

// Runs [code] (named [name] in diagnostics) with [layer] installed at [order] for that evaluation only.
Value run_with_layer(Interp& in, const std::shared_ptr<rt::DispatchLayer>& layer, int order, const char* name,
                     const std::string& code) {
  in.runtime().add_layer(layer, order);
  struct Remove {
    Interp& in;
    rt::DispatchLayer* layer;
    ~Remove() { in.runtime().remove_layer(layer); }
  } remove{in, layer.get()};
  return in.run(std::make_shared<SourceFile>(name, code, "."), true);
}

void explain(Interp& in, const std::string& code) {
  auto layer = std::make_shared<ExplainLayer>();
  Value result = run_with_layer(in, layer, rt::layer_order::tracing, "<explain>", code);
  for (auto& e : layer->entries) {
    std::string dev(rt::device_type_name(e.device));
    Value pol = amp_call(in, "cast_policy", {make_str(dev), make_str(std::string(rt::op_name(e.op)))});
    in.write_out(fmt::format("  {}({}) -> {}   [{} policy: {}]\n", rt::op_name(e.op), dtypes(e.in), dtypes(e.out), dev, in.str(pol)));
  }
  if (layer->entries.empty()) in.write_out("  (no tensor ops ran)\n");
  if (!result.is_undef() && !result.is_none()) in.write_out(in.repr(result) + "\n");
}

// :profile CODE: the --profile table of one evaluation.
void profile(Interp& in, const std::string& code) {
  auto profiler = std::make_shared<rt::OpProfiler>();
  const auto start = std::chrono::steady_clock::now();
  Value result = run_with_layer(in, profiler, rt::layer_order::profiling, "<profile>", code);
  in.write_out(profiler->table(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
  if (!result.is_undef() && !result.is_none()) in.write_out(in.repr(result) + "\n");
}

std::string arg_of(const std::string& line, size_t cmd_len) {
  std::string rest = line.substr(std::min(line.size(), cmd_len));
  size_t b = rest.find_first_not_of(" \t");
  return b == std::string::npos ? "" : rest.substr(b);
}

}  // namespace

bool run_cast_command(Interp& in, const std::string& line) {
  try {
    if (line.starts_with(":policy")) {
      std::string dev = arg_of(line, 7);
      if (dev.empty()) in.write_out("usage: :policy cuda|cpu|xla|xpu\n");
      else policy(in, dev);
    } else if (line.starts_with(":explain")) {
      std::string code = arg_of(line, 8);
      if (code.empty()) in.write_out("usage: :explain EXPR   e.g. :explain mm(a, b)\n");
      else explain(in, code);
    } else if (line.starts_with(":profile")) {
      std::string code = arg_of(line, 8);
      if (code.empty()) in.write_out("usage: :profile CODE   e.g. :profile train_step()\n");
      else profile(in, code);
    } else if (line.starts_with(":trace")) {
      std::string mode = arg_of(line, 6);
      if (mode == "on" || mode == "off") in.trace_casts = mode == "on";
      in.write_out(fmt::format("cast tracing is {}\n", in.trace_casts ? "on" : "off"));
    } else {
      return false;
    }
  } catch (const AmpsError& e) {
    in.write_err(format_diagnostic(e));
  }
  return true;
}

}  // namespace amps::interp
