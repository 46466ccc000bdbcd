"""Tic-tac-toe over the play protocol alone, written without bgrules: a state is a plain tuple of nine
cells ("X", "O" or " "), read row by row; X moves first. ``canonical`` is the least of the board's
images under its 8 symmetries (4 rotations, each with or without a reflection). Used by
tests/core/test_explore.py to check the explorer against the published counts (5,478 legal positions, 765
up to symmetry)."""

from __future__ import annotations

Board = tuple[str, ...]

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
ROTATE = (6, 3, 0, 7, 4, 1, 8, 5, 2)  # cell i of the rotated board is cell ROTATE[i] of the board
REFLECT = (2, 1, 0, 5, 4, 3, 8, 7, 6)


def _images(board: Board) -> list[Board]:
    found = []
    for flip in (False, True):
        b = tuple(board[i] for i in REFLECT) if flip else board
        for _ in range(4):
            found.append(b)
            b = tuple(b[i] for i in ROTATE)
    return found


class TicTacToe:
    players = 2

    def initial_state(self) -> Board:
        return (" ",) * 9

    def winner(self, board: Board) -> str | None:
        for a, b, c in LINES:
            if board[a] != " " and board[a] == board[b] == board[c]:
                return board[a]
        return None

    def is_terminal(self, board: Board) -> bool:
        return self.winner(board) is not None or " " not in board

    def to_move(self, board: Board) -> int | None:
        if self.is_terminal(board):
            return None
        return 0 if board.count("X") == board.count("O") else 1

    def legal_actions(self, board: Board) -> tuple[int, ...]:
        if self.is_terminal(board):
            return ()
        return tuple(i for i in range(9) if board[i] == " ")

    def chance_outcomes(self, board: Board) -> tuple[()]:
        return ()

    def apply(self, board: Board, cell: int) -> Board:
        if cell not in self.legal_actions(board):
            raise ValueError(f"cell {cell} is not free")
        mark = "XO"[self.to_move(board) or 0]
        return (*board[:cell], mark, *board[cell + 1 :])

    def canonical(self, board: Board) -> Board:
        return min(_images(board))


class PlainTicTacToe(TicTacToe):
    """The same game without declared symmetries."""

    canonical = None  # type: ignore[assignment]
