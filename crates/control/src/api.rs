//! The HTTP routes: the JSON API under `/api`, the WebSocket stream at `/api/stream`, the page
//! and its bundled files. Every request passes, outermost first: [`screen`] (the `Host` it
//! names and a WebSocket's `Origin`, see `origin.rs`; security headers on every answer), the
//! CORS layer (preflights, allowed origins), the CSRF layer (cross-origin writes), then
//! [`admit`]: the token, the client's request budget, and JSON on writes.

use crate::connections::Client;
use crate::error::ApiError;
use crate::message_view::{pdu_samples, pdu_view, PduView};
use crate::pmt_json::pmt_from_json;
use crate::probe_view::{ProbeData, SpectrumOptions, View};
use crate::state::State;
use axum::body::Bytes;
use axum::extract::{Path, Query, Request, State as Ext};
use axum::http::{header, HeaderValue, Method};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use radioflow_runtime::{BlockId, Pmt};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;

type S = Ext<Arc<State>>;

/// The control port's routes over `state`.
pub(crate) fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/assets/{name}", get(asset))
        .route("/api/graph", get(graph))
        .route("/api/counters", get(counters))
        .route("/api/stream", get(crate::stream::stream))
        .route("/api/blocks/{block}/messages/{port}", post(post_message))
        .route("/api/blocks/{block}/params", get(params))
        .route(
            "/api/blocks/{block}/params/{param}",
            get(param).put(set_param),
        )
        .route("/api/variables", get(variables))
        .route("/api/variables/{name}", put(set_variable))
        .route("/api/probes", get(probes))
        .route("/api/probes/{id}", get(probe))
        .route("/api/messages/{id}", get(message_tap))
        .route("/api/stop", post(stop))
        .route("/api/start", post(start))
        .fallback(|r: Request| async move { ApiError::NotFound(r.uri().path().to_owned()) })
        .layer(middleware::from_fn_with_state(state.clone(), admit))
        .layer(state.origins.csrf_layer())
        .layer(state.origins.cors_layer())
        .layer(middleware::from_fn_with_state(state.clone(), screen))
        .with_state(state)
}

/// Headers on every answer: no other site may frame the page (and have the user click Stop
/// in it), its address (which holds the token) is never sent on as a Referer, nothing is
/// sniffed or cached.
const SECURITY_HEADERS: [(header::HeaderName, &str); 5] = [
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::CONTENT_SECURITY_POLICY, "frame-ancestors 'none'"),
    (header::REFERRER_POLICY, "no-referrer"),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::CACHE_CONTROL, "no-store"),
];

/// Refuses (403) a request naming another host (DNS rebinding) or a WebSocket from another
/// origin; adds [`SECURITY_HEADERS`] to every answer.
async fn screen(Ext(state): S, request: Request, next: Next) -> Response {
    let mut response = match state.origins.screen(&request) {
        Some(refusal) => refusal.into_response(),
        None => next.run(request).await,
    };
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers
            .entry(name)
            .or_insert(HeaderValue::from_static(value));
    }
    response
}

/// The token (401 when missing or wrong), then the client's request budget (429 when spent:
/// requests without the token never count against it), then a JSON body on writes (415).
async fn admit(Ext(state): S, request: Request, next: Next) -> Response {
    if let Some(want) = &state.token {
        let given = crate::auth::token_of(request.headers(), request.uri().query());
        if !given.is_some_and(|g| crate::auth::same(g, want)) {
            return ApiError::Unauthorized.into_response();
        }
    }
    if let Some(client) = request.extensions().get::<Client>() {
        client.connection.authenticate();
        if !state.budgets.admit(client.peer.ip()) {
            return ApiError::TooManyRequests.into_response();
        }
    }
    let method = request.method();
    if !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        let given = request
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap_or("(not text)"));
        let json = given.is_some_and(|t| {
            t.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return ApiError::NotJson {
                request: format!("{method} {}", request.uri().path()),
                given: given.unwrap_or("none").to_owned(),
            }
            .into_response();
        }
    }
    next.run(request).await
}

