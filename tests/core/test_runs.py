"""core.campaign.runs: numbers kept as runs behave as the list, dict and set they stand for,
whatever is done to them (the campaign's actions in force, their places in the log, those that
only play: core.campaign.state, core.saves.lazy, core.saves.snapshot)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.campaign.runs import Ids, IdSet, Places, joined, runs

SMALL = st.integers(0, 40)  # few values: runs that meet, overlap and split
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("append"), SMALL),
        st.tuples(st.just("append_next"), st.none()),  # what a campaign does most
        st.tuples(st.just("pop"), st.none()),
        st.tuples(st.just("pop_at"), SMALL),
        st.tuples(st.just("insert"), SMALL, SMALL),
        st.tuples(st.just("set"), SMALL, SMALL),
        st.tuples(st.just("del"), SMALL),
        st.tuples(st.just("clear"), st.none()),
    ),
    max_size=60,
)


def same_list(ids: Ids, model: list[int]) -> None:
    assert ids == model and model == ids and ids != [*model, -1] and [*model, -1] != ids
    assert list(ids) == model and list(reversed(ids)) == model[::-1]
    assert len(ids) == len(model) and bool(ids) == bool(model)
    for k in range(-len(model), len(model)):
        assert ids[k] == model[k]
    for window in (slice(None), slice(2, None), slice(None, -1), slice(1, 5), slice(None, None, 2)):
        assert ids[window] == model[window]
    for value in range(-1, 43):
        assert (value in ids) == (value in model)
        assert ids.count(value) == model.count(value)
        if value in model:
            assert ids.index(value) == model.index(value)
        else:
            with pytest.raises(ValueError):
                ids.index(value)
    assert Ids.from_runs(ids.runs()) == ids == Ids(model)
    assert ids.runs() == runs((x, x) for x in model)  # as the snapshot writes them


@settings(max_examples=200, deadline=None)
@given(OPS)
def test_ids_are_the_list_they_stand_for(ops: list[tuple[Any, ...]]) -> None:
    ids, model = Ids(), []
    for op, *args in ops:
        if op == "append":
            ids.append(args[0])
            model.append(args[0])
        elif op == "append_next":
            value = model[-1] + 1 if model else 1
            ids.append(value)
            model.append(value)
        elif op in ("pop", "pop_at"):
            if not model:
                with pytest.raises(IndexError):
                    ids.pop()
                continue
            at = -1 if op == "pop" else args[0] % len(model)
            assert ids.pop(at) == model.pop(at)
        elif op == "insert":
            ids.insert(args[0], args[1])
            model.insert(args[0], args[1])
        elif op == "set" and model:
            ids[args[0] % len(model)] = args[1]
            model[args[0] % len(model)] = args[1]
        elif op == "del" and model:
            del ids[args[0] % len(model)]
            del model[args[0] % len(model)]
        elif op == "clear":
            ids.clear()
            model.clear()
        same_list(ids, model)
    copy = ids.copy()
    copy.append(99)
    assert ids == model  # a copy is its own


def test_ids_read_past_their_ends_as_a_list_does() -> None:
    ids = Ids([1, 2, 3, 7])
    for bad in (4, -5):
        with pytest.raises(IndexError):
            ids[bad]
    with pytest.raises(IndexError):
        Ids().pop()
    assert Ids() == [] and Ids([1]) != [1, 2] and Ids([1, 2]) != (1, 2)
    assert repr(ids) == "[1, 2, 3, 7]"


MAP_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("set"), SMALL, SMALL),
        st.tuples(st.just("next"), SMALL),  # the next action, at a later entry
        st.tuples(st.just("del"), SMALL),
    ),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(MAP_OPS)
def test_places_are_the_dict_they_stand_for(ops: list[tuple[str, int, int]]) -> None:
    places, model = Places(), {}
    for op, *args in ops:
        if op == "set":
            places[args[0]] = args[1]
            model[args[0]] = args[1]
        elif op == "next":
            key = max(model, default=0) + 1
            places[key] = max(model.values(), default=0) + args[0]
            model[key] = max(model.values(), default=0) + args[0]
        elif args[0] in model:
            del places[args[0]]
            del model[args[0]]
        else:
            with pytest.raises(KeyError):
                del places[args[0]]
        assert dict(places) == model and len(places) == len(model)
        assert list(places) == sorted(model)
        for key in range(-1, 80):
            assert (key in places) == (key in model)
            assert places.get(key) == model.get(key)
        expected = runs(sorted(model.items()))
        assert places.runs() == expected
        assert dict(Places.from_runs(expected)) == model
        for first in range(0, 45, 3):
            for count in (1, 2, 5):
                wanted = all(k in model for k in range(first, first + count))
                assert places.covers(first, count) == wanted


def test_places_refuse_runs_that_overlap() -> None:
    with pytest.raises(ValueError):
        Places.from_runs([[1, 10, 5], [4, 20, 1]])
    with pytest.raises(ValueError):
        IdSet.from_runs([[3, 3, 2], [1, 1, 3]])
    assert dict(Places.from_runs([[5, 0, 2], [1, 7, 2]])) == {1: 7, 2: 8, 5: 0, 6: 1}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), SMALL), max_size=60))
def test_id_sets_are_the_set_they_stand_for(ops: list[tuple[bool, int]]) -> None:
    ids, model = IdSet(), set()
    for add, value in ops:
        if add:
            ids.add(value)
            model.add(value)
        else:
            ids.discard(value)
            model.discard(value)
        assert set(ids) == model and len(ids) == len(model)
        assert all((v in ids) == (v in model) for v in range(-1, 42))
        assert ids.runs() == runs((v, v) for v in sorted(model))
        assert set(IdSet.from_runs(ids.runs())) == model


def test_joined_runs_go_on_where_the_last_stopped() -> None:
    assert joined([[1, 10, 2]], [[3, 12, 4], [8, 20, 1]], [[9, 21, 0]]) == [
        [1, 10, 6],
        [8, 20, 1],
    ]
    assert joined([[1, 10, 2]], [[3, 13, 1]]) == [[1, 10, 2], [3, 13, 1]]
