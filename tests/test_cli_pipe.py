"""A reader that stops early (``cardtable replay --batch < many | head``) ends the command quietly: no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

RECORD = Path(__file__).parent / "examples" / "records" / "belote-whole-game.json"


def _feed(stdin: IO[bytes], data: bytes) -> None:
    try:
        stdin.write(data)
        stdin.close()
    except BrokenPipeError:
        pass


def test_a_closed_pipe_ends_the_command_without_a_traceback() -> None:
    line = json.dumps(json.loads(RECORD.read_text()))
    batch = ("\n".join([line] * 200) + "\n").encode()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.process.cli", "replay", "--batch", "--indent", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stdin is not None and proc.stderr is not None
    feeder = threading.Thread(target=_feed, args=(proc.stdin, batch))
    feeder.start()
    proc.stdout.read(100)  # the reader takes a little, then goes away
    proc.stdout.close()
    err = proc.stderr.read().decode()
    feeder.join(timeout=60)
    proc.wait(timeout=60)
    assert "Traceback" not in err, err
    assert proc.returncode == 1
