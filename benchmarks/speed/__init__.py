"""Benchmarks of speed: run each as ``python benchmarks/speed/<name>.py``."""
