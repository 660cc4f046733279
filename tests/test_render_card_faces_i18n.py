"""Card faces in the viewer's language: French decks print R, D, V on the king, queen and jack; Chinese decks keep
K, Q, J (as English ones do); number cards, aces and jokers look the same everywhere."""

from __future__ import annotations

from render.cards import face
from render.i18n import face_rank


def same(a, b) -> bool:
    return a.tobytes() == b.tobytes()


def test_french_courts_read_r_d_v():
    assert [face_rank(r, "fr") for r in ("K", "Q", "J", "A", "10")] == ["R", "D", "V", "A", "10"]
    assert [face_rank(r, "zh") for r in ("K", "Q", "J")] == ["K", "Q", "J"]
    for court in ("KH", "QS", "JD"):
        assert not same(face(court, 90, lang="fr"), face(court, 90))
        assert same(face(court, 90, lang="zh"), face(court, 90))


def test_other_cards_are_the_same_in_every_language():
    for card in ("AS", "10H", "7C", "JK", "RJ"):
        assert same(face(card, 90, lang="fr"), face(card, 90)) and same(face(card, 90, lang="zh"), face(card, 90))
