"""``python -m bot.i18n extract|update|compile|check``: see bot/i18n/tools.py."""

from __future__ import annotations

import sys

from bot.i18n import tools


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "extract":
        print(f"{len(tools.extract())} message ids in {tools.TEMPLATE.relative_to(tools.ROOT)}")
    elif command == "update":
        tools.update()
    elif command == "compile":
        tools.compile_all()
    elif command == "check":
        found = tools.problems()
        print("\n".join(found) or "every language is complete")
        return 1 if found else 0
    else:
        print(__doc__ + "\n" + (tools.__doc__ or ""))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
