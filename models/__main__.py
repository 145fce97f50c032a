"""`python -m models export ...` (see models/cli.py)."""

from models.cli import main

raise SystemExit(main())
