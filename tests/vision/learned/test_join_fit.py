"""The script that fits the card reader's join (vision.training.join) on known rows."""

from __future__ import annotations

import numpy as np

from vision.training import join


def _row(case: str, truth: str, net: str, p_net: float, decode: str | None,
         p_decode: float = 0.7) -> dict[str, object]:
    return {"case": case, "truth": truth, "net": net, "p_net": p_net, "decode": decode,
            "p_decode": p_decode}


def _rows() -> list[dict[str, object]]:
    rng = np.random.default_rng(0)
    rows = []
    for _ in range(1500):  # agreement: right, the more so the surer the network
        p = float(rng.uniform(0.5, 1.0))
        rows.append(_row("agree", "1w1", "1w1" if rng.random() < p else "1w2", p, None))
        rows[-1]["decode"] = rows[-1]["net"]
    for _ in range(40):  # numerals: the decode was right every time
        rows.append(_row("same colour", "1w1", "1w2", float(rng.uniform(0.5, 1)), "1w1"))
    return rows


def test_the_fit_learns_who_is_right_and_how_sure() -> None:
    fit = join.fit(_rows(), old_sure=1.01)
    assert fit.decode_wins == frozenset({"same colour"})
    assert fit.probability("agree", 0.999, 0.7) > fit.probability("agree", 0.6, 0.7)
    assert fit.probability("same colour", 0.9, 0.7) > 0.8
    # a case no table showed stays a coin toss (the ridge), never sure
    assert abs(fit.probability("other colour", 0.999, 0.7) - 0.5) < 0.01
    assert fit.sure > 0.5


def test_the_sure_threshold_keeps_mistakes_under_the_goal() -> None:
    rows = _rows()
    fit = join.fit(rows, old_sure=0.0)
    sure = [join.named(r, fit.decode_wins) == r["truth"] for r in rows
            if join.probability(fit, r) >= fit.sure]
    assert sure and sure.count(False) <= len(sure) // 1000


def test_few_rows_never_lower_the_old_threshold() -> None:
    rows = [_row("agree", "1w1", "1w1", 0.99, "1w1") for _ in range(50)]
    assert join.fit(rows, old_sure=0.97).sure >= 0.97


def test_the_written_file_reads_back(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import tomllib
    fit = join.fit(_rows(), old_sure=1.01)
    path = tmp_path / "card_join.toml"
    join.write(fit, ["a comment"], path)
    back = tomllib.loads(path.read_text())
    assert back["decode_wins"] == ["same colour"] and back["sure"] == fit.sure
    assert set(back["intercept"]) == set(join.CASES)


def test_a_network_right_where_the_twin_was_wrong_is_not_overruled_surely() -> None:
    """The twin confuses a pair (the decode always right); the shipped network, on faces
    it knows, is surely right there: the decode's card never comes out sure."""
    rng = np.random.default_rng(1)
    rows = _rows()
    for r in rows:
        r["population"] = "twin"
    for _ in range(60):  # the twin: sure of the wrong card of the pair
        rows.append(_row("same pattern", "2g5", "2g6", float(rng.uniform(0.5, 0.99)), "2g5")
                    | {"population": "twin"})
    for _ in range(1500):
        p = float(rng.uniform(0.5, 1.0))
        rows.append(_row("agree", "1w1", "1w1" if rng.random() < p else "1w2", p, None)
                    | {"population": "seen"})
        rows[-1]["decode"] = rows[-1]["net"]
    for _ in range(30):  # the shipped network: right and sure where the decode is not
        rows.append(_row("same pattern", "2g5", "2g5", float(rng.uniform(0.999, 1.0)), "2g6")
                    | {"population": "seen"})
    fit = join.fit(rows, old_sure=0.0)
    assert fit.probability("same pattern", 0.9999, 0.7) < fit.sure
    twin_only = join.fit([r for r in rows if r["population"] == "twin"], old_sure=0.0)
    assert twin_only.probability("same pattern", 0.9999, 0.7) >= twin_only.sure
