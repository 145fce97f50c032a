"""Saving the glossary a person keeps (issue 35): a correction or the editor changes only the
lines of the entries that changed, every other byte stays (comments, blank lines, a line the
app cannot read yet, CRLF endings, a BOM); the file is replaced in one step, so a full disk
leaves it byte for byte and says the change was not saved."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from pathlib import Path

import pytest

from app.shared import files
from app.shared.errors import LiveTranslatorError
from app.shared.glossary import MAX_ENTRIES, Glossary, GlossaryEntry

HAND_EDITED = (
    "\ufeff# my terms, kept by hand\r\n"
    "\r\n"
    "Peking 北京\r\n"  # waiting to be fixed: a space where the TAB goes
    "teacher\t老师\r\n"
    "  # an indented note\r\n"
    "Jon\tJohn\theard\r\n"
    "Beijing\t北京\t off "  # odd spacing in the flags, and no line ending at the end
).encode("utf-8")


def correct(path: Path, entry: GlossaryEntry, spoken: str | None = None) -> Glossary:
    """What the window's Correct… does: read the file, add the correction, save."""
    glossary = Glossary.load(path).with_correction(entry, spoken)
    glossary.save(path)
    return glossary


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_new_correction_is_added_and_every_other_byte_stays(tmp_path):
    path = tmp_path / "glossary.tsv"
    path.write_bytes(HAND_EDITED)
    correct(path, GlossaryEntry("Smith", "Smythe", heard=True))
    # the last line had no line ending: it gets the file's own (CRLF) before the new line
    assert path.read_bytes() == HAND_EDITED + b"\r\nSmith\tSmythe\theard\r\n"
    again = Glossary.load(path)
    assert [p.line for p in again.problems] == [3]  # `Peking 北京` is still there, still reported
    assert again.corrections()[-1].chinese == "Smythe"


def test_a_correction_of_the_same_words_edits_its_own_line(tmp_path):
    path = tmp_path / "glossary.tsv"
    path.write_bytes(HAND_EDITED)
    correct(path, GlossaryEntry("jon", "Jonathan", heard=True))  # Jon was written as John: now Jonathan
    assert path.read_bytes() == HAND_EDITED.replace(b"Jon\tJohn\theard\r\n", b"jon\tJonathan\theard\r\n")
    correct(path, GlossaryEntry("teacher", "教师"), "en")  # a translation entry: the same
    assert path.read_bytes() == HAND_EDITED.replace(b"Jon\tJohn\theard\r\n", b"jon\tJonathan\theard\r\n").replace(
        b"teacher\t\xe8\x80\x81\xe5\xb8\x88\r\n", "teacher\t教师\r\n".encode()
    )


def test_editor_saves_remove_edit_and_add_only_their_lines(tmp_path):
    path = tmp_path / "glossary.tsv"
    path.write_bytes(HAND_EDITED)
    entries = Glossary.load(path).entries  # teacher, Jon (heard), Beijing (off)
    teacher, jon, beijing = entries
    edited = [jon, GlossaryEntry("Beijing", "北京", origin=str(path), line=beijing.line), GlossaryEntry("tea", "茶")]
    Glossary(edited).save(path)
    text = path.read_bytes().decode("utf-8")
    assert text == (
        "\ufeff# my terms, kept by hand\r\n\r\nPeking 北京\r\n  # an indented note\r\nJon\tJohn\theard\r\n"
        "Beijing\t北京\r\ntea\t茶\r\n"  # ticked on again: its line rewritten; the new one last
    )


def test_a_file_the_app_made_starts_with_its_header_and_round_trips(tmp_path):
    path = tmp_path / "new" / "glossary.tsv"
    Glossary([GlossaryEntry("Peking", "北京")]).save(path)
    assert path.read_text(encoding="utf-8").splitlines()[1:] == ["Peking\t北京"]
    assert path.read_text(encoding="utf-8").startswith("# Live Translator glossary")
    Glossary.load(path).save(path)
    assert Glossary.load(path).to_tsv() == "Peking\t北京\n"


