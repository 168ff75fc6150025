"""The Splendor Duel board: 25 cells, their names, the spiral and the lines.

Cell names
----------
Cells are named like chess squares, the board seen with its printed reminder
strip at the top (the orientation of ``companion/data/duel_board.md``): files
``a``…``e`` run left to right, ranks ``1``…``5`` bottom to top.  So ``a5`` is
the top-left cell, ``c3`` the centre (where the spiral starts) and ``e1`` the
bottom-right cell (where it ends).  ``duel_board.md`` cell ``(row, col)`` is
file ``"abcde"[col - 1]``, rank ``6 - row``.

Internally a cell is an index ``0..24`` in reading order (top row first):
``index = (row - 1) * 5 + (col - 1)``; only the text uses names.

The spiral
----------
Setup and every replenish place tokens from the bag along the printed spiral:
``c3 c2 b2 b3 b4 c4 d4 d3 d2 d1 c1 b1 a1 a2 a3 a4 a5 b5 c5 d5 e5 e4 e3 e2 e1``,
skipping occupied cells (``duel_board.md`` section 2).

Lines
-----
"Take up to 3 adjacent tokens in an uninterrupted horizontal, vertical or
diagonal line": :data:`LINES` lists every run of 1, 2 or 3 consecutive cells
in one of the four directions (25 + 72 + 48 = 145 runs).
"""

from __future__ import annotations

from companion.rules.errors import NotationError

SIZE = 5
CELLS: tuple[int, ...] = tuple(range(SIZE * SIZE))
FILES = "abcde"

#: duel_board.md's spiral, as (row, col) counted from 1 with row 1 at the top.
_SPIRAL_ROW_COL = (
    (3, 3), (4, 3), (4, 2), (3, 2), (2, 2), (2, 3), (2, 4), (3, 4), (4, 4), (5, 4),
    (5, 3), (5, 2), (5, 1), (4, 1), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (1, 4),
    (1, 5), (2, 5), (3, 5), (4, 5), (5, 5),
)  # fmt: skip
#: The fill order: cell indices, centre first.
SPIRAL: tuple[int, ...] = tuple((r - 1) * SIZE + (c - 1) for r, c in _SPIRAL_ROW_COL)

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def row_col(cell: int) -> tuple[int, int]:
    """``(row, col)`` counted from 0, row 0 at the top."""
    return divmod(cell, SIZE)


def _name(cell: int) -> str:
    r, c = divmod(cell, SIZE)
    return f"{FILES[c]}{SIZE - r}"


_NAMES = tuple(_name(cell) for cell in CELLS)


def cell_name(cell: int) -> str:
    """``12`` -> ``"c3"``."""
    return _NAMES[cell]


def parse_cell(text: str) -> int:
    """``"c3"`` -> 12; ``NotationError`` for anything that is not a board cell."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in FILES or t[1] not in "12345":
        raise NotationError(f"'{text}' is not a board cell (a1 … e5, a5 is top-left)")
    return (SIZE - int(t[1])) * SIZE + FILES.index(t[0])


def _runs() -> tuple[tuple[int, ...], ...]:
    runs: list[tuple[int, ...]] = [(cell,) for cell in CELLS]
    for length in (2, 3):
        for cell in CELLS:
            r, c = divmod(cell, SIZE)
            for dr, dc in _DIRECTIONS:
                end_r, end_c = r + dr * (length - 1), c + dc * (length - 1)
                if 0 <= end_r < SIZE and 0 <= end_c < SIZE:
                    runs.append(tuple((r + dr * i) * SIZE + c + dc * i for i in range(length)))
    return tuple(tuple(sorted(run)) for run in runs)


#: Every straight run of 1-3 adjacent cells, each sorted by cell index.
LINES: tuple[tuple[int, ...], ...] = _runs()
_LINE_SET = frozenset(LINES)


def adjacent(a: int, b: int) -> bool:
    """True when two distinct cells touch by a side or a corner."""
    (ra, ca), (rb, cb) = divmod(a, SIZE), divmod(b, SIZE)
    return a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1


def is_line(cells: tuple[int, ...]) -> bool:
    """True when the cells (any order) form one straight run of adjacent cells."""
    return tuple(sorted(cells)) in _LINE_SET


def line_problem(cells: tuple[int, ...]) -> str | None:
    """Why these cells are not one unbroken straight line, in words; ``None`` if they are."""
    if is_line(cells):
        return None
    ordered = sorted(cells)
    if len(ordered) == 2:
        return _not_adjacent(*ordered)
    a, b, c = ordered
    pairs = [(x, y) for x, y in ((a, b), (b, c), (a, c)) if adjacent(x, y)]
    (ra, ca), (rb, cb), (rc, cc) = (divmod(x, SIZE) for x in ordered)
    straight = (rb - ra) * (cc - ca) == (rc - ra) * (cb - ca)
    if straight:
        far = next((x, y) for x, y in ((a, b), (b, c)) if not adjacent(x, y))
        return _not_adjacent(*far)
    if len(pairs) < 2:
        lone = next(x for x in ordered if not any(x in p for p in pairs))
        return f"{cell_name(lone)} touches neither of the other cells"
    names = sorted(cell_name(x) for x in ordered)
    return f"{', '.join(names)} do not lie in one straight line"


def _not_adjacent(a: int, b: int) -> str:
    first, second = sorted((cell_name(a), cell_name(b)))
    return f"{first} and {second} are not adjacent"
