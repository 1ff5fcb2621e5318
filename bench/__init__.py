"""Benchmarks: each script prints its figures beside a baseline measured in the same run."""
