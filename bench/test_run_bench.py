#!/usr/bin/python3
"""Unit tests of run_bench.py's ratio and finding logic on made-up medians (no PyTorch needed)."""
import os, sys, unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench as rb


def dispatch_medians(raw_64):
    m = {}
    for case, amps, torch in [("add_1", 0.38, 1.40), ("add_1_autograd", 0.67, 2.05),
                              ("add_64x64", 0.94, 2.00), ("add_64x64_autograd", 1.08, 2.65)]:
        m[("dispatch", case, "amps")], m[("dispatch", case, "torch")] = amps, torch
    m[("dispatch", "add_1", "raw")], m[("dispatch", "add_64x64", "raw")] = 0.01, raw_64
    return m


class DispatchFinding(unittest.TestCase):
    def test_splits_each_case_into_the_add_loop_and_the_rest(self):
        lines = rb.dispatch_finding(dispatch_medians(0.30), 0.2)
        self.assertEqual(len(lines), 4)  # one per case; no floor above the target
        l64 = next(l for l in lines if l.startswith("add_64x64:"))
        self.assertIn("add loop 0.300 + interpreter, dispatch, allocation 0.640", l64)
        self.assertIn("the target allows 0.400, of which the add loop alone takes 75%", l64)
        self.assertIn(", autograd", next(l for l in lines if l.startswith("add_1_autograd:")))

    def test_names_the_highest_floor_above_the_target(self):
        lines = rb.dispatch_finding(dispatch_medians(0.60), 0.2)
        self.assertEqual(len(lines), 5)
        self.assertTrue(lines[-1].startswith("add_64x64: the bare add loop alone (0.300"), lines[-1])
        self.assertIn("above the 0.2 target", lines[-1])

    def test_worst_case_ratio(self):
        self.assertAlmostEqual(rb.ratios(dispatch_medians(0.3))["dispatch"], 0.94 / 2.00)


class MmRatio(unittest.TestCase):
    def test_prefers_the_median_of_back_to_back_ratios(self):
        m = {("mm", "f32_1024", "amps"): 100.0, ("mm", "f32_1024", "onednn"): 130.0,
             ("mm", "f32_1024", "pair_ratio"): 1.02, ("mm", "f32_512", "amps"): 100.0,
             ("mm", "f32_512", "onednn"): 105.0}
        self.assertAlmostEqual(rb.ratios(m)["mm_vs_onednn"], 1.05)  # 512 without pairs: ratio of medians
        m[("mm", "f32_512", "pair_ratio")] = 0.99
        self.assertAlmostEqual(rb.ratios(m)["mm_vs_onednn"], 1.02)


class MmFinding(unittest.TestCase):
    def test_names_the_cases_over_the_target_with_the_two_destination_figure(self):
        m = {("mm", "bf16_512", "amps"): 2000.0, ("mm", "bf16_512", "onednn"): 2300.0,
             ("mm", "bf16_512", "onednn_two_dst"): 2100.0, ("mm", "bf16_512", "pair_ratio"): 1.15,
             ("mm", "f32_512", "amps"): 300.0, ("mm", "f32_512", "onednn"): 310.0}
        lines = rb.mm_finding(m, 1.1)
        self.assertEqual(len(lines), 1)  # f32_512 is within the target
        self.assertIn("bf16_512: amps 2000 GFLOP/s, raw primitive 2300 (one destination, ratio 1.150)", lines[0])
        self.assertIn("two destinations in turn 2100: amps takes 1.050x that time", lines[0])


class StepFinding(unittest.TestCase):
    def test_gives_both_sides_repeats_and_the_extreme_ratios(self):
        m = {("mlp", "bf16_autocast", "amps"): 0.004, ("mlp", "bf16_autocast", "amps_min"): 0.0038,
             ("mlp", "bf16_autocast", "amps_max"): 0.0045, ("mlp", "bf16_autocast", "torch"): 0.0065,
             ("mlp", "bf16_autocast", "torch_min"): 0.0060, ("mlp", "bf16_autocast", "torch_max"): 0.0090}
        [line] = rb.step_finding(m, "mlp")
        self.assertIn("amps 0.004000 s/step (repeats 0.003800-0.004500)", line)
        self.assertIn("fastest / fastest 0.633, slowest / slowest 0.500", line)
        self.assertEqual(rb.step_finding({}, "cnn"), [])


class Bf16Finding(unittest.TestCase):
    m = {("mm", "f32_1024", "onednn"): 120.0, ("mm", "bf16_1024", "onednn"): 40.0}
    impls = {"f32_1024": "gemm:jit", "bf16_1024": "gemm:jit"}

    def test_without_bf16_hardware_gives_oneDNN_s_own_ratio(self):
        lines = rb.bf16_finding(self.m, self.impls, {"avx512_bf16": False, "amx_bf16": False})
        self.assertIn("none", lines[0])
        self.assertIn("bf16 takes 3.00x f32's time", lines[1])
        self.assertIn("computes bf16 products in f32", lines[2])

    def test_a_cpu_without_any_bf16_kernel(self):
        m = {("mm", "f32_1024", "onednn"): 100.0}
        impls = {"f32_1024": "gemm:jit", "bf16_1024": "no oneDNN kernel on this CPU"}
        lines = rb.bf16_finding(m, impls, {"avx512_bf16": False, "amx_bf16": False})
        self.assertIn("f32 100 GFLOP/s (gemm:jit); bf16: no oneDNN kernel on this CPU", lines[1])

    def test_names_the_hardware_it_has(self):
        lines = rb.bf16_finding(self.m, self.impls, {"avx512_bf16": True, "amx_bf16": True})
        self.assertIn("avx512_bf16, amx_bf16", lines[0])
        self.assertEqual(len(lines), 2)

    def test_without_matmul_figures_only_the_hardware(self):
        self.assertEqual(len(rb.bf16_finding({}, {}, {"avx512_bf16": False, "amx_bf16": False})), 1)


if __name__ == "__main__":
    unittest.main()
