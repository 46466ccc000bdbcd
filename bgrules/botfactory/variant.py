"""Bot Factory rulings and component data in one frozen object; the default is the seed's reading.

A TOML variant file may hold ``[rulings]`` (fields of :class:`Rulings`) and any of the component tables of
``data/components.toml`` (``[counts]``, ``[wheel]``, ``[boards]``, ``[finance]``, ``[[contracts]]``), whose
keys replace the default figures.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import attrs

from bgrules.core.codec import read_package_toml, read_toml, show, structure
from bgrules.core.descriptor import other_games_tables
from bgrules.core.errors import InputError

PROVENANCES = ("seed", "official", "assumed")
BOARDS = ("assembly", "production", "project", "finance")


@attrs.frozen
class Rulings:
    """Readings of the seed's open questions (docs/rules/botfactory.md, Ambiguities)."""

    unpaid_share: Literal["nothing", "additional_only"] = "nothing"
    """BF-SANDRA-SHARE: a player sharing Sandra's board who does not pay does nothing at all (the seed:
    否則不能做任何行動), or may still take the board's additional actions."""
    last_space_toll: Literal["separate", "combined"] = "separate"
    """BF-SANDRA-SHARE / BF-ASM-LAST: a player sharing Sandra's Assembly board on its last space pays Sandra's
    token and the space's extra token as two payments (``"separate"``, the seed's two sentences: paying
    Sandra alone leaves the additional action), or as one payment of both or neither (``"combined"``, the
    reading of 0.3.0)."""
    project_clear_out: Literal["lowest_tile", "bottom_space"] = "lowest_tile"
    """BF-PROJ-SANDRA / BF-MAINT: the clear-out removes each column's lowest Project tile, wherever it stands
    (``"lowest_tile"``, the seed: 將各直行最下方的專案板塊移除), or only a tile on the bottom space, nothing when
    that space is empty (``"bottom_space"``, the reading of 0.3.0)."""
    reservation_tokens: Literal["one_paid", "one_more", "whole_cost"] = "one_paid"
    """BF-FIN-CONTRACT: reserving pays the space's cost and places ONE token on the contract's highest free
    space (the seed: 放置一個自己的話語指示物); ``"one_paid"``: that token is one of those paid, the rest go to
    the supply; ``"one_more"``: the cost goes to the supply and one more token from the hand onto the
    contract; ``"whole_cost"``: the whole cost lies on the contract (the reading of 0.3.0). Scoring reads
    the space's value under every reading."""
    additional_actions: Literal["any_time", "own_turn"] = "any_time"
    """BF-ADDITIONAL: the additional actions of the board one's worker stands on may be taken any number of
    times in one's own turn and, under ``"any_time"`` (the seed: 回合過程中任意時候可做任意次), in a window
    each player gets after the moves (``opening_window``), between turns, before Sandra acts and before
    maintenance; ``"own_turn"``: in one's own
    turn only (the reading of 0.3.0)."""
    opening_window: Literal["after_moves", "none"] = "after_moves"
    """BF-ADDITIONAL-WINDOW (under ``additional_actions = "any_time"``): "any time during the round"
    (回合過程中任意時候) includes the moment after the move phase (the last worker and Sandra moved) and before
    the first turn, so a window opens there too (``"after_moves"``); ``"none"``: the first window of the
    round is the one after the first turn (the reading of 0.4.0)."""
    paid_sharer: Literal["any_time", "own_turn"] = "any_time"
    """BF-SANDRA-PAID (under ``additional_actions = "any_time"`` and ``unpaid_share = "nothing"``): a player on
    Sandra's board who paid her token keeps that board's additional action in every later window of the
    round (``"any_time"``, the seed: only a player who did not pay may do nothing at all, 否則不能做任何行動);
    ``"own_turn"``: a player on Sandra's board takes additional actions in their own turn only, after paying,
    and is offered no window (the reading of 0.4.0)."""
    bots_per_colour_to_end: int = 0
    """BF-END: bots of each colour in play, all of which built ends the game; 0 = as many as players (the
    seed: 四人局每一種顏色有四隻, four per colour with four players). At most the box's four."""


@attrs.frozen
class Contract:
    id: int
    needs: dict[str, int]
    points: int
    provenance: str = "assumed"


@attrs.frozen
class Counts:
    tokens_per_colour: int
    bots_per_colour: int
    parts_per_colour_slot: int
    universal_per_slot: int
    projects_per_colour: int
    start_tokens: int
    last_player_extra_token: int
    token_cap: int
    part_limit: int
    project_limit: int
    bots_to_end: int
    provenance: dict[str, str] = attrs.field(factory=dict)


