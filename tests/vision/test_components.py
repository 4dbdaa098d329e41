"""The components of a mask measured from its lit pixels are OpenCV's, number for number:
the loose-pip search and the divider search take them for the labelling with stats."""

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import components as module
from vision.components import components


def opencv(mask):
    return cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_BBDT)


def assert_same(mask):
    """The same numbers, whether the mask is measured from its lit pixels or, lit densely,
    by OpenCV."""
    want = opencv(mask)
    for dense in (module.DENSE, 1.0):
        module.DENSE, kept = dense, module.DENSE
        try:
            n, labels, stats, centroids = components(mask)
        finally:
            module.DENSE = kept
        assert n == want[0]
        assert np.array_equal(labels, want[1])
        assert np.array_equal(stats, want[2])
        assert np.array_equal(centroids, want[3], equal_nan=True)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 120), st.integers(1, 120), st.sampled_from([0.0, 0.002, 0.05, 0.3, 0.7, 0.98, 1.0]),
       st.booleans(), st.integers(0, 2**32 - 1))
def test_every_mask_is_measured_as_opencv_measures_it(h, w, lit, grown, seed):
    """Sparse and dense masks, blobs grown into one another, lit at 1 or at 255, a row or a
    column wholly lit (the background's box then starts past it), and a mask lit all over
    (always measured by OpenCV)."""
    rng = np.random.default_rng(seed)
    mask = (rng.random((h, w)) < lit).astype(np.uint8)
    if grown:
        mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
    if seed % 3 == 0:
        mask[0] = 1
    if seed % 5 == 0:
        mask[:, -1] = 1
    assert_same(mask * (255 if seed % 2 else 1))


def test_a_sparse_photo_sized_mask_of_pips():
    """Pip-sized dots on a 1.4 MP mask, as the loose-pip search makes them."""
    mask = np.zeros((1031, 1375), np.uint8)
    rng = np.random.default_rng(7)
    for x, y in rng.integers(0, 1300, (60, 2)):
        cv2.circle(mask, (int(x), int(y) % 1031), int(rng.integers(1, 5)), 1, -1)
    assert_same(mask)
    assert components(mask)[0] > 30
