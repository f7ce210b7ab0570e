"""Pages generated from the edition itself, so they can never disagree with what is scored:
data and formats, evaluation (every metric's definition), baselines with their scores, timeline.

Their words are the templates ``templates/data.md``, ``evaluation.md``, ``baselines.md``,
``timeline.md`` and the parts in the folders of those names (``bundle.prose``); a kind's own text
is ``templates/kinds/KIND_PART.md``, a baseline's ``templates/baseline/NAME.md`` and a metric's
``templates/metrics/NAME.md``.

The starting kit's README is one too, one per edition: its first command, its own file names and
item ids (taken from the sample submission the build wrote), and the names of the pages that
document them. Its template is ``templates/kit_readme.md``, its parts in ``templates/kit_readme/``.
Every command the README shows is one the kit runs: where no phase can be scored in the kit (no
training split for a local phase, practice gold hidden), the commands check formats with the
ingestion program (``LocalScore``: what the kit scores, also said on the Baselines and Evaluation
pages)."""

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .. import kinds
from ..kinds.base import DISTRIBUTION
from ..baselines.interface import IMAGE_PACKAGES
from ..baselines.most_frequent import writes_pool_rows
from ..errors import plural
from ..formats.archive import document_tracks
from ..formats.results_tsv import layout_files
from ..importers import gold_choices, labels_given
from ..metrics import get as get_metric
from ..spec import BASELINE, NORMALISED
from ..tracks import PRIMARY_KEY
from .baselines_run import sample_baseline
from .compose import score_rows
from .edition import BUILT_PAGES, DATE_FORMAT, Edition, Phase, split_text
from .prose import Templates, kind_text, listed
from .schema import md_cell

LOCAL_PHASE = "local"

#: The sample result submission of the platform's first phase (its items' ids): the platform's own.
PRACTICE_SAMPLE = "sample_submissions/result_submission.zip"
#: The sample result submission of the kit's local phase, when the kit has one.
LOCAL_SAMPLE = "sample_submissions/local_result_submission.zip"


@dataclass(frozen=True)
class LocalScore:
    """What a participant can score with the starting kit alone: ``practice_public`` (whether the
    practice gold is public), ``local_items`` (dataset -> items of the local split, none when the
    kit has no local phase), ``local_scored`` (track title -> the local items it scores, for
    the tracks that score fewer than their dataset's: only those items have the gold the track
    needs), ``shared`` (groups of datasets whose local items are the same items, from one
    training source: their tracks' local scores say nothing of each track's own data), ``phase``
    (the id of the platform's phase the kit holds, ``build.kit_platform_phases``: the texts call it
    the practice phase, ``$phase`` names it), ``breakdowns`` (the item fields, lang and genre, by
    which public-gold detailed results break scores down, ``build.breakdowns``). Read by the kit's
    README and by the Baselines and Evaluation pages."""

    practice_public: bool
    local_items: dict[str, int]
    local_scored: dict[str, int] = field(default_factory=dict)
    shared: list[tuple[str, ...]] = field(default_factory=list)
    phase: str = "practice"
    breakdowns: tuple[str, ...] = ()

    @property
    def first_phase(self) -> str:
        """The phase the kit's first commands score: ``local`` when the kit has local items, its
        platform phase (``phase``) when that phase's gold is public, '' when none can be scored."""
        return LOCAL_PHASE if self.local_items else (self.phase if self.practice_public else "")

    @property
    def scored(self) -> str:
        """Which texts say what the kit scores: ``local``, ``practice`` (its platform phase) or
        ``nothing``."""
        if self.local_items:
            return LOCAL_PHASE
        return "practice" if self.practice_public else "nothing"

    @property
    def practice_gold(self) -> str:
        """``public`` or ``hidden``: the practice phase's gold, which names the texts saying so."""
        return "public" if self.practice_public else "hidden"


def _page(prose: Templates, pages: list[dict], name: str) -> str:
    """The bundle's page ``pages/NAME.md`` (the builder always writes data, evaluation, terms)."""
    page = next(page for page in pages if page["file"] == f"pages/{name}.md")
    return prose.fill("kit_readme/page", **page)


#: The baselines the first commands run, in this order, when the edition runs them.
FIRST_BASELINES = ("cosine_bow", "most_frequent", "random")


def _intro(prose: Templates, score: LocalScore) -> str:
    itself = prose.fill("kit_readme/itself")
    if not score.first_phase:
        return prose.fill("kit_readme/intro_nothing", phase=score.phase, itself=itself)
    chosen = "kit_readme/practice_public" if score.practice_public else "kit_readme/practice_data"
    practice = prose.fill(chosen, phase=score.phase)
    held = prose.fill("kit_readme/with_local", practice=practice) if score.local_items else practice
    return prose.fill("kit_readme/intro", held=held, itself=itself)


