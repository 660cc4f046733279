"""An offline fake of the Discord API for driving the real discord.py client in tests.

See README.md in this directory.
"""

from .interactions import InteractionResult
from .models import ALL_PERMISSIONS, EPHEMERAL, Attachment, Channel, Guild, Member, Message, Role, User
from .patch import point_discord_at
from .rest import RestCall
from .server import FakeDiscord

__all__ = [
    "ALL_PERMISSIONS",
    "EPHEMERAL",
    "Attachment",
    "Channel",
    "FakeDiscord",
    "Guild",
    "InteractionResult",
    "Member",
    "Message",
    "RestCall",
    "Role",
    "User",
    "point_discord_at",
]
