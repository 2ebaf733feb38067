"""Tiny deterministic PNG and GIF encoders (stdlib only).

The demo site needs real, decodable images of exact sizes (ad filters look at
IAB sizes, 1x1 pixels and byte-identical creatives) without shipping binary
files or depending on Pillow.  Each image is a few coloured stripes chosen
from its seed, so equal arguments give byte-identical output.
"""

from __future__ import annotations

import functools
import random
import struct
import zlib

__all__ = ["gif_bytes", "png_bytes"]

_Palette = list[tuple[int, int, int]]


def _pattern(width: int, height: int, seed: int | str) -> tuple[_Palette, list[bytes]]:
    """Return a palette (at most 4 colours) and one row of palette indices per line.

    The stripe geometry is relative to the image size, so a thumbnail and a
    photo with the same seed look like scaled copies of each other.
    """
    if width < 1 or height < 1:
        raise ValueError(f"image size must be positive, got {width}x{height}")
    rng = random.Random(f"demo-image:{seed}")
    ncolours = rng.choice((1, 2, 3, 4))
    palette = [
        (rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(ncolours)
    ]
    style = "solid" if ncolours == 1 else rng.choice(("vertical", "horizontal", "blocks"))
    bands = rng.randint(2, 9)

    def band(position: int, size: int) -> int:
        return (position * bands // size) % ncolours

    if style == "solid":
        rows = [bytes(width)] * height
    elif style == "vertical":
        row = bytes(band(x, width) for x in range(width))
        rows = [row] * height
    elif style == "horizontal":
        rows = [bytes([band(y, height)]) * width for y in range(height)]
    else:
        base = [band(x, width) for x in range(width)]
        shifted = {
            offset: bytes((value + offset) % ncolours for value in base)
            for offset in range(ncolours)
        }
        rows = [shifted[band(y, height)] for y in range(height)]
    return palette, rows


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    """Length, type, data and CRC, as the PNG spec frames every chunk."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@functools.lru_cache(maxsize=1024)
def png_bytes(width: int, height: int, seed: int | str = 0) -> bytes:
    """A valid 8-bit palette PNG of *width* x *height*, deterministic in *seed*."""
    palette, rows = _pattern(width, height, seed)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every line
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _png_chunk(b"IHDR", header),
            _png_chunk(b"PLTE", b"".join(bytes(colour) for colour in palette)),
            _png_chunk(b"IDAT", zlib.compress(raw, 9)),
            _png_chunk(b"IEND", b""),
        )
    )


def _lzw(indices: bytes, min_code_size: int) -> bytes:
    """GIF-flavoured LZW: variable-width codes packed LSB-first."""
    clear = 1 << min_code_size
    end = clear + 1
    out = bytearray()
    acc = 0
    nbits = 0
    size = min_code_size + 1

    def emit(code: int) -> None:
        nonlocal acc, nbits
        acc |= code << nbits
        nbits += size
        while nbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8

    def fresh_table() -> dict[bytes, int]:
        return {bytes([i]): i for i in range(clear)}

    table = fresh_table()
    next_code = end + 1
    emit(clear)
    current = b""
    for value in indices:
        candidate = current + bytes([value])
        if candidate in table:
            current = candidate
            continue
        emit(table[current])
        if next_code < 4095:
            table[candidate] = next_code
            # The decoder adds its entries one code later, so widen only once
            # the code just added no longer fits the current width.
            if next_code == (1 << size) and size < 12:
                size += 1
            next_code += 1
        else:
            emit(clear)
            table = fresh_table()
            next_code = end + 1
            size = min_code_size + 1
        current = bytes([value])
    if current:
        emit(table[current])
    emit(end)
    if nbits:
        out.append(acc & 0xFF)
    return bytes(out)


@functools.lru_cache(maxsize=1024)
def gif_bytes(width: int, height: int, seed: int | str = 0) -> bytes:
    """A valid GIF89a of *width* x *height*, deterministic in *seed*.

    Ad servers hand out ``.gif`` banners and pixels, so the demo serves real GIFs
    for those URLs rather than mislabelled PNGs.
    """
    palette, rows = _pattern(width, height, seed)
    palette = (palette * 4)[:4]  # a 4-entry global colour table (2 bits)
    data = _lzw(b"".join(rows), 2)
    blocks = b"".join(
        bytes([len(data[i : i + 255])]) + data[i : i + 255] for i in range(0, len(data), 255)
    )
    return b"".join(
        (
            b"GIF89a",
            struct.pack("<HHBBB", width, height, 0x80 | 0x10 | 0x01, 0, 0),
            b"".join(bytes(colour) for colour in palette),
            b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0),
            b"\x02",
            blocks,
            b"\x00\x3b",
        )
    )