def _first_commands(prose: Templates, score: LocalScore, baselines: list[str]) -> str:
    if not score.first_phase:
        return nothing_scored(prose, "kit_readme/first_commands_nothing", score) + "\n"
    names = [name for name in FIRST_BASELINES if name in baselines] or ["random"]
    lines = [run_command(score, f"baseline:{name}") for name in names]
    scored = what_is_scored(prose, score, prose.fill("kit_readme/they_score"))
    steps = prose.fill("kit_readme/two_steps")
    filled = prose.fill(
        "kit_readme/first_commands", commands="\n".join(lines), scored=scored, two_steps=steps
    )
    return filled + "\n"


def what_is_scored(prose: Templates, score: LocalScore, subject: str) -> str:
    """One paragraph on the phase the kit scores (``kit_readme/scored_local`` or ``_practice``,
    the kit's first phase: local or its platform phase), opening with ``subject`` ("They score"):
    the local items per dataset, the tracks that score fewer (``kit_readme/sizes_fewer``) and the
    datasets whose local items are the same."""
    sizes = ", ".join(f"{d} {n}" for d, n in sorted(score.local_items.items()))
    fewer = [
        prose.fill("kit_readme/track_scores", track=title, count=n)
        for title, n in score.local_scored.items()
    ]
    sizes_template = "kit_readme/sizes_fewer" if fewer else "kit_readme/sizes"
    groups = "; ".join(listed(list(group)) for group in score.shared)
    return prose.fill(
        f"kit_readme/scored_{score.scored}",
        subject=subject,
        phase=score.phase,
        sizes=prose.fill(sizes_template, sizes=sizes, fewer=listed(fewer)),
        shared=" " + prose.fill("kit_readme/shared", groups=groups) if score.shared else "",
        practice=prose.fill(f"kit_readme/local_practice_{score.practice_gold}", phase=score.phase),
    )


def _samples(prose: Templates, score: LocalScore, baseline: str) -> str:
    """What each sample result submission is for (``baseline``'s predictions), with a command that
    takes it: ``kit_readme/samples_SCORED`` (``LocalScore.scored``: local, practice, or nothing)."""
    # the fields of the practice sample, in the text, its practice sentence and its note alike
    sample = {"sample": PRACTICE_SAMPLE, "baseline": baseline, "phase": score.phase}
    return prose.fill(
        f"kit_readme/samples_{score.scored}",
        local_sample=LOCAL_SAMPLE,
        format_check=format_check(score),
        practice=prose.fill("kit_readme/sample_practice", **sample),
        practice_note=prose.fill(f"kit_readme/practice_note_{score.practice_gold}", **sample),
        **sample,
    )


def run_command(score: LocalScore, submission: str, output: str = "checked") -> str:
    """The command scoring ``submission`` on the kit's first phase or, where the kit can score
    none, the ingestion program checking its format on its platform phase's data (writing to
    ``output``)."""
    if not score.first_phase:
        return format_check(score, submission, output)
    return f"python3 run_local.py . {submission} --phase {score.first_phase}"


def format_check(score: LocalScore, submission: str = PRACTICE_SAMPLE, output="checked") -> str:
    """The command that checks ``submission``'s format (by default the sample result submission's)
    on the kit's platform phase's data with the ingestion program, writing to ``output``: what a
    kit that can score no phase offers."""
    return f"python3 ingestion_program/ingest.py input_data/{score.phase} {output} {submission}"


def nothing_scored(prose: Templates, template: str, score: LocalScore) -> str:
    """Template ``template``: the kit scores no phase (``kit_readme/nothing_scored``), and the
    command that checks a submission's format instead (``format_check``)."""
    why = prose.fill("kit_readme/nothing_scored", phase=score.phase)
    return prose.fill(
        template, nothing_scored=why, format_check=format_check(score), phase=score.phase
    )


