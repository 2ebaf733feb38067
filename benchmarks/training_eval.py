"""The held-out evaluation of the line model: fold by fold training and scoring
(:func:`cross_validate`), the table of the rules against the rules + model, the page-type
confusion, the nested threshold search, and what a model learned (permutation importance);
the article model's training into the fold files.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from folds import FOLDS  # noqa: E402
from training_data import PageLines, score_page  # noqa: E402
from training_models import (  # noqa: E402
    ARTICLE_PARAMS,
    SEEN_COLUMN,
    Params,
    attach_article_model,
    decides,
    export,
    key,
    out_of_fold_types,
    predict_types,
    train,
    train_on_every_fold,
    train_page_types,
    with_types,
)

from scrapy_webclean.extraction.linefeatures import FEATURE_NAMES  # noqa: E402
from scrapy_webclean.extraction.linemodel import (  # noqa: E402
    DEFAULT_MODEL_PATH,
    LineModel,
    verdicts,
)
from scrapy_webclean.extraction.pagetype import PAGE_TYPES  # noqa: E402


def report(results: list[dict[str, Any]]) -> None:
    """Per set (and WCXB type), the rules alone vs rules + model, held-out folds only."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault(r["set"], []).append(r)
        if r["set"] == "wcxb-dev":
            groups.setdefault(f"wcxb:{r['type']}", []).append(r)
    print("| set | pages | rules F1 | model F1 | rules WCXB | model WCXB |")
    print("|---|---|---|---|---|---|")
    for name, rows in groups.items():

        def mean(key: str, rows: list[dict[str, Any]] = rows) -> str:
            values = [r[key] for r in rows if key in r]
            return f"{statistics.fmean(values):.4f}" if values else "-"

        # F1 as the benchmark computes it: harmonic mean of averaged P and R
        def f1(prefix: str, rows: list[dict[str, Any]] = rows) -> str:
            precisions = [r[f"{prefix}_p"] for r in rows if r[f"{prefix}_p"] is not None]
            p = statistics.fmean(precisions) if precisions else 0.0
            recalls = [r[f"{prefix}_r"] for r in rows if r[f"{prefix}_r"] is not None]
            rr = statistics.fmean(recalls) if recalls else 0.0
            return f"{2 * p * rr / (p + rr):.4f}" if p + rr else "0"

        print(
            f"| {name} | {len(rows)} | {f1('rules')} | {f1('model')} | "
            f"{mean('rules_wcxb')} | {mean('model_wcxb')} |"
        )


@dataclass(slots=True)
class HeldOutPage:
    """A held-out page the model decided on: its feature rows (type columns filled), its
    lines' probabilities and its most probable type (for the threshold search)."""

    page: PageLines
    rows: np.ndarray
    probs: np.ndarray
    most_probable: str


def cross_validate(
    pages: list[PageLines],
    params: Params,
    models_dir: Path | None,
    decided_pages: list[HeldOutPage] | None = None,
) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for fold in range(FOLDS):
        train_pages = [p for p in pages if p.fold != fold]
        test_pages = [p for p in pages if p.fold == fold]
        others = [k for k in range(FOLDS) if k != fold]
        train_types = out_of_fold_types(train_pages, others, params)
        type_model = train_page_types(train_pages, params)
        test_types = predict_types(type_model, test_pages)
        model = train([(p, with_types(p, train_types[key(p)])) for p in train_pages], params)
        spec = export(model, params, type_model)
        if models_dir is not None:
            models_dir.mkdir(parents=True, exist_ok=True)
            (models_dir / f"fold{fold}.json").write_text(
                json.dumps(spec, separators=(",", ":")), encoding="utf-8"
            )
        line_model = LineModel(spec)
        for page in test_pages:
            # (a page the rules kept nothing of has no lines here: it scores as empty)
            rules = score_page(page, [bool(v) for v in page.x[:, 0]])
            probs = test_types[key(page)]
            x = with_types(page, probs)
            decided = line_model.decide_rows(x)
            ours = rules if decided is None else score_page(page, decided)
            if decided_pages is not None and line_model.decides_on_rows(x):
                decided_pages.append(
                    HeldOutPage(
                        page, x, line_model.probabilities(x), PAGE_TYPES[int(np.argmax(probs))]
                    )
                )
            row: dict[str, Any] = {
                "set": page.set_name,
                "type": page.page_type,
                "id": page.page_id,
                "fold": fold,
                "predicted_type": PAGE_TYPES[int(np.argmax(probs))],
                "type_probs": [round(float(v), 4) for v in probs],
                "decided": decided is not None,
            }
            row.update({f"rules_{k}": v for k, v in rules.items()})
            row.update({f"model_{k}": v for k, v in ours.items()})
            results.append(row)
        print(f"  fold {fold}: {len(test_pages)} held-out pages", file=sys.stderr)
    return results