async fn index(Ext(state): S) -> Response {
    let (kind, body) = crate::assets::asset("index.html").unwrap_or(("text/html", ""));
    // The page's own links carry the token the page was opened with.
    let query = state
        .token
        .as_ref()
        .map(|t| format!("?token={t}"))
        .unwrap_or_default();
    let body = body.replace("{{QUERY}}", &query);
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

async fn asset(Path(name): Path<String>) -> Result<Response, ApiError> {
    let (kind, body) =
        crate::assets::asset(&name).ok_or_else(|| ApiError::NotFound(format!("/assets/{name}")))?;
    Ok(([(header::CONTENT_TYPE, kind)], body).into_response())
}

async fn graph(Ext(state): S) -> Json<Value> {
    let mut v = serde_json::to_value(&state.graph).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("running".into(), json!(state.live().running()));
        o.insert(
            "probes".into(),
            json!(state
                .probes
                .iter()
                .map(|p| {
                    let p = p.lock().unwrap_or_else(|e| e.into_inner());
                    json!({"id": p.probe.id, "item": p.probe.item, "size": p.probe.config.size})
                })
                .collect::<Vec<_>>()),
        );
        o.insert(
            "views".into(),
            json!(state.views.iter().map(view_json).collect::<Vec<_>>()),
        );
        o.insert("variables".into(), json!(state.variables.is_some()));
    }
    Json(v)
}

async fn counters(Ext(state): S) -> Json<Value> {
    let report = state.counters.borrow().clone();
    Json(serde_json::to_value(&*report).unwrap_or(Value::Null))
}

/// The block named `name` and its message inputs.
fn block<'a>(state: &'a State, name: &str) -> Result<&'a crate::graph_info::BlockInfo, ApiError> {
    state
        .graph
        .block(name)
        .ok_or_else(|| ApiError::UnknownBlock(name.to_owned()))
}

fn parse_json(body: &Bytes) -> Result<Value, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))
}

/// Posts `msg` to `block.port`.
fn post_to(
    state: &State,
    block_name: &str,
    port: &str,
    msg: radioflow_runtime::Pmt,
) -> Result<(), ApiError> {
    let b = block(state, block_name)?;
    let index = b
        .message_inputs
        .iter()
        .position(|p| p == port)
        .ok_or_else(|| ApiError::UnknownPort {
            block: block_name.to_owned(),
            port: port.to_owned(),
            known: b.message_inputs.join(", "),
        })?;
    if let Some(t) = b.message_input_types.get(index).copied().flatten()
        && !t.accepts(&msg)
    {
        return Err(ApiError::BadRequest(format!(
            "'{block_name}.{port}' takes {}, not {msg}",
            t.expects()
        )));
    }
    let poster = state
        .live()
        .poster
        .ok_or_else(|| ApiError::Conflict("the graph is not running".into()))?;
    if poster.post(BlockId::from_index(b.id), index, msg) {
        Ok(())
    } else {
        Err(ApiError::Conflict(format!(
            "block '{block_name}' has finished; message to '{port}' dropped"
        )))
    }
}

async fn post_message(
    Ext(state): S,
    Path((block_name, port)): Path<(String, String)>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let v = parse_json(&body)?;
    let msg = pmt_from_json(&v)
        .map_err(|e| ApiError::BadRequest(format!("message for '{block_name}.{port}': {e}")))?;
    post_to(&state, &block_name, &port, msg)?;
    Ok(Json(
        json!({"block": block_name, "port": port, "posted": v}),
    ))
}

fn param_value(state: &State, block: &str, param: &str) -> Value {
    state
        .params
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&(block.to_owned(), param.to_owned()))
        .cloned()
        .unwrap_or(Value::Null)
}

async fn params(Ext(state): S, Path(block_name): Path<String>) -> Result<Json<Value>, ApiError> {
    let b = block(&state, &block_name)?;
    let list: Vec<Value> = b
        .message_inputs
        .iter()
        .zip(&b.message_input_types)
        .map(|(p, t)| {
            json!({
                "name": p,
                "value": param_value(&state, &block_name, p),
                "takes": t.map(|t| t.expects()),
            })
        })
        .collect();
    Ok(Json(json!({"block": block_name, "params": list})))
}

fn settable(state: &State, block_name: &str, param: &str) -> Result<(), ApiError> {
    let b = block(state, block_name)?;
    if b.message_inputs.iter().any(|p| p == param) {
        Ok(())
    } else {
        Err(ApiError::UnknownParam {
            block: block_name.to_owned(),
            param: param.to_owned(),
            known: b.message_inputs.join(", "),
        })
    }
}