def render(
    edition: Edition,
    score: LocalScore,
    examples: dict[str, str],
    pages: list[dict],
    sample_baseline: str,
) -> str:
    """The README for one edition from template ``kit_readme``: ``score``, what its kit can score;
    ``examples``, file name -> its first line, one file per kind of track, from the sample the
    README checks (the local phase's when the kit has one); ``pages``, the bundle's pages (title and file);
    ``sample_baseline``, the baseline whose predictions the samples are."""
    prose = Templates.of(edition.folder)
    text = prose.fill(
        "kit_readme",
        phase=score.phase,
        programs=prose.fill("kit_readme/programs"),
        intro=_intro(prose, score),
        run_heading=prose.fill(
            "kit_readme/run_heading" if score.first_phase else "kit_readme/check_heading"
        ),
        first_commands=_first_commands(prose, score, edition.baselines),
        code_command=run_command(score, "sample_submissions/code_submission", "predictions"),
        image_packages=listed(list(IMAGE_PACKAGES.values())),
        check_command=run_command(score, "my_submission.zip"),
        check_note=_check_note(prose, score),
        evaluation=evaluation_section(prose, edition, sample_baseline),
        **{f"{name}_page": _page(prose, pages, name) for name in ("data", "evaluation", "terms")},
        examples="\n\n".join(f"`{name}`:\n\n```\n{line}\n```" for name, line in examples.items()),
        # the sample result submission the README's check command takes
        checked_sample=LOCAL_SAMPLE if score.local_items else PRACTICE_SAMPLE,
        samples=_samples(prose, score, sample_baseline),
        other_names=_other_names(prose, edition),
        json_records=prose.fill("data/json_records"),
        checks=_kind_checks(prose, edition),
        formats=kind_formats(prose, edition)
        + _paragraphs(_alignment_paragraphs(prose, edition) + label_policy(prose, edition)),
    )
    return text + "\n"


def evaluation_section(
    prose: Templates, edition: Edition, baseline: str, legacy: bool = False
) -> str:
    """How to run a submission on the evaluation phase: scored where its gold is public and ships
    in the kit (``kit_readme/evaluation_public``), else checked (``_hidden``) with ``baseline``;
    ``legacy``: the ``legacy/`` variant, for a CodaLab v1.5 bundle's kit."""
    public = any(phase.public_gold for phase in edition.phases if phase.id == "evaluation")
    gold = "public" if public else "hidden"
    template = f"legacy/evaluation_{gold}" if legacy else f"kit_readme/evaluation_{gold}"
    return prose.fill(template, evaluation_baseline=baseline)


def _kind_checks(prose: Templates, edition: Edition) -> str:
    """The checks of the values of the edition's kinds (``kinds/KIND_checks``, one per line), each
    once, each after ``; ``."""
    checks = "\n".join(_own_kind_texts(prose, edition, "checks")).splitlines()
    return "".join("; " + check for check in dict.fromkeys(checks))


def _check_note(prose: Templates, score: LocalScore) -> str:
    """What the check command does, for a kit that can score no phase (else nothing)."""
    if score.first_phase:
        return ""
    return prose.fill("kit_readme/check_note", phase=score.phase) + "\n\n"


def _other_names(prose: Templates, edition: Edition) -> str:
    """The tracks' other accepted file names, each with the track files it is read as, and the
    layout of those in LeWiDi 2023's (``results_tsv``), which have no ids; then the paragraph on a
    JSON prediction document where tracks take one (``_json_document``)."""
    paragraphs = _other_names_sentence(prose, edition)
    layout = [f"`{name}`" for name in layout_files(edition.tracks)]  # no ids: said here too
    if paragraphs and layout:
        paragraphs[0] += " " + prose.fill("kit_readme/results_layout", files=listed(layout))
    return _paragraphs(paragraphs + _json_document(prose, edition))


def _other_names_sentence(
    prose: Templates, edition: Edition, told: Sequence[str] = ()
) -> list[str]:
    """The sentence on the tracks' other accepted file names (``kit_readme/other_names``), each
    with the track files it is read as, but those in ``told`` (described by another paragraph);
    none when no other name is left."""
    other = [name for t in edition.tracks for name in t.file_names[1:] if name not in told]
    names = dict.fromkeys(other)
    files = [
        [f"`{t.file_names[0]}`" for t in edition.tracks if n in t.file_names[1:]] for n in names
    ]
    listed_names = ", ".join(f"`{n}` (read as {' and '.join(f)})" for n, f in zip(names, files))
    return [prose.fill("kit_readme/other_names", names=listed_names)] if names else []


def _json_document(prose: Templates, edition: Edition) -> list[str]:
    """The paragraph on ChaosNLI's prediction document, with the file names its tracks take it by
    (``_document_names``); none where no track takes one."""
    if not (patterns := _document_names(edition)):
        return []
    return [prose.fill("data/json_document", files=" or ".join(f"`{p}`" for p in patterns))]


