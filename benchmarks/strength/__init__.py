"""Benchmarks of playing strength: run each as ``python benchmarks/strength/<name>.py``."""
