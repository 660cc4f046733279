"""Belote Contrée (coinche), FFB rules: see docs/rules/belote.md."""

from rules.belote.match import Belote

__all__ = ["Belote"]