def _document_names(edition: Edition) -> list[str]:
    """The names of ChaosNLI's prediction document the tracks take (``formats.archive.
    document_tracks``) where a part of such tracks has a soft-label track (the document's
    probabilities); else none: a label track's JSON name is another task's file (CLUE's
    ``ocnli_50k_predict.json``, JSON lines of labels), which the other names' sentence lists."""
    parts = document_tracks(edition.tracks).values()
    # a soft-label kind's values are probability distributions
    soft_parts = [p for p in parts if any(kinds.of(t).value_type is DISTRIBUTION for t in p)]
    tracks = [t for part in soft_parts for t in part]
    return list(dict.fromkeys(p for t in tracks for p in t.files if p.lower().endswith(".json")))


def score_titles(tracks, primary: str) -> list[tuple[str, str]]:
    """(score key, title) of every score (``compose.score_rows``): the primary score titled
    ``primary``, each track's metric "track title metric title"."""
    return [
        (key, f"{t.title} {get_metric(metric).title}" if t else primary)
        for key, t, metric in score_rows(tracks)
    ]


def _kinds(edition: Edition) -> list[kinds.Kind]:
    """The kinds of the edition's tracks, in registry order."""
    present = [kinds.of(t) for t in edition.tracks]
    return [kind for kind in kinds.REGISTRY.values() if kind in present]


def _own_kind_texts(prose: Templates, edition: Edition, part: str) -> list[str]:
    """The texts ``kinds/KIND_PART`` of the edition's kinds that have one, in registry order."""
    present = [kind for kind in _kinds(edition) if prose.has(f"kinds/{kind.name}_{part}")]
    return [kind_text(prose, kind, part) for kind in present]


def _edge_kinds(prose: Templates, edition: Edition) -> list[kinds.Kind]:
    """The edition's kinds that have edge cases to tell (``kinds/KIND_edge_cases``), less a kind
    whose gold is a label (an item without a majority is not scored) where every dataset of its
    tracks has each item's label given by its release (``importers.labels_given``)."""
    return [
        kind
        for kind in _kinds(edition)
        if prose.has(f"kinds/{kind.name}_edge_cases")
        and not ("label" in kind.gold_fields and _labels_given(edition, kind))
    ]


def _labels_given(edition: Edition, kind: kinds.Kind) -> bool:
    """Whether every dataset of the tracks of ``kind`` gives each item its gold label."""
    datasets = {t.dataset for t in edition.tracks if kinds.of(t) is kind}
    return all(labels_given(edition.datasets.get(name, {})) for name in datasets)


def _with_aliases(prose: Templates, t, label: str) -> str:
    """A label of track ``t`` with the aliases the track declares for it (``entailment (or e)``)."""
    aliases = ", ".join(alias for alias, named in t.label_aliases if named == label)
    return prose.fill("data/aliases", label=label, aliases=aliases) if aliases else label


def _track_row(prose: Templates, t, annotators: int) -> str:
    """A track's row of the Data page; its values are, for a kind with a ``range``, the scale of its
    gold and that of its predictions (any, ``data/scale_any``, when all its metrics are
    ``scale_free``), else its labels, each with its aliases (``_with_aliases``); its example, for a
    kind predicted per annotator, for an item of its dataset's ``annotators`` (when known)."""
    kind = kinds.of(t)
    per_item = annotators and kind.predicts_per_annotator
    example = kind.example_value(t, annotators) if per_item else t.example
    if kinds.of(t).has_range:
        free = all(get_metric(m).scale_free for m in t.metrics)
        low, high = (f"{bound:g}" for bound in t.score_range)
        values = prose.fill("data/scale_any" if free else "data/scale", low=low, high=high)
    else:
        values = ", ".join(_with_aliases(prose, t, label) for label in t.labels)
    return prose.fill(
        "data/track",
        title=md_cell(t.title),
        file=t.file_names[0],
        kind=kinds.of(t).name + (f" ({t.scale})" if t.scale else ""),
        values=md_cell(values),
        example=md_cell(example.replace("\t", " ")),
    )


def kind_formats(prose: Templates, edition: Edition) -> str:
    """What a prediction is for each kind of the edition's tracks (``kinds/KIND_format``), one list
    item each: the Data page's and the starting kit README's. A kind's multi-label and ordinal
    layouts (``kinds/KIND_multilabel``, ``kinds/KIND_ordinal``: its ``$multilabel``, ``$ordinal``)
    only where it has a track of that scale."""
    return "\n".join(
        kind_text(
            prose,
            kind,
            "format",
            scale=prediction_scale(prose, edition, kind),
            multilabel=_scale_layouts(prose, edition, kind, "multilabel"),
            ordinal=_scale_layouts(prose, edition, kind, "ordinal"),
        )
        for kind in _kinds(edition)
    )


