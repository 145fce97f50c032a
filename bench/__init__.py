"""Benchmarks of Live Translator: each module is run from the checkout's root as
`.venv/bin/python -m bench.NAME` (bench/README.md says what each measures and for how long;
tests/test_benches.py runs each one's smallest mode)."""
