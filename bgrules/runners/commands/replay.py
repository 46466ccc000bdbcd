"""``bgrules replay``: a trace (or a list of actions) replayed, as the lines ``--step`` prints, the final
state, and the trace's invariant at each step."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bgrules.core.codec import dumps
from bgrules.core.defaults import default_dir
from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.observe import shown
from bgrules.core.registry import load_game
from bgrules.pictures.narrate import describe
from bgrules.runners import html
from bgrules.runners.commands.state import state_file
from bgrules.runners.specfile import find_spec, load_specs, resolve_predicate
from bgrules.runners.trace import explain, initial_observed, initial_value, parse_actions, picture, read_trace

Say = Callable[[str], None]
"""Where a note goes (stderr)."""


def trace_invariant(
    trace: dict[str, Any], specs_dir: Path | None, note: Say
) -> tuple[str, str, Callable[..., str | None]] | None:
    """The trace's spec (its id, kind and predicate) from ``specs_dir`` (default: the specs verify finds),
    or None with a ``note`` when the trace names none or it is not there (a bare list of actions, a spec
    since renamed)."""

    spec_id = trace.get("spec")
    if not isinstance(spec_id, str) or not spec_id:
        return None
    where = specs_dir or default_dir("specs")
    try:
        one = find_spec(load_specs(where), spec_id)  # a spec's id, or an old per-count id (BF-INV-LIMITS-3P)
        found = [] if one is None else [one]
    except InputError as exc:
        if specs_dir is not None:
            raise
        found, why = [], f"({exc})"
    else:
        why = ""
    if not found:
        note(f"note: the trace's spec {spec_id} is not in {where} {why}: its invariant is not shown")
        return None
    spec = found[0]
    if spec.kind == "game":
        note(f"note: {spec_id} is checked on the whole game, not after each step")
    return spec.id, spec.kind, resolve_predicate(spec.predicate, spec.source)


def invariant_lines(spec_id: str, value: str | None, reads: dict[str, Any] | None) -> list[str]:
    out = [f"   invariant {spec_id}: " + ("holds" if value is None else f"fails: {value}")]
    if reads:
        out.append(f"   it reads: {shown(reads)}")
    return out


class Replay:
    """A replay of ``actions`` from the game's initial state: :meth:`lines` yields what ``--step`` prints
    as it goes (an illegal action raises after the steps before it), ``state`` is the final state after."""

    def __init__(self, name: str, game: Any, actions: list[Any]) -> None:
        self.name, self.game, self.actions = name, game, actions
        self.state: Any = game.initial_state()

    def run(self) -> Any:
        for _ in self.lines(None, step=False):
            pass
        return self.state

    def lines(
        self, invariant: tuple[str, str, Callable[..., str | None]] | None, *, step: bool = True
    ) -> Iterator[str]:

        game = self.game

        def show(s: Any) -> str:
            art = picture(game, s)
            return art if art is not None else dumps(s)

        if step:
            kind, predicate = (invariant[1], invariant[2]) if invariant is not None else ("state", None)
            steps = explain(game, self.actions, kind, predicate)
            yield f"0. initial state ({self.name}, {game.players} player(s))"
            if invariant is not None and kind == "state":
                yield from invariant_lines(
                    invariant[0], initial_value(game, kind, predicate), initial_observed(game, kind, predicate)
                )
            yield show(self.state)
        for i, action in enumerate(self.actions):
            before = self.state
            try:
                self.state = game.apply(self.state, action)
            except IllegalAction as exc:
                raise IllegalAction(exc.rule_id, f"action {i} {action!r}: {exc.why}") from None
            if step:
                rules = ", ".join(steps[i]["rules"]) or "no rule effect"
                yield f"\n{i + 1}. {action!r}  [{rules}]"
                yield f"   {describe(game, before, action, self.state)}"
                if invariant is not None and kind in ("state", "transition"):
                    yield from invariant_lines(invariant[0], steps[i]["invariant"], steps[i].get("observed"))
                yield show(self.state)


def write_page(
    html_path: Path,
    trace: dict[str, Any],
    source: str,
    *,
    game_name: str,
    players: int | None,
    variant: Path | None,
    options: dict[str, Any],
    say: Say,
) -> None:
    """The page that steps through the trace (docs/html.md); ``say`` is told what was written."""

    text, one = html.trace_html(
        trace, source, game_name=game_name, players=players, variant=str(variant) if variant else None, options=options
    )
    html_path.write_text(text, encoding="utf-8")
    say(f"wrote {html_path}: {len(one.entries)} state(s) of {game_name}")
    last = html.refused(one)
    if last is not None:
        say(f"the last action was refused ({last.refused}: {last.invariant}); the page shows it")


def run(
    say: Say,
    *,
    actions_file: Path,
    game_name: str | None,
    players: int | None,
    variant: Path | None,
    options: dict[str, Any],
    step: bool,
    specs_dir: Path | None,
    html_path: Path | None,
    state_out: Path | None,
) -> Iterator[str]:
    """``bgrules replay``: the page written (``--html``), the trace replayed (``--step``: its lines, yielded as
    they come), the final state written (``--state-out``); then, when neither --step nor --html, the final
    state as JSON (yielded). ``say`` is told what was written."""

    name, trace = read_trace(actions_file, game_name)
    if name is None:
        raise InputError("--game", f"{actions_file} is a list of actions: name its game (--game)")
    chosen_options = {**(trace.get("options") or {}), **options}
    chosen_variant: Any = str(variant) if variant else trace.get("variant")
    if html_path is not None:
        write_page(html_path, trace, str(actions_file), game_name=name, players=players, variant=variant,
                   options=options, say=say)  # fmt: skip
        if not step and state_out is None:
            return
    game = load_game(name, players=players or trace.get("players"), variant=chosen_variant, **chosen_options)
    replayed = Replay(name, game, parse_actions(game, trace["actions"], str(actions_file)))
    if step:
        yield from replayed.lines(trace_invariant(trace, specs_dir, say))
    else:
        replayed.run()
    if state_out is not None:
        data = state_file(name, game, replayed.state, chosen_options, chosen_variant)
        state_out.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if not step and html_path is None:
        yield dumps(replayed.state)