#: The (keep_above, drop_below) pairs the threshold search tries per page type.
THRESHOLD_GRID: tuple[tuple[float, float], ...] = tuple(
    (keep, drop)
    for keep in (0.5, 0.6, 0.7, 0.8)
    for drop in (0.0, 0.2, 0.3, 0.4, 0.5)
    if drop <= keep
)


def headline(page: PageLines, keep: Sequence[bool]) -> float:
    """A page's headline figure: WCXB's word F1 on WCXB, else token (or char) F1."""
    scores = score_page(page, keep)
    if "wcxb" in scores:
        return scores["wcxb"]
    p, r = scores["p"] or 0.0, scores["r"] or 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def keep_with(held: HeldOutPage, keep_above: float, drop_below: float) -> list[bool]:
    """``LineModel.decide``'s verdicts with other thresholds."""
    keep = verdicts(held.probs, held.rows, keep_above, drop_below)
    return [bool(k) for k in held.rows[:, 0]] if keep is None else keep


def search_thresholds(held: Sequence[HeldOutPage], params: Params) -> None:
    """Per most probable page type, the thresholds that do best on the other folds,
    applied to each fold in turn (nested: a fold's pages never choose their own), against
    the thresholds of ``params``; then the thresholds chosen on every fold."""
    grid = THRESHOLD_GRID
    table = np.asarray([[headline(h.page, keep_with(h, *pair)) for pair in grid] for h in held])
    defaults = dict((name, (keep, drop)) for name, keep, drop in params.type_thresholds)
    current = np.asarray(
        [
            headline(
                h.page,
                keep_with(
                    h, *defaults.get(h.most_probable, (params.keep_above, params.drop_below))
                ),
            )
            for h in held
        ]
    )
    folds = np.asarray([h.page.fold for h in held])
    types = np.asarray([h.most_probable for h in held])
    nested = current.copy()
    for fold in range(FOLDS):
        for name in PAGE_TYPES:
            choose = (folds != fold) & (types == name)
            apply = (folds == fold) & (types == name)
            if choose.any() and apply.any():
                best = int(np.argmax(table[choose].sum(axis=0)))
                nested[apply] = table[apply, best]
    sets = np.asarray([h.page.set_name for h in held])
    print("\nThresholds per most probable type, chosen on the other folds (nested):\n")
    print(
        "| set | pages decided | current thresholds | chosen per type | difference per page of the set |"
    )
    print("|---|---|---|---|---|")
    for name in sorted(set(sets)):
        mine = sets == name
        print(
            f"| {name} | {int(mine.sum())} | {current[mine].mean():.4f} | "
            f"{nested[mine].mean():.4f} | {(nested[mine] - current[mine]).sum():+.2f} pages |"
        )
    print("\nChosen on every fold:", end=" ")
    for name in PAGE_TYPES:
        mine = types == name
        if mine.any():
            keep, drop = grid[int(np.argmax(table[mine].sum(axis=0)))]
            print(f"{name}={keep}:{drop}", end=",")
    print()


