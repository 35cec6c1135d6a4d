//! The connection test over the providers compiled into this module (the core's own in a build
//! with the `providers` feature, the providers' module's otherwise).

use super::fetch::WebTransport;
use super::host::WebHost;
use super::to_js;
use crate::host::Host;
use crate::llm::connection;
use crate::llm::http::{HttpModel, Settings as Endpoint};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Sends the connection test's request to `endpoint`: the report, or the diagnosed error.
pub(crate) async fn report(endpoint: Endpoint) -> Result<JsValue, JsValue> {
    let host: Rc<dyn Host> = Rc::new(WebHost::default());
    let transport = Rc::new(WebTransport { signal: None });
    let model = HttpModel::new(endpoint, transport, host.clone());
    to_js(&connection::test_connection(&model, host.as_ref()).await?)
}
