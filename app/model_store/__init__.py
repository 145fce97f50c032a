"""Translation models at run time: the catalog of downloadable models and the installed ones
(catalog), fetching them from a model hub (download), and the doctor's finding in words (doctor).

Building models (export to ONNX, the optimisation passes, the test fixtures) is the top-level
`models` package's job; nothing here imports it.
"""