async fn param(
    Ext(state): S,
    Path((block_name, param)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    settable(&state, &block_name, &param)?;
    let value = param_value(&state, &block_name, &param);
    Ok(Json(
        json!({"block": block_name, "param": param, "value": value}),
    ))
}

async fn set_param(
    Ext(state): S,
    Path((block_name, param)): Path<(String, String)>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    settable(&state, &block_name, &param)?;
    let v = parse_json(&body)?;
    let value = v.get("value").cloned().ok_or_else(|| {
        ApiError::BadRequest(format!(
            "parameter '{block_name}.{param}': the body must be {{\"value\": ...}}"
        ))
    })?;
    // A parameter is a scalar: a number, a bool or a name. Anything else would reach the
    // block's handler, whose refusal would stop the graph.
    if !(value.is_number() || value.is_boolean() || value.is_string()) {
        return Err(ApiError::BadRequest(format!(
            "parameter '{block_name}.{param}': the value must be a number, a bool or a string, not {value}"
        )));
    }
    let msg = pmt_from_json(&value)
        .map_err(|e| ApiError::BadRequest(format!("parameter '{block_name}.{param}': {e}")))?;
    post_to(&state, &block_name, &param, msg)?;
    state
        .params
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert((block_name.clone(), param.clone()), value.clone());
    Ok(Json(
        json!({"block": block_name, "param": param, "value": value}),
    ))
}

/// A front end's view as the page takes it.
fn view_json(w: &crate::variables::ViewConfig) -> Value {
    json!({
        "name": w.name, "title": w.title, "kind": w.kind, "probes": w.probes,
        "messages": w.messages,
        "centre": w.centre, "size": w.size, "gui_hint": w.gui_hint,
        "options": w.options.iter().map(|(k, x)| (k.clone(), json!(x)))
            .collect::<serde_json::Map<String, Value>>(),
        "labels": w.labels, "units": w.units, "colours": w.colours, "tag_key": w.tag_key,
        "clicks": w.clicks, "centre_from": w.centre_from,
    })
}

async fn variables(Ext(state): S) -> Result<Json<Value>, ApiError> {
    let shared = state
        .variables
        .as_ref()
        .ok_or_else(|| ApiError::NotFound("this graph has no variables to set".into()))?;
    let (widgets, views) = {
        let variables = shared.0.lock().unwrap_or_else(|p| p.into_inner());
        (variables.widgets(), variables.views())
    };
    let warnings = state
        .followed
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    Ok(Json(json!({
        "variables": widgets,
        "views": views.iter().map(view_json).collect::<Vec<_>>(),
        "received": warnings.received,
        "warnings": warnings.warnings,
    })))
}

/// Sets a front end's variable, then each running block's parameter it changes, then posts the
/// messages it sends (a message widget's). The variable is set even when one of those posts
/// fails (the block finished, or refused the value's type): the answer lists them under
/// `errors`.
async fn set_variable(
    Ext(state): S,
    Path(name): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let shared = state
        .variables
        .as_ref()
        .ok_or_else(|| ApiError::NotFound("this graph has no variables to set".into()))?;
    let v = parse_json(&body)?;
    let value = v.get("value").cloned().ok_or_else(|| {
        ApiError::BadRequest(format!(
            "variable '{name}': the body must be {{\"value\": ...}}"
        ))
    })?;
    if state.live().poster.is_none() {
        return Err(ApiError::Conflict("the graph is not running".into()));
    }
    let (change, widgets) = {
        let mut variables = shared.0.lock().unwrap_or_else(|p| p.into_inner());
        let change = variables.set(&name, &value).map_err(ApiError::BadRequest)?;
        (change, variables.widgets())
    };
    let (set, sent, errors) = apply_change(&state, change.params, change.messages);
    Ok(Json(json!({
        "name": name,
        "value": change.value,
        "set": set,
        "sent": sent,
        "fixed": change.fixed,
        "errors": errors,
        "views": change.views.iter().map(view_json).collect::<Vec<_>>(),
        "variables": widgets,
    })))
}

/// Sets each running block's parameter in `params`, then posts `messages`: what was set, what
/// was sent, and each failure (naming block and port) as JSON.
pub(crate) fn apply_change(
    state: &State,
    params: Vec<(String, String, radioflow_runtime::Pmt)>,
    messages: Vec<(String, String, radioflow_runtime::Pmt)>,
) -> (Vec<Value>, Vec<Value>, Vec<String>) {
    let mut set = Vec::new();
    let mut errors = Vec::new();
    for (block, param, pmt) in params {
        let shown = pmt.to_string();
        match post_to(state, &block, &param, pmt) {
            Ok(()) => {
                state
                    .params
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert((block.clone(), param.clone()), json!(shown));
                set.push(json!({"block": block, "param": param, "value": shown}));
            }
            Err(e) => errors.push(format!("{block}.{param}: {e}")),
        }
    }
    let mut sent = Vec::new();
    for (block, port, pmt) in messages {
        let shown = pmt.to_string();
        match post_to(state, &block, &port, pmt) {
            Ok(()) => sent.push(json!({"block": block, "port": port, "message": shown})),
            Err(e) => errors.push(format!("{block}.{port}: {e}")),
        }
    }
    (set, sent, errors)
}

/// A message tap's latest message: its text, and the number or bool a display shows (GNU
/// Radio's LED indicator and gauges take the second of a pair, `pmt.cdr`), with the count.
/// With `view` (time, spectrum, constellation or waterfall) and `takes` (complex, float or
/// byte), the latest PDU plotted as a QT sink of that `msg_*` type plots it (a spectrum's
/// options as a probe's).
async fn message_tap(
    Ext(state): S,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let tap = state
        .message_taps
        .iter()
        .find(|t| t.id == id)
        .ok_or_else(|| ApiError::NotFound(format!("no message tap '{id}'")))?;
    let latest = tap
        .state
        .latest
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    let count = tap.state.count.load(std::sync::atomic::Ordering::Relaxed);
    if let Some(name) = q.get("view") {
        let bad = |what: String| ApiError::BadRequest(format!("message tap '{id}': {what}"));
        let takes = q.get("takes").map_or("complex", String::as_str);
        if !["complex", "float", "byte"].contains(&takes) {
            return Err(bad(format!(
                "takes = '{takes}' is not complex, float or byte"
            )));
        }
        let who = format!("message tap '{id}'");
        let options = |most| spectrum_options(&who, &q, most);
        let view = match View::from_name(name) {
            Some(View::Spectrum(_)) => PduView::Plot(View::Spectrum(options(PDU_FFT_MOST)?)),
            Some(other) => PduView::Plot(other),
            None if name == "waterfall" => PduView::Waterfall(options(PDU_WATERFALL_FFT_MOST)?),
            None => {
                return Err(bad(format!(
                    "unknown view '{name}' (time, spectrum, constellation or waterfall)"
                )))
            }
        };
        let data = match latest.as_ref().map(|m| pdu_samples(m, takes)) {
            None => ProbeData {
                id: id.clone(),
                ..ProbeData::default()
            },
            Some(Ok(samples)) => pdu_view(&id, &samples, count, view).map_err(bad)?,
            Some(Err(note)) => ProbeData {
                id: id.clone(),
                frames: count,
                note,
                ..ProbeData::default()
            },
        };
        return Ok(Json(serde_json::to_value(data).unwrap_or(Value::Null)));
    }
    let shown = match &latest {
        Some(Pmt::Pair(pair)) => match &pair.1 {
            Pmt::Int(i) => json!(i),
            Pmt::Double(x) => json!(x),
            Pmt::Bool(b) => json!(b),
            _ => Value::Null,
        },
        _ => Value::Null,
    };
    // Whether the second of the pair is a double (`pmt::is_real`: a frequency sink's centre).
    let real = matches!(&latest, Some(Pmt::Pair(pair)) if matches!(pair.1, Pmt::Double(_)));
    Ok(Json(json!({
        "id": tap.id,
        "count": count,
        "text": latest.map(|m| m.to_string()),
        "value": shown,
        "real": real,
    })))
}

async fn probes(Ext(state): S) -> Json<Value> {
    Json(json!(state
        .probes
        .iter()
        .map(|p| {
            let p = p.lock().unwrap_or_else(|e| e.into_inner());
            json!({"id": p.probe.id, "item": p.probe.item, "size": p.probe.config.size})
        })
        .collect::<Vec<_>>()))
}

async fn probe(
    Ext(state): S,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let name = q.get("view").map_or("spectrum", String::as_str);
    let mut view = View::from_name(name).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "probe '{id}': unknown view '{name}' (spectrum, time or constellation)"
        ))
    })?;
    let p = state
        .probes
        .iter()
        .find(|p| p.lock().is_ok_and(|p| p.probe.id == id))
        .ok_or_else(|| ApiError::UnknownProbe(id.clone()))?;
    if let View::Spectrum(options) = &mut view {
        let size = p
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .probe
            .config
            .size;
        *options = spectrum_options(&format!("probe '{id}'"), &q, FftBound::Frame(size))?;
    }
    let data = p.lock().unwrap_or_else(|e| e.into_inner()).view(view);
    Ok(Json(serde_json::to_value(data).unwrap_or(Value::Null)))
}

