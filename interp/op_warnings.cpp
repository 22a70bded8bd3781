// PyTorch 1.13's deprecation warnings for uint8 masks and conditions (masked_select, masked_fill(_), masked_scatter(_),
// where): the ops run with the mask read as bool, and the script's err sink gets the UserWarning once per process,
// as Python shows a warning once.
#include <fmt/format.h>

#include <atomic>

#include "interp/diagnostics.hpp"
#include "interp/warnings.hpp"
#include "interp/interp.hpp"
#include "runtime/ivalue.hpp"
#include "runtime/op.hpp"

namespace amps::interp {
namespace {

using O = rt::OpId;

struct MaskWarning {
  O op;
  size_t arg;        // the mask's argument index
  const char* text;  // PyTorch's text, its missing space included
  std::atomic<bool>* shown;
};

std::atomic<bool> g_select{false}, g_fill{false}, g_scatter{false}, g_where{false};

constexpr const char* kSelect = "masked_select received a mask with dtype torch.uint8, this behavior is now "
                                "deprecated,please use a mask with dtype torch.bool instead.";
constexpr const char* kFill = "masked_fill_ received a mask with dtype torch.uint8, this behavior is now "
                              "deprecated,please use a mask with dtype torch.bool instead.";
constexpr const char* kScatter = "masked_scatter_ received a mask with dtype torch.uint8, this behavior is now "
                                 "deprecated,please use a mask with dtype torch.bool instead.";
constexpr const char* kWhere = "where received a uint8 condition tensor. This behavior is deprecated and will be "
                               "removed in a future version of PyTorch. Use a boolean condition instead.";

const MaskWarning kWarnings[] = {
    {O::masked_select, 1, kSelect, &g_select},   {O::masked_fill, 1, kFill, &g_fill},
    {O::masked_fill_, 1, kFill, &g_fill},        {O::masked_scatter, 1, kScatter, &g_scatter},
    {O::masked_scatter_, 1, kScatter, &g_scatter}, {O::where, 0, kWhere, &g_where}};

bool is_uint8_tensor(const rt::IValue& v) {
  return v.is_tensor() && v.tensor().defined() && v.tensor().dtype() == rt::DType::uint8;
}

}  // namespace

void warn_deprecated_mask(Interp& in, rt::OpId op, const rt::Args& args, const Span& where) {
  for (const MaskWarning& w : kWarnings) {
    if (w.op != op || w.arg >= args.size() || !is_uint8_tensor(args[w.arg])) continue;
    if (w.shown->exchange(true)) return;
    emit_warning(in, "UserWarning", w.text, where);
    return;
  }
}

}  // namespace amps::interp
