#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Read a Chromium screenshot (8-bit RGB/RGBA PNG) with the standard library: is it blank, and crop it."""
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError(f"{path}: only 8-bit RGB/RGBA, non-interlaced PNGs")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def ink_stats(path, step=3):
    """Share of sampled pixels that are not the page background, and distinct colours seen."""
    width, height, bpp, rows = read_png(path)
    bg = rows[0][:3]
    ink, seen, total = 0, set(), 0
    for y in range(0, height, step):
        row = rows[y]
        for x in range(0, width, step):
            px = row[x * bpp:x * bpp + 3]
            total += 1
            seen.add(px)
            ink += px != bg
    return ink / max(total, 1), len(seen)


def crop(path, out, y0, y1):
    width, height, bpp, rows = read_png(path)
    y1 = min(y1, height)
    raw = b"".join(b"\x00" + rows[y] for y in range(y0, y1))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)
    with open(out, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, y1 - y0, 8, 2 if bpp == 3 else 6,
                                                                      0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    if sys.argv[1] == "stats":
        print("ink %.4f colours %d" % ink_stats(sys.argv[2]))
    elif sys.argv[1] == "crop":
        crop(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
