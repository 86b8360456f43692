"""Benchmarks: figures as ratios to this machine's own floor, measured in the same run."""
