"""Test-wide settings: pictures are drawn inline (in a thread), not in worker processes.

A test that patches a renderer patches it in this process; workers would not see the patch,
and starting processes for every bot a test builds would only make the suite slower.
"""

import os

os.environ.setdefault("RENDER_WORKERS", "-1")
