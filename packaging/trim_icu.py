"""Qt's ICU data without what Qt never reads: libicudata (32 MB in PySide6's Linux wheel) -> ~8 MB.

    python packaging/trim_icu.py LIBICUDATA OUT_DIR     # prints the trimmed library's path

Qt uses ICU for collation (QCollator: file dialogs sort with it), case mapping and normalisation
(in ICU's code, not its data), and time-zone display names; its locale names, currencies and
units come from its own CLDR tables, its text boundaries from its own Unicode tables, and its
text codecs are built in for every encoding the app reads (UTF-8). So the trimmed data keeps
every locale bundle, the collation trees and the time-zone rules, and leaves out the trees only
ICU's own APIs read: display names of languages, regions, currencies, units and zones, break
iterators and their dictionaries, number spell-out, transliteration, and the legacy charset
converters (*.cnv; their alias table stays, so asking for one is a clean "unknown encoding").
tests/packaging checks collation and case mapping through Qt with the trimmed library.

The data is one ICU "common data" package (a header, then a table of contents of named items)
exported as the symbol icudtNN_dat; the trimmed one is assembled and linked with binutils
(`as`, `ld`: strip's package), under the same soname.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

DROPPED_TREES = ("brkitr", "curr", "lang", "rbnf", "region", "translit", "unit", "zone")
ALIGN = 16  # every item starts on 16 bytes, as ICU's icupkg writes them
PAD = b"\xaa"  # and pads with this byte


def package_of(library: Path) -> tuple[str, bytes]:
    """The data symbol's name (icudt73_dat) and the package it holds, from the library's file."""
    listing = subprocess.run(["nm", "-D", "-S", str(library)], capture_output=True, text=True, check=True).stdout
    found = re.search(r"^[0-9a-f]+ ([0-9a-f]+) R (icudt\d+_dat)$", listing, re.M)
    if not found:
        raise ValueError(f"{library}: no icudtNN_dat symbol")
    size, symbol = int(found[1], 16), found[2]
    blob = library.read_bytes()
    start = blob.index(b"CmnD") - 12  # dataFormat sits 12 bytes into the package's header
    if blob[start + 2 : start + 4] != b"\xda\x27":
        raise ValueError(f"{library}: no ICU data header")
    return symbol, blob[start : start + size]


def items_of(package: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """The package's header and its items (name, bytes) in table order (sorted by name)."""
    header_size = struct.unpack_from("<H", package)[0]
    toc = package[header_size:]
    count = struct.unpack_from("<I", toc)[0]
    entries = [struct.unpack_from("<II", toc, 4 + 8 * i) for i in range(count)]
    ends = [offset for _, offset in entries[1:]] + [len(toc)]
    items = []
    for (name_at, data_at), end in zip(entries, ends, strict=True):
        name = toc[name_at : toc.index(b"\0", name_at)].decode("ascii")
        items.append((name, toc[data_at:end]))
    return package[:header_size], items


def package_with(header: bytes, items: list[tuple[str, bytes]]) -> bytes:
    """A package of `items`, laid out as icupkg lays one out: table, names, then aligned items."""
    names = b"".join(name.encode("ascii") + b"\0" for name, _ in items)
    table_size = 4 + 8 * len(items)
    data_at = -(-(table_size + len(names)) // ALIGN) * ALIGN
    entries, name_at, body = [], table_size, bytearray()
    for name, data in items:
        entries.append(struct.pack("<II", name_at, data_at + len(body)))
        name_at += len(name) + 1
        body += data + PAD * (-len(data) % ALIGN)
    table = struct.pack("<I", len(items)) + b"".join(entries) + names
    return header + table + PAD * (data_at - len(table)) + bytes(body)


def kept(name: str) -> bool:
    parts = name.split("/")  # icudt73l/coll/zh.res, icudt73l/en.res, icudt73l/ibm-943_P15A-2003.cnv
    return not (name.endswith(".cnv") or (len(parts) > 2 and parts[1] in DROPPED_TREES))


def trimmed_library(library: Path, out_dir: Path) -> Path:
    """A copy of `library` (same file name and soname) holding only the items Qt reads."""
    symbol, package = package_of(library)
    header, items = items_of(package)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "icudata.dat").write_bytes(package_with(header, [item for item in items if kept(item[0])]))
    assembly = out_dir / "icudata.s"
    assembly.write_text(
        f".section .rodata\n.globl {symbol}\n.type {symbol}, @object\n.balign {ALIGN}\n{symbol}:\n"
        f'.incbin "{out_dir / "icudata.dat"}"\n.size {symbol}, . - {symbol}\n'
        '.section .note.GNU-stack,"",@progbits\n',
        encoding="ascii",
    )
    target = out_dir / library.name
    subprocess.run(["as", "-o", str(out_dir / "icudata.o"), str(assembly)], check=True)
    soname = re.sub(r"(\.so\.\d+).*", r"\1", library.name)
    subprocess.run(["ld", "-shared", "-soname", soname, "-o", str(target), str(out_dir / "icudata.o")], check=True)
    return target


def can_trim() -> bool:
    return sys.platform.startswith("linux") and all(shutil.which(tool) for tool in ("nm", "as", "ld"))


if __name__ == "__main__":
    print(trimmed_library(Path(sys.argv[1]), Path(sys.argv[2])))