@attrs.frozen
class Wheel:
    setup: tuple[str, ...]
    top: tuple[int, ...]
    output: tuple[int, ...]
    marked: tuple[int, ...]
    sandra_start: int
    provenance: dict[str, str] = attrs.field(factory=dict)


@attrs.frozen
class Boards:
    assembly: tuple[int, ...]
    production: tuple[int, ...]
    project: tuple[int, ...]
    finance: tuple[int, ...]
    assembly_last_extra_cost: int
    icon_slots: tuple[str, ...]
    spares: int
    project_columns: int
    project_rows: int
    sandra_start: int
    provenance: dict[str, str] = attrs.field(factory=dict)


@attrs.frozen
class Finance:
    track_max: int
    start_value: int
    lines: tuple[int, ...]
    line_rewards: tuple[str, ...]
    contracts_face_up: int
    reservation_costs: tuple[int, ...]
    provenance: dict[str, str] = attrs.field(factory=dict)


@attrs.frozen
class Components:
    colours: tuple[str, ...]
    slots: tuple[str, ...]
    counts: Counts
    wheel: Wheel
    boards: Boards
    finance: Finance
    contracts: tuple[Contract, ...]

    def spaces(self) -> tuple[tuple[int, int, int], ...]:
        """Every action space as (board index, space index, action count), left to right across boards."""
        return tuple((b, s, n) for b, name in enumerate(BOARDS) for s, n in enumerate(getattr(self.boards, name)))


def _check(c: Components, where: str) -> None:
    if len(c.colours) != 4 or len(set(c.colours)) != 4:
        raise InputError(f"{where} colours", "Bot Factory has four distinct colours")
    if tuple(c.slots) != ("head", "torso", "legs"):
        raise InputError(f"{where} slots", "the slots are head, torso, legs")
    for table in (c.counts, c.wheel, c.boards, c.finance):
        for key, prov in table.provenance.items():
            if prov not in PROVENANCES:
                raise InputError(f"{where} provenance of {key}", f"{prov!r}; expected one of {', '.join(PROVENANCES)}")
    counts = c.counts
    numbers = {k: v for k, v in attrs.asdict(counts).items() if k != "provenance"}
    negative = [k for k, v in numbers.items() if v < 0]
    if negative:
        raise InputError(f"{where} counts.{negative[0]}", "counts are not negative")
    if counts.start_tokens + counts.last_player_extra_token > min(counts.token_cap, counts.tokens_per_colour):
        raise InputError(f"{where} counts", "the set-up tokens must fit under the cap and in the colour's supply")
    at_least_one = ("bots_per_colour", "bots_to_end", "token_cap", "part_limit", "project_limit", "tokens_per_colour")
    for key in (*at_least_one, "parts_per_colour_slot"):  # BF-SETUP-PARTS: each player picks a part
        if getattr(counts, key) < 1:
            raise InputError(f"{where} counts.{key}", f"at least 1, not {getattr(counts, key)}")
    if c.boards.assembly_last_extra_cost < 0:
        raise InputError(f"{where} boards.assembly_last_extra_cost", "a cost is not negative")
    w = c.wheel
    if w.sandra_start not in range(8):
        raise InputError(f"{where} wheel.sandra_start", f"Wheel positions are 0-7, not {w.sandra_start}")
    if len(w.setup) != 8 or any(col not in c.colours for col in w.setup):
        raise InputError(f"{where} wheel.setup", "eight colours, one per Wheel space")
    for name in ("top", "output", "marked"):
        if any(p not in range(8) for p in getattr(w, name)):
            raise InputError(f"{where} wheel.{name}", "Wheel positions are 0-7")
    for name in BOARDS:
        counts = getattr(c.boards, name)
        if not counts or any(n < 1 for n in counts):
            raise InputError(f"{where} boards.{name}", "each board has action spaces with counts of at least 1")
    if any(s not in c.slots for s in c.boards.icon_slots):
        raise InputError(f"{where} boards.icon_slots", "icon slots are head, torso or legs")
    if c.boards.project_columns != 2 or c.boards.project_rows < 1 or c.boards.spares < 0:
        raise InputError(
            f"{where} boards", "the Project board has 2 columns and at least 1 row; spares are not negative"
        )
    for key in ("spares", "project_rows"):
        if getattr(c.boards, key) > 20:
            raise InputError(f"{where} boards.{key}", f"at most 20 spaces, not {show(getattr(c.boards, key))}")
    spaces = len(c.spaces())
    if c.boards.sandra_start not in range(spaces):
        raise InputError(
            f"{where} boards.sandra_start", f"an action space 0 to {spaces - 1}, not {c.boards.sandra_start}"
        )
    f = c.finance
    if len(f.lines) != len(f.line_rewards) or any(r not in ("part", "project") for r in f.line_rewards):
        raise InputError(f"{where} finance", "each value line has a reward, 'part' or 'project'")
    if not 0 <= f.start_value <= f.track_max or not f.reservation_costs or min(f.reservation_costs) < 1:
        raise InputError(f"{where} finance", "start value on the track; reservation costs at least 1")
    if len(f.reservation_costs) > 2:  # BF-FIN-CONTRACT: 一個合約最多可以被兩個玩家保留 (seed line 110)
        raise InputError(
            f"{where} finance.reservation_costs",
            "a contract takes at most two reservations (seed line 110), so at most two costs, "
            f"not {len(f.reservation_costs)}",
        )
    if any(not 1 <= line <= f.track_max for line in f.lines):
        raise InputError(f"{where} finance.lines", f"value lines are on the track, 1 to {f.track_max}")
    if f.contracts_face_up < 1:
        raise InputError(f"{where} finance.contracts_face_up", f"at least 1, not {f.contracts_face_up}")
    ids = [k.id for k in c.contracts]
    if len(set(ids)) != len(ids) or len(ids) < f.contracts_face_up:
        raise InputError(f"{where} contracts", "distinct contract ids, at least as many as are face up")
    for k in c.contracts:
        if not k.needs or any(col not in c.colours or n < 1 for col, n in k.needs.items()):
            raise InputError(f"{where} contract {k.id}", "needs name colours with counts of at least 1")
        if k.provenance not in PROVENANCES:
            raise InputError(f"{where} contract {k.id}", f"provenance {k.provenance!r}")
        if k.points < 0:
            raise InputError(f"{where} contract {k.id}", f"points are not negative, not {k.points}")


