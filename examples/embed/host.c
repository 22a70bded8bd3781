/* A C host embedding amps (amps.h): the same training steps as host.cpp through the C API. */
#include <amps/amps.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* host_rmse(pred, target) in float32 (guaranteed by its fp32 cast rule inside autocast). */
static amps_status host_rmse(amps_vm* vm, amps_args* call) {
  amps_tensor_info p, t;
  if (amps_tensor_info_get(vm, amps_arg(call, 0), &p) != AMPS_OK || amps_tensor_info_get(vm, amps_arg(call, 1), &t) != AMPS_OK ||
      p.numel != t.numel || p.dtype != AMPS_FLOAT32)
    return amps_raise(call, "TypeError", "host_rmse: two float32 tensors of one size");
  float* a = malloc(sizeof(float) * (size_t)p.numel);
  float* b = malloc(sizeof(float) * (size_t)t.numel);
  amps_status s = amps_tensor_read(vm, amps_arg(call, 0), AMPS_FLOAT32, a, sizeof(float) * (size_t)p.numel);
  if (s == AMPS_OK) s = amps_tensor_read(vm, amps_arg(call, 1), AMPS_FLOAT32, b, sizeof(float) * (size_t)t.numel);
  double sum = 0;
  for (int64_t i = 0; s == AMPS_OK && i < p.numel; ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  free(a);
  free(b);
  if (s != AMPS_OK) return amps_raise(call, "RuntimeError", amps_last_error(vm)->message);
  amps_value* r = amps_float(sqrt(sum / (double)p.numel));
  amps_return(call, r);
  amps_release(r);
  return AMPS_OK;
}

static const amps_reg host_functions[] = {
    {"host_rmse", host_rmse, AMPS_CAST_FP32, NULL},
    {NULL, NULL, AMPS_CAST_NONE, NULL},
};

static int fail(amps_vm* vm) {
  fputs(amps_last_error(vm)->diagnostic, stderr);
  amps_free(vm);
  return 1;
}

/* Wraps [data] (no copy) as a float32 tensor of [rows] x [cols] and binds it to global [name]. */
static amps_status set_tensor(amps_vm* vm, const char* name, float* data, int64_t rows, int64_t cols) {
  int64_t shape[2] = {rows, cols};
  amps_value* t = NULL;
  amps_status s = amps_tensor_wrap(vm, data, AMPS_FLOAT32, 2, shape, NULL, NULL, NULL, &t);
  if (s == AMPS_OK) s = amps_set_global(vm, name, t);
  amps_release(t);
  return s;
}

int main(int argc, char** argv) {
  static float x[16 * 4], y[16];
  amps_vm* vm = NULL;
  amps_value *step = NULL, *scaler = NULL, *get_scale = NULL;
  if (amps_new(NULL, &vm) != AMPS_OK) return 1;
  for (int i = 0; i < 16 * 4; ++i) x[i] = (float)((i * 7) % 11) / 11.0f - 0.5f;
  for (int r = 0; r < 16; ++r) y[r] = x[r * 4] + 2 * x[r * 4 + 1] - x[r * 4 + 2] + 0.5f * x[r * 4 + 3];
  if (amps_register_globals(vm, host_functions) != AMPS_OK || set_tensor(vm, "inputs", x, 16, 4) != AMPS_OK ||
      set_tensor(vm, "targets", y, 16, 1) != AMPS_OK || amps_run_file(vm, argc > 1 ? argv[1] : "train_step.amps", NULL) != AMPS_OK ||
      amps_get_global(vm, "train_step", &step) != AMPS_OK || amps_get_global(vm, "scaler", &scaler) != AMPS_OK ||
      amps_get_attr(vm, scaler, "get_scale", &get_scale) != AMPS_OK)
    return fail(vm);
  for (int i = 0; i < 5; ++i) {
    amps_value *out = NULL, *scale = NULL;
    char* text = NULL;
    double s = 0;
    if (amps_call(vm, step, 0, NULL, &out) != AMPS_OK || amps_call(vm, get_scale, 0, NULL, &scale) != AMPS_OK ||
        amps_to_float(vm, scale, &s) != AMPS_OK || amps_repr(vm, out, &text) != AMPS_OK)
      return fail(vm);
    printf("c step %d: %s scale %g\n", i, text, s);
    free(text);
    amps_release(out);
    amps_release(scale);
  }
  amps_release(step);
  amps_release(scaler);
  amps_release(get_scale);
  amps_free(vm);
  return 0;
}
