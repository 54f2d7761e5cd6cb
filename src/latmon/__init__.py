"""latmon: interrupt and end-to-end I/O latency measurement, monitoring and reporting."""

__version__ = "0.1.0"
