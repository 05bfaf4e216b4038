"""Monte-Carlo tree search with a solver, progressive widening and short playouts.

- Solver: a node whose mover can reach a proven win is a proven win; a node
  whose every move is expanded and proven is proven too (its best result).
- Progressive widening: a node considers only its first
  ``widening_base * visits ** widening_exponent`` moves in the policy's order,
  so wide games (Desdemona, Space Tiles) still search their good moves deeply.
- Playouts stop after ``playout_depth`` moves and are scored by the policy's
  evaluation, not played to the end.

Values are stored from the view of the player who made the move into a node
(``mover``), so a player moving twice in a row needs no special case.
"""

from __future__ import annotations

import math
import random
from typing import Any

from engines.ai.analysis import Analysis
from engines.ai.budget import Budget
from engines.ai.policy import EVAL_LIMIT, WIN, M, P, Policy, terminal_value
from engines.ai.rules import Rules


class Node:
    __slots__ = ("children", "move", "mover", "pos", "proven", "to_move", "total", "untried", "visits")

    def __init__(self, pos: Any, move: Any, mover: int, to_move: int) -> None:
        self.pos = pos
        self.move = move
        self.mover = mover
        self.to_move = to_move
        self.children: list[Node] = []
        self.untried: list[Any] | None = None  # ordered moves not yet expanded; None before expansion
        self.visits = 0
        self.total = 0.0
        self.proven: float | None = None  # +-WIN or 0.0 from the mover's view once known

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class Mcts:
    def __init__(
        self, game: Rules[Any, Any], policy: Policy[Any, Any], budget: Budget, rng: random.Random
    ) -> None:
        self.game = game
        self.policy = policy
        self.budget = budget
        self.rng = rng
        self.simulations = 0

    def run(self, pos: Any, root_moves: list[Any] | None = None) -> Node:
        """Search until the budget is spent or the root is proven; the root's children hold the answer.

        With ``root_moves`` only those moves are searched at the root.
        """
        game = self.game
        to_move = game.to_move(pos)
        root = Node(pos, None, 1 - to_move, to_move)
        self._expand_list(root)
        assert root.untried is not None
        if root_moves is not None:
            allowed = set(root_moves)
            root.untried = [move for move in root.untried if move in allowed]
        if not root.untried:
            raise ValueError("the game is over: there is no move to search")
        if len(root.untried) == 1:
            self._grow(root)
            return root
        while root.proven is None and not self.budget.exhausted():
            before = self.budget.nodes
            self._simulate(root)
            self.simulations += 1
            if self.budget.nodes == before:
                self.budget.nodes += 1  # a walk through proven nodes only still costs budget
        if not root.children:
            self._grow(root)  # ordering the root used the whole budget: answer with its first move
        return root

    def search(self, pos: Any, root_moves: list[Any] | None = None) -> Analysis:
        root = self.run(pos, root_moves)
        return summarise(self.game, root, self.budget, self.simulations)

    # --- one simulation ------------------------------------------------------------
    def _simulate(self, root: Node) -> None:
        path = [root]
        node = root
        while True:
            if node.proven is not None:
                break
            if node.untried is None:
                self._expand_list(node)
            child = self._select(node)
            if child is None:
                break
            path.append(child)
            node = child
            if child.visits == 0:
                break
        leaf = path[-1]
        if leaf.proven is not None:
            value, player = leaf.proven, leaf.mover
        else:
            value, player = self._playout(leaf)
        for n in reversed(path):
            n.visits += 1
            n.total += value if n.mover == player else -value
        for n in reversed(path):
            if n.proven is None and not self._prove(n):
                break

    def _expand_list(self, node: Node) -> None:
        game = self.game
        moves = list(game.legal_moves(node.pos))
        if not moves:
            done = terminal_value(game, node.pos)
            node.untried = []
            node.proven = 0.0 if done is None else (done if node.to_move == node.mover else -done)
            return
        self.rng.shuffle(moves)
        node.untried = self.policy.order(node.pos, moves)
        node.untried.reverse()  # pop() from the end takes the best first

    def _grow(self, node: Node) -> Node:
        assert node.untried
        move = node.untried.pop()
        pos = self.game.play(node.pos, move)
        self.budget.nodes += 1
        child = Node(pos, move, node.to_move, self.game.to_move(pos))
        node.children.append(child)
        done = self.policy.result(pos)
        if done is not None:
            child.untried = []
            child.proven = done if child.to_move == child.mover else -done
        return child

    def _select(self, node: Node) -> Node | None:
        policy = self.policy
        assert node.untried is not None
        allowed = policy.widening_base * (node.visits + 1) ** policy.widening_exponent
        live = [c for c in node.children if c.proven is None or c.proven > -WIN]
        if node.untried and (len(node.children) < allowed or not live):
            return self._grow(node)
        if not live:
            return None
        log_n = math.log(node.visits + 1)
        c = policy.exploration
        best, best_score = live[0], -math.inf
        for child in live:
            if child.proven is not None:
                if child.proven >= WIN:
                    return child
                score = child.proven + c * math.sqrt(log_n / (child.visits + 1))
            elif child.visits == 0:
                return child
            else:
                score = child.total / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _prove(self, node: Node) -> bool:
        """Mark ``node`` proven if its children decide it; True when it became proven."""
        if not node.children:
            return False
        best = -math.inf
        open_children = False
        for child in node.children:
            if child.proven is None:
                open_children = True
            elif child.proven >= WIN:
                node.proven = WIN if node.mover == node.to_move else -WIN
                return True
            else:
                best = max(best, child.proven)
        if node.untried or open_children:
            return False
        node.proven = best if node.mover == node.to_move else -best
        return True

    def _playout(self, leaf: Node) -> tuple[float, int]:
        """(value, player it is for) of a short playout from ``leaf``."""
        game = self.game
        policy = self.policy
        pos = leaf.pos
        for _ in range(policy.playout_depth):
            if policy.result(pos) is not None:
                break
            moves = game.legal_moves(pos)
            if not moves:
                return terminal_value(game, pos) or 0.0, game.to_move(pos)
            pos = game.play(pos, policy.playout_move(pos, moves, self.rng))
            self.budget.nodes += 1
        player = game.to_move(pos)
        done = policy.result(pos)
        return (done if done is not None else policy.evaluate(pos)), player


def summarise(game: Rules[P, M], root: Node, budget: Budget, simulations: int) -> Analysis:
    """The best move (a proven win, else the most visited), its value and the principal variation."""
    best = best_child(root)
    value = best.proven if best.proven is not None else best.mean()
    if best.mover != root.to_move:
        value = -value
    pv = [best.move]
    node = best
    while node.children and len(pv) < 12:
        node = best_child(node)
        pv.append(node.move)
    return Analysis(
        best=best.move,
        value=max(-1.0, min(1.0, value)),
        pv=pv,
        nodes=budget.nodes,
        seconds=budget.elapsed(),
        depth=len(pv),
        algorithm="mcts",
        proven=best.proven is not None and abs(best.proven) > EVAL_LIMIT,
        simulations=simulations,
    )


def best_child(node: Node) -> Node:
    wins = [c for c in node.children if c.proven is not None and c.proven >= WIN]
    if wins:
        return wins[0]
    safe = [c for c in node.children if c.proven is None or c.proven > -WIN] or node.children
    return max(safe, key=lambda c: (c.visits, c.mean()))
