import sys

from bot.process.cli import main

sys.exit(main())
