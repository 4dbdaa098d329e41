"""Reading a QR code back in the tests, as a phone camera would.

OpenCV's classic `QRCodeDetector` misses about 3 % of the codes a random game token makes
(finder patterns found, the code then not located), which made the QR tests fail now and
then. Its ArUco-based detector read all of 500 such codes; the classic one is kept as a
second try.
"""

import cv2
import numpy as np


def read_qr(image: np.ndarray) -> str:
    """The text of the QR code in a greyscale bitmap (dark modules on white), or ''."""
    image = cv2.copyMakeBorder(image, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
    for detector in (cv2.QRCodeDetectorAruco(), cv2.QRCodeDetector()):
        text, _points, _ = detector.detectAndDecode(image)
        if text:
            return text
    return ""
