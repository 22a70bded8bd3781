#!/usr/bin/python3
"""GPU kernel times of an amps script, from PyTorch's profiler (CUPTI traces every kernel of the process, amps'
too): loads libamps.so with ctypes, runs the script inside torch.profiler and prints the kernels by total GPU
time. Run on the GPU machine (docs/cuda.md), e.g.
  python3 bench/cuda_trace.py /tmp/amps-gpu/lib/libamps.so bench/gpt_block.amps 5 32 256 768 12 2 8192"""
import ctypes, sys

import torch
from torch.profiler import ProfilerActivity, profile


class Config(ctypes.Structure):  # amps_config (interp/include/amps/amps.h), field for field
    _fields_ = [("write", ctypes.c_void_p), ("diagnostic", ctypes.c_void_p), ("user", ctypes.c_void_p),
                ("load_module", ctypes.c_void_p), ("module_roots", ctypes.c_void_p),
                ("module_root_count", ctypes.c_size_t), ("default_device", ctypes.c_char_p),
                ("sandbox", ctypes.c_int), ("imports_only_from_roots", ctypes.c_int),
                ("step_budget", ctypes.c_uint64), ("time_budget_ms", ctypes.c_uint64),
                ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p), ("alloc_user", ctypes.c_void_p),
                ("no_stdlib", ctypes.c_int), ("argv", ctypes.POINTER(ctypes.c_char_p)), ("argc", ctypes.c_size_t)]


def main():
    lib_path, script, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    lib = ctypes.CDLL(lib_path)
    cfg = Config()
    lib.amps_config_init(ctypes.byref(cfg))
    argv = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
    cfg.argv, cfg.argc = ctypes.cast(argv, ctypes.POINTER(ctypes.c_char_p)), len(args)
    vm = ctypes.c_void_p()
    assert lib.amps_new(ctypes.byref(cfg), ctypes.byref(vm)) == 0, "amps_new failed"
    gpu = torch.cuda.is_available()  # without one: only checks that the script runs through the library
    if gpu:
        torch.zeros(1, device="cuda")  # CUDA and CUPTI set up before amps launches anything
    with profile(activities=[ProfilerActivity.CUDA if gpu else ProfilerActivity.CPU]) as prof:
        status = lib.amps_run_file(vm, script.encode(), None)
        if gpu:
            torch.cuda.synchronize()
    print("amps_run_file status", status)
    if gpu:
        print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=45, max_name_column_width=90))


main()
