// Tests of the autocast policy tables: every op has a deliberate row, and the lists match the references.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "amp/policy.hpp"

namespace amps::amp {
namespace {

using rt::DeviceType;
using rt::OpId;

constexpr DeviceType kDevices[] = {DeviceType::cuda, DeviceType::cpu, DeviceType::xla, DeviceType::xpu};

std::vector<std::string> names(DeviceType d, Policy p) {
  std::vector<std::string> out;
  for (OpId op : ops_with_policy(d, p)) out.emplace_back(rt::op_id_name(op));
  return out;
}

TEST(AmpPolicyTable, EveryOpOfTheOpTableHasADeliberateRow) {
  for (int i = 0; i < rt::op_count; ++i)
    EXPECT_TRUE(has_policy_row(OpId(i))) << "amp/policy_table.def has no row for op '" << rt::op_id_name(OpId(i))
                                         << "': add one with a policy per device type";
}

TEST(AmpPolicyTable, InPlaceOpsAreNeverListed) {
  for (int i = 0; i < rt::op_count; ++i)
    if (rt::op_has(OpId(i), rt::opflag::inplace)) {
      for (DeviceType d : kDevices) EXPECT_EQ(policy_for(d, OpId(i)), Policy::none) << rt::op_id_name(OpId(i));
    }
}

TEST(AmpPolicyTable, CudaListsArePyTorchsSharedLists) {
  using V = std::vector<std::string>;
  EXPECT_EQ(names(DeviceType::cuda, Policy::lower_precision_fp),
            (V{"prelu", "lstm_cell", "gru_cell", "rnn_tanh_cell", "rnn_relu_cell", "matmul", "mm", "bmm", "addmm", "addbmm",
               "baddbmm", "addmv", "addr", "mv", "scaled_dot_product_attention", "einsum", "linear", "conv1d", "conv2d",
               "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "chain_matmul", "linalg_multi_dot",
               "linalg_vecdot"}));
  EXPECT_EQ(names(DeviceType::cuda, Policy::fp32_set_opt_dtype),
            (V{"sum", "prod", "cumsum", "cumprod", "softmax", "log_softmax", "linalg_vector_norm", "linalg_matrix_norm",
               "linalg_matrix_norm_str_ord"}));
  EXPECT_EQ(names(DeviceType::cuda, Policy::fp32_append_dtype), (V{"norm"}));
  EXPECT_EQ(names(DeviceType::cuda, Policy::promote),
            (V{"atan2", "addcmul", "addcdiv", "scatter_add", "grid_sampler", "index_put", "dot", "vdot", "cross",
               "bilinear", "tensordot"}));
  EXPECT_EQ(names(DeviceType::cuda, Policy::banned), (V{"binary_cross_entropy"}));
  for (const char* op : {"exp", "log", "pow", "rsqrt", "layer_norm", "group_norm", "mse_loss", "nll_loss", "cdist",
                         "binary_cross_entropy_with_logits", "logsumexp", "softplus", "cosine_similarity", "tan", "sinh",
                         "cosh", "asin", "acos", "log10", "erfinv", "kl_div", "huber_loss", "upsample_nearest2d",
                         "upsample_bilinear2d", "upsample_trilinear3d", "dist", "pdist", "renorm", "rms_norm"})
    EXPECT_EQ(policy_for(DeviceType::cuda, *rt::op_from_id_name(op)), Policy::fp32) << op;
}

TEST(AmpPolicyTable, CpuHasOnlyLowerFp32AndPromote) {
  using V = std::vector<std::string>;
  EXPECT_TRUE(names(DeviceType::cpu, Policy::fp32_set_opt_dtype).empty());
  EXPECT_TRUE(names(DeviceType::cpu, Policy::fp32_append_dtype).empty());
  EXPECT_TRUE(names(DeviceType::cpu, Policy::banned).empty());
  EXPECT_EQ(names(DeviceType::cpu, Policy::promote), (V{"cat", "stack", "index_copy"}));
  EXPECT_EQ(policy_for(DeviceType::cpu, OpId::binary_cross_entropy), Policy::fp32);
  EXPECT_EQ(policy_for(DeviceType::cpu, OpId::softmax), Policy::none);
  EXPECT_EQ(policy_for(DeviceType::cpu, OpId::exp), Policy::none);
  EXPECT_EQ(policy_for(DeviceType::cpu, OpId::prod), Policy::fp32);
  EXPECT_EQ(policy_for(DeviceType::cpu, OpId::addmv), Policy::none);  // not in AutocastCPU's list
  EXPECT_EQ(policy_for(DeviceType::cpu, OpId::conv_transpose2d), Policy::lower_precision_fp);
  // the 3-D pooling ops and unpooling are on AutocastCPU's fp32 list; 2-D (adaptive) max pooling is not
  for (OpId op : {OpId::max_pool3d, OpId::avg_pool3d, OpId::adaptive_avg_pool3d, OpId::adaptive_max_pool3d,
                  OpId::max_unpool2d, OpId::max_unpool3d})
    EXPECT_EQ(policy_for(DeviceType::cpu, op), Policy::fp32) << rt::op_name(op);
  for (OpId op : {OpId::max_pool3d_with_indices, OpId::adaptive_max_pool1d, OpId::adaptive_max_pool2d}) {
    EXPECT_EQ(policy_for(DeviceType::cpu, op), Policy::none) << rt::op_name(op);
    EXPECT_EQ(policy_for(DeviceType::cuda, op), Policy::none) << rt::op_name(op);
  }
}

// grid_sampler is promote on cuda (PyTorch's shared list; its 2d/3d kernels are on no list there), fp32 on the CPU
// with grid_sampler_2d/3d; PyTorch/XLA comments them all out and the XPU docs list has none; affine_grid_generator is
// on no list.
TEST(AmpPolicyTable, GridSamplersFollowEachDevicesList) {
  EXPECT_EQ(policy_for(DeviceType::cuda, OpId::grid_sampler), Policy::promote);
  for (OpId op : {OpId::grid_sampler, OpId::grid_sampler_2d, OpId::grid_sampler_3d}) {
    EXPECT_EQ(policy_for(DeviceType::cpu, op), Policy::fp32) << rt::op_name(op);
    EXPECT_EQ(policy_for(DeviceType::xla, op), Policy::none) << rt::op_name(op);
    EXPECT_EQ(policy_for(DeviceType::xpu, op), Policy::none) << rt::op_name(op);
  }
  for (OpId op : {OpId::grid_sampler_2d, OpId::grid_sampler_3d, OpId::grid_sampler_2d_backward,
                  OpId::grid_sampler_3d_backward})
    EXPECT_EQ(policy_for(DeviceType::cuda, op), Policy::none) << rt::op_name(op);
  for (DeviceType d : kDevices) EXPECT_EQ(policy_for(d, OpId::affine_grid_generator), Policy::none);
}

// AutocastCPU's fp32 list names the decompositions, solves and most linalg_* ops (lu_solve and torch.lu's
// _lu_with_info among them); det, slogdet, solve_triangular, pinv, matrix_power, the norms, the linalg LU ops and
// matrix_exp are on no list; linalg_vecdot is lower precision.
TEST(AmpPolicyTable, CpuRunsTheLinalgListInFp32) {
  for (const char* op : {"cholesky", "inverse", "qr", "svd", "cholesky_solve", "cholesky_inverse", "triangular_solve",
                         "pinverse", "linalg_solve", "linalg_eigh", "linalg_eigvalsh", "linalg_qr", "linalg_svd",
                         "linalg_svdvals", "linalg_matrix_rank", "linalg_lstsq", "lu_solve", "_lu_with_info"})
    EXPECT_EQ(policy_for(DeviceType::cpu, *rt::op_from_id_name(op)), Policy::fp32) << op;
  for (const char* op : {"det", "logdet", "slogdet", "linalg_det", "linalg_slogdet", "linalg_solve_triangular",
                         "linalg_pinv", "matrix_power", "linalg_norm", "linalg_vector_norm", "linalg_matrix_norm",
                         "linalg_cross", "tensordot", "chain_matmul", "linalg_multi_dot", "linalg_lu_factor",
                         "linalg_lu_factor_ex", "linalg_lu", "linalg_lu_solve", "lu_unpack", "linalg_matrix_exp",
                         "matrix_exp"})
    EXPECT_EQ(policy_for(DeviceType::cpu, *rt::op_from_id_name(op)), Policy::none) << op;
  EXPECT_EQ(policy_for(DeviceType::cpu, OpId::linalg_vecdot), Policy::lower_precision_fp);
  EXPECT_EQ(policy_for(DeviceType::xla, OpId::linalg_svd), Policy::fp32);
  EXPECT_EQ(policy_for(DeviceType::xla, OpId::linalg_solve), Policy::none);
  EXPECT_EQ(policy_for(DeviceType::xla, OpId::lu_solve), Policy::none);  // "not lowered" on PyTorch/XLA
  EXPECT_EQ(policy_for(DeviceType::cuda, OpId::lu_solve), Policy::none);
}

TEST(AmpPolicyTable, XlaIsTheTpuList) {
  EXPECT_EQ(policy_for(DeviceType::xla, OpId::relu), Policy::lower_precision_fp);
  EXPECT_EQ(policy_for(DeviceType::xla, OpId::max_pool2d), Policy::lower_precision_fp);
  EXPECT_EQ(policy_for(DeviceType::xla, OpId::softmax), Policy::fp32);
  EXPECT_EQ(policy_for(DeviceType::xla, OpId::batch_norm), Policy::fp32);
  EXPECT_EQ(policy_for(DeviceType::xla, OpId::binary_cross_entropy), Policy::fp32);
  EXPECT_EQ(policy_for(DeviceType::xla, OpId::addmv), Policy::none);
  EXPECT_EQ(names(DeviceType::xla, Policy::promote), (std::vector<std::string>{"cat", "stack", "index_copy"}));
  EXPECT_EQ(supported_autocast_dtypes(DeviceType::xla), (std::vector<rt::DType>{rt::DType::bfloat16}));
}

TEST(AmpPolicyTable, XpuIsTheSeedList) {
  using V = std::vector<std::string>;
  EXPECT_EQ(names(DeviceType::xpu, Policy::lower_precision_fp),
            (V{"matmul", "bmm", "addmm", "baddbmm", "linear", "conv1d", "conv2d", "conv3d"}));
  EXPECT_EQ(names(DeviceType::xpu, Policy::fp32), (V{"log_softmax", "cross_entropy", "nll_loss"}));
  EXPECT_EQ(names(DeviceType::xpu, Policy::promote), (V{"cat", "stack"}));
  EXPECT_EQ(names(DeviceType::xpu, Policy::banned), (V{"binary_cross_entropy"}));
}

TEST(AmpPolicyTable, DefaultDtypesAndNames) {
  EXPECT_EQ(default_autocast_dtype(DeviceType::cuda), rt::DType::float16);
  EXPECT_EQ(default_autocast_dtype(DeviceType::cpu), rt::DType::bfloat16);
  EXPECT_EQ(default_autocast_dtype(DeviceType::xla), rt::DType::bfloat16);
  EXPECT_EQ(default_autocast_dtype(DeviceType::xpu), rt::DType::bfloat16);
  for (int p = 0; p < policy_count; ++p) EXPECT_EQ(policy_from_name(policy_name(Policy(p))), Policy(p));
  EXPECT_FALSE(policy_from_name("lower"));
}

TEST(AmpPolicyTable, BannedMessageIsPyTorchs) {
  std::string m = banned_message(OpId::binary_cross_entropy);
  EXPECT_TRUE(m.starts_with("torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"));
  EXPECT_NE(m.find("binary_cross_entropy_with_logits and BCEWithLogits are\nsafe to autocast."), std::string::npos);
}

// docs/cast-lists.md is generated: regenerate with `amps --dump-cast-lists > docs/cast-lists.md`.
TEST(AmpPolicyTable, CommittedCastListsDocIsUpToDate) {
  auto path = std::filesystem::path(AMPS_SOURCE_DIR) / "docs/cast-lists.md";
  std::ifstream f(path);
  ASSERT_TRUE(f) << "missing " << path;
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_EQ(ss.str(), cast_lists_markdown()) << path << " is stale: run `amps --dump-cast-lists > docs/cast-lists.md`";
}

}  // namespace
}  // namespace amps::amp