def players_problem(c: Components, players: int) -> str | None:
    """BF-MOVE: why ``players`` workers cannot always move on these boards (None if they can): after the
    first round a worker moves to an empty space on another board while every other worker and Sandra
    stand on one, so the spaces off any one board must outnumber the players."""
    sizes = [len(getattr(c.boards, name)) for name in BOARDS]
    if sum(sizes) - max(sizes) < players + 1:
        return (
            f"the boards' {sum(sizes)} action spaces ({', '.join(map(str, sizes))} a board) leave a worker no empty "
            f"space on another board with {players} players and Sandra (BF-MOVE)"
        )
    return None


def _flatten(data: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "colours": data.get("colours"),
        "slots": data.get("slots"),
        "counts": data.get("counts"),
        "wheel": data.get("wheel"),
        "boards": data.get("boards"),
        "finance": data.get("finance"),
        "contracts": data.get("contracts"),
    }


def default_component_data() -> dict[str, Any]:
    return read_package_toml("bgrules.botfactory", "data/components.toml")


_DEFAULT: Components | None = None


def default_components() -> Components:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = structure(_flatten(default_component_data()), Components, "components.toml")
        _check(_DEFAULT, "components.toml")
    return _DEFAULT


@attrs.frozen
class BotFactoryVariant:
    rulings: Rulings = attrs.field(factory=Rulings)
    components: Components = attrs.field(factory=default_components)
    source: str = "default"


TITLE = "Bot Factory"
"""The game's name in messages about variant files."""

TABLES = ("rulings", "counts", "wheel", "boards", "finance", "contracts")
"""The tables (and top-level keys) a Bot Factory variant may hold."""


def _other_game(data: Mapping[str, Any], source: str) -> None:
    """Another game's table or ruling in a Bot Factory variant is named as such (:func:`other_games_tables`)."""
    other_games_tables(data, source, __name__)


