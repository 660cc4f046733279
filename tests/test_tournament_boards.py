"""Duplicate boards (rules/boards.py): the same deal at every table, and matchpoints and IMP-like scores worked by
hand for each game."""

from __future__ import annotations

import random

import pytest

from rules.boards import Board, board_net, imps, matchpoints
from rules.errors import RecordError
from rules.players import RandomPlayer
from rules.playing import play_deal
from rules.records import GameRecord, replay
from rules.registry import match_class

GAMES = ("belote", "two_hundred", "five_hundred", "da_bai_fen")


@pytest.mark.parametrize("game", GAMES)
def test_a_board_is_the_same_deal_at_every_table(game):
    board = Board(number=5, seed=123)
    first, second = board.new_match(game, {}), board.new_match(game, {})
    assert first.first_dealer == second.first_dealer == 1, "the dealer rotates with the board's number"
    assert board.cards(first) == board.cards(second)
    assert board.cards(first) != Board(number=5, seed=124).cards(first), "another seed, another deal"
    assert board.cards(first) != Board(number=6, seed=123).cards(first), "another board, another deal"


@pytest.mark.parametrize("game", GAMES)
def test_the_same_play_of_a_board_gives_the_same_result_and_a_replayable_record(game):
    board = Board(number=2, seed=77)
    results, records = [], []
    for _table in range(2):
        match = board.new_match(game, {})
        record = GameRecord(game, board.options(game, {}), board.dealer)
        play_deal(match, [RandomPlayer()] * match.players, random.Random(9), record, board.cards(match))
        results.append(match.deal_results[-1])
        records.append(record)
    assert results[0] == results[1]
    replayed = replay(records[0])
    assert replayed.error is None and replayed.match.deal_results == [results[0]]


def test_a_da_bai_fen_board_fixes_the_declarers_and_the_trump_rank():
    # "The trump rank for the hand is known in advance of the deal: for the first hand it must be two ... and in
    # subsequent hands it is the current score of the declarers."  "In subsequent hands the leader is the same player
    # as the starter."  A board is played as such a later hand: the dealer's team declares, the dealer leads.
    board = Board(number=3, seed=5)
    match = board.new_match("da_bai_fen", {"start_level": "7"})
    assert board.options("da_bai_fen", {})["board_declarers"] == 1
    match.start_deal(board.cards(match))
    assert (match.declarers, match.leader, match.trump_rank) == (1, 3, 7)
    with pytest.raises(RecordError, match="first dealer in that team"):
        match_class("da_bai_fen")({"board_declarers": 0}, 1)
    # Not a board: the first deal is still decided by exposure.
    assert match_class("da_bai_fen")({}, 0).declarers is None
    assert "board_declarers" not in Board(0, 1).options("belote", {})


def test_matchpoints_with_ties():
    # Four tables; team 0's nets +262, +262, -160, +80: the first two beat two tables and tie one (2+2+1 = 5 of a
    # top of 6), -160 beats nobody, +80 beats one (2).
    assert matchpoints([262, 262, -160, 80]) == [5, 5, 0, 2]
    assert matchpoints([10, 10, 10]) == [2, 2, 2]
    assert matchpoints([5]) == [0]


@pytest.mark.parametrize(
    ("game", "difference", "expected"),
    [
        # Belote: 100 coinche made at one table (162 + 100 = 262 to team 0), failed at the other (160 + 100 to team
        # 1): 262 - (-260) = 522, at least 500, 11 IMPs; a 10-point overtrick difference is nothing.
        ("belote", 522, 11),
        ("belote", 10, 0),
        ("belote", -20, -1),
        # Five Hundred: eight spades made (+240) against defeated (-240): 480, at least 430, 10 IMPs.
        ("five_hundred", 480, 10),
        # Two Hundred: steps at 0.4 of bridge's (8, 20, 36, 52, 68, 88, 108, 128, 148, 172, 200 ...): a 100 made
        # against failed, 200 apart, is 11; 30 apart is 2.
        ("two_hundred", 200, 11),
        ("two_hundred", 30, 2),
        # Da Bai Fen: a level is worth 3; declarers up two levels at one table, opponents up one at the other: 3
        # levels, 9.
        ("da_bai_fen", 3, 9),
        ("da_bai_fen", -1, -3),
        ("da_bai_fen", 40, 17),
    ],
)
def test_imp_like_scale_per_game(game, difference, expected):
    assert imps(game, difference) == expected


def test_a_tables_net_is_team_zeros_change_less_team_ones():
    assert board_net({"score_change": [0, 260]}) == -260
    assert board_net({"score_change": [2, 0]}) == 2
