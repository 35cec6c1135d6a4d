//! Scoring in JavaScript: the paper's metrics, its CoT-SC vote and its sample, as `crate::eval`
//! computes them (the page's benchmark and compare view score with these). The training record
//! is a method of the `Agent` (`agent.trainingRecord`): rendering each step's prompt needs the
//! agent's tools.
//!
//! The core's three functions return promises: the shipped core leaves their code (3 KB gzip)
//! to the built-in tools' module, which it loads at the first call (a page that runs an agent
//! and scores nothing never downloads it); a core built with the built-in tools (the browser
//! tests') computes them itself. Either way the value is the same.

#[cfg(not(feature = "tools-module"))]
use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;

/// The score of `prediction` against `gold` as the paper computes it: HotpotQA's exact match
/// and F1, or FEVER's label accuracy (both fields); no prediction scores 0.
#[cfg(not(feature = "tools-module"))]
#[wasm_bindgen(js_name = scoreAnswer, unchecked_return_type = "Promise<Score>")]
pub fn score_answer_later(
    #[wasm_bindgen(unchecked_param_type = "\"hotpotqa\" | \"fever\"")] dataset: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] prediction: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] gold: JsValue,
) -> Promise {
    later("scoreAnswer", [dataset, prediction, gold].iter().collect())
}

/// The majority answer of several samples (the paper's CoT-SC), compared after normalisation;
/// null when none answered.
#[cfg(not(feature = "tools-module"))]
#[wasm_bindgen(js_name = vote, unchecked_return_type = "Promise<Vote | null>")]
pub fn vote_later(
    #[wasm_bindgen(unchecked_param_type = "(string | null | undefined)[]")] answers: JsValue,
) -> Promise {
    later("vote", Array::of1(&answers))
}

/// The first `n` indices of the paper's shuffle of `total` items (`random.Random(233)`): for
/// HotpotQA's 7,405 dev questions and FEVER's 9,999 claims, its samples of 500.
#[cfg(not(feature = "tools-module"))]
#[wasm_bindgen(js_name = paperSample, unchecked_return_type = "Promise<number[]>")]
pub fn paper_sample_later(
    #[wasm_bindgen(unchecked_param_type = "number")] total: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
) -> Promise {
    later("paperSample", Array::of2(&total, &n))
}

/// The function `name` of this module applied to `args`, as a promise: computed here.
#[cfg(all(feature = "builtin-tools", not(feature = "tools-module")))]
fn later(name: &str, args: Array) -> Promise {
    let number = |k: u32| args.get(k).as_f64().map_or(0, |x| x as u32);
    let result = match name {
        "scoreAnswer" => score_answer(
            args.get(0).as_string().unwrap_or_default(),
            args.get(1).as_string(),
            args.get(2).as_string().unwrap_or_default(),
        ),
        "vote" => vote(args.get(0)),
        _ => paper_sample(number(0), number(1)),
    };
    match result {
        Ok(value) => Promise::resolve(&value),
        Err(error) => Promise::reject(&error),
    }
}

/// The function `name` of the built-in tools' module applied to `args`, once it is loaded.
#[cfg(not(feature = "builtin-tools"))]
fn later(name: &'static str, args: Array) -> Promise {
    super::promise(async move {
        let function =
            super::modules::export("tao_tools", "the built-in tools' module", name).await?;
        function.apply(&JsValue::NULL, &args)
    })
}

/// `scoreAnswer` itself: the tools' module exports it, a core with the built-in tools calls it.
#[cfg(feature = "builtin-tools")]
#[cfg_attr(feature = "tools-module", wasm_bindgen(js_name = scoreAnswer))]
pub fn score_answer(
    dataset: String,
    prediction: Option<String>,
    gold: String,
) -> Result<JsValue, JsValue> {
    use crate::eval::{self, Dataset};
    let dataset = Dataset::from_name(&dataset).ok_or_else(|| {
        crate::error::Error::config(format!(
            "unknown dataset \"{dataset}\"; use \"hotpotqa\" or \"fever\""
        ))
    })?;
    let s = eval::score(dataset, prediction.as_deref(), &gold);
    super::to_js(&crate::to_json::Object(&[("em", &s.em), ("f1", &s.f1)]))
}

/// `vote` itself (see `score_answer`).
#[cfg(feature = "builtin-tools")]
#[cfg_attr(feature = "tools-module", wasm_bindgen(js_name = vote))]
pub fn vote(answers: JsValue) -> Result<JsValue, JsValue> {
    // Read through JSON, as the other values from JS are (less glue than a `Vec<String>`); a
    // sample that is not a string is one without an answer.
    let list = super::json_of(&answers);
    let list = list.as_array().map(Vec::as_slice).unwrap_or_default();
    let answers: Vec<&str> = list.iter().map(|a| a.as_str().unwrap_or("")).collect();
    let Some(v) = crate::eval::vote(&answers) else {
        return Ok(JsValue::NULL);
    };
    let (count, of) = (v.count as u32, v.of as u32);
    super::to_js(&crate::to_json::Object(&[
        ("answer", &v.answer),
        ("count", &count),
        ("of", &of),
    ]))
}

/// `paperSample` itself (see `score_answer`).
#[cfg(feature = "builtin-tools")]
#[cfg_attr(feature = "tools-module", wasm_bindgen(js_name = paperSample))]
pub fn paper_sample(total: u32, n: u32) -> Result<JsValue, JsValue> {
    let sample = crate::eval::paper_sample(total as usize, 233, n as usize);
    let sample: Vec<u32> = sample.into_iter().map(|i| i as u32).collect();
    super::to_js(&sample)
}
