#!/usr/bin/env bash
# Sets up Live Translator on Debian (as root) or any machine with Python 3.11+.
#   ./setup.sh app    system packages + .venv with the app, its offline Whisper models and natural English voice
#                     and (Linux) Live Translator in the application menu (for every user when run as root)
#   ./setup.sh test   the same without the menu entry, plus what the tests need (export tooling, PulseAudio, Xvfb, ...)
#   ./setup.sh uninstall   takes the menu entry away again (then delete this folder for the rest)
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-app}
case "$mode" in app|test|uninstall) ;; *) echo "usage: ./setup.sh app|test|uninstall" >&2; exit 2 ;; esac
# The desktop entry goes where the menu of every user looks (/usr/local/share) when run as root, else the user's own.
desktop_scope=()
[ "$(id -u)" = 0 ] && desktop_scope=(--system)

if [ "$mode" = uninstall ]; then
    if [ -x .venv/bin/python ]; then
        .venv/bin/python -m app desktop --remove "${desktop_scope[@]}"
    fi
    echo "setup: the menu entry is gone; delete $(pwd) to remove the rest (models downloaded by the app:"
    echo "       ~/.local/share/live-translator)."
    exit 0
fi

# Debian packages: PortAudio for the microphone, libpulse for system audio (soundcard), espeak-ng (+aplay) for speech output,
# the libraries Qt's xcb/offscreen plugins load, and CJK fonts for the Chinese panels.
apt_app=(python3 python3-venv espeak-ng libportaudio2 libpulse0 alsa-utils libegl1 libgl1 libxkbcommon0
         libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0
         libxcb-shape0 libxcb-randr0 libxcb-xfixes0 libxcb-xkb1 libdbus-1-3 libfontconfig1
         fonts-noto-cjk)
# Tests also speak with espeak-ng into a PulseAudio virtual microphone, film the window on Xvfb
# (xcompmgr composites the overlay's translucency for its screenshot)
# and open the caption page in Chromium (driven by Playwright, which downloads no browser).
# bench/rooms.py reads real human English from codec2-examples (and alsa-utils, above).
# desktop-file-utils: desktop-file-validate checks the menu entry (tests/test_desktop_entry.py). binutils: the
# packaged build strips its libraries and rebuilds Qt's ICU data smaller (strip, nm, as, ld; packaging/trim_icu.py).
apt_test=(sox codec2-examples pulseaudio pulseaudio-utils libasound2-plugins xvfb xcompmgr binutils chromium desktop-file-utils)

if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    want=("${apt_app[@]}")
    [ "$mode" = test ] && want+=("${apt_test[@]}")
    missing=()
    for p in "${want[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "setup: installing Debian packages: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
extras="offline-models,natural-voice"
[ "$mode" = test ] && extras="offline-models,natural-voice,export,dev,bench,packaging"
.venv/bin/python -m pip install -q -e ".[${extras}]"
if [ "$mode" = app ] && [ "$(uname -s)" = Linux ]; then
    .venv/bin/python -m app desktop "${desktop_scope[@]}"
fi
echo "setup: ready ($mode). Python: $(pwd)/.venv/bin/python"
