"""``python -m scrapy_contentex`` runs the ``contentex`` command."""

import sys

from .cli import main

sys.exit(main())
