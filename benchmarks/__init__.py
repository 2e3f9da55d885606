"""Benchmarks of the interface server against its floors (``benchmarks/run.py``)."""
