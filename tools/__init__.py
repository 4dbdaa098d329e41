"""Development tools, run by hand from the repository root, never by pytest: the photo
counter's benchmarks (bench), the photo generators (generators) and the training of its
two networks (training)."""
