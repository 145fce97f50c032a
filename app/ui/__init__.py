"""The PySide6 window. It observes the Qt-free pipeline and holds no pipeline logic."""
