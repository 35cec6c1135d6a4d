//! The providers, loaded on demand. The core built without them (the shipped wasm) does not
//! carry the HTTP client, the SSE decoder and the two APIs' mappings: the first run that needs
//! a provider (or the first connection test) imports their module, `tao_net.js` beside the core
//! (built from this crate with the `net-module` feature), once; the model it makes is then
//! called through the JS model interface ([`super::js_model`]), which carries everything a
//! provider says: text, reasoning, notes and token counts as they stream, tool calls under the
//! provider's ids, the thinking block to send back, and errors with their kind and message.
//!
//! The settings are read and checked here, so a bad one is an error when the agent is made, as
//! before; the module gets them again (with the key: it is passed from module to module in
//! memory, and held, as before, only by the HTTP model).

use super::js_model::{thrown, JsModel};
use super::{modules, to_js};
use crate::error::Error;
use crate::host::LocalBoxFuture;
use crate::llm::provider::Settings as Endpoint;
use crate::llm::{Model, OnDelta, Reply, Request};
use crate::settings::{Local, LOCAL_PROVIDER};
use crate::to_json::Object;
use js_sys::{Function, Promise};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

/// One of the providers' module's functions.
async fn export(name: &str) -> Result<Function, Error> {
    modules::export("tao_net", "the providers' module", name).await
}

/// Where a model comes from: a provider over HTTP (the providers' module), or the model in the
/// tab (the engine's module).
#[derive(Clone)]
pub(crate) enum Source {
    Endpoint(Endpoint),
    Local(Local),
}

impl Source {
    /// The module, its name in errors, the function that makes the model, and its settings.
    fn module(&self) -> Result<(&'static str, &'static str, &'static str, JsValue), JsValue> {
        Ok(match self {
            Source::Endpoint(endpoint) => (
                "tao_net",
                "the providers' module",
                "httpModel",
                config(endpoint)?,
            ),
            Source::Local(local) => (
                "tao_wllama",
                "the in-tab model's module",
                "localModel",
                to_js(&Object(&[("model", &local.model)]))?,
            ),
        })
    }
}

/// The settings the module reads (the same names as the agent's).
fn config(endpoint: &Endpoint) -> Result<JsValue, JsValue> {
    to_js(&Object(&[
        ("provider", &endpoint.api.name()),
        ("baseUrl", &endpoint.base_url),
        ("model", &endpoint.model),
        ("apiKey", &endpoint.key),
        ("temperature", &endpoint.temperature),
        ("maxTokens", &endpoint.max_tokens),
        ("firstByteTimeoutMs", &endpoint.first_byte_ms),
        ("idleTimeoutMs", &endpoint.idle_ms),
    ]))
}

/// A provider or the model in the tab, reached through its module: made at the first call of
/// the run.
pub(crate) struct NetModel {
    source: Source,
    signal: Option<AbortSignal>,
    model: RefCell<Option<Rc<JsModel>>>,
}

impl NetModel {
    /// The model from `source`, for one run that `signal` can abort.
    pub(crate) fn new(source: Source, signal: Option<AbortSignal>) -> Self {
        NetModel {
            source,
            signal,
            model: RefCell::default(),
        }
    }

    async fn model(&self) -> Result<Rc<JsModel>, Error> {
        if let Some(model) = self.model.borrow().clone() {
            return Ok(model);
        }
        let (module, what, function, settings) = (self.source.module())
            .map_err(|e| thrown(&e, "could not pass the model's settings"))?;
        let make = modules::export(module, what, function).await?;
        let made = make.call1(&JsValue::NULL, &settings);
        let function = made
            .map_err(|e| thrown(&e, &format!("{what} failed")))?
            .dyn_into::<Function>()
            .map_err(|_| Error::model(format!("{what} made no model")))?;
        let model = Rc::new(JsModel::new(function, self.signal.clone()));
        *self.model.borrow_mut() = Some(model.clone());
        Ok(model)
    }
}

impl Model for NetModel {
    fn name(&self) -> String {
        match &self.source {
            Source::Endpoint(endpoint) => format!("{}:{}", endpoint.api.name(), endpoint.model),
            Source::Local(local) => format!("{LOCAL_PROVIDER}:{}", local.model),
        }
    }

    fn complete<'a>(
        &'a self,
        request: Request<'a>,
        on_delta: OnDelta<'a>,
    ) -> LocalBoxFuture<'a, Result<Reply, Error>> {
        Box::pin(async move {
            let model = self.model().await?;
            model.complete(request, on_delta).await
        })
    }
}

/// The connection test, run by the module: its report, or its error as it threw it.
pub(crate) async fn test_connection(endpoint: &Endpoint) -> Result<JsValue, JsValue> {
    let test = export("testConnection").await?;
    let promise = test.call1(&JsValue::NULL, &config(endpoint)?)?;
    JsFuture::from(Promise::resolve(&promise)).await
}
