//! `/api/stream`: a WebSocket that sends the counter [`Report`](crate::counters::Report) as
//! JSON every `period_ms` (query parameter, or a `{"period_ms": N}` text message at any time).
//! The period is clamped to [`MIN_PERIOD_MS`, `MAX_PERIOD_MS`]: the counters are sampled once
//! per 100 ms for all clients together, so a client asking for more only gets repeats.

use crate::connections::Client;
use crate::state::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State as Ext};
use axum::response::Response;
use axum::Extension;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// The fastest rate a client gets.
pub(crate) const MIN_PERIOD_MS: u64 = 100;
/// The slowest.
pub(crate) const MAX_PERIOD_MS: u64 = 10_000;

fn clamp(ms: u64) -> Duration {
    Duration::from_millis(ms.clamp(MIN_PERIOD_MS, MAX_PERIOD_MS))
}

pub(crate) async fn stream(
    Ext(state): Ext<Arc<State>>,
    Query(q): Query<HashMap<String, String>>,
    client: Option<Extension<Client>>,
    ws: WebSocketUpgrade,
) -> Response {
    let period = clamp(
        q.get("period_ms")
            .and_then(|v| v.parse().ok())
            .unwrap_or(500),
    );
    ws.max_message_size(4096)
        .on_upgrade(move |socket| async move {
            // Holding the client keeps the socket counted among the port's connections.
            let _client = client;
            run(socket, state, period).await;
        })
}

async fn run(mut socket: WebSocket, state: Arc<State>, mut period: Duration) {
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tokio::select! {
            _ = tick.tick() => {
                let report = state.counters.borrow().clone();
                let Ok(text) = serde_json::to_string(&*report) else { return };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            msg = socket.recv() => match msg {
                Some(Ok(Message::Text(t))) => {
                    let asked = serde_json::from_str::<serde_json::Value>(&t)
                        .ok()
                        .and_then(|v| v.get("period_ms").and_then(serde_json::Value::as_u64));
                    if let Some(ms) = asked {
                        period = clamp(ms);
                        tick = tokio::time::interval(period);
                        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_are_clamped() {
        assert_eq!(clamp(0), Duration::from_millis(MIN_PERIOD_MS));
        assert_eq!(clamp(250), Duration::from_millis(250));
        assert_eq!(clamp(u64::MAX), Duration::from_millis(MAX_PERIOD_MS));
    }
}
