"""Paths and the test database shared by test modules (conftest.py's fixtures use them too)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

#: Tests use their own database so they never touch a developer's data (db 0).
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/13")
