"""`python -m app devices [--json]`: every source the app can listen to, one per line; and the
options and stop handling every live command (`run`, `listen`) shares."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading

from app.audio import devices  # the module: its functions looked up when `devices` runs (a test trips on them)
from app.shared import arguments
from app.shared.audio import SourceKind

LIVE_SOURCES = (SourceKind.MICROPHONE.value, SourceKind.SYSTEM.value)


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "devices",
        help="list microphones, system-audio sources and outputs",
        description="Every source: microphones and system audio (what an output device "
        "plays); then every output speech can go to (--speak-into), and the "
        "virtual microphone when it exists.",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='one JSON object per line: {"id", "name", "kind": "microphone"|"system"|"speaker"|'
        '"virtual-microphone", "default"}',
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    sources = devices.list_sources()
    if not sources:
        print(
            "No audio sources found: no microphone, and no system audio (is the sound server running?).",
            file=sys.stderr,
        )
    for device in sources + devices.list_outputs():
        if args.json:
            print(json.dumps(device.to_json(), ensure_ascii=False), flush=True)
        else:
            print(f"{device.kind:<10} {'*' if device.default else ' '} {device.id}: {device.name}", flush=True)
    return 0


def add_live_options(parser: argparse.ArgumentParser) -> None:
    """--source, --device and --duration: shared by `run` and `listen`."""
    parser.add_argument(
        "--source",
        choices=LIVE_SOURCES,
        default=SourceKind.MICROPHONE.value,
        help="listen to a microphone or to system audio, what the computer plays (default: microphone)",
    )
    parser.add_argument(
        "--device",
        metavar="NAME|ID",
        type=arguments.device_name,
        default=None,
        help="the source's device: number, id or (part of) its name (python -m app devices)",
    )
    parser.add_argument(
        "--duration",
        metavar="SECONDS",
        type=arguments.seconds,
        default=None,
        help="stop listening this long after listening began (models loaded), exactly as Ctrl-C does; "
        "more than 0, at most 30 days (leave it out for no limit)",
    )


class StopRequests:
    """SIGINT and SIGTERM (and --duration) ask a live run to end cleanly: `requested` is set, and
    the run finalises what it heard. A second signal ends it at once (KeyboardInterrupt)."""

    def __init__(self, duration: float | None = None):
        self.requested = threading.Event()
        self._timer = None if duration is None else threading.Timer(max(duration, 0.0), self.requested.set)
        self._previous = {}
        self._clock_started = False

    def __enter__(self) -> StopRequests:
        if threading.current_thread() is threading.main_thread():  # signal handlers live there only
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._previous[sig] = signal.signal(sig, self._handle)
        return self

    def start_clock(self) -> None:
        """Listening has begun: --duration counts from now (once; later calls do nothing)."""
        if self._timer is not None and not self._clock_started:
            self._clock_started = True
            self._timer.daemon = True
            self._timer.start()

    def __exit__(self, *exc) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    def _handle(self, signum, frame) -> None:
        if self.requested.is_set():
            raise KeyboardInterrupt  # asked twice: stop now
        self.requested.set()
