"""The shared layer: the vocabulary every stage speaks.

`errors` (the one exception people see), `events` (what the pipeline tells its observers,
with the enums for stages, states and stop reasons), `languages` (languages and directions,
with their labels), `paths` (every folder, resource and environment variable the app reads),
`audio` (the AudioSource protocol every capture source follows).

Every stage (app.audio, app.asr, app.translation, app.tts, app.pipeline, app.ui, ...) may
import this package; this package imports no stage.
"""
