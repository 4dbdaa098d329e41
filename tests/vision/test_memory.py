"""Memory bombs under the size cap: a picture that packs into a few hundred kilobytes but
would decode into gigabytes is refused before it is decoded, and the largest picture that
is read costs the reading process less than 400 MB over its idle size.

Each file is read in a process of its own, whose peak resident memory (ru_maxrss) is
compared before and after: the figure that matters when four workers read at once."""

import json
import struct
import subprocess
import sys
import zlib

import pytest

pytestmark = pytest.mark.vision

BUDGET_MB = 400

READER = """
import json, resource, sys
import vision
from vision.errors import PhotoError
vision.read_hand(open(sys.argv[2], "rb").read())  # warm: the networks and buffers of a real read
idle = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    vision.read_hand(open(sys.argv[1], "rb").read())
    outcome = "read"
except PhotoError as err:
    outcome = err.kind
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"outcome": outcome, "grew_mb": (peak - idle) / 1024}))
"""


def png(path, width, height, colour_type, bit_depth, pad=0):
    """A PNG of zeros written a row at a time (nothing of its size is ever in memory), with
    `pad` bytes of text so that it passes a bytes-per-pixel check."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour_type]
    row = b"\0" + bytes(width * channels * bit_depth // 8)
    packer = zlib.compressobj(9)
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    text = chunk(b"tEXt", b"Comment\0" + b"x" * pad) if pad else b""
    if colour_type == 3:  # a palette of one colour, see-through
        text += chunk(b"PLTE", b"\x10\x20\x30") + chunk(b"tRNS", b"\x80")
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + text + chunk(b"IDAT", idat)
                     + chunk(b"IEND", b""))
    return path


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    return png(tmp_path_factory.mktemp("warm") / "warm.png", 800, 600, 2, 8)


def read_in_a_process(path, warm):
    done = subprocess.run([sys.executable, "-c", READER, str(path), str(warm)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("colour_type, bit_depth", [(0, 16), (6, 8), (6, 16)], ids=["grey16", "rgba", "rgba16"])
def test_a_packed_picture_that_would_decode_into_gigabytes_is_refused_cheaply(tmp_path, warm, colour_type,
                                                                              bit_depth):
    bomb = png(tmp_path / "bomb.png", 10950, 10950, colour_type, bit_depth, pad=250_000)
    assert bomb.stat().st_size < 2_000_000  # far under the upload cap
    result = read_in_a_process(bomb, warm)
    assert result["outcome"] == "too_large"
    assert result["grew_mb"] < 50


@pytest.mark.parametrize("colour_type, bit_depth", [(6, 8), (0, 16), (4, 8), (3, 8), (2, 8)],
                         ids=["rgba", "grey16", "grey-alpha", "palette-transparent", "rgb"])
def test_the_largest_picture_read_whole_stays_within_the_budget(tmp_path, warm, colour_type, bit_depth):
    side = {3: 6000, 4: 6000, 6: 6000, 2: 6700}.get(colour_type, 7700)  # 36, 45, 59 MP: about the largest read: the largest read whole
    largest = png(tmp_path / "largest.png", side, side, colour_type, bit_depth, pad=100_000)
    result = read_in_a_process(largest, warm)
    assert result["outcome"] == "read"
    assert result["grew_mb"] < BUDGET_MB
