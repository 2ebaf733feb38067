"""Train the line model (``scrapy_webclean.extraction.linemodel``) on the dev sets, fold by
fold, and print what it gives on the folds it was not trained on.

Usage::

    .venv/bin/python benchmarks/train_extraction.py ../shared/datasets/extract \\
        [--sets scrapinghub,wcxb-dev,dragnet-gold,zh-news-silver] \\
        [--models benchmarks/models] [--ship] [--cache /tmp/lines.pkl] [--importance [FILE]]

1. Every page is cleaned by the hand rules alone (one stateful ``Cleaner`` per set, pages in
   crawl order, so the template model's flags are what a crawl would see) while a recorder
   keeps each page's type features (``pagetype``) and each line's features
   (``linefeatures``) and text.
2. Labels come from aligning the gold text with the page's lines: a line is content when at
   least half of its word trigrams (characters for Chinese; shorter n-grams for lines of
   one or two words) occur in the gold text. A page's type label is WCXB's (the pages of
   the other sets are articles).
3. For each fold ``k`` (``benchmarks/folds.py``: sites disjoint), the page-type model
   (multiclass trees over the page features) and the line model (gradient-boosted trees,
   scikit-learn's ``HistGradientBoostingClassifier``) are trained on the other folds and
   written together to ``<models>/fold<k>.json``. The line model's training pages carry
   type probabilities from page-type models that did not see them either (trained on
   three of the four training folds). The pages of fold ``k`` are then scored with the
   lines that model keeps (through ``LineModel.decide``, the code the cleaner runs). The
   model is trained on, and decides on, the pages the rules read as listings and forums
   (``--page-types``) and the pages whose most probable type is a service, forum,
   listing, product or collection page (``--model-types``); on articles and
   documentation the article model decides (step 5); and it is trained on
   ``--train-sets`` (see ``Params.train_sets``). It never keeps a line the
   rules vetoed (``linemodel.vetoed``). The table compares the rules alone and the rules
   + model on held-out folds only (token F1; WCXB's word F1 on WCXB; character F1 on
   Chinese), then how often the held-out page-type model names WCXB's type.
   ``benchmarks/extraction.py --models <models>`` runs the same models inside the cleaner.
4. ``--ship`` trains once more on every fold and writes the package's model
   (``scrapy_webclean/extraction/data/line_model.json``), then prints its most important
   features (permutation importance on the training lines). ``--importance [FILE]``
   prints the same for a model file already written (the package's by default), its
   general and its article trees, and trains nothing.
5. ``--article-model`` trains, the same way (fold by fold, then on every fold with
   ``--ship``), the *article model* (``ARTICLE_PARAMS``): trees that decide on every
   page type, trained on every dev set, dragnet-gold too. It is added to the models
   already in ``--models`` (and, with ``--ship``, to the package's model) as their
   ``article_model``, which decides on the pages they leave to the rules: articles and
   documentation (cross-validated, held out: WCXB +0.0021, dragnet-gold +0.010 with it;
   the general models trained on dragnet-gold lost elsewhere). Run it after the general
   models are trained: training them again drops it.

Lines are weighted so that every page weighs the same and, within a page, a line by its
share of the page's words: the metrics average pages, and a long paragraph matters more
than a menu entry.

The code, one job a module: ``training_data.py`` records and labels the lines (steps 1
and 2), ``training_models.py`` fits and exports the models (the parameters, the page-type
probabilities held out, the trees as JSON arrays), ``training_eval.py`` scores them on the
held-out folds and says what they learned; this file reads the arguments and the cache.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path

# One thread for BLAS/OpenMP: the machine is shared and the trees need no more.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from folds import FOLDS  # noqa: E402
from training_data import DEFAULT_SETS, PageLines, collect  # noqa: E402
from training_eval import (  # noqa: E402
    HeldOutPage,
    add_article_models,
    cross_validate,
    importance,
    report,
    report_types,
    search_thresholds,
    shipped_importance,
)
from training_models import Params, export, train_on_every_fold, train_page_types  # noqa: E402

from scrapy_webclean.extraction.linemodel import DEFAULT_MODEL_PATH, LineModel  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the datasets' extract/ folder")
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS))
    parser.add_argument("--models", type=Path, default=ROOT / "benchmarks" / "models")
    parser.add_argument("--cache", type=Path, default=None, help="features cache (pickle)")
    parser.add_argument("--ship", action="store_true", help="write the package's model")
    parser.add_argument("--max-iter", type=int, default=Params.max_iter)
    parser.add_argument("--leaves", type=int, default=Params.max_leaf_nodes)
    parser.add_argument("--depth", type=int, default=Params.max_depth)
    parser.add_argument("--lr", type=float, default=Params.learning_rate)
    parser.add_argument("--keep-above", type=float, default=Params.keep_above)
    parser.add_argument("--drop-below", type=float, default=Params.drop_below)
    parser.add_argument("--page-types", default=",".join(Params.page_types))
    parser.add_argument("--train-sets", default=",".join(Params.train_sets))
    parser.add_argument("--min-leaf", type=int, default=Params.min_samples_leaf)
    parser.add_argument(
        "--model-types",
        default=",".join(Params.model_types),
        help="the model also decides on pages whose most probable type (page-type model) "
        "is one of these (empty: only the rules' --page-types)",
    )
    parser.add_argument(
        "--article-model",
        action="store_true",
        help="train the article model (ARTICLE_PARAMS) and add it to the models in --models "
        "(and to the package's model with --ship); the general models are not retrained",
    )
    parser.add_argument(
        "--importance",
        type=Path,
        nargs="?",
        const=DEFAULT_MODEL_PATH,
        default=None,
        help="print what a model file (default: the package's) learned, training nothing",
    )
    parser.add_argument("--no-cv", action="store_true")
    parser.add_argument(
        "--search-thresholds",
        action="store_true",
        help="search (keep_above, drop_below) per most probable page type, nested by fold",
    )
    parser.add_argument(
        "--type-thresholds",
        default=",".join(f"{n}={k}:{d}" for n, k, d in Params.type_thresholds),
        help="TYPE=KEEP_ABOVE:DROP_BELOW,... for pages of that most probable type",
    )
    parser.add_argument(
        "--results", type=Path, default=None, help="held-out figures per page (JSON lines)"
    )
    parser.add_argument(
        "--train-all", action="store_true", help="train on every page, not only those decided"
    )
    args = parser.parse_args(argv)
    params = Params(
        max_iter=args.max_iter,
        learning_rate=args.lr,
        max_leaf_nodes=args.leaves,
        max_depth=args.depth,
        min_samples_leaf=args.min_leaf,
        keep_above=args.keep_above,
        drop_below=args.drop_below,
        page_types=tuple(t for t in args.page_types.split(",") if t),
        train_sets=tuple(t for t in args.train_sets.split(",") if t),
        model_types=tuple(t for t in args.model_types.split(",") if t),
        train_all=args.train_all,
        type_thresholds=tuple(
            (name, float(pair.split(":")[0]), float(pair.split(":")[1]))
            for name, _, pair in (t.partition("=") for t in args.type_thresholds.split(",") if t)
        ),
    )
    sets = [s for s in args.sets.split(",") if s]
    if args.cache is not None and args.cache.exists():
        with args.cache.open("rb") as handle:
            pages: list[PageLines] = pickle.load(handle)  # our own cache file, made below
    else:
        pages = collect(args.data, sets)
        if args.cache is not None:
            with args.cache.open("wb") as handle:
                pickle.dump(pages, handle)
    pages = [p for p in pages if p.set_name in sets]
    lines = sum(len(p.texts) for p in pages)
    positive = sum(int(p.y.sum()) for p in pages)
    print(f"{len(pages)} pages, {lines} lines, {positive} labelled content", file=sys.stderr)
    if args.importance is not None:
        shipped_importance(pages, params, args.importance)
        return 0
    if args.article_model:
        add_article_models(pages, args.models, args.ship)
        return 0
    if not args.no_cv:
        held: list[HeldOutPage] = []
        results = cross_validate(pages, params, args.models, held)
        print(f"\nHeld-out folds ({FOLDS}, sites disjoint), {params}:\n")
        report(results)
        report_types(results)
        if args.search_thresholds:
            search_thresholds(held, params)
        if args.results is not None:
            with args.results.open("w", encoding="utf-8") as handle:
                for result in results:
                    handle.write(json.dumps(result) + "\n")
    if args.ship:
        model, with_probs = train_on_every_fold(pages, params)
        type_model = train_page_types(pages, params)
        spec = export(model, params, type_model)
        DEFAULT_MODEL_PATH.parent.mkdir(parents=True, exist_ok=True)
        DEFAULT_MODEL_PATH.write_text(json.dumps(spec, separators=(",", ":")), encoding="utf-8")
        shipped = LineModel(spec)
        check = shipped.probabilities(with_probs[0][1])
        expected = model.predict_proba(with_probs[0][1])[:, 1]
        assert np.allclose(check, expected, atol=1e-6), "exported trees disagree"
        page_x = np.stack([p.page_x for p in pages[:50]])
        check_types = np.asarray([shipped.page_type_probabilities(row) for row in page_x])
        assert np.allclose(check_types, type_model.predict_proba(page_x), atol=1e-6), (
            "exported page-type trees disagree"
        )
        print(f"\nwrote {DEFAULT_MODEL_PATH} ({DEFAULT_MODEL_PATH.stat().st_size:,} bytes)")
        print("\nMost important features (permutation, weighted line accuracy):\n")
        for name, drop in importance(
            model, [(p, x) for p, x in with_probs if params.trains_on(p, x)]
        ):
            print(f"- {name}: {drop:+.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
