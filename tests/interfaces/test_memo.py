"""The rules' bounded memo: what it keeps, what it forgets first, what it refuses."""

from __future__ import annotations

import threading

import pytest

from tournoyons_gui.interfaces.memo import Memo


def test_a_memo_gives_back_what_it_keeps_and_none_for_the_rest() -> None:
    memo: Memo[tuple[str, int], str] = Memo(4)
    assert memo.keep(("a", 1), "one") == "one"
    assert memo.get(("a", 1)) == "one"
    assert memo.get(("a", 2)) is None
    assert len(memo) == 1


def test_a_full_memo_forgets_the_oldest_first() -> None:
    memo: Memo[int, str] = Memo(3)
    for key in range(5):
        memo.keep(key, str(key))
    assert len(memo) == 3
    assert [memo.get(key) for key in range(5)] == [None, None, "2", "3", "4"]
    memo.keep(3, "three")  # kept again: a new value, no room taken
    assert len(memo) == 3 and memo.get(3) == "three"
    memo.clear()
    assert len(memo) == 0 and memo.get(4) is None


def test_a_key_that_cannot_be_hashed_is_refused() -> None:
    memo: Memo[tuple[object, ...], str] = Memo(2)
    with pytest.raises(TypeError):
        memo.get(([1, 2],))


def test_a_memo_keeps_at_least_one_value() -> None:
    with pytest.raises(ValueError):
        Memo(0)


def test_threads_sharing_a_memo_never_break_it_nor_overfill_it() -> None:
    memo: Memo[tuple[int, int], int] = Memo(16)
    failures: list[BaseException] = []

    def work(thread: int) -> None:
        try:
            for number in range(1000):
                memo.keep((thread, number), number)
                found = memo.get((thread, number))
                assert found in (None, number)  # forgotten early by a race at most
        except BaseException as error:  # reported by the test below
            failures.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    assert len(memo) <= 16
