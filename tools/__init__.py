"""Tools that write the data Tavli ships and the figures of its docs: ``python tools/<name>.py``."""