def _scale_layouts(prose: Templates, edition: Edition, kind: kinds.Kind, scale: str) -> str:
    """The kind's layouts of a ``scale`` (``kinds/KIND_multilabel``, ``kinds/KIND_ordinal``), after
    a space, where a track of the kind has that scale and the text exists; else nothing."""
    has_scale = any(kinds.of(t) is kind and t.scale == scale for t in edition.tracks)
    if not (has_scale and prose.has(f"kinds/{kind.name}_{scale}")):
        return ""
    return " " + kind_text(prose, kind, scale)


def label_policy(prose: Templates, edition: Edition) -> list[str]:
    """The label policy (``data/labels``) where a kind of the edition's tracks has labels, with the
    sentence on aliases (``data/label_aliases``) where a track declares some, its first three as
    the example, and the sentence on LeWiDi 2023's layout (``data/labels_layout``: a tab there
    separates fields) where tracks read it."""
    if not any(kind.has_labels for kind in _kinds(edition)):
        return []
    pairs = list(dict.fromkeys(pair for t in edition.tracks for pair in t.label_aliases))[:3]
    aliases = listed([alias for alias, _ in pairs])
    labels = listed([label for _, label in pairs])
    said = " " + prose.fill("data/label_aliases", aliases=aliases, labels=labels) if pairs else ""
    files = listed([f"`{name}`" for name in layout_files(edition.tracks)])
    layout = " " + prose.fill("data/labels_layout", files=files) if files else ""
    return [prose.fill("data/labels", aliases=said, layout=layout)]


def _paragraphs(texts: list[str]) -> str:
    """``texts`` as paragraphs, each after a blank line."""
    return "".join("\n\n" + text for text in texts)


def _alignment_paragraphs(prose: Templates, edition: Edition) -> list[str]:
    """Per annotator-alignment rule the tracks apply (``annotator_alignment``, else their kind's
    default), its paragraph (``kinds/KIND_alignment_RULE``) and the tracks that apply it."""
    declared: dict[str, list[str]] = {}  # paragraph -> track ids
    for t in edition.tracks:
        if rules := kinds.of(t).alignments:
            text = kind_text(prose, kinds.of(t), f"alignment_{t.annotator_alignment or rules[0]}")
            declared.setdefault(text, []).append(f"`{t.id}`")
    return [
        prose.fill("data/alignment", alignment=text, tracks=", ".join(ids))
        for text, ids in declared.items()
    ]


def _gold_sources(prose: Templates, edition: Edition) -> list[str]:
    """Per dataset whose importer options choose its gold (``importers.gold_choices``), one line:
    the parts' templates, filled."""
    chosen = []
    for name, source in edition.datasets.items():
        parts = [prose.fill(f"importers/{part}", **fields) for part, fields in gold_choices(source)]
        if parts:
            chosen.append(prose.fill("data/gold_source", dataset=name, text="; ".join(parts) + "."))
    return [prose.fill("data/gold", sources="\n".join(chosen))] if chosen else []


class DataFacts(NamedTuple):
    """What the data read tells the Data page: ``untrained``, the datasets without a training split
    (their ``.train.jsonl`` files are empty); ``annotators``, per dataset its items' commonest
    number of annotators (a per-annotator track's example line gives as many labels)."""

    untrained: Sequence[str] = ()
    annotators: Mapping[str, int] = {}


def data_page(edition: Edition, facts: DataFacts = DataFacts()) -> str:
    """The Data and formats page, with what the data read tells (``DataFacts``)."""
    prose = Templates.of(edition.folder)
    names = [f"`{name}`" for name in facts.untrained]
    have = plural(len(names), "has", "have")
    train = prose.fill("data/untrained", datasets=listed(names), have=have) if names else ""
    present = _kinds(edition)
    notes = _alignment_paragraphs(prose, edition)
    # the LeWiDi 2023 layout: its files and the tracks each one gives
    if files := layout_files(edition.tracks):
        given = [f"`{name}`: " + ", ".join(f"`{i}`" for i in ids) for name, ids in files.items()]
        notes.append(prose.fill("data/results_layout", files="; ".join(given)))
    told = [*files, *_document_names(edition)]  # the paragraphs below describe those
    notes += (
        _other_names_sentence(prose, edition, told)
        + _json_document(prose, edition)
        + label_policy(prose, edition)
        + _gold_sources(prose, edition)
    )
    disagreement = any(kind.lists_annotators for kind in present)
    page = prose.fill(
        "data",
        json_records=prose.fill("data/json_records"),
        untrained=train,
        annotators=", " + prose.fill("data/annotators") if disagreement else "",
        tracks="\n".join(
            _track_row(prose, t, facts.annotators.get(t.dataset, 0)) for t in edition.tracks
        ),
        formats_heading=prose.fill(
            "data/formats_heading" if len(present) > 1 else "data/format_heading"
        ),
        formats=kind_formats(prose, edition) + _paragraphs(notes),
    )
    return page + "\n"


