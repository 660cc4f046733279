"""The two ways a record or a move can be wrong.

``IllegalAction`` is a player's mistake (exit 1 in ``cardtable replay``): its message is shown to the player as is,
so it is written in their words.  ``RecordError`` means the record itself is malformed (exit 2).
"""


class IllegalAction(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class RecordError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
