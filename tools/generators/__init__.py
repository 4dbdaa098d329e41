"""Generators of photos of dominoes with their true tiles, for the tests, the benchmarks
and the networks' training."""