def report_types(results: list[dict[str, Any]]) -> None:
    """How often the held-out page-type model names WCXB's type, per type."""
    rows = [r for r in results if r["set"] == "wcxb-dev"]
    if not rows:
        return
    print("\nPage types on held-out WCXB pages (rows: truth, columns: predicted):\n")
    print("| type | pages | right | " + " | ".join(PAGE_TYPES) + " | model decides |")
    print("|---|---|---|" + "---|" * (len(PAGE_TYPES) + 1))
    for name in PAGE_TYPES:
        mine = [r for r in rows if r["type"] == name]
        if not mine:
            continue
        counts = [sum(r["predicted_type"] == other for r in mine) for other in PAGE_TYPES]
        right = counts[PAGE_TYPES.index(name)] / len(mine)
        decided = sum(r["decided"] for r in mine)
        print(
            f"| {name} | {len(mine)} | {right:.2f} | "
            + " | ".join(str(c) for c in counts)
            + f" | {decided} |"
        )
    right = sum(r["predicted_type"] == r["type"] for r in rows) / len(rows)
    print(f"\naccuracy {right:.3f} on {len(rows)} pages")


def importance(
    model: Any, pages: Sequence[tuple[PageLines, np.ndarray]], top: int = 12
) -> list[tuple[str, float]]:
    """Permutation importance (drop of weighted accuracy) on a sample of training lines."""
    rng = np.random.default_rng(0)
    x = np.concatenate([x for _, x in pages])
    y = np.concatenate([p.y for p, _ in pages])
    w = np.concatenate([p.w for p, _ in pages])
    take = rng.choice(len(y), size=min(len(y), 60_000), replace=False)
    x, y, w = x[take], y[take], w[take]

    def accuracy(data: np.ndarray) -> float:
        return float(np.average(model.predict(data) == y, weights=w))

    base = accuracy(x)
    out = []
    for j, name in enumerate(FEATURE_NAMES):
        shuffled = x.copy()
        shuffled[:, j] = rng.permutation(shuffled[:, j])
        out.append((name, base - accuracy(shuffled)))
    return sorted(out, key=lambda item: -item[1])[:top]


class _AtHalf:
    """A shipped tree model as :func:`importance` asks for one: ``predict`` says content
    where the trees' probability is at least one half."""

    def __init__(self, trees: LineModel) -> None:
        self.trees = trees

    def predict(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(self.trees.probabilities(rows)) >= 0.5


def shipped_importance(pages: list[PageLines], params: Params, path: Path) -> None:
    """Print what the model in ``path`` learned, without training anything: the
    permutation importance of its general trees on the lines of the pages they decide,
    and of its article trees on the lines of the other pages (type columns from its own
    page-type trees; held in, as the importance printed by ``--ship``)."""
    shipped = LineModel.load(path)
    rows = []
    for page in pages:
        x = with_types(page, np.asarray(shipped.page_type_probabilities(page.page_x)))
        if len(x):
            x[:, SEEN_COLUMN] = 0.0  # (a veto, not a feature: the trees never saw it)
        rows.append((page, x))
    general = [(p, x) for p, x in rows if params.trains_on(p, x)]
    models = [("general trees", shipped, general)]
    if shipped.article_model is not None:
        article = [
            (p, x) for p, x in rows if ARTICLE_PARAMS.trains_on(p, x) and not decides(x, params)
        ]
        models.append(("article trees", shipped.article_model, article))
    for name, trees, chosen in models:
        lines = sum(len(x) for _, x in chosen)
        print(f"\n{path.name}, {name}: {len(chosen)} pages, {lines} lines; most important")
        print("features (permutation, weighted line accuracy at p >= 0.5):\n")
        for feature, drop in importance(_AtHalf(trees), chosen):
            print(f"- {feature}: {drop:+.4f}")


def add_article_models(pages: list[PageLines], models_dir: Path, ship: bool) -> None:
    """Train the article model fold by fold into ``models_dir``'s fold files (and, with
    ``ship``, on every fold into the package's model), beside the general model there."""
    with tempfile.TemporaryDirectory() as scratch:
        results = cross_validate(pages, ARTICLE_PARAMS, Path(scratch))
        for fold in range(FOLDS):
            article = json.loads((Path(scratch) / f"fold{fold}.json").read_text(encoding="utf-8"))
            attach_article_model(models_dir / f"fold{fold}.json", article)
    print(f"\nArticle model, held-out folds, {ARTICLE_PARAMS} (alone):\n")
    report(results)
    if ship:
        model, _ = train_on_every_fold(pages, ARTICLE_PARAMS)
        attach_article_model(DEFAULT_MODEL_PATH, export(model, ARTICLE_PARAMS, None))
        print(f"\nadded the article model to {DEFAULT_MODEL_PATH}")
