"""Hypothesis strategies for legal Mechanica factories and bot placements, for users' own tests.

    from hypothesis import given
    from bgrules.mechanica.strategies import factories

    @given(factories())
    def test_my_property(factory): ...

Every factory drawn passes :func:`bgrules.mechanica.factory.factory_problems` for the variant given.
"""

from __future__ import annotations

import attrs
from hypothesis import strategies as st

from bgrules.mechanica.components import Bot, Zone
from bgrules.mechanica.factory import (
    CELLS,
    COLS,
    ROWS,
    Factory,
    Placed,
    StartSlot,
    Truck,
    empty_factory,
    legal_placements,
    new_placed,
)
from bgrules.mechanica.variant import MechanicaVariant, default_variant

bots = st.sampled_from(tuple(Bot))
maybe_bots = st.one_of(st.none(), bots)


@st.composite
def layouts(
    draw: st.DrawFn,
    variant: MechanicaVariant | None = None,
    max_tiles: int = CELLS,
    kinds: tuple[str, ...] | None = None,
) -> Factory:
    """An empty-holed factory: floor tiles laid one at a time where the placement rules allow,
    fabricator tiles in the Start Zone and larger trucks in the dock."""
    variant = variant or default_variant()
    cat = variant.catalogue
    floor_kinds = kinds or tuple(sorted(k.key for k in cat.of_zone(Zone.FLOOR)))
    factory = empty_factory()
    for _ in range(draw(st.integers(0, max_tiles))):
        key = draw(st.sampled_from(floor_kinds))
        spots = legal_placements(factory, variant, key)
        if not spots:
            continue
        r, c, rot = draw(st.sampled_from(spots))
        factory = factory.with_cell(r, c, new_placed(cat.tiles[key], rot))
    fabs = tuple(sorted(k.key for k in cat.of_zone(Zone.START) if not k.printed))
    for r in range(ROWS):
        lay: bool = draw(st.booleans())
        if fabs and lay:
            kind = cat.tiles[draw(st.sampled_from(fabs))]
            factory = factory.with_start(r, StartSlot(kind.key, (None,) * len(kind.outputs)))
    trucks = tuple(sorted(k.key for k in cat.of_zone(Zone.DOCK)))
    for r in range(ROWS):
        factory = factory.with_truck(r, Truck(draw(st.sampled_from(trucks))))
    return factory


@st.composite
def with_bots(
    draw: st.DrawFn, factory: Factory, variant: MechanicaVariant | None = None, full: bool = False
) -> Factory:
    """Fill the factory's holes: any output / fabricator hole may hold a bot (all of them if ``full``),
    input holes fewer bots than they hold (as after a run), trucks up to capacity."""
    variant = variant or default_variant()
    cat = variant.catalogue
    floor: list[Placed | None] = []
    for p in factory.floor:
        if p is None:
            floor.append(None)
            continue
        kind = cat.tile(p.kind)
        outputs = tuple(draw(bots if full else maybe_bots) for _ in p.outputs)
        n_in = draw(st.integers(0, max(0, kind.inputs - 1))) if kind.inputs else 0
        inputs = tuple(sorted(draw(bots) for _ in range(n_in)))
        floor.append(attrs.evolve(p, inputs=inputs, outputs=outputs))
    start = tuple(
        attrs.evolve(s, holes=tuple(draw(bots if full else maybe_bots) for _ in s.holes)) for s in factory.start
    )
    dock = tuple(
        Truck(t.kind, tuple(draw(bots) for _ in range(draw(st.integers(0, cat.tile(t.kind).capacity)))))
        for t in factory.dock
    )
    return Factory(tuple(floor), start, dock)


@st.composite
def factories(
    draw: st.DrawFn, variant: MechanicaVariant | None = None, max_tiles: int = CELLS, full: bool = False
) -> Factory:
    """A legal factory with bots in its holes."""
    layout = draw(layouts(variant, max_tiles))
    return draw(with_bots(layout, variant, full))


def cells() -> st.SearchStrategy[tuple[int, int]]:
    return st.tuples(st.integers(0, ROWS - 1), st.integers(0, COLS - 1))