def variant_from_data(data: Mapping[str, Any], source: str = "variant") -> BotFactoryVariant:
    """A variant from plain data (a TOML file's tables); every problem is an InputError naming the table,
    the key and the valid choices. Checked for meaning: no negative counts, costs or points, every
    position and space index in range."""
    if not isinstance(data, Mapping):
        raise InputError(source, "a variant is a table of tables ([rulings], [counts], ...)")
    _other_game(data, source)
    tables = TABLES
    unknown = sorted(str(k) for k in set(data) - set(tables))
    if unknown:
        raise InputError(source, f"unknown table(s) {', '.join(unknown)}; expected {', '.join(tables)}")
    for table in ("rulings", "counts", "wheel", "boards", "finance"):
        if not isinstance(data.get(table, {}), Mapping):
            raise InputError(f"{source} [{table}]", "expected a table")
    if not isinstance(data.get("contracts", []), list):
        raise InputError(f"{source} [[contracts]]", "expected a list of tables ([[contracts]])")
    rulings = structure(data.get("rulings", {}), Rulings, f"{source} [rulings]")
    if rulings.bots_per_colour_to_end < 0:
        raise InputError(f"{source} [rulings]", "bots_per_colour_to_end is 0 (as many as players) or more")
    components = default_components()
    if set(data) - {"rulings"}:
        merged = copy.deepcopy(default_component_data())
        for table in ("counts", "wheel", "boards", "finance"):
            if table in data:
                if not isinstance(data[table], Mapping):
                    raise InputError(f"{source} [{table}]", "expected a table")
                merged[table].update(data[table])
        if "contracts" in data:
            merged["contracts"] = data["contracts"]
        components = structure(_flatten(merged), Components, source)
        _check(components, source)
    box = components.counts.bots_per_colour
    if rulings.bots_per_colour_to_end > box:
        why = f"at most the {box} bots of a colour in the box, not {show(rulings.bots_per_colour_to_end)}"
        raise InputError(f"{source} [rulings] bots_per_colour_to_end", why)
    return BotFactoryVariant(rulings=rulings, components=components, source=source)


def load_variant(spec: BotFactoryVariant | str | Path | Mapping[str, Any] | None) -> BotFactoryVariant:
    if spec is None:
        return BotFactoryVariant()
    if isinstance(spec, BotFactoryVariant):
        return spec
    if isinstance(spec, Mapping):
        return variant_from_data(spec)
    if not isinstance(spec, str | Path):
        raise InputError("variant", f"a variant is a TOML file's path or a table of tables, not {show(spec)}")
    return variant_from_data(read_toml(spec), str(spec))


RUNNER_ROUNDS = 40
"""The round cap runners (playouts, simulate, verify, diff) apply by default to a game without a cap of its
own (``max_rounds=None``): a game the rules have not ended within it is reported truncated."""


def game_variant(players: object, variant: Any, max_rounds: object) -> BotFactoryVariant:
    """The variant of a Bot Factory game of ``players`` players and round cap ``max_rounds`` (None: no cap of
    its own), loaded from ``variant``; every engine's constructor calls it, so that the same options are
    refused with the same words: 2 to 4 players; ``max_rounds`` a whole number of at least 1 (BF-END);
    boards that leave every worker a space to move to (BF-MOVE, ``players_problem``)."""
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise InputError("players", f"botfactory is for 2 to 4 players, not {players!r}")
    if max_rounds is not None and (isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1):
        raise InputError("max_rounds", f"max_rounds is a whole number of at least 1 (or none), not {max_rounds!r}")
    loaded = load_variant(variant)
    crowded = players_problem(loaded.components, players)
    if crowded is not None:
        raise InputError("variant", crowded)
    return loaded


def max_length(variant: BotFactoryVariant, players: int, max_rounds: int | None) -> int:
    """BF-END, docs/rules/botfactory.md Termination 4: a bound on the actions of ``max_rounds`` rounds, or (no
    cap of the game's own) of the runners' default cap of ``RUNNER_ROUNDS`` rounds: the seed's ends give no
    finite bound, so a game not over by then is truncated. Per round each player moves once and takes a
    turn whose steps are bounded by the tokens and parts they can spend, and takes part in the
    additional-action windows; Sandra and maintenance draw at most the Wheel, the spares and the Project
    board. Every engine's ``info.max_length``."""
    c = variant.components
    most = max(max(c.boards.assembly), max(c.boards.production), max(c.boards.project), max(c.boards.finance))
    per_turn = 3 * most + 4 * c.counts.token_cap + 60
    per_round = players * (per_turn + 2 + c.counts.part_limit + c.counts.project_limit + 20) + 40
    rulings = variant.rulings
    if rulings.additional_actions == "any_time":  # BF-ADDITIONAL: n + 1 windows a round
        windows = players + 1 + (1 if rulings.opening_window == "after_moves" else 0)  # BF-ADDITIONAL-WINDOW
        per_round += players * (windows + 2 * (c.counts.token_cap + c.counts.part_limit + c.counts.project_limit))
    rounds = max_rounds if max_rounds is not None else RUNNER_ROUNDS
    return 200 + rounds * per_round
