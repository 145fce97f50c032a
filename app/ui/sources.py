"""The source chooser: microphones, system audio (what the computer plays) and a conversation
(the microphone and system audio at once), each entry carrying the SourceChoice it stands for.

Listing devices asks PortAudio and the sound server, so the window calls `source_choices` on a
worker. When the machine has no system-audio capture (macOS without a loopback device such as
BlackHole, no sound server), the list says so in a disabled entry whose tooltip says what to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QComboBox

from app.audio import list_input_devices
from app.audio.system import system_devices_or_reason
from app.pipeline import Pipeline
from app.pipeline.conversation import Conversation, ConversationConfig
from app.pipeline.guests import WithGuests
from app.shared.audio import SourceKind
from app.shared.events import Spoken
from app.ui.i18n import QT_TRANSLATE_NOOP, translate

if TYPE_CHECKING:
    from app.pipeline import PipelineConfig
    from app.pipeline.session import Session

CONVERSATION = "conversation"  # the chooser's third kind: both sources at once
NO_MICROPHONE = QT_TRANSLATE_NOOP("Sources", "No microphone found")  # translated where shown


@dataclass(frozen=True)
class SourceChoice:
    kind: str  # "microphone", "system" or "conversation"
    device: str = ""  # the device's name (microphone) or id (system); "" = the default
    label: str = ""

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.device}"


@dataclass(frozen=True)
class SourceList:
    choices: list[SourceChoice]
    system_problem: str | None = None  # why there is no system audio, and what to do
    no_microphone: bool = False  # PortAudio finds no device to record from: said before Start


def source_choices() -> SourceList:
    """Every source the window offers (runs on a worker thread)."""
    try:
        microphones = [d.name for d in list_input_devices(refresh_if_none=True)]
    except Exception:  # no PortAudio at all: the default entry still says what happens on start
        microphones = []
    systems, problem = system_devices_or_reason()
    default = translate("Sources", "Default microphone") if microphones else translate("Sources", NO_MICROPHONE)
    choices = [SourceChoice(SourceKind.MICROPHONE.value, "", default)]
    choices += [
        SourceChoice(SourceKind.MICROPHONE.value, name, translate("Sources", "Mic: {name}").format(name=name))
        for name in microphones
    ]
    if systems:
        choices.append(
            SourceChoice(SourceKind.SYSTEM.value, "", translate("Sources", "System audio (what the computer plays)"))
        )
        choices += [
            SourceChoice(SourceKind.SYSTEM.value, d.id, translate("Sources", "System: {name}").format(name=d.name))
            for d in systems
        ]
        choices.append(
            SourceChoice(CONVERSATION, "", translate("Sources", "Conversation: me (mic) + them (system audio)"))
        )
    return SourceList(choices, problem, no_microphone=not microphones)


NO_MICROPHONE_HINT = QT_TRANSLATE_NOOP(
    "Sources",
    "Connect a microphone, choose system audio, or use File ▸ Translate a recording…",
)


class SourceChooser(QComboBox):
    """A combo box of SourceChoices; `choice()` is the one selected."""

    NO_SYSTEM_AUDIO = QT_TRANSLATE_NOOP("Sources", "System audio: not available")  # translated where shown

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setMinimumWidth(240)
        self.setToolTip(
            translate("Sources", "What to listen to: a microphone, system audio, or both as a conversation")
        )
        self.set_sources(
            SourceList([SourceChoice(SourceKind.MICROPHONE.value, "", translate("Sources", "Default microphone"))]), ""
        )

    def set_sources(self, sources: SourceList, current_key: str) -> None:
        self.blockSignals(True)
        self.clear()
        for choice in sources.choices:
            self.addItem(choice.label, choice)
        if sources.no_microphone:  # the microphone entry stays (a setting may name it), greyed
            self.model().item(0).setEnabled(False)
            self.setItemData(0, translate("Sources", NO_MICROPHONE_HINT), 3)  # Qt.ToolTipRole
        if sources.system_problem:
            self.addItem(translate("Sources", self.NO_SYSTEM_AUDIO), None)
            index = self.count() - 1
            item = self.model().item(index)
            item.setEnabled(False)
            item.setToolTip(sources.system_problem)
            self.setItemData(index, sources.system_problem, 3)  # Qt.ToolTipRole
        keys = [self.itemData(i).key if self.itemData(i) else None for i in range(self.count())]
        self.setCurrentIndex(keys.index(current_key) if current_key in keys else 0)
        self.blockSignals(False)

    def choice(self) -> SourceChoice:
        return self.currentData() or SourceChoice(SourceKind.MICROPHONE.value)

    def select(self, key: str) -> bool:
        for i in range(self.count()):
            if self.itemData(i) is not None and self.itemData(i).key == key:
                self.setCurrentIndex(i)
                return True
        return False


def chosen(settings) -> SourceChoice:
    """The source the settings name (an older settings file knows only a microphone's name)."""
    kind, _, device = (settings.source or f"{SourceKind.MICROPHONE.value}:{settings.input_device}").partition(":")
    return SourceChoice(kind, device)


def spoken_side(name: str) -> Spoken:
    """The spoken side a setting names (them, for a value no version wrote)."""
    return Spoken(name) if name in tuple(Spoken) else Spoken.THEM


def make_session(
    settings, config: PipelineConfig, *, on_event, audio_source=None, speech_output=None, guest_places=()
) -> Session:
    """A Pipeline for one source, or a Conversation (me: the microphone, them: system audio)
    when the chosen source is a conversation. `config` is the window's PipelineConfig: both
    sides of a conversation get every setting in it. A recording or a test's audio source
    always means a single pipeline. guest_places: guests speak through the caption page too
    (app.pipeline.guests.WithGuests around the session, one lane per place)."""
    if guest_places:

        def host(host_config, observer, ids) -> Session:
            return _host_session(settings, host_config, observer, audio_source, speech_output, ids)

        return WithGuests(config, host, list(guest_places), on_event=on_event)
    return _host_session(settings, config, on_event, audio_source, speech_output)


def _host_session(settings, config: PipelineConfig, on_event, audio_source, speech_output, ids=None) -> Session:
    choice = chosen(settings)
    if choice.kind == CONVERSATION and config.input_path is None and audio_source is None:
        conversation = ConversationConfig(
            pipeline=config, system_device=settings.system_device or None, spoken=spoken_side(settings.spoken).speakers
        )
        return Conversation(conversation, on_event=on_event, speech_output=speech_output, utterance_ids=ids)
    if choice.kind == SourceKind.SYSTEM.value:
        config = config.copy(source=SourceKind.SYSTEM, input_device=choice.device or None)
    return Pipeline(
        config, on_event=on_event, audio_source=audio_source, speech_output=speech_output, utterance_ids=ids
    )
