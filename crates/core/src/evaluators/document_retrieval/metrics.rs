//! The reference's metric arithmetic (`_do_eval`), in its floating-point order, with fidelity
//! weights in numeric label order. Raises our own message where the reference crashes
//! (unhashable ids, `ZeroDivisionError`, `OverflowError`, `KeyError`).

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::json::Value;

use super::validate::{Qrel, Retrieved};
use crate::options::json_type_name;
use crate::sorting;
use crate::text::pynum::PyNum;

/// Number of top-ranked documents for NDCG, XDCG and top-3 relevance.
const K: usize = 3;
/// `math.log2(rank + 1)` for ranks 1..=3, as CPython on glibc returns them.
const LOG2_RANK: [f64; K] = [1.0, 1.584_962_500_721_156, 2.0];
/// `0.6^(rank - 1)` for ranks 1..=3, as `math.pow` gives them.
const XDCG_DISCOUNT: [f64; K] = [1.0, 0.6, 0.6 * 0.6];
/// `2^1023` is the largest power of two a double holds; the reference's weights overflow beyond.
const MAX_WEIGHT_LABEL: i128 = 1022;

/// The nine reported metrics, with Python's int/float kinds.
#[derive(Debug, Clone, Copy)]
pub(super) struct Metrics {
    pub(super) ndcg: PyNum,
    xdcg: PyNum,
    fidelity: PyNum,
    top1: PyNum,
    top3: PyNum,
    holes: PyNum,
    holes_ratio: PyNum,
    total_retrieved: PyNum,
    total_ground_truth: PyNum,
}

impl Metrics {
    /// The metrics under their output names, in output order.
    pub(super) fn named(&self) -> [(&'static str, PyNum); 9] {
        [
            ("ndcg@3", self.ndcg),
            ("xdcg@3", self.xdcg),
            ("fidelity", self.fidelity),
            ("top1_relevance", self.top1),
            ("top3_max_relevance", self.top3),
            ("holes", self.holes),
            ("holes_ratio", self.holes_ratio),
            ("total_retrieved_documents", self.total_retrieved),
            ("total_ground_truth_documents", self.total_ground_truth),
        ]
    }
}

/// A document id as a Python dict key: `1`, `1.0` and `true` are the same key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum DocKey<'a> {
    Int(i128),
    Float(u64),
    Str(&'a str),
}

fn doc_key<'a>(id: &'a Value, input: &str, index: usize) -> Result<DocKey<'a>, String> {
    Ok(match id {
        Value::Bool(flag) => DocKey::Int(i128::from(*flag)),
        Value::Number(number) => match PyNum::from_number(number) {
            PyNum::Int(int) => DocKey::Int(int),
            PyNum::Float(float) if float.fract() == 0.0 && float.abs() < 1e38 => {
                DocKey::Int(float as i128)
            }
            PyNum::Float(float) => DocKey::Float(float.to_bits()),
        },
        Value::String(text) => DocKey::Str(text),
        other => {
            return Err(format!(
                "'document_id' of item {index} of '{input}' must be a string or a number, got {}.",
                json_type_name(other)
            ))
        }
    })
}