/// The largest FFT asked of a PDU's spectrum: the largest size QT's frequency sink offers.
/// The spectrum averages over the PDU, so its cost follows the PDU's length, its answer `fft`
/// numbers.
const PDU_FFT_MOST: FftBound = FftBound::Pdu(32768);

/// The largest FFT asked of a PDU's spectrogram: its answer is [`crate::message_view::WATERFALL_ROWS`] rows of `fft`
/// numbers, so this bounds one request to 819,200 numbers (about 9 MB of JSON) whatever the
/// query says.
const PDU_WATERFALL_FFT_MOST: FftBound = FftBound::Pdu(4096);

/// How many bins a spectrum may have, and why.
#[derive(Clone, Copy)]
enum FftBound {
    /// A probe's: at most its frame of this many samples.
    Frame(usize),
    /// A PDU's: at most this many, to bound the work and the answer of one request.
    Pdu(usize),
}

/// A spectrum's `fft` (bins, 1 to the bound), `window` (GNU Radio's window number, as the QT
/// sinks' `wintype`) and `norm` (1 to normalize the window) from the query; errors begin with
/// `who`.
fn spectrum_options(
    who: &str,
    q: &HashMap<String, String>,
    bound: FftBound,
) -> Result<SpectrumOptions, ApiError> {
    let bad = |what: String| ApiError::BadRequest(format!("{who}: {what}"));
    let mut options = SpectrumOptions::default();
    if let Some(text) = q.get("fft") {
        let (most, why) = match bound {
            FftBound::Frame(size) => (size, "its frame size"),
            FftBound::Pdu(most) => (most, "the most this view computes for a PDU"),
        };
        let fft = text
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=most).contains(n))
            .ok_or_else(|| bad(format!("fft = '{text}' is not 1 to {most} ({why})")))?;
        options.fft = Some(fft);
    }
    if let Some(text) = q.get("window") {
        let window = text
            .parse::<i64>()
            .ok()
            .and_then(SpectrumOptions::gnuradio_window)
            .ok_or_else(|| {
                bad(format!(
                    "window = '{text}' is not one of GNU Radio's QT sinks' windows (0 Hamming, \
                     1 Hann, 2 Blackman, 3 rectangular, 4 Kaiser, 5 Blackman-Harris, 7 flat-top)"
                ))
            })?;
        options.window = Some(window);
    }
    match q.get("norm").map(String::as_str) {
        None | Some("0") => {}
        Some("1") => options.normalize = true,
        Some(other) => return Err(bad(format!("norm = '{other}' is not 0 or 1"))),
    }
    if options.normalize && options.window.is_none() {
        return Err(bad("norm = 1 needs a window".into()));
    }
    Ok(options)
}

async fn stop(Ext(state): S) -> Result<Json<Value>, ApiError> {
    if !state.live().stop() {
        return Err(ApiError::Conflict(
            "the graph is not running (or cannot be stopped from here)".into(),
        ));
    }
    Ok(Json(json!({"stopping": true})))
}

async fn start(Ext(state): S) -> Result<Json<Value>, ApiError> {
    if state.live().running() {
        return Err(ApiError::Conflict("the graph is already running".into()));
    }
    Err(ApiError::Conflict(
        "a stopped graph is restarted by the program that owns it (e.g. run the command again)"
            .into(),
    ))
}
