"""PortAudio's and ALSA's own diagnostics stay off stderr (issue 42: a failed open printed four
"Expression 'PaAlsaStreamComponent_Initialize(…)' failed" lines before the app's message). A
child process lists the microphones of a private PulseAudio server, the server is killed, and
opening the microphone fails: stderr holds the app's message and nothing of PortAudio's."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPEN_A_MICROPHONE_THAT_IS_GONE = textwrap.dedent("""
    import os, sys
    from tests.asr.conftest import SoundRoom
    room = SoundRoom()
    room.start()
    os.environ["PULSE_SERVER"] = room.env["PULSE_SERVER"]
    from app.audio.quiet import quiet_portaudio
    from app.audio.sources import MicrophoneSource, list_input_devices
    assert [d.name for d in list_input_devices()][:1] == ["pulse"], list_input_devices()
    room.kill()
    with quiet_portaudio():
        os.write(2, b"another thread's warning\\n")  # written meanwhile: kept
    try:
        MicrophoneSource("pulse").start()
    except Exception as error:
        print(f"refused: {error}", file=sys.stderr)
""")


def test_a_failed_open_says_the_apps_message_and_nothing_of_portaudios():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", OPEN_A_MICROPHONE_THAT_IS_GONE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "refused: Could not open the microphone 'pulse'" in done.stderr
    assert "another thread's warning" in done.stderr
    assert "Expression '" not in done.stderr and "ALSA lib" not in done.stderr, done.stderr
