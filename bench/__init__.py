"""Benchmarks: ratios against baselines run side by side in one invocation, results written to files."""
