"""Tools that write the data Tavli ships and the figures of its docs: ``python benchmarks/data_tools/<name>.py``."""
