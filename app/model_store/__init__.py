"""Translation models at run time: the catalog of downloadable models and the installed ones
(catalog), fetching them from a model hub (download), the doctor's finding in words (doctor),
and the graph rewrites (optimize) that the first load of a downloaded model applies to a cached
copy (optimized). Those rewrites read and write ONNX files with the `onnx` package, so `onnx`
is a runtime dependency (pyproject.toml), unlike the export tooling.

Building models (export to ONNX, the test fixtures) is the top-level `models` package's job
(it runs the same rewrites at export); nothing here imports it.
"""
