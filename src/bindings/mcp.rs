//! MCP servers' tools as JS tools (`crate::mcp` speaks the protocol): the providers' module
//! exports this as `mcpTools`, and the core calls it there (or here, in a build that carries
//! the providers) when a run starts with the `mcp` setting. Each tool comes back as `{spec,
//! call}`, which the core registers as it registers a page's tool: `call(input, {signal})`
//! resolves to the observation, or rejects with an `Error` whose `kind` is `bad_input` (the
//! server refused the arguments: the model's to repair) or `failed`; the signal stops the
//! request in flight.

use super::fetch::WebTransport;
use super::{get, js_error, to_js};
use crate::error::{Error, ErrorKind};
use crate::json::Value;
use crate::mcp::{self, Client, Listed};
use crate::tools::ToolError;
use js_sys::{Array, Function, Object, Promise, Reflect};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

/// The tools of the servers of `{servers, taken, limitMs}` (JSON text: the `mcp` setting, the
/// names the agent's other tools have, and how long a server may take to list its tools):
/// `[{spec, call, server}]` (`server` the server's URL), the servers listed one after another, in order. `signal` (the run's)
/// stops the listing.
#[cfg_attr(feature = "net-module", wasm_bindgen(js_name = mcpTools))]
pub fn mcp_tools(config: String, signal: Option<AbortSignal>) -> Promise {
    super::promise(async move { Ok(tools(&config, signal).await?.into()) })
}

async fn tools(config: &str, signal: Option<AbortSignal>) -> Result<Array, JsValue> {
    let config = crate::json::from_str(config).unwrap_or_default();
    let servers = mcp::servers(&config["servers"])?;
    let mut taken: Vec<String> = match &config["taken"] {
        Value::Array(names) => names
            .iter()
            .filter_map(|n| n.as_str().map(String::from))
            .collect(),
        _ => Vec::new(),
    };
    let limit = config["limitMs"].as_u64().unwrap_or(30_000) as u32;
    let origin = get(&get(&js_sys::global(), "location"), "origin").as_string();
    let tools = Array::new();
    for server in servers {
        let label = mcp::label(&server.url);
        let client = Rc::new(Client::new(server, origin.clone()));
        // Aborted when the run is, or when the time is up.
        let timer = AbortSignal::timeout_with_u32(limit);
        let either = match &signal {
            Some(run) => AbortSignal::any(&Array::of2(run, &timer)),
            None => timer.clone(),
        };
        let transport = WebTransport {
            signal: Some(either),
        };
        let listed = client
            .list(&transport)
            .await
            .map_err(|e| match timer.aborted() {
                true => Error::new(
                    ErrorKind::Timeout,
                    format!(
                        "the MCP server {} did not list its tools within {limit} ms",
                        client.url()
                    ),
                ),
                false => e,
            })?;
        mcp::check_names(client.server(), &listed)?;
        for (spec, name) in mcp::specs(client.server(), &label, &listed, &mut taken) {
            let Some(tool) = listed.iter().find(|t| t.name == name).cloned() else {
                continue;
            };
            let entry = Object::new();
            let spec = to_js(&crate::chat::Listed(&spec))?;
            let _ = Reflect::set(&entry, &"spec".into(), &spec);
            let _ = Reflect::set(&entry, &"call".into(), &caller(client.clone(), tool));
            let _ = Reflect::set(&entry, &"server".into(), &client.url().into());
            tools.push(&entry);
        }
    }
    Ok(tools)
}

/// `call(input, {signal})` for one tool.
fn caller(client: Rc<Client>, tool: Listed) -> JsValue {
    let tool = Rc::new(tool);
    let call = Closure::<dyn FnMut(JsValue, JsValue) -> Promise>::new(
        move |input: JsValue, options: JsValue| {
            let (client, tool) = (client.clone(), tool.clone());
            let signal = get(&options, "signal").dyn_into::<AbortSignal>().ok();
            let input = super::json_of(&input);
            super::promise(async move {
                let transport = WebTransport { signal };
                match client.call(&transport, &tool, &input).await {
                    Ok(output) => Ok(output.text.into()),
                    Err(ToolError::BadInput(m)) => Err(js_error(&m, "bad_input")),
                    Err(ToolError::Failed(m)) => Err(js_error(&m, "failed")),
                }
            })
        },
    );
    call.into_js_value().unchecked_into::<Function>().into()
}
