"""app.shared.files: the one careful reader of files people hand the app."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.shared import files
from app.shared.errors import LiveTranslatorError


def test_a_fifo_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)
    with pytest.raises(LiveTranslatorError, match="not an ordinary file.*named pipe"):
        files.read_json(fifo)  # opening it would block until a writer came


def test_a_link_to_dev_zero_is_refused(tmp_path):
    link = tmp_path / "config.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(LiveTranslatorError, match="character device"):
        files.read_bytes(link, 1 << 20)


def test_a_huge_sparse_file_is_refused_by_its_size_before_reading(tmp_path):
    sparse = tmp_path / "config.json"
    with sparse.open("wb") as f:
        f.truncate(8 << 30)  # 8 GB, no disk used
    with pytest.raises(LiveTranslatorError, match=r"8\.6 GB.*up to 67\.1 MB") as info:
        files.read_json(sparse)
    assert "split it" in info.value.hint


def test_json_nested_100000_deep_is_a_value_error_not_a_recursion_error(tmp_path):
    deep = tmp_path / "config.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(ValueError, match="nested deeper than 100"):
        files.read_json(deep)
    deep.write_text('{"a":' * 200 + "1" + "}" * 200, encoding="utf-8")  # under the parser's limit, over ours
    with pytest.raises(ValueError, match="nested deeper"):
        files.read_json(deep)


def test_nan_and_infinity_are_not_json():
    for text in ('{"start": NaN}', "[Infinity]", "-Infinity"):
        with pytest.raises(ValueError, match="not a JSON number"):
            files.parse_json(text)


def test_json_lines_counts_lines_and_stops_at_the_limit(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"a": 1}\n\n{"b": 2}\n', encoding="utf-8")
    assert [n for n, _ in files.json_lines(path, 1 << 20)] == [1, 3]
    with pytest.raises(LiveTranslatorError, match="up to 10 bytes"):
        list(files.json_lines(path, 10))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=20,
)


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_any_json_value_within_the_depth_reads_back_as_json_loads_does(value):
    import json

    assert files.parse_json(json.dumps(value)) == json.loads(json.dumps(value))
