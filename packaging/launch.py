"""Entry point of the packaged app: the same command line as `python -m app`."""

import multiprocessing
import sys

from app.cli import main

if __name__ == "__main__":
    # The window lists speech voices in a spawned child (app/voice_list.py): in a frozen build the
    # child is this executable again, which must run the pool's worker, not the app.
    multiprocessing.freeze_support()
    sys.exit(main())