def prediction_scale(prose: Templates, edition: Edition, kind: kinds.Kind) -> str:
    """The scale the predictions of ``kind`` are on, for a kind with a gold range ('' for another):
    any (``kinds/KIND_any_scale``) when no metric of its tracks depends on it (``Metric.scale_free``),
    else the tracks' gold scale and the metrics that depend on it (``kinds/KIND_gold_scale``)."""
    if not kind.has_range:
        return ""
    tracks = [t for t in edition.tracks if kinds.of(t) is kind]
    bound = [get_metric(m) for t in tracks for m in t.metrics if not get_metric(m).scale_free]
    if not bound:
        return kind_text(prose, kind, "any_scale")
    scales = ", ".join(f"{t.title} {t.score_range[0]:g}-{t.score_range[1]:g}" for t in tracks)
    if len({t.score_range for t in tracks}) == 1:
        scales = "{:g}-{:g}".format(*tracks[0].score_range)
    titles = list(dict.fromkeys(metric.title for metric in bound))
    depend = plural(len(titles), "depends", "depend")
    return kind_text(
        prose, kind, "gold_scale", scales=scales, metrics=listed(titles), depend=depend
    )


def _range_sentence(prose: Templates, edition: Edition, kind: kinds.Kind) -> str:
    """One sentence on the gold scale of the tracks of ``kind``, a kind with a gold ``range``: one
    range for all its tracks (``kinds/KIND_range``), or each track's (``kinds/KIND_ranges``)."""
    tracks = [t for t in edition.tracks if kinds.of(t) is kind]
    low, high = tracks[0].score_range
    per_track = ", ".join(f"{t.title} {t.score_range[0]:g}-{t.score_range[1]:g}" for t in tracks)
    part = "range" if len({t.score_range for t in tracks}) == 1 else "ranges"
    return kind_text(prose, kind, part, low=f"{low:g}", high=f"{high:g}", per_track=per_track)


def _phases(prose: Templates, names: list[str]) -> str:
    """``the practice phase``, ``the evaluation and post-campaign phases``."""
    return prose.fill(
        "evaluation/phases" if len(names) > 1 else "evaluation/phase", phases=listed(names)
    )


def details_sentence(prose: Templates, edition: Edition, score: LocalScore) -> str:
    """What the detailed results show, by phase: the phases whose gold is public (the edition's,
    and the starting kit's local phase when it has one) also show intervals, plots and breakdowns,
    which the phases with hidden gold leave out."""
    public = [p.id for p in edition.phases if p.public_gold]
    hidden = [p.id for p in edition.phases if not p.public_gold]
    shown = [_phases(prose, public)] if public else []
    if score.local_items:
        shown.append(prose.fill("evaluation/details_local"))
    extras = _details_extras(prose, edition, score)
    if not shown:
        return prose.fill("evaluation/details_all_hidden", hidden=listed(hidden), extras=extras)
    hidden_part = ""
    if hidden:
        hides = prose.fill("evaluation/hides_many" if len(hidden) > 1 else "evaluation/hides_one")
        hidden_part = prose.fill(
            "evaluation/details_hidden", phases=_phases(prose, hidden), hides=hides
        )
    return prose.fill("evaluation/details", shown=listed(shown), extras=extras, hidden=hidden_part)


def _details_extras(prose: Templates, edition: Edition, score: LocalScore) -> str:
    """What only public-gold detailed results show: intervals and plots, and the breakdowns
    (``report.track_visuals``): per annotator where a kind plots the error per annotator, per item
    field of ``score.breakdowns``."""
    per_annotator = any(kinds.of(t).report_figure == "annotator_errors" for t in edition.tracks)
    fields = ["annotators"] * per_annotator + list(score.breakdowns)
    if not fields:
        return prose.fill("evaluation/details_plots")
    by = listed([prose.fill(f"evaluation/by_{name}") for name in fields])
    return prose.fill("evaluation/details_extras", breakdowns=by)


def _primary_tracks(prose: Templates, edition: Edition, template: str) -> list[str]:
    """Template ``template`` filled for each primary track: its title, its main metric's title and
    the bounds of that metric's range on it (``_metric_fields``)."""
    return [
        prose.fill(template, track=t.title, **_metric_fields(t.main_metric, t))
        for t in edition.tracks
        if t.primary
    ]


