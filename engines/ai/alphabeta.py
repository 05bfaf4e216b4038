"""Alpha-beta (negamax) with iterative deepening and a transposition table.

Works for games where a player may move twice in a row (passes, multi-step
turns): a child's value is negated only when the side to move changes.
Finished games score +-(WIN - ply * MATE_STEP) so that quicker wins and slower
losses are preferred; everything else comes from the game's ``Policy``.  Where
the policy asks for it, the leaves are quiescence searches: the side to move
may stand on the evaluation or play on with the policy's noisy moves
(captures), so that a leaf is never judged just before a capture is answered.
"""

from __future__ import annotations

import random
from typing import Any

from engines.ai.analysis import Analysis
from engines.ai.budget import Budget, OutOfBudget
from engines.ai.policy import EVAL_LIMIT, Policy, terminal_value
from engines.ai.rules import Rules

MATE_STEP = 1e-4
EXACT, LOWER, UPPER = 0, 1, 2
INFINITY = 2.0


class AlphaBeta:
    def __init__(
        self,
        game: Rules[Any, Any],
        policy: Policy[Any, Any],
        budget: Budget,
        rng: random.Random,
        max_depth: int = 64,
        depth_step: int = 1,
    ) -> None:
        """``depth_step``: how many plies each iteration adds (a turn's parts, see TurnSplit)."""
        self.game = game
        self.depth_step = depth_step
        self.policy = policy
        self.budget = budget
        self.rng = rng
        self.max_depth = max_depth
        self.table: dict[int, tuple[int, float, int, Any]] = {}
        self.horizon = 0  # evaluations at the depth limit in this iteration; none: the tree is solved
        # (depth, best move, value) of every completed iteration, for combining root-split workers.
        self.iterations: list[tuple[int, Any, float]] = []

    def search(self, pos: Any, root_moves: list[Any] | None = None) -> Analysis:
        """Search ``pos``; with ``root_moves`` (already ordered) only those, as one worker of a split root."""
        game = self.game
        if root_moves is None:
            moves = list(game.legal_moves(pos))
            if not moves:
                raise ValueError("the game is over: there is no move to search")
            self.rng.shuffle(moves)  # the seed breaks ties between equally ordered moves
            moves = self.policy.order(pos, moves)
        else:
            moves = list(root_moves)
        best, value, completed = moves[0], self.policy.evaluate(pos), 0
        solved = False
        for depth in range(self.depth_step, self.max_depth + 1, self.depth_step):
            found: list[tuple[Any, float]] = []
            self.horizon = 0
            try:
                self._root(pos, moves, depth, found)
            except OutOfBudget:
                # An unfinished iteration still counts: it searched the previous best first.
                if found:
                    best, value = found[-1]
                break
            best, value = found[-1]
            completed = depth
            self.iterations.append((depth, best, value))
            moves.remove(best)
            moves.insert(0, best)
            solved = self.horizon == 0
            alone = len(moves) == 1 and root_moves is None
            if solved or abs(value) > EVAL_LIMIT or alone or self.budget.exhausted():
                break
        return Analysis(
            best=best,
            value=max(-1.0, min(1.0, value)),
            pv=self._pv(pos, best),
            nodes=self.budget.nodes,
            seconds=self.budget.elapsed(),
            depth=completed,
            algorithm="alphabeta",
            proven=solved or abs(value) > EVAL_LIMIT,
        )

    def _root(self, pos: Any, moves: list[Any], depth: int, found: list[tuple[Any, float]]) -> None:
        """Search every root move; ``found`` gets each new best (move, value) as soon as it is known."""
        game = self.game
        me = game.to_move(pos)
        alpha = -INFINITY
        for move in moves:
            child = game.play(pos, move)
            self.budget.spend()
            if game.to_move(child) == me:
                v = self._negamax(child, depth - 1, alpha, INFINITY, 1)
            else:
                v = -self._negamax(child, depth - 1, -INFINITY, -alpha, 1)
            if v > alpha:
                alpha = v
                found.append((move, v))
        self.table[game.key(pos)] = (depth, alpha, EXACT, found[-1][0])

    def _negamax(self, pos: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        game = self.game
        done = self.policy.result(pos)
        if done is None and depth > 0:
            moves = game.legal_moves(pos)
            if not moves:
                done = terminal_value(game, pos)
        if done is not None:
            return done - MATE_STEP * ply if done > 0 else (done + MATE_STEP * ply if done < 0 else 0.0)
        if depth <= 0:
            self.horizon += 1
            if self.policy.quiescence:
                return self._quiesce(pos, alpha, beta, ply)
            return self.policy.evaluate(pos)
        key = game.key(pos)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            stored_depth, stored, flag, hint = entry
            if stored_depth >= depth:
                if flag == EXACT:
                    return stored
                if flag == LOWER and stored >= beta:
                    return stored
                if flag == UPPER and stored <= alpha:
                    return stored
        if depth == 1:
            return self._frontier(pos, moves, alpha, beta, key, hint, ply)
        moves = self.policy.order(pos, moves)
        if hint is not None and moves[0] != hint:
            try:
                moves.remove(hint)
                moves.insert(0, hint)
            except ValueError:
                pass
        me = game.to_move(pos)
        start_alpha = alpha
        best, best_move = -INFINITY, moves[0]
        for move in moves:
            child = game.play(pos, move)
            self.budget.spend()
            if game.to_move(child) == me:
                v = self._negamax(child, depth - 1, alpha, beta, ply + 1)
            else:
                v = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if v > best:
                best, best_move = v, move
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self.policy.cutoff(pos, move, depth)
                        break
        flag = UPPER if best <= start_alpha else (LOWER if best >= beta else EXACT)
        self.table[key] = (depth, best, flag, best_move)
        return best

    def _frontier(
        self, pos: Any, moves: list[Any], alpha: float, beta: float, key: int, hint: Any, ply: int
    ) -> float:
        """A node one move above the leaves: every child is evaluated anyway, so no ordering pass."""
        game = self.game
        policy = self.policy
        me = game.to_move(pos)
        start_alpha = alpha
        if policy.order_frontier:
            moves = policy.order(pos, moves)
        best, best_move = -INFINITY, moves[0]
        if hint is not None and hint in moves:
            moves = [hint, *moves]
        quiescence = policy.quiescence
        for move in moves:
            child = game.play(pos, move)
            self.budget.spend()
            v = policy.result(child)
            turned = game.to_move(child) != me
            if v is not None:
                v = v - MATE_STEP if v > 0 else (v + MATE_STEP if v < 0 else 0.0)
            else:
                self.horizon += 1
                if not quiescence:
                    v = policy.evaluate(child)
                elif turned:
                    v = self._quiesce(child, -beta, -alpha, ply + 1)
                else:
                    v = self._quiesce(child, alpha, beta, ply + 1)
            if turned:
                v = -v
            if v > best:
                best, best_move = v, move
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        policy.cutoff(pos, move, 1)
                        break
        flag = UPPER if best <= start_alpha else (LOWER if best >= beta else EXACT)
        self.table[key] = (1, best, flag, best_move)
        return best

    def _quiesce(self, pos: Any, alpha: float, beta: float, ply: int) -> float:
        """The value of ``pos`` (not finished) for its side to move: its evaluation, or a noisy line's.

        The side to move may always stand on the evaluation (a quiet move is assumed to exist).
        """
        game = self.game
        policy = self.policy
        best = policy.evaluate(pos)
        if best >= beta:
            return best
        alpha = max(alpha, best)
        me = game.to_move(pos)
        for move in policy.noisy(pos):
            child = game.play(pos, move)
            self.budget.spend()
            done = policy.result(child)
            if done is not None:
                v = done - MATE_STEP * ply if done > 0 else (done + MATE_STEP * ply if done < 0 else 0.0)
                if game.to_move(child) != me:
                    v = -v
            elif game.to_move(child) == me:
                v = self._quiesce(child, alpha, beta, ply + 1)
            else:
                v = -self._quiesce(child, -beta, -alpha, ply + 1)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def _pv(self, pos: Any, best: Any, limit: int = 12) -> list[Any]:
        """The principal variation: ``best``, then the stored best replies.

        A stored move belongs to the position with that key, so it is legal
        there; nothing is regenerated, which keeps the answer within its time.
        """
        game = self.game
        pv = [best]
        seen = {game.key(pos)}
        pos = game.play(pos, best)
        while len(pv) < limit and self.policy.result(pos) is None:
            key = game.key(pos)
            entry = self.table.get(key)
            if entry is None or key in seen:
                break
            seen.add(key)
            pv.append(entry[3])
            pos = game.play(pos, entry[3])
        return pv
