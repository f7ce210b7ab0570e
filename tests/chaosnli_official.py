"""ChaosNLI's official evaluation, ported for the tests as the oracle the kit is checked against.

Source: https://github.com/easonnie/ChaosNLI, ``src/evaluation/tools.py`` (``model_label_dist``,
``normalize_dist``, ``simply_nli_label_mapping`` and the per-model loop of
``calculate_divergence_bwt_model_human_simplify``), as run by ``src/scripts/evaluate.py
--task_name uncertainty_nli``. The functions are copied with their bodies unchanged except for the
printing (dropped) and the "all correct subset" pass (not reported by the kit). Nothing here imports
codajudge: the release is read as the script reads it (``uid``, ``label_dist``, ``majority_label``,
``old_label`` of each JSON line), and predictions are the script's
``{model_name: {uid: {"predicted_probabilities" | "logits", "predicted_label"}}}``.
"""

import json
from pathlib import Path

import numpy as np
from scipy.spatial import distance
from scipy.stats import entropy

RELEASE = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "chaosnli"
PARTS = {"snli": "chaosNLI_snli.jsonl", "mnli": "chaosNLI_mnli_m.jsonl"}


def model_label_dist(logits_list):
    logits = np.asarray(logits_list)  # noqa: F841  (as in the source)
    prob = np.exp(logits_list) / np.sum(np.exp(logits_list))
    # numerical stability for KL
    for i, value in enumerate(prob):
        if np.abs(value) < 1e-15:
            prob[i] = 1e-15
    # normalize
    prob = prob / np.sum(prob)
    assert np.isclose(np.sum(prob), 1)
    return prob


def normalize_dist(prob):
    prob = np.asarray(prob)
    for i, value in enumerate(prob):
        if np.abs(value) < 1e-15:
            prob[i] = 1e-15
    # normalize
    prob = prob / np.sum(prob)
    assert np.isclose(np.sum(prob), 1)
    return prob


simply_nli_label_mapping = {
    "e": "e",
    "c": "c",
    "n": "n",
    "entailment": "e",
    "contradiction": "c",
    "neutral": "n",
    "-": "-",
}


def load_release(part: str) -> dict:
    """uid -> record, as ``model_perf`` reads the data file (``dist_uid_dict``)."""
    lines = (RELEASE / PARTS[part]).read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return {r["uid"]: r for r in records}


def evaluate(dist_uid_dict: dict, model_prediction_dict: dict) -> dict:
    """model -> {"average JS div", "average KL div", "m_acc", "total_count"} (the script's keys)."""
    results_dict = dict()
    for model_name, pred_dict in model_prediction_dict.items():
        js_divergence_list = []
        kl_divergence_list = []
        m_acc = 0
        total_count = 0
        for uid, h_dist_item in dist_uid_dict.items():
            if "predicted_probabilities" in pred_dict[uid]:
                m_pred_dist = normalize_dist(pred_dict[uid]["predicted_probabilities"])
            else:
                m_pred_dist = model_label_dist(pred_dict[uid]["logits"])
            human_label_dist = np.asarray(h_dist_item["label_dist"])
            assert np.isclose(np.sum(human_label_dist), 1)
            assert np.isclose(np.sum(m_pred_dist), 1)
            new_label = h_dist_item["majority_label"]
            model_p_label = simply_nli_label_mapping[pred_dict[uid]["predicted_label"]]
            if model_p_label == new_label:
                m_acc += 1
            cur_js_divergence = distance.jensenshannon(human_label_dist, m_pred_dist)
            if np.isnan(cur_js_divergence):
                cur_js_divergence = 0  # set error to 0.
            js_divergence_list.append(cur_js_divergence)
            cur_kl_divergence = entropy(human_label_dist, m_pred_dist)
            kl_divergence_list.append(cur_kl_divergence)
            total_count += 1
        results_dict[model_name] = {
            "average JS div": np.mean(js_divergence_list),
            "average KL div": np.mean(kl_divergence_list),
            "total_count": total_count,
            "m_acc": m_acc / total_count,
        }
    return results_dict


def per_item(human, model):
    """(JSD, KL) of one item by the script's rules, the model's row given as probabilities."""
    m_pred_dist = normalize_dist(np.array(model, dtype=float))
    human_label_dist = np.asarray(human)
    js = distance.jensenshannon(human_label_dist, m_pred_dist)
    return (0 if np.isnan(js) else js), entropy(human_label_dist, m_pred_dist)