def _metric_fields(name: str, *tracks) -> dict[str, str]:
    """A metric's title and the bounds of its range (for the most labels ``tracks`` have)."""
    metric = get_metric(name)
    lower, upper = metric.shown_bounds(max((len(t.labels) for t in tracks), default=0))
    return {"metric": metric.title, "lower": f"{lower:g}", "upper": f"{upper:g}"}


def _metric_ranges(prose: Templates, edition: Edition, name: str) -> str:
    """The range of metric ``name`` on the tracks that use it: one (``evaluation/one_range``), or,
    where it depends on the track's labels (AWD's K - 1), each range with its tracks
    (``evaluation/track_range``)."""
    metric, by_bounds = get_metric(name), {}
    for t in edition.tracks:
        if name in t.metrics:
            by_bounds.setdefault(metric.shown_bounds(len(t.labels)), []).append(t.title)
    template = "evaluation/one_range" if len(by_bounds) == 1 else "evaluation/track_range"
    return "; ".join(
        prose.fill(template, tracks=", ".join(titles), lower=f"{lower:g}", upper=f"{upper:g}")
        for (lower, upper), titles in by_bounds.items()
    )


def _metric_row(prose: Templates, edition: Edition, name: str) -> str:
    """The Evaluation page's row of metric ``name``; its text is its template ``metrics/NAME``,
    else its registration's ``description``."""
    metric = get_metric(name)
    own = f"metrics/{name}"
    description = prose.fill(own) if prose.has(own) else metric.description
    return prose.fill(
        "evaluation/metric",
        **_metric_fields(name, *(t for t in edition.tracks if name in t.metrics)),
        range=md_cell(_metric_ranges(prose, edition, name)),
        title=md_cell(metric.title),
        name=name,
        direction=metric.direction,
        description=md_cell(description),
    )


def evaluation_page(edition: Edition, score: LocalScore) -> str:
    """``score``: what the starting kit can score (``LocalScore``), whose local phase shows what a
    public-gold phase shows."""
    prose = Templates.of(edition.folder)
    edges = [kind_text(prose, kind, "edge_cases") for kind in _edge_kinds(prose, edition)]
    used = map(get_metric, dict.fromkeys(metric for t in edition.tracks for metric in t.metrics))
    if rounded := [metric.title for metric in used if metric.official_rounding]:
        edges.append(prose.fill("evaluation/lewidi_rounding", metrics=listed(rounded)))
    notes = [prose.fill("evaluation/edge_cases", edge_cases=" ".join(edges))] if edges else []
    notes += _alignment_paragraphs(prose, edition)
    notes += [_range_sentence(prose, edition, kind) for kind in _kinds(edition) if kind.has_range]
    normalised = ""
    if edition.primary_rule.mean == NORMALISED:  # its formula and each primary track's range
        ranges = _primary_tracks(prose, edition, "evaluation/normalised_range")
        normalised = _paragraphs([prose.fill("evaluation/normalised", ranges="; ".join(ranges))])
    # one row per metric the tracks use, in the order of first use
    metrics_used = dict.fromkeys(m for t in edition.tracks for m in t.metrics)
    # what the missing-track rule promises about incomplete runs
    by_baseline = edition.primary_rule.missing == BASELINE
    page = prose.fill(
        "evaluation",
        primary_key=PRIMARY_KEY,
        primary_tracks=", ".join(_primary_tracks(prose, edition, "evaluation/primary_track")),
        missing_rule=edition.primary_rule.missing_words(),
        missing_consequence=" " + prose.fill("evaluation/missing_baseline") if by_baseline else "",
        normalised=normalised,
        metrics="\n".join(_metric_row(prose, edition, name) for name in metrics_used),
        notes=_paragraphs(notes),
        details=details_sentence(prose, edition, score),
    )
    return page + "\n"


def timeline_page(edition: Edition, page: str = "timeline", row: str = "timeline/phase") -> str:
    """The Timeline page: template ``page`` with template ``row`` filled for each phase. The
    CodaLab v1.5 timeline (``legacy/timeline``) says when each phase ends on each platform: a v1.5
    phase has a start date only and stays open ``until`` the next one starts, and Codabench's
    conversion of such a bundle ``ends`` it one day before."""
    prose = Templates.of(edition.folder)
    pairs = zip(edition.phases, [*edition.phases[1:], None])  # each phase and the next one
    rows = [
        _timeline_row(prose, row, phase, following, split_text(edition, phase))
        for phase, following in pairs
    ]
    return prose.fill(page, phases="\n".join(rows)) + "\n"