def test_a_full_disk_leaves_the_file_byte_for_byte_and_says_the_change_was_not_saved(tmp_path, monkeypatch):
    path = tmp_path / "glossary.tsv"
    path.write_bytes(HAND_EDITED)
    real_write = os.write

    def half_then_full(fd, data):  # the disk fills up half-way through the new file
        real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files, "_write_all", half_then_full)
    with pytest.raises(LiveTranslatorError) as refused:
        correct(path, GlossaryEntry("Smith", "Smythe", heard=True))
    assert path.read_bytes() == HAND_EDITED and leftovers(tmp_path) == []
    assert "was not saved: No space left on device" in refused.value.message
    assert "your change is not in it" in refused.value.hint


@contextlib.contextmanager
def tiny_disk(folder: Path, size: str = "64k"):
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a full disk needs a tmpfs, which only root may mount here (the ENOSPC test above runs anyway)")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"running as root without mount rights, so no tmpfs can be made: {done.stderr!r}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_on_a_really_full_disk_a_correction_and_an_editor_save_change_nothing(tmp_path):
    with tiny_disk(tmp_path / "disk") as disk:
        path = disk / "glossary.tsv"
        lines = "".join(f"term {n}\t词{n}\n" for n in range(1200)).encode()
        path.write_bytes(HAND_EDITED + b"\n" + lines)
        before = path.read_bytes()
        with contextlib.suppress(OSError), open(disk / "filler", "wb") as filler:  # fill the disk up
            while True:
                filler.write(b"x" * 4096)
                filler.flush()
        with pytest.raises(LiveTranslatorError, match="was not saved"):
            correct(path, GlossaryEntry("Smith", "Smythe", heard=True))
        with pytest.raises(LiveTranslatorError, match="was not saved"):
            Glossary([GlossaryEntry("only", "唯一")]).save(path)
        assert path.read_bytes() == before and leftovers(disk) == []
        (disk / "filler").unlink()  # space again: the same correction goes through
        correct(path, GlossaryEntry("Smith", "Smythe", heard=True))
        assert path.read_bytes() == before + b"Smith\tSmythe\theard\n"


def test_a_file_that_cannot_be_read_is_not_replaced(tmp_path):
    path = tmp_path / "glossary.tsv"
    path.write_bytes(b"caf\xe9\tcoffee\n")  # Latin-1
    with pytest.raises(LiveTranslatorError, match="is not UTF-8 text") as refused:
        Glossary([GlossaryEntry("tea", "茶")]).save(path)
    assert "Nothing was saved" in refused.value.hint and "move it away" in refused.value.hint
    assert path.read_bytes() == b"caf\xe9\tcoffee\n"
    fifo = tmp_path / "fifo.tsv"
    os.mkfifo(fifo)
    with pytest.raises(LiveTranslatorError, match="named pipe"):  # refused without opening it (no hang)
        Glossary([GlossaryEntry("tea", "茶")]).save(fifo)
    huge = tmp_path / "huge.tsv"  # more entries than the app reads: an editor that showed none must not empty it
    huge.write_text("".join(f"t{n}\t词{n}\n" for n in range(MAX_ENTRIES + 1)), encoding="utf-8")
    before = huge.read_bytes()
    with pytest.raises(LiveTranslatorError, match="holds 500,001 entries; the app reads at most 500,000"):
        Glossary([GlossaryEntry("tea", "茶")]).save(huge)
    assert huge.read_bytes() == before


def test_a_linked_glossary_keeps_its_link_and_the_file_its_permissions(tmp_path):
    real = tmp_path / "dotfiles" / "glossary.tsv"
    real.parent.mkdir()
    real.write_text("tea\t茶\n", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "glossary.tsv"
    link.symlink_to(real)
    correct(link, GlossaryEntry("Smith", "Smythe", heard=True))
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "tea\t茶\nSmith\tSmythe\theard\n"
    assert real.stat().st_mode & 0o777 == 0o640


def test_write_atomic_writes_devices_directly(tmp_path):
    files.write_atomic("/dev/null", b"nothing to keep")  # a device has nothing to keep: written to, not replaced
    assert Path("/dev/null").is_char_device()
    target = tmp_path / "out.txt"
    files.write_atomic(target, b"one")
    files.write_atomic(target, b"two")
    assert target.read_bytes() == b"two" and leftovers(tmp_path) == []
