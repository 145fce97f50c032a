"""Model building for Live Translator, never imported by the app: export to ONNX (export), the
optimisation passes applied at export (optimize), and the builders of the small test models
(fixtures, phrasebook). Needs the `export` extra (torch, optimum-onnx). The app's run-time model
handling (catalog, download, doctor) is app.model_store."""
