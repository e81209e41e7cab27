# The ProtoQA evaluator's algorithm (github.com/iesl/protoqa-evaluator, exact match), as the
# reference the ProtoQA benchmark compares against: numpy score matrices and scipy's
# linear_sum_assignment. Reads the same files; prints its scoring time and the means as JSON.
import json
import sys
import time

import numpy as np
from scipy.optimize import linear_sum_assignment

targets_path, predictions_path = sys.argv[1], sys.argv[2]
start = time.perf_counter()
questions = {}
with open(targets_path) as f:
    for line in f:
        q = json.loads(line)
        questions[q["metadata"]["id"]] = {
            frozenset(c["answers"]): c["count"] for c in q["answers"]["clusters"].values()
        }
with open(predictions_path) as f:
    predictions = json.load(f)


def preprocess(s):
    return s.lower()[:50].strip()


def limit_total_wrong(m, k):
    incorrect = 0
    for i, a in enumerate(m.max(axis=1)):
        if a == 0:
            incorrect += 1
            if incorrect >= k:
                return m[: i + 1]
    return m


def general_eval(pred, true, max_pred=None, max_incorrect=None, oracle=True):
    if max_pred is not None:
        pred = pred[:max_pred]
    pred = [preprocess(p) for p in pred]
    m = np.array([[1.0 if p in c else 0.0 for c in true] for p in pred]).reshape(len(pred), len(true))
    if max_incorrect is not None:
        m = limit_total_wrong(m, max_incorrect)
    m = m * np.array(list(true.values()))[None]
    r, c = linear_sum_assignment(m, maximize=True)
    score = m[r, c].sum()
    if oracle:
        best = sorted(true.keys(), key=lambda z: true[z], reverse=True)
        reps = [next(iter(sorted(a))) for a in best]
        score /= general_eval(reps, true, max_pred, max_incorrect, oracle=False)
    return score


metrics = {
    "Max Answers - None": {},
    "Max Answers - 1": {"max_pred": 1},
    "Max Answers - 3": {"max_pred": 3},
    "Max Answers - 5": {"max_pred": 5},
    "Max Answers - 10": {"max_pred": 10},
    "Max Incorrect - None": {},
    "Max Incorrect - 1": {"max_incorrect": 1},
    "Max Incorrect - 3": {"max_incorrect": 3},
    "Max Incorrect - 5": {"max_incorrect": 5},
}
means = {}
for name, args in metrics.items():
    scores = [general_eval(predictions[q], true, **args) for q, true in questions.items()]
    means[name] = sum(scores) / len(scores)
print(json.dumps({"seconds": time.perf_counter() - start, "means": means}))
