# PyInstaller runtime hook: the build carries transformers without torch (tokenizers only), so
# its "None of PyTorch, TensorFlow >= 2.0, or Flax have been found" advice is expected noise.
import os

os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
