// f32<->bf16/f16 conversion and staging of arguments whose dtype or layout a primitive cannot take.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/backend/cpu/dnnl_common.hpp"
#include "runtime/backend/cpu/dnnl_detail.hpp"

namespace amps::rt::dnnl_cpu::detail {

// Scalar conversions, round-to-nearest-even; denormals are kept and NaN stays NaN (unlike
// oneDNN's reference reorder, which flushes bf16 denormals, and its f16 one, which loses the sign of -0).
uint16_t f32_to_bf16(float f);
float bf16_to_f32(uint16_t h);
uint16_t f32_to_f16(float f);
float f16_to_f32(uint16_t h);

// Copies 'src' into 'dst' element by element (same dims, any strides on both sides), converting
// the element type through f32: one rounding at most.
void copy_convert(const DnnlArg& src, const DnnlArg& dst);

// The type an argument of user type 'user' is presented in to a primitive computing in 'compute':
// f32 compute takes everything as f32; bf16 compute takes bf16 and f32 as they are, f16 as f32.
DnnlType io_type(DnnlType user, DnnlType compute);

// [a]'s strides when they are a dense tensor's in some dim order (a transposed or permuted view of a
// contiguous buffer), else row-major dense ones: the layout a converted copy of [a] may keep.
Dims kept_order_strides(const DnnlArg& a);

// The memory desc of the view Staging::in/out(a, t, dense, keep_order) will return (without staging).
Md staged_md(const DnnlArg& a, DnnlType t, bool dense = false, bool keep_order = false);

// Whether oneDNN's reorder from [from] to [to] converts bit-identically to runtime/half. Its JIT kernels
// convert bf16 to f32 exactly, and f32 to bf16 (round-to-nearest-even, denormals kept, NaN quieted with
// sign and payload kept) where they round in software; on CPUs with avx512_bf16 they use vcvtneps2bf16,
// which reads f32 denormals as zero, and the reference kernel flushes denormals too, so neither is exact
// (tests/unit/runtime/dnnl_reorder_test.cpp checks both sides). A conversion only goes to oneDNN where this holds.
bool exact_reorder(const Md& from, const Md& to);

// The view of [a] to bind, with Exec, where a primitive computing in [ct] wants [want]: a bf16 argument
// of an f32 computation as it is when oneDNN converts it exactly (dtype and layout in one reorder pass,
// [in] the direction into the primitive), else the view Staging::in/out gives.
bool direct_bf16(const DnnlArg& a, DnnlType ct, const Md& want, bool in);

// Owns the temporaries of one call. in()/out() return a view of the argument with element type
// 't' (row-major dense when 'dense'): the argument itself when it already is one, else a
// temporary, row-major, or with [a]'s own dim order when 'keep_order' (kept_order_strides: a
// transposed view converts as one contiguous run). Output temporaries are converted back (rounded once) by finish(), which the caller
// runs after the primitive; 'load' first copies the destination in (for beta accumulation).
class Staging {
 public:
  Staging() = default;
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  ~Staging();  // gives the temporaries back to the host block cache
  DnnlArg in(const DnnlArg& a, DnnlType t, bool dense = false, bool keep_order = false);
  DnnlArg out(const DnnlArg& a, DnnlType t, bool dense = false, bool load = false);
  DnnlArg temp(const std::vector<int64_t>& dims, DnnlType t, Dims strides = {});  // dense scratch (row-major
                                                                                 // unless [strides] given)
  void finish();

 private:
  std::vector<std::pair<void*, size_t>> bufs_;  // from host_block_alloc: no page-faulting mmap per call
  std::vector<std::pair<DnnlArg, DnnlArg>> back_;  // (temp, user) pairs for finish()
};

}  // namespace amps::rt::dnnl_cpu::detail
