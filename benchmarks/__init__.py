"""Benchmarks: engine throughput (`benchmarks.engine`) and the solver bench (`benchmarks.run`,
``heritage bench``)."""
