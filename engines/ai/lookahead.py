"""Move ordering by a one-move look-ahead: wins first, losses last, the rest by the evaluation after the move.

Costs one ``play`` and one evaluation per move, so games use it where moves
are few or the evaluation is cheap (Space Tiles, Flip Four, The King of Rings).
"""

from __future__ import annotations

from engines.ai.policy import WIN, M, P, Policy


def lookahead_scores(policy: Policy[P, M], pos: P, moves: list[M]) -> list[float]:
    """For each move, its value for the player making it, judged one move ahead."""
    game = policy.game
    me = game.to_move(pos)
    scores = []
    for move in moves:
        child = game.play(pos, move)
        done = policy.result(child)
        value = done * 2 if done is not None else policy.evaluate(child)
        scores.append(value if game.to_move(child) == me else -value)
    return scores


def order_by_lookahead(policy: Policy[P, M], pos: P, moves: list[M]) -> list[M]:
    if len(moves) < 2:
        return moves
    scores = lookahead_scores(policy, pos, moves)
    ranked = sorted(range(len(moves)), key=scores.__getitem__, reverse=True)
    return [moves[i] for i in ranked]


def winning_move(policy: Policy[P, M], pos: P, moves: list[M]) -> M | None:
    """A move that wins at once, if there is one."""
    game = policy.game
    me = game.to_move(pos)
    for move in moves:
        child = game.play(pos, move)
        done = policy.result(child)
        if done is not None and (done if game.to_move(child) == me else -done) >= WIN:
            return move
    return None