/// `{id: value}` built like a Python dict comprehension: first position, last value.
fn lookup<'a, T: Copy>(
    items: impl Iterator<Item = (&'a Value, T)>,
    input: &str,
) -> Result<Vec<(DocKey<'a>, T)>, String> {
    let mut entries: Vec<(DocKey<'a>, T)> = Vec::new();
    let mut positions: HashMap<DocKey<'a>, usize> = HashMap::new();
    for (index, (id, value)) in items.enumerate() {
        let key = doc_key(id, input, index)?;
        match positions
            .get(&key)
            .and_then(|position| entries.get_mut(*position))
        {
            Some(entry) => entry.1 = value,
            None => {
                positions.insert(key, entries.len());
                entries.push((key, value));
            }
        }
    }
    Ok(entries)
}

fn pow2(exponent: i128) -> f64 {
    2f64.powi(i32::try_from(exponent.clamp(-2000, 2000)).unwrap_or(0))
}

/// Σ (2^label − 1) / log2(rank + 1) over the first three labels.
fn dcg(labels: &[i128]) -> f64 {
    labels
        .iter()
        .zip(LOG2_RANK)
        .fold(0.0, |sum, (label, log)| sum + (pow2(*label) - 1.0) / log)
}

/// Fidelity's weighted count: Σ count(label) · (2^(label+1) − 1) over labels ≥ min + 1, in
/// ascending label order.
fn weighted_count(labels: &[i128], label_min: i128) -> f64 {
    let mut counted: Vec<i128> = labels
        .iter()
        .copied()
        .filter(|label| *label > label_min)
        .collect();
    sorting::sort_stable_by(&mut counted, Ord::cmp);
    let mut sum = 0.0;
    let mut index = 0;
    while let Some(label) = counted.get(index).copied() {
        let count = counted
            .iter()
            .skip(index)
            .take_while(|other| **other == label)
            .count();
        sum += count as f64 * (pow2(label + 1) - 1.0);
        index += count;
    }
    sum
}

/// Computes the metrics of validated inputs.
///
/// # Errors
/// Our message where the reference crashes.
pub(super) fn compute(
    qrels: &[Qrel<'_>],
    retrieved: &[Retrieved<'_>],
    label_min: i128,
    label_max: i128,
) -> Result<Metrics, String> {
    let total_retrieved = PyNum::Int(retrieved.len() as i128);
    let total_ground_truth = PyNum::Int(qrels.len() as i128);
    if retrieved.is_empty() {
        return Ok(Metrics {
            ndcg: PyNum::Float(0.0),
            xdcg: PyNum::Float(0.0),
            fidelity: PyNum::Float(0.0),
            top1: PyNum::Float(0.0),
            top3: PyNum::Float(0.0),
            holes: PyNum::Int(0),
            holes_ratio: PyNum::Int(0),
            total_retrieved,
            total_ground_truth,
        });
    }
    let mut labelled = lookup(
        qrels.iter().map(|qrel| (qrel.id, qrel.label)),
        "retrieval_ground_truth",
    )?;
    let mut ranked = lookup(
        retrieved.iter().map(|doc| (doc.id, doc.score)),
        "retrieved_documents",
    )?;
    let descending = |a: &PyNum, b: &PyNum| b.py_cmp(*a).unwrap_or(Ordering::Equal);
    sorting::sort_stable_by(&mut ranked, |a, b| descending(&a.1, &b.1));
    let label_of = |key: &DocKey<'_>| {
        labelled
            .iter()
            .find(|(id, _)| id == key)
            .map(|(_, label)| *label)
    };
    let result_labels: Vec<i128> = ranked
        .iter()
        .map(|(id, _)| label_of(id).unwrap_or(0))
        .collect();
    let holes = ranked
        .iter()
        .filter(|(id, _)| label_of(id).is_none())
        .count();
    let has_unlabelled = holes > 0;
    let holes_ratio = PyNum::Float(holes as f64 / retrieved.len() as f64);
    let holes = PyNum::Int(holes as i128);
    sorting::sort_stable_by_key(&mut labelled, |entry| std::cmp::Reverse(entry.1));
    let ideal_labels: Vec<i128> = labelled.iter().map(|(_, label)| *label).collect();

    if result_labels.iter().all(|label| *label == 0) {
        return Ok(Metrics {
            ndcg: PyNum::Int(0),
            xdcg: PyNum::Int(0),
            fidelity: PyNum::Int(0),
            top1: PyNum::Int(0),
            top3: PyNum::Int(0),
            holes,
            holes_ratio,
            total_retrieved,
            total_ground_truth,
        });
    }
    if label_max > MAX_WEIGHT_LABEL {
        return Err(format!(
            "ground_truth_label_max must be at most {MAX_WEIGHT_LABEL} to compute fidelity weights (2^(label+1) overflows a double)."
        ));
    }
    let top = |labels: &[i128]| labels.iter().take(K).copied().collect::<Vec<i128>>();
    let ideal_dcg = dcg(&top(&ideal_labels));
    if ideal_dcg == 0.0 {
        return Err(
            "NDCG@3 is undefined: the ideal DCG of the ground-truth labels is 0.".to_owned(),
        );
    }
    let ndcg = dcg(&top(&result_labels)) / ideal_dcg;
    let xdcg_numerator = result_labels
        .iter()
        .zip(XDCG_DISCOUNT)
        .fold(0.0, |sum, (label, discount)| {
            sum + (25 * label) as f64 * discount
        });
    let xdcg = xdcg_numerator
        / XDCG_DISCOUNT
            .iter()
            .fold(0.0, |sum, discount| sum + discount);
    if label_max < 0 && has_unlabelled {
        return Err("Fidelity is undefined: unlabelled retrieved documents count as label 0, which is above ground_truth_label_max.".to_owned());
    }
    let ideal_weight = weighted_count(&ideal_labels, label_min);
    let fidelity = if ideal_weight == 0.0 {
        f64::NAN
    } else {
        weighted_count(&result_labels, label_min) / ideal_weight
    };
    Ok(Metrics {
        ndcg: PyNum::Float(ndcg),
        xdcg: PyNum::Float(xdcg),
        fidelity: PyNum::Float(fidelity),
        top1: PyNum::Int(result_labels.first().copied().unwrap_or(0)),
        top3: PyNum::Int(top(&result_labels).into_iter().max().unwrap_or(0)),
        holes,
        holes_ratio,
        total_retrieved,
        total_ground_truth,
    })
}
