//! Scoring in JavaScript: the paper's metrics, its CoT-SC vote and its sample, as `crate::eval`
//! computes them (the page's benchmark and compare view score with these). The training record
//! is a method of the `Agent` (`agent.trainingRecord`): rendering each step's prompt needs the
//! agent's tools.
//!
//! The core's three functions return promises: the shipped core leaves their code (3 KB gzip)
//! to the built-in tools' module, which it loads at the first call (a page that runs an agent
//! and scores nothing never downloads it); a core built with the built-in tools (the browser
//! tests') computes them itself. Either way the value is the same: both run [`paper`].

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
    later("scoreAnswer", Array::of3(&dataset, &prediction, &gold))
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

/// [`paper`]'s `name` on `args`, as a promise: computed here, or by the built-in tools' module
/// once it is loaded.
#[cfg(not(feature = "tools-module"))]
fn later(name: &'static str, args: Array) -> Promise {
    super::promise(async move {
        #[cfg(feature = "builtin-tools")]
        return paper(name, args.into());
        #[cfg(not(feature = "builtin-tools"))]
        return super::modules::export("tao_tools", "the built-in tools' module", "paper")
            .await?
            .call2(&JsValue::NULL, &name.into(), &args);
    })
}

/// The paper's function `name` (`scoreAnswer`, `vote` or `paperSample`) on `args`, the list of
/// its arguments, as `crate::eval::paper` reads them: the tools' module exports it, a core with
/// the built-in tools calls it.
#[cfg(feature = "builtin-tools")]
#[cfg_attr(feature = "tools-module", wasm_bindgen)]
pub fn paper(name: &str, args: JsValue) -> Result<JsValue, JsValue> {
    // Read through JSON, as the other values from JS are.
    super::to_js(&crate::eval::paper(name, &super::json_of(&args))?)
}
