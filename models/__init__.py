"""Model tooling for Live Translator: export to ONNX, download, the catalog of known models,
and the builder of the small test fixtures. Export needs the `export` extra (torch, optimum-onnx)."""
