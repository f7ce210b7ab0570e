"""Crafting zip archives byte by byte: symlink entries, lying headers, foreign names, odd methods.

``make_zip`` writes a deterministic zip (fixed timestamps); ``patch`` then rewrites one entry's
fields in both its local header and its central-directory record, as a hostile tool would.
"""

import io
import stat
import struct
import warnings
import zipfile
from typing import Union
from collections.abc import Sequence

#: field -> (offset in the central record, offset in the local header, struct format)
_FIELDS = {
    "flag_bits": (8, 6, "<H"),
    "method": (10, 8, "<H"),
    "crc": (16, 14, "<I"),
    "compress_size": (20, 18, "<I"),
    "file_size": (24, 22, "<I"),
}

Entry = Union[tuple[str, bytes], tuple[str, bytes, dict]]


def make_zip(entries: Sequence[Entry], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip of ``(name, data[, options])`` entries; options: ``symlink`` (data is the target),
    ``mode`` (unix mode bits), ``directory``."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Duplicate name" is what some cases want
        with zipfile.ZipFile(buffer, "w", compression) as zf:
            for entry in entries:
                name, data = entry[0], entry[1]
                options = entry[2] if len(entry) > 2 else {}
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = compression
                mode = options.get("mode", 0o644)
                if options.get("symlink"):
                    mode = stat.S_IFLNK | 0o777
                elif options.get("directory"):
                    mode = stat.S_IFDIR | 0o755
                else:
                    mode |= stat.S_IFREG
                info.external_attr = (mode & 0xFFFF) << 16
                info.create_system = 3
                zf.writestr(info, data)
    return buffer.getvalue()


def _records(data: bytes) -> list[tuple[int, int]]:
    """(central record offset, local header offset) of every entry."""
    eocd = data.rfind(b"PK\x05\x06")
    count = struct.unpack_from("<H", data, eocd + 10)[0]
    offset = struct.unpack_from("<I", data, eocd + 16)[0]
    records = []
    for _ in range(count):
        assert data[offset : offset + 4] == b"PK\x01\x02", "not a central directory record"
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", data, offset + 28)
        records.append((offset, struct.unpack_from("<I", data, offset + 42)[0]))
        offset += 46 + name_len + extra_len + comment_len
    return records


def patch(data: bytes, index: int = 0, name: bytes = None, **fields: int) -> bytes:
    """Rewrite fields of entry ``index`` (see ``_FIELDS``) and, optionally, its raw name bytes
    (same length as the original) in both the local header and the central directory."""
    out = bytearray(data)
    central, local = _records(data)[index]
    for key, value in fields.items():
        c_off, l_off, fmt = _FIELDS[key]
        struct.pack_into(fmt, out, central + c_off, value)
        struct.pack_into(fmt, out, local + l_off, value)
    if name is not None:
        old_len = struct.unpack_from("<H", data, central + 28)[0]
        assert len(name) == old_len, "a patched name keeps the original length"
        out[central + 46 : central + 46 + old_len] = name
        out[local + 30 : local + 30 + old_len] = name
    return bytes(out)


def flags_of(data: bytes, index: int = 0) -> int:
    central, _ = _records(data)[index]
    return struct.unpack_from("<H", data, central + 8)[0]