def _timeline_row(prose: Templates, row: str, phase: Phase, following, split: str) -> str:
    """Template ``row`` filled for ``phase``; ``following``: the next phase (None after the last);
    ``split``: its split as participants read it (``split_text``)."""
    end = phase.date_text("end") or prose.fill("timeline/open")
    per_day, total = phase.max_submissions_per_day, phase.max_submissions
    return prose.fill(
        row,
        phase=md_cell(phase.name),
        start=phase.date_text("start"),
        end=end,
        until=following.date_text("start") if following else end,
        # Codabench's conversion of a CodaLab v1.5 bundle ends a phase a day before the next starts
        ends=(following.start - dt.timedelta(days=1)).strftime(DATE_FORMAT) if following else end,
        split=split,
        limits=prose.fill("timeline/limits", per_day=per_day, total=total),
    )


def _score_table(
    prose: Templates, edition: Edition, by_baseline: dict[str, dict[str, float]]
) -> list[str]:
    """One row per score some baseline has, primary first: track title and metric title."""
    names = list(by_baseline)
    no_score = prose.fill("baselines/no_score")
    head = prose.fill("baselines/table_head", baselines=" | ".join(names))
    lines = [head, "|---|" + "---:|" * len(names)]
    for key, title in score_titles(edition.tracks, prose.fill("baselines/primary_score")):
        if not any(key in by_baseline[n] for n in names):
            continue
        cells = [f"{by_baseline[n][key]:.4f}" if key in by_baseline[n] else no_score for n in names]
        lines.append(f"| {md_cell(title)} | " + " | ".join(cells) + " |")
    return lines


def _scoring_yourself(prose: Templates, edition: Edition, score: LocalScore) -> list[str]:
    """The Baselines page's section on scoring with the starting kit alone (``LocalScore``)."""
    lines = [prose.fill("baselines/scoring_yourself"), ""]
    if not score.first_phase:
        return lines + [nothing_scored(prose, "baselines/nothing_scored", score), ""]
    baseline = sample_baseline(edition.baselines)
    command = run_command(score, f"baseline:{baseline}")
    return lines + [
        prose.fill("baselines/run_them", command=command, baseline=baseline),
        what_is_scored(prose, score, prose.fill("baselines/it_scores")),
        "",
    ]


def baselines_page(
    edition: Edition,
    scores: dict[str, dict[str, dict[str, float]]],
    score: LocalScore,
    skipped: dict[str, str],
    alike: dict[str, str],
) -> str:
    """What each baseline does, then the ones not run and the ones alike, with the reason, the
    section on scoring yourself and one score table per phase. ``scores[phase][baseline][key]``:
    the baselines' scores computed at build time; ``score``: what the starting kit can score
    (``LocalScore``); ``skipped``: baselines not run, with the reason (they need a training split
    the edition lacks); ``alike``: baselines run that cannot differ from another on some tracks,
    with the reason."""
    prose = Templates.of(edition.folder)
    # the schema has checked each is a built-in baseline, whose text is templates/baseline/NAME.md
    lines = [prose.fill(f"baseline/{n}") for n in [*edition.baselines, *skipped]]
    lines += [prose.fill("baselines/not_run", name=n, reason=why) for n, why in skipped.items()]
    lines += [prose.fill("baselines/alike", name=n, reason=why) for n, why in alike.items()]
    pooled = [f"`{t.id}`" for t in edition.tracks if writes_pool_rows(t)]
    if pooled and "most_frequent" in edition.baselines:
        lines.append(prose.fill("baselines/pool_rows", tracks=", ".join(pooled)))
    lines += [""] + _scoring_yourself(prose, edition, score)
    for phase_id, by_baseline in scores.items():
        if by_baseline:
            lines += [f"## {phase_id}", ""] + _score_table(prose, edition, by_baseline) + [""]
    return prose.fill("baselines", body="\n".join(lines)) + "\n"


def generated_pages(
    edition: Edition,
    baseline_scores,
    score: LocalScore,
    skipped: dict,
    alike: dict,
    facts: DataFacts = DataFacts(),
) -> list[tuple[str, str, str]]:
    """(title, file name, text) of every generated page, in the order they appear; ``score``:
    what the starting kit can score (``LocalScore``); ``facts``: what the data read tells the Data
    page (``DataFacts``)."""
    baselines = baselines_page(edition, baseline_scores, score, skipped, alike)
    texts = {
        "data.md": data_page(edition, facts),
        "evaluation.md": evaluation_page(edition, score),
        "baselines.md": baselines,
        "timeline.md": timeline_page(edition),
    }
    return [(BUILT_PAGES[name], name, text) for name, text in texts.items()]
