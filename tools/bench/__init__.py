"""Benchmarks of the photo counter's accuracy and speed, and of the web app under load."""
