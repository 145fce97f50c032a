"""`python -m app models export`: the app defines its arguments and runs the export tooling
(`python -m models export`) in a child process, never importing `models` itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.model_store import cli

REPO = Path(__file__).resolve().parents[2]


def test_the_apps_layout_names_are_the_exporters():
    from models.export import LAYOUTS

    assert cli.EXPORT_LAYOUTS == tuple(LAYOUTS)


def test_the_parsed_arguments_make_the_same_command_line_again():
    import argparse

    parser = argparse.ArgumentParser()
    cli.add_export_arguments(parser)
    for argv in (
        ["hf", "out"],
        ["hf", "out", "--layout", "split", "--layout", "legacy", "--quantize"],
        ["hf", "out", "--no-validate", "--no-fuse-attention"],
    ):
        assert cli.export_argv(parser.parse_args(argv)) == argv


def test_an_export_error_passes_through_with_its_exit_status(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "app", "models", "export", str(tmp_path), str(tmp_path / "out")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {tmp_path} is not a Hugging Face model folder (no config.json).")
    assert "save_pretrained" in done.stderr and done.stdout == ""
    assert "Traceback" not in done.stderr


def test_export_runs_the_checkouts_tooling_from_any_folder(tmp_path):
    """With only app/ on the path (as the editable install and the wheel map it: models/ is not a
    package of theirs), from another folder, the child still runs this checkout's models/."""
    only_app = tmp_path / "path"
    only_app.mkdir()
    (only_app / "app").symlink_to(REPO / "app")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(only_app)}
    done = subprocess.run(
        [sys.executable, "-m", "app", "models", "export", "hf", "out"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: hf is not a Hugging Face model folder (no config.json)."), done.stderr
    assert not (elsewhere / "out").exists()


def test_export_outside_a_checkout_says_it_needs_one(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli, "CHECKOUT", tmp_path)
    assert main(["models", "export", str(tmp_path), str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert (
        f"error: The model export tooling is not here: it is the models/ folder of the source repository, "
        f"which an installed app does not include ({tmp_path} has none)." in err
    )
    assert "git clone" in err and "pip install -e '.[export]'" in err


def test_export_without_its_tooling_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli, "EXPORT_MODULES", cli.EXPORT_MODULES + ("no_such_export_backend",))
    assert main(["models", "export", str(tmp_path), str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "error: Exporting needs the `export` extra; not installed: no_such_export_backend." in err
    assert "pip install -e '.[export]'" in err
    assert not (tmp_path / "out").exists()


def test_export_in_a_packaged_build_says_it_is_not_included(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert main(["models", "export", str(tmp_path), str(tmp_path / "out")]) == 2
    assert "The packaged app does not include the model export tooling." in capsys.readouterr().err


@pytest.mark.parametrize("command", ["list", "download", "doctor", "export"])
def test_every_models_subcommand_keeps_its_documented_usage(command, capsys):
    with pytest.raises(SystemExit):
        main(["models", command, "--help"])
    usage = capsys.readouterr().out.split("\n\n")[0].split()
    documented = {  # docs/cli.md's usage lines (options common to every command, like -v, may come in between)
        "list": "live-translator models list",
        "download": "live-translator models download [--dest DIR] [--endpoint URL] NAME|REPO",
        "doctor": "live-translator models doctor DIR",
        "export": "live-translator models export [--layout LAYOUT] [--quantize] [--no-validate] [--no-fuse-attention] HF_DIR OUT",  # noqa: E501
    }[command].split()
    rest = iter(usage)
    assert all(word in rest for word in documented), usage  # in this order
