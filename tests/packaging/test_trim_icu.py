"""Qt's ICU data made smaller for the packaged build (packaging/trim_icu.py), on the real
libicudata of the installed PySide6 wheel; Qt itself reads the trimmed library through
LD_PRELOAD (same soname: the dynamic linker takes it for the wheel's own)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import PySide6
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "packaging"))
import trim_icu  # noqa: E402

LIBICUDATA = next((Path(PySide6.__file__).parent / "Qt" / "lib").glob("libicudata.so.*"), None)
pytestmark = pytest.mark.skipif(LIBICUDATA is None, reason="PySide6's wheel bundles ICU on Linux only")

# What the window's Qt asks ICU for: collation (file dialogs sort with QCollator) and case
# mapping; a legacy codec and a zone's long name come from the trees trim_icu leaves out.
QT_PROBE = """
import functools, json
from PySide6.QtCore import QCollator, QCoreApplication, QLocale, QStringDecoder, QTimeZone
app = QCoreApplication([])
words = ["张三", "李四", "王五", "阿明", "zebra", "Äpfel", "apple", "Zürich", "Ärger", "ångström"]
def order(name):
    return sorted(words, key=functools.cmp_to_key(QCollator(QLocale(name)).compare))

print(json.dumps({
    "order": {name: order(name) for name in ("zh_CN", "zh_TW", "de_DE", "sv_SE")},
    "upper": [QLocale("tr_TR").toUpper("istanbul"), QLocale("en_US").toUpper("straße")],
    "gb18030": QStringDecoder("GB18030").isValid(),
    "zone": QTimeZone(b"Asia/Taipei").displayName(QTimeZone.StandardTime, QTimeZone.LongName, QLocale("en_US")),
}))
"""


def qt_sees(preload: Path | None = None) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    if preload:
        env["LD_PRELOAD"] = str(preload)
    done = subprocess.run([sys.executable, "-c", QT_PROBE], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_package_is_rewritten_byte_for_byte():
    """The reader and writer know ICU's format: all items in, the very same package out."""
    symbol, package = trim_icu.package_of(LIBICUDATA)
    header, items = trim_icu.items_of(package)
    assert symbol.startswith("icudt") and len(items) > 3000
    assert trim_icu.package_with(header, items) == package


def test_qt_collates_and_maps_case_as_before_with_the_trimmed_data(tmp_path):
    trimmed = trim_icu.trimmed_library(LIBICUDATA, tmp_path)
    assert trimmed.stat().st_size < LIBICUDATA.stat().st_size / 3
    before, after = qt_sees(), qt_sees(trimmed)
    assert before["gb18030"] and before["zone"]  # the full data has them ...
    assert not after["gb18030"] and after["zone"] == ""  # ... so Qt did read the trimmed library
    assert after["order"] == before["order"] and after["upper"] == before["upper"]
    assert after["order"]["zh_CN"][:4] == ["阿明", "李四", "王五", "张三"]  # pinyin: Chinese collation is there
