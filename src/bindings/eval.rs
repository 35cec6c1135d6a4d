//! Scoring in JavaScript: the paper's metrics, its CoT-SC vote and its sample, as `crate::eval`
//! computes them (the page's compare view scores each mode with these). The training record is
//! a method of the `Agent` (`agent.trainingRecord`): rendering each step's prompt needs the
//! agent's tools.

use super::{js_error, to_js};
use crate::error::Error;
use crate::eval::{self, Dataset};
use crate::to_json::Object;
use js_sys::JSON;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// The score of `prediction` against `gold` as the paper computes it: HotpotQA's exact match
/// and F1, or FEVER's label accuracy (both fields); no prediction scores 0.
#[wasm_bindgen(js_name = scoreAnswer, unchecked_return_type = "Score")]
pub fn score_answer(
    #[wasm_bindgen(unchecked_param_type = "\"hotpotqa\" | \"fever\"")] dataset: String,
    prediction: Option<String>,
    gold: String,
) -> Result<JsValue, JsValue> {
    let dataset = Dataset::from_name(&dataset).ok_or_else(|| {
        js_error(&Error::config(format!(
            "unknown dataset \"{dataset}\"; use \"hotpotqa\" or \"fever\""
        )))
    })?;
    let s = eval::score(dataset, prediction.as_deref(), &gold);
    to_js(&Object(&[("em", &s.em), ("f1", &s.f1)])).map_err(JsValue::from)
}

/// The majority answer of several samples (the paper's CoT-SC), compared after normalisation;
/// null when none answered.
#[wasm_bindgen(unchecked_return_type = "Vote | null")]
pub fn vote(
    #[wasm_bindgen(unchecked_param_type = "(string | null | undefined)[]")] answers: JsValue,
) -> Result<JsValue, JsValue> {
    // Read through JSON, as the other values from JS are (less glue than a `Vec<String>`); a
    // sample that is not a string is one without an answer.
    let text = JSON::stringify(&answers).ok().and_then(|s| s.as_string());
    let list: Value = text
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let list = list.as_array().map(Vec::as_slice).unwrap_or_default();
    let answers: Vec<&str> = list.iter().map(|a| a.as_str().unwrap_or("")).collect();
    let Some(v) = eval::vote(&answers) else {
        return Ok(JsValue::NULL);
    };
    let (count, of) = (v.count as u32, v.of as u32);
    to_js(&Object(&[
        ("answer", &v.answer),
        ("count", &count),
        ("of", &of),
    ]))
    .map_err(JsValue::from)
}

/// The first `n` indices of the paper's shuffle of `total` items (`random.Random(233)`): for
/// HotpotQA's 7,405 dev questions and FEVER's 9,999 claims, its samples of 500.
#[wasm_bindgen(js_name = paperSample, unchecked_return_type = "number[]")]
pub fn paper_sample(total: u32, n: u32) -> Result<JsValue, JsValue> {
    let sample = eval::paper_sample(total as usize, 233, n as usize);
    let sample: Vec<u32> = sample.into_iter().map(|i| i as u32).collect();
    to_js(&sample).map_err(JsValue::from)
}
