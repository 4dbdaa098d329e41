"""Harvest of training data from generated photos, and training of the tile network and
the tile finder (PyTorch, which the app does not need)."""
